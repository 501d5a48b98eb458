// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The task side of `planning-mcp-server board`: `list`, `add`, `edit`,
//! `status` and `goal` (docs/review.md#the-board-from-a-terminal). Each
//! write is one change of the shared board through the path of the
//! planning tools (`add_tasks`, `modify_task`, `update_task_statuses`,
//! `set_goal`/`change_goal`): the same checks, limits, lock and save. Only
//! planning's rules are used, so these work when toolset team is off.

use std::sync::Arc;

use serde_json::{Value, json};

use super::Stored;
use crate::server::BoardName;
use crate::toolsets::planning::coordination::person::PersonReply;
use crate::toolsets::planning::domain::render::{self, Filter};
use crate::toolsets::planning::domain::{Board, Goal, Limits, NewTask, Task, TaskId};
use crate::toolsets::planning::shared_board::SharedBoard;

/// `board list`: the tasks `filter` admits (oldest first) with their
/// glyphs, IDs and statuses, as `get_tasks` shows them; the line that names
/// a missing or empty board after them.
pub(crate) fn list(stored: &Stored, filter: Filter) -> PersonReply {
    let board = &stored.board;
    let mut text = render::task_list(board, filter);
    if let Some(note) = stored.note() {
        text.push_str("\n\n");
        text.push_str(&note);
    }
    let tasks: Vec<Value> = board
        .tasks()
        .filter(|task| filter.admits(task))
        .map(task_json)
        .collect();
    let json = json!({
        "board": stored.name.as_str(),
        "stored": stored.exists,
        "goal": board.goal().map(goal_json),
        "tasks": tasks,
    });
    PersonReply { text, json }
}

/// Board `name` as the web board of the server at `url` shows it
/// (`GET /boards/{name}.json`), for [`list`]: its goal and tasks (the rest
/// of the JSON, the team's fields and the history, is not listed). A board
/// the server does not hold is empty and not stored, as on the disk.
pub(crate) fn served(url: &str, name: &BoardName, token: Option<&str>) -> Result<Stored, String> {
    let body = super::fetch::board_json(url, name, token)?;
    let json: Option<Value> = body
        .map(|body| serde_json::from_str(&body))
        .transpose()
        .map_err(|error| format!("{url} answered a board that is not JSON: {error}"))?;
    let bad = || format!("{url} answered a board this command does not read (docs/web.md#json)");
    let goal = match json.as_ref().map(|json| &json["goal"]) {
        Some(Value::Object(goal)) => Some(Goal {
            title: text(goal.get("title")).ok_or_else(bad)?,
            description: text(goal.get("description")).unwrap_or_default(),
        }),
        _ => None,
    };
    let mut tasks = Vec::new();
    let listed = json.as_ref().and_then(|json| json["tasks"].as_array());
    for task in listed.into_iter().flatten() {
        let id = text(task.get("id")).and_then(|id| TaskId::parse(&id));
        let status = text(task.get("status")).and_then(|status| status.parse().ok());
        let (Some(id), Some(status), Some(title)) = (id, status, text(task.get("title"))) else {
            return Err(bad());
        };
        tasks.push(Task {
            id,
            title,
            description: text(task.get("description")).unwrap_or_default(),
            status,
            // Not listed: the time does not matter here.
            created_at: std::time::SystemTime::UNIX_EPOCH,
        });
    }
    Ok(Stored {
        exists: json.is_some(),
        // What the server showed is what it holds: no limit to apply.
        board: Board::restore(Limits::default(), goal, tasks, None),
        set_aside: Arc::from([]),
        name: name.clone(),
        location: url.to_owned(),
    })
}

/// A JSON string's text.
fn text(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::to_owned)
}

/// `board add`: adds one task; the reply is its ID (that of the same task
/// already on the board, which is then not added again).
pub(crate) fn add(
    board: &SharedBoard,
    title: &str,
    description: &str,
) -> Result<PersonReply, String> {
    let new = [NewTask::new(title.to_owned(), description.to_owned())];
    let added = board
        .mutate(|board| board.add_tasks(&new), |_, added| added)
        .map_err(|error| error.to_string())?;
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

/// `board edit`: rewords task `task_id`; the reply is its new ID (a task's
/// ID follows its title and description).
pub(crate) fn edit(
    board: &SharedBoard,
    task_id: &str,
    title: Option<&str>,
    description: Option<&str>,
) -> Result<PersonReply, String> {
    let new = board
        .mutate(
            |board| board.modify_task(task_id, title, description),
            |_, new| new,
        )
        .map_err(|error| error.to_string())?;
    // It named a task, so it is an ID: the one the task had.
    let was = TaskId::parse(task_id).map(|id| id.to_string());
    Ok(id_reply(
        new,
        json!({"task_id": new.to_string(), "was": was}),
    ))
}

/// `board status`: sets task `task_id`'s status, as a person may: any
/// status `update_task_statuses` takes, `completed` too under review (the
/// person is the reviewer); a task that awaits review is refused (a person
/// approves or rejects it with `board review`). The reply is its line.
pub(crate) fn status(
    board: &SharedBoard,
    task_id: &str,
    status: &str,
) -> Result<PersonReply, String> {
    board
        .mutate(
            |board| {
                Ok((
                    (),
                    board.update_statuses_reviewed(&[(task_id, status)], false)?,
                ))
            },
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
        )
        .map_err(|error| error.to_string())
}

/// `board goal`: sets the goal, or replaces it (then `reason` is required,
/// as `change_goal` requires it, and kept in the history).
pub(crate) fn goal(
    board: &SharedBoard,
    title: &str,
    description: &str,
    reason: Option<&str>,
) -> Result<PersonReply, String> {
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
                    return Err(format!(
                        "a goal is set ({current}): give --reason TEXT to replace it; nothing changed"
                    ));
                }
            };
            undo.map(|undo| (changed, undo)).map_err(|e| e.to_string())
        },
        |board, changed| PersonReply {
            text: render::goal_line(board.goal()),
            json: json!({"goal": board.goal().map(goal_json), "changed": changed}),
        },
    );
    outcome.map_err(|error| error.to_string())?
}

/// A reply that is the ID alone, for `id=$(planning-mcp-server board add …)`.
fn id_reply(id: TaskId, json: Value) -> PersonReply {
    PersonReply {
        text: id.to_string(),
        json,
    }
}

/// A task as `board list --json` shows it.
fn task_json(task: &Task) -> Value {
    json!({
        "id": task.id.to_string(),
        "title": task.title,
        "description": task.description,
        "status": task.status.as_str(),
        "glyph": task.status.glyph().to_string(),
    })
}

/// The goal as `--json` shows it.
fn goal_json(goal: &Goal) -> Value {
    json!({"title": goal.title, "description": goal.description})
}
