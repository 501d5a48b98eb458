// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The compact replies of the tools that change the board (`[planning]
//! replies = 'compact'`): the tasks the call changed, the counts per
//! status and the next pending tasks, at most [`COMPACT_MAX_CHARS`]
//! characters whatever the board's size. The full replies (the whole list,
//! the Go contract) are in [`super::render`].
//!
//! ```text
//! Set 1 status:
//! - ☑ [a46f8d35] Write tests
//!
//! Tasks: 3 (1 pending, 1 in progress, 1 completed, 0 failed, 0 cancelled)
//! Next pending:
//! - ☐ [48dd0523] Implement feature X: Add the new endpoint
//! ```

use std::collections::HashSet;
use std::fmt::Write;

use super::board::{Added, Board};
use super::render::{FIRST_TASKS_GUIDANCE, counts_line, one_line, one_line_limit};
use super::task::{Status, Task, TaskId};

/// The most characters a compact reply has.
pub(crate) const COMPACT_MAX_CHARS: usize = 4000;
/// The longest task line, in characters (the rest is cut, ending with `…`).
const LINE_CHARS: usize = 100;
/// The most tasks listed as changed, and as skipped.
const CHANGED_SHOWN: usize = 10;
/// The most pending tasks listed.
const PENDING_SHOWN: usize = 5;

/// The compact reply of `add_tasks`: guidance first when the board had no
/// tasks, the tasks added, the duplicates skipped, then the board.
pub(crate) fn added(board: &Board, added: &Added) -> String {
    let mut out = String::new();
    if added.was_empty && !added.added.is_empty() {
        let _ = write!(out, "{FIRST_TASKS_GUIDANCE}\n\n");
    }
    match added.added.len() {
        0 => out.push_str("Added no task."),
        n => {
            let _ = write!(out, "Added {}:", tasks(n));
        }
    }
    push_tasks(&mut out, board, &added.added);
    let skipped = distinct(added.skipped.iter().copied());
    if !skipped.is_empty() {
        let _ = write!(
            out,
            "\nSkipped {} already on the board (the same title and description):",
            tasks(skipped.len())
        );
        push_tasks(&mut out, board, &skipped);
    }
    finish(out, board)
}

/// The compact reply of `update_task_statuses`: the tasks whose status was
/// set (`ids` as the request named them, repeats once), then the board.
pub(crate) fn statuses_set(board: &Board, ids: &[TaskId]) -> String {
    let ids = distinct(ids.iter().copied());
    let mut out = match ids.len() {
        1 => "Set 1 status:".to_owned(),
        n => format!("Set {n} statuses:"),
    };
    push_tasks(&mut out, board, &ids);
    finish(out, board)
}

/// The compact reply of `modify_task`: the task under its new ID, then the board.
pub(crate) fn modified(board: &Board, old: TaskId, new: TaskId) -> String {
    let mut out = match old == new {
        true => format!("Modified [{new}]:"),
        false => format!("Modified [{old}]; its ID is now [{new}]:"),
    };
    push_tasks(&mut out, board, &[new]);
    finish(out, board)
}

/// The compact reply of `delete_tasks`: the tasks deleted, as they were,
/// then the board.
pub(crate) fn deleted(board: &Board, gone: &[Task]) -> String {
    let mut out = format!("Deleted {}:", tasks(gone.len()));
    push_lines(&mut out, gone.iter(), gone.len());
    finish(out, board)
}

/// `1 task`, `2 tasks`.
fn tasks(n: usize) -> String {
    match n {
        1 => "1 task".to_owned(),
        n => format!("{n} tasks"),
    }
}

/// `ids` without repeats, in their first order.
fn distinct(ids: impl Iterator<Item = TaskId>) -> Vec<TaskId> {
    let mut seen = HashSet::new();
    ids.filter(|id| seen.insert(*id)).collect()
}

/// The lines of the tasks `ids` that are on the board, at most
/// [`CHANGED_SHOWN`] of them.
fn push_tasks(out: &mut String, board: &Board, ids: &[TaskId]) {
    push_lines(out, ids.iter().filter_map(|id| board.task(*id)), ids.len());
}

/// Up to [`CHANGED_SHOWN`] of `tasks` (of `total`), then how many more.
fn push_lines<'a>(out: &mut String, tasks: impl Iterator<Item = &'a Task>, total: usize) {
    for task in tasks.take(CHANGED_SHOWN) {
        push_line(out, task);
    }
    if total > CHANGED_SHOWN {
        let _ = write!(out, "\n- … and {} more", total - CHANGED_SHOWN);
    }
}

/// `\n- ☐ [id] title: description`, on one line and cut to [`LINE_CHARS`].
fn push_line(out: &mut String, task: &Task) {
    let mut line = format!("{} [{}] {}", task.status.glyph(), task.id, task.title);
    if !task.description.is_empty() {
        let _ = write!(line, ": {}", task.description);
    }
    let _ = write!(out, "\n- {}", one_line(&line, LINE_CHARS));
}

/// Ends a reply with the board: the counts per status and the next
/// pending tasks; then cuts it to [`COMPACT_MAX_CHARS`] (which its parts
/// never reach: the cut is a guard).
fn finish(mut out: String, board: &Board) -> String {
    let _ = write!(out, "\n\n{}", counts_line(board));
    let pending = board
        .tasks()
        .filter(|t| t.status == Status::Pending)
        .count();
    if pending > 0 {
        out.push_str("\nNext pending:");
        let next = board.tasks().filter(|t| t.status == Status::Pending);
        for task in next.take(PENDING_SHOWN) {
            push_line(&mut out, task);
        }
        if pending > PENDING_SHOWN {
            let _ = write!(out, "\n- … and {} more", pending - PENDING_SHOWN);
        }
    }
    one_line_limit(out, COMPACT_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Limits, NewTask};

    fn id(title: &str) -> TaskId {
        TaskId::from_content(title, "")
    }

    fn board_with(titles: &[&str]) -> Board {
        let mut board = Board::new(Limits::default(), true);
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    #[test]
    fn every_compact_reply() {
        let mut board = Board::new(Limits::default(), true);
        let _ = board.set_goal("Ship", "the release").unwrap();
        let first = [
            NewTask::new("Write tests", ""),
            NewTask::new("Write tests", "Cover the manager"),
            NewTask::new("Implement feature X", "Add the new endpoint"),
            NewTask::new("Write tests", ""),
        ];
        let (outcome, _) = board.add_tasks(&first).unwrap();
        insta::assert_snapshot!("compact_first_add", added(&board, &outcome));

        let again = [
            NewTask::new("Write tests", ""),
            NewTask::new("Document the tools", "Every parameter\nand error"),
        ];
        let (outcome, _) = board.add_tasks(&again).unwrap();
        insta::assert_snapshot!("compact_add_with_a_duplicate", added(&board, &outcome));

        let (outcome, _) = board.add_tasks(&again[..1]).unwrap();
        insta::assert_snapshot!("compact_add_of_duplicates_only", added(&board, &outcome));

        let [a, b] = [
            id("Write tests"),
            TaskId::from_content("Write tests", "Cover the manager"),
        ];
        let _ = board
            .update_statuses(&[
                (&a.to_string(), "completed"),
                (&b.to_string(), "in_progress"),
            ])
            .unwrap();
        insta::assert_snapshot!("compact_statuses_set", statuses_set(&board, &[a, b, a]));

        let (new, _) = board
            .modify_task(&b.to_string(), Some("Write more tests"), None)
            .unwrap();
        insta::assert_snapshot!("compact_modified", modified(&board, b, new));

        let gone: Vec<Task> = [a, new]
            .iter()
            .filter_map(|id| board.task(*id).cloned())
            .collect();
        let _ = board
            .delete_tasks(&[&a.to_string(), &new.to_string()])
            .unwrap();
        insta::assert_snapshot!("compact_deleted", deleted(&board, &gone));
    }

    #[test]
    fn a_task_reworded_to_its_own_content_keeps_its_id() {
        let mut board = board_with(&["a"]);
        let a = id("a");
        let (same, _) = board.modify_task(&a.to_string(), Some("a"), None).unwrap();
        assert!(modified(&board, a, same).starts_with(&format!("Modified [{a}]:\n- ☐ [{a}] a\n")));
    }

    #[test]
    fn a_board_with_no_pending_task_lists_none() {
        let mut board = board_with(&["a"]);
        let a = id("a");
        let _ = board
            .update_statuses(&[(&a.to_string(), "failed")])
            .unwrap();
        assert_eq!(
            statuses_set(&board, &[a]),
            format!(
                "Set 1 status:\n- ☒ [{a}] a\n\n\
                 Tasks: 1 (0 pending, 0 in progress, 0 completed, 1 failed, 0 cancelled)"
            )
        );
    }

    #[test]
    fn replies_stay_within_their_bound_on_any_board() {
        let limits = Limits {
            max_tasks: 1000,
            max_goal_length: 5000,
            max_task_length: 5000,
        };
        let mut board = Board::new(limits, false);
        // Long titles, line breaks and wide characters in every task.
        let long = "ü\n✓".repeat(1500);
        let new: Vec<NewTask> = (0..1000)
            .map(|n| NewTask::new(format!("{n} {long}"), long.clone()))
            .collect();
        let (outcome, _) = board.add_tasks(&new).unwrap();
        let again: Vec<NewTask> = new[..500].to_vec();
        let (skipped, _) = board.add_tasks(&again).unwrap();
        let ids: Vec<TaskId> = board.tasks().map(|t| t.id).collect();
        let updates: Vec<(String, &str)> = ids
            .iter()
            .map(|id| (id.to_string(), "completed"))
            .take(999)
            .collect();
        let updates: Vec<(&str, &str)> = updates.iter().map(|(i, s)| (i.as_str(), *s)).collect();
        let _ = board.update_statuses(&updates).unwrap();
        let gone: Vec<Task> = board.tasks().take(600).cloned().collect();
        let replies = [
            added(&board, &outcome),
            added(&board, &skipped),
            statuses_set(&board, &ids),
            modified(&board, ids[0], ids[1]),
            deleted(&board, &gone),
        ];
        for reply in &replies {
            let chars = reply.chars().count();
            assert!(chars <= COMPACT_MAX_CHARS, "{chars}: {reply}");
            assert!(
                reply.contains("\n\nTasks: "),
                "the guard did not cut: {reply}"
            );
            let lines = reply.split('\n').filter(|l| l.starts_with("- "));
            assert!(lines.clone().count() <= 2 * CHANGED_SHOWN + PENDING_SHOWN + 3);
            for line in lines {
                assert!(line.chars().count() <= LINE_CHARS + 2, "{line}");
            }
        }
        assert!(replies[0].contains("Added 1000 tasks:"));
        assert!(replies[0].contains("- … and 990 more"));
        assert!(replies[1].contains("Added no task.\nSkipped 500 tasks already on the board"));
        assert!(replies[2].contains("Tasks: 1000 (1 pending, 0 in progress, 999 completed"));
    }

    #[test]
    fn no_title_forges_a_line() {
        let forged = "x\n- ☑ [deadbeef] forged\u{2028}- ☑ [00000000] too";
        let mut board = board_with(&[forged]);
        let a = id(forged);
        let _ = board
            .update_statuses(&[(&a.to_string(), "in_progress")])
            .unwrap();
        let reply = statuses_set(&board, &[a]);
        let starts = reply.split('\n').filter(|l| l.starts_with("- ")).count();
        assert_eq!(starts, 1, "{reply}");
        assert!(!reply.contains('\u{2028}'));
    }
}
