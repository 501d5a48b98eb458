// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `mark_task`: ticks or unticks one leaf task, found by path, exact text
//! or unique substring; its ancestors' boxes follow.

use super::preconditions::{finished, with_tasks};
use super::{Edit, Refused, or_list};
use crate::runtime::text::clip;
use crate::toolsets::commit::document::tasks::{self, Flat, TaskPath, Unresolved};
use crate::toolsets::commit::document::{Limits, Reading, Task};

/// The open tasks for messages: `Open tasks: 1.2 (text), 3 (text).`
fn open_tasks(tasks: &[Task]) -> String {
    let open = tasks::open_leaves(tasks);
    match open.is_empty() {
        true => "No task is open.".into(),
        false => format!("Open tasks: {}.", tasks::described_list(&open)),
    }
}

/// `mark_task(task_id, completed)` on the plan as read.
pub(crate) fn mark_task(
    reading: &Reading,
    task_id: &str,
    completed: bool,
    limits: &Limits,
) -> Result<Edit, Refused> {
    let before = with_tasks(reading, "write the plan with set_plan")?;
    if before.is_finished() {
        return Err(finished(
            "reopen it with unfinish_job before changing tasks",
        ));
    }
    let id = task_id.trim();
    if id.is_empty() {
        return Err(Refused::because(
            "task_id is empty; give a path like 1.2 or the task's text. Nothing was changed.",
        ));
    }
    let path = tasks::resolve(&before.tasks, id).map_err(|why| match why {
        Unresolved::NotFound => Refused::because(format!(
            "No task matches \"{}\". {} Nothing was changed.",
            clip(id),
            open_tasks(&before.tasks)
        )),
        Unresolved::Ambiguous(paths) => {
            let all = tasks::flatten(&before.tasks);
            let candidates: Vec<Flat<'_>> = all
                .into_iter()
                .filter(|t| paths.contains(&t.path))
                .collect();
            Refused::because(format!(
                "\"{}\" matches {} tasks: {}; give the path. Nothing was changed.",
                clip(id),
                candidates.len(),
                tasks::described_list(&candidates)
            ))
        }
    })?;
    let task =
        tasks::get(&before.tasks, &path).ok_or_else(|| Refused::because("the task vanished"))?;
    if !task.subtasks.is_empty() {
        return Err(Refused::because(format!(
            "task {path} has subtasks; its box follows them: mark {}. Nothing was changed.",
            leaves_to_mark(task, &path, completed)
        )));
    }
    if task.done == completed {
        let state = if completed { "done" } else { "open" };
        return Ok(Edit::unchanged(
            before.clone(),
            format!("Task {path} was already {state}."),
        ));
    }
    let mut document = before.clone();
    if let Some(leaf) = tasks::get_mut(&mut document.tasks, &path) {
        leaf.done = completed;
    }
    let changed = tasks::derive_boxes(&mut document.tasks);
    let mut actions = vec![match completed {
        true => format!("Task {path} marked done: {}", task.text),
        false => format!("Task {path} marked not done: {}", task.text),
    }];
    for (ancestor, done) in changed {
        actions.push(match done {
            true => format!("Task {ancestor} is now done: all its subtasks are done."),
            false => format!("Task {ancestor} is now open: one of its subtasks is open."),
        });
    }
    if completed {
        let earlier: Vec<Flat<'_>> = tasks::open_leaves(&document.tasks)
            .into_iter()
            .filter(|t| t.path < path)
            .collect();
        if !earlier.is_empty() {
            actions.push(format!(
                "Earlier open tasks: {}",
                tasks::path_list(&earlier)
            ));
        }
    }
    Edit::write(Some(before), document, actions, "", limits)
}

/// The leaves under `task` a caller probably meant: the open ones when
/// ticking, the done ones when unticking, else all.
fn leaves_to_mark(task: &Task, path: &TaskPath, completed: bool) -> String {
    let leaves: Vec<Flat<'_>> = tasks::flatten(&task.subtasks)
        .into_iter()
        .filter(|t| t.leaf)
        .collect();
    let wanted: Vec<&Flat<'_>> = leaves.iter().filter(|t| t.done != completed).collect();
    let chosen: Vec<&Flat<'_>> = match wanted.is_empty() {
        true => leaves.iter().collect(),
        false => wanted,
    };
    let paths: Vec<String> = chosen
        .iter()
        .map(|t| {
            let mut full = path.0.clone();
            full.extend(&t.path.0);
            TaskPath(full).to_string()
        })
        .collect();
    or_list(&paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    fn marked(text: &str, id: &str, completed: bool) -> Result<Edit, Refused> {
        mark_task(&reading(text), id, completed, &limits())
    }

    #[test]
    fn ticks_a_leaf_and_its_ancestors_follow() {
        let edit = marked(STAGE_4, " write tests ", true).unwrap();
        assert_eq!(
            edit.actions,
            [
                "Task 1.2 marked done: Write tests",
                "Task 1 is now done: all its subtasks are done."
            ]
        );
        let edit = marked(STAGE_4, "2", true).unwrap();
        assert_eq!(
            edit.actions,
            ["Task 2 marked done: Document", "Earlier open tasks: 1.2"]
        );
        assert!(edit.text.unwrap().contains("- [x]: Document\n"));
        let edit = marked(ALL_DONE, "1.1", false).unwrap();
        assert_eq!(
            edit.actions,
            [
                "Task 1.1 marked not done: Write code",
                "Task 1 is now open: one of its subtasks is open."
            ]
        );
        let nested = "fix: a\n\n- [ ]: A\n  - [ ]: B\n    - [ ]: C\n\n~~~ EXECUTE ~~~\n";
        let edit = marked(nested, "C", true).unwrap();
        assert_eq!(
            edit.actions,
            [
                "Task 1.1.1 marked done: C",
                "Task 1 is now done: all its subtasks are done.",
                "Task 1.1 is now done: all its subtasks are done."
            ]
        );
        assert_eq!(
            edit.text.as_deref(),
            Some("fix: a\n\n- [x]: A\n  - [x]: B\n    - [x]: C\n\n~~~ EXECUTE ~~~\n")
        );
    }

    #[test]
    fn unchanged_marks_write_nothing() {
        let edit = marked(STAGE_4, "1.1", true).unwrap();
        assert_eq!(
            (edit.actions, edit.text),
            (vec!["Task 1.1 was already done.".to_owned()], None)
        );
        let edit = marked(STAGE_4, "2", false).unwrap();
        assert_eq!(edit.actions, ["Task 2 was already open."]);
    }

    #[test]
    fn refusals() {
        let cases = [
            (
                "",
                "task_id is empty; give a path like 1.2 or the task's text. Nothing was changed.",
            ),
            (
                "3",
                "No task matches \"3\". Open tasks: 1.2 (Write tests), 2 (Document). Nothing was changed.",
            ),
            (
                "1.3",
                "No task matches \"1.3\". Open tasks: 1.2 (Write tests), 2 (Document). Nothing was changed.",
            ),
            (
                "nothing",
                "No task matches \"nothing\". Open tasks: 1.2 (Write tests), 2 (Document). Nothing was changed.",
            ),
            (
                "write",
                "\"write\" matches 2 tasks: 1.1 (Write code), 1.2 (Write tests); give the path. Nothing was changed.",
            ),
            (
                "Build",
                "task 1 has subtasks; its box follows them: mark 1.2. Nothing was changed.",
            ),
        ];
        for (id, message) in cases {
            assert_eq!(
                marked(STAGE_4, id, true),
                Err(Refused::because(message)),
                "{id}"
            );
        }
        assert_eq!(
            marked(STAGE_4, "1", false),
            Err(Refused::because(
                "task 1 has subtasks; its box follows them: mark 1.1. Nothing was changed."
            ))
        );
        let three = "fix: a\n\n- [ ]: A\n  - [ ]: B\n  - [ ]: C\n  - [ ]: D\n\n~~~ EXECUTE ~~~\n";
        assert_eq!(
            marked(three, "1", true),
            Err(Refused::because(
                "task 1 has subtasks; its box follows them: mark 1.1, 1.2 or 1.3. Nothing was changed."
            ))
        );
        assert_eq!(
            marked(STAGE_3, "1", true),
            Err(Refused::because(
                "There are no tasks yet; write the plan with set_plan. Nothing was changed."
            ))
        );
        assert_eq!(
            marked("", "1", true),
            Err(Refused::because(
                "There are no tasks yet; write the plan with set_plan. Nothing was changed."
            ))
        );
        assert_eq!(
            marked(STAGE_5, "1", true),
            Err(Refused::because(
                "The job is finished; reopen it with unfinish_job before changing tasks. Nothing was changed."
            ))
        );
        assert_eq!(marked("notes", "1", true), Err(Refused::NotAPlan));
        assert_eq!(
            marked(ALL_DONE, "zzz", true),
            Err(Refused::because(
                "No task matches \"zzz\". No task is open. Nothing was changed."
            ))
        );
    }
}
