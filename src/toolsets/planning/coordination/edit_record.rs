// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A team operation's edits as the git log writes them
//! (`{"edit": "claim", "task_id": …, "claim": {…}}`, one per [`Edit`]),
//! with the claim, dispatch and evidence as every store writes them
//! ([`super::records`]) and a recorded event as the history holds it.

use serde::{Deserialize, Serialize};

use super::data::Edit;
use super::records::{ClaimRecord, DispatchRecord, EvidenceRecord, NoteRecord};
use crate::toolsets::planning::domain::{Status, TaskId};
use crate::toolsets::planning::store::records::{BadTime, EventRecord};

/// One edit of a team operation in the log.
#[derive(Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum EditRecord<'a> {
    Status {
        task_id: TaskId,
        status: Status,
    },
    Claim {
        task_id: TaskId,
        claim: Option<ClaimRecord<'a>>,
    },
    Evidence {
        task_id: TaskId,
        evidence: Option<EvidenceRecord<'a>>,
    },
    CompletedBy {
        task_id: TaskId,
        agent: Option<String>,
    },
    Link {
        task_id: TaskId,
        blocker: TaskId,
    },
    Unlink {
        task_id: TaskId,
        blocker: TaskId,
    },
    DoneWhen {
        condition: Option<String>,
    },
    Dispatch {
        task_id: TaskId,
        dispatch: Option<DispatchRecord<'a>>,
    },
    Touches {
        task_id: TaskId,
        paths: Vec<String>,
    },
    Record {
        event: EventRecord<'a>,
    },
    Note {
        n: u64,
        note: Option<NoteRecord<'a>>,
    },
}

impl<'a> From<&'a Edit> for EditRecord<'a> {
    fn from(edit: &'a Edit) -> Self {
        match edit {
            Edit::Status(task_id, status) => EditRecord::Status {
                task_id: *task_id,
                status: *status,
            },
            Edit::Claim(task_id, claim) => EditRecord::Claim {
                task_id: *task_id,
                claim: claim.as_ref().map(ClaimRecord::from),
            },
            Edit::Evidence(task_id, evidence) => EditRecord::Evidence {
                task_id: *task_id,
                evidence: evidence.as_ref().map(EvidenceRecord::from),
            },
            Edit::CompletedBy(task_id, agent) => EditRecord::CompletedBy {
                task_id: *task_id,
                agent: agent.clone(),
            },
            Edit::Link { task, blocker } => EditRecord::Link {
                task_id: *task,
                blocker: *blocker,
            },
            Edit::Unlink { task, blocker } => EditRecord::Unlink {
                task_id: *task,
                blocker: *blocker,
            },
            Edit::DoneWhen(condition) => EditRecord::DoneWhen {
                condition: condition.clone(),
            },
            Edit::Dispatch(task_id, dispatch) => EditRecord::Dispatch {
                task_id: *task_id,
                dispatch: dispatch.as_ref().map(DispatchRecord::from),
            },
            Edit::Touches(task_id, paths) => EditRecord::Touches {
                task_id: *task_id,
                paths: paths.clone(),
            },
            Edit::Record(event) => EditRecord::Record {
                event: EventRecord::from(event),
            },
            Edit::Note(n, note) => EditRecord::Note {
                n: *n,
                note: note.as_ref().map(NoteRecord::from),
            },
        }
    }
}

impl EditRecord<'_> {
    /// The edit; a time that is not one is named.
    pub(crate) fn into_edit(self) -> Result<Edit, BadTime> {
        Ok(match self {
            EditRecord::Status { task_id, status } => Edit::Status(task_id, status),
            EditRecord::Claim { task_id, claim } => {
                Edit::Claim(task_id, claim.map(ClaimRecord::into_claim).transpose()?)
            }
            EditRecord::Evidence { task_id, evidence } => Edit::Evidence(
                task_id,
                evidence.map(EvidenceRecord::into_evidence).transpose()?,
            ),
            EditRecord::CompletedBy { task_id, agent } => Edit::CompletedBy(task_id, agent),
            EditRecord::Link { task_id, blocker } => Edit::Link {
                task: task_id,
                blocker,
            },
            EditRecord::Unlink { task_id, blocker } => Edit::Unlink {
                task: task_id,
                blocker,
            },
            EditRecord::DoneWhen { condition } => Edit::DoneWhen(condition),
            EditRecord::Dispatch { task_id, dispatch } => Edit::Dispatch(
                task_id,
                dispatch.map(DispatchRecord::into_dispatch).transpose()?,
            ),
            EditRecord::Touches { task_id, paths } => Edit::Touches(task_id, paths),
            EditRecord::Record { event } => Edit::Record(event.into_event()?),
            EditRecord::Note { n, note } => {
                Edit::Note(n, note.map(NoteRecord::into_note).transpose()?)
            }
        })
    }
}
