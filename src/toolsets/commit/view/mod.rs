// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The text replies, pure: the full view (`gather_requirements`,
//! `verify_plan`), the short view (the setters, `finish_job`,
//! `unfinish_job`, a migration), the `mark_task` view, the answer and the
//! refusal for a description that is not a valid plan, the stage guidance,
//! and the `Next`/`Available`/`Blocked` lines they share. One text block per
//! reply, no trailing blank line.

pub(crate) mod full;
pub(crate) mod guide;
pub(crate) mod invalid;
pub(crate) mod short;
pub(crate) mod status;

#[cfg(test)]
mod tests;

pub(crate) use super::place::{Around, Committed, Place};

use super::document::Document;
use super::document::tasks::counts;

/// Pushes `Tasks: {done}/{total} done` or `Tasks: (none)`.
fn tasks_line(out: &mut String, document: Option<&Document>) {
    match document.filter(|d| !d.tasks.is_empty()) {
        None => out.push_str("Tasks: (none)\n"),
        Some(document) => {
            let (done, total) = counts(&document.tasks);
            out.push_str(&format!("Tasks: {done}/{total} done\n"));
        }
    }
}

/// Pushes one line per task: `  1 [x] text`, two more spaces per level.
fn task_listing(out: &mut String, document: &Document) {
    for task in super::document::tasks::flatten(&document.tasks) {
        for _ in 0..task.path.0.len() {
            out.push_str("  ");
        }
        let glyph = if task.done { "[x]" } else { "[ ]" };
        out.push_str(&format!("{} {glyph} {}\n", task.path, task.text));
    }
}

/// Pushes `Goal: ...`, or `Goal: (none)`.
fn goal_line(out: &mut String, document: Option<&Document>) {
    match document {
        Some(document) => out.push_str(&format!("Goal: {}\n", document.header)),
        None => out.push_str("Goal: (none)\n"),
    }
}

/// Pushes `Direction: EXECUTE` when there is one.
fn direction_line(out: &mut String, document: Option<&Document>) {
    if let Some(direction) = document.and_then(Document::direction) {
        out.push_str(&format!("Direction: {}\n", direction.as_str()));
    }
}

/// The action lines and the empty line after them.
fn actions(out: &mut String, actions: &[String]) {
    for action in actions {
        out.push_str(action);
        out.push('\n');
    }
    out.push('\n');
}
