// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `check-touches`: which staged files fall inside another agent's live
//! reservation (the touches of a task it holds, or that is dispatched to it
//! and not claimed yet), for a git pre-commit hook. The staged files come
//! from `git diff --cached` (run at the repository's top, so that paths are
//! relative to it, as touches are); outside a git repository, in a jj
//! workspace (one that `jj workspace add` made beside a git-backed or a
//! native jj repository has no `.git`), the files the working-copy change
//! `@` touches stand for them, as `jj diff --name-only` lists them at the
//! workspace's root. Each is matched with globset against every pattern of
//! every reservation whose holder is not the caller.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::runtime::process::{Invocation, Runner};
use crate::runtime::text::escaped;
use crate::toolsets::team::domain::touches::Pattern;
use crate::toolsets::team::reserved::Reserved;

/// A staged file inside a reservation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    /// The staged path, relative to the repository.
    pub(crate) path: String,
    /// The reservation.
    pub(crate) reserved: Reserved,
    /// The pattern it matched.
    pub(crate) pattern: String,
}

/// The staged files of the git repository around `dir`: added, changed,
/// deleted (renames as a deletion and an addition), relative to its top.
/// Outside a git repository but inside a jj workspace, the files its
/// working-copy change touches, relative to the workspace's root.
pub(crate) fn staged(dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    let top = match run("git", dir, &["rev-parse", "--show-toplevel"]) {
        Ok(top) => top,
        Err(error) => match dir.ancestors().any(|d| d.join(".jj").is_dir()) {
            true => return changed_in_jj(dir),
            false => return Err(error),
        },
    };
    let top = PathBuf::from(OsStr::from_bytes(top.trim_ascii_end()));
    let listed = run(
        "git",
        &top,
        &["diff", "--cached", "--name-only", "-z", "--no-renames"],
    )?;
    Ok(listed
        .split(|b| *b == 0)
        .filter(|path| !path.is_empty())
        .map(<[u8]>::to_vec)
        .collect())
}

/// The files the working-copy change `@` of the jj workspace around `dir`
/// touches, relative to the workspace's root (jj has no index: what `@`
/// changes is what the next `jj commit` or `jj new` records).
fn changed_in_jj(dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    // jj's global flags may follow the subcommand.
    let quiet = ["--no-pager", "--color", "never"];
    let root = run("jj", dir, &[&["workspace", "root"], &quiet[..]].concat())?;
    let root = PathBuf::from(OsStr::from_bytes(root.trim_ascii_end()));
    let listed = run(
        "jj",
        &root,
        &[&["diff", "--name-only", "-r", "@"], &quiet[..]].concat(),
    )?;
    Ok(listed
        .split(|b| *b == b'\n')
        .filter(|path| !path.is_empty())
        .map(<[u8]>::to_vec)
        .collect())
}

/// The longest one git or jj command may take.
const VCS_TIMEOUT: Duration = Duration::from_secs(120);

/// The standard output of `program args` (git or jj) in `dir`, or why it
/// failed: run without a shell through [`Runner`] (a timeout, its output
/// capped, no `GIT_DIR` or the like of the caller's).
fn run(program: &'static str, dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let what = args.first().copied().unwrap_or_default();
    let runner = Runner {
        dir: dir.to_owned(),
        timeout: VCS_TIMEOUT,
    };
    let invocation = Invocation {
        program,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        env: &[],
        stdin: None,
    };
    let output = runner.run_blocking_bytes(&invocation).map_err(|error| {
        format!(
            "{program} {what} in {}: {error}",
            escaped(&dir.display().to_string())
        )
    })?;
    if output.code != Some(0) {
        return Err(format!(
            "{program} {what} failed in {}: {}",
            escaped(&dir.display().to_string()),
            output.stderr.trim()
        ));
    }
    Ok(output.stdout)
}

/// The staged files inside a reservation not held by `agent` (every
/// reservation when `None`), one hit per file: its first reservation.
pub(crate) fn check(
    staged: &[Vec<u8>],
    reservations: &[Reserved],
    agent: Option<&str>,
) -> Vec<Hit> {
    let others: Vec<(&Reserved, Vec<(String, globset::GlobMatcher)>)> = reservations
        .iter()
        .filter(|r| Some(r.holder.as_str()) != agent)
        .map(|r| {
            let matchers = r
                .touches
                .iter()
                .filter_map(|t| Some((t.clone(), Pattern::stored(t).matcher()?)))
                .collect();
            (r, matchers)
        })
        .collect();
    staged
        .iter()
        .filter_map(|path| {
            let candidate = Path::new(OsStr::from_bytes(path));
            others.iter().find_map(|(reserved, matchers)| {
                let (pattern, _) = matchers.iter().find(|(_, m)| m.is_match(candidate))?;
                Some(Hit {
                    path: String::from_utf8_lossy(path).into_owned(),
                    reserved: (*reserved).clone(),
                    pattern: pattern.clone(),
                })
            })
        })
        .collect()
}

/// The report: one line per hit, or that there is none.
pub(crate) fn report(hits: &[Hit], staged: usize, reservations: usize) -> String {
    if hits.is_empty() {
        return format!(
            "No staged file falls inside another agent's reservation ({staged} staged, \
             {reservations} live reservations)."
        );
    }
    let mut out = format!(
        "{} staged file{} inside another agent's reservation:",
        hits.len(),
        match hits.len() {
            1 => " falls",
            _ => "s fall",
        }
    );
    for hit in hits {
        let r = &hit.reserved;
        let whose = match r.dispatched {
            true => "dispatched to",
            false => "held by",
        };
        out.push_str(&format!(
            "\n- {}: [{}] {}, {whose} {} until {} (touches {})",
            escaped(&hit.path),
            escaped(&r.task_id),
            escaped(&crate::toolsets::team::domain::text::flat(&r.title)),
            escaped(&r.holder),
            escaped(&r.until),
            escaped(&hit.pattern)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reserved(holder: &str, touches: &[&str]) -> Reserved {
        Reserved {
            task_id: "fc1a4586".into(),
            title: "Parser".into(),
            holder: holder.into(),
            until: "2027-01-15T08:25:00Z".into(),
            dispatched: false,
            touches: touches.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn staged_files_inside_other_agents_reservations_are_reported() {
        let staged: Vec<Vec<u8>> = ["src/parser/mod.rs", "docs/x.md", "src/cli.rs"]
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect();
        let reservations = [
            reserved("w1", &["src/parser/**"]),
            reserved("me", &["docs/**"]),
        ];
        let hits = check(&staged, &reservations, Some("me"));
        assert_eq!(hits.len(), 1);
        assert_eq!(
            report(&hits, 3, 2),
            "1 staged file falls inside another agent's reservation:\n\
             - src/parser/mod.rs: [fc1a4586] Parser, held by w1 until 2027-01-15T08:25:00Z \
             (touches src/parser/**)"
        );
        // Names from outside are escaped: no forged line, no reversed text,
        // no terminal escape.
        let mut held = reserved("w1\u{202e}", &["src/parser/**"]);
        held.title = "Parser\u{2028}- forged".into();
        let hits: Vec<Hit> = [
            "src/parser/a\n- b.rs: [x] forged",
            "src/parser/\u{1b}[2J\u{202e}.rs",
        ]
        .iter()
        .map(|path| Hit {
            path: (*path).into(),
            reserved: held.clone(),
            pattern: "src/parser/**".into(),
        })
        .collect();
        insta::assert_snapshot!(report(&hits, 2, 1), @r"
        2 staged files fall inside another agent's reservation:
        - src/parser/a\n- b.rs: [x] forged: [fc1a4586] Parser\u{2028}- forged, held by w1\u{202e} until 2027-01-15T08:25:00Z (touches src/parser/**)
        - src/parser/\u{001b}[2J\u{202e}.rs: [fc1a4586] Parser\u{2028}- forged, held by w1\u{202e} until 2027-01-15T08:25:00Z (touches src/parser/**)
        ");
        // Without an agent, every reservation counts.
        assert_eq!(check(&staged, &reservations, None).len(), 2);
        assert_eq!(
            report(&[], 3, 2),
            "No staged file falls inside another agent's reservation (3 staged, 2 live \
             reservations)."
        );
    }
}
