// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The cap on open HTTP connections. A connection is either in a request
//! (from its headers to the end of its response) or waiting for one (still
//! sending its request line and headers, or idle between requests). At the
//! cap, a new connection takes the place of the one that has waited
//! longest, so that clients who trickle their headers (or never send them)
//! cannot lock out one that sends a request at once; only when every
//! connection is in a request is a new one refused.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

/// The open connections, up to a cap.
#[derive(Debug)]
pub(crate) struct Connections {
    cap: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Connections counted against the cap.
    open: usize,
    /// Orders the waiting connections, oldest first.
    next: u64,
    /// The waiting connections, by when they started waiting.
    waiting: BTreeMap<u64, CancellationToken>,
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
pub(crate) struct Slot {
    connections: Arc<Connections>,
    /// Cancelled when a newer connection takes this one's place.
    evicted: CancellationToken,
    place: Mutex<Place>,
}

#[derive(Debug)]
struct Place {
    /// Its key in `waiting`, while it waits for a request.
    waiting: Option<u64>,
    /// Requests in progress.
    requests: usize,
}

/// Held while a connection is in a request.
#[derive(Debug)]
pub(crate) struct InRequest(Arc<Slot>);

impl Connections {
    /// At most `cap` connections.
    pub(crate) fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            cap,
            state: Mutex::new(State::default()),
        })
    }

    /// The cap.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    /// Connections counted now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.state.lock().open
    }

    /// Admits a new connection (waiting for its first request), taking the
    /// place of the connection that has waited longest if the cap is
    /// reached; `None` if every connection is in a request.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<Arc<Slot>> {
        let mut state = self.state.lock();
        if state.open >= self.cap {
            let (_, oldest) = state.waiting.pop_first()?;
            oldest.cancel();
            state.open -= 1;
        }
        state.open += 1;
        let evicted = CancellationToken::new();
        let key = state.wait(evicted.clone());
        Some(Arc::new(Slot {
            connections: self.clone(),
            evicted,
            place: Mutex::new(Place {
                waiting: Some(key),
                requests: 0,
            }),
        }))
    }
}

impl State {
    /// Puts a connection at the end of the waiting line.
    fn wait(&mut self, evicted: CancellationToken) -> u64 {
        let key = self.next;
        self.next += 1;
        self.waiting.insert(key, evicted);
        key
    }
}

impl Slot {
    /// Resolves when a newer connection took this one's place: then the
    /// connection is closed.
    pub(crate) async fn evicted(&self) {
        self.evicted.cancelled().await;
    }

    /// Marks the connection as in a request until the guard is dropped.
    pub(crate) fn in_request(self: &Arc<Self>) -> InRequest {
        let mut state = self.connections.state.lock();
        let mut place = self.place.lock();
        if let Some(key) = place.waiting.take() {
            state.waiting.remove(&key);
        }
        place.requests += 1;
        InRequest(self.clone())
    }
}

impl Drop for InRequest {
    fn drop(&mut self) {
        let slot = &self.0;
        let mut state = slot.connections.state.lock();
        let mut place = slot.place.lock();
        place.requests -= 1;
        if place.requests == 0 && !slot.evicted.is_cancelled() {
            place.waiting = Some(state.wait(slot.evicted.clone()));
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.connections.state.lock();
        if let Some(key) = self.place.get_mut().waiting.take() {
            state.waiting.remove(&key);
        }
        // An evicted connection gave its place up already.
        if !self.evicted.is_cancelled() {
            state.open -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_longest_waiting_connection_makes_room() {
        let connections = Connections::new(2);
        let first = connections.admit().unwrap();
        let second = connections.admit().unwrap();
        let busy = first.in_request();
        let third = connections.admit().unwrap();
        assert!(second.evicted.is_cancelled(), "the waiting one goes");
        assert!(!first.evicted.is_cancelled(), "the one in a request stays");
        assert_eq!(connections.open(), 2);
        let busy_too = third.in_request();
        assert!(connections.admit().is_none(), "all are in requests");
        drop(busy);
        let fourth = connections.admit().unwrap();
        assert!(first.evicted.is_cancelled(), "idle again, then the oldest");
        drop((first, second));
        assert_eq!(connections.open(), 2);
        drop((third, fourth, busy_too));
        assert_eq!(connections.open(), 0);
    }
}
