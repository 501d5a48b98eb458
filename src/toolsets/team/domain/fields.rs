// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The structured content of the replies that hand out tasks
//! (`claim_task`, `dispatch_task`, `ready_tasks`): the same answer as the
//! text, as fields a program reads without parsing lines, the task's
//! title and description apart and unflattened. The MCP face adds the
//! reply's text as the field `text`: a client that shows only the
//! structured content (Claude Code does) still gets the whole answer.

use serde_json::{Value, json};

use super::claims::Claimed;
use super::dispatch::Dispatched;
use super::text::time;
use super::view::{DispatchState, View};
use super::wave::Wave;
use crate::toolsets::planning::domain::Task;

/// A task as fields: `id`, `title`, `description`, `status` (as the view
/// sees it), `touches`.
pub(crate) fn task(view: View<'_>, task: &Task) -> Value {
    json!({
        "id": task.id.to_string(),
        "title": task.title,
        "description": task.description,
        "status": view.status(task).as_str(),
        "touches": view.board.coordination().touches(task.id),
    })
}

/// `claim_task`'s fields: the task, the holder, until when, whether it
/// was a renewal.
pub(crate) fn claimed(view: View<'_>, claimed: &Claimed, agent: &str) -> Value {
    json!({
        "task": view.board.task(claimed.id).map(|t| task(view, t)),
        "holder": agent,
        "until": time(claimed.until),
        "renewed": claimed.renewed,
    })
}

/// `dispatch_task`'s fields: the task, the worker, until when it has to
/// claim it (or its lease, if it holds it), and whether the dispatch took
/// the next ready task (`next`, with how many tasks it unblocks).
pub(crate) fn dispatched(view: View<'_>, dispatched: &Dispatched, worker: &str) -> Value {
    json!({
        "task": view.board.task(dispatched.id).map(|t| task(view, t)),
        "worker": worker,
        "until": time(dispatched.until),
        "renewed": dispatched.renewed,
        "claimed": dispatched.claimed,
        "next": dispatched.next.is_some(),
        "unblocks": dispatched.next,
    })
}

/// `ready_tasks`'s fields: how many tasks are ready, the wave's tasks in
/// its order, each with `unblocks` (how many tasks wait for it,
/// transitively) and `stalled`, and the tasks held back with what each
/// conflicts with (`conflict`).
pub(crate) fn ready(view: View<'_>, wave: &Wave<'_>) -> Value {
    let entry = |t: &Task| {
        let mut fields = task(view, t);
        let stalled = matches!(view.dispatch(t.id), Some((_, DispatchState::Stalled)));
        fields["unblocks"] = json!(wave.unblocks.of(t.id));
        fields["stalled"] = json!(stalled);
        fields
    };
    let tasks: Vec<Value> = wave.members.iter().map(|t| entry(t)).collect();
    let held_back: Vec<Value> = wave
        .held_back
        .iter()
        .map(|(t, conflict)| {
            let mut fields = entry(t);
            fields["conflict"] = json!(conflict.mark());
            fields
        })
        .collect();
    json!({
        "ready": wave.ready,
        "tasks": tasks,
        "held_back": held_back,
        "held_back_count": wave.held_back_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::NewTask;
    use crate::toolsets::team::domain::fixture::{apply, at, board, id};
    use crate::toolsets::team::domain::links;
    use crate::toolsets::team::domain::wave::{Stalled, wave};

    #[test]
    fn fields_keep_the_title_and_the_description_apart() {
        let mut board = board(&["b"]);
        let title = "Parser: the lexer";
        let _ = board
            .add_tasks(&[NewTask::new(title, "tokens: all of them\nand spans")])
            .unwrap();
        let a = crate::toolsets::planning::domain::TaskId::from_content(
            title,
            "tokens: all of them\nand spans",
        );
        let b = id("b").to_string();
        apply(&mut board, at(0), |v| links::link(v, &b, &[a.to_string()])).unwrap();
        let view = View::new(&board, at(0));
        let fields = ready(view, &wave(view, 10, Stalled::Include, None));
        assert_eq!(
            fields,
            json!({
                "ready": 1,
                "tasks": [{
                    "id": a.to_string(),
                    "title": "Parser: the lexer",
                    "description": "tokens: all of them\nand spans",
                    "status": "pending",
                    "touches": [],
                    "unblocks": 1,
                    "stalled": false,
                }],
                "held_back": [],
                "held_back_count": 0,
            })
        );
    }
}
