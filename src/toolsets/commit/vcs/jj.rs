// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! jj: the plan is the description of the working-copy change `@`. Reads
//! snapshot the working copy (as every jj command does). jj has no
//! compare-and-swap on a description, so a write reads `@` again just
//! before `jj describe` and refuses if its change id or description moved.

use super::failure::{Critical, Failure, Subject};
use super::process::{Invocation, Output, Runner};
use super::{Snapshot, Vcs};
use crate::toolsets::commit::view::Place;

/// The template of a read: the change id, a newline, the description.
const READ_TEMPLATE: &str = r#"change_id.short(12) ++ "\n" ++ description"#;

/// jj through its CLI.
#[derive(Debug, Clone)]
pub struct Jj {
    /// The jj program.
    pub program: String,
    /// Where and for how long commands run.
    pub runner: Runner,
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
        let output = match self.runner.run(&invocation).await {
            Ok(output) => output,
            Err(error) => {
                let critical = Critical::not_run(Subject::Jj, &invocation, &error);
                return Err(Failure::Critical(critical));
            }
        };
        if output.success() {
            return Ok(output);
        }
        let fix = if output.stderr.contains("working copy is stale") {
            "run `jj workspace update-stale` in the repository."
        } else if output.stderr.contains("no jj repo") {
            "run `jj git init` in the project, or set [commit] root to a jj repository."
        } else {
            "read the error above; repair the repository or jj's configuration, then retry."
        };
        Err(Failure::Critical(Critical::failed(
            Subject::Jj,
            &invocation,
            &output,
            fix,
        )))
    }

    /// The change id and description of `@`.
    async fn read_at(&self) -> Result<(String, String), Failure> {
        let output = self
            .run(&["log", "-r", "@", "--no-graph", "-T", READ_TEMPLATE], None)
            .await?;
        let (id, description) = output
            .stdout
            .split_once('\n')
            .unwrap_or((&output.stdout, ""));
        Ok((id.trim().to_owned(), description.to_owned()))
    }

    /// Reads `@` again and refuses if it moved since `base`.
    async fn unchanged_since(&self, base: &Snapshot) -> Result<(), Failure> {
        let (id, description) = self.read_at().await?;
        let same_change = matches!(&base.place, Place::Jj { change_id } if *change_id == id);
        match same_change && description == base.text {
            true => Ok(()),
            false => Err(Failure::Conflict),
        }
    }
}

impl Vcs for Jj {
    async fn read(&self) -> Result<Snapshot, Failure> {
        let (change_id, text) = self.read_at().await?;
        Ok(Snapshot {
            text,
            place: Place::Jj { change_id },
            oid: None,
        })
    }

    async fn changes(&self) -> Result<Vec<String>, Failure> {
        let output = self.run(&["diff", "-r", "@", "--summary"], None).await?;
        Ok(output
            .stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect())
    }

    async fn write(&self, base: &Snapshot, text: &str, _tool: &str) -> Result<(), Failure> {
        self.unchanged_since(base).await?;
        self.run(&["describe", "--stdin", "--quiet"], Some(text))
            .await?;
        Ok(())
    }

    async fn start_new(&self, base: &Snapshot, text: &str, _tool: &str) -> Result<Place, Failure> {
        self.unchanged_since(base).await?;
        let header = text.trim_end_matches('\n');
        self.run(&["new", "-m", header, "--quiet"], None).await?;
        let (change_id, _) = self.read_at().await?;
        Ok(Place::Jj { change_id })
    }
}
