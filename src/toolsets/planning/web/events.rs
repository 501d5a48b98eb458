// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Live updates, `GET /boards/{name}/events`: a Server-Sent Events stream of
//! the board's JSON ([`super::view`]). The first event carries the state
//! at once, with a `retry:` delay, so that a page that reconnects (say after a
//! server restart) re-renders from the full state; then one event follows each
//! change. Changes that come faster than a client reads are merged: the event
//! always carries the newest state, never a stale one. Every
//! [`STORE_CHECK`] the stream also checks the board's store
//! ([`store_state::shown`]: the database answers, the board reads, the
//! sync): when that changed, an event tells, so that a page never shows
//! "Live" over a store that is down. While the store cannot be used, the
//! events carry the board as this server last held it, with the problem.
//!
//! ```text
//! retry: 1000
//! event: board
//! data: {"version":1,"board":"default",...}
//!
//! ```

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio_util::sync::CancellationToken;

use super::store_state::{self, StoreView};
use super::view::BoardView;
use crate::server::BoardName;
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::shared_board::SharedBoard;

/// How long a browser waits before reconnecting a dropped stream.
pub(crate) const RETRY: Duration = Duration::from_secs(1);

/// How often an idle stream sends a comment, so that proxies keep it open.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often an open stream checks the board's store.
pub(crate) const STORE_CHECK: Duration = Duration::from_secs(3);

/// The name of the event that carries the board.
pub(crate) const BOARD_EVENT: &str = "board";

/// The name of the event sent when not even the board as this server last
/// held it can be had (its lock stayed taken); its data is the reason. A
/// store that cannot be used otherwise is told in a `board` event's `store`.
pub(crate) const UNAVAILABLE_EVENT: &str = "unavailable";

/// What one open stream holds.
struct Watch {
    name: BoardName,
    boards: Arc<Boards>,
    board: SharedBoard,
    changes: watch::Receiver<u64>,
    closed: CancellationToken,
    first: bool,
    /// Ticks every [`STORE_CHECK`].
    check: tokio::time::Interval,
    /// The store's state as the last event told it.
    told: StoreView,
    /// Counts this stream against the cap until it ends.
    _slot: OwnedSemaphorePermit,
}

/// The event stream of `board`, until the client leaves or `closed` is
/// cancelled (at shutdown).
pub(crate) fn stream(
    name: BoardName,
    boards: Arc<Boards>,
    board: SharedBoard,
    closed: CancellationToken,
    slot: OwnedSemaphorePermit,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut changes = board.watch();
    // The first poll sends the current state at once.
    changes.mark_changed();
    // The first event tells the store's state as read; the checks follow.
    let mut check =
        tokio::time::interval_at(tokio::time::Instant::now() + STORE_CHECK, STORE_CHECK);
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let state = Watch {
        name,
        boards,
        board,
        changes,
        closed,
        first: true,
        check,
        told: StoreView::default(),
        _slot: slot,
    };
    let events = futures_util::stream::unfold(state, |mut state| async move {
        loop {
            let check = tokio::select! {
                () = state.closed.cancelled() => return None,
                changed = state.changes.changed() => {
                    changed.ok()?;
                    state.changes.borrow_and_update();
                    false
                }
                _ = state.check.tick() => true,
            };
            let name = state.name.clone();
            // The first event asks too, so that a page opened while the
            // store is down is told in the same words as the checks tell.
            let boards = (check || state.first).then(|| state.boards.clone());
            let (mut event, told) = state
                .board
                .run(move |board| board_event(&name, boards.as_deref(), board))
                .await;
            // A check that found nothing new sends nothing.
            if check && told.shows_as(&state.told) {
                continue;
            }
            state.told = told;
            if std::mem::take(&mut state.first) {
                event = event.retry(RETRY);
            }
            return Some((Ok(event), state));
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// The event carrying the board's current state and its store's, and
/// that store state: with `boards`, the backend is asked first whether it
/// answers ([`store_state::shown`]); without, the board is read (it just
/// changed: its store answered).
fn board_event(
    name: &BoardName,
    boards: Option<&Boards>,
    board: &SharedBoard,
) -> (Event, StoreView) {
    let json = |b: &_, store: &StoreView| {
        BoardView::of(name.as_str(), b, board.changed_at())
            .with_store(store.clone())
            .to_json()
    };
    let shown = match boards {
        Some(boards) => store_state::shown(boards, board, json),
        None => store_state::read_or_held(board, json),
    };
    match shown {
        Ok((json, store)) => (Event::default().event(BOARD_EVENT).data(json), store),
        // Not even the board as held could be had (its lock stayed taken).
        Err(error) => {
            let told = StoreView::with(Some(format!("The board cannot be read: {error}")), board);
            let event = Event::default()
                .event(UNAVAILABLE_EVENT)
                .data(error.to_string());
            (event, told)
        }
    }
}
