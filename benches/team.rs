// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team` on a 10,000-task board with 20,000 links (the targets of
//! docs/performance.md): a claim (≤ 20 µs), the ready queue (≤ 1 ms), the
//! digest (≤ 1 ms), and a link whose cycle check walks the whole graph; and
//! on a 10,000-task board with globs on every task: the ready wave of 10
//! (≤ 2 ms), a claim with touches (≤ 50 µs), and waking 100 `wait_for`
//! waiters after one change (≤ 5 ms).

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::clock::Clock;
use planning_mcp_server::api::planning::{
    Board, Claim, Edit, Limits, MemoryStore, NewTask, SharedBoard, Status, TaskId,
};
use planning_mcp_server::api::team::{
    self, EvidenceRule, ReviewRule, Stalled, Target, TeamError, View, WaitRequest, Waiters, digest,
    wave,
};
use tokio_util::sync::CancellationToken;

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
            let (mut edits, _) = team::expiries(view);
            let (more, claimed) =
                team::claim(view, "bench", Target::Task(&ready), LEASE, false).unwrap();
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
                team::claim(view, "bench", Target::NextReady, LEASE, false).unwrap();
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
            let refused = team::link(View::new(&board, now), &first, &last);
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
                                team::claim(view, "bench", target, LEASE, false)?.0
                            }
                            true => {
                                let rule = EvidenceRule::Optional;
                                team::release(
                                    view,
                                    "bench",
                                    &ready,
                                    "pending",
                                    None,
                                    rule,
                                    ReviewRule::Off,
                                )?
                                .0
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

/// The paths task n touches: its own module and test, and for every fifth
/// task the docs too (so that such tasks overlap each other and held work).
fn touches(n: usize) -> Vec<String> {
    let mut touches = vec![format!("src/module_{n}/**"), format!("tests/module_{n}.rs")];
    if n.is_multiple_of(5) {
        touches.push("docs/*.md".into());
    }
    touches
}

/// 10,000 tasks, none linked, each with globs ([`touches`]); 50 of them
/// held by agents (among them tasks that touch the docs).
fn globbed_board() -> Board {
    let limits = Limits {
        max_tasks: TASKS,
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board.set_goal("Benchmark", "Touches").unwrap();
    let tasks: Vec<NewTask> = (0..TASKS).map(|n| NewTask::new(title(n), "")).collect();
    let _ = board.add_tasks(&tasks).unwrap();
    let now = SystemTime::now();
    let mut edits: Vec<Edit> = (0..TASKS)
        .map(|n| Edit::Touches(id(n), touches(n)))
        .collect();
    for n in (0..TASKS).step_by(TASKS / 50).take(50) {
        edits.push(Edit::Status(id(n), Status::InProgress));
        let claim = Claim {
            holder: format!("agent-{n}"),
            since: now,
            until: now + LEASE,
        };
        edits.push(Edit::Claim(id(n), Some(claim)));
    }
    let _ = board.edit(now, edits).unwrap();
    board
}

fn team_with_globs(c: &mut Criterion) {
    allocator::keep_freed_memory();
    let mut board = globbed_board();
    let now = SystemTime::now();
    let mut group = c.benchmark_group("team_10000_tasks_with_globs");

    group.bench_function("ready_wave_of_10", |b| {
        b.iter(|| {
            let wave = wave(View::new(&board, now), 10, Stalled::Include, None);
            assert_eq!(wave.members.len(), 10);
            black_box(wave.ready)
        })
    });

    // A task that touches the docs, claimed by ID: its touches are checked
    // against every held task's (50, some on the docs: no overlap with the
    // one chosen, which touches no docs).
    let free = id(TASKS / 2 + 1).to_string();
    group.bench_function("claim_with_touches", |b| {
        b.iter(|| {
            let view = View::new(&board, now);
            let (mut edits, _) = team::expiries(view);
            let (more, claimed) =
                team::claim(view, "bench", Target::Task(&free), LEASE, false).unwrap();
            edits.extend(more);
            let undo = board.edit(now, edits).unwrap();
            board.undo(undo);
            black_box(claimed)
        })
    });

    // 100 waiters for "finished" on the board; one task completed wakes
    // them all: the time from the change to the last answer.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let shared = SharedBoard::open(
        "default",
        Box::new(MemoryStore),
        board.clone(),
        Duration::from_secs(10),
    )
    .unwrap();
    let waiters = std::sync::Arc::new(Waiters::new(
        "default".to_owned(),
        shared.clone(),
        Clock::system(),
        Duration::from_secs(60),
    ));
    let mut next = TASKS / 2 + 3;
    group.sample_size(20);
    group.bench_function("wake_100_waiters", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                next += 1;
                let task = id(next % TASKS).to_string();
                total += runtime.block_on(wake_all(&waiters, &shared, &task));
            }
            total
        })
    });
    group.finish();
}

/// Starts 100 waiters, lets them settle, completes `task`; the time from
/// the change to the last waiter's answer.
async fn wake_all(waiters: &std::sync::Arc<Waiters>, shared: &SharedBoard, task: &str) -> Duration {
    let revision = shared.watch().borrow().to_string();
    let handles: Vec<_> = (0..100)
        .map(|n| {
            let waiters = waiters.clone();
            // Ten sessions of ten: one session may have 32 waiting.
            let session = format!("session-{}", n % 10);
            let ask = WaitRequest {
                events: vec!["finished".into()],
                revision: Some(revision.parse().unwrap()),
                ..WaitRequest::default()
            };
            tokio::spawn(
                async move { waiters.wait(&session, &ask, CancellationToken::new()).await },
            )
        })
        .collect();
    // Outside the measured time: every waiter is waiting.
    tokio::time::sleep(Duration::from_millis(20)).await;
    let task = task.to_owned();
    let start = std::time::Instant::now();
    shared
        .mutate(
            |board| Ok(((), board.update_statuses(&[(&task, "completed")])?)),
            |_, ()| (),
        )
        .unwrap();
    for handle in handles {
        let reply = handle.await.unwrap().unwrap();
        assert!(reply.starts_with("Finished (1):"), "{reply}");
    }
    start.elapsed()
}

criterion_group!(benches, team, team_with_globs);
criterion_main!(benches);
