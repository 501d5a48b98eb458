// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team` on a 10,000-task board with 20,000 links (the targets of
//! docs/performance.md): a claim (≤ 20 µs), the ready queue (≤ 1 ms), the
//! digest (≤ 1 ms), and a link whose cycle check walks the whole graph.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use planning_mcp_server::runtime::allocator;
use planning_mcp_server::toolsets::planning::domain::{
    Board, Claim, Edit, Limits, NewTask, Status, TaskId,
};
use planning_mcp_server::toolsets::planning::shared_board::SharedBoard;
use planning_mcp_server::toolsets::planning::store::MemoryStore;
use planning_mcp_server::toolsets::team::domain::claims::{self, Target};
use planning_mcp_server::toolsets::team::domain::{EvidenceRule, TeamError, View, digest, links};

/// Board calls run on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

const TASKS: usize = 10_000;
const LEASE: Duration = Duration::from_secs(15 * 60);

fn title(n: usize) -> String {
    format!("Task number {n}: do step {n} of the plan")
}

fn id(n: usize) -> TaskId {
    TaskId::from_content(&title(n), "")
}

/// 10,000 tasks; task n waits for n-1 and n-2 (and three more links make
/// 20,000); the first half is completed, 50 tasks of the second half are
/// held by agents.
fn board() -> Board {
    let limits = Limits {
        max_tasks: TASKS,
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board.set_goal("Benchmark", "A team's board").unwrap();
    let tasks: Vec<NewTask> = (0..TASKS).map(|n| NewTask::new(title(n), "")).collect();
    let _ = board.add_tasks(&tasks).unwrap();
    let mut edits = Vec::new();
    for n in 1..TASKS {
        for back in [1, 2].into_iter().filter(|back| *back <= n) {
            edits.push(Edit::Link {
                task: id(n),
                blocker: id(n - back),
            });
        }
    }
    for n in [3, 4, 5] {
        edits.push(Edit::Link {
            task: id(n),
            blocker: id(0),
        });
    }
    for n in 0..TASKS / 2 {
        edits.push(Edit::Status(id(n), Status::Completed));
    }
    let now = SystemTime::now();
    for n in (TASKS / 2 + 100..TASKS).step_by(90).take(50) {
        edits.push(Edit::Status(id(n), Status::InProgress));
        let claim = Claim {
            holder: format!("agent-{n}"),
            since: now,
            until: now + LEASE,
        };
        edits.push(Edit::Claim(id(n), Some(claim)));
    }
    let _ = board.edit(now, edits).unwrap();
    assert_eq!(board.coordination().link_count(), 20_000);
    board
}

fn team(c: &mut Criterion) {
    // As the server does at start-up.
    allocator::keep_freed_memory();
    let mut board = board();
    let now = SystemTime::now();
    let ready = id(TASKS / 2).to_string();
    let mut group = c.benchmark_group("team_10000_tasks_20000_links");

    // A claim by ID as a call makes it (the expiries due, the decision, the
    // edit), then taken back so that every iteration claims the same task.
    group.bench_function("claim", |b| {
        b.iter(|| {
            let view = View::new(&board, now);
            let (mut edits, _) = claims::expiries(view);
            let (more, claimed) =
                claims::claim(view, "bench", Target::Task(&ready), LEASE, false).unwrap();
            edits.extend(more);
            let undo = board.edit(now, edits).unwrap();
            board.undo(undo);
            black_box(claimed)
        })
    });

    group.bench_function("claim_next_ready", |b| {
        b.iter(|| {
            let view = View::new(&board, now);
            let (more, claimed) =
                claims::claim(view, "bench", Target::NextReady, LEASE, false).unwrap();
            let undo = board.edit(now, more).unwrap();
            board.undo(undo);
            black_box(claimed)
        })
    });

    group.bench_function("ready_queue", |b| {
        b.iter(|| black_box(View::new(&board, now).ready().count()))
    });

    group.bench_function("digest", |b| {
        b.iter(|| black_box(digest("default", View::new(&board, now))))
    });

    // Task 0 waiting for the last task would close a cycle through every task.
    let (first, last) = (id(0).to_string(), vec![id(TASKS - 1).to_string()]);
    group.bench_function("link_refused_as_a_cycle", |b| {
        b.iter(|| {
            let refused = links::link(View::new(&board, now), &first, &last);
            assert!(matches!(refused, Err(TeamError::Cycle(_))));
            black_box(refused)
        })
    });

    // Through the shared board (memory store), as the MCP face calls it: a
    // claim and its release, two calls.
    let shared = SharedBoard::open(
        "default",
        Box::new(MemoryStore),
        board.clone(),
        Duration::from_secs(10),
    )
    .unwrap();
    group.bench_function("claim_and_release_shared_board", |b| {
        b.iter(|| {
            for release in [false, true] {
                let done = shared.mutate_with(
                    |board| {
                        let view = View::new(board, now);
                        let edits = match release {
                            false => {
                                let target = Target::Task(&ready);
                                claims::claim(view, "bench", target, LEASE, false)?.0
                            }
                            true => {
                                let rule = EvidenceRule::Optional;
                                claims::release(view, "bench", &ready, "pending", None, rule)?.0
                            }
                        };
                        let undo = board.edit(now, edits)?;
                        Ok::<_, TeamError>((board.len(), undo))
                    },
                    |_, len| len,
                );
                black_box(done.unwrap().unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, team);
criterion_main!(benches);
