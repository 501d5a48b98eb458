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
//! ([`StoreView::of`]: the database answers, the board reads, the sync):
//! when that changed, an event tells, so that a page never shows "Live"
//! over a store that is down.
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

use super::store_state::StoreView;
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

/// The name of the event sent when the board cannot be read (e.g. another
/// process wrote a corrupt file); its data is the reason.
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
            let checked = tokio::select! {
                () = state.closed.cancelled() => return None,
                changed = state.changes.changed() => {
                    changed.ok()?;
                    state.changes.borrow_and_update();
                    None
                }
                _ = state.check.tick() => {
                    let boards = state.boards.clone();
                    let store = state.board.run(move |board| StoreView::of(&boards, board)).await;
                    // Nothing new: no event.
                    if store == state.told {
                        continue;
                    }
                    Some(store)
                }
            };
            let name = state.name.clone();
            let (mut event, told) = state
                .board
                .run(move |board| board_event(&name, board, checked))
                .await;
            state.told = told;
            if std::mem::take(&mut state.first) {
                event = event.retry(RETRY);
            }
            return Some((Ok(event), state));
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// The event carrying the board's current state and its store's (as
/// `checked` found it, or else as the read finds it), and that store state.
fn board_event(
    name: &BoardName,
    board: &SharedBoard,
    checked: Option<StoreView>,
) -> (Event, StoreView) {
    let mut store = None;
    let json = board.read(|b| {
        let view = checked.unwrap_or_else(|| StoreView::with(None, board));
        store = Some(view.clone());
        BoardView::of(name.as_str(), b, board.changed_at())
            .with_store(view)
            .to_json()
    });
    match json {
        Ok(json) => (
            Event::default().event(BOARD_EVENT).data(json),
            store.unwrap_or_default(),
        ),
        Err(error) => {
            let told = StoreView::with(Some(error.to_string()), board);
            let event = Event::default()
                .event(UNAVAILABLE_EVENT)
                .data(error.to_string());
            (event, told)
        }
    }
}
