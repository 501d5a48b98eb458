// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One mutation through the shared board with the file backend (lock, check
//! for changes, apply, write the snapshot, rename), with and without fsync,
//! at 10, 100 and 1,000 tasks; the memory backend for comparison. A
//! person's write from the web board (`web_write`: the origin and CSRF
//! checks, the JSON body, the change) on the file backend at 100 tasks.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::planning::web::write_json;
use planning_mcp_server::api::planning::{
    Board, FileStore, Limits, MemoryStore, NewTask, SharedBoard, SnapshotStore, TaskId,
};

/// Board calls run on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

const SIZES: [usize; 3] = [10, 100, 1_000];

fn limits(size: usize) -> Limits {
    Limits {
        max_tasks: size,
        ..Limits::default()
    }
}

fn filled(store: Box<dyn SnapshotStore>, size: usize) -> SharedBoard {
    let empty = Board::new(limits(size), true);
    let board = SharedBoard::open("default", store, empty, Duration::from_secs(10)).unwrap();
    let tasks: Vec<NewTask> = (0..size)
        .map(|n| NewTask {
            title: format!("Task number {n}"),
            description: format!("Do step {n} of the plan and check the result"),
        })
        .collect();
    board.mutate(|b| b.add_tasks(&tasks), |_, _| ()).unwrap();
    board
}

fn one_mutation(c: &mut Criterion) {
    // As the servers do at start-up.
    allocator::keep_freed_memory();
    let mut group = c.benchmark_group("mutation");
    group.sample_size(30);
    for size in SIZES {
        let id = TaskId::from_content(
            &format!("Task number {}", size / 2),
            &format!("Do step {} of the plan and check the result", size / 2),
        )
        .to_string();
        let backends: [(&str, Option<bool>); 3] = [
            ("memory", None),
            ("file_no_fsync", Some(false)),
            ("file_fsync", Some(true)),
        ];
        for (name, fsync) in backends {
            let dir = tempfile::tempdir().unwrap();
            let store: Box<dyn SnapshotStore> = match fsync {
                None => Box::new(MemoryStore),
                Some(fsync) => Box::new(
                    FileStore::open(dir.path(), "default", fsync, limits(size), true).unwrap(),
                ),
            };
            let board = filled(store, size);
            let mut flip = false;
            group.bench_function(BenchmarkId::new(name, size), |b| {
                b.iter(|| {
                    flip = !flip;
                    let status = if flip { "completed" } else { "in_progress" };
                    board
                        .mutate(
                            |b| Ok(((), b.update_statuses(&[(&id, status)])?)),
                            |_, ()| (),
                        )
                        .unwrap();
                    black_box(())
                })
            });
        }
    }
    group.finish();
}

fn web_write(c: &mut Criterion) {
    allocator::keep_freed_memory();
    let mut group = c.benchmark_group("web_write");
    group.sample_size(30);
    let size = 100;
    let id = TaskId::from_content(
        "Task number 50",
        "Do step 50 of the plan and check the result",
    )
    .to_string();
    // What the board page's script sends.
    let token = "0123456789abcdef0123456789abcdef";
    let mut headers = axum::http::HeaderMap::new();
    for (name, value) in [
        ("host", "127.0.0.1:8080".to_owned()),
        ("origin", "http://127.0.0.1:8080".to_owned()),
        ("sec-fetch-site", "same-origin".to_owned()),
        ("cookie", format!("planning_csrf={token}")),
        ("x-csrf-token", token.to_owned()),
    ] {
        headers.insert(name, value.parse().unwrap());
    }
    for (name, fsync) in [("file_no_fsync", false), ("file_fsync", true)] {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path(), "default", fsync, limits(size), true).unwrap();
        let board = filled(Box::new(store), size);
        let bodies = ["completed", "in_progress"]
            .map(|status| format!(r#"{{"task_id":"{id}","status":"{status}"}}"#));
        let mut flip = false;
        group.bench_function(BenchmarkId::new(name, size), |b| {
            b.iter(|| {
                flip = !flip;
                let body = &bodies[usize::from(flip)];
                black_box(write_json(&board, "status", &headers, body.as_bytes()).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, one_mutation, web_write);
criterion_main!(benches);
