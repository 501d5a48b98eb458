// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The list of boards, `GET /`: every board this server has open and, with
//! the file backend, every board stored in `storage.dir`. Stored boards are
//! opened here (through [`Boards`], so `max_boards` holds); a board that
//! cannot be opened is listed with the reason.

use std::fmt::Write;
use std::time::SystemTime;

use super::html::{self, escape};
use super::view::Counts;
use crate::server::BoardName;
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::store::StoreError;

/// The most boards the list shows; the rest are counted.
pub(crate) const MAX_LISTED: usize = 500;

/// One board in the list.
#[derive(Debug)]
pub struct Row {
    /// The board's name.
    pub name: BoardName,
    /// What the board holds, or why it cannot be shown.
    pub state: Result<Summary, String>,
}

/// What the list shows of a board.
#[derive(Debug)]
pub struct Summary {
    /// The goal's title, if a goal is set.
    pub goal: Option<String>,
    /// Tasks per status.
    pub counts: Counts,
    /// When the board last changed.
    pub changed_at: Option<SystemTime>,
}

/// The boards to list, at most [`MAX_LISTED`], and how many more there
/// are. Blocks on file I/O.
pub(crate) fn rows(boards: &Boards) -> Result<(Vec<Row>, usize), StoreError> {
    let names = boards.known_names()?;
    let more = names.len().saturating_sub(MAX_LISTED);
    let rows = names
        .into_iter()
        .take(MAX_LISTED)
        .map(|name| {
            let state = boards
                .get_stored(&name)
                .map_err(|error| error.public())
                .and_then(|board| board.ok_or_else(|| "it was removed".to_owned()))
                .and_then(|board| {
                    let changed_at = board.changed_at();
                    board
                        .read(|b| Summary {
                            goal: b.goal().map(|g| g.title.clone()),
                            counts: Counts::of(b),
                            changed_at,
                        })
                        .map_err(|error| error.to_string())
                });
            Row { name, state }
        })
        .collect();
    Ok((rows, more))
}

/// The page listing `rows`.
pub fn index_page(rows: &[Row], more: usize) -> String {
    let mut body = String::from(
        "<header class=\"bar\"><p class=\"brand\">planning-mcp-server</p></header>\n\
         <main id=\"index\">\n<h1>Boards</h1>\n",
    );
    if rows.is_empty() {
        body.push_str("<p class=\"empty\">No boards yet.</p>\n");
    }
    body.push_str("<ul class=\"boards\">\n");
    for row in rows {
        push_row(&mut body, row);
    }
    body.push_str("</ul>\n");
    if more > 0 {
        let _ = writeln!(body, "<p class=\"empty\">… and {more} more boards.</p>");
    }
    body.push_str(
        "<p class=\"hint\">Each board updates live. Agents reach a board over MCP at \
         <code>/boards/{name}/mcp</code> (<code>/mcp</code> is board <code>default</code>).</p>\n\
         </main>\n",
    );
    html::page("Boards · planning-mcp-server", "assets/", &body)
}

fn push_row(out: &mut String, row: &Row) {
    let name = escape(row.name.as_str());
    let _ = write!(
        out,
        "<li class=\"board-item\">\n<h2><a href=\"boards/{name}\">{name}</a></h2>\n"
    );
    match &row.state {
        Ok(summary) => {
            match &summary.goal {
                Some(goal) => {
                    let _ = writeln!(out, "<p class=\"goal-line\">{}</p>", escape(goal));
                }
                None => out.push_str("<p class=\"goal-line unset\">No goal set yet</p>\n"),
            }
            let counts = &summary.counts;
            let _ = write!(
                out,
                "{}\n{}\n<p class=\"changed\">Last change: {}</p>\n",
                html::progress(
                    &format!("progress-{name}"),
                    counts.completed,
                    counts.total()
                ),
                html::counts(counts),
                summary
                    .changed_at
                    .map_or_else(|| "never".to_owned(), html::system_time)
            );
        }
        Err(problem) => {
            let _ = writeln!(
                out,
                "<p class=\"problem\">Not shown: {}</p>",
                escape(problem)
            );
        }
    }
    out.push_str("</li>\n");
}
