// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit`'s VCS processes and locks under abuse, through the real
//! binary: a jj lock file that another process never lets go of (hundreds
//! of calls give up on it and leave no thread behind), a VCS that prints
//! without end (killed at the output cap, the server's memory bounded), a
//! wrapper script whose own child outlives it (killed with its process
//! group on a timeout), and shutdown while a VCS runs (a call finishes
//! within the grace period; after it every VCS process is killed), and how
//! many git processes a call spawns (a read one, a write three). Every
//! wait is for a state (a file, a log line, a reply, a process gone); the
//! bounds on the waits only turn a hang into a failure.

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::vcs::{Backend, Repo, pairs};
use crate::common::{self, Client, HttpServer, call, command, ok, stdio_client_with_pid, try_call};

const HALT: &str = "Stop all work and tell the user; do not continue until this is fixed.";

/// How long a step that should happen at once may take before the test
/// calls it a hang: generous, for a busy machine.
const HANG: Duration = Duration::from_secs(60);

/// A field of `/proc/{pid}/status` (`Threads`, `VmHWM` in kB), as a number.
fn proc_status(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .unwrap_or_else(|| panic!("no {field} in {status}"));
    line.trim().trim_end_matches(" kB").trim().parse().unwrap()
}

/// Whether process `pid` runs (a zombie, waiting for its parent, does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit_once(") ")?.1.chars().next())
        .is_some_and(|state| state != 'Z')
}

/// Waits until none of `pids` runs; panics after [`HANG`].
async fn all_gone(pids: &[u32], what: &str) {
    let deadline = Instant::now() + HANG;
    while let Some(pid) = pids.iter().find(|pid| alive(**pid)) {
        assert!(
            Instant::now() < deadline,
            "{what}: process {pid} still runs"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The two process IDs a wrapper wrote to `file` (its own and its child's),
/// once the file is there.
async fn pids_in(file: &Path) -> [u32; 2] {
    let deadline = Instant::now() + HANG;
    loop {
        if let Ok(text) = std::fs::read_to_string(file) {
            let pids: Vec<u32> = text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
            return [pids[0], pids[1]];
        }
        assert!(Instant::now() < deadline, "the wrapper never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// An executable `#!/bin/sh` script in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// A jj stand-in that starts `sleep 1000`, writes its own and the sleep's
/// process IDs to `pids`, and waits; once `release` exists (never, if it
/// is `None`) it answers like jj on an empty change.
fn wrapper_jj(dir: &Path, pids: &Path, release: Option<&Path>) -> String {
    let pids = pids.display();
    let wait = match release {
        Some(release) => format!(
            "while [ ! -e '{}' ]; do sleep 0.01; done\nkill $child\n",
            release.display()
        ),
        None => "wait\n".to_owned(),
    };
    script(
        dir,
        "wrapper-jj",
        &format!(
            "case \"$4 $6\" in\n\
             'log @')\n\
             sleep 1000 &\n\
             child=$!\n\
             echo \"$$ $child\" > '{pids}.tmp' && mv '{pids}.tmp' '{pids}'\n\
             {wait}\
             printf 'abcdefabcdef 0123abcd false false\\n'\n\
             ;;\n\
             esac"
        ),
    )
}

/// A plain directory (no repository) as `[commit] root`, for stand-ins.
fn plain() -> Repo {
    let repo = Repo::new(Backend::Git, None);
    std::fs::remove_dir_all(repo.path.join(".git")).unwrap();
    repo
}

/// `repo`'s server environment with `settings` added.
fn env_with(repo: &Repo, settings: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env = repo.server_env();
    env.extend(
        settings
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    env
}

#[tokio::test]
async fn commit_a_stuck_jj_lock_leaves_no_thread_behind_and_the_board_answers() {
    const CALLS: usize = 600;
    const SESSIONS: usize = 4;
    let repo = plain();
    std::fs::create_dir(repo.path.join(".jj")).unwrap();
    let lock = repo.path.join(".jj/planning-mcp-server.lock");
    // Another process's lock that is never let go of: the test's own
    // open file description conflicts with the server's.
    let holder = File::create(&lock).unwrap();
    holder.lock().unwrap();
    let env = env_with(
        &repo,
        &[
            ("PLANNING_COMMIT_LOCK_TIMEOUT_MS", "20"),
            ("PLANNING_COMMIT_JJ_BIN", "/nonexistent/jj"),
        ],
    );
    let server =
        HttpServer::start_in(&repo.dir, &["--toolsets", "planning,commit"], &pairs(&env)).await;
    let pid = server.pid();
    let shown = lock.display();
    let expected = format!(
        "CRITICAL: the commit planner cannot use jj. {HALT}\n\
         Command: lock {shown}\n\
         Status: another process held {shown} for more than 0.02 s\n\
         Stderr: (empty)\n\
         Fix: another planning-mcp-server may be stuck on this repository: stop it; or make .jj/ writable; or raise [commit] lock_timeout_ms."
    );
    let started = Instant::now();
    let mut sessions = Vec::new();
    for _ in 0..SESSIONS {
        let client = server.client().await;
        let expected = expected.clone();
        sessions.push(tokio::spawn(async move {
            let mut most_threads = 0;
            for n in 0..CALLS / SESSIONS {
                let (is_error, text) = call(&client, "gather_requirements", json!({})).await;
                assert!(is_error, "{text}");
                assert_eq!(text, expected);
                if n % 10 == 0 {
                    most_threads = most_threads.max(proc_status(pid, "Threads"));
                }
            }
            client.cancel().await.unwrap();
            most_threads
        }));
    }
    let most_threads = tokio::time::timeout(HANG, async {
        let mut most = 0;
        for session in sessions {
            most = most.max(session.await.unwrap());
        }
        most
    })
    .await
    .expect("600 timed-out lock waits of 20 ms finish within a minute");
    let threads = proc_status(pid, "Threads");
    eprintln!(
        "{CALLS} timed-out lock waits in {:.1} s: at most {most_threads} threads, {threads} after",
        started.elapsed().as_secs_f64()
    );
    // Before, each timed-out wait left a thread blocked on the lock: over
    // 512 threads, and then no blocking thread left for anything else.
    assert!(
        most_threads.max(threads) <= 64,
        "{most_threads} threads during, {threads} after"
    );
    let page = tokio::time::timeout(
        HANG,
        reqwest::get(format!("{}/boards/default.json", server.base())),
    )
    .await
    .expect("the board's page still answers")
    .unwrap();
    assert_eq!(page.status(), 200);
    // The board's tools too.
    let client = server.client().await;
    ok(&client, "get_tasks", json!({})).await;
    // And the lock, once let go of, is taken.
    holder.unlock().unwrap();
    let (is_error, text) = call(&client, "gather_requirements", json!({})).await;
    assert!(is_error, "{text}");
    assert!(
        text.contains("Command: /nonexistent/jj --no-pager --color never log"),
        "{text}"
    );
    client.cancel().await.unwrap();
}

/// A stdio client and the server's process ID.
async fn start(repo: &Repo, settings: &[(&str, &str)]) -> (Client, u32) {
    let env = env_with(repo, settings);
    stdio_client_with_pid(command(&repo.dir), &["--toolsets", "commit"], &pairs(&env)).await
}

#[tokio::test]
async fn commit_a_vcs_that_prints_without_end_is_killed_at_the_cap() {
    let repo = plain();
    let dir = repo.dir.path();
    for (vcs, program, body, stream) in [
        ("git", "yes-git", "exec yes", "stdout"),
        ("jj", "yes-jj", "exec yes >&2", "stderr"),
    ] {
        let program = script(dir, program, body);
        let bin = format!("PLANNING_COMMIT_{}_BIN", vcs.to_uppercase());
        let (client, pid) = start(
            &repo,
            &[
                ("PLANNING_COMMIT_VCS", vcs),
                (&bin, &program),
                // Long enough that the cap, not the timeout, ends the command.
                ("PLANNING_COMMIT_TIMEOUT_SECS", "600"),
            ],
        )
        .await;
        let (is_error, text) = call(&client, "gather_requirements", json!({})).await;
        assert!(is_error, "{text}");
        let command = match vcs {
            "git" => format!("{program} symbolic-ref --quiet HEAD"),
            _ => format!(
                "{program} --no-pager --color never log -r @ --no-graph -T 'self.change_id() ++ \" \" ++ self.commit_id() ++ \" \" ++ self.divergent() ++ \" \" ++ self.conflict() ++ \"\\n\" ++ self.description()'"
            ),
        };
        assert_eq!(
            text,
            format!(
                "CRITICAL: the commit planner cannot use {vcs}. {HALT}\n\
                 Command: {command}\n\
                 Status: its {stream} exceeded 16777216 bytes (16 MiB) and it was killed\n\
                 Stderr: (empty)\n\
                 Fix: check that [commit] {vcs}_bin names {vcs} itself and not a program that prints without end; if the change really lists that many files, commit or ignore some of them."
            )
        );
        // The most memory the server ever held: the cap and its copies,
        // not everything the program printed (gigabytes within seconds).
        let peak_kb = proc_status(pid, "VmHWM");
        eprintln!("{vcs} printing without end: the server's peak memory {peak_kb} kB");
        assert!(peak_kb < 256 * 1024, "{peak_kb} kB");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn commit_a_timeout_kills_a_wrappers_own_child_too() {
    let repo = plain();
    let dir = repo.dir.path();
    let pids = dir.join("pids");
    let jj = wrapper_jj(dir, &pids, None);
    let (client, _) = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", &jj),
            ("PLANNING_COMMIT_TIMEOUT_SECS", "1"),
        ],
    )
    .await;
    // Retried until a call that timed out had started the wrapper's child
    // (a busy machine may take longer than the timeout to start it).
    let mut attempts = 0;
    let [wrapper, child] = loop {
        attempts += 1;
        assert!(
            attempts <= 20,
            "the wrapper never started within the timeout"
        );
        let _ = std::fs::remove_file(&pids);
        let (is_error, text) = call(&client, "gather_requirements", json!({})).await;
        assert!(is_error, "{text}");
        assert!(
            text.contains("\nStatus: timed out after 1 s and was killed\n"),
            "{text}"
        );
        if pids.exists() {
            break pids_in(&pids).await;
        }
    };
    // Before, only the wrapper was killed and its `sleep 1000` lived on.
    all_gone(&[wrapper, child], "after the timeout").await;
    client.cancel().await.unwrap();
}

/// An HTTP server on `repo` with the wrapper as jj, and the grace period
/// `grace`; a call started on it; the wrapper's process IDs.
async fn http_call_in_flight(
    repo: &Repo,
    grace: &str,
    release: Option<&Path>,
) -> (
    HttpServer,
    tokio::task::JoinHandle<Option<(bool, String)>>,
    [u32; 2],
) {
    let dir = repo.dir.path();
    let pids = dir.join("pids");
    let jj = wrapper_jj(dir, &pids, release);
    let env = env_with(
        repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", &jj),
            ("PLANNING_COMMIT_TIMEOUT_SECS", "600"),
            ("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", grace),
        ],
    );
    let server = HttpServer::start_in(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    let client = server.client().await;
    let call = tokio::spawn(async move {
        try_call(&client, "gather_requirements", json!({}))
            .await
            .ok()
    });
    let running = pids_in(&pids).await;
    (server, call, running)
}

/// Waits until the server logged that it is shutting down.
async fn shutting_down(server: &HttpServer) {
    let deadline = Instant::now() + HANG;
    while !server
        .stderr
        .lock()
        .iter()
        .any(|l| l.contains("shutting down"))
    {
        assert!(Instant::now() < deadline, "{:?}", server.stderr.lock());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn commit_shutdown_lets_a_vcs_call_finish_within_the_grace_period() {
    let repo = plain();
    let release = repo.dir.path().join("release");
    let (mut server, call, [wrapper, child]) =
        http_call_in_flight(&repo, "600", Some(&release)).await;
    common::signal(server.pid(), "TERM");
    shutting_down(&server).await;
    // The VCS finishes after the signal, within the grace period.
    std::fs::write(&release, "").unwrap();
    let (is_error, text) = tokio::time::timeout(HANG, call)
        .await
        .expect("the call is answered")
        .unwrap()
        .expect("the call in flight was answered, not dropped");
    assert!(!is_error, "{text}");
    assert!(text.starts_with("Read the plan."), "{text}");
    let status = server.wait().await;
    assert!(status.success(), "{status:?}");
    all_gone(&[wrapper, child], "after the server exited").await;
    let log = server.stderr.lock().join("\n");
    assert!(!log.contains("killed them"), "{log}");
}

#[tokio::test]
async fn commit_shutdown_kills_the_vcs_and_its_children_after_the_grace_period() {
    let repo = plain();
    let (mut server, call, [wrapper, child]) = http_call_in_flight(&repo, "0.5", None).await;
    common::signal(server.pid(), "TERM");
    let status = server.wait().await;
    assert!(status.success(), "{status:?}");
    // Before, the server exited and left the VCS and its child running.
    all_gone(&[wrapper, child], "after the server exited").await;
    let log = server.stderr.lock().join("\n");
    assert!(
        log.contains("programs still running after the grace period; killed them and their process groups killed=1"),
        "{log}"
    );
    call.abort();
}

#[tokio::test]
async fn commit_shutdown_over_stdio_leaves_no_vcs_process_behind() {
    let repo = plain();
    let dir = repo.dir.path();
    let pids = dir.join("pids");
    let jj = wrapper_jj(dir, &pids, None);
    let (client, pid) = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", &jj),
            ("PLANNING_COMMIT_TIMEOUT_SECS", "600"),
            ("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "0.5"),
        ],
    )
    .await;
    let call = tokio::spawn(async move {
        let _ = try_call(&client, "gather_requirements", json!({})).await;
        client
    });
    let [wrapper, child] = pids_in(&pids).await;
    common::signal(pid, "TERM");
    all_gone(&[pid], "the server").await;
    all_gone(&[wrapper, child], "after the server exited").await;
    call.abort();
}

/// The git commands a wrapper recorded in `log` since the last look, one
/// line each (`cat-file --batch-command`), and the log emptied.
fn recorded(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    std::fs::write(log, "").unwrap();
    text.lines().map(str::to_owned).collect()
}

#[tokio::test]
async fn commit_git_reads_in_at_most_two_processes_and_writes_in_three() {
    let repo = Repo::new(Backend::Git, None);
    repo.git(&["commit", "-q", "--allow-empty", "-m", "init"]);
    let dir = repo.dir.path();
    let log = dir.join("git.log");
    let git = script(
        dir,
        "recording-git",
        &format!("echo \"$*\" >> '{}'\nexec git \"$@\"", log.display()),
    );
    let (client, _) = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "git"),
            ("PLANNING_COMMIT_GIT_BIN", &git),
        ],
    )
    .await;
    let read = ["cat-file --batch-command"];
    let files = "status --porcelain=v1 --untracked-files=all";
    let write = |tool: &str| {
        vec![
            "cat-file --batch-command".to_owned(),
            "unpack-objects -q".to_owned(),
            format!("update-ref -m planning-mcp-server: {tool} refs/commit-plan/main"),
        ]
    };
    // What each call ran, the object IDs of update-ref left out.
    let ran = |log: &Path| -> Vec<String> {
        recorded(log)
            .into_iter()
            .map(|line| match line.split_once(" refs/commit-plan/main") {
                Some((head, _)) => format!("{head} refs/commit-plan/main"),
                None => line,
            })
            .collect()
    };
    ok(&client, "gather_requirements", json!({})).await;
    assert_eq!(ran(&log), [read[0], files]);
    let goal = json!({"goal": {"type": "feat", "title": "fewer processes"}});
    ok(&client, "set_overarching_goal", goal).await;
    assert_eq!(ran(&log), write("set_overarching_goal"));
    ok(&client, "set_plan", json!({"plan": [{"text": "One step"}]})).await;
    assert_eq!(ran(&log), write("set_plan"));
    ok(&client, "mark_task", json!({"task_id": "1"})).await;
    assert_eq!(ran(&log), write("mark_task"));
    // Finished: one more read, whether the plan was committed.
    ok(&client, "verify_plan", json!({})).await;
    let verified = ran(&log);
    assert!(verified.len() <= 3, "{verified:?}");
    assert_eq!(verified[0], read[0]);
    // The plan as git holds it: three versions and the plan, every object sound.
    assert_eq!(repo.git_plan_versions("main").len(), 3);
    repo.git(&["fsck", "--strict", "--no-dangling"]);
    client.cancel().await.unwrap();
}
