// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The short view (the setters, `finish_job`, `unfinish_job`, a migration)
//! and the `mark_task` view.

use super::status::{Standing, push_status};
use super::{Around, Place, actions, direction_line, goal_line, task_listing, tasks_line};
use crate::toolsets::commit::document::Document;
use crate::toolsets::commit::document::format::format;
use crate::toolsets::commit::document::stage::Stage;

/// What a short view ends with besides the status lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending<'a> {
    /// Nothing more.
    Plain,
    /// The final canonical text, fenced (`finish_job`).
    FinalText,
    /// A closing line (`set_plan`'s alignment check).
    Line(&'a str),
}

/// The short view of `document` after `actions`.
pub(crate) fn short(
    action_lines: &[String],
    document: &Document,
    place: &Place,
    ending: Ending<'_>,
) -> String {
    let mut out = String::new();
    actions(&mut out, action_lines);
    let stage = Stage::of(Some(document));
    out.push_str(&format!("Stage: {}/5 {}\n", stage.number(), stage.name()));
    goal_line(&mut out, Some(document));
    match &document.description {
        None => out.push_str("Description: (none)\n"),
        Some(description) => {
            let lines = description.split('\n').count();
            out.push_str(&format!(
                "Description: {lines} {}\n",
                super::super::edit::description::plural(lines, "line")
            ));
        }
    }
    match document.constraints.len() {
        0 => out.push_str("Constraints: (none)\n"),
        n => out.push_str(&format!("Constraints: {n}\n")),
    }
    tasks_line(&mut out, Some(document));
    task_listing(&mut out, document);
    direction_line(&mut out, Some(document));
    if ending == Ending::FinalText {
        out.push_str("Final text:\n");
        crate::toolsets::commit::document::fence::push_fenced(&mut out, &format(document));
    }
    out.push('\n');
    push_status(
        &mut out,
        Standing::Plan(Some(document)),
        place,
        &Around::default(),
    );
    if let Ending::Line(line) = ending {
        out.push_str(line);
        out.push('\n');
    }
    out.pop();
    out
}

/// The `mark_task` view: action lines, then stage, progress and status.
pub(crate) fn marked(action_lines: &[String], document: &Document, place: &Place) -> String {
    let mut out = String::new();
    actions(&mut out, action_lines);
    let stage = Stage::of(Some(document));
    out.push_str(&format!("Stage: {}/5 {}\n", stage.number(), stage.name()));
    tasks_line(&mut out, Some(document));
    out.push('\n');
    push_status(
        &mut out,
        Standing::Plan(Some(document)),
        place,
        &Around::default(),
    );
    out.pop();
    out
}
