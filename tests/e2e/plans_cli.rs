// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `long-term-plan` binary end to end: scripted sessions on temporary
//! plan directories, files compared byte for byte, golden help and JSON,
//! exit codes, and two processes writing one plan at once.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_long-term-plan");
const H: &str = "<!-- long-term-plan:format=v1 -->";

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> Value {
    let out = run_in(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("}\n"), "{text}");
    serde_json::from_str(&text).unwrap()
}

fn fail(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.starts_with("long-term-plan — long-term plan CLI"),
        "help on stdout"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    stderr
        .strip_suffix("\n\n")
        .expect("message and a blank line")
        .to_owned()
}

fn plan_file(dir: &Path, id: &str) -> String {
    std::fs::read_to_string(dir.join(".long-term-plan").join(format!("{id}.md"))).unwrap()
}

#[test]
fn help_is_golden_and_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["--help"]);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let cwd = std::fs::canonicalize(dir.path()).unwrap();
    let help = String::from_utf8(out.stdout)
        .unwrap()
        .replace(&cwd.display().to_string(), "<cwd>");
    insta::assert_snapshot!("long_term_plan_help", help);
    assert_eq!(run_in(dir.path(), &[]).status.code(), Some(0));
}

#[test]
fn a_scripted_session_writes_exact_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let created = ok(d, &["plan", "create", "demo", "--title", "Demo plan"]);
    assert_eq!(created["path"], ".long-term-plan/demo.md");
    assert_eq!(
        plan_file(d, "demo"),
        format!("{H}\n\n# Demo plan\n\n## Inbox\n\n")
    );

    let id = |v: Value| v["taskId"].as_str().unwrap().to_owned();
    let a = id(ok(
        d,
        &[
            "task",
            "add",
            "demo",
            "--title",
            "Alpha",
            "--section",
            "Inbox",
        ],
    ));
    let b = id(ok(
        d,
        &[
            "task",
            "add",
            "demo",
            "--title",
            "Beta",
            "--parent",
            &a,
            "--body",
            "how\n\n- [ ] step",
        ],
    ));
    let c = id(ok(
        d,
        &[
            "task", "add", "demo", "--title", "Gamma", "--before", &a, "--status", "doing",
        ],
    ));
    let m = id(ok(
        d,
        &[
            "task",
            "add",
            "demo",
            "--title",
            "Later",
            "--section",
            "Milestones/Q3",
        ],
    ));
    ok(d, &["task", "done", "demo", &b]);
    ok(d, &["task", "update", "demo", &a, "--title", "Alpha prime"]);
    let etag = ok(d, &["plan", "get", "demo"])["etag"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(
        d,
        &[
            "plan",
            "update",
            "demo",
            "--body",
            "Why we do this",
            "--if-match",
            &etag,
        ],
    );
    assert_eq!(
        plan_file(d, "demo"),
        format!(
            "{H}\n\n# Demo plan\n\n> Why we do this\n## Inbox\n\n\
             - [*] Gamma <!-- long-term-plan:id={c} -->\n\
             - [ ] Alpha prime <!-- long-term-plan:id={a} -->\n\
             \x20 - [√] Beta <!-- long-term-plan:id={b} -->\n\
             \x20   > how\n\
             \x20   >\n\
             \x20   > - [ ] step\n\
             \n## Milestones\n### Q3\n\n\
             - [ ] Later <!-- long-term-plan:id={m} -->\n"
        )
    );
    // Default targeting, conflicts, and a stale etag.
    assert_eq!(ok(d, &["task", "next", "demo"])["task"]["id"], c.as_str());
    assert_eq!(
        fail(
            d,
            &[
                "task",
                "update",
                "demo",
                &a,
                "--status",
                "done",
                "--if-match",
                &etag
            ]
        ),
        format!(
            "CONFLICT: etag mismatch (current={}, ifMatch={etag})",
            ok(d, &["plan", "get", "demo"])["etag"].as_str().unwrap()
        )
    );
    assert_eq!(
        fail(d, &["task", "update", "demo", &c, "--status", "doing"]),
        "Failed to update status (task line not in expected format)"
    );
    ok(d, &["task", "delete", "demo", &a]);
    let hits = ok(d, &["task", "search", "demo", "--query", "ATE"]);
    assert_eq!(hits["hits"][0]["taskId"], m.as_str());
    let listed = ok(d, &["plan", "list"]);
    assert_eq!(
        listed["plans"][0]["stats"].to_string(),
        r#"{"doing":1,"done":0,"todo":1,"total":2}"#
    );
    let validated = ok(d, &["doc", "validate", "demo"]);
    assert_eq!(validated.to_string(), r#"{"errors":[],"warnings":[]}"#);
}

#[test]
fn crlf_and_missing_final_newline_survive_edits() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".long-term-plan")).unwrap();
    let text = format!(
        "{H}\r\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->\r\n- [ ] b <!-- long-term-plan:id=b -->"
    );
    std::fs::write(d.join(".long-term-plan/p.md"), &text).unwrap();
    ok(d, &["task", "start", "p", "b"]);
    assert_eq!(plan_file(d, "p"), text.replace("[ ] b", "[*] b"));
    ok(d, &["task", "update", "p", "a", "--body", "x\ny"]);
    assert_eq!(
        plan_file(d, "p"),
        format!(
            "{H}\r\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->\r\n  > x\r\n  > y\r\n- [*] b <!-- long-term-plan:id=b -->"
        )
    );
    let repaired = ok(d, &["doc", "repair", "p", "--actions", "addFormatHeader"]);
    assert_eq!(
        repaired["applied"].to_string(),
        r#"{"addFormatHeader":false,"addMissingIds":0}"#
    );
    assert!(
        plan_file(d, "p").ends_with("-->\r\n"),
        "repair always adds the final EOL"
    );
}

#[test]
fn json_outputs_are_golden() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".long-term-plan")).unwrap();
    let text = format!(
        "{H}\n\n# Golden\n\n> plan body\n\n## Now\n- [*] Ship it <!-- long-term-plan:id=t_ship -->\n  > with care\n  - [ ] Test ÄÖ <!-- long-term-plan:id=t_test -->\n## Later\n- [√] Done thing <!-- long-term-plan:id=t_done -->\n- [x] broken\n"
    );
    std::fs::write(d.join(".long-term-plan/golden.md"), &text).unwrap();
    let mut outputs = String::new();
    for args in [
        &["plan", "get", "golden"][..],
        &["plan", "get", "golden", "--view=flat"],
        &["task", "get", "golden"],
        &["task", "get", "golden", "t_test"],
        &[
            "task", "search", "golden", "--query", "t", "--status", "todo",
        ],
        &["doc", "validate", "golden"],
        &["plan", "list"],
    ] {
        let out = run_in(d, args);
        outputs.push_str(&format!("$ long-term-plan {}\n", args.join(" ")));
        outputs.push_str(&String::from_utf8(out.stdout).unwrap());
    }
    insta::assert_snapshot!("long_term_plan_json", outputs);
    // The document has an invalid line: every write is refused, bytes unchanged.
    assert_eq!(
        fail(d, &["task", "done", "golden", "t_test"]),
        "Edit produced invalid document: Invalid status symbol: \"x\" (expected ' ', '*', or '√')"
    );
    assert_eq!(
        std::fs::read_to_string(d.join(".long-term-plan/golden.md")).unwrap(),
        text
    );
}

#[test]
fn body_file_is_relative_to_the_working_directory_and_stdin_works() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(dir.path().join("body.md"), "from file").unwrap();
    let d = dir.path();
    ok(
        d,
        &[
            "--root",
            "root",
            "plan",
            "create",
            "p",
            "--title",
            "P",
            "--template",
            "empty",
        ],
    );
    ok(
        d,
        &[
            "--root=root",
            "plan",
            "update",
            "p",
            "--body-file",
            "body.md",
        ],
    );
    let mut child = Command::new(BIN)
        .args([
            "--root",
            "root",
            "task",
            "add",
            "p",
            "--title",
            "T",
            "--body-stdin",
        ])
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"from stdin")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let id: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = std::fs::read_to_string(root.join(".long-term-plan/p.md")).unwrap();
    assert_eq!(
        text,
        format!(
            "{H}\n\n# P\n\n> from file\n- [ ] T <!-- long-term-plan:id={} -->\n  > from stdin\n",
            id["taskId"].as_str().unwrap()
        )
    );
}

#[test]
fn two_processes_adding_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    ok(&d, &["plan", "create", "race", "--title", "Race"]);
    const EACH: usize = 40;
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let d = d.clone();
            std::thread::spawn(move || {
                for i in 0..EACH {
                    let title = format!("writer {w} task {i}");
                    let out = run_in(
                        &d,
                        &[
                            "task",
                            "add",
                            "race",
                            "--title",
                            &title,
                            "--section",
                            "Inbox",
                        ],
                    );
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    let text = plan_file(&d, "race");
    for w in 0..2 {
        for i in 0..EACH {
            assert!(
                text.contains(&format!("writer {w} task {i} <!--")),
                "lost writer {w} task {i}"
            );
        }
    }
    let plan = ok(&d, &["plan", "get", "race", "--view", "flat"]);
    assert_eq!(plan["plan"]["stats"]["total"], 2 * EACH);
}

#[cfg(unix)]
#[test]
fn symlinks_do_not_leak_outside_the_root() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".long-term-plan")).unwrap();
    let secret = format!("{H}\n# Secret\n- [ ] s <!-- long-term-plan:id=s -->\n");
    std::fs::write(outside.path().join("secret.md"), &secret).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.md"),
        d.join(".long-term-plan/leak.md"),
    )
    .unwrap();
    for args in [&["plan", "get", "leak"][..], &["task", "done", "leak", "s"]] {
        let message = fail(d, args);
        assert!(
            message.starts_with("Resolved path escapes rootDir: "),
            "{message}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(outside.path().join("secret.md")).unwrap(),
        secret
    );
    assert_eq!(
        ok(d, &["plan", "list"])["plans"].as_array().unwrap().len(),
        0
    );
}

#[test]
fn deeply_nested_plans_do_not_overflow_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".long-term-plan")).unwrap();
    let mut text = format!("{H}\n");
    for depth in 0..1500 {
        text.push_str(&format!(
            "{}- [ ] t <!-- long-term-plan:id=t{depth} -->\n",
            " ".repeat(depth)
        ));
    }
    std::fs::write(d.join(".long-term-plan/deep.md"), &text).unwrap();
    let out = run_in(d, &["plan", "get", "deep"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.ends_with(b"}\n"));
    let out = run_in(d, &["task", "done", "deep", "t1499"]);
    assert!(out.status.success());
}

#[test]
fn a_plan_that_is_not_utf8_is_read_but_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["plan", "create", "bytes", "--title", "Bytes"]);
    ok(d, &["task", "add", "bytes", "--title", "Alpha"]);
    let path = d.join(".long-term-plan/bytes.md");
    let text = std::fs::read(&path).unwrap();
    let at = text.windows(5).position(|w| w == b"Alpha").unwrap();
    let mut bytes = text[..at].to_vec();
    bytes.extend_from_slice(b"Alph\xe9");
    bytes.extend_from_slice(&text[at + 5..]);
    std::fs::write(&path, &bytes).unwrap();
    // Read: the invalid byte is shown as U+FFFD.
    let got = ok(d, &["plan", "get", "bytes"]);
    assert!(got.to_string().contains("Alph\u{fffd}"), "{got}");
    // Written: refused, the file left byte for byte.
    let out = run_in(d, &["task", "add", "bytes", "--title", "More"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("Plan bytes is not valid UTF-8 (at byte "),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn line_terminators_in_titles_never_hide_a_task_or_forge_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["plan", "create", "lines", "--title", "Lines"]);
    for title in [
        "real\r- [x] forged",
        "ls\u{2028}- [x] forged",
        "ps\u{2029}x",
    ] {
        ok(d, &["task", "add", "lines", "--title", title]);
    }
    let text = plan_file(d, "lines");
    assert!(!text.contains(['\r', '\u{2028}', '\u{2029}']), "{text:?}");
    let got = ok(d, &["plan", "get", "lines", "--view", "flat"]);
    let titles: Vec<&str> = got["plan"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["real - [x] forged", "ls - [x] forged", "ps x"]);
}

/// `--root` naming a directory that does not exist yet: `plan create`
/// makes it and the plans directory (as the reference does), and the plan
/// is where `--root` says.
#[test]
fn a_missing_root_is_created_by_plan_create() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let listed = ok(d, &["--root", "sub", "plan", "list"]);
    assert_eq!(listed["plans"], serde_json::json!([]));
    assert!(!d.join("sub").exists(), "a read creates nothing");
    let created = ok(
        d,
        &[
            "--root", "sub", "plan", "create", "inner", "--title", "Inner",
        ],
    );
    assert_eq!(created["path"], ".long-term-plan/inner.md");
    let text = std::fs::read_to_string(d.join("sub/.long-term-plan/inner.md")).unwrap();
    assert!(text.starts_with(&format!("{H}\n\n# Inner\n")), "{text}");
    let got = ok(d, &["--root", "sub", "plan", "get", "inner"]);
    assert_eq!(got["plan"]["title"], "Inner");
    // Still beneath the root: a plans directory that leaves it is refused
    // before anything is made.
    let escape = run_in(
        d,
        &[
            "--root", "other", "--plans", "../out", "plan", "create", "x", "--title", "X",
        ],
    );
    assert_eq!(escape.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&escape.stderr).starts_with("Resolved path escapes rootDir: "),
        "{}",
        String::from_utf8_lossy(&escape.stderr)
    );
    assert!(!d.join("other").exists() && !d.join("out").exists());
}
