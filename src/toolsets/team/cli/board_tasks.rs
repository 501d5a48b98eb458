// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server board list` (docs/review.md#the-board-from-a-terminal):
//! the tasks of the stored board, or of a running server's. (The writes,
//! `add`, `edit`, `status` and `goal`, are planning's
//! [`person_tasks`](crate::toolsets::planning::person_tasks), which the web
//! board's writes share.) Only planning's rules are used, so it works when
//! toolset team is off.

use std::sync::Arc;

use serde_json::{Value, json};

use super::Stored;
use super::fetch::FetchError;
use crate::server::BoardName;
use crate::toolsets::planning::coordination::person::PersonReply;
use crate::toolsets::planning::domain::render::{self, Filter};
use crate::toolsets::planning::domain::{Board, Goal, Limits, Task, TaskId};
use crate::toolsets::planning::person_tasks::goal_json;

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
pub(crate) fn served(
    url: &str,
    name: &BoardName,
    token: Option<&str>,
) -> Result<Stored, FetchError> {
    let body = super::fetch::board_json(url, name, token)?;
    let json: Option<Value> = body
        .map(|body| serde_json::from_str(&body))
        .transpose()
        .map_err(|error| {
            FetchError::Other(format!("{url} answered a board that is not JSON: {error}"))
        })?;
    let bad = || {
        FetchError::Other(format!(
            "{url} answered a board this command does not read (docs/web.md#json)"
        ))
    };
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
