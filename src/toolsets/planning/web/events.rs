// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Live updates, `GET /boards/{name}/events`: a Server-Sent Events stream of
//! the board's JSON ([`super::view`]). The first event carries the state
//! at once, with a `retry:` delay, so that a page that reconnects (say after a
//! server restart) re-renders from the full state; then one event follows each
//! change. Changes that come faster than a client reads are merged: the event
//! always carries the newest state, never a stale one.
//!
//! ```text
//! retry: 1000
//! event: board
//! data: {"version":1,"board":"default",...}
//!
//! ```

use std::convert::Infallible;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio_util::sync::CancellationToken;

use super::view::BoardView;
use crate::server::BoardName;
use crate::toolsets::planning::shared_board::SharedBoard;

/// How long a browser waits before reconnecting a dropped stream.
pub(crate) const RETRY: Duration = Duration::from_secs(1);

/// How often an idle stream sends a comment, so that proxies keep it open.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The name of the event that carries the board.
pub(crate) const BOARD_EVENT: &str = "board";

/// The name of the event sent when the board cannot be read (e.g. another
/// process wrote a corrupt file); its data is the reason.
pub(crate) const UNAVAILABLE_EVENT: &str = "unavailable";

/// What one open stream holds.
struct Watch {
    name: BoardName,
    board: SharedBoard,
    changes: watch::Receiver<u64>,
    closed: CancellationToken,
    first: bool,
    /// Counts this stream against the cap until it ends.
    _slot: OwnedSemaphorePermit,
}

/// The event stream of `board`, until the client leaves or `closed` is
/// cancelled (at shutdown).
pub(crate) fn stream(
    name: BoardName,
    board: SharedBoard,
    closed: CancellationToken,
    slot: OwnedSemaphorePermit,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut changes = board.watch();
    // The first poll sends the current state at once.
    changes.mark_changed();
    let state = Watch {
        name,
        board,
        changes,
        closed,
        first: true,
        _slot: slot,
    };
    let events = futures_util::stream::unfold(state, |mut state| async move {
        tokio::select! {
            () = state.closed.cancelled() => None,
            changed = state.changes.changed() => {
                changed.ok()?;
                state.changes.borrow_and_update();
                let name = state.name.clone();
                let mut event = state.board.run(move |board| board_event(&name, board)).await;
                if std::mem::take(&mut state.first) {
                    event = event.retry(RETRY);
                }
                Some((Ok(event), state))
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// The event carrying the board's current state.
fn board_event(name: &BoardName, board: &SharedBoard) -> Event {
    let json = board.read(|b| BoardView::of(name.as_str(), b, board.changed_at()).to_json());
    match json {
        Ok(json) => Event::default().event(BOARD_EVENT).data(json),
        Err(error) => Event::default()
            .event(UNAVAILABLE_EVENT)
            .data(error.to_string()),
    }
}
