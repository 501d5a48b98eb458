// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's writes of planning's tasks: add, reword, set the status of a
//! task, set the goal. The web board's writes (`web/writes.rs`) and the
//! terminal's `board` commands (against the stored board) both call these,
//! so a person gets the same reply, text and JSON, from either channel, and
//! `board … --url` prints what the server's write answered
//! (docs/review.md#the-board-from-a-terminal). Each is one change of the
//! shared board through the path of the planning tool it names
//! (`add_tasks`, `modify_task`, `update_task_statuses`,
//! `set_goal`/`change_goal`): the same checks, limits, lock and save. Only
//! planning's rules are used, so these work when toolset team is off.

use serde_json::{Value, json};

use super::coordination::person::{PersonError, PersonReply};
use super::domain::render;
use super::domain::{Goal, NewTask, TaskId};
use super::shared_board::SharedBoard;

/// Adds one task; the reply is its ID (that of the same task already on
/// the board, which is then not added again), and as JSON whether it was
/// added.
pub(crate) fn add(
    board: &SharedBoard,
    title: &str,
    description: &str,
) -> Result<PersonReply, PersonError> {
    let new = [NewTask::new(title.to_owned(), description.to_owned())];
    let added = board.mutate(|board| board.add_tasks(&new), |_, added| added)?;
    let (id, fresh) = match (added.added.first(), added.skipped.first()) {
        (Some(&id), _) => (id, true),
        (None, Some(&id)) => (id, false),
        (None, None) => unreachable!("one task asked is added or skipped"),
    };
    Ok(id_reply(
        id,
        json!({"task_id": id.to_string(), "added": fresh}),
    ))
}

/// Rewords task `task_id`; the reply is its new ID (a task's ID follows its
/// title and description).
pub(crate) fn edit(
    board: &SharedBoard,
    task_id: &str,
    title: Option<&str>,
    description: Option<&str>,
) -> Result<PersonReply, PersonError> {
    let new = board.mutate(
        |board| board.modify_task(task_id, title, description),
        |_, new| new,
    )?;
    // It named a task, so it is an ID: the one the task had.
    let was = TaskId::parse(task_id).map(|id| id.to_string());
    Ok(id_reply(
        new,
        json!({"task_id": new.to_string(), "was": was}),
    ))
}

/// Sets task `task_id`'s status, as a person may: any status
/// `update_task_statuses` takes, `completed` too under review (the person
/// is the reviewer); a task that awaits review is refused (a person
/// approves or rejects it). The reply is its line.
pub(crate) fn status(
    board: &SharedBoard,
    task_id: &str,
    status: &str,
) -> Result<PersonReply, PersonError> {
    let reply = board.mutate(
        |board| Ok(((), board.update_statuses(&[(task_id, status)])?)),
        |board, ()| {
            // The ID named the task whose status was just set.
            let task = TaskId::parse(task_id).and_then(|id| board.task(id));
            let mut text = String::new();
            if let Some(task) = task {
                render::push_task_line(&mut text, task);
            }
            PersonReply {
                text: text.trim_end().to_owned(),
                json: json!({
                    "task_id": task.map(|t| t.id.to_string()),
                    "status": task.map(|t| t.status.as_str()),
                }),
            }
        },
    )?;
    Ok(reply)
}

/// Sets the goal, or replaces it (then `reason` is required, as
/// `change_goal` requires it, and kept in the history).
pub(crate) fn goal(
    board: &SharedBoard,
    title: &str,
    description: &str,
    reason: Option<&str>,
) -> Result<PersonReply, PersonError> {
    let outcome = board.mutate_with(
        |board| {
            let changed = board.goal().is_some();
            let undo = match (changed, reason) {
                (false, _) => board.set_goal(title, description),
                (true, Some(reason)) => board.change_goal(title, description, reason),
                // A person who sets a goal over another is told how to
                // replace it, rather than that a reason is blank.
                (true, None) => {
                    let current = render::goal_line(board.goal());
                    return Err(PersonError::Refused(format!(
                        "a goal is set ({current}): give --reason TEXT to replace it; nothing changed"
                    )));
                }
            };
            undo.map(|undo| (changed, undo)).map_err(PersonError::from)
        },
        |board, changed| PersonReply {
            text: render::goal_line(board.goal()),
            json: json!({"goal": board.goal().map(goal_json), "changed": changed}),
        },
    );
    outcome?
}

/// A reply that is the ID alone, for `id=$(planning-mcp-server board add …)`.
fn id_reply(id: TaskId, json: Value) -> PersonReply {
    PersonReply {
        text: id.to_string(),
        json,
    }
}

/// The goal as `--json` shows it.
pub(crate) fn goal_json(goal: &Goal) -> Value {
    json!({"title": goal.title, "description": goal.description})
}
