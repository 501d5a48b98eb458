// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The stylesheet, the script and the icon, embedded in the binary: the
//! pages need nothing from the network.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The stylesheet of every page.
pub(crate) const CSS: &str = include_str!("assets/web.css");

/// The script of every page: local times, and the board's live updates.
pub(crate) const JS: &str = include_str!("assets/web.js");

/// The icon of every page (a board of three columns), which browsers show
/// in the tab.
pub(crate) const ICON: &str = include_str!("assets/icon.svg");

/// The icon's media type.
const SVG: &str = "image/svg+xml";

/// `GET /assets/{file}`: `web.css`, `web.js` or `icon.svg`; anything else is 404.
pub(crate) async fn serve(Path(file): Path<String>) -> Response {
    let (body, content_type) = match file.as_str() {
        "web.css" => (CSS, "text/css; charset=utf-8"),
        "web.js" => (JS, "text/javascript; charset=utf-8"),
        "icon.svg" => (ICON, SVG),
        _ => return super::answers::not_found("no such file"),
    };
    asset(body, content_type)
}

/// `GET /favicon.ico`: the icon, for a client that asks where browsers
/// looked before pages named their icon (every modern browser reads SVG
/// whatever the path).
pub(crate) async fn favicon() -> Response {
    asset(ICON, SVG)
}

/// An embedded file as a response.
fn asset(body: &'static str, content_type: &'static str) -> Response {
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
