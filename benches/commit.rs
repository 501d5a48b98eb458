// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit`: the reader and formatter of a 1,000-task description
//! (criterion; target ≤ 1 ms), and, per tool and backend, the VCS processes
//! a call spawns and its latency against a floor: the very same commands
//! (argv, environment, stdin, recorded by a wrapper around the VCS binary)
//! run back to back by this program. Target: overhead ≤ 10 %.
//!
//! The process part runs on real git, and on jj when `jj` is on PATH or in
//! `~/.cargo/bin` (else it says it is skipped). It re-runs itself in an
//! isolated HOME so no user configuration of jj or git is read.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::commit::{
    Call, CommitSettings, CommitType, Document, GoalInput, Header, Limits, Planner, Reading, Task,
    TaskInput, VcsChoice, format, read,
};

/// Server code runs on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

/// Runs of each tool and of its floor (`COMMIT_BENCH_RUNS` overrides).
const RUNS: usize = 40;

/// A canonical description of 1,000 tasks: 100 parents of 9 leaves each.
fn thousand_tasks() -> String {
    let tasks = (0..100)
        .map(|p| Task {
            text: format!("Milestone {p}: ship the part of the work numbered {p}"),
            done: false,
            subtasks: (0..9)
                .map(|l| Task {
                    text: format!("Step {l} of milestone {p}: write, test and document it"),
                    done: l % 2 == 0,
                    subtasks: vec![],
                })
                .collect(),
        })
        .collect();
    let document = Document {
        header: Header {
            kind: CommitType::Feat,
            scope: Some("bench".into()),
            breaking: false,
            title: "plan a thousand tasks".into(),
        },
        description: Some("Why: measure the reader.\n\nWhat: 1,000 tasks.".into()),
        constraints: vec![],
        tasks,
        complete: false,
    };
    format(&document)
}

fn reader_and_formatter(c: &mut Criterion) {
    // As the server does at start-up.
    allocator::keep_freed_memory();
    if std::env::var_os("COMMIT_BENCH_ISOLATED").is_some() {
        return; // measured by the parent process already
    }
    let text = thousand_tasks();
    let limits = Limits::default();
    assert!(matches!(read(&text, &limits), Reading::Parsed(_)));
    c.bench_function("commit/read+format 1000 tasks", |b| {
        b.iter(|| match read(black_box(&text), &limits) {
            Reading::Parsed(document) => format(&document),
            other => panic!("{other:?}"),
        })
    });
}

/// The jj binary, if there is one.
fn jj() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("jj")];
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".cargo/bin/jj"));
    }
    candidates.into_iter().find(|jj| {
        Command::new(jj)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The absolute path of `program` (looked up on PATH).
fn which(program: &Path) -> PathBuf {
    if program.components().count() > 1 {
        return std::fs::canonicalize(program).unwrap();
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{} not on PATH", program.display()))
}

/// Runs `command` with `stdin` on its standard input; answers its output.
fn fed(command: &mut Command, stdin: &[u8]) -> std::process::Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `program args` in `dir` and answers its stdout.
fn run(dir: &Path, program: &Path, args: &[&str], stdin: &str) -> String {
    let out = fed(
        Command::new(program).args(args).current_dir(dir),
        stdin.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One recorded VCS process: argv, environment, stdin.
struct Recorded {
    argv: Vec<String>,
    env: Vec<(String, String)>,
    stdin: Vec<u8>,
}

/// A wrapper around `real` that records every run into `log` and then
/// runs `real` with the same arguments, environment and stdin.
fn recording_wrapper(dir: &Path, name: &str, real: &Path, log: &Path) -> PathBuf {
    let path = dir.join(format!("record-{name}"));
    let script = format!(
        "#!/bin/sh\nt=$(date +%s%N)\nprintf '%s\\0' \"$@\" > '{log}'/$t.argv\nenv -0 > '{log}'/$t.env\ncat > '{log}'/$t.stdin\nexec '{real}' \"$@\" < '{log}'/$t.stdin\n",
        log = log.display(),
        real = real.display(),
    );
    std::fs::write(&path, script).unwrap();
    run(dir, Path::new("chmod"), &["+x", path.to_str().unwrap()], "");
    path
}

/// The processes recorded in `log`, in order; empties it.
fn recorded(log: &Path) -> Vec<Recorded> {
    let mut stamps: Vec<String> = std::fs::read_dir(log)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".argv").map(str::to_owned)
        })
        .collect();
    stamps.sort_by_key(|s| s.parse::<u128>().unwrap());
    // NUL-terminated items; an empty argument (git update-ref's "") stays.
    let split = |bytes: Vec<u8>| -> Vec<String> {
        match bytes.strip_suffix(&[0]) {
            Some(items) => items
                .split(|b| *b == 0)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect(),
            None => Vec::new(),
        }
    };
    let processes = stamps
        .iter()
        .map(|t| {
            let file = |ext: &str| std::fs::read(log.join(format!("{t}.{ext}"))).unwrap();
            Recorded {
                argv: split(file("argv")),
                env: split(file("env"))
                    .into_iter()
                    .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.into(), v.into())))
                    .collect(),
                stdin: file("stdin"),
            }
        })
        .collect();
    for entry in std::fs::read_dir(log).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    processes
}

/// The floor: runs `processes` with `real` back to back, as they were run.
fn replay(real: &Path, dir: &Path, processes: &[Recorded]) {
    for process in processes {
        fed(
            Command::new(real)
                .args(&process.argv)
                .env_clear()
                .envs(process.env.iter().map(|(k, v)| (k, v)))
                .current_dir(dir),
            &process.stdin,
        );
    }
}

/// The fastest and the median of `samples`: on a busy machine the fastest
/// run is the one least disturbed, the median the typical one.
fn fastest_and_median(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    (samples[0], samples[samples.len() / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn overhead(tool: Duration, floor: Duration) -> f64 {
    (tool.as_secs_f64() / floor.as_secs_f64() - 1.0) * 100.0
}

/// A repository of one backend with a plan at stage 4 (state A), and how
/// to put state A back after a call that wrote.
struct Bench {
    name: &'static str,
    repo: PathBuf,
    real: PathBuf,
    log: PathBuf,
    wrapper: PathBuf,
    settings: CommitSettings,
    restore: Box<dyn Fn()>,
}

fn goal() -> GoalInput {
    GoalInput {
        kind: CommitType::Feat,
        scope: Some("bench".into()),
        breaking: false,
        title: "measure the commit planner".into(),
    }
}

fn leaf(text: &str) -> TaskInput {
    TaskInput {
        text: text.into(),
        done: false,
        subtasks: vec![],
    }
}

fn plan() -> Vec<TaskInput> {
    vec![
        TaskInput {
            text: "Read the code".into(),
            done: false,
            subtasks: vec![leaf("Read the reader"), leaf("Read the formatter")],
        },
        leaf("Write the bench"),
        leaf("Put the figures in the docs"),
    ]
}

fn settings(vcs: VcsChoice, repo: &Path, program: &Path) -> CommitSettings {
    let mut settings = CommitSettings {
        vcs,
        root: repo.to_path_buf(),
        ..CommitSettings::default()
    };
    match vcs {
        VcsChoice::Jj => settings.jj_bin = program.display().to_string(),
        _ => settings.git_bin = program.display().to_string(),
    }
    settings
}

fn call(runtime: &tokio::runtime::Runtime, planner: &Planner, c: Call) {
    let result = runtime.block_on(planner.call(c.clone()));
    assert_ne!(result.is_error, Some(true), "{}: {result:?}", c.name());
}

impl Bench {
    fn new(
        root: &Path,
        name: &'static str,
        real: PathBuf,
        runtime: &tokio::runtime::Runtime,
    ) -> Self {
        let dir = root.join(name);
        let repo = dir.join("repo");
        let log = dir.join("log");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::create_dir_all(&log).unwrap();
        let git = which(Path::new("git"));
        let vcs = match name {
            "jj" => {
                run(&repo, &real, &["git", "init", "--colocate", "--quiet"], "");
                VcsChoice::Jj
            }
            _ => {
                run(&repo, &git, &["init", "-q", "-b", "main"], "");
                VcsChoice::Git
            }
        };
        std::fs::write(repo.join("work.rs"), "fn main() {}\n").unwrap();
        let wrapper = recording_wrapper(&dir, name, &real, &log);
        let settings = settings(vcs, &repo, &real);
        let planner = Planner::new(settings.clone());
        call(runtime, &planner, Call::SetGoal(goal(), false));
        call(
            runtime,
            &planner,
            Call::SetDescription("Why: figures.\n\nWhat: a bench.".into()),
        );
        call(runtime, &planner, Call::SetPlan(plan()));
        let restore: Box<dyn Fn()> = match vcs {
            VcsChoice::Jj => {
                // The whole repository back to this operation: the commit
                // IDs too, since a write (and the floor's replay of it)
                // describes the commit it read by its ID; a commit rewritten
                // under it would be described again as a divergent copy.
                let (repo, real) = (repo.clone(), real.clone());
                let op = run(
                    &repo,
                    &real,
                    &["op", "log", "--no-graph", "--limit", "1", "-T", "id"],
                    "",
                );
                let op = op.trim().to_owned();
                // And a commit time of its own for the writes that follow:
                // the same description written twice in one second would
                // otherwise be the same commit, which jj refuses to create
                // again ("already exists").
                let restored = std::cell::Cell::new(0_u32);
                Box::new(move || {
                    run(&repo, &real, &["op", "restore", "--quiet", &op], "");
                    let n = restored.get() + 1;
                    restored.set(n);
                    let at = format!(
                        "2001-01-01T{:02}:{:02}:{:02}+00:00",
                        n / 3600 % 24,
                        n / 60 % 60,
                        n % 60
                    );
                    let key = "debug.commit-timestamp";
                    run(&repo, &real, &["config", "set", "--repo", key, &at], "");
                })
            }
            _ => {
                let repo = repo.clone();
                let oid = run(&repo, &git, &["rev-parse", "refs/commit-plan/main"], "");
                let oid = oid.trim().to_owned();
                Box::new(move || {
                    run(
                        &repo,
                        &git,
                        &["update-ref", "refs/commit-plan/main", &oid],
                        "",
                    );
                })
            }
        };
        Self {
            name,
            repo,
            real,
            log,
            wrapper,
            settings,
            restore,
        }
    }

    /// Measures `c`: its processes, its median latency, the floor's.
    fn measure(&self, runtime: &tokio::runtime::Runtime, c: &Call, writes: bool) {
        let recording = settings(self.settings.vcs, &self.repo, &self.wrapper);
        call(runtime, &Planner::new(recording), c.clone());
        let processes = recorded(&self.log);
        if std::env::var_os("COMMIT_BENCH_SHOW").is_some() {
            for process in &processes {
                println!("  {} {}: {}", self.name, c.name(), process.argv.join(" "));
            }
        }
        if writes {
            (self.restore)();
        }
        let planner = Planner::new(self.settings.clone());
        let runs = std::env::var("COMMIT_BENCH_RUNS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(RUNS);
        let mut tool = Vec::with_capacity(runs);
        let mut floor = Vec::with_capacity(runs);
        for _ in 0..runs {
            let start = Instant::now();
            call(runtime, &planner, c.clone());
            tool.push(start.elapsed());
            if writes {
                (self.restore)();
            }
            let start = Instant::now();
            replay(&self.real, &self.repo, &processes);
            floor.push(start.elapsed());
            if writes {
                (self.restore)();
            }
        }
        let (tool_min, tool_median) = fastest_and_median(tool);
        let (floor_min, floor_median) = fastest_and_median(floor);
        println!(
            "commit/{:<3} {:<20} {} processes   fastest {:>6.2} ms (floor {:>6.2}, {:>+5.1} %)   median {:>6.2} ms (floor {:>6.2}, {:>+5.1} %)",
            self.name,
            c.name(),
            processes.len(),
            ms(tool_min),
            ms(floor_min),
            overhead(tool_min, floor_min),
            ms(tool_median),
            ms(floor_median),
            overhead(tool_median, floor_median),
        );
    }
}

fn processes(_c: &mut Criterion) {
    if !std::env::args().any(|a| a == "--bench") {
        return; // `cargo test --benches`: no processes
    }
    if std::env::var_os("COMMIT_BENCH_ISOLATED").is_none() {
        // Re-run this bench in an isolated HOME: no user VCS configuration.
        let home = tempfile::tempdir().unwrap();
        let at = |name: &str| home.path().join(name);
        std::fs::write(at("gitconfig"), "").unwrap();
        std::fs::write(at("jjconfig.toml"), "").unwrap();
        let status = Command::new(std::env::current_exe().unwrap())
            .args(std::env::args_os().skip(1))
            .env("COMMIT_BENCH_ISOLATED", "1")
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", at(".config"))
            .env("JJ_CONFIG", at("jjconfig.toml"))
            .env("GIT_CONFIG_GLOBAL", at("gitconfig"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("JJ_USER", "Bench")
            .env("JJ_EMAIL", "bench@example.com")
            .env(
                "COMMIT_BENCH_REAL_HOME",
                std::env::var_os("HOME").unwrap_or_default(),
            )
            .status()
            .unwrap();
        assert!(status.success());
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let root = tempfile::tempdir().unwrap();
    let mut benches = vec![Bench::new(
        root.path(),
        "git",
        which(Path::new("git")),
        &runtime,
    )];
    let real_home = std::env::var_os("COMMIT_BENCH_REAL_HOME").unwrap_or_default();
    let jj = jj().or_else(|| {
        let installed = PathBuf::from(real_home).join(".cargo/bin/jj");
        installed.is_file().then_some(installed)
    });
    match jj {
        Some(jj) => benches.push(Bench::new(root.path(), "jj", which(&jj), &runtime)),
        None => println!("commit/jj skipped: no jj (cargo install --locked jj-cli@0.45.1)"),
    }
    let calls = [
        (Call::Gather, false),
        (Call::SetDescription("Why: other figures.".into()), true),
        (Call::SetPlan(vec![leaf("One step")]), true),
        (Call::Mark("1.1".into(), true), true),
        (Call::Verify(false, None), false),
    ];
    for bench in &benches {
        for (c, writes) in &calls {
            bench.measure(&runtime, c, *writes);
        }
    }
}

criterion_group!(benches, reader_and_formatter, processes);
criterion_main!(benches);
