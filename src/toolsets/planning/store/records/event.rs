// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The goal and the history's records: an entry is its time and its event,
//! `{"at": …, "event": "status_changed", "task_id": …, …}`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::time::{BadTime, parse_time, timestamp};
use crate::toolsets::planning::coordination::records::EvidenceRecord;
use crate::toolsets::planning::domain::{
    ClaimEnd, DispatchEnd, Entry, Event, Goal, Status, TaskId,
};

/// The goal: `{"title": …, "description": …}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GoalRecord<'a> {
    title: Cow<'a, str>,
    description: Cow<'a, str>,
}

impl<'a> From<&'a Goal> for GoalRecord<'a> {
    fn from(goal: &'a Goal) -> Self {
        Self {
            title: Cow::Borrowed(&goal.title),
            description: Cow::Borrowed(&goal.description),
        }
    }
}

impl From<GoalRecord<'_>> for Goal {
    fn from(record: GoalRecord<'_>) -> Self {
        Goal {
            title: record.title.into_owned(),
            description: record.description.into_owned(),
        }
    }
}

/// A history entry: its time and its event.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct EntryRecord<'a> {
    at: String,
    #[serde(flatten)]
    event: EventRecord<'a>,
}

impl<'a> From<&'a Entry> for EntryRecord<'a> {
    fn from(entry: &'a Entry) -> Self {
        Self {
            at: timestamp(entry.at),
            event: EventRecord::from(&entry.event),
        }
    }
}

impl EntryRecord<'_> {
    /// The entry; a field that is not a time is named.
    pub(crate) fn into_entry(self) -> Result<Entry, BadTime> {
        Ok(Entry {
            event: self.event.into_event()?,
            at: parse_time(&self.at, "at")?,
        })
    }
}

/// A history event, tagged by `event`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum EventRecord<'a> {
    /// `{"goal": {…}}`; the flat `title` and `description` that git logs
    /// of an earlier build wrote are read too.
    GoalSet(GoalSetRecord<'a>),
    /// The goal changed, and why.
    GoalChanged {
        /// The goal before.
        from: GoalRecord<'a>,
        /// The goal after.
        to: GoalRecord<'a>,
        /// Why.
        reason: Cow<'a, str>,
    },
    /// A task's status changed.
    StatusChanged {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// The status before.
        from: Status,
        /// The status after.
        to: Status,
    },
    /// A task was claimed.
    Claimed {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// Who claimed it.
        holder: Cow<'a, str>,
        /// Until when.
        until: String,
    },
    /// A claim ended.
    ClaimEnded {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// Who held it.
        holder: Cow<'a, str>,
        /// Until when it was held.
        until: String,
        /// Why it ended.
        reason: ClaimEndRecord,
    },
    /// A task's links to its dependents were removed (it was deleted).
    LinksRemoved {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// The tasks that waited for it.
        dependents: Vec<TaskId>,
    },
    /// A lead dispatched a task to a worker.
    Dispatched {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// The worker.
        worker: Cow<'a, str>,
        /// The lead.
        by: Cow<'a, str>,
        /// Until when.
        until: String,
    },
    /// A dispatch ended.
    DispatchEnded {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// The worker.
        worker: Cow<'a, str>,
        /// Why it ended.
        reason: DispatchEndRecord,
    },
    /// A person reviewed an agent's completion.
    Reviewed {
        /// The task.
        task_id: TaskId,
        /// Its title then.
        title: Cow<'a, str>,
        /// The evidence reviewed, with the review.
        evidence: EvidenceRecord<'a>,
    },
}

/// The goal of a `goal_set` event, written `{"goal": {…}}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(try_from = "GoalSetFields<'a>")]
pub(crate) struct GoalSetRecord<'a> {
    goal: GoalRecord<'a>,
}

/// What a `goal_set` event may hold: `goal`, or (as git logs of an earlier
/// build wrote) `title` and `description`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalSetFields<'a> {
    #[serde(default)]
    goal: Option<GoalRecord<'a>>,
    #[serde(default)]
    title: Option<Cow<'a, str>>,
    #[serde(default)]
    description: Option<Cow<'a, str>>,
}

impl<'a> TryFrom<GoalSetFields<'a>> for GoalSetRecord<'a> {
    type Error = &'static str;

    fn try_from(fields: GoalSetFields<'a>) -> Result<Self, Self::Error> {
        match fields {
            GoalSetFields {
                goal: Some(goal),
                title: None,
                description: None,
            } => Ok(Self { goal }),
            GoalSetFields {
                goal: None,
                title: Some(title),
                description: Some(description),
            } => Ok(Self {
                goal: GoalRecord { title, description },
            }),
            _ => Err("a goal_set event holds either `goal` or `title` and `description`"),
        }
    }
}

impl<'a> From<&'a Goal> for GoalSetRecord<'a> {
    fn from(goal: &'a Goal) -> Self {
        Self { goal: goal.into() }
    }
}

impl From<GoalSetRecord<'_>> for Goal {
    fn from(record: GoalSetRecord<'_>) -> Self {
        record.goal.into()
    }
}

/// A new goal and why (the git log's `change_goal`), written
/// `{"goal": {…}, "reason": …}` like a `goal_set`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(try_from = "GoalChangeFields<'a>")]
pub(crate) struct GoalChangeRecord<'a> {
    goal: GoalRecord<'a>,
    reason: Cow<'a, str>,
}

/// What a `change_goal` may hold: `goal`, or (as git logs of an earlier
/// build wrote) `title` and `description`; and its reason.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalChangeFields<'a> {
    #[serde(default)]
    goal: Option<GoalRecord<'a>>,
    #[serde(default)]
    title: Option<Cow<'a, str>>,
    #[serde(default)]
    description: Option<Cow<'a, str>>,
    reason: Cow<'a, str>,
}

impl<'a> TryFrom<GoalChangeFields<'a>> for GoalChangeRecord<'a> {
    type Error = &'static str;

    fn try_from(fields: GoalChangeFields<'a>) -> Result<Self, Self::Error> {
        let goal = GoalSetFields {
            goal: fields.goal,
            title: fields.title,
            description: fields.description,
        };
        let GoalSetRecord { goal } = GoalSetRecord::try_from(goal)
            .map_err(|_| "a change_goal holds either `goal` or `title` and `description`")?;
        Ok(Self {
            goal,
            reason: fields.reason,
        })
    }
}

impl<'a> GoalChangeRecord<'a> {
    /// The record of a change to `goal` for `reason`.
    pub(crate) fn new(goal: &'a Goal, reason: &'a str) -> Self {
        Self {
            goal: goal.into(),
            reason: Cow::Borrowed(reason),
        }
    }

    /// The goal after, and why.
    pub(crate) fn into_parts(self) -> (Goal, String) {
        (self.goal.into(), self.reason.into_owned())
    }
}

/// Why a claim ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClaimEndRecord {
    /// Its holder released it.
    Released,
    /// Its time ran out.
    Expired,
    /// The task's status changed.
    StatusChanged,
    /// The task was deleted.
    Deleted,
}

impl From<ClaimEnd> for ClaimEndRecord {
    fn from(reason: ClaimEnd) -> Self {
        match reason {
            ClaimEnd::Released => Self::Released,
            ClaimEnd::Expired => Self::Expired,
            ClaimEnd::StatusChanged => Self::StatusChanged,
            ClaimEnd::Deleted => Self::Deleted,
        }
    }
}

impl From<ClaimEndRecord> for ClaimEnd {
    fn from(reason: ClaimEndRecord) -> Self {
        match reason {
            ClaimEndRecord::Released => Self::Released,
            ClaimEndRecord::Expired => Self::Expired,
            ClaimEndRecord::StatusChanged => Self::StatusChanged,
            ClaimEndRecord::Deleted => Self::Deleted,
        }
    }
}

/// Why a dispatch ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DispatchEndRecord {
    /// The worker released it.
    Released,
    /// Another dispatch replaced it.
    Replaced,
    /// Another agent took the task.
    Taken,
    /// The task's status changed.
    StatusChanged,
    /// The task was deleted.
    Deleted,
}

impl From<DispatchEnd> for DispatchEndRecord {
    fn from(reason: DispatchEnd) -> Self {
        match reason {
            DispatchEnd::Released => Self::Released,
            DispatchEnd::Replaced => Self::Replaced,
            DispatchEnd::Taken => Self::Taken,
            DispatchEnd::StatusChanged => Self::StatusChanged,
            DispatchEnd::Deleted => Self::Deleted,
        }
    }
}

impl From<DispatchEndRecord> for DispatchEnd {
    fn from(reason: DispatchEndRecord) -> Self {
        match reason {
            DispatchEndRecord::Released => Self::Released,
            DispatchEndRecord::Replaced => Self::Replaced,
            DispatchEndRecord::Taken => Self::Taken,
            DispatchEndRecord::StatusChanged => Self::StatusChanged,
            DispatchEndRecord::Deleted => Self::Deleted,
        }
    }
}

impl<'a> From<&'a Event> for EventRecord<'a> {
    fn from(event: &'a Event) -> Self {
        match event {
            Event::GoalSet { goal } => Self::GoalSet(GoalSetRecord { goal: goal.into() }),
            Event::GoalChanged { from, to, reason } => Self::GoalChanged {
                from: from.into(),
                to: to.into(),
                reason: Cow::Borrowed(reason),
            },
            Event::StatusChanged {
                task_id,
                title,
                from,
                to,
            } => Self::StatusChanged {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                from: *from,
                to: *to,
            },
            Event::Claimed {
                task_id,
                title,
                holder,
                until,
            } => Self::Claimed {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                holder: Cow::Borrowed(holder),
                until: timestamp(*until),
            },
            Event::ClaimEnded {
                task_id,
                title,
                holder,
                until,
                reason,
            } => Self::ClaimEnded {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                holder: Cow::Borrowed(holder),
                until: timestamp(*until),
                reason: (*reason).into(),
            },
            Event::LinksRemoved {
                task_id,
                title,
                dependents,
            } => Self::LinksRemoved {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                dependents: dependents.clone(),
            },
            Event::Dispatched {
                task_id,
                title,
                worker,
                by,
                until,
            } => Self::Dispatched {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                worker: Cow::Borrowed(worker),
                by: Cow::Borrowed(by),
                until: timestamp(*until),
            },
            Event::DispatchEnded {
                task_id,
                title,
                worker,
                reason,
            } => Self::DispatchEnded {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                worker: Cow::Borrowed(worker),
                reason: (*reason).into(),
            },
            Event::Reviewed {
                task_id,
                title,
                evidence,
            } => Self::Reviewed {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                evidence: EvidenceRecord::from(&**evidence),
            },
        }
    }
}

impl EventRecord<'_> {
    /// The event; a field that is not a time is named.
    pub(crate) fn into_event(self) -> Result<Event, BadTime> {
        Ok(match self {
            Self::GoalSet(GoalSetRecord { goal }) => Event::GoalSet { goal: goal.into() },
            Self::GoalChanged { from, to, reason } => Event::GoalChanged {
                from: from.into(),
                to: to.into(),
                reason: reason.into_owned(),
            },
            Self::StatusChanged {
                task_id,
                title,
                from,
                to,
            } => Event::StatusChanged {
                task_id,
                title: title.into_owned(),
                from,
                to,
            },
            Self::Claimed {
                task_id,
                title,
                holder,
                until,
            } => Event::Claimed {
                task_id,
                title: title.into_owned(),
                holder: holder.into_owned(),
                until: parse_time(&until, "until")?,
            },
            Self::ClaimEnded {
                task_id,
                title,
                holder,
                until,
                reason,
            } => Event::ClaimEnded {
                task_id,
                title: title.into_owned(),
                holder: holder.into_owned(),
                until: parse_time(&until, "until")?,
                reason: reason.into(),
            },
            Self::LinksRemoved {
                task_id,
                title,
                dependents,
            } => Event::LinksRemoved {
                task_id,
                title: title.into_owned(),
                dependents,
            },
            Self::Dispatched {
                task_id,
                title,
                worker,
                by,
                until,
            } => Event::Dispatched {
                task_id,
                title: title.into_owned(),
                worker: worker.into_owned(),
                by: by.into_owned(),
                until: parse_time(&until, "until")?,
            },
            Self::DispatchEnded {
                task_id,
                title,
                worker,
                reason,
            } => Event::DispatchEnded {
                task_id,
                title: title.into_owned(),
                worker: worker.into_owned(),
                reason: reason.into(),
            },
            Self::Reviewed {
                task_id,
                title,
                evidence,
            } => Event::Reviewed {
                task_id,
                title: title.into_owned(),
                evidence: Box::new(evidence.into_evidence()?),
            },
        })
    }
}
