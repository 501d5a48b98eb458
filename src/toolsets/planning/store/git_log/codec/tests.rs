// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

use std::time::{Duration, UNIX_EPOCH};

use super::*;
use crate::toolsets::planning::coordination::{Claim, Dispatch, Edit, Evidence};
use crate::toolsets::planning::domain::replay::Log;
use crate::toolsets::planning::domain::{Board, ClaimEnd, DispatchEnd, Event, Goal};

fn at(micros: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_micros(1_795_000_000_000_000 + micros)
}

fn op(counter: u64, claim: Option<ClaimMode>, action: Action) -> Op {
    Op {
        id: OpId {
            stamp: 1_795_000_000_000_000 + counter,
            replica: Replica(0x3f9c_2a1b_00d4_e5f6),
            counter,
        },
        at: at(counter),
        claim,
        action,
    }
}

fn every_action() -> Vec<Op> {
    let (a, b) = (TaskId::from_content("a", ""), TaskId::from_content("b", ""));
    let goal = Goal {
        title: "Ship ✓".into(),
        description: "with \"quotes\"\nand lines".into(),
    };
    let claim = Claim {
        holder: "worker-1".into(),
        since: at(1),
        until: at(900_000_000),
    };
    let evidence = Evidence {
        command: Some("cargo test".into()),
        exit_code: Some(0),
        commit: Some("9f3c2a1".into()),
        url: None,
        note: Some("\u{0}control".into()),
        by: "worker-1".into(),
        at: at(5),
        review: None,
    };
    let events = vec![
        Event::GoalSet { goal: goal.clone() },
        Event::GoalChanged {
            from: goal.clone(),
            to: goal.clone(),
            reason: "why".into(),
        },
        Event::StatusChanged {
            task_id: a,
            title: "a".into(),
            from: Status::Pending,
            to: Status::Failed,
        },
        Event::Claimed {
            task_id: a,
            title: "a".into(),
            holder: "w".into(),
            until: at(7),
        },
        Event::ClaimEnded {
            task_id: a,
            title: "a".into(),
            holder: "w".into(),
            until: at(7),
            reason: ClaimEnd::Expired,
        },
        Event::LinksRemoved {
            task_id: a,
            title: "a".into(),
            dependents: vec![b],
        },
        Event::Dispatched {
            task_id: a,
            title: "a".into(),
            worker: "worker-2".into(),
            by: "lead".into(),
            until: at(8),
        },
    ];
    let ended = [
        DispatchEnd::Released,
        DispatchEnd::Replaced,
        DispatchEnd::Taken,
        DispatchEnd::StatusChanged,
        DispatchEnd::Deleted,
    ]
    .map(|reason| Event::DispatchEnded {
        task_id: a,
        title: "a".into(),
        worker: "worker-2".into(),
        reason,
    });
    let events = events.into_iter().chain(ended);
    let dispatch = Dispatch {
        worker: "worker-2".into(),
        by: "lead".into(),
        place: Some("../wt-2".into()),
        note: None,
        at: at(2),
        until: at(600_000_000),
        claimed: true,
    };
    let mut edits = vec![
        Edit::Status(a, Status::InProgress),
        Edit::Claim(a, Some(claim)),
        Edit::Claim(b, None),
        Edit::Evidence(a, Some(evidence)),
        Edit::Evidence(b, None),
        Edit::CompletedBy(a, Some("w".into())),
        Edit::CompletedBy(b, None),
        Edit::Link {
            task: a,
            blocker: b,
        },
        Edit::Unlink {
            task: b,
            blocker: a,
        },
        Edit::DoneWhen(Some("cargo test passes".into())),
        Edit::DoneWhen(None),
        Edit::Dispatch(a, Some(dispatch)),
        Edit::Dispatch(b, None),
        Edit::Touches(a, vec!["src/**/*.rs".into(), "docs/team.md".into()]),
        Edit::Touches(b, Vec::new()),
    ];
    edits.extend(events.into_iter().map(Edit::Record));
    vec![
        op(1, None, Action::SetGoal(goal.clone())),
        op(
            2,
            None,
            Action::ChangeGoal {
                goal,
                reason: "scope".into(),
            },
        ),
        op(
            3,
            None,
            Action::AddTasks(vec![NewTask::new("a", ""), NewTask::new("Écrire", "d")]),
        ),
        op(
            4,
            None,
            Action::SetStatuses(vec![(a, Status::Completed), (b, Status::Cancelled)]),
        ),
        op(
            5,
            None,
            Action::Modify {
                id: a,
                title: Some("A".into()),
                description: None,
            },
        ),
        op(6, None, Action::Delete(vec![a, b])),
        op(7, Some(ClaimMode::Confirmed), Action::Edit(edits)),
        op(8, None, plan()),
    ]
}

/// An `add_tasks` with toolset team's links and touches.
fn plan() -> Action {
    let (a, b) = (TaskId::from_content("a", ""), TaskId::from_content("b", ""));
    Action::Plan {
        tasks: vec![NewTask::new("a", ""), NewTask::new("b", "")],
        edits: vec![
            Edit::Touches(a, vec!["src/a/**".into()]),
            Edit::Link {
                task: b,
                blocker: a,
            },
        ],
    }
}

#[test]
fn a_plan_is_an_add_with_its_edits_and_an_add_without_is_written_as_before() {
    let json = String::from_utf8(op_to_json(&op(8, None, plan()))).unwrap();
    assert!(
        json.contains(
            r#""action":{"add_tasks":{"tasks":[{"title":"a","description":""},{"title":"b","description":""}],"edits":[{"edit":"touches","task_id":"bfc622d4","paths":["src/a/**"]},{"edit":"link","task_id":"1f867faa","blocker":"bfc622d4"}]}}"#
        ),
        "{json}"
    );
    let add = Action::AddTasks(vec![NewTask::new("a", "")]);
    let json = String::from_utf8(op_to_json(&op(3, None, add))).unwrap();
    assert!(
        json.contains(r#""action":{"add_tasks":{"tasks":[{"title":"a","description":""}]}}"#),
        "{json}"
    );
    // Only links and touches come with added tasks.
    let claim = json.replace(
        r#"}]}}"#,
        r#"}],"edits":[{"edit":"done_when","condition":"x"}]}}"#,
    );
    let error = op_from_json((Replica(0x3f9c_2a1b_00d4_e5f6), 3), claim.as_bytes()).unwrap_err();
    assert_eq!(
        error,
        "its add_tasks carries an edit other than a link or touches (done_when)"
    );
}

#[test]
fn every_action_round_trips() {
    for op in every_action() {
        let json = op_to_json(&op);
        assert_eq!(json.last(), Some(&b'\n'));
        assert_eq!(json.iter().filter(|b| **b == b'\n').count(), 1, "one line");
        let read = op_from_json((op.id.replica, op.id.counter), &json).unwrap();
        assert_eq!(read, op);
    }
}

#[test]
fn the_format_is_pinned() {
    let json = op_to_json(&every_action()[3]);
    insta::assert_snapshot!(String::from_utf8(json).unwrap());
}

#[test]
fn names_have_one_spelling() {
    let replica = Replica(0x3f9c_2a1b_00d4_e5f6);
    assert_eq!(op_name(replica, 12), "op-3f9c2a1b00d4e5f6-12");
    assert_eq!(parse_op_name("op-3f9c2a1b00d4e5f6-12"), Some((replica, 12)));
    for bad in [
        "op-3f9c2a1b00d4e5f6-012",
        "op-3f9c2a1b00d4e5f6-+12",
        "op-3f9c2a1b00d4e5f6-0",
        "op-3F9C2A1B00D4E5F6-12",
        "op-3f9c2a1b00d4e5f-12",
        "op-3f9c2a1b00d4e5f6",
        "op-é-1",
        "checkpoint-1",
        "",
    ] {
        assert_eq!(parse_op_name(bad), None, "{bad}");
    }
}

#[test]
fn a_corrupt_operation_is_refused_with_its_problem() {
    let good = every_action().remove(2);
    let name = (good.id.replica, good.id.counter);
    let json = String::from_utf8(op_to_json(&good)).unwrap();
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "not an operation: cut short (EOF while parsing a value at line 1 column 0)"),
        (json[..json.len() / 2].to_owned(), "not an operation: cut short (EOF while parsing"),
        ("{\"format\":".into(), "not an operation: cut short"),
        ("hello, world\n".into(), "not an operation: not JSON (expected value"),
        ("{\"title\":\"x\"}".into(), "not an operation: JSON of another shape (unknown field `title`"),
        ("a\0b".into(), "not an operation: binary, not text (a NUL byte at byte 1)"),
        (json.replace("\"tasks\"", "\"x\":1,\"tasks\""), "not an operation: JSON of another shape (unknown field `x`"),
        (json.replace("\"stamp\"", "\"x\":1,\"stamp\""), "not an operation: JSON of another shape (unknown field `x`"),
        (json.replace(OP_FORMAT, "something else"), "its format is \"something else\""),
        (json.replace("\"version\":1", "\"version\":2"), "it has format version 2"),
        (json.replace("#3", "#4"), "it says it is operation"),
        (json.replace("2026", "20x6"), "it has an invalid at"),
        (
            json.replace("\"tasks\":[{\"title\":\"a\",\"description\":\"\"},{\"title\":\"Écrire\",\"description\":\"d\"}]", "\"tasks\":[]"),
            "it changes nothing",
        ),
    ];
    for (text, problem) in cases {
        let error = op_from_json(name, text.as_bytes()).unwrap_err();
        assert!(error.starts_with(problem), "{error}\n  for {text}");
    }
    let binary = op_from_json(name, b"{\"format\":\"\xff\"}").unwrap_err();
    assert_eq!(
        binary,
        "not an operation: binary, not text (not UTF-8 at byte 11)"
    );
    let huge = vec![b' '; MAX_OP_BYTES + 1];
    assert!(
        op_from_json(name, &huge)
            .unwrap_err()
            .contains("more than an operation's")
    );
    let mut claim = every_action().remove(6);
    claim.claim = None;
    let read = op_from_json((claim.id.replica, claim.id.counter), &op_to_json(&claim)).unwrap();
    assert_eq!(
        read.claim,
        Some(ClaimMode::Provisional),
        "a claim without a mode"
    );
}

#[test]
fn a_checkpoint_round_trips() {
    let mut log = Log::new();
    for op in every_action().into_iter().take(5) {
        log.insert(op);
    }
    let empty = Board::new(Limits::default(), true);
    let id = CheckpointId {
        stamp: 1_795_000_000_000_100,
        replica: Replica(7),
    };
    let compacted = log.compact(id, empty.clone());
    let stored = StoredCheckpoint {
        checkpoint: compacted.checkpoint().unwrap().clone(),
        compacted: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
    };
    let json = checkpoint_to_json(&stored);
    let read = checkpoint_from_json(&json, Limits::default(), true).unwrap();
    assert_eq!(read.compacted, stored.compacted);
    assert_eq!(read.checkpoint.id, id);
    assert_eq!(read.checkpoint.covers, stored.checkpoint.covers);
    let (ours, theirs) = (&stored.checkpoint.state, &read.checkpoint.state);
    assert_eq!(theirs.aliases, ours.aliases);
    assert_eq!(theirs.max_stamp, ours.max_stamp);
    let snapshot = |board: &Board| {
        let mut board = board.clone();
        board.set_clock(crate::runtime::clock::Clock::fixed(UNIX_EPOCH));
        crate::toolsets::planning::store::snapshot::to_json(&board)
    };
    assert_eq!(snapshot(&theirs.board), snapshot(&ours.board));
    assert!(checkpoint_from_json(b"{}", Limits::default(), true).is_err());
}

#[test]
fn a_goal_set_event_has_the_snapshot_shape_and_the_flat_one_is_read() {
    let goal = Goal {
        title: "Ship".into(),
        description: "d".into(),
    };
    let set = op(
        1,
        None,
        Action::Edit(vec![Edit::Record(Event::GoalSet { goal })]),
    );
    let name = (set.id.replica, set.id.counter);
    let json = String::from_utf8(op_to_json(&set)).unwrap();
    let nested = r#"{"event":"goal_set","goal":{"title":"Ship","description":"d"}}"#;
    assert!(json.contains(nested), "{json}");
    let flat = json.replace(
        r#""goal":{"title":"Ship","description":"d"}"#,
        r#""title":"Ship","description":"d""#,
    );
    assert_eq!(op_from_json(name, flat.as_bytes()).unwrap(), set);
    let both = json.replace(r#""goal":{"#, r#""title":"x","goal":{"#);
    let error = op_from_json(name, both.as_bytes()).unwrap_err();
    assert!(
        error.contains("either `goal` or `title` and `description`"),
        "{error}"
    );
}

#[test]
fn goal_operations_have_the_snapshot_shape_and_the_flat_one_is_read() {
    let goal = Goal {
        title: "Ship".into(),
        description: "d".into(),
    };
    let change = Action::ChangeGoal {
        goal: goal.clone(),
        reason: "why".into(),
    };
    let shapes = [
        (
            op(1, None, Action::SetGoal(goal.clone())),
            r#"{"set_goal":{"goal":{"title":"Ship","description":"d"}}}"#,
            r#"{"set_goal":{"title":"Ship","description":"d"}}"#,
        ),
        (
            op(2, None, change),
            r#"{"change_goal":{"goal":{"title":"Ship","description":"d"},"reason":"why"}}"#,
            r#"{"change_goal":{"title":"Ship","description":"d","reason":"why"}}"#,
        ),
    ];
    for (written, nested, flat) in shapes {
        let name = (written.id.replica, written.id.counter);
        let json = String::from_utf8(op_to_json(&written)).unwrap();
        assert!(json.contains(&format!(r#""action":{nested}"#)), "{json}");
        // The bytes an earlier build wrote for it still read.
        let earlier = json.replace(nested, flat);
        assert_eq!(op_from_json(name, earlier.as_bytes()).unwrap(), written);
        let both = json.replace(r#""goal":{"#, r#""title":"x","goal":{"#);
        let error = op_from_json(name, both.as_bytes()).unwrap_err();
        assert!(error.contains("either `goal` or `title`"), "{error}");
    }
}
