// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `long-term-plan` command line, argument for argument like the
//! reference: options taken from anywhere (`--opt value` or `--opt=value`,
//! first occurrence only), positionals shifted before options, JSON on
//! stdout, and on failure the message on stderr with the help on stdout.

use std::io::Read;
use std::path::Path;

use serde::Serialize;

use crate::toolsets::plans::api::{PlanFiles, PlanUpdate, Repair, TaskAdd, TaskUpdate, Template};
use crate::toolsets::plans::document::view::View;
use crate::toolsets::plans::edit::add::NewTask;
use crate::toolsets::plans::edit::repair::Action;
use crate::toolsets::plans::store::{self, DEFAULT_PLANS_DIR};
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{json_quote, trim};

/// What a run printed and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// 0 on success, 1 on failure.
    pub code: i32,
    /// JSON, or the help text.
    pub stdout: String,
    /// The error message and a blank line, on failure.
    pub stderr: String,
}

/// The help text; `cwd` is shown as the default root.
pub(crate) fn help_text(cwd: &str) -> String {
    format!(
        "long-term-plan — long-term plan CLI (structured Markdown)

Usage:
  long-term-plan [--root <dir>] [--plans <dir>] <cmd>

Plan:
  long-term-plan plan list [--query <text>]
  long-term-plan plan get <planId> [--view tree|flat]
  long-term-plan plan create <planId> --title <text> [--template empty|basic]
  long-term-plan plan update <planId> [--title <text>] [--body <text>|--body-stdin|--body-file <path>|--clear-body] [--if-match <etag>]

Task:
  long-term-plan task get <planId> [taskId]
  long-term-plan task next <planId>
  long-term-plan task add <planId> --title <text> [--status todo|doing|done] [--body <text>|--body-stdin|--body-file <path>] [--section A/B] [--parent <taskId>] [--before <taskId>] [--if-match <etag>]
  long-term-plan task update <planId> [taskId] [--status todo|doing|done] [--title <text>] [--body <text>|--body-stdin|--body-file <path>|--clear-body] [--allow-default] [--if-match <etag>]
  long-term-plan task start <planId> <taskId>
  long-term-plan task done <planId> <taskId>
  long-term-plan task delete <planId> <taskId> [--if-match <etag>]
  long-term-plan task search <planId> --query <text> [--status todo|doing|done] [--limit <n>]

Doc:
  long-term-plan doc validate <planId>
  long-term-plan doc repair <planId> --actions addFormatHeader,addMissingIds [--dry-run] [--if-match <etag>]

Notes:
  Defaults: --root={cwd} --plans={DEFAULT_PLANS_DIR}
  Note: --body-file paths are resolved relative to the current working directory (not --root).
  Output: JSON to stdout; errors to stderr.
"
    )
}

/// The arguments left to parse.
struct Args(Vec<String>);

impl Args {
    /// Removes the first `flag`; says whether it was there.
    fn flag(&mut self, flag: &str) -> bool {
        match self.0.iter().position(|a| a == flag) {
            Some(i) => {
                self.0.remove(i);
                true
            }
            None => false,
        }
    }

    /// Removes the first `--opt=value`, else the first `--opt value`. The
    /// value must be non-empty and (in the second form) not start with `--`.
    fn option(&mut self, flag: &str) -> Result<Option<String>, String> {
        let prefix = format!("{flag}=");
        if let Some(i) = self.0.iter().position(|a| a.starts_with(&prefix)) {
            let value = self.0.remove(i)[prefix.len()..].to_owned();
            if value.is_empty() {
                return Err(format!("Missing value for {flag}"));
            }
            return Ok(Some(value));
        }
        let Some(i) = self.0.iter().position(|a| a == flag) else {
            return Ok(None);
        };
        let value = self.0.get(i + 1).cloned();
        self.0.drain(i..(i + 2).min(self.0.len()));
        match value {
            Some(v) if !v.is_empty() && !v.starts_with("--") => Ok(Some(v)),
            _ => Err(format!("Missing value for {flag}")),
        }
    }

    /// The next positional (whatever it is).
    fn shift(&mut self) -> Option<String> {
        (!self.0.is_empty()).then(|| self.0.remove(0))
    }

    /// `Unknown option: --x` for the first leftover `--x`.
    fn no_unknown(&self) -> Result<(), String> {
        match self.0.iter().find(|a| a.starts_with("--")) {
            Some(unknown) => Err(format!("Unknown option: {unknown}")),
            None => Ok(()),
        }
    }
}

fn parse_status(value: Option<String>) -> Result<Option<Status>, String> {
    value
        .map(|v| Status::parse(&v).ok_or_else(|| format!("Invalid --status: {}", json_quote(&v))))
        .transpose()
}

fn parse_view(value: Option<String>) -> Result<Option<View>, String> {
    value
        .map(|v| View::parse(&v).ok_or_else(|| format!("Invalid --view: {}", json_quote(&v))))
        .transpose()
}

fn parse_template(value: Option<String>) -> Result<Option<Template>, String> {
    value
        .map(|v| {
            Template::parse(&v).ok_or_else(|| format!("Invalid --template: {}", json_quote(&v)))
        })
        .transpose()
}

fn parse_actions(value: &str) -> Result<Vec<Action>, String> {
    value
        .split(',')
        .map(trim)
        .filter(|a| !a.is_empty())
        .map(|a| {
            Action::parse(a).ok_or_else(|| format!("Invalid repair action: {}", json_quote(a)))
        })
        .collect()
}

/// `--section A/B`: split on `/`, trimmed, empties dropped; none left is no section.
fn parse_section(value: Option<String>) -> Option<Vec<String>> {
    let parts: Vec<String> = value?
        .split('/')
        .map(|p| trim(p).to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    (!parts.is_empty()).then_some(parts)
}

/// JavaScript's `Number(text)` for the `--limit` value.
pub(crate) fn js_number(text: &str) -> f64 {
    let t = trim(text);
    if t.is_empty() {
        return 0.0;
    }
    let radix = |digits: &str, radix: u32| {
        if digits.is_empty() {
            return f64::NAN;
        }
        digits
            .chars()
            .try_fold(0f64, |acc, c| {
                c.to_digit(radix)
                    .map(|d| acc * f64::from(radix) + f64::from(d))
            })
            .unwrap_or(f64::NAN)
    };
    let lower = t.to_ascii_lowercase();
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            return radix(digits, base);
        }
    }
    let (sign, unsigned) = match t.as_bytes()[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    // A decimal literal: digits, an optional fraction, an optional exponent.
    let bytes = unsigned.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut mantissa = digits(&mut i);
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return f64::NAN;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return f64::NAN;
        }
    }
    if i != bytes.len() {
        return f64::NAN;
    }
    unsigned.parse::<f64>().map_or(f64::NAN, |v| sign * v)
}

/// What a command produced: JSON to print, or the help.
enum Done {
    Help,
    Json(String),
}

fn json<T: Serialize>(value: &T) -> Result<Done, String> {
    json_sized(value, 1024)
}

/// [`json`] for a large value whose pretty JSON takes about `capacity` bytes.
fn json_sized<T: Serialize>(value: &T, capacity: usize) -> Result<Done, String> {
    let mut text = crate::toolsets::plans::syntax::json::to_string_pretty(value, capacity)
        .map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(Done::Json(text))
}

/// Runs the CLI with `args` (without the program name) in `cwd`.
pub fn run(args: Vec<String>, cwd: &Path, stdin: &mut dyn Read) -> Outcome {
    let cwd_text = cwd.display().to_string();
    match dispatch(Args(args), cwd, stdin) {
        Ok(Done::Help) => Outcome {
            code: 0,
            stdout: help_text(&cwd_text),
            stderr: String::new(),
        },
        Ok(Done::Json(text)) => Outcome {
            code: 0,
            stdout: text,
            stderr: String::new(),
        },
        Err(message) => Outcome {
            code: 1,
            stdout: help_text(&cwd_text),
            stderr: format!("{message}\n\n"),
        },
    }
}

fn dispatch(mut argv: Args, cwd: &Path, stdin: &mut dyn Read) -> Result<Done, String> {
    if argv.flag("--help") || argv.flag("-h") || argv.0.is_empty() {
        return Ok(Done::Help);
    }
    let root = argv
        .option("--root")?
        .map_or_else(|| cwd.to_path_buf(), |r| store::resolve(cwd, Path::new(&r)));
    let plans_dir = argv
        .option("--plans")?
        .unwrap_or_else(|| DEFAULT_PLANS_DIR.to_owned());
    let plans = PlanFiles::new(&root, &plans_dir);
    let command = argv.shift().unwrap_or_default();
    match command.as_str() {
        "" | "help" => Ok(Done::Help),
        "plan" => plan_command(&plans, argv, cwd, stdin),
        "task" => task_command(&plans, argv, cwd, stdin),
        "doc" => doc_command(&plans, argv),
        other => Err(format!("Unknown command: {other}")),
    }
}

/// The body flags: at most one of `--clear-body`, `--body-stdin`,
/// `--body-file` (resolved against the working directory), `--body`.
fn body_args(
    argv: &mut Args,
    cwd: &Path,
    stdin: &mut dyn Read,
) -> Result<(Option<String>, bool), String> {
    let clear = argv.flag("--clear-body");
    let from_stdin = argv.flag("--body-stdin");
    let file = argv.option("--body-file")?;
    let inline = argv.option("--body")?;
    let chosen = [clear, from_stdin, file.is_some(), inline.is_some()]
        .iter()
        .filter(|&&b| b)
        .count();
    if chosen > 1 {
        return Err("Body flags are mutually exclusive: use only one of --body, --body-file, --body-stdin, --clear-body".into());
    }
    if clear {
        return Ok((None, true));
    }
    if let Some(body) = inline {
        return Ok((Some(body), false));
    }
    if let Some(file) = file {
        let path = store::resolve(cwd, Path::new(&file));
        let bytes = store::read_file(&path).map_err(|e| store::node_error(&e, "open", &path).0)?;
        return Ok((Some(String::from_utf8_lossy(&bytes).into_owned()), false));
    }
    if from_stdin {
        let mut bytes = Vec::new();
        stdin
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        return Ok((Some(String::from_utf8_lossy(&bytes).into_owned()), false));
    }
    Ok((None, false))
}

fn missing_plan_id(plan_id: &Option<String>) -> Result<&str, String> {
    plan_id
        .as_deref()
        .filter(|p| !p.is_empty())
        .ok_or_else(|| "Missing <planId>".to_owned())
}

fn plan_command(
    plans: &PlanFiles,
    mut argv: Args,
    cwd: &Path,
    stdin: &mut dyn Read,
) -> Result<Done, String> {
    let sub = argv.shift();
    match sub.as_deref() {
        Some("list") => {
            let query = argv.option("--query")?;
            argv.no_unknown()?;
            json(&plans.list_plans(query.as_deref()).map_err(|e| e.0)?)
        }
        Some("get") => {
            let plan_id = argv.shift();
            let view = parse_view(argv.option("--view")?)?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            plans
                .get_plan(plan_id, view, false, false, |got| {
                    json_sized(got, got.plan.json_size_hint())
                })
                .map_err(|e| e.0)?
        }
        Some("create") => {
            let plan_id = argv.shift();
            let title = argv.option("--title")?;
            let template = parse_template(argv.option("--template")?)?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let title = title.ok_or("Missing --title")?;
            json(
                &plans
                    .create_plan(plan_id, &title, template, None)
                    .map_err(|e| e.0)?,
            )
        }
        Some("update") => {
            let plan_id = argv.shift();
            let title = argv.option("--title")?;
            let if_match = argv.option("--if-match")?;
            let (body, clear_body) = body_args(&mut argv, cwd, stdin)?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let update = PlanUpdate {
                plan_id,
                title: title.as_deref(),
                body: body.as_deref(),
                clear_body,
                if_match: if_match.as_deref(),
            };
            json(&plans.update_plan(&update).map_err(|e| e.0)?)
        }
        other => Err(format!(
            "Unknown plan command: {}",
            other.unwrap_or("(missing)")
        )),
    }
}

fn task_command(
    plans: &PlanFiles,
    mut argv: Args,
    cwd: &Path,
    stdin: &mut dyn Read,
) -> Result<Done, String> {
    let sub = argv.shift();
    match sub.as_deref() {
        Some(sub @ ("get" | "next")) => {
            let plan_id = argv.shift();
            let task_id = if sub == "get" { argv.shift() } else { None };
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            json(
                &plans
                    .get_task(plan_id, task_id.as_deref(), None)
                    .map_err(|e| e.0)?,
            )
        }
        Some("add") => {
            let plan_id = argv.shift();
            let title = argv.option("--title")?;
            // `--clear-body` is taken and ignored here, as in the reference.
            let (body, _) = body_args(&mut argv, cwd, stdin)?;
            let status = parse_status(argv.option("--status")?)?;
            let section = parse_section(argv.option("--section")?);
            let parent = argv.option("--parent")?;
            let before = argv.option("--before")?;
            let if_match = argv.option("--if-match")?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let title = title.ok_or("Missing --title")?;
            let add = TaskAdd {
                plan_id,
                task: NewTask {
                    title: &title,
                    status,
                    body: body.as_deref(),
                    section_path: section.as_deref(),
                    parent_task_id: parent.as_deref(),
                    before_task_id: before.as_deref(),
                },
                if_match: if_match.as_deref(),
            };
            json(&plans.add_task(&add).map_err(|e| e.0)?)
        }
        Some("update") => {
            let plan_id = argv.shift();
            let task_id = argv.shift();
            let status = parse_status(argv.option("--status")?)?;
            let title = argv.option("--title")?;
            let (body, clear_body) = body_args(&mut argv, cwd, stdin)?;
            let allow_default = argv.flag("--allow-default") || argv.flag("--allow-default-target");
            let if_match = argv.option("--if-match")?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let update = TaskUpdate {
                plan_id,
                task_id: task_id.as_deref(),
                status,
                title: title.as_deref(),
                body: body.as_deref(),
                clear_body,
                allow_default_target: allow_default,
                if_match: if_match.as_deref(),
            };
            json(&plans.update_task(&update).map_err(|e| e.0)?)
        }
        Some(sub @ ("start" | "done")) => {
            let plan_id = argv.shift();
            let task_id = argv.shift();
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let task_id = task_id
                .filter(|t| !t.is_empty())
                .ok_or("Missing <taskId>")?;
            let update = TaskUpdate {
                plan_id,
                task_id: Some(&task_id),
                status: Some(if sub == "start" {
                    Status::Doing
                } else {
                    Status::Done
                }),
                ..TaskUpdate::default()
            };
            json(&plans.update_task(&update).map_err(|e| e.0)?)
        }
        Some("delete") => {
            let plan_id = argv.shift();
            let task_id = argv.shift();
            let if_match = argv.option("--if-match")?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let task_id = task_id
                .filter(|t| !t.is_empty())
                .ok_or("Missing <taskId>")?;
            json(
                &plans
                    .delete_task(plan_id, &task_id, if_match.as_deref())
                    .map_err(|e| e.0)?,
            )
        }
        Some("search") => {
            let plan_id = argv.shift();
            let query = argv.option("--query")?;
            let status = parse_status(argv.option("--status")?)?;
            let limit_raw = argv.option("--limit")?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let query = query.ok_or("Missing --query")?;
            let limit = limit_raw.as_deref().map(js_number);
            if let (Some(limit), Some(raw)) = (limit, &limit_raw)
                && (!limit.is_finite() || limit <= 0.0)
            {
                return Err(format!("Invalid --limit: {}", json_quote(raw)));
            }
            json(
                &plans
                    .search_tasks(plan_id, &query, status, limit)
                    .map_err(|e| e.0)?,
            )
        }
        other => Err(format!(
            "Unknown task command: {}",
            other.unwrap_or("(missing)")
        )),
    }
}

fn doc_command(plans: &PlanFiles, mut argv: Args) -> Result<Done, String> {
    let sub = argv.shift();
    match sub.as_deref() {
        Some("validate") => {
            let plan_id = argv.shift();
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            json(&plans.validate_doc(plan_id).map_err(|e| e.0)?)
        }
        Some("repair") => {
            let plan_id = argv.shift();
            let actions = argv.option("--actions")?;
            let dry_run = argv.flag("--dry-run");
            let if_match = argv.option("--if-match")?;
            argv.no_unknown()?;
            let plan_id = missing_plan_id(&plan_id)?;
            let actions = parse_actions(&actions.ok_or("Missing --actions")?)?;
            let repair = Repair {
                plan_id,
                actions,
                dry_run,
                if_match: if_match.as_deref(),
            };
            json(&plans.repair_doc(&repair).map_err(|e| e.0)?)
        }
        other => Err(format!(
            "Unknown doc command: {}",
            other.unwrap_or("(missing)")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_in(dir: &Path, args: &[&str]) -> Outcome {
        run(
            args.iter().map(|s| (*s).to_owned()).collect(),
            dir,
            &mut std::io::empty(),
        )
    }

    fn error(dir: &Path, args: &[&str]) -> String {
        let out = run_in(dir, args);
        assert_eq!(out.code, 1, "{out:?}");
        assert_eq!(out.stdout, help_text(&dir.display().to_string()));
        out.stderr.strip_suffix("\n\n").unwrap().to_owned()
    }

    #[test]
    fn help() {
        let dir = Path::new("/somewhere");
        for args in [
            &[][..],
            &["--help"],
            &["plan", "-h"],
            &["help"],
            &["--root", "x", ""],
        ] {
            let out = run_in(dir, args);
            assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{args:?}");
            assert_eq!(out.stdout, help_text("/somewhere"));
        }
        insta::assert_snapshot!(help_text("<cwd>"));
    }

    #[test]
    fn argument_errors() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for (args, message) in [
            (&["bogus"][..], "Unknown command: bogus"),
            (&["plan"], "Unknown plan command: (missing)"),
            (&["task", "x"], "Unknown task command: x"),
            (&["doc"], "Unknown doc command: (missing)"),
            (&["--root"], "Missing value for --root"),
            (&["--root=", "plan", "list"], "Missing value for --root"),
            (
                &["plan", "list", "--plans", "--x"],
                "Missing value for --plans",
            ),
            (&["plan", "get"], "Missing <planId>"),
            (&["plan", "create", "--title", "X"], "Missing --title"),
            (&["plan", "create", "p"], "Missing --title"),
            (&["plan", "list", "--nope"], "Unknown option: --nope"),
            (
                &["plan", "list", "--query", "a", "--query", "b"],
                "Unknown option: --query",
            ),
            (
                &["plan", "get", "p", "--view", "wide"],
                "Invalid --view: \"wide\"",
            ),
            (
                &["plan", "create", "p", "--title", "T", "--template", "x"],
                "Invalid --template: \"x\"",
            ),
            (
                &["task", "add", "p", "--title", "t", "--status", "DONE"],
                "Invalid --status: \"DONE\"",
            ),
            (&["task", "add", "p"], "Missing --title"),
            (&["task", "start", "p"], "Missing <taskId>"),
            (
                &["task", "done", "p", "t", "--if-match", "e"],
                "Unknown option: --if-match",
            ),
            (&["task", "delete", "p"], "Missing <taskId>"),
            (&["task", "search", "p"], "Missing --query"),
            (
                &["task", "search", "p", "--query", "q", "--limit", "0"],
                "Invalid --limit: \"0\"",
            ),
            (
                &["task", "search", "p", "--query", "q", "--limit", "abc"],
                "Invalid --limit: \"abc\"",
            ),
            (&["doc", "repair", "p"], "Missing --actions"),
            (
                &["doc", "repair", "p", "--actions", "addFormatHeader,nope"],
                "Invalid repair action: \"nope\"",
            ),
            (
                &["plan", "update", "p", "--body", "a", "--clear-body"],
                "Body flags are mutually exclusive: use only one of --body, --body-file, --body-stdin, --clear-body",
            ),
            (
                &["plan", "update", "p", "--body="],
                "Missing value for --body",
            ),
            (
                &["task", "update", "p", "--status", "done", "--allow-default"],
                "At least one of status, title, bodyMarkdown, or clearBody is required",
            ),
            (
                &["task", "update", "p", "", "--status", "done"],
                "taskId is required unless allowDefaultTarget=true",
            ),
            (
                &[
                    "task",
                    "update",
                    "p",
                    "",
                    "--status",
                    "done",
                    "--allow-default",
                ],
                "ifMatch is required when taskId is omitted",
            ),
            (&["plan", "get", "../x"], "Invalid planId: \"../x\""),
            (&["task", "delete", "p", "_bad"], "Invalid taskId: \"_bad\""),
        ] {
            assert_eq!(error(d, args), message, "{args:?}");
        }
        let missing = d.join(".long-term-plan/nope.md");
        assert_eq!(
            error(d, &["plan", "get", "nope"]),
            format!(
                "ENOENT: no such file or directory, open '{}'",
                missing.display()
            )
        );
        let body_file = d.join("body.md");
        assert_eq!(
            error(d, &["plan", "update", "p", "--body-file", "body.md"]),
            format!(
                "ENOENT: no such file or directory, open '{}'",
                body_file.display()
            )
        );
    }

    #[test]
    fn a_session() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let ok = |args: &[&str]| {
            let out = run_in(d, args);
            assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
            assert!(out.stdout.ends_with("}\n"));
            serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
        };
        assert_eq!(ok(&["plan", "list"]).to_string(), r#"{"plans":[]}"#);
        let created = ok(&["plan", "create", "demo", "--title=Demo"]);
        assert_eq!(
            created.to_string(),
            r#"{"path":".long-term-plan/demo.md","planId":"demo"}"#
        );
        let added = ok(&[
            "task",
            "add",
            "demo",
            "--title",
            "First",
            "--section",
            " Inbox / ",
        ]);
        let id = added["taskId"].as_str().unwrap().to_owned();
        ok(&["task", "start", "demo", &id]);
        let next = ok(&["task", "next", "demo"]);
        assert_eq!(next["task"]["status"], "doing");
        let text = std::fs::read_to_string(d.join(".long-term-plan/demo.md")).unwrap();
        assert_eq!(
            text,
            format!(
                "<!-- long-term-plan:format=v1 -->\n\n# Demo\n\n## Inbox\n\n- [*] First <!-- long-term-plan:id={id} -->\n"
            )
        );
        let hits = ok(&["task", "search", "demo", "--query", "fir", "--limit", "1.5"]);
        assert_eq!(hits["hits"].as_array().unwrap().len(), 1);
        let listed = ok(&[
            "--plans",
            ".long-term-plan",
            "plan",
            "list",
            "--query",
            "DEMO",
        ]);
        assert_eq!(listed["plans"][0]["stats"]["doing"], 1);
    }

    #[test]
    fn numbers_like_javascript() {
        for (text, value) in [
            ("5", 5.0),
            (" 2.5 ", 2.5),
            ("0x10", 16.0),
            ("1e2", 100.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("+3", 3.0),
            ("-3", -3.0),
            ("", 0.0),
        ] {
            assert_eq!(js_number(text), value, "{text:?}");
        }
        for text in ["abc", "1_000", "inf", "NaN", "1e", "0x", "--1", "."] {
            assert!(js_number(text).is_nan(), "{text:?}");
        }
        assert_eq!(js_number("Infinity"), f64::INFINITY);
    }
}
