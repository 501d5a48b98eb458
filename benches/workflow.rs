// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `workflow`: one spell as the server runs it (lock, state and
//! files read, transition, effects written with fsync, reply made), with
//! 200 history entries in `state.json` and 100 acceptance criteria in
//! `plan.md`. Targets: 1 ms per spell, 0.2 ms for `lumos`.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::clock::Clock;
use planning_mcp_server::api::workflow::{Caster, Limits, Setup, Spell};
use serde_json::json;

/// Spells run on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

const CRITERIA: usize = 100;
const HISTORY: usize = 200;

/// A plan of `CRITERIA` criteria, the first half ticked.
fn plan() -> String {
    let mut text =
        String::from("# Plan\n\n## Context\n\nA benchmark.\n\n## Acceptance Criteria\n\n");
    for n in 0..CRITERIA {
        let mark = if n < CRITERIA / 2 { 'x' } else { ' ' };
        text.push_str(&format!("- [{mark}] Criterion number {n} holds\n"));
    }
    text.push_str("\n## References\n\n- https://acme.atlassian.net/browse/APP-1\n");
    text
}

/// `state.json` in `state` with `HISTORY` entries.
fn state(state: &str) -> String {
    let entry = json!({
        "timestamp": "2025-08-20T15:30:00Z",
        "trigger": "Accio",
        "rule": "A1",
        "transition": "ACHIEVE_TASK_DRAFTING → ACHIEVE_TASK_EXECUTED",
        "note": "a note of some length, as users type them"
    });
    let doc = json!({
        "version": 1,
        "current_state": state,
        "context": {},
        "history": vec![entry; HISTORY],
    });
    format!("{doc:#}\n")
}

fn workflow(dir: &Path) -> Caster {
    let setup = Setup {
        path: dir.to_path_buf(),
        // D is {root}/.ai/task.
        root: dir.ancestors().nth(2).unwrap_or(dir).to_path_buf(),
        limits: Limits {
            dir: ".ai/task".into(),
            max_inline_bytes: 65_536,
            max_history: HISTORY,
            atlassian_hosts: Vec::new(),
        },
        max_file_bytes: 1_048_576,
        lock_timeout: Duration::from_secs(10),
        gitignore: true,
    };
    Caster::new(setup, Clock::system())
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn spells(c: &mut Criterion) {
    // As the server does at start-up.
    allocator::keep_freed_memory();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join(".ai/task");
    std::fs::create_dir_all(dir.join("atlassian")).unwrap();
    let workflow = workflow(&dir);
    write(&dir, "plan.md", &plan());
    write(
        &dir,
        "atlassian/refs",
        "https://acme.atlassian.net/browse/APP-1\n",
    );
    let task = "---\ntask_name: criterion 50\n---\n\n# Task\n\n## Steps\n\n1. Do it.\n";
    write(&dir, "task.md", task);

    write(&dir, "state.json", &state("ACHIEVE_TASK_DRAFTING"));
    c.bench_function("workflow lumos", |b| {
        b.iter(|| black_box(workflow.cast(Spell::Lumos, None).unwrap()))
    });

    // Expecto with no new link: reads plan.md and refs, appends a history
    // entry (dropping the oldest) and rewrites state.json; repeatable.
    write(&dir, "state.json", &state("GATHER_EDITING"));
    c.bench_function("workflow expecto (X2)", |b| {
        b.iter(|| black_box(workflow.cast(Spell::Expecto, Some("again")).unwrap()))
    });

    // Accio that integrates a task (A2): archive two files, tick a
    // criterion, write a fresh task.md and state.json.
    let results = "## Achieved\n\nit\n\n## Satisfied Acceptance Criteria\n\n\
                   - Criterion number 50 holds\n";
    c.bench_function("workflow accio (A2: archive, tick, template)", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(dir.join("tasks"));
                write(&dir, "plan.md", &plan());
                write(&dir, "task.md", task);
                write(&dir, "task-results.md", results);
                write(&dir, "state.json", &state("ACHIEVE_TASK_EXECUTED"));
            },
            |()| black_box(workflow.cast(Spell::Accio, None).unwrap()),
            BatchSize::PerIteration,
        )
    });

    // Accio that executes a task (A1): state.json only.
    c.bench_function("workflow accio (A1: state only)", |b| {
        b.iter_batched(
            || write(&dir, "state.json", &state("ACHIEVE_TASK_DRAFTING")),
            |()| black_box(workflow.cast(Spell::Accio, None).unwrap()),
            BatchSize::PerIteration,
        )
    });
}

criterion_group!(benches, spells);
criterion_main!(benches);
