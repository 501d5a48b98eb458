// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board's operations at 10 to 10,000 tasks. Single-task operations must
//! not grow with the board (an index finds tasks); only rendering is linear.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::planning::{Board, Filter, Limits, NewTask, TaskId, task_list};

/// Board calls run on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

const SIZES: [usize; 4] = [10, 100, 1_000, 10_000];

fn task(n: usize) -> NewTask {
    NewTask {
        title: format!("Task number {n}"),
        description: format!("Do step {n} of the plan and check the result"),
    }
}

fn id_of(n: usize) -> String {
    let t = task(n);
    TaskId::from_content(&t.title, &t.description).to_string()
}

fn board_of(size: usize) -> Board {
    let limits = Limits {
        max_tasks: size + 100,
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board
        .set_goal("Benchmark", "A board of a given size")
        .unwrap();
    let tasks: Vec<NewTask> = (0..size).map(task).collect();
    let _ = board.add_tasks(&tasks).unwrap();
    board
}

fn operations(c: &mut Criterion) {
    // As the servers do at start-up.
    allocator::keep_freed_memory();
    let mut group = c.benchmark_group("board");
    for size in SIZES {
        let board = board_of(size);
        let middle = id_of(size / 2);

        group.bench_with_input(
            BenchmarkId::new("get_tasks_render", size),
            &board,
            |b, board| b.iter(|| black_box(task_list(board, Filter::All))),
        );

        let batch: Vec<NewTask> = (size..size + 100).map(task).collect();
        group.bench_with_input(
            BenchmarkId::new("add_tasks_100", size),
            &board,
            |b, board| {
                b.iter_batched_ref(
                    || board.clone(),
                    |board| black_box(board.add_tasks(&batch).unwrap()),
                    BatchSize::LargeInput,
                )
            },
        );

        let mut updated = board.clone();
        let mut flip = false;
        group.bench_function(BenchmarkId::new("update_one_status", size), |b| {
            b.iter(|| {
                flip = !flip;
                let status = if flip { "completed" } else { "in_progress" };
                black_box(updated.update_statuses(&[(&middle, status)]).unwrap())
            })
        });

        let mut modified = board.clone();
        let original = task(size / 2);
        let reworded = format!("{} (reworded)", original.description);
        let mut current = middle.clone();
        group.bench_function(BenchmarkId::new("modify_task", size), |b| {
            b.iter(|| {
                let description = if current == middle {
                    &reworded
                } else {
                    &original.description
                };
                let (new_id, undo) = modified
                    .modify_task(&current, None, Some(description))
                    .unwrap();
                current = new_id.to_string();
                black_box(undo)
            })
        });

        group.bench_with_input(BenchmarkId::new("delete_one", size), &board, |b, board| {
            b.iter_batched_ref(
                || board.clone(),
                |board| black_box(board.delete_tasks(&[&middle]).unwrap()),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, operations);
criterion_main!(benches);
