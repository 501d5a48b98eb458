// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board as MCP resources: `board://{name}` (the task list, as
//! `get_tasks` shows it) and `board://{name}/summary` (a bounded summary to
//! re-read after a context reset), with change notifications.

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};

use crate::server::BoardName;
use crate::toolsets::planning::domain::render::{self, Filter};
use crate::toolsets::planning::shared_board::SharedBoard;

const MARKDOWN: &str = "text/markdown";

/// The URI of the board's task list.
pub(crate) fn list_uri(name: &BoardName) -> String {
    format!("board://{name}")
}

/// The URI of the board's summary.
pub(crate) fn summary_uri(name: &BoardName) -> String {
    format!("board://{name}/summary")
}

/// Whether `uri` is one of board `name`'s resources.
pub(crate) fn is_resource_of(name: &BoardName, uri: &str) -> bool {
    uri == list_uri(name) || uri == summary_uri(name)
}

/// The two resources of board `name`.
pub(crate) fn list(name: &BoardName) -> Vec<Resource> {
    vec![
        Resource::new(list_uri(name), format!("board {name}"))
            .with_title(format!("Planning board {name}"))
            .with_description("The goal and every task with its status, as get_tasks shows them.")
            .with_mime_type(MARKDOWN),
        Resource::new(summary_uri(name), format!("board {name} summary"))
            .with_title(format!("Summary of board {name}"))
            .with_description(
                "The goal, counts per status, the task in progress and the next pending tasks; \
                 at most 1,500 characters. Re-read it after a context reset.",
            )
            .with_mime_type(MARKDOWN),
    ]
}

/// Reads resource `uri` of board `name`: `None` if it is not one of its.
pub(crate) fn read(
    name: &BoardName,
    board: &SharedBoard,
    uri: &str,
) -> Option<Result<ReadResourceResult, ErrorData>> {
    let text = if uri == list_uri(name) {
        board.read(|b| render::task_list(b, Filter::All))
    } else if uri == summary_uri(name) {
        board.read(|b| render::summary(name.as_str(), b))
    } else {
        return None;
    };
    let read = text
        .map(|text| {
            ReadResourceResult::new(vec![
                ResourceContents::text(text, uri).with_mime_type(MARKDOWN),
            ])
        })
        .map_err(|error| ErrorData::internal_error(error.to_string(), None));
    Some(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_boards_uris_are_its_resources() {
        let name = BoardName::parse("team").unwrap();
        assert!(is_resource_of(&name, "board://team"));
        assert!(is_resource_of(&name, "board://team/summary"));
        for other in [
            "board://default",
            "board://team/",
            "board://teams",
            "file:///etc/passwd",
        ] {
            assert!(!is_resource_of(&name, other), "{other}");
        }
    }
}
