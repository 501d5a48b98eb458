// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `GET /boards/{name}/reservations`: the live reservations of a board
//! that exists, as JSON (what `check-touches --url` fetches). It answers
//! like the digest route: the web board's security headers and answers.
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
use crate::toolsets::planning::web::answers::{no_board, no_such_board, not_opened, unreadable};
use crate::toolsets::planning::web::security_headers;

/// The route, on `team`'s boards and clock.
pub(crate) fn routes(team: Team) -> Router {
    Router::new()
        .route("/boards/{name}/reservations", get(reservations))
        .layer(middleware::from_fn(security_headers))
        .with_state(team)
}

/// `GET /boards/{name}/reservations`.
async fn reservations(State(team): State<Team>, Path(name): Path<String>) -> Response {
    let Some(name) = BoardName::parse(&name) else {
        return no_such_board();
    };
    blocking::run(move || {
        let board = match team.boards().get_stored(&name) {
            Ok(Some(board)) => board,
            Ok(None) => return no_board(&name),
            Err(error) => return not_opened(&name, &error),
        };
        match board.read(|b| team.reservations(b)) {
            Ok(reserved) => (
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::to_string(&reserved).unwrap_or_else(|_| "{}".into()),
            )
                .into_response(),
            Err(error) => unreadable(&name, &error),
        }
    })
    .await
}
