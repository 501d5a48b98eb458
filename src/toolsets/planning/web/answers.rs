// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The answers of the board routes when a board cannot be shown: a name
//! that is no board's, a board not created yet, one that cannot be opened
//! or read. Shared with toolset `team`'s digest route.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::server::BoardName;
use crate::server::routes::unavailable;
use crate::toolsets::planning::named_boards::OpenError;
use crate::toolsets::planning::shared_board::CallError;

/// A 404 with a short reason.
pub(crate) fn not_found(reason: &str) -> Response {
    (StatusCode::NOT_FOUND, format!("{reason}\n")).into_response()
}

/// The answer for a path segment that is no board's name.
pub(crate) fn no_such_board() -> Response {
    not_found("no such board: names match ^[a-z0-9][a-z0-9_-]{0,63}$")
}

/// The answer for a well-formed name that no board has (yet): boards are
/// created by MCP sessions, never by a read.
pub(crate) fn no_board(name: &BoardName) -> Response {
    not_found(&format!(
        "no board {name} yet: a board is created by an MCP session at /boards/{name}/mcp"
    ))
}

/// The answer when board `name` cannot be opened.
pub(crate) fn not_opened(name: &BoardName, error: &OpenError) -> Response {
    match error {
        OpenError::TooMany(_) => unavailable(&error.to_string()),
        OpenError::Store(store) => {
            tracing::error!(board = %name, error = %store, "cannot open a board");
            let message = format!("board {name} cannot be opened: {}\n", error.public());
            (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
        }
    }
}

/// The answer when board `name` is open but cannot be read.
pub(crate) fn unreadable(name: &BoardName, error: &CallError) -> Response {
    tracing::error!(board = %name, %error, "cannot read a board");
    let message = format!("board {name} cannot be read: {error}\n");
    (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
}
