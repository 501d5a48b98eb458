// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `main` wrote before every store's records were one module (issue
//! 36), kept as bytes in `tests/fixtures/`: a snapshot of each format
//! version, PostgreSQL's rows of a board, and a git log (operations and a
//! checkpoint). Each loads, unchanged, into the board it held.

use std::path::Path;

use super::git_log::codec;
use super::snapshot;
use crate::runtime::clock::Clock;
use crate::toolsets::planning::domain::replay::Log;
use crate::toolsets::planning::domain::{Board, Entry, History, Limits, Status, TaskId};

const VERSION_1: &str = include_str!("../../../../tests/fixtures/board-v1.json");
const VERSION_2: &str = include_str!("../../../../tests/fixtures/board-v2.json");
const VERSION_3: &str = include_str!("../../../../tests/fixtures/board-v3.json");
const VERSION_4: &str = include_str!("../../../../tests/fixtures/board-v4.json");
const POSTGRES_ROWS: &str = include_str!("../../../../tests/fixtures/postgres-rows.json");
const GIT_LOG_BOARD: &str = include_str!("../../../../tests/fixtures/git-log-board.json");

fn without_saved_at(text: &str) -> String {
    let lines = text.lines().filter(|l| !l.contains("\"saved_at\""));
    lines.collect::<Vec<_>>().join("\n")
}

fn load(text: &str) -> Board {
    snapshot::from_json(text.as_bytes(), Limits::default(), true).unwrap()
}

fn written(board: &Board) -> String {
    String::from_utf8(snapshot::to_json(board)).unwrap()
}

fn id(text: &str) -> TaskId {
    TaskId::parse(text).unwrap()
}

#[test]
fn a_snapshot_of_every_version_loads_and_is_written_back_unchanged() {
    for (text, version) in [
        (VERSION_1, 1),
        (VERSION_2, 2),
        (VERSION_3, 3),
        (VERSION_4, 4),
    ] {
        let board = load(text);
        let again = written(&board);
        assert!(
            again.contains(&format!("\"version\": {version},")),
            "{again}"
        );
        assert_eq!(
            without_saved_at(&again),
            without_saved_at(text),
            "{version}"
        );
    }
}

#[test]
fn the_version_4_snapshot_holds_every_concept() {
    let board = load(VERSION_4);
    let goal = board.goal().unwrap();
    assert_eq!(
        (goal.title.as_str(), goal.description.as_str()),
        ("Ship the parser 1.0", "")
    );
    let tasks: Vec<(&str, Status)> = board
        .tasks()
        .map(|t| (t.title.as_str(), t.status))
        .collect();
    assert_eq!(
        tasks,
        [
            ("Write tests", Status::Completed),
            ("Écrire ✓", Status::InProgress),
            ("Fix the parser", Status::Completed),
            ("Write docs", Status::InProgress),
        ]
    );
    let [a, b, c, d] = [
        TaskId::from_content("Write tests", ""),
        TaskId::from_content("Écrire ✓", "unicode"),
        TaskId::from_content("Fix the parser", "two\nlines"),
        TaskId::from_content("Write docs", ""),
    ];
    let coordination = board.coordination();
    assert_eq!(coordination.done_when(), Some("cargo test passes"));
    assert!(coordination.blockers(b).contains(&a));
    assert!(coordination.blockers(d).is_empty());
    assert_eq!(coordination.claim(b).unwrap().holder, "worker-1");
    assert_eq!(
        coordination.evidence(a).unwrap().commit.as_deref(),
        Some("1a2b3c4")
    );
    assert_eq!(coordination.completed_by(c), Some("worker-2"));
    let dispatch = coordination.dispatch(b).unwrap();
    assert_eq!(
        (dispatch.worker.as_str(), dispatch.claimed),
        ("worker-1", true)
    );
    assert_eq!(dispatch.place.as_deref(), Some("../wt-parser"));
    assert!(!coordination.dispatch(d).unwrap().claimed);
    assert_eq!(coordination.touches(b).len(), 2);
    assert!(board.history().unwrap().entries().len() > 10);
    for kind in [
        "goal_set",
        "goal_changed",
        "status_changed",
        "claimed",
        "claim_ended",
        "links_removed",
        "dispatched",
        "dispatch_ended",
    ] {
        let event = format!("\"event\": \"{kind}\"");
        assert!(VERSION_4.contains(&event), "{kind}");
    }
}

#[test]
fn postgres_rows_load_into_the_board_they_were_written_from() {
    let rows: serde_json::Value = serde_json::from_str(POSTGRES_ROWS).unwrap();
    let snapshot_row = rows["snapshot"].as_str().unwrap();
    let entries: Vec<Entry> = rows["history"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(n, row)| snapshot::entry_from_json(row.as_str().unwrap(), n + 1).unwrap())
        .collect();
    assert!(!snapshot_row.contains("\"history\""));
    let board = snapshot::from_json(snapshot_row.as_bytes(), Limits::default(), false)
        .unwrap()
        .with_history(Some(History::from_entries(entries.clone())));
    assert_eq!(
        without_saved_at(&written(&board)),
        without_saved_at(VERSION_4)
    );
    // As exported: the snapshot row with its entries is the whole snapshot.
    assert_eq!(
        snapshot::with_history(snapshot_row, &entries).unwrap(),
        VERSION_4
    );
}

#[test]
fn a_git_log_with_a_checkpoint_replays_into_its_board() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/git-log");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let (mut checkpoint, mut ops) = (None, Vec::new());
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        if codec::is_checkpoint_name(name) {
            let stored = codec::checkpoint_from_json(&bytes, Limits::default(), true).unwrap();
            assert!(checkpoint.replace(stored).is_none(), "one checkpoint");
        } else {
            let op_name = codec::parse_op_name(name).unwrap();
            ops.push(codec::op_from_json(op_name, &bytes).unwrap());
        }
    }
    let checkpoint = checkpoint.expect("the log holds a checkpoint");
    assert!(ops.len() >= 2, "operations after the checkpoint: {names:?}");
    let mut log = Log::from_checkpoint(checkpoint.checkpoint);
    for op in ops {
        assert!(log.insert(op));
    }
    // One operation was made under a test's fixed clock, in January 2027:
    // a reader whose clock is past it trusts every operation (one whose
    // clock is not sets that one aside until then, as any stamped ahead).
    let reader =
        Clock::fixed(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_003_600));
    let state = log.replay(Board::new(Limits::default(), true).with_clock(reader));
    assert!(state.set_aside.is_empty(), "{:?}", state.set_aside);
    assert_eq!(
        without_saved_at(&written(&state.board)),
        without_saved_at(GIT_LOG_BOARD)
    );
    let board = load(GIT_LOG_BOARD);
    assert_eq!(board.len(), 4);
    assert_eq!(
        board.task(id("a46f8d35")).map(|t| t.status),
        Some(Status::Completed)
    );
}
