// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `plans` on a 2,000-task plan: every MCP tool call as the server
//! runs it (arguments checked, file read, parsed, edited, validated,
//! written, JSON made), the pure parse and validate, and one invocation of
//! the release `long-term-plan` binary end to end (printed as a median,
//! since criterion cannot sample a child process well). Targets: 1 ms per
//! call, 5 ms per CLI invocation.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::plans::{PlanFiles, call, parse, validate};
use serde_json::{Value, json};

/// Plan calls run on the allocator of `long-term-plan-mcp`.
#[global_allocator]
static ALLOCATOR: allocator::LargeResults = allocator::LargeResults;

const TASKS: usize = 2_000;

/// A plan of `TASKS` tasks: 20 sections of 100, every tenth with two
/// children, every seventh with a body.
fn plan_text() -> String {
    let mut text = String::from(
        "<!-- long-term-plan:format=v1 -->\n\n# Benchmark plan\n\n> A plan of 2,000 tasks.\n\n",
    );
    let mut n = 0;
    for section in 0..20 {
        text.push_str(&format!("## Milestone {section}\n\n"));
        while n < (section + 1) * TASKS / 20 {
            let symbol = [" ", "*", "√"][n % 3];
            let indent = if n % 10 == 1 || n % 10 == 2 { "  " } else { "" };
            text.push_str(&format!(
                "{indent}- [{symbol}] Task number {n} of the benchmark <!-- long-term-plan:id=t_{n:05} -->\n"
            ));
            if n % 7 == 0 {
                text.push_str(&format!("{indent}  > Notes for task {n}\n{indent}  >\n{indent}  > - [ ] a checklist item\n"));
            }
            n += 1;
        }
        text.push('\n');
    }
    text
}

fn args(value: Value) -> Option<serde_json::Map<String, Value>> {
    value.as_object().cloned()
}

fn tool_calls(c: &mut Criterion) {
    // As the servers do at start-up.
    allocator::keep_freed_memory();
    let dir = tempfile::tempdir().unwrap();
    let plans_dir = dir.path().join(".long-term-plan");
    std::fs::create_dir_all(&plans_dir).unwrap();
    let text = plan_text();
    let file = plans_dir.join("big.md");
    std::fs::write(&file, &text).unwrap();
    let plans = PlanFiles::new(dir.path(), ".long-term-plan");
    assert_eq!(parse(&text).plan.unwrap().tasks.len(), TASKS);

    let mut group = c.benchmark_group("plans_2000_tasks");
    group.bench_function("parse", |b| b.iter(|| black_box(parse(&text))));
    group.bench_function("validate", |b| b.iter(|| black_box(validate(&text))));

    let read_calls = [
        ("plan.list", json!({})),
        ("plan.get_tree", json!({"planId": "big"})),
        (
            "plan.get_flat_bodies",
            json!({"planId": "big", "view": "flat", "includeTaskBodies": true}),
        ),
        ("task.get", json!({"planId": "big", "taskId": "t_01000"})),
        ("task.get_default", json!({"planId": "big"})),
        (
            "task.search",
            json!({"planId": "big", "query": "number 19", "limit": 500}),
        ),
        ("doc.validate", json!({"planId": "big"})),
    ];
    for (label, arguments) in read_calls {
        let name = label.split('_').next().unwrap();
        let arguments = args(arguments);
        group.bench_function(label, |b| {
            b.iter(|| {
                let result = call(name, &plans, arguments.as_ref(), true).unwrap();
                assert_eq!(result.is_error, Some(false));
                black_box(result)
            })
        });
    }

    // Writes start from the same file every time (restored outside the timing).
    let restore = || std::fs::write(&file, &text).unwrap();
    let write_calls = [
        (
            "task.add_section",
            json!({"planId": "big", "title": "New task", "sectionPath": ["Milestone 10"]}),
        ),
        (
            "task.add_child",
            json!({"planId": "big", "title": "New child", "parentTaskId": "t_01000", "bodyMarkdown": "why\nhow"}),
        ),
        (
            "task.update_status",
            json!({"planId": "big", "taskId": "t_01002", "status": "doing"}),
        ),
        (
            "task.update_title_body",
            json!({"planId": "big", "taskId": "t_01003", "title": "Renamed", "bodyMarkdown": "new body"}),
        ),
        ("task.delete", json!({"planId": "big", "taskId": "t_01000"})),
        (
            "plan.update",
            json!({"planId": "big", "title": "Renamed plan", "bodyMarkdown": "new plan body"}),
        ),
        (
            "doc.repair",
            json!({"planId": "big", "actions": ["addFormatHeader", "addMissingIds"]}),
        ),
    ];
    for (label, arguments) in write_calls {
        let name = label.split('_').next().unwrap();
        let arguments = args(arguments);
        group.bench_function(label, |b| {
            b.iter_batched(
                restore,
                |()| {
                    let result = call(name, &plans, arguments.as_ref(), true).unwrap();
                    assert_eq!(result.is_error, Some(false), "{label}: {result:?}");
                    black_box(result)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

/// Runs the release CLI `runs` times and prints the median and 95th percentile.
fn time_cli(label: &str, dir: &Path, runs: usize, args: &[&str], before: impl Fn()) {
    let bin = env!("CARGO_BIN_EXE_long-term-plan");
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    for _ in 0..runs {
        before();
        let start = Instant::now();
        let output = Command::new(bin)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        times.push(start.elapsed());
        assert!(
            output.status.success(),
            "{label}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "cli/{label:<28} median {:.2} ms   p95 {:.2} ms   ({runs} runs)",
        ms(times[runs / 2]),
        ms(times[runs * 95 / 100])
    );
}

fn cli(_c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let plans_dir = dir.path().join(".long-term-plan");
    std::fs::create_dir_all(&plans_dir).unwrap();
    let text = plan_text();
    let file = plans_dir.join("big.md");
    std::fs::write(&file, &text).unwrap();
    let restore = || std::fs::write(&file, &text).unwrap();
    let runs = 200;
    time_cli("--help", dir.path(), runs, &["--help"], || {});
    time_cli("plan list", dir.path(), runs, &["plan", "list"], || {});
    time_cli(
        "plan get big",
        dir.path(),
        runs,
        &["plan", "get", "big"],
        || {},
    );
    time_cli(
        "task next big",
        dir.path(),
        runs,
        &["task", "next", "big"],
        || {},
    );
    time_cli(
        "task search big",
        dir.path(),
        runs,
        &["task", "search", "big", "--query", "number 19"],
        || {},
    );
    time_cli(
        "task add big",
        dir.path(),
        runs,
        &[
            "task",
            "add",
            "big",
            "--title",
            "New",
            "--section",
            "Milestone 10",
        ],
        restore,
    );
    time_cli(
        "task done big t_01002",
        dir.path(),
        runs,
        &["task", "done", "big", "t_01002"],
        restore,
    );
}

criterion_group!(benches, tool_calls, cli);
criterion_main!(benches);
