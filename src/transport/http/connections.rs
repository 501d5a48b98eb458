// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The cap on open HTTP connections. A connection is either in a request
//! (from its headers to the end of its response) or waiting for one (still
//! sending its request line and headers, or idle between requests). At the
//! cap, a new connection takes the place of the one that has waited
//! longest, so that clients who trickle their headers (or never send them)
//! cannot lock out one that sends a request at once; only when every
//! connection is in a request is a new one refused. The new connection is
//! admitted once the one it replaces is really closed: an evicted
//! connection keeps its descriptor until its task ends, and on a busy
//! machine admitting first let closed-but-not-yet-dropped sockets pile up
//! past the open-files limit.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// The open connections, up to a cap.
#[derive(Debug)]
pub(crate) struct Connections {
    cap: usize,
    state: Mutex<State>,
    /// Told when a connection is closed.
    closed: Notify,
}

#[derive(Debug, Default)]
struct State {
    /// Connections whose socket is open, the evicted ones until they close.
    open: usize,
    /// Evicted connections not closed yet.
    evicting: usize,
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
            closed: Notify::new(),
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
    /// reached, once that one is closed; `None` if every connection is in a
    /// request.
    pub(crate) async fn admit(self: &Arc<Self>) -> Option<Arc<Slot>> {
        loop {
            let closed = self.closed.notified();
            {
                let mut state = self.state.lock();
                if state.open < self.cap {
                    return Some(self.admitted(&mut state));
                }
                if state.evicting == 0 {
                    let (_, oldest) = state.waiting.pop_first()?;
                    oldest.cancel();
                    state.evicting += 1;
                }
            }
            closed.await;
        }
    }

    /// A new connection counted, waiting for its first request.
    fn admitted(self: &Arc<Self>, state: &mut State) -> Arc<Slot> {
        state.open += 1;
        let evicted = CancellationToken::new();
        let key = state.wait(evicted.clone());
        Arc::new(Slot {
            connections: self.clone(),
            evicted,
            place: Mutex::new(Place {
                waiting: Some(key),
                requests: 0,
            }),
        })
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
        state.open -= 1;
        if self.evicted.is_cancelled() {
            state.evicting -= 1;
        }
        drop(state);
        // One admission at a time waits (the accept loop): a stored permit
        // wakes it even if it starts waiting after this.
        self.connections.closed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admits, or panics if the admission waits (the cap was reached and
    /// no evicted connection has closed yet).
    fn admit_now(connections: &Arc<Connections>) -> Option<Arc<Slot>> {
        use std::future::Future;
        let mut admission = std::pin::pin!(connections.admit());
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match admission.as_mut().poll(&mut context) {
            std::task::Poll::Ready(slot) => slot,
            std::task::Poll::Pending => panic!("the admission waits"),
        }
    }

    #[tokio::test]
    async fn at_the_cap_the_longest_waiting_connection_makes_room() {
        let connections = Connections::new(2);
        let first = admit_now(&connections).unwrap();
        let second = admit_now(&connections).unwrap();
        let busy = first.in_request();
        // The third waits until the evicted second one is closed.
        let third = {
            let admission = tokio::spawn({
                let connections = connections.clone();
                async move { connections.admit().await }
            });
            second.evicted().await;
            assert!(!first.evicted.is_cancelled(), "the one in a request stays");
            assert_eq!(connections.open(), 2, "the evicted one is still open");
            drop(second);
            admission.await.unwrap().unwrap()
        };
        assert_eq!(connections.open(), 2);
        let busy_too = third.in_request();
        assert!(admit_now(&connections).is_none(), "all are in requests");
        drop(busy);
        let fourth = tokio::spawn({
            let connections = connections.clone();
            async move { connections.admit().await }
        });
        first.evicted().await;
        drop(first);
        let fourth = fourth.await.unwrap().unwrap();
        assert_eq!(connections.open(), 2);
        drop((third, fourth, busy_too));
        assert_eq!(connections.open(), 0);
    }
}
