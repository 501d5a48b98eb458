// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The canonical formatter: sections separated by exactly one empty line,
//! tasks indented two spaces per level, the text ending with one `\n`.

use super::{Document, Task};

/// The canonical text of `document`.
pub fn format(document: &Document) -> String {
    let mut out = document.header.to_string();
    if let Some(description) = &document.description {
        out.push_str("\n\n");
        out.push_str(description);
    }
    if !document.constraints.is_empty() {
        out.push('\n');
        for constraint in &document.constraints {
            out.push_str("\n- ");
            out.push_str(&constraint.to_string());
        }
    }
    if let Some(direction) = document.direction() {
        out.push('\n');
        write_tasks(&mut out, &document.tasks, 0);
        out.push_str("\n\n");
        out.push_str(direction.line());
    }
    out.push('\n');
    out
}

fn write_tasks(out: &mut String, tasks: &[Task], level: usize) {
    for task in tasks {
        out.push('\n');
        for _ in 0..level {
            out.push_str("  ");
        }
        out.push_str(match task.done {
            true => "- [x]: ",
            false => "- [ ]: ",
        });
        out.push_str(&task.text);
        write_tasks(out, &task.subtasks, level + 1);
    }
}
