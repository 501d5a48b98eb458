// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`'s HTTP face: `GET /boards/{name}/digest`, the digest of a
//! board that exists, as Markdown (what `summary --url` fetches). It answers
//! like the web board's routes, whose boards it reads: the same security
//! headers, and the same answers for a bad name or a board that cannot be
//! shown.

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
        .route("/boards/{name}/digest", get(digest))
        .layer(middleware::from_fn(security_headers))
        .with_state(team)
}

/// `GET /boards/{name}/digest`: the team's digest of a board that exists, as text.
async fn digest(State(team): State<Team>, Path(name): Path<String>) -> Response {
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
        match board.read(|b| team.digest(&name, b)) {
            Ok(text) => (
                [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
                text,
            )
                .into_response(),
            Err(error) => unreadable(&name, &error),
        }
    })
    .await
}
