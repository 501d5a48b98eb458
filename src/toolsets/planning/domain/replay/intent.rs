// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a set-aside operation set out to do, in the words of the tool
//! that made it: `release_task of [d044053f] 'Write the parser' as
//! completed, with evidence`. An operation does not name its tool, so the
//! words come from its action (a team operation's edits say which tool
//! made them); the task's title from the operation's own history records,
//! else the board, else the titles of the tasks the replay saw deleted.

use super::op::Op;
use super::set_aside::Reason;
use super::state::State;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::{Action, ClaimEnd, Event, Status, TaskId};

/// The most characters of a title an intent quotes.
const TITLE_CHARS: usize = 60;

/// What an operation set out to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Intent {
    /// `release_task of [d044053f] 'Write the parser' as completed, with
    /// evidence`.
    pub(crate) text: String,
    /// Whether it carried evidence (kept with it in the log).
    pub(crate) evidence: bool,
}

impl Intent {
    fn new(text: String) -> Self {
        Self {
            text,
            evidence: false,
        }
    }
}

/// What `op`, set aside for `reason` on `state` (the board before it),
/// set out to do; `None` when its action says nothing an agent did (an
/// expiry alone).
pub(crate) fn of(state: &State, op: &Op, reason: &Reason) -> Option<Intent> {
    let task = |id: TaskId| named(state, op, id);
    Some(match &op.action {
        Action::SetGoal(goal) => Intent::new(format!("set_goal '{}'", title(&goal.title))),
        Action::ChangeGoal { goal, .. } => {
            Intent::new(format!("change_goal to '{}'", title(&goal.title)))
        }
        // Its reason names the task when it is one of several.
        // `add_tasks` with links and touches is a plan (one call).
        Action::AddTasks(tasks) | Action::Plan { tasks, .. } => {
            Intent::new(match (reason, tasks.as_slice()) {
                (Reason::TooManyTasks { .. } | Reason::IdCollision { .. }, _) => "add_tasks".into(),
                (_, [one]) => format!("add_tasks of '{}'", title(&one.title)),
                (_, many) => format!("add_tasks of {} tasks", many.len()),
            })
        }
        Action::SetStatuses(updates) => {
            let gone = match reason {
                Reason::TaskGone(id) => Some(*id),
                _ => None,
            };
            let (id, status) = updates
                .iter()
                .find(|(id, _)| Some(*id) == gone)
                .or(updates.first())?;
            Intent::new(format!("update_task_statuses of {} to {status}", task(*id)))
        }
        Action::Modify { id, .. } => Intent::new(format!("modify_task of {}", task(*id))),
        Action::Delete(_) => Intent::new("delete_tasks".into()),
        Action::Edit(edits) => return edit(edits, task),
    })
}

/// The claim of `task` that made a provisional claim, which a confirmed
/// one took over.
pub(crate) fn claim_of(state: &State, task: TaskId) -> Intent {
    let named = match state.board.task(task) {
        Some(found) => format!("[{task}] '{}'", title(&found.title)),
        None => format!("[{task}]"),
    };
    Intent::new(format!("provisional claim_task of {named}"))
}

/// The intent of a team operation, from its edits (the expiries every team
/// change starts with left out).
fn edit(edits: &[Edit], task: impl Fn(TaskId) -> String) -> Option<Intent> {
    let main = without_expiries(edits);
    let evidence = |id: TaskId| {
        main.iter()
            .any(|e| matches!(e, Edit::Evidence(t, Some(_)) if *t == id))
    };
    let released = main.iter().find_map(|e| match e {
        Edit::Record(Event::ClaimEnded {
            task_id,
            reason: ClaimEnd::Released,
            ..
        }) => Some(*task_id),
        _ => None,
    });
    if let Some(id) = released {
        let status = main.iter().find_map(|e| match e {
            Edit::Status(t, status) if *t == id => Some(*status),
            _ => None,
        });
        let mut text = format!("release_task of {}", task(id));
        if let Some(status) = status {
            text.push_str(&format!(" as {status}"));
        }
        let evidence = evidence(id);
        if evidence {
            text.push_str(", with evidence");
        }
        return Some(Intent { text, evidence });
    }
    // The edit that names the tool, whatever comes before it (a claim
    // starts with its task's status).
    let said = |e: &&Edit| {
        Some(match e {
            Edit::Evidence(id, Some(_)) => Intent {
                text: format!("release_task adding evidence to {}", task(*id)),
                evidence: true,
            },
            Edit::Claim(id, Some(_)) => Intent::new(format!("claim_task of {}", task(*id))),
            Edit::Dispatch(id, Some(dispatch)) => Intent::new(format!(
                "dispatch_task of {} to {}",
                task(*id),
                dispatch.worker
            )),
            Edit::Link { task: id, blocker } => Intent::new(format!(
                "link_tasks making {} wait for [{blocker}]",
                task(*id)
            )),
            Edit::Unlink { task: id, blocker } => {
                Intent::new(format!("unlink_tasks of {} from [{blocker}]", task(*id)))
            }
            Edit::Touches(id, _) => Intent::new(format!("set_touches of {}", task(*id))),
            Edit::DoneWhen(_) => Intent::new("set_done_when".into()),
            _ => return None,
        })
    };
    main.iter().find_map(said).or_else(|| {
        main.iter().find_map(|e| match e {
            Edit::Status(id, status) => Some(Intent::new(format!(
                "status change of {} to {status}",
                task(*id)
            ))),
            _ => None,
        })
    })
}

/// `edits` without the expiries a team change starts with: an end of a
/// claim recorded as expired, and the status back to pending after it.
fn without_expiries(edits: &[Edit]) -> Vec<&Edit> {
    let mut kept = Vec::with_capacity(edits.len());
    let mut n = 0;
    while n < edits.len() {
        if let (
            Edit::Claim(task, None),
            Some(Edit::Record(Event::ClaimEnded {
                reason: ClaimEnd::Expired,
                ..
            })),
        ) = (&edits[n], edits.get(n + 1))
        {
            n += 2;
            if matches!(edits.get(n), Some(Edit::Status(t, Status::Pending)) if t == task) {
                n += 1;
            }
            continue;
        }
        kept.push(&edits[n]);
        n += 1;
    }
    kept
}

/// `[id] 'Title'`: the title from `op`'s own records (a team operation
/// records it), the board, or the tasks the replay saw deleted; `[id]`
/// alone when none knows it.
fn named(state: &State, op: &Op, id: TaskId) -> String {
    let recorded = match &op.action {
        Action::Edit(edits) => edits.iter().find_map(|e| match e {
            Edit::Record(
                Event::StatusChanged { task_id, title, .. }
                | Event::Claimed { task_id, title, .. }
                | Event::ClaimEnded { task_id, title, .. }
                | Event::Dispatched { task_id, title, .. }
                | Event::DispatchEnded { task_id, title, .. },
            ) if *task_id == id => Some(title.clone()),
            _ => None,
        }),
        _ => None,
    };
    let known = recorded
        .or_else(|| {
            let now = state.resolve(id)?;
            state.board.task(now).map(|task| task.title.clone())
        })
        .or_else(|| state.gone.get(&id).cloned());
    match known {
        Some(known) => format!("[{id}] '{}'", title(&known)),
        None => format!("[{id}]"),
    }
}

/// A title as an intent quotes it: on one line, at most [`TITLE_CHARS`].
fn title(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match flat.chars().count() > TITLE_CHARS {
        true => flat.chars().take(TITLE_CHARS - 1).chain(['…']).collect(),
        false => flat,
    }
}
