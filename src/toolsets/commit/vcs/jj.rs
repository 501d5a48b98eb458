// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! jj: the plan is the description of the working-copy change `@`; when
//! `@` has none (after `jj new`, `jj commit` or `jj squash`), the nearest
//! ancestor with a description, if it holds a plan, up to the first
//! immutable change.
//!
//! Templates call methods on `self` (`self.description()`), which a user's
//! `[template-aliases]` cannot redefine, so the user's configuration never
//! changes what the server reads. jj has no compare-and-swap on a
//! description: a write describes the very commit it read
//! (`--ignore-working-copy -r {commit}`), so that a concurrent writer turns
//! into a divergent change instead of a lost edit, then reads the change
//! back and answers [`Failure::Unkept`] unless exactly its text is there.

mod describe;

use super::failure::{Critical, Failure, Subject};
use super::process::{Invocation, Output, Runner};
use super::{Snapshot, Vcs};
use crate::toolsets::commit::document::fence;
use crate::toolsets::commit::document::{Limits, Reading, read};
use crate::toolsets::commit::place::{Around, Below, Committed, Place};

/// `@`: change id, commit id, divergent, conflict; then the description.
const AT: &str = r#"self.change_id() ++ " " ++ self.commit_id() ++ " " ++ self.divergent() ++ " " ++ self.conflict() ++ "\n" ++ self.description()"#;

/// One line per change: change id, commit id, immutable, divergent, and the
/// description as a JSON string.
const CHANGE: &str = r#"self.change_id() ++ " " ++ self.commit_id() ++ " " ++ self.immutable() ++ " " ++ self.divergent() ++ " " ++ self.description().escape_json() ++ "\n""#;

/// One line per changed file: its status letter and its path as a JSON string.
const DIFF: &str = r#"self.status_char() ++ " " ++ self.path().display().escape_json() ++ "\n""#;

/// jj's exit status for an internal error (1 is the caller's or the
/// repository's error, 2 bad arguments, 3 a closed pipe).
const INTERNAL_ERROR: i32 = 255;

/// How many ancestors of `@` are searched for a plan.
const ANCESTOR_SEARCH: usize = 20;

/// jj through its CLI.
#[derive(Debug, Clone)]
pub(crate) struct Jj {
    /// The jj program.
    pub(crate) program: String,
    /// Where and for how long commands run.
    pub(crate) runner: Runner,
}

/// One change as [`CHANGE`] prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    change_id: String,
    commit_id: String,
    immutable: bool,
    divergent: bool,
    description: String,
}

impl Change {
    /// Reads a line of [`CHANGE`]'s output.
    fn parse(line: &str) -> Option<Self> {
        let mut words = line.splitn(5, ' ');
        let (change_id, commit_id) = (words.next()?, words.next()?);
        let immutable = words.next()? == "true";
        let divergent = words.next()? == "true";
        let description = serde_json::from_str(words.next()?).ok()?;
        Some(Self {
            change_id: change_id.to_owned(),
            commit_id: commit_id.to_owned(),
            immutable,
            divergent,
            description,
        })
    }
}

/// The fix for a jj command that failed: what its error suggests, or,
/// when jj printed nothing, how to see what stops it.
fn fix(stderr: &str) -> &'static str {
    if stderr.contains("working copy is stale") {
        "run `jj workspace update-stale` in the repository."
    } else if stderr.contains("no jj repo") {
        "run `jj git init` in the project, or set [commit] root to a jj repository."
    } else if stderr.trim().is_empty() {
        "jj printed no error. Run `jj status` in the repository: it shows what stops jj (a stale working copy: run `jj workspace update-stale`; another jj command still running: let it finish), and `jj op log` the last operations. Then call gather_requirements, which says whether the plan was written, and repeat the call if it was not."
    } else {
        "read the error above; repair the repository or jj's configuration, then retry."
    }
}

/// The 12 characters of a change id that replies show.
fn short(change_id: &str) -> String {
    change_id.chars().take(12).collect()
}

impl Jj {
    fn invocation<'a>(&'a self, args: &[&str], stdin: Option<&'a str>) -> Invocation<'a> {
        let mut all: Vec<String> = ["--no-pager", "--color", "never"]
            .map(String::from)
            .to_vec();
        all.extend(args.iter().map(|a| (*a).to_owned()));
        Invocation {
            program: &self.program,
            args: all,
            env: &[("GIT_TERMINAL_PROMPT", "0")],
            stdin,
        }
    }

    /// Runs jj; a failure is CRITICAL with the fix its error suggests.
    async fn run(&self, args: &[&str], stdin: Option<&str>) -> Result<Output, Failure> {
        let invocation = self.invocation(args, stdin);
        let output = self.attempt(&invocation).await?;
        match output.success() {
            true => Ok(output),
            false => Err(Self::failed(&invocation, &output)),
        }
    }

    /// Runs `invocation` to its end, whatever its exit status; CRITICAL
    /// only when it could not run.
    async fn attempt(&self, invocation: &Invocation<'_>) -> Result<Output, Failure> {
        self.runner
            .run(invocation)
            .await
            .map_err(|error| Failure::Critical(Critical::not_run(Subject::Jj, invocation, &error)))
    }

    /// CRITICAL for a jj command that failed: the command, its status (what
    /// jj means by it, when it is an internal error) and the fix.
    fn failed(invocation: &Invocation<'_>, output: &Output) -> Failure {
        let mut critical = Critical::failed(Subject::Jj, invocation, output, fix(&output.stderr));
        if output.code == Some(INTERNAL_ERROR) {
            critical.status.push_str(" (an internal error of jj)");
        }
        Failure::Critical(critical)
    }

    /// CRITICAL: jj printed what its template cannot print.
    fn unreadable(&self, args: &[&str]) -> Failure {
        Failure::Critical(Critical {
            subject: Subject::Jj,
            command: Some(self.invocation(args, None).command_line()),
            status: "its output is not what the template prints".into(),
            stderr: Vec::new(),
            fix: "check that [commit] jj_bin names jj 0.45 or later.".into(),
        })
    }

    /// `@`, with its description.
    async fn at(&self) -> Result<(Change, bool), Failure> {
        let args = ["log", "-r", "@", "--no-graph", "-T", AT];
        let output = self.run(&args, None).await?;
        let parsed = output
            .stdout
            .split_once('\n')
            .and_then(|(head, description)| {
                let mut words = head.split(' ');
                let change = Change {
                    change_id: words.next()?.to_owned(),
                    commit_id: words.next()?.to_owned(),
                    immutable: false,
                    divergent: words.next()? == "true",
                    description: description.to_owned(),
                };
                Some((change, words.next()? == "true"))
            });
        parsed.ok_or_else(|| self.unreadable(&args))
    }

    /// The nearest ancestor of `@` with a description, if it holds a plan
    /// (valid or damaged: its first line is a header), and how far down it
    /// is: the search passes over changes without a description and stops
    /// at an immutable one or at free text (someone's own change).
    async fn nearest_plan(&self, limits: &Limits) -> Result<Option<(Change, usize)>, Failure> {
        let search = ANCESTOR_SEARCH.to_string();
        let args = [
            "log",
            "-r",
            "::@-",
            "--limit",
            &search,
            "--no-graph",
            "-T",
            CHANGE,
        ];
        let output = self.run(&args, None).await?;
        for (index, line) in output.stdout.lines().enumerate() {
            let change = Change::parse(line).ok_or_else(|| self.unreadable(&args))?;
            if change.immutable {
                return Ok(None);
            }
            if change.description.is_empty() {
                continue;
            }
            return Ok(match read(&change.description, limits) {
                Reading::Parsed(_) | Reading::Halted(_) => Some((change, index + 1)),
                Reading::Empty | Reading::Unknown(_) => None,
            });
        }
        Ok(None)
    }

    /// Reads `@` again and refuses if it moved since `base`: the same
    /// change, and the same description (none, when the plan is below it).
    async fn unchanged_since(&self, base: &Snapshot) -> Result<(), Failure> {
        let (at, _) = self.at().await?;
        let unchanged = match &base.place {
            Place::Jj {
                change_id,
                below: None,
            } => *change_id == short(&at.change_id) && at.description == base.text,
            Place::Jj {
                below: Some(below), ..
            } => below.working_copy == short(&at.change_id) && at.description.is_empty(),
            Place::Git { .. } => false,
        };
        match unchanged {
            true => Ok(()),
            false => Err(Failure::Conflict),
        }
    }

    /// Reads back the change just described: exactly one commit with
    /// `text`, or [`Failure::Unkept`] saying what happened.
    async fn check_written(&self, place: &Place, text: &str, tool: &str) -> Result<(), Failure> {
        let Place::Jj { change_id, .. } = place else {
            return Ok(());
        };
        let revset = format!("change_id({change_id})");
        let template = r#"self.commit_id() ++ " " ++ self.current_working_copy() ++ " " ++ self.description().escape_json() ++ "\n""#;
        let args = ["log", "-r", revset.as_str(), "--no-graph", "-T", template];
        let output = self.run(&args, None).await?;
        let copies: Option<Vec<(String, bool, String)>> = output
            .stdout
            .lines()
            .map(|line| {
                let mut words = line.splitn(3, ' ');
                let commit = words.next()?.to_owned();
                let working_copy = words.next()? == "true";
                let description = serde_json::from_str(words.next()?).ok()?;
                Some((commit, working_copy, description))
            })
            .collect();
        let copies = copies.ok_or_else(|| self.unreadable(&args))?;
        match copies.as_slice() {
            [(_, _, description)] if description == text => Ok(()),
            [(_, _, description)] => Err(Failure::Unkept(overwritten(
                change_id,
                tool,
                text,
                description,
            ))),
            _ => Err(Failure::Unkept(divergent(change_id, tool, text, &copies))),
        }
    }
}

/// The answer when another writer replaced the description right after
/// this call's write.
fn overwritten(change_id: &str, tool: &str, written: &str, now: &str) -> String {
    format!(
        "{tool} wrote the plan, but another writer described jj change {change_id} right after it: the description is now the other writer's, and this call's change is not in it.\n\
         Written by this call:\n{}Now:\n{}\
         Nothing else was changed. Call gather_requirements, check the plan with the user, and repeat this call if it is still needed.",
        fenced(written),
        shown_theirs(now),
    )
}

/// The answer when this call's write and another writer's made the change
/// divergent: every copy, which one is this call's, and how to keep one.
fn divergent(
    change_id: &str,
    tool: &str,
    written: &str,
    copies: &[(String, bool, String)],
) -> String {
    let ours = copies
        .iter()
        .find(|(_, _, d)| d == written)
        .map(|(c, ..)| c.as_str());
    let mut text = format!(
        "{tool} wrote the plan, but another writer described jj change {change_id} at the same time: the change is now divergent, with {} commits (jj log -r 'divergent()' shows them).\n",
        copies.len()
    );
    for (commit, working_copy, description) in copies {
        let whose = match Some(commit.as_str()) == ours {
            true => "written by this call",
            false => "the other writer's",
        };
        let at = if *working_copy { ", @" } else { "" };
        let shown = match Some(commit.as_str()) == ours {
            true => fenced(description),
            false => shown_theirs(description),
        };
        text.push_str(&format!("Commit {commit} ({whose}{at}):\n{shown}"));
    }
    match (ours, copies.iter().find(|(c, ..)| Some(c.as_str()) != ours)) {
        (Some(ours), Some((theirs, _, _))) => {
            let ours_is_at = copies.iter().any(|(c, w, _)| c == ours && *w);
            let edit = match ours_is_at {
                true => format!("jj edit {theirs} && "),
                false => String::new(),
            };
            text.push_str(&format!(
                "To keep the other writer's copy and redo this call, run {edit}jj abandon {ours}, then call gather_requirements and repeat this call; or keep this call's copy with jj abandon {theirs}."
            ));
        }
        _ => text.push_str("Keep one copy with jj abandon <commit id> of each other copy, then call gather_requirements."),
    }
    text
}

/// `text` in a fenced block (three backticks, or more than any run inside).
fn fenced(text: &str) -> String {
    let mut out = String::new();
    fence::push_fenced(&mut out, text);
    out
}

/// Another writer's `text`, fenced, with control characters shown safely
/// and cut at 64 KiB.
fn shown_theirs(text: &str) -> String {
    let mut out = String::new();
    fence::push_raw(&mut out, text, 64 * 1024);
    out
}

/// A path as a reply shows it: as it is, or quoted with escapes (as git
/// quotes) when it holds a quote, a backslash, a control or bidi-control
/// character or a line break, any of which could forge or garble a line of
/// the reply.
fn shown_path(path: &str) -> String {
    let needs_quotes = |c: char| {
        matches!(c, '"' | '\\' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            || c.is_control()
            || crate::runtime::text::is_line_break(c)
    };
    match path.chars().any(needs_quotes) {
        true => format!("\"{}\"", path.escape_debug()),
        false => path.to_owned(),
    }
}

impl Vcs for Jj {
    async fn read(&self, limits: &Limits) -> Result<Snapshot, Failure> {
        let (at, conflicted) = self.at().await?;
        let mut around = Around {
            divergent: at.divergent,
            conflicted,
            ..Around::default()
        };
        let on_at = |around: Around, at: Change| Snapshot {
            place: Place::Jj {
                change_id: short(&at.change_id),
                below: None,
            },
            text: at.description,
            base: Some(at.commit_id),
            legacy: false,
            history: None,
            around,
        };
        if !at.description.is_empty() {
            return Ok(on_at(around, at));
        }
        match self.nearest_plan(limits).await? {
            None => Ok(on_at(around, at)),
            Some((plan, distance)) => {
                let finished = matches!(read(&plan.description, limits), Reading::Parsed(d) if d.is_finished());
                if finished {
                    let header = plan
                        .description
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    around.committed = Some(Committed::Jj {
                        change_id: short(&plan.change_id),
                        distance,
                        header,
                    });
                    return Ok(on_at(around, at));
                }
                around.divergent |= plan.divergent;
                Ok(Snapshot {
                    place: Place::Jj {
                        change_id: short(&plan.change_id),
                        below: Some(Below {
                            working_copy: short(&at.change_id),
                            distance,
                        }),
                    },
                    text: plan.description,
                    base: Some(plan.commit_id),
                    legacy: false,
                    history: None,
                    around,
                })
            }
        }
    }

    async fn changes(&self, base: &Snapshot) -> Result<Vec<String>, Failure> {
        let range = match (&base.place, &base.base) {
            (Place::Jj { below: Some(_), .. }, Some(commit)) => format!("{commit}::@"),
            _ => "@".to_owned(),
        };
        let args = ["diff", "-r", range.as_str(), "-T", DIFF];
        let output = self.run(&args, None).await?;
        output
            .stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (status, path) = line.split_once(' ')?;
                let path: String = serde_json::from_str(path).ok()?;
                Some(format!("{status} {}", shown_path(&path)))
            })
            .collect::<Option<Vec<String>>>()
            .ok_or_else(|| self.unreadable(&args))
    }

    async fn write(&self, base: &Snapshot, text: &str, tool: &str) -> Result<(), Failure> {
        let Some(commit) = &base.base else {
            return Err(Failure::Conflict);
        };
        // The commit read, not `@`: when another writer rewrote it since,
        // jj keeps both versions (a divergent change) instead of this write
        // silently replacing the other's. No snapshot of the working copy
        // here: files saved since the read go into the next snapshot.
        let args = [
            "describe",
            "--ignore-working-copy",
            "-r",
            commit.as_str(),
            "--stdin",
            "--quiet",
        ];
        let target = match &base.place {
            Place::Jj { change_id, .. } => Some(describe::Target {
                change_id,
                commit: commit.as_str(),
            }),
            Place::Git { .. } => None,
        };
        self.describe(&args, text, target).await?;
        self.check_written(&base.place, text, tool).await
    }

    async fn start_new(&self, base: &Snapshot, text: &str, tool: &str) -> Result<Place, Failure> {
        self.unchanged_since(base).await?;
        if let Place::Jj {
            below: Some(below), ..
        } = &base.place
        {
            // `@` has no description and is what the new work goes on: it
            // becomes the new plan's change; the plan below stays as it is.
            self.describe(&["describe", "--stdin", "--quiet"], text, None)
                .await?;
            let place = Place::Jj {
                change_id: below.working_copy.clone(),
                below: None,
            };
            self.check_written(&place, text, tool).await?;
            return Ok(place);
        }
        let header = text.trim_end_matches('\n');
        self.run(&["new", "-m", header, "--quiet"], None).await?;
        let (at, _) = self.at().await?;
        Ok(Place::Jj {
            change_id: short(&at.change_id),
            below: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_would_break_a_line_are_quoted() {
        assert_eq!(shown_path("src/main.rs"), "src/main.rs");
        assert_eq!(shown_path("a b/ünï.txt"), "a b/ünï.txt");
        assert_eq!(shown_path("we\nird"), r#""we\nird""#);
        assert_eq!(shown_path("Next: x\u{2028}y"), r#""Next: x\u{2028}y""#);
        assert_eq!(shown_path("q\"\\"), r#""q\"\\""#);
    }

    #[test]
    fn a_change_line_is_read_and_a_broken_one_is_not() {
        let line = r#"kxqzvmwnlrptabcd 0123abcd true false "feat: a\n\n- [ ]: t\n""#;
        assert_eq!(
            Change::parse(line),
            Some(Change {
                change_id: "kxqzvmwnlrptabcd".into(),
                commit_id: "0123abcd".into(),
                immutable: true,
                divergent: false,
                description: "feat: a\n\n- [ ]: t\n".into(),
            })
        );
        assert_eq!(Change::parse("kx 01 false false not-json"), None);
    }

    #[test]
    fn a_failure_with_an_empty_stderr_still_says_what_to_do() {
        let invocation = Invocation {
            program: "jj",
            args: vec!["describe".into(), "--stdin".into()],
            env: &[],
            stdin: Some("feat: a\n"),
        };
        let output = Output {
            code: Some(255),
            stdout: String::new(),
            stderr: "\n".into(),
        };
        let Failure::Critical(critical) = Jj::failed(&invocation, &output) else {
            panic!("CRITICAL expected");
        };
        let text = critical.to_string();
        assert!(
            text.contains("\nCommand: jj describe --stdin\nStatus: exit status 255 (an internal error of jj)\nStderr: (empty)\nFix: jj printed no error. Run `jj status` in the repository"),
            "{text}"
        );
        assert!(!text.contains("read the error above"), "{text}");
        let stale = Output {
            code: Some(1),
            stdout: String::new(),
            stderr: "Error: The working copy is stale\n".into(),
        };
        let Failure::Critical(critical) = Jj::failed(&invocation, &stale) else {
            panic!("CRITICAL expected");
        };
        assert_eq!(
            (critical.status.as_str(), critical.fix.as_str()),
            (
                "exit status 1",
                "run `jj workspace update-stale` in the repository."
            )
        );
    }
}
