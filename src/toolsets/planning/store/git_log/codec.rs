// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The log's files: one JSON object per operation, and the checkpoint
//! (docs/sync.md, "The operation format"). Reading checks everything and
//! names the first problem; an operation that cannot be read is kept in
//! the log as unreadable, and the others go on. A team operation's edits
//! are written as the coordination room says (`planning/coordination/`,
//! `edit_record.rs`).
//!
//! ```json
//! {"format":"planning-mcp-server operation","version":1,
//!  "op":"3f9c2a1b00d4e5f6#12","stamp":1795000000123456,
//!  "at":"2026-11-22T10:15:02.481516Z",
//!  "action":{"set_statuses":{"tasks":[{"task_id":"a46f8d35","status":"completed"}]}}}
//! ```

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::super::records::{BadTime, GoalChangeRecord, GoalSetRecord, parse_time, timestamp};
use super::super::snapshot::SnapshotRecord;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::coordination::edit_record::EditRecord;
use crate::toolsets::planning::coordination::replay::ClaimOrigin;
use crate::toolsets::planning::domain::replay::{
    Checkpoint, CheckpointId, ClaimMode, Op, OpId, Reason, Replica, SetAside, State,
};
use crate::toolsets::planning::domain::{Action, Limits, NewTask, Status, TaskId};

/// The value of `format` in every operation.
pub(crate) const OP_FORMAT: &str = "planning-mcp-server operation";
/// The value of `format` in every checkpoint.
pub(crate) const CHECKPOINT_FORMAT: &str = "planning-mcp-server checkpoint";
/// The version of both formats this build writes and reads.
pub(crate) const VERSION: u64 = 1;
/// The largest operation read: an operation holds at most a few tasks'
/// texts; more is not an operation of ours.
pub(crate) const MAX_OP_BYTES: usize = 1024 * 1024;

/// The name of operation `counter` of `replica` in the log's tree.
pub(crate) fn op_name(replica: Replica, counter: u64) -> String {
    format!("op-{replica}-{counter}")
}

/// The replica and counter an operation's name gives.
pub(crate) fn parse_op_name(name: &str) -> Option<(Replica, u64)> {
    let rest = name.strip_prefix("op-")?;
    let (replica, text) = rest.split_once('-')?;
    let counter = text.parse::<u64>().ok().filter(|n| *n >= 1)?;
    // One spelling per operation: no sign, no leading zeros.
    let canonical = counter.to_string() == text;
    Some((Replica::parse(replica)?, counter)).filter(|_| canonical)
}

/// The name of a checkpoint in the log's tree.
pub(crate) fn checkpoint_name(id: CheckpointId) -> String {
    format!("checkpoint-{id}")
}

/// Whether a name in the log's tree is a checkpoint's.
pub(crate) fn is_checkpoint_name(name: &str) -> bool {
    name.starts_with("checkpoint-")
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OpRecord<'a> {
    format: String,
    version: u64,
    op: String,
    stamp: u64,
    at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    claim: Option<ModeRecord>,
    action: ActionRecord<'a>,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ModeRecord {
    Confirmed,
    Provisional,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum ActionRecord<'a> {
    /// `{"goal": {…}}`, the shape of a snapshot's `goal_set`; the flat
    /// `title` and `description` of earlier logs are read too.
    SetGoal(GoalSetRecord<'a>),
    /// `{"goal": {…}, "reason": …}`; the flat shape is read too.
    ChangeGoal(GoalChangeRecord<'a>),
    /// The tasks; with toolset team's fields, the links and touches that
    /// came with them (`edits`, absent when none: an add without them is
    /// written as it always was).
    AddTasks {
        tasks: Vec<NewTaskRecord>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        edits: Vec<EditRecord<'a>>,
    },
    SetStatuses {
        tasks: Vec<StatusRecord>,
    },
    Modify {
        task_id: TaskId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    Delete {
        task_ids: Vec<TaskId>,
    },
    Edit {
        edits: Vec<EditRecord<'a>>,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTaskRecord {
    title: String,
    description: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StatusRecord {
    task_id: TaskId,
    status: Status,
}

/// Writes an operation (one line of JSON, ending in a newline).
pub(crate) fn op_to_json(op: &Op) -> Vec<u8> {
    let record = OpRecord {
        format: OP_FORMAT.into(),
        version: VERSION,
        op: op.id.to_string(),
        stamp: op.id.stamp,
        at: timestamp(op.at),
        claim: op.claim.map(|mode| match mode {
            ClaimMode::Confirmed => ModeRecord::Confirmed,
            ClaimMode::Provisional => ModeRecord::Provisional,
        }),
        action: action_record(&op.action),
    };
    #[allow(
        clippy::expect_used,
        reason = "plain structs with string keys: serde_json cannot fail on them"
    )]
    let mut json = serde_json::to_vec(&record).expect("an operation always serializes");
    json.push(b'\n');
    json
}

/// Reads operation `name` of the log (its name gives its replica and
/// counter, which its content must repeat). The error names the problem.
pub(crate) fn op_from_json(name: (Replica, u64), json: &[u8]) -> Result<Op, String> {
    if json.len() > MAX_OP_BYTES {
        return Err(format!(
            "it holds {} bytes, more than an operation's {MAX_OP_BYTES}",
            json.len()
        ));
    }
    if let Some(at) = memchr::memchr(0, json) {
        return Err(format!(
            "not an operation: binary, not text (a NUL byte at byte {at})"
        ));
    }
    if let Err(error) = std::str::from_utf8(json) {
        return Err(format!(
            "not an operation: binary, not text (not UTF-8 at byte {})",
            error.valid_up_to()
        ));
    }
    let record: OpRecord = serde_json::from_slice(json).map_err(|e| not_an_operation(&e))?;
    if record.format != OP_FORMAT {
        return Err(format!(
            "its format is \"{}\", not \"{OP_FORMAT}\"",
            crate::runtime::text::clip(&record.format)
        ));
    }
    if record.version != VERSION {
        return Err(format!(
            "it has format version {}, which this build does not read (it reads {VERSION}); upgrade",
            record.version
        ));
    }
    let id = OpId {
        stamp: record.stamp,
        replica: name.0,
        counter: name.1,
    };
    if record.op != id.to_string() {
        return Err(format!(
            "it says it is operation {}, but its name says {id}",
            crate::runtime::text::clip(&record.op)
        ));
    }
    let at = time(&record.at, "at")?;
    let action = action_from(record.action)?;
    let claim = match (record.claim, action.claims()) {
        (Some(ModeRecord::Confirmed), true) => Some(ClaimMode::Confirmed),
        (Some(ModeRecord::Provisional) | None, true) => Some(ClaimMode::Provisional),
        (Some(_), false) => return Err("it has a claim mode but claims no task".into()),
        (None, false) => None,
    };
    if action.is_empty() {
        return Err("it changes nothing".into());
    }
    Ok(Op {
        id,
        at,
        claim,
        action,
    })
}

/// Why a blob is not an operation, as serde_json found it: cut short
/// (a truncated blob), not JSON at all, or JSON of another shape.
fn not_an_operation(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match error.classify() {
        Category::Eof => "cut short",
        Category::Syntax | Category::Io => "not JSON",
        Category::Data => "JSON of another shape",
    };
    format!("not an operation: {what} ({error})")
}

fn time(text: &str, field: &'static str) -> Result<SystemTime, String> {
    parse_time(text, field).map_err(|e| bad_time(&e))
}

/// A time of an operation that is not one, worded for the operation.
fn bad_time(error: &BadTime) -> String {
    error.describe("it", "")
}

fn action_record(action: &Action) -> ActionRecord<'_> {
    match action {
        Action::SetGoal(goal) => ActionRecord::SetGoal(goal.into()),
        Action::ChangeGoal { goal, reason } => {
            ActionRecord::ChangeGoal(GoalChangeRecord::new(goal, reason))
        }
        Action::AddTasks(tasks) => ActionRecord::AddTasks {
            tasks: new_task_records(tasks),
            edits: Vec::new(),
        },
        Action::Plan { tasks, edits } => ActionRecord::AddTasks {
            tasks: new_task_records(tasks),
            edits: edits.iter().map(EditRecord::from).collect(),
        },
        Action::SetStatuses(updates) => ActionRecord::SetStatuses {
            tasks: updates
                .iter()
                .map(|&(task_id, status)| StatusRecord { task_id, status })
                .collect(),
        },
        Action::Modify {
            id,
            title,
            description,
        } => ActionRecord::Modify {
            task_id: *id,
            title: title.clone(),
            description: description.clone(),
        },
        Action::Delete(ids) => ActionRecord::Delete {
            task_ids: ids.clone(),
        },
        Action::Edit(edits) => ActionRecord::Edit {
            edits: edits.iter().map(EditRecord::from).collect(),
        },
    }
}

fn action_from(record: ActionRecord) -> Result<Action, String> {
    Ok(match record {
        ActionRecord::SetGoal(record) => Action::SetGoal(record.into()),
        ActionRecord::ChangeGoal(record) => {
            let (goal, reason) = record.into_parts();
            Action::ChangeGoal { goal, reason }
        }
        ActionRecord::AddTasks { tasks, edits } => {
            let tasks = tasks
                .into_iter()
                .map(|t| NewTask::new(t.title, t.description))
                .collect();
            if edits.is_empty() {
                return Ok(Action::AddTasks(tasks));
            }
            let edits = edits
                .into_iter()
                .map(|edit| edit.into_edit().map_err(|e| bad_time(&e)))
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(other) = edits
                .iter()
                .find(|edit| !matches!(edit, Edit::Link { .. } | Edit::Touches(..)))
            {
                return Err(format!(
                    "its add_tasks carries an edit other than a link or touches ({})",
                    edit_name(other)
                ));
            }
            Action::Plan { tasks, edits }
        }
        ActionRecord::SetStatuses { tasks } => {
            Action::SetStatuses(tasks.into_iter().map(|t| (t.task_id, t.status)).collect())
        }
        ActionRecord::Modify {
            task_id,
            title,
            description,
        } => {
            if title.is_none() && description.is_none() {
                return Err("its modify changes neither title nor description".into());
            }
            Action::Modify {
                id: task_id,
                title,
                description,
            }
        }
        ActionRecord::Delete { task_ids } => Action::Delete(task_ids),
        ActionRecord::Edit { edits } => Action::Edit(
            edits
                .into_iter()
                .map(|edit| edit.into_edit().map_err(|e| bad_time(&e)))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn new_task_records(tasks: &[NewTask]) -> Vec<NewTaskRecord> {
    tasks
        .iter()
        .map(|t| NewTaskRecord {
            title: t.title.clone(),
            description: t.description.clone(),
        })
        .collect()
}

/// An edit's name in the log (its `edit` field).
fn edit_name(edit: &Edit) -> &'static str {
    match edit {
        Edit::Status(..) => "status",
        Edit::Claim(..) => "claim",
        Edit::Evidence(..) => "evidence",
        Edit::CompletedBy(..) => "completed_by",
        Edit::Link { .. } => "link",
        Edit::Unlink { .. } => "unlink",
        Edit::DoneWhen(_) => "done_when",
        Edit::Dispatch(..) => "dispatch",
        Edit::Touches(..) => "touches",
        Edit::Note(..) => "note",
        Edit::Record(_) => "record",
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointRecord<'a> {
    format: String,
    version: u64,
    checkpoint: String,
    stamp: u64,
    chain: Vec<String>,
    /// Replica -> the highest counter covered.
    covers: std::collections::BTreeMap<String, u64>,
    /// The tree that held the operations it covers (git's history keeps
    /// it reachable): where a merge of checkpoints that went apart finds
    /// them again.
    compacted: String,
    max_stamp: u64,
    set_aside_count: u64,
    /// Old ID -> new ID, sorted.
    aliases: Vec<(TaskId, TaskId)>,
    claims: Vec<ClaimOriginRecord>,
    set_aside: Vec<SetAsideRecord>,
    /// The board, as a snapshot holds it.
    board: SnapshotRecord<'a>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimOriginRecord {
    task_id: TaskId,
    mode: ModeRecord,
    op: String,
    stamp: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetAsideRecord {
    op: String,
    stamp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent: Option<String>,
    reason: String,
}

/// `replica#counter` as an operation's name.
fn parse_op_id(text: &str, stamp: u64) -> Result<OpId, String> {
    let bad = || {
        format!(
            "'{}' is not an operation's name",
            crate::runtime::text::clip(text)
        )
    };
    let (replica, counter) = text.split_once('#').ok_or_else(bad)?;
    Ok(OpId {
        stamp,
        replica: Replica::parse(replica).ok_or_else(bad)?,
        counter: counter.parse().map_err(|_| bad())?,
    })
}

/// `stamp-replica` as a checkpoint's name.
fn parse_checkpoint_id(text: &str) -> Result<CheckpointId, String> {
    let bad = || {
        format!(
            "'{}' is not a checkpoint's name",
            crate::runtime::text::clip(text)
        )
    };
    let (stamp, replica) = text.split_once('-').ok_or_else(bad)?;
    Ok(CheckpointId {
        stamp: u64::from_str_radix(stamp, 16).map_err(|_| bad())?,
        replica: Replica::parse(replica).ok_or_else(bad)?,
    })
}

/// The checkpoint of a log, with the tree it compacted (a git object ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredCheckpoint {
    /// The checkpoint.
    pub(crate) checkpoint: Checkpoint,
    /// The tree that held what it covers.
    pub(crate) compacted: String,
}

/// Writes a checkpoint (pretty JSON: the board is readable in it).
pub(crate) fn checkpoint_to_json(stored: &StoredCheckpoint) -> Vec<u8> {
    let checkpoint = &stored.checkpoint;
    let state = &checkpoint.state;
    let mut aliases: Vec<(TaskId, TaskId)> = state.aliases.iter().map(|(a, b)| (*a, *b)).collect();
    aliases.sort_unstable();
    let mut claims: Vec<ClaimOriginRecord> = state
        .claims
        .iter()
        .map(|(task, origin)| ClaimOriginRecord {
            task_id: *task,
            mode: match origin.mode {
                ClaimMode::Confirmed => ModeRecord::Confirmed,
                ClaimMode::Provisional => ModeRecord::Provisional,
            },
            op: origin.op.to_string(),
            stamp: origin.op.stamp,
        })
        .collect();
    claims.sort_unstable_by_key(|c| c.task_id);
    let saved_at = UNIX_EPOCH + Duration::from_micros(checkpoint.id.stamp);
    let board = SnapshotRecord::of(&state.board, saved_at, true);
    let record = CheckpointRecord {
        format: CHECKPOINT_FORMAT.into(),
        version: VERSION,
        checkpoint: checkpoint.id.to_string(),
        stamp: checkpoint.id.stamp,
        chain: checkpoint.chain.iter().map(ToString::to_string).collect(),
        covers: checkpoint
            .covers
            .iter()
            .map(|(replica, n)| (replica.to_string(), *n))
            .collect(),
        compacted: stored.compacted.clone(),
        max_stamp: state.max_stamp,
        set_aside_count: state.set_aside_count,
        aliases,
        claims,
        set_aside: state
            .set_aside
            .iter()
            .map(|s| SetAsideRecord {
                op: s.op.to_string(),
                stamp: s.op.stamp,
                agent: s.agent.clone(),
                reason: s.reason.to_string(),
            })
            .collect(),
        board,
    };
    #[allow(
        clippy::expect_used,
        reason = "plain structs with string keys: serde_json cannot fail on them"
    )]
    let mut json = serde_json::to_vec_pretty(&record).expect("a checkpoint always serializes");
    json.push(b'\n');
    json
}

/// Reads a checkpoint; its board gets these limits and history setting.
pub(crate) fn checkpoint_from_json(
    json: &[u8],
    limits: Limits,
    history_enabled: bool,
) -> Result<StoredCheckpoint, String> {
    let record: CheckpointRecord =
        serde_json::from_slice(json).map_err(|e| format!("not a checkpoint ({e})"))?;
    if record.format != CHECKPOINT_FORMAT || record.version != VERSION {
        return Err(format!(
            "it is not a checkpoint this build reads (format \"{}\", version {})",
            crate::runtime::text::clip(&record.format),
            record.version
        ));
    }
    let id = parse_checkpoint_id(&record.checkpoint)?;
    if id.stamp != record.stamp {
        return Err("its stamp and its name disagree".into());
    }
    let chain = record
        .chain
        .iter()
        .map(|name| parse_checkpoint_id(name))
        .collect::<Result<Vec<_>, _>>()?;
    let covers = record
        .covers
        .iter()
        .map(|(replica, n)| {
            Replica::parse(replica).map(|r| (r, *n)).ok_or_else(|| {
                format!("'{}' is not a replica", crate::runtime::text::clip(replica))
            })
        })
        .collect::<Result<_, _>>()?;
    let board = record
        .board
        .into_board(limits, history_enabled)
        .map_err(|e| format!("its board: {e}"))?;
    let mut state = State::new(board);
    state.aliases = record.aliases.into_iter().collect();
    for claim in record.claims {
        let mode = match claim.mode {
            ModeRecord::Confirmed => ClaimMode::Confirmed,
            ModeRecord::Provisional => ClaimMode::Provisional,
        };
        let op = parse_op_id(&claim.op, claim.stamp)?;
        state.claims.insert(claim.task_id, ClaimOrigin { mode, op });
    }
    for aside in record.set_aside {
        state.set_aside.push(SetAside {
            op: parse_op_id(&aside.op, aside.stamp)?,
            agent: aside.agent,
            reason: Reason::Noted(aside.reason),
            intent: None,
        });
    }
    state.set_aside_count = record.set_aside_count;
    state.max_stamp = record.max_stamp;
    Ok(StoredCheckpoint {
        checkpoint: Checkpoint {
            id,
            chain,
            covers,
            state,
        },
        compacted: record.compacted,
    })
}

#[cfg(test)]
mod tests;
