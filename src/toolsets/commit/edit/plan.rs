// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `set_plan`: replaces the task list and sets the direction to EXECUTE.

use super::preconditions::open_plan;
use super::{Edit, Refused, TaskInput};
use crate::toolsets::commit::document::grammar::check_text;
use crate::toolsets::commit::document::tasks::{TaskPath, counts, derive_boxes};
use crate::toolsets::commit::document::{Limits, Reading, Task};

/// The alignment check that ends every `set_plan` reply.
pub(crate) const CHECK: &str =
    "Check: for every open task, confirm it is not done yet; mark finished ones with mark_task.";

/// The deepest path of `tasks` (the first in document order among the deepest).
fn deepest(tasks: &[TaskInput], prefix: &mut Vec<usize>, best: &mut Vec<usize>) {
    for (index, task) in tasks.iter().enumerate() {
        prefix.push(index);
        if prefix.len() > best.len() {
            *best = prefix.clone();
        }
        deepest(&task.subtasks, prefix, best);
        prefix.pop();
    }
}

fn total(tasks: &[TaskInput]) -> usize {
    tasks.iter().map(|t| 1 + total(&t.subtasks)).sum()
}

/// The tasks as given, texts trimmed and checked.
fn convert(
    tasks: &[TaskInput],
    prefix: &mut Vec<usize>,
    limits: &Limits,
) -> Result<Vec<Task>, Refused> {
    let mut out = Vec::with_capacity(tasks.len());
    for (index, given) in tasks.iter().enumerate() {
        prefix.push(index);
        let what = format!("task {}'s text", TaskPath(prefix.clone()));
        let text = given.text.trim();
        check_text(&what, text, limits.max_item_length)
            .map_err(|message| Refused::because(format!("{message}. Nothing was changed.")))?;
        out.push(Task {
            text: text.to_owned(),
            done: given.done,
            subtasks: convert(&given.subtasks, prefix, limits)?,
        });
        prefix.pop();
    }
    Ok(out)
}

/// `set_plan(plan)` on the plan as read.
pub(crate) fn set_plan(
    reading: &Reading,
    given: &[TaskInput],
    limits: &Limits,
) -> Result<Edit, Refused> {
    let before = open_plan(reading)?;
    if given.is_empty() {
        return Err(Refused::because(
            "the plan needs at least one task. Nothing was changed.",
        ));
    }
    let mut path = Vec::new();
    deepest(given, &mut Vec::new(), &mut path);
    if path.len() > limits.max_depth {
        return Err(Refused::because(format!(
            "task {} is at depth {}; the limit is {}. Nothing was changed.",
            TaskPath(path.clone()),
            path.len(),
            limits.max_depth
        )));
    }
    let count = total(given);
    if count > limits.max_tasks {
        return Err(Refused::because(format!(
            "the plan has {count} tasks; the limit is {} (all levels counted). Nothing was changed.",
            limits.max_tasks
        )));
    }
    let mut tasks = convert(given, &mut Vec::new(), limits)?;
    let corrected = derive_boxes(&mut tasks);
    let (done, total) = counts(&tasks);
    let mut actions = vec![format!("Plan set: {total} tasks ({done} done).")];
    actions.extend(corrected.iter().map(|(path, done)| match done {
        true => format!("Note: task {path} is done: all its subtasks are done."),
        false => format!("Note: task {path} is open: not all its subtasks are done."),
    }));
    let mut document = before.clone();
    document.tasks = tasks;
    document.complete = false;
    Edit::write(Some(before), document, actions, "Plan unchanged.", limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    #[test]
    fn sets_tasks_with_derived_parents_and_execute() {
        let plan = vec![
            task(
                " Build ",
                false,
                vec![
                    task("Write code", true, vec![]),
                    task("Write tests", true, vec![]),
                ],
            ),
            task("Ship", true, vec![task("Tag", false, vec![])]),
        ];
        let edit = set_plan(&reading(STAGE_2), &plan, &limits()).unwrap();
        assert_eq!(
            edit.actions,
            [
                "Plan set: 5 tasks (3 done).",
                "Note: task 1 is done: all its subtasks are done.",
                "Note: task 2 is open: not all its subtasks are done.",
            ]
        );
        assert_eq!(
            edit.text.as_deref(),
            Some(
                "feat(api): Add x\n\nWhy.\n\n- [x]: Build\n  - [x]: Write code\n  - [x]: Write tests\n- [ ]: Ship\n  - [ ]: Tag\n\n~~~ EXECUTE ~~~\n"
            )
        );
        let again = set_plan(&reading(edit.text.as_deref().unwrap()), &plan, &limits()).unwrap();
        assert_eq!(
            (again.actions[0].as_str(), again.text),
            ("Plan unchanged.", None)
        );
    }

    #[test]
    fn refusals() {
        let deep = vec![task(
            "a",
            false,
            vec![task(
                "b",
                false,
                vec![
                    task("c", false, vec![]),
                    task("d", false, vec![task("e", false, vec![])]),
                ],
            )],
        )];
        let cases = [
            (
                vec![],
                "the plan needs at least one task. Nothing was changed.",
            ),
            (
                deep,
                "task 1.1.2.1 is at depth 4; the limit is 3. Nothing was changed.",
            ),
            (
                vec![task("a", false, vec![]); 7],
                "the plan has 7 tasks; the limit is 6 (all levels counted). Nothing was changed.",
            ),
            (
                vec![task("a", false, vec![task(" ", false, vec![])])],
                "task 1.1's text is empty. Nothing was changed.",
            ),
            (
                vec![task("a\nb", false, vec![])],
                "task 1's text must be one line. Nothing was changed.",
            ),
            (
                vec![task("a\tb", false, vec![])],
                "task 1's text contains a tab; a tab is allowed only in description lines. Nothing was changed.",
            ),
            (
                vec![
                    task("ok", false, vec![]),
                    task(&"x".repeat(21), false, vec![]),
                ],
                "task 2's text is 21 characters; the limit is 20. Nothing was changed.",
            ),
        ];
        for (plan, message) in cases {
            assert_eq!(
                set_plan(&reading(STAGE_2), &plan, &limits()),
                Err(Refused::because(message))
            );
        }
        let plan = vec![task("a", false, vec![])];
        assert_eq!(
            set_plan(&reading(STAGE_5), &plan, &limits()).unwrap_err(),
            crate::toolsets::commit::edit::preconditions::finished(
                "start the next change with set_overarching_goal and start_new: true, or reopen this job with unfinish_job"
            )
        );
        assert_eq!(
            set_plan(&Reading::Empty, &plan, &limits()).unwrap_err(),
            crate::toolsets::commit::edit::preconditions::no_goal()
        );
    }
}
