// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Waves never overlap: on random boards with random globs, claims and
//! dispatches, no two tasks of a wave and no task of a wave and another
//! agent's held work touch one path (checked with globset on sample
//! paths, apart from the overlap test the wave uses), and every ready task
//! left out before the wave was full conflicts with something.

use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::toolsets::planning::coordination::{Claim, Dispatch, Edit};
use crate::toolsets::planning::domain::{Board, Limits, NewTask, Status};
use crate::toolsets::team::domain::claims::{self, Target};
use crate::toolsets::team::domain::fixture::{apply, at, board, id};
use crate::toolsets::team::domain::touches::Pattern;

const GLOBS: &[&str] = &[
    "src/**",
    "src/parser/**",
    "src/parser/*.rs",
    "src/cli/*.rs",
    "src/*.rs",
    "docs/*.md",
    "docs/cli.md",
    "**/*.md",
    "tests/**",
    "tests/parser.rs",
    "README.md",
    "src/{cli,web}/mod.rs",
    "src/[a-m]*/**",
    "benches/*",
];

const SAMPLES: &[&str] = &[
    "src/lib.rs",
    "src/parser/mod.rs",
    "src/parser/a/b.rs",
    "src/cli/mod.rs",
    "src/web/mod.rs",
    "src/main.rs",
    "docs/cli.md",
    "docs/web.md",
    "README.md",
    "tests/parser.rs",
    "tests/x/y.rs",
    "benches/b.rs",
    "src/cli/x/y.md",
    "src/parser.rs",
    "src/lexer/x.rs",
];

/// A task: its touches (indices into GLOBS), whether it is held,
/// dispatched, or free, and which earlier task it waits for (modulo its
/// position, so that links never make a cycle).
#[derive(Debug, Clone)]
struct Spec {
    touches: Vec<usize>,
    held_by: Option<usize>,
    dispatched_to: Option<usize>,
    waits_for: Option<usize>,
}

fn specs() -> impl Strategy<Value = Vec<Spec>> {
    let spec = (
        proptest::collection::vec(0..GLOBS.len(), 0..3),
        proptest::option::weighted(0.2, 0..3usize),
        proptest::option::weighted(0.15, 0..3usize),
        proptest::option::weighted(0.4, 0..25usize),
    )
        .prop_map(|(touches, held_by, dispatched_to, waits_for)| Spec {
            touches,
            held_by,
            dispatched_to,
            waits_for,
        });
    proptest::collection::vec(spec, 1..25)
}

/// The board the specs describe, at minute 0.
fn build(specs: &[Spec]) -> Board {
    let mut board = Board::new(
        Limits {
            max_tasks: 100,
            ..Limits::default()
        },
        false,
    );
    let tasks: Vec<NewTask> = (0..specs.len())
        .map(|n| NewTask::new(format!("t{n}"), ""))
        .collect();
    let _ = board.add_tasks(&tasks).unwrap();
    let mut edits = Vec::new();
    for (n, spec) in specs.iter().enumerate() {
        let task = id(&format!("t{n}"));
        let touches: Vec<String> = spec.touches.iter().map(|g| GLOBS[*g].to_owned()).collect();
        edits.push(Edit::Touches(task, touches));
        if let Some(k) = spec.waits_for.filter(|_| n > 0) {
            edits.push(Edit::Link {
                task,
                blocker: id(&format!("t{}", k % n)),
            });
        }
        if let Some(agent) = spec.held_by {
            edits.push(Edit::Status(task, Status::InProgress));
            edits.push(Edit::Claim(
                task,
                Some(Claim {
                    holder: format!("agent-{agent}"),
                    since: at(0),
                    until: at(15),
                }),
            ));
        } else if let Some(worker) = spec.dispatched_to {
            edits.push(Edit::Dispatch(
                task,
                Some(Dispatch {
                    worker: format!("agent-{worker}"),
                    by: "lead".into(),
                    place: None,
                    note: None,
                    at: at(0),
                    until: at(15),
                    claimed: false,
                }),
            ));
        }
    }
    let _ = board.edit(at(0), edits).unwrap();
    board
}

/// The open tasks that wait for `id`, directly or through open tasks,
/// walked one by one (what the ranking counts with bit sets).
fn walked(view: View<'_>, id: TaskId) -> usize {
    let open = |t: TaskId| {
        matches!(
            view.status_of(t),
            Some(Status::Pending | Status::InProgress)
        )
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![id];
    while let Some(at) = todo.pop() {
        for next in view.board.coordination().dependents(at) {
            if open(*next) && seen.insert(*next) {
                todo.push(*next);
            }
        }
    }
    seen.len()
}

/// The sample paths some pattern of `touches` matches, by globset.
fn matched(touches: &[String]) -> Vec<&'static str> {
    let matchers: Vec<_> = touches
        .iter()
        .filter_map(|t| Pattern::new(t).ok()?.matcher())
        .collect();
    SAMPLES
        .iter()
        .copied()
        .filter(|path| matchers.iter().any(|m| m.is_match(path)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn waves_never_overlap(specs in specs(), limit in 1usize..12, minute in 0u64..20) {
        let board = build(&specs);
        let view = View::new(&board, at(minute));
        let wave = wave(view, limit, Stalled::Include, None);
        let coordination = board.coordination();
        prop_assert!(wave.members.len() <= limit);
        let ready: Vec<_> = view.ready().map(|t| t.id).collect();
        prop_assert_eq!(wave.ready, ready.len());
        // Members are ready, in ranked order: the most unblocked first,
        // then board order.
        let keys: Vec<_> = wave
            .members
            .iter()
            .map(|t| (std::cmp::Reverse(wave.unblocks.of(t.id)), board.position(t.id)))
            .collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        // Each count is the open tasks that wait for the task, walked.
        for task in &wave.members {
            prop_assert_eq!(wave.unblocks.of(task.id), walked(view, task.id));
        }
        prop_assert!(wave.members.iter().all(|t| ready.contains(&t.id)));
        // Held work: live claims and dispatches in flight.
        let held: Vec<_> = touches::reservations(view);
        for (n, task) in wave.members.iter().enumerate() {
            let mine = matched(coordination.touches(task.id));
            for other in &wave.members[..n] {
                let theirs = matched(coordination.touches(other.id));
                prop_assert!(mine.iter().all(|p| !theirs.contains(p)),
                    "{} and {} of one wave both touch a path", task.title, other.title);
                prop_assert!(Touches::stored(coordination.touches(task.id))
                    .overlap(&Touches::stored(coordination.touches(other.id))).is_none());
            }
            for r in &held {
                let theirs = matched(coordination.touches(r.task));
                prop_assert!(mine.iter().all(|p| !theirs.contains(p)),
                    "{} touches a path of held {}", task.title, r.task);
                prop_assert!(Touches::stored(coordination.touches(task.id)).overlap(&r.touches).is_none());
            }
        }
        // Every task held back conflicts with held work or an earlier member.
        for (task, conflict) in &wave.held_back {
            prop_assert_eq!(conflict.task, task.id);
            let other = match &conflict.holder {
                Some(_) => held.iter().find(|r| r.task == conflict.other).map(|r| r.task),
                None => wave.members.iter().find(|m| m.id == conflict.other).map(|m| m.id),
            };
            prop_assert!(other.is_some(), "{:?}", conflict);
        }
        // Until the wave is full, every ready task is in it or held back.
        if wave.members.len() < limit {
            prop_assert_eq!(wave.members.len() + wave.held_back_count, wave.ready);
        }
    }
}

#[test]
fn the_next_ready_task_overlaps_no_held_work_and_a_claim_that_does_is_refused() {
    let mut board = board(&["a", "b", "c"]);
    let set = |board: &mut Board, title: &str, patterns: &[&str]| {
        let task = id(title).to_string();
        let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        apply(board, at(0), |v| touches::set(v, &task, &patterns, false)).unwrap();
    };
    set(&mut board, "a", &["src/**"]);
    set(&mut board, "b", &["src/parser.rs"]);
    set(&mut board, "c", &["docs/**"]);
    let lease = Duration::from_secs(900);
    let claim = |board: &mut Board, agent: &str, target: Target<'_>, accept: bool| {
        apply(board, at(0), |v| {
            claims::claim(v, agent, target, lease, accept)
        })
    };
    let first = claim(&mut board, "w1", Target::NextReady, false).unwrap();
    assert_eq!(first.id, id("a"));
    // b overlaps a: the next ready task for w2 is c.
    assert_eq!(
        claim(&mut board, "w2", Target::NextReady, false)
            .unwrap()
            .id,
        id("c")
    );
    let b = id("b").to_string();
    let refused = claim(&mut board, "w3", Target::Task(&b), false).unwrap_err();
    assert!(matches!(&refused, TeamError::Overlap { conflict, .. } if conflict.other == id("a")));
    assert!(refused.to_string().ends_with(
        "claim another task (ready_tasks lists a wave that overlaps nothing), or pass \
         accept_overlap true to work on it anyway."
    ));
    assert_eq!(
        claim(&mut board, "w3", Target::NextReady, false)
            .unwrap_err()
            .to_string(),
        format!(
            "No ready task can start without overlapping held work: the 1 ready task overlaps \
             the touches of a claimed or dispatched task (e.g. [{}] touches src/parser.rs, which \
             overlaps src/** of [{}], held by w1 until 2027-01-15T08:15:00Z (both match \
             src/parser.rs)); claim one by task_id with accept_overlap true, or wait_for a task \
             to finish.",
            id("b"),
            id("a")
        )
    );
    // The holder of a may take b (its own work), and w3 may accept the overlap.
    let accepted = claim(&mut board, "w3", Target::Task(&b), true).unwrap();
    assert_eq!(accepted.overlap.unwrap().other, id("a"));
}

#[test]
fn a_wave_holds_back_what_overlaps_an_earlier_member() {
    let mut board = board(&["a", "b", "c"]);
    for (title, pattern) in [("a", "src/*.rs"), ("b", "src/lib.rs"), ("c", "docs/**")] {
        let task = id(title).to_string();
        apply(&mut board, at(0), |v| {
            touches::set(v, &task, &[pattern.to_string()], false)
        })
        .unwrap();
    }
    let view = View::new(&board, at(0));
    let wave = wave(view, 10, Stalled::Include, None);
    let titles: Vec<&str> = wave.members.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["a", "c"]);
    assert_eq!(wave.held_back.len(), 1);
    assert_eq!(
        wave.held_back[0].1.mark(),
        format!("overlaps [{}], listed above", id("a"))
    );
    let text = crate::toolsets::team::domain::render::ready(view, &[], 10, Stalled::Include);
    insta::assert_snapshot!("ready_wave", text);
}
