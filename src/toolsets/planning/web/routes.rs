// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The handlers: the list of boards, a board as a page, JSON or Markdown,
//! and its live events.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::answers::{no_board, no_such_board, not_opened, unreadable};
use super::store_state;
use super::view::BoardView;
use super::{Web, csrf, events, index, page};
use crate::runtime::blocking;
use crate::server::BoardName;
use crate::server::routes::unavailable;
use crate::toolsets::planning::domain::render::{self, Filter};

const HTML: &str = "text/html; charset=utf-8";

/// `GET /`: the boards.
pub(crate) async fn list(State(web): State<Web>) -> Response {
    // Listing opens the stored boards: off the async workers.
    let rows = blocking::run(move || index::rows(&web.boards)).await;
    match rows {
        Ok((rows, more)) => page_response(index::index_page(&rows, more)),
        Err(error) => {
            tracing::error!(%error, "cannot list the stored boards");
            let message = format!("the boards cannot be listed: {}\n", error.public());
            (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
        }
    }
}

/// How a board is shown, from the extension of `/boards/{name}[.ext]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Page,
    Json,
    Markdown,
}

/// Splits `name`, `name.json` or `name.md`. Names never hold a dot, so
/// anything else (other extensions, bad names) is `None`.
fn split_extension(segment: &str) -> Option<(BoardName, Format)> {
    let (name, format) = match segment.split_once('.') {
        None => (segment, Format::Page),
        Some((name, "json")) => (name, Format::Json),
        Some((name, "md")) => (name, Format::Markdown),
        Some(_) => return None,
    };
    Some((BoardName::parse(name)?, format))
}

/// `GET /boards/{name}`, `/boards/{name}.json`, `/boards/{name}.md`. A
/// board that does not exist is 404: reading never creates one. The page
/// hands out the CSRF token of a person's writes ([`csrf::for_page`]).
pub(crate) async fn board(
    State(web): State<Web>,
    Path(segment): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some((name, format)) = split_extension(&segment) else {
        return no_such_board();
    };
    let (token, set_cookie) = csrf::for_page(&headers);
    // Opening a stored board reads its file: off the async workers.
    blocking::run(move || {
        let board = match web.boards.get_stored(&name) {
            Ok(Some(board)) => board,
            Ok(None) => return no_board(&name),
            Err(error) => return not_opened(&name, &error),
        };
        // The Markdown is `get_tasks`' text: it has no room for the
        // store's state, so it is read or refused as a tool call is.
        let shown = match format {
            Format::Markdown => board.read(|b| render::task_list(b, Filter::All)),
            _ => store_state::shown(&web.boards, &board, |b, store| {
                let view =
                    BoardView::of(name.as_str(), b, board.changed_at()).with_store(store.clone());
                match format {
                    Format::Json => view.to_json(),
                    _ => page::board_page_with(
                        &view,
                        Some(page::Writes {
                            csrf: &token,
                            people: web.desk.is_some(),
                        }),
                    ),
                }
            })
            .map(|(body, _)| body),
        };
        let body = match shown {
            Ok(body) => body,
            Err(error) => return unreadable(&name, &error),
        };
        match format {
            Format::Page => {
                let mut response = page_response(body);
                if let Some(cookie) = set_cookie {
                    response.headers_mut().insert(header::SET_COOKIE, cookie);
                }
                response
            }
            Format::Json => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
            Format::Markdown => (
                [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
                body,
            )
                .into_response(),
        }
    })
    .await
}

/// `GET /boards/{name}/events`: the live updates of a board that exists.
pub(crate) async fn board_events(State(web): State<Web>, Path(name): Path<String>) -> Response {
    let Some(name) = BoardName::parse(&name) else {
        return no_such_board();
    };
    let boards = web.boards.clone();
    let opened = blocking::run({
        let name = name.clone();
        move || boards.get_stored(&name)
    })
    .await;
    let board = match opened {
        Ok(Some(board)) => board,
        Ok(None) => return no_board(&name),
        Err(error) => return not_opened(&name, &error),
    };
    let Ok(slot) = web.streams.clone().try_acquire_owned() else {
        return unavailable(
            "too many live pages are open (server.max_sessions); close some or retry later",
        );
    };
    let boards = web.boards.clone();
    let mut response =
        events::stream(name, boards, board, web.closed.clone(), slot).into_response();
    // Tells nginx and similar proxies not to buffer the stream.
    response
        .headers_mut()
        .insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    response
}

fn page_response(html: String) -> Response {
    ([(header::CONTENT_TYPE, HTML)], html).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_split_and_names_checked() {
        let split = |s: &str| split_extension(s).map(|(n, f)| (n.to_string(), f));
        assert_eq!(split("team-1"), Some(("team-1".into(), Format::Page)));
        assert_eq!(split("a.json"), Some(("a".into(), Format::Json)));
        assert_eq!(split("a.md"), Some(("a".into(), Format::Markdown)));
        for bad in [
            "a.txt",
            "a.json.md",
            ".json",
            "A.json",
            "..",
            "a.",
            "../x",
            "a b",
            "",
        ] {
            assert_eq!(split(bad), None, "{bad}");
        }
    }
}
