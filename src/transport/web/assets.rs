// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The stylesheet and the script, embedded in the binary: the pages need
//! nothing from the network.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The stylesheet of every page.
pub const CSS: &str = include_str!("assets/web.css");

/// The script of every page: local times, and the board's live updates.
pub const JS: &str = include_str!("assets/web.js");

/// `GET /assets/{file}`: `web.css` or `web.js`; anything else is 404.
pub async fn serve(Path(file): Path<String>) -> Response {
    let (body, content_type) = match file.as_str() {
        "web.css" => (CSS, "text/css; charset=utf-8"),
        "web.js" => (JS, "text/javascript; charset=utf-8"),
        _ => return super::not_found("no such file"),
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            // Small, and must follow an upgrade of the binary at once.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
