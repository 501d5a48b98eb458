// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Records the commit the binaries are built from, for `--version`, as
//! `PLANNING_COMMIT`: in a packaged crate (crates.io, `cargo install`), the
//! commit `cargo package` wrote into `.cargo_vcs_info.json`; in a clone,
//! its `HEAD`. `PLANNING_COMMIT` set in the environment wins.
//!
//! Debug builds record no commit: the build script would rerun on every
//! commit and, with it, every unit of the crate would rebuild; `--version`
//! of a debug build says so instead.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PLANNING_COMMIT");
    let commit = match std::env::var("PLANNING_COMMIT") {
        Ok(given) if !given.is_empty() => given,
        _ if std::env::var("PROFILE").as_deref() == Ok("debug") => {
            "commit not recorded in debug builds".to_owned()
        }
        // A packaged crate first: unpacked under a directory that is itself
        // a git repository, git would name that repository's commit.
        _ => from_vcs_info()
            .or_else(from_git)
            .unwrap_or_else(|| "commit unknown".to_owned()),
    };
    println!("cargo:rustc-env=PLANNING_COMMIT={commit}");
}

/// The clone's `HEAD`, short; and the files whose change means another
/// commit, for cargo to rerun this script.
fn from_git() -> Option<String> {
    let head = git(&["rev-parse", "--short=12", "HEAD"])?;
    // A commit or a checkout moves HEAD or the branch it names.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for path in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        // A path that does not exist would rerun the script on every build.
        if let Some(file) = git(&["rev-parse", "--git-path", path])
            && Path::new(&file).exists()
        {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    Some(head)
}

/// The commit of `.cargo_vcs_info.json` (`{"git": {"sha1": "…"}, …}`),
/// read without a JSON parser: the build script has no dependencies.
fn from_vcs_info() -> Option<String> {
    let text = std::fs::read_to_string(Path::new(".cargo_vcs_info.json")).ok()?;
    let after = text.split_once("\"sha1\"")?.1;
    let sha: String = after
        .chars()
        .skip_while(|c| !c.is_ascii_hexdigit())
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (sha.len() >= 12).then(|| sha[..12].to_owned())
}

/// `git ARGS` in the crate's directory, its trimmed output when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
