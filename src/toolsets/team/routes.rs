// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`'s HTTP face, on boards that exist. It answers like the
//! web board's routes, whose boards it reads: the same security headers,
//! and the same answers for a bad name or a board that cannot be shown.
//!
//! - `GET /boards/{name}/digest`: the team's digest, as Markdown (what
//!   `summary --url` fetches);
//! - `GET /boards/{name}/reservations`: the live reservations, as JSON
//!   (what `check-touches --url` fetches; `reserved.rs`):
//!
//! ```json
//! {"reservations":[{"task_id":"fc1a4586","title":"Parser","holder":"w1",
//!   "until":"2027-01-15T08:25:00Z","dispatched":false,"touches":["src/parser/**"]}]}
//! ```

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::Team;
use crate::runtime::blocking;
use crate::server::BoardName;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::web::answers::{no_board, no_such_board, not_opened, unreadable};
use crate::toolsets::planning::web::security_headers;

/// The routes, on `team`'s boards and clock.
pub(crate) fn routes(team: Team) -> Router {
    Router::new()
        .route("/boards/{name}/digest", get(digest))
        .route("/boards/{name}/reservations", get(reservations))
        .layer(middleware::from_fn(security_headers))
        .with_state(team)
}

/// `GET /boards/{name}/digest`.
async fn digest(State(team): State<Team>, Path(name): Path<String>) -> Response {
    on_stored_board(team, name, |team, name, board, set_aside, revision| {
        (
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            team.digest(name, board, set_aside, revision),
        )
            .into_response()
    })
    .await
}

/// `GET /boards/{name}/reservations`.
async fn reservations(State(team): State<Team>, Path(name): Path<String>) -> Response {
    on_stored_board(team, name, |team, _, board, _, _| {
        let reserved = team.reservations(board);
        (
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::to_string(&reserved).unwrap_or_else(|_| "{}".into()),
        )
            .into_response()
    })
    .await
}

/// The answer `show` gives on board `name`, if it is a board name and the
/// board exists and can be read; else the web board's answer for that.
async fn on_stored_board(
    team: Team,
    name: String,
    show: impl FnOnce(&Team, &BoardName, &Board, &[SetAside], u64) -> Response + Send + 'static,
) -> Response {
    let Some(name) = BoardName::parse(&name) else {
        return no_such_board();
    };
    // Opening a stored board reads its file: off the async workers.
    blocking::run(move || {
        let board = match team.boards().get_stored(&name) {
            Ok(Some(board)) => board,
            Ok(None) => return no_board(&name),
            Err(error) => return not_opened(&name, &error),
        };
        let revision = board.revision();
        board
            .read(|b| show(&team, &name, b, &board.set_aside(), revision))
            .unwrap_or_else(|error| unreadable(&name, &error))
    })
    .await
}
