// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Dispatch records: a lead records that it sent a task to a worker (a
//! sub-agent), where the worker works and why, so that after a context
//! compaction the board still says what runs. The worker has a lease's
//! length to claim the task; its claim links to the record, whose time
//! then follows the lease. A worker that misses its time (no claim, or no
//! renewal and no release) leaves the record *stalled*: the task is ready
//! again, and the lead re-dispatches it (to another worker, replacing the
//! record) or another agent claims it (ending the record).

use std::time::{Duration, SystemTime};

use super::claims::{end_dispatch, not_blocked, task};
use super::error::{DISPATCH_INSTEAD, TeamError};
use super::text::{self, check_line};
use super::touches::{self, Conflict, Touches};
use super::view::{DispatchState, View};
use super::wave;
use crate::toolsets::planning::coordination::{Dispatch, Edit};
use crate::toolsets::planning::domain::{DispatchEnd, Event, Status, TaskId};

/// The longest place (worktree or directory) and note, in characters.
pub(crate) const MAX_PLACE_CHARS: usize = 500;

/// What a dispatch asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request<'a> {
    /// The lead's agent name.
    pub(crate) lead: &'a str,
    /// The worker's agent name (it claims with it).
    pub(crate) worker: &'a str,
    /// The task; `None` for the next task of the worker's ready wave.
    pub(crate) task_id: Option<&'a str>,
    /// Where the worker works: a worktree or directory.
    pub(crate) place: Option<&'a str>,
    /// A note.
    pub(crate) note: Option<&'a str>,
    /// How long the worker has to claim the task.
    pub(crate) lease: Duration,
    /// Whether an overlap with another agent's reservation is accepted.
    pub(crate) accept_overlap: bool,
}

/// What a dispatch did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dispatched {
    /// The task.
    pub(crate) id: TaskId,
    /// When the worker's time runs out.
    pub(crate) until: SystemTime,
    /// Whether the worker was given the task already (a renewal).
    pub(crate) renewed: bool,
    /// Whether the worker holds the task already.
    pub(crate) claimed: bool,
    /// The worker whose stalled dispatch this one replaced.
    pub(crate) replaced: Option<String>,
    /// The overlap with another agent's work the caller accepted.
    pub(crate) overlap: Option<Conflict>,
    /// Whether the lead named no task, so that the dispatch took the next
    /// ready one: how many tasks it unblocks, then.
    pub(crate) next: Option<usize>,
}

/// Records that `request.lead` sent `request.task_id` to `request.worker`:
/// a pending task whose blockers are completed, not held or dispatched by
/// another (a stalled dispatch is replaced), whose touches overlap no other
/// agent's reservation unless accepted. Sending it to the same worker again
/// renews the record. Without a task ID it is the next task of the ready
/// wave for the worker, as `claim_task` would take it: the top of the
/// ranked queue whose touches overlap no other agent's held work (so a
/// wave of N dispatches is N calls, each taking another task); with
/// nothing ready the refusal says why and nothing changes.
pub(crate) fn dispatch(
    view: View<'_>,
    request: &Request<'_>,
) -> Result<(Vec<Edit>, Dispatched), TeamError> {
    let lead = text::agent(request.lead)?;
    let worker = text::agent(request.worker)?;
    for (field, value) in [("place", request.place), ("dispatch note", request.note)] {
        if let Some(value) = value {
            check_line(field, value, MAX_PLACE_CHARS)?;
        }
    }
    let (task, next) = match request.task_id {
        Some(id) => (task(view.board, id)?, None),
        None => {
            let (next, unblocks) = wave::next(view, worker, "dispatch")?;
            (next, Some(unblocks))
        }
    };
    let claim = view.claim(task.id);
    if let Some(held) = claim.filter(|c| c.holder != worker) {
        return Err(TeamError::Held {
            id: task.id,
            holder: held.holder.clone(),
            until: held.until,
        });
    }
    let mut edits = Vec::new();
    let mut dispatched = Dispatched {
        id: task.id,
        until: view.now + request.lease,
        renewed: false,
        claimed: claim.is_some(),
        replaced: None,
        overlap: None,
        next,
    };
    let existing = view.dispatch(task.id);
    let mut at = view.now;
    match existing {
        Some((d, _)) if d.worker == worker => {
            dispatched.renewed = true;
            at = d.at;
        }
        Some((d, state)) if state.in_flight() => {
            return Err(TeamError::Dispatched {
                id: task.id,
                worker: d.worker.clone(),
                until: d.until,
                claimed: matches!(state, DispatchState::Working(_)),
            });
        }
        Some((stalled, _)) => {
            edits.extend(end_dispatch(task, &stalled.worker, DispatchEnd::Replaced));
            dispatched.replaced = Some(stalled.worker.clone());
        }
        None => {}
    }
    if claim.is_none() {
        let status = view.status(task);
        if !matches!(status, Status::Pending | Status::InProgress) {
            return Err(TeamError::NotDispatchable {
                id: task.id,
                status,
            });
        }
        not_blocked(view, task.id)?;
    }
    let touches = Touches::stored(view.board.coordination().touches(task.id));
    if let Some(found) = touches::conflict(&touches::reservations(view), task.id, &touches, worker)
    {
        if !request.accept_overlap {
            return Err(TeamError::Overlap {
                id: task.id,
                conflict: Box::new(found),
                hint: DISPATCH_INSTEAD,
            });
        }
        dispatched.overlap = Some(found);
    }
    // A worker that holds the task already has its lease's time.
    if let Some(held) = claim {
        dispatched.until = held.until;
    }
    let keep =
        |new: Option<&str>, old: Option<&String>| new.map(str::to_owned).or_else(|| old.cloned());
    let old = existing.filter(|(d, _)| d.worker == worker).map(|(d, _)| d);
    let record = Dispatch {
        worker: worker.to_owned(),
        by: lead.to_owned(),
        place: keep(request.place, old.and_then(|d| d.place.as_ref())),
        note: keep(request.note, old.and_then(|d| d.note.as_ref())),
        at,
        until: dispatched.until,
        claimed: claim.is_some(),
    };
    edits.push(Edit::Dispatch(task.id, Some(record)));
    edits.push(Edit::Record(Event::Dispatched {
        task_id: task.id,
        title: task.title.clone(),
        worker: worker.to_owned(),
        by: lead.to_owned(),
        until: dispatched.until,
    }));
    Ok((edits, dispatched))
}

#[cfg(test)]
mod tests;
