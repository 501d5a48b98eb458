// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The snapshot format: versioned, human-readable JSON with a stable key order.
//!
//! ```json
//! {
//!   "format": "planning-mcp-server board",
//!   "version": 1,
//!   "saved_at": "2026-11-22T10:00:00.000000Z",
//!   "goal": { "title": "…", "description": "…" },
//!   "tasks": [ { "id": "a46f8d35", "title": "…", "description": "", "status": "pending",
//!                "created_at": "…" } ],
//!   "history": [ { "at": "…", "event": "status_changed", "task_id": "…", … } ]
//! }
//! ```
//!
//! The goal, the history's entries and toolset `team`'s claims, dispatches
//! and evidence are the records of [`super::records`], which the git log
//! and PostgreSQL's history rows write too; a checkpoint of the git log
//! embeds a [`SnapshotRecord`] as it is.
//!
//! Tasks are listed in creation order. `history` is present when history is
//! enabled. Reading checks everything and names the first problem; nothing is
//! repaired silently.
//!
//! Version 2 adds the coordination fields of toolset `team`
//! ([`snapshot_fields`], in the coordination room): `done_when`, and on
//! tasks `blocked_by`, `claim` and `evidence`, with the history events
//! `claimed`, `claim_ended` and `links_removed`. A board that holds none of them is written as
//! version 1, exactly as before, so that older builds still read it.
//!
//! Version 3 adds `completed_by` on a task that an agent released as
//! completed without evidence (so that it may add the evidence later). Only
//! a board that holds one is written as version 3; the field goes when the
//! evidence comes, and the board is written as version 2 again.
//!
//! Version 4 adds `dispatch` (a lead's record of the worker it sent the
//! task to) and `touches` (the glob patterns the task touches) on a task,
//! with the history events `dispatched` and `dispatch_ended`. Only a board
//! that holds one of them is written as version 4; every older version is
//! read, and written back as it was, as long as none is added.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::records::{EntryRecord, GoalRecord, parse_time, timestamp};
use crate::toolsets::planning::coordination::data::Change;
use crate::toolsets::planning::coordination::records::{
    ClaimRecord, DispatchRecord, EvidenceRecord, NumberedNoteRecord,
};
use crate::toolsets::planning::coordination::snapshot_fields::{self, TaskCoordination};
use crate::toolsets::planning::domain::{
    Board, Entry, Goal, History, Limits, Status, Task, TaskId,
};

/// The value of `format` in every snapshot.
pub(crate) const FORMAT: &str = "planning-mcp-server board";

/// The newest format version this build writes and reads.
pub(crate) const VERSION: u64 = 5;

/// The format versions this build reads: 1 (the board alone), 2 (with the
/// coordination fields), 3 (with `completed_by`), 4 (with `dispatch`
/// and `touches`) and 5 (with reviews: the `awaiting_review` status, a
/// review on evidence, `reviewed` events).
pub(crate) const SUPPORTED_VERSIONS: [u64; 5] = [1, 2, 3, 4, 5];

/// The two fields read first, to tell a foreign or future file from a corrupt one.
#[derive(Deserialize)]
struct Header<'a> {
    format: Option<Cow<'a, str>>,
    version: Option<u64>,
}

/// A snapshot: a board as its record, which a checkpoint of the git log
/// embeds as it is.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SnapshotRecord<'a> {
    format: Cow<'a, str>,
    version: u64,
    saved_at: String,
    goal: Option<GoalRecord<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    done_when: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NumberedNoteRecord<'a>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    renamed: BTreeMap<TaskId, TaskId>,
    tasks: Vec<TaskRecord<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    history: Option<Vec<EntryRecord<'a>>>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskRecord<'a> {
    id: TaskId,
    title: Cow<'a, str>,
    description: Cow<'a, str>,
    status: Status,
    created_at: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    blocked_by: Vec<TaskId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    claim: Option<ClaimRecord<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    evidence: Option<EvidenceRecord<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    completed_by: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dispatch: Option<DispatchRecord<'a>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    touches: Vec<Cow<'a, str>>,
}

/// Writes the board as a snapshot (pretty JSON, ending in a newline).
pub fn to_json(board: &Board) -> Vec<u8> {
    write(board, true)
}

/// [`to_json`] without the history, for a store that keeps the history
/// entry by entry ([`entry_to_json`]).
#[cfg_attr(
    not(feature = "postgres"),
    allow(dead_code, reason = "the postgres backend's")
)]
pub(crate) fn to_json_without_history(board: &Board) -> Vec<u8> {
    write(board, false)
}

/// One history entry as compact JSON, as it stands in a snapshot's `history`.
#[cfg_attr(
    not(feature = "postgres"),
    allow(dead_code, reason = "the postgres backend's")
)]
pub(crate) fn entry_to_json(entry: &Entry) -> String {
    #[allow(
        clippy::expect_used,
        reason = "plain structs with string keys: serde_json cannot fail on them"
    )]
    serde_json::to_string(&EntryRecord::from(entry)).expect("an entry always serializes")
}

/// Reads one history entry written by [`entry_to_json`]; `n` names it in errors.
#[cfg_attr(
    not(feature = "postgres"),
    allow(dead_code, reason = "the postgres backend's")
)]
pub(crate) fn entry_from_json(json: &str, n: usize) -> Result<Entry, String> {
    let record: EntryRecord = serde_json::from_str(json).map_err(|e| corrupt(&e))?;
    history_entry(record, n)
}

/// A snapshot written by [`to_json_without_history`] with `entries` as its
/// history: the bytes [`to_json`] gave for the whole board.
#[cfg_attr(
    not(feature = "postgres"),
    allow(dead_code, reason = "the postgres backend's")
)]
pub(crate) fn with_history(snapshot: &str, entries: &[Entry]) -> Result<String, String> {
    let mut record: SnapshotRecord = serde_json::from_str(snapshot).map_err(|e| corrupt(&e))?;
    record.history = Some(entries.iter().map(EntryRecord::from).collect());
    Ok(pretty(&record))
}

fn write(board: &Board, with_history: bool) -> Vec<u8> {
    pretty(&SnapshotRecord::of(
        board,
        board.clock().now(),
        with_history,
    ))
    .into_bytes()
}

impl<'a> SnapshotRecord<'a> {
    /// The record of `board` saved at `saved_at`, with its history when
    /// `with_history` (and the board keeps one).
    pub(crate) fn of(board: &'a Board, saved_at: SystemTime, with_history: bool) -> Self {
        Self {
            format: Cow::Borrowed(FORMAT),
            version: snapshot_fields::version_needed(board),
            saved_at: timestamp(saved_at),
            goal: board.goal().map(GoalRecord::from),
            done_when: board.coordination().done_when().map(Cow::Borrowed),
            notes: snapshot_fields::notes_of(board),
            renamed: board.coordination().renamings().collect(),
            tasks: board
                .tasks()
                .map(|task| TaskRecord::of(task, snapshot_fields::of_task(board, task.id)))
                .collect(),
            history: board
                .history()
                .filter(|_| with_history)
                .map(|history| history.entries().map(EntryRecord::from).collect()),
        }
    }
}

/// The snapshot as pretty JSON, ending in a newline.
fn pretty(record: &SnapshotRecord) -> String {
    #[allow(
        clippy::expect_used,
        reason = "plain structs with string keys: serde_json cannot fail on them"
    )]
    let mut json = serde_json::to_string_pretty(record).expect("a snapshot always serializes");
    json.push('\n');
    json
}

/// Reads a snapshot into a board with these limits; the history is kept only
/// when `history_enabled`. The error names the first problem found.
pub(crate) fn from_json(
    json: &[u8],
    limits: Limits,
    history_enabled: bool,
) -> Result<Board, String> {
    if json.iter().all(u8::is_ascii_whitespace) {
        return Err("the file is empty (truncated?)".into());
    }
    let header: Header = serde_json::from_slice(json).map_err(|e| corrupt(&e))?;
    check_header(header.format.as_deref(), header.version)?;
    let record: SnapshotRecord = serde_json::from_slice(json).map_err(|e| corrupt(&e))?;
    record.into_board(limits, history_enabled)
}

/// Whether a snapshot's `format` and `version` are ones this build reads;
/// if not, why.
fn check_header(format: Option<&str>, version: Option<u64>) -> Result<(), String> {
    match (format, version) {
        (Some(FORMAT), Some(version))
            if SUPPORTED_VERSIONS.iter().all(|&known| version > known) =>
        {
            return Err(format!(
                "it has format version {version}, written by a newer planning-mcp-server; this one reads versions {} (upgrade, or point storage.dir elsewhere)",
                supported()
            ));
        }
        (Some(FORMAT), Some(version)) if !SUPPORTED_VERSIONS.contains(&version) => {
            return Err(format!(
                "it has format version {version}, which no planning-mcp-server writes; this one reads versions {}",
                supported()
            ));
        }
        (Some(FORMAT), Some(_)) => {}
        (Some(FORMAT), None) => return Err("it has no \"version\" field".into()),
        (Some(other), _) => {
            return Err(format!(
                "it is not a planning-mcp-server board (its format is \"{}\")",
                crate::runtime::text::clip(other)
            ));
        }
        (None, _) => {
            return Err("it is not a planning-mcp-server board (no \"format\" field)".into());
        }
    }
    Ok(())
}

/// The supported versions, for messages: `1, 2 and 3`.
fn supported() -> String {
    let versions: Vec<String> = SUPPORTED_VERSIONS.iter().map(u64::to_string).collect();
    match versions.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn corrupt(error: &serde_json::Error) -> String {
    match error.classify() {
        serde_json::error::Category::Eof => format!("it is truncated ({error})"),
        serde_json::error::Category::Data => format!("it has an invalid value ({error})"),
        _ => format!("it is not valid JSON ({error})"),
    }
}

impl SnapshotRecord<'_> {
    /// The board with these limits; the history is kept only when
    /// `history_enabled`. The error names the first problem found.
    pub(crate) fn into_board(self, limits: Limits, history_enabled: bool) -> Result<Board, String> {
        check_header(Some(&self.format), Some(self.version))?;
        let mut tasks = Vec::with_capacity(self.tasks.len());
        let mut coordination = Vec::with_capacity(self.tasks.len());
        let mut seen = std::collections::HashSet::with_capacity(self.tasks.len());
        for (n, record) in self.tasks.into_iter().enumerate() {
            let derived = TaskId::from_content(&record.title, &record.description);
            if record.id != derived {
                return Err(format!(
                    "task {} has the ID {}, but its title and description give {derived}",
                    n + 1,
                    record.id
                ));
            }
            if !seen.insert(record.id) {
                return Err(format!("task {} repeats the ID {}", n + 1, record.id));
            }
            let fields = TaskCoordination {
                blocked_by: record.blocked_by,
                claim: record.claim,
                evidence: record.evidence,
                completed_by: record.completed_by,
                dispatch: record.dispatch,
                touches: record.touches,
            };
            if self.version < 5 && record.status == Status::AwaitingReview {
                return Err(format!(
                    "task {} is awaiting_review, which needs format version 5, but the file says version {}",
                    n + 1,
                    self.version
                ));
            }
            if self.version < 4 && fields.needs_version_4() {
                return Err(format!(
                    "task {} holds dispatch or touches, which need format version 4, but the file says version {}",
                    n + 1,
                    self.version
                ));
            }
            if self.version < 3 && fields.completed_by.is_some() {
                return Err(format!(
                    "task {} holds completed_by, which needs format version 3, but the file says version {}",
                    n + 1,
                    self.version
                ));
            }
            if self.version < 2 && !fields.is_empty() {
                return Err(version_1_with(&format!("task {}", n + 1)));
            }
            coordination.push((record.id, record.status, fields));
            tasks.push(Task {
                id: record.id,
                title: record.title.into_owned(),
                description: record.description.into_owned(),
                status: record.status,
                created_at: parse_time(&record.created_at, "created_at")
                    .map_err(|e| e.describe(&format!("entry {}", n + 1), ""))?,
            });
        }
        if self.version < 2 && self.done_when.is_some() {
            return Err(version_1_with("done_when"));
        }
        if self.version < 5 && !(self.notes.is_empty() && self.renamed.is_empty()) {
            return Err(format!(
                "the board holds notes or renamed tasks, which need format version 5, but the file says version {}",
                self.version
            ));
        }
        let mut coordination = snapshot_fields::read(coordination, self.done_when)?;
        snapshot_fields::read_notes(&mut coordination, self.notes)?;
        for (old, new) in self.renamed {
            let _ = coordination.apply(Change::Renamed(old, Some(new)));
        }
        let history = if history_enabled {
            let entries = self.history.unwrap_or_default().into_iter().enumerate();
            let entries = entries
                .map(|(n, entry)| history_entry(entry, n + 1))
                .collect::<Result<Vec<_>, _>>()?;
            if self.version < 2 && entries.iter().any(|e| e.event.is_coordination()) {
                return Err(version_1_with("the history"));
            }
            if self.version < 4 && entries.iter().any(|e| e.event.is_dispatch()) {
                return Err(format!(
                    "the history holds dispatch events, which need format version 4, but the file says version {}",
                    self.version
                ));
            }
            Some(History::from_entries(entries))
        } else {
            None
        };
        let board = Board::restore(limits, self.goal.map(Goal::from), tasks, history);
        Ok(board.with_coordination(coordination))
    }
}

/// The problem of a version 1 snapshot whose `part` holds version 2 fields.
fn version_1_with(part: &str) -> String {
    format!(
        "{part} holds claims, links, evidence or done_when, which need format version 2, but the file says version 1"
    )
}

impl<'a> TaskRecord<'a> {
    fn of(task: &'a Task, coordination: TaskCoordination<'a>) -> Self {
        Self {
            id: task.id,
            title: Cow::Borrowed(&task.title),
            description: Cow::Borrowed(&task.description),
            status: task.status,
            created_at: timestamp(task.created_at),
            blocked_by: coordination.blocked_by,
            claim: coordination.claim,
            evidence: coordination.evidence,
            completed_by: coordination.completed_by,
            dispatch: coordination.dispatch,
            touches: coordination.touches,
        }
    }
}

/// History entry `n` of a snapshot.
fn history_entry(record: EntryRecord<'_>, n: usize) -> Result<Entry, String> {
    record
        .into_entry()
        .map_err(|e| e.describe(&format!("history entry {n}"), ""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Event, NewTask};

    fn sample(history_enabled: bool) -> Board {
        let mut board = Board::new(Limits::default(), history_enabled);
        let _ = board
            .set_goal("Ship", "with \"quotes\"\nand lines")
            .unwrap();
        let tasks = [("Write tests", ""), ("Écrire ✓", "unicode")].map(|(t, d)| NewTask {
            title: t.into(),
            description: d.into(),
        });
        let _ = board.add_tasks(&tasks).unwrap();
        let _ = board.update_statuses(&[("a46f8d35", "completed")]).unwrap();
        let _ = board.change_goal("Ship 1.0", "", "scope").unwrap();
        board
    }

    /// Times survive with microsecond precision; compare boards at that precision.
    fn round_trip(board: &Board, history: bool) -> Board {
        let text = to_json(board);
        from_json(&text, Limits::default(), history).unwrap()
    }

    #[test]
    fn a_snapshot_without_history_and_its_entries_make_the_whole_snapshot_again() {
        let board = sample(true).with_clock(crate::runtime::clock::Clock::fixed(
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000),
        ));
        let without = String::from_utf8(to_json_without_history(&board)).unwrap();
        assert!(!without.contains("\"history\""), "{without}");
        let entries: Vec<Entry> = board
            .history()
            .unwrap()
            .entries()
            .map(|entry| entry_from_json(&entry_to_json(entry), 1).unwrap())
            .collect();
        assert_eq!(entries.len(), 3);
        let whole = with_history(&without, &entries).unwrap();
        assert_eq!(whole.as_bytes(), to_json(&board));
        assert!(entry_from_json("{\"at\": 1}", 7).is_err());
    }

    #[test]
    fn a_board_round_trips() {
        let board = sample(true);
        let back = round_trip(&board, true);
        assert_eq!(back.goal(), board.goal());
        let strip = |b: &Board| -> Vec<(TaskId, String, String, Status)> {
            b.tasks()
                .map(|t| (t.id, t.title.clone(), t.description.clone(), t.status))
                .collect()
        };
        assert_eq!(strip(&back), strip(&board));
        for (a, b) in back.tasks().zip(board.tasks()) {
            let delta = a
                .created_at
                .duration_since(b.created_at)
                .unwrap_or_default()
                + b.created_at
                    .duration_since(a.created_at)
                    .unwrap_or_default();
            assert!(delta.as_micros() < 1, "{delta:?}");
        }
        let events = |b: &Board| -> Vec<Event> {
            b.history()
                .unwrap()
                .entries()
                .map(|e| e.event.clone())
                .collect()
        };
        assert_eq!(events(&back), events(&board));
        // And writing it again gives the same text but for the save time.
        let again = String::from_utf8(to_json(&back)).unwrap();
        let first = String::from_utf8(to_json(&board)).unwrap();
        let without_time = |s: &str| {
            s.lines()
                .filter(|l| !l.contains("saved_at"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(without_time(&again), without_time(&first));
    }

    #[test]
    fn the_text_is_stable_and_readable() {
        let text = String::from_utf8(to_json(&sample(true))).unwrap();
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| {
                l.trim()
                    .strip_prefix('"')?
                    .split_once("\":")
                    .map(|(k, _)| k)
            })
            .collect();
        assert_eq!(
            &keys[..8],
            [
                "format",
                "version",
                "saved_at",
                "goal",
                "title",
                "description",
                "tasks",
                "id"
            ]
        );
        assert!(text.contains("\"status\": \"completed\""), "{text}");
        assert!(text.contains("\"event\": \"goal_changed\""), "{text}");
        assert!(text.contains("Écrire ✓"), "not escaped: {text}");
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn history_is_left_out_when_disabled() {
        let text = String::from_utf8(to_json(&sample(false))).unwrap();
        assert!(!text.contains("history"));
        let with_history = to_json(&sample(true));
        let board = from_json(&with_history, Limits::default(), false).unwrap();
        assert!(board.history().is_none());
    }

    fn problem(json: &str) -> String {
        from_json(json.as_bytes(), Limits::default(), true).unwrap_err()
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = String::from_utf8(to_json(&sample(true))).unwrap();
        assert_eq!(problem(""), "the file is empty (truncated?)");
        assert!(problem(&good[..good.len() / 2]).starts_with("it is truncated"));
        assert!(problem("{\"format\": 12}").starts_with("it has an invalid value"));
        assert!(problem("not json").starts_with("it is not valid JSON"));
        assert_eq!(
            problem("{\"name\": \"something else\"}"),
            "it is not a planning-mcp-server board (no \"format\" field)"
        );
        assert_eq!(
            problem("{\"format\": \"vscode settings\", \"version\": 1}"),
            "it is not a planning-mcp-server board (its format is \"vscode settings\")"
        );
        assert!(problem("[1, 2]").starts_with("it has an invalid value"));
        let future = good.replace("\"version\": 1", "\"version\": 6");
        assert_eq!(
            problem(&future),
            "it has format version 6, written by a newer planning-mcp-server; this one reads \
             versions 1, 2, 3, 4 and 5 (upgrade, or point storage.dir elsewhere)"
        );
        let zero = good.replace("\"version\": 1", "\"version\": 0");
        assert_eq!(
            problem(&zero),
            "it has format version 0, which no planning-mcp-server writes; this one reads \
             versions 1, 2, 3, 4 and 5"
        );
        let forged = good.replace("\"id\": \"a46f8d35\"", "\"id\": \"00000000\"");
        assert_eq!(
            problem(&forged),
            "task 1 has the ID 00000000, but its title and description give a46f8d35"
        );
        let bad_status = good.replace("\"status\": \"completed\"", "\"status\": \"done\"");
        assert!(problem(&bad_status).starts_with("it has an invalid value"));
        let bad_time = good.replacen("\"created_at\": \"", "\"created_at\": \"x", 1);
        assert!(problem(&bad_time).starts_with("entry 1 has an invalid created_at"));
        let extra = good.replacen("\"tasks\":", "\"surprise\": 1,\n  \"tasks\":", 1);
        assert!(
            problem(&extra).contains("unknown field `surprise`"),
            "{}",
            problem(&extra)
        );
    }

    #[test]
    fn repeated_ids_are_refused() {
        let mut board = Board::new(Limits::default(), false);
        let _ = board.add_tasks(&[NewTask::new("a", "")]).unwrap();
        let text = String::from_utf8(to_json(&board)).unwrap();
        let start = text.find("    {").unwrap();
        let end = text.find("    }").unwrap() + 5;
        let task = &text[start..end];
        let doubled = text.replace(task, &format!("{task},\n{task}"));
        assert_eq!(
            problem(&doubled),
            "task 2 repeats the ID 3dc5a9f8"
                .replace("3dc5a9f8", &TaskId::from_content("a", "").to_string())
        );
    }

    /// The snapshot `main` wrote before version 2 existed.
    const VERSION_1: &str = include_str!("../../../../tests/fixtures/board-v1.json");

    fn without_saved_at(text: &str) -> String {
        let lines = text.lines().filter(|l| !l.contains("\"saved_at\""));
        lines.collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn a_version_1_file_loads_and_is_written_back_unchanged() {
        let board = from_json(VERSION_1.as_bytes(), Limits::default(), true).unwrap();
        assert_eq!(board.goal().unwrap().title, "Ship the planning server 1.0");
        let statuses: Vec<Status> = board.tasks().map(|t| t.status).collect();
        assert_eq!(
            statuses,
            [
                Status::Completed,
                Status::InProgress,
                Status::Failed,
                Status::Cancelled,
                Status::Pending
            ]
        );
        assert_eq!(board.history().unwrap().entries().len(), 6);
        assert!(board.coordination().is_empty());
        let again = String::from_utf8(to_json(&board)).unwrap();
        assert_eq!(without_saved_at(&again), without_saved_at(VERSION_1));
    }

    /// Snapshots of formats 2 and 3 that `main` wrote before version 4.
    const VERSION_2: &str = include_str!("../../../../tests/fixtures/board-v2.json");
    const VERSION_3: &str = include_str!("../../../../tests/fixtures/board-v3.json");

    #[test]
    fn version_2_and_3_files_load_and_are_written_back_unchanged() {
        for (text, version) in [(VERSION_2, 2), (VERSION_3, 3)] {
            let board = from_json(text.as_bytes(), Limits::default(), true).unwrap();
            assert!(!board.coordination().is_empty());
            assert!(!board.coordination().has_dispatches_or_touches());
            let again = String::from_utf8(to_json(&board)).unwrap();
            assert!(again.contains(&format!("\"version\": {version}")));
            assert_eq!(
                without_saved_at(&again),
                without_saved_at(text),
                "{version}"
            );
        }
    }

    #[test]
    fn dispatches_and_touches_round_trip_as_version_4_and_go_back_to_3() {
        use crate::toolsets::planning::coordination::{Dispatch, Edit};
        use crate::toolsets::planning::domain::DispatchEnd;
        let mut board = from_json(VERSION_3.as_bytes(), Limits::default(), true).unwrap();
        let [a, b] = ["a46f8d35", "21cf99bb"].map(|id| TaskId::parse(id).unwrap());
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        let _ = board
            .update_statuses(&[(&a.to_string(), "pending")])
            .unwrap();
        let dispatch = Dispatch {
            worker: "worker-3".into(),
            by: "lead".into(),
            place: Some("../wt-parser".into()),
            note: Some("the parser only".into()),
            at,
            until: at + std::time::Duration::from_secs(900),
            claimed: true,
        };
        let edits = vec![
            Edit::Dispatch(a, Some(dispatch)),
            Edit::Touches(a, vec!["src/parser/**".into(), "tests/parser.rs".into()]),
            Edit::Touches(b, vec!["docs/*.md".into()]),
            Edit::Record(Event::Dispatched {
                task_id: a,
                title: "Write tests".into(),
                worker: "worker-3".into(),
                by: "lead".into(),
                until: at,
            }),
            Edit::Record(Event::DispatchEnded {
                task_id: a,
                title: "Write tests".into(),
                worker: "worker-3".into(),
                reason: DispatchEnd::Replaced,
            }),
        ];
        let _ = board.edit(at, edits).unwrap();
        let text = String::from_utf8(to_json(&board)).unwrap();
        assert!(text.contains("\"version\": 4"), "{text}");
        for field in [
            "\"dispatch\": {",
            "\"place\": \"../wt-parser\"",
            "\"claimed\": true",
            "\"touches\": [",
            "\"event\": \"dispatched\"",
            "\"reason\": \"replaced\"",
        ] {
            assert!(text.contains(field), "{field}: {text}");
        }
        let back = from_json(text.as_bytes(), Limits::default(), true).unwrap();
        assert_eq!(back.coordination(), board.coordination());
        let again = String::from_utf8(to_json(&back)).unwrap();
        assert_eq!(without_saved_at(&again), without_saved_at(&text));

        let as_version_3 = text.replace("\"version\": 4", "\"version\": 3");
        assert_eq!(
            problem(&as_version_3),
            "task 1 holds dispatch or touches, which need format version 4, but the file says version 3"
        );
        let (before_a, from_a) = text.split_at(text.find("\"id\": \"a46f8d35\"").unwrap());
        let done = format!(
            "{before_a}{}",
            from_a.replacen("\"status\": \"pending\"", "\"status\": \"failed\"", 1)
        );
        assert_eq!(
            problem(&done),
            "task 1 is dispatched but failed; only pending or in-progress tasks are"
        );
        let blank = text.replacen("\"docs/*.md\"", "\" \"", 1);
        assert_eq!(
            problem(&blank),
            "task 2 touches ' ', which is not a one-line pattern of at most 1000 characters"
        );
        // Without them (and with the history off), the board is version 3 again.
        let edits = vec![
            Edit::Dispatch(a, None),
            Edit::Touches(a, Vec::new()),
            Edit::Touches(b, Vec::new()),
        ];
        let _ = board.edit(at, edits).unwrap();
        let text = String::from_utf8(to_json(&board)).unwrap();
        assert!(
            text.contains("\"version\": 4"),
            "the history still holds dispatch events"
        );
        let without_history = from_json(text.as_bytes(), Limits::default(), false).unwrap();
        let text = String::from_utf8(to_json(&without_history)).unwrap();
        assert!(text.contains("\"version\": 3"), "{text}");
    }

    /// The sample with every kind of coordination data.
    fn coordinated() -> Board {
        use crate::toolsets::planning::coordination::{Claim, Edit, Evidence};
        let mut board = sample(true);
        let [a, b] = ["a46f8d35", "21cf99bb"].map(|id| TaskId::parse(id).unwrap());
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        let claim = Claim {
            holder: "worker-1".into(),
            since: at,
            until: at + std::time::Duration::from_secs(900),
        };
        let evidence = Evidence {
            command: Some("cargo test".into()),
            exit_code: Some(0),
            commit: Some("1a2b3c4".into()),
            url: Some("https://ci.example/1".into()),
            note: Some("all green".into()),
            by: "worker-2".into(),
            at,
            review: None,
        };
        let edits = vec![
            Edit::Link {
                task: b,
                blocker: a,
            },
            Edit::Status(b, Status::InProgress),
            Edit::Claim(b, Some(claim.clone())),
            Edit::Record(Event::Claimed {
                task_id: b,
                title: "Écrire ✓".into(),
                holder: claim.holder.clone(),
                until: claim.until,
            }),
            Edit::Evidence(a, Some(evidence)),
            Edit::DoneWhen(Some("cargo test passes".into())),
        ];
        let _ = board.edit(at, edits).unwrap();
        board
    }

    #[test]
    fn coordination_round_trips_as_version_2() {
        let board = coordinated();
        let text = String::from_utf8(to_json(&board)).unwrap();
        assert!(text.contains("\"version\": 2"), "{text}");
        for field in [
            "blocked_by",
            "claim",
            "evidence",
            "done_when",
            "\"claimed\"",
        ] {
            assert!(text.contains(field), "{field}: {text}");
        }
        let back = from_json(text.as_bytes(), Limits::default(), true).unwrap();
        assert_eq!(back.coordination(), board.coordination());
        let again = String::from_utf8(to_json(&back)).unwrap();
        assert_eq!(without_saved_at(&again), without_saved_at(&text));
    }

    #[test]
    fn reviews_notes_and_rewordings_round_trip_as_version_5() {
        use crate::toolsets::planning::coordination::{Edit, Note, Review};
        let mut board = coordinated();
        let a = TaskId::parse("a46f8d35").unwrap();
        let b = TaskId::parse("21cf99bb").unwrap();
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_060);
        let mut evidence = board.coordination().evidence(a).cloned().unwrap();
        evidence.review = Some(Review {
            by: "ada".into(),
            at,
            rejected: Some("the tests skip the lexer".into()),
        });
        let note = Note {
            task: Some(b),
            by: "ada".into(),
            at,
            text: "use v2".into(),
            told: None,
        };
        let edits = vec![
            Edit::Status(a, Status::AwaitingReview),
            Edit::Evidence(a, Some(evidence.clone())),
            Edit::Record(Event::Reviewed {
                task_id: a,
                title: "Write tests".into(),
                evidence: Box::new(evidence),
            }),
            Edit::Note(1, Some(note.clone())),
            Edit::Note(
                2,
                Some(Note {
                    task: None,
                    told: Some("worker-1".into()),
                    ..note
                }),
            ),
        ];
        let _ = board.edit(at, edits).unwrap();
        // b is held: its rewording is remembered for its holder.
        let _ = board
            .modify_task("21cf99bb", Some("Écrire ✓✓"), None)
            .unwrap();
        let text = String::from_utf8(to_json(&board)).unwrap();
        assert!(text.contains("\"version\": 5"), "{text}");
        for field in [
            "\"awaiting_review\"",
            "\"verdict\": \"rejected\"",
            "\"event\": \"reviewed\"",
            "\"notes\"",
            "\"told\": \"worker-1\"",
            "\"renamed\"",
        ] {
            assert!(text.contains(field), "{field}: {text}");
        }
        let back = from_json(text.as_bytes(), Limits::default(), true).unwrap();
        assert_eq!(back.coordination(), board.coordination());
        assert!(back.coordination().renamed_to(b).is_some());
        let again = String::from_utf8(to_json(&back)).unwrap();
        assert_eq!(without_saved_at(&again), without_saved_at(&text));
        // A file that says an older version refuses what needs version 5.
        let old = text.replace("\"version\": 5", "\"version\": 4");
        assert!(
            problem(&old).contains("format version 5, but the file says version 4"),
            "{}",
            problem(&old)
        );
    }

    #[test]
    fn who_completed_a_task_without_evidence_round_trips_as_version_3() {
        use crate::toolsets::planning::coordination::Edit;
        let mut board = coordinated();
        let b = TaskId::parse("21cf99bb").unwrap();
        let edits = vec![
            Edit::Claim(b, None),
            Edit::Status(b, Status::Completed),
            Edit::CompletedBy(b, Some("worker-2".into())),
        ];
        let _ = board.edit(SystemTime::UNIX_EPOCH, edits).unwrap();
        let text = String::from_utf8(to_json(&board)).unwrap();
        assert!(text.contains("\"version\": 3"), "{text}");
        assert!(text.contains("\"completed_by\": \"worker-2\""), "{text}");
        let back = from_json(text.as_bytes(), Limits::default(), true).unwrap();
        assert_eq!(back.coordination(), board.coordination());
        let again = String::from_utf8(to_json(&back)).unwrap();
        assert_eq!(without_saved_at(&again), without_saved_at(&text));

        let as_version_2 = text.replace("\"version\": 3", "\"version\": 2");
        assert_eq!(
            problem(&as_version_2),
            "task 2 holds completed_by, which needs format version 3, but the file says version 2"
        );
        let (before_b, from_b) = text.split_at(text.find("\"id\": \"21cf99bb\"").unwrap());
        let pending = format!(
            "{before_b}{}",
            from_b.replacen("\"status\": \"completed\"", "\"status\": \"pending\"", 1)
        );
        assert_eq!(
            problem(&pending),
            "task 2 records who completed it (completed_by) but is pending"
        );
        let evidence =
            "\"evidence\": {\"note\": \"x\", \"by\": \"w\", \"at\": \"2027-01-15T08:00:00Z\"},";
        let both = text.replacen(
            "\"completed_by\"",
            &format!("{evidence} \"completed_by\""),
            1,
        );
        assert_eq!(
            problem(&both),
            "task 2 has both evidence and completed_by (who completed it without evidence)"
        );
        // Without it, the board is version 2 again.
        let _ = board
            .edit(SystemTime::UNIX_EPOCH, vec![Edit::CompletedBy(b, None)])
            .unwrap();
        assert!(
            String::from_utf8(to_json(&board))
                .unwrap()
                .contains("\"version\": 2")
        );
    }

    #[test]
    fn coordination_that_names_no_task_or_makes_a_cycle_is_refused() {
        let good = String::from_utf8(to_json(&coordinated())).unwrap();
        let as_version_1 = good.replace("\"version\": 2", "\"version\": 1");
        assert_eq!(
            problem(&as_version_1),
            "task 1 holds claims, links, evidence or done_when, which need format version 2, \
             but the file says version 1"
        );
        let dangling = good.replace(
            "\"blocked_by\": [\n        \"a46f8d35\"",
            "\"blocked_by\": [\n        \"00000000\"",
        );
        assert_eq!(
            problem(&dangling),
            "task 2 is blocked by 00000000, which is not on the board"
        );
        let own = good.replace(
            "\"blocked_by\": [\n        \"a46f8d35\"",
            "\"blocked_by\": [\n        \"21cf99bb\"",
        );
        assert_eq!(problem(&own), "task 2 is blocked by itself");
        let cycle = good.replacen(
            "\"status\": \"completed\",",
            "\"status\": \"completed\",\n      \"blocked_by\": [\"21cf99bb\"],",
            1,
        );
        assert_eq!(
            problem(&cycle),
            "its links make a cycle: 21cf99bb -> a46f8d35 -> 21cf99bb (each waits for the next)"
        );
        let not_in_progress =
            good.replace("\"status\": \"in_progress\"", "\"status\": \"pending\"");
        assert_eq!(
            problem(&not_in_progress),
            "task 2 is claimed but pending; only tasks in progress are claimed"
        );
    }
}
