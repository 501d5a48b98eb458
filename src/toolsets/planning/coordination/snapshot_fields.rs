// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The coordination fields of a format version 2 snapshot: on each task
//! `blocked_by`, `claim` and `evidence`, at the top `done_when`; of
//! version 3: `completed_by` on a task; of version 4: `dispatch` and
//! `touches` on a task. Reading them checks that every link and claim names
//! a task of the board, that links make no cycle, that only tasks in
//! progress are claimed, only completed tasks have a `completed_by`, only
//! pending or in-progress tasks a `dispatch`, and that touches are short
//! lines. The claim, evidence and dispatch themselves are the records of
//! [`super::records`], as every store writes them; the rest of the
//! snapshot is `planning/store/snapshot.rs`'s.

use std::borrow::Cow;
use std::collections::HashMap;

use super::data::{Change, Coordination};
use super::records::{ClaimRecord, DispatchRecord, EvidenceRecord, NoteRecord, NumberedNoteRecord};
use crate::toolsets::planning::domain::{Board, Status, TaskId};
use crate::toolsets::planning::store::records::BadTime;
use crate::toolsets::planning::store::snapshot::VERSION;

/// The most patterns a task's `touches` may hold, and the longest one, in
/// characters (toolset `team` allows fewer; a hand-edited file may not
/// grow beyond these).
const MAX_TOUCHES: usize = 64;
const MAX_TOUCH_CHARS: usize = 1000;

/// The coordination fields of one task, as read from its record.
pub(crate) struct TaskCoordination<'a> {
    pub(crate) blocked_by: Vec<TaskId>,
    pub(crate) claim: Option<ClaimRecord<'a>>,
    pub(crate) evidence: Option<EvidenceRecord<'a>>,
    pub(crate) completed_by: Option<Cow<'a, str>>,
    pub(crate) dispatch: Option<DispatchRecord<'a>>,
    pub(crate) touches: Vec<Cow<'a, str>>,
}

impl TaskCoordination<'_> {
    /// Whether the task carries nothing that format version 1 lacks.
    pub(crate) fn is_empty(&self) -> bool {
        self.blocked_by.is_empty()
            && self.claim.is_none()
            && self.evidence.is_none()
            && self.completed_by.is_none()
            && !self.needs_version_4()
    }

    /// Whether the task carries what only format version 4 holds.
    pub(crate) fn needs_version_4(&self) -> bool {
        self.dispatch.is_some() || !self.touches.is_empty()
    }
}

/// The oldest format version that holds all of `board`: 4 with a dispatch
/// record or touches (or a dispatch's history events), 3 with a
/// `completed_by`, 2 with other coordination data (or its history events),
/// else 1, so that older builds keep reading what they can.
pub(crate) fn version_needed(board: &Board) -> u64 {
    let coordination = board.coordination();
    let dispatch_events = board
        .history()
        .is_some_and(|history| history.entries().any(|e| e.event.is_dispatch()));
    let reviews = board
        .tasks()
        .any(|task| task.status == Status::AwaitingReview)
        || coordination.has_reviews()
        || coordination.notes().next().is_some()
        || coordination.renamings().next().is_some()
        || board
            .history()
            .is_some_and(|history| history.entries().any(|e| e.event.is_review()));
    if reviews {
        return VERSION;
    }
    if coordination.has_dispatches_or_touches() || dispatch_events {
        return 4;
    }
    if coordination.has_completers() {
        return 3;
    }
    let events = board
        .history()
        .is_some_and(|history| history.entries().any(|e| e.event.is_coordination()));
    match events || !coordination.is_empty() {
        true => 2,
        false => 1,
    }
}

/// The board's notes for its snapshot's header, by number.
pub(crate) fn notes_of(board: &Board) -> Vec<NumberedNoteRecord<'_>> {
    board
        .coordination()
        .notes()
        .map(|(n, note)| NumberedNoteRecord {
            n,
            note: NoteRecord::from(note),
        })
        .collect()
}

/// Adds the notes of a snapshot's header to `coordination`: each number
/// once, each task named on the board.
pub(crate) fn read_notes(
    coordination: &mut Coordination,
    notes: Vec<NumberedNoteRecord<'_>>,
) -> Result<(), String> {
    for record in notes {
        let n = record.n;
        let note = record
            .note
            .into_note()
            .map_err(|e| e.describe(&format!("note {n}"), ""))?;
        if coordination.notes().any(|(m, _)| m == n) {
            return Err(format!("note {n} is listed twice"));
        }
        let _ = coordination.apply(Change::Note(n, Some(note)));
    }
    Ok(())
}

/// Task `id`'s coordination fields for its record.
pub(crate) fn of_task(board: &Board, id: TaskId) -> TaskCoordination<'_> {
    let coordination = board.coordination();
    TaskCoordination {
        blocked_by: coordination.blockers(id).iter().copied().collect(),
        claim: coordination.claim(id).map(ClaimRecord::from),
        evidence: coordination.evidence(id).map(EvidenceRecord::from),
        completed_by: coordination.completed_by(id).map(Cow::Borrowed),
        dispatch: coordination.dispatch(id).map(DispatchRecord::from),
        touches: coordination
            .touches(id)
            .iter()
            .map(|t| Cow::Borrowed(t.as_str()))
            .collect(),
    }
}

/// Builds the coordination data of a board from its tasks' fields (task
/// `n`, 1-based, with its ID and status) and its done-when condition.
pub(crate) fn read(
    tasks: Vec<(TaskId, Status, TaskCoordination<'_>)>,
    done_when: Option<Cow<'_, str>>,
) -> Result<Coordination, String> {
    let positions: HashMap<TaskId, usize> = tasks
        .iter()
        .enumerate()
        .map(|(n, (id, _, _))| (*id, n + 1))
        .collect();
    let mut coordination = Coordination::default();
    if let Some(text) = done_when {
        let _ = coordination.apply(Change::DoneWhen(Some(text.into_owned())));
    }
    for (n, (id, status, fields)) in tasks.into_iter().enumerate() {
        let n = n + 1;
        for blocker in fields.blocked_by {
            if blocker == id {
                return Err(format!("task {n} is blocked by itself"));
            }
            if !positions.contains_key(&blocker) {
                return Err(format!(
                    "task {n} is blocked by {blocker}, which is not on the board"
                ));
            }
            if coordination.blockers(id).contains(&blocker) {
                return Err(format!("task {n} lists the blocker {blocker} twice"));
            }
            let _ = coordination.apply(Change::Link { task: id, blocker });
        }
        if let Some(claim) = fields.claim {
            if status != Status::InProgress {
                return Err(format!(
                    "task {n} is claimed but {status}; only tasks in progress are claimed"
                ));
            }
            let claim = claim.into_claim().map_err(|e| bad_time(&e, n, "claim."))?;
            let _ = coordination.apply(Change::Claim(id, Some(claim)));
        }
        if let Some(e) = fields.evidence {
            let evidence = e
                .into_evidence()
                .map_err(|e| bad_time(&e, n, "evidence."))?;
            let _ = coordination.apply(Change::Evidence(id, Some(evidence)));
        }
        if let Some(agent) = fields.completed_by {
            if status != Status::Completed {
                return Err(format!(
                    "task {n} records who completed it (completed_by) but is {status}"
                ));
            }
            if coordination.evidence(id).is_some() {
                return Err(format!(
                    "task {n} has both evidence and completed_by (who completed it without evidence)"
                ));
            }
            let _ = coordination.apply(Change::CompletedBy(id, Some(agent.into_owned())));
        }
        if let Some(d) = fields.dispatch {
            if !matches!(status, Status::Pending | Status::InProgress) {
                return Err(format!(
                    "task {n} is dispatched but {status}; only pending or in-progress tasks are"
                ));
            }
            let dispatch = d
                .into_dispatch()
                .map_err(|e| bad_time(&e, n, "dispatch."))?;
            let _ = coordination.apply(Change::Dispatch(id, Some(dispatch)));
        }
        if !fields.touches.is_empty() {
            let touches = read_touches(fields.touches, n)?;
            let _ = coordination.apply(Change::Touches(id, Some(touches)));
        }
    }
    if let Some(cycle) = coordination.find_cycle() {
        let path: Vec<String> = cycle.iter().map(TaskId::to_string).collect();
        return Err(format!(
            "its links make a cycle: {} (each waits for the next)",
            path.join(" -> ")
        ));
    }
    Ok(coordination)
}

/// A time of task `n`'s field `prefix…` that is not one.
fn bad_time(error: &BadTime, n: usize, prefix: &str) -> String {
    error.describe(&format!("entry {n}"), prefix)
}

/// Task `n`'s touches, checked: at most [`MAX_TOUCHES`] patterns, each one
/// line of at most [`MAX_TOUCH_CHARS`] characters, none blank.
fn read_touches(touches: Vec<Cow<'_, str>>, n: usize) -> Result<Vec<String>, String> {
    if touches.len() > MAX_TOUCHES {
        return Err(format!(
            "task {n} touches {} patterns; at most {MAX_TOUCHES} are read",
            touches.len()
        ));
    }
    touches
        .into_iter()
        .map(|touch| {
            let bad = touch.trim().is_empty()
                || touch.chars().count() > MAX_TOUCH_CHARS
                || touch.chars().any(char::is_control);
            match bad {
                true => Err(format!(
                    "task {n} touches '{}', which is not a one-line pattern of at most \
                     {MAX_TOUCH_CHARS} characters",
                    crate::runtime::text::clip(&touch)
                )),
                false => Ok(touch.into_owned()),
            }
        })
        .collect()
}
