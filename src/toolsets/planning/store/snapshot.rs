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
//! Tasks are listed in creation order. `history` is present when history is
//! enabled. Reading checks everything and names the first problem; nothing is
//! repaired silently.

use std::borrow::Cow;
use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use crate::toolsets::planning::domain::{
    Board, Entry, Event, Goal, History, Limits, Status, Task, TaskId,
};

/// The value of `format` in every snapshot.
pub const FORMAT: &str = "planning-mcp-server board";

/// The format version this build writes.
pub const VERSION: u64 = 1;

/// The format versions this build reads; anything else is refused.
pub const READABLE: &[u64] = &[VERSION];

/// The versions this build reads, for messages: `version 1`, `versions 1, 2`.
fn readable() -> String {
    let listed: Vec<String> = READABLE.iter().map(u64::to_string).collect();
    match listed.len() {
        1 => format!("version {}", listed.join("")),
        _ => format!("versions {}", listed.join(", ")),
    }
}

/// The two fields read first, to tell a foreign or future file from a corrupt one.
#[derive(Deserialize)]
struct Header<'a> {
    format: Option<Cow<'a, str>>,
    version: Option<u64>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotRecord<'a> {
    format: Cow<'a, str>,
    version: u64,
    saved_at: String,
    goal: Option<GoalRecord<'a>>,
    tasks: Vec<TaskRecord<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    history: Option<Vec<EntryRecord<'a>>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalRecord<'a> {
    title: Cow<'a, str>,
    description: Cow<'a, str>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskRecord<'a> {
    id: TaskId,
    title: Cow<'a, str>,
    description: Cow<'a, str>,
    status: Status,
    created_at: String,
}

#[derive(Serialize, Deserialize)]
struct EntryRecord<'a> {
    at: String,
    #[serde(flatten)]
    event: EventRecord<'a>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum EventRecord<'a> {
    GoalSet {
        goal: GoalRecord<'a>,
    },
    GoalChanged {
        from: GoalRecord<'a>,
        to: GoalRecord<'a>,
        reason: Cow<'a, str>,
    },
    StatusChanged {
        task_id: TaskId,
        title: Cow<'a, str>,
        from: Status,
        to: Status,
    },
}

/// Writes the board as a snapshot (pretty JSON, ending in a newline).
pub fn to_json(board: &Board) -> Vec<u8> {
    let record = SnapshotRecord {
        format: Cow::Borrowed(FORMAT),
        version: VERSION,
        saved_at: timestamp(SystemTime::now()),
        goal: board.goal().map(GoalRecord::from),
        tasks: board.tasks().map(TaskRecord::from).collect(),
        history: board
            .history()
            .map(|history| history.entries().map(EntryRecord::from).collect()),
    };
    #[allow(
        clippy::expect_used,
        reason = "plain structs with string keys: serde_json cannot fail on them"
    )]
    let mut json = serde_json::to_vec_pretty(&record).expect("a snapshot always serializes");
    json.push(b'\n');
    json
}

/// Reads a snapshot into a board with these limits; the history is kept only
/// when `history_enabled`. The error names the first problem found.
pub fn from_json(json: &[u8], limits: Limits, history_enabled: bool) -> Result<Board, String> {
    if json.iter().all(u8::is_ascii_whitespace) {
        return Err("the file is empty (truncated?)".into());
    }
    let header: Header = serde_json::from_slice(json).map_err(|e| corrupt(&e))?;
    match (header.format.as_deref(), header.version) {
        (Some(FORMAT), Some(version)) if READABLE.iter().all(|&known| version > known) => {
            return Err(format!(
                "it has format version {version}, written by a newer planning-mcp-server; this one reads {} (upgrade, or point storage.dir elsewhere)",
                readable()
            ));
        }
        (Some(FORMAT), Some(version)) if !READABLE.contains(&version) => {
            return Err(format!(
                "it has format version {version}, which no planning-mcp-server writes; this one reads {}",
                readable()
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
    let record: SnapshotRecord = serde_json::from_slice(json).map_err(|e| corrupt(&e))?;
    record.into_board(limits, history_enabled)
}

fn corrupt(error: &serde_json::Error) -> String {
    match error.classify() {
        serde_json::error::Category::Eof => format!("it is truncated ({error})"),
        serde_json::error::Category::Data => format!("it has an invalid value ({error})"),
        _ => format!("it is not valid JSON ({error})"),
    }
}

impl SnapshotRecord<'_> {
    fn into_board(self, limits: Limits, history_enabled: bool) -> Result<Board, String> {
        let mut tasks = Vec::with_capacity(self.tasks.len());
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
            tasks.push(Task {
                id: record.id,
                title: record.title.into_owned(),
                description: record.description.into_owned(),
                status: record.status,
                created_at: parse_time(&record.created_at, "created_at", n + 1)?,
            });
        }
        let history = if history_enabled {
            let entries = self.history.unwrap_or_default().into_iter().enumerate();
            let entries = entries
                .map(|(n, entry)| entry.into_entry(n + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Some(History::from_entries(entries))
        } else {
            None
        };
        Ok(Board::restore(
            limits,
            self.goal.map(Goal::from),
            tasks,
            history,
        ))
    }
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

impl<'a> From<&'a Task> for TaskRecord<'a> {
    fn from(task: &'a Task) -> Self {
        Self {
            id: task.id,
            title: Cow::Borrowed(&task.title),
            description: Cow::Borrowed(&task.description),
            status: task.status,
            created_at: timestamp(task.created_at),
        }
    }
}

impl<'a> From<&'a Entry> for EntryRecord<'a> {
    fn from(entry: &'a Entry) -> Self {
        let event = match &entry.event {
            Event::GoalSet { goal } => EventRecord::GoalSet { goal: goal.into() },
            Event::GoalChanged { from, to, reason } => EventRecord::GoalChanged {
                from: from.into(),
                to: to.into(),
                reason: Cow::Borrowed(reason),
            },
            Event::StatusChanged {
                task_id,
                title,
                from,
                to,
            } => EventRecord::StatusChanged {
                task_id: *task_id,
                title: Cow::Borrowed(title),
                from: *from,
                to: *to,
            },
        };
        Self {
            at: timestamp(entry.at),
            event,
        }
    }
}

impl EntryRecord<'_> {
    fn into_entry(self, n: usize) -> Result<Entry, String> {
        let event = match self.event {
            EventRecord::GoalSet { goal } => Event::GoalSet { goal: goal.into() },
            EventRecord::GoalChanged { from, to, reason } => Event::GoalChanged {
                from: from.into(),
                to: to.into(),
                reason: reason.into_owned(),
            },
            EventRecord::StatusChanged {
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
        };
        Ok(Entry {
            at: parse_time(&self.at, "at", n).map_err(|e| format!("history {e}"))?,
            event,
        })
    }
}

/// RFC 3339 in UTC with microseconds, e.g. `2026-11-22T10:00:00.123456Z`.
fn timestamp(time: SystemTime) -> String {
    DateTime::<Utc>::from(time).to_rfc3339_opts(SecondsFormat::Micros, true)
}

fn parse_time(text: &str, field: &str, n: usize) -> Result<SystemTime, String> {
    DateTime::parse_from_rfc3339(text)
        .map(SystemTime::from)
        .map_err(|e| {
            format!(
                "entry {n} has an invalid {field} '{}' ({e})",
                crate::runtime::text::clip(text)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::NewTask;

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
        let future = good.replace("\"version\": 1", "\"version\": 99");
        assert!(problem(&future).starts_with("it has format version 99, written by a newer"));
        let older = good.replace("\"version\": 1", "\"version\": 0");
        assert_eq!(
            problem(&older),
            "it has format version 0, which no planning-mcp-server writes; this one reads version 1"
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
}
