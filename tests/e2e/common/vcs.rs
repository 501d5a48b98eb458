// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Real jj and git repositories for the tests of toolset `commit`, each in
//! a temporary directory with its own HOME and VCS configuration, and the
//! server's environment to match.

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// The jj binary: `jj` on PATH, else `~/.cargo/bin/jj` (where
/// `cargo install --locked jj-cli@0.45.1` puts it). `None` (the test is
/// skipped) when there is none, unless `PLANNING_REQUIRE_JJ=1`: then the
/// test fails.
pub(crate) fn jj_or_skip(test: &str) -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("jj")];
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        candidates.push(PathBuf::from(home).join("bin/jj"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".cargo/bin/jj"));
    }
    let found = candidates.into_iter().find(|jj| {
        Command::new(jj)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        let why = "jj is not installed (cargo install --locked jj-cli@0.45.1)";
        if std::env::var("PLANNING_REQUIRE_JJ").as_deref() == Ok("1") {
            panic!("{test}: {why}, and PLANNING_REQUIRE_JJ=1 requires it");
        }
        eprintln!("SKIPPED {test}: {why}; set PLANNING_REQUIRE_JJ=1 to make this a failure");
    }
    found.map(|jj| std::fs::canonicalize(&jj).unwrap_or(jj))
}

/// Which VCS a repository uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backend {
    /// jj (a colocated jj+git repository).
    Jj,
    /// git.
    Git,
}

/// A temporary directory with a repository in `repo/` and isolated HOME
/// and VCS configuration.
pub(crate) struct Repo {
    /// The directory the server runs in (its HOME, too).
    pub dir: TempDir,
    /// The repository.
    pub path: PathBuf,
    /// The jj binary, for jj repositories.
    pub jj: Option<PathBuf>,
}

impl Repo {
    /// A new repository of `backend` (jj needs its binary).
    pub(crate) fn new(backend: Backend, jj: Option<&Path>) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("repo");
        std::fs::create_dir(&path).expect("repo dir");
        std::fs::write(dir.path().join("gitconfig"), "").expect("gitconfig");
        std::fs::write(dir.path().join("jjconfig.toml"), "").expect("jjconfig");
        let repo = Self {
            dir,
            path,
            jj: jj.map(Path::to_path_buf),
        };
        match backend {
            Backend::Jj => {
                repo.jj(&["git", "init", "--colocate"]);
            }
            Backend::Git => {
                repo.git(&["init", "-q", "-b", "main"]);
            }
        }
        repo
    }

    /// The isolated environment: no user or system configuration.
    pub(crate) fn vcs_env(&self) -> Vec<(String, String)> {
        let dir = self.dir.path();
        let at = |name: &str| dir.join(name).display().to_string();
        vec![
            ("HOME".into(), dir.display().to_string()),
            ("XDG_CONFIG_HOME".into(), at(".config")),
            ("JJ_CONFIG".into(), at("jjconfig.toml")),
            ("GIT_CONFIG_GLOBAL".into(), at("gitconfig")),
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("GIT_AUTHOR_NAME".into(), "Test".into()),
            ("GIT_AUTHOR_EMAIL".into(), "test@example.com".into()),
            ("GIT_COMMITTER_NAME".into(), "Test".into()),
            ("GIT_COMMITTER_EMAIL".into(), "test@example.com".into()),
        ]
    }

    /// The server's environment: isolated, `[commit] root` the repository.
    pub(crate) fn server_env(&self) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = self
            .vcs_env()
            .into_iter()
            .filter(|(k, _)| !k.starts_with("GIT_AUTHOR") && !k.starts_with("GIT_COMMITTER"))
            .collect();
        env.push((
            "PLANNING_COMMIT_ROOT".into(),
            self.path.display().to_string(),
        ));
        if let Some(jj) = &self.jj {
            env.push(("PLANNING_COMMIT_JJ_BIN".into(), jj.display().to_string()));
        }
        env
    }

    /// Runs `program args` in `dir` with the isolated environment.
    pub(crate) fn run_in(
        &self,
        dir: &Path,
        program: &Path,
        args: &[&str],
        stdin: Option<&str>,
    ) -> std::process::Output {
        use std::io::Write;
        let mut command = Command::new(program);
        command.args(args).current_dir(dir).envs(self.vcs_env());
        command.stdin(match stdin {
            Some(_) => std::process::Stdio::piped(),
            None => std::process::Stdio::null(),
        });
        command
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("{program:?}: {e}"));
        if let Some(text) = stdin {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
        }
        child.wait_with_output().unwrap()
    }

    fn checked(&self, program: &Path, args: &[&str]) -> String {
        let output = self.run_in(&self.path, program, args, None);
        assert!(
            output.status.success(),
            "{program:?} {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// Runs git in the repository; it must succeed.
    pub(crate) fn git(&self, args: &[&str]) -> String {
        self.checked(Path::new("git"), args)
    }

    /// Runs jj in the repository; it must succeed.
    pub(crate) fn jj(&self, args: &[&str]) -> String {
        let jj = self.jj.clone().expect("a jj repository");
        let mut all = vec!["--no-pager", "--color", "never"];
        all.extend_from_slice(args);
        self.checked(&jj, &all)
    }

    /// The description of `@` (jj).
    pub(crate) fn jj_description(&self, revision: &str) -> String {
        self.jj(&["log", "-r", revision, "--no-graph", "-T", "description"])
    }

    /// The change id of `revision`, 12 characters (jj).
    pub(crate) fn jj_change(&self, revision: &str) -> String {
        self.jj(&[
            "log",
            "-r",
            revision,
            "--no-graph",
            "-T",
            "change_id.short(12)",
        ])
    }

    /// How many operations jj has recorded.
    pub(crate) fn jj_operations(&self) -> usize {
        self.jj(&["op", "log", "--no-graph", "-T", "id ++ \"\\n\""])
            .lines()
            .count()
    }

    /// The message of the commit `revision` names (`""` when none).
    pub(crate) fn git_message(&self, revision: &str) -> String {
        let output = self.run_in(
            &self.path,
            Path::new("git"),
            &["cat-file", "commit", revision],
            None,
        );
        let commit = String::from_utf8(output.stdout).unwrap();
        commit
            .split_once("\n\n")
            .map(|(_, m)| m.to_owned())
            .unwrap_or_default()
    }

    /// The plan of `branch` as git holds it (`""` when none).
    pub(crate) fn git_plan(&self, branch: &str) -> String {
        let output = self.run_in(
            &self.path,
            Path::new("git"),
            &[
                "cat-file",
                "blob",
                &format!("refs/commit-plan/{branch}:plan"),
            ],
            None,
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// The names of the versions in the history of `branch`'s plan, oldest
    /// first (`000001-set_overarching_goal`).
    pub(crate) fn git_plan_versions(&self, branch: &str) -> Vec<String> {
        let listing = format!("refs/commit-plan/{branch}:history");
        self.git(&["ls-tree", "--name-only", &listing])
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Everything a plan write must not touch on git: HEAD, the index file
    /// and the working tree's status, and the refs other than plans.
    pub(crate) fn git_untouchables(&self) -> String {
        let head = self.run_in(
            &self.path,
            Path::new("git"),
            &["rev-parse", "--verify", "--quiet", "HEAD"],
            None,
        );
        let index = std::fs::read(self.path.join(".git/index")).unwrap_or_default();
        let status = self.git(&["status", "--porcelain=v1", "--untracked-files=all"]);
        let refs = self.git(&["for-each-ref", "--format=%(refname) %(objectname)"]);
        let refs: Vec<&str> = refs
            .lines()
            .filter(|l| !l.starts_with("refs/commit-plan/"))
            .collect();
        format!(
            "HEAD {}\nindex {} bytes, {:x}\nstatus:\n{status}refs:\n{}\n",
            String::from_utf8_lossy(&head.stdout).trim(),
            index.len(),
            index
                .iter()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b))),
            refs.join("\n")
        )
    }
}

/// The command a reply names: from `start` to the next `,` `;` `)` or line
/// end, without a final full stop (`jj squash --into x`).
pub(crate) fn named(reply: &str, start: &str) -> String {
    let at = reply
        .find(start)
        .unwrap_or_else(|| panic!("the reply names no `{start}`: {reply}"));
    reply[at..]
        .split([',', ';', ')', '\n'])
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_owned()
}

/// `(&str, &str)` views of owned pairs.
pub(crate) fn pairs(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}
