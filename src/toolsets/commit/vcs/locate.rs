// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Finds the repository from `[commit] root`: walking up from the root, the
//! nearest directory with `.jj/` (jj) or `.git` (git, a directory or a
//! file); jj wins where both are (a colocated repository).

use std::path::{Path, PathBuf};

use super::failure::{Critical, Subject};

/// Which VCS `[commit] vcs` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VcsChoice {
    /// Whichever the repository is.
    Auto,
    /// jj.
    Jj,
    /// git.
    Git,
}

/// The backend a call uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// jj.
    Jj,
    /// git.
    Git,
}

/// A repository found: its kind, the directory commands run in, and its
/// top directory (the key of its lock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repository {
    /// jj or git.
    pub(crate) kind: Kind,
    /// Where commands run: `[commit] root`.
    pub(crate) dir: PathBuf,
    /// The directory holding `.jj/` or `.git`, when found.
    pub(crate) top: Option<PathBuf>,
}

/// The nearest directory from `start` up holding `.jj/` or `.git`.
fn nearest(start: &Path, wanted: &[Kind]) -> Option<(Kind, PathBuf)> {
    start.ancestors().find_map(|dir| {
        wanted.iter().find_map(|kind| {
            let found = match kind {
                Kind::Jj => dir.join(".jj").is_dir(),
                Kind::Git => dir.join(".git").exists(),
            };
            found.then(|| (*kind, dir.to_path_buf()))
        })
    })
}

/// The repository `choice` and `root` name; `root` relative to the working
/// directory.
pub(crate) fn locate(choice: VcsChoice, root: &Path) -> Result<Repository, Critical> {
    let dir = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let wanted: &[Kind] = match choice {
        VcsChoice::Auto => &[Kind::Jj, Kind::Git],
        VcsChoice::Jj => &[Kind::Jj],
        VcsChoice::Git => &[Kind::Git],
    };
    let found = nearest(&dir, wanted);
    let kind = match (choice, &found) {
        (_, Some((kind, _))) => *kind,
        (VcsChoice::Jj, None) => Kind::Jj,
        (VcsChoice::Git, None) => Kind::Git,
        (VcsChoice::Auto, None) => {
            let status = match dir.is_dir() {
                true => format!(
                    "{} and every parent directory, for .jj/ or .git",
                    dir.display()
                ),
                false => format!("{} (not a directory)", dir.display()),
            };
            return Err(Critical {
                subject: Subject::Repository(dir),
                command: None,
                status,
                stderr: Vec::new(),
                fix: "run `jj git init` or `git init` in the project, or set [commit] root to the repository.".into(),
            });
        }
    };
    Ok(Repository {
        kind,
        dir,
        top: found.map(|(_, top)| top),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_repository_wins_and_jj_wins_a_tie() {
        let tmp = tempfile::tempdir().unwrap();
        let outer = tmp.path();
        std::fs::create_dir_all(outer.join(".jj")).unwrap();
        std::fs::create_dir_all(outer.join(".git")).unwrap();
        let inner = outer.join("vendor/lib");
        std::fs::create_dir_all(inner.join("src")).unwrap();
        std::fs::write(inner.join(".git"), "gitdir: elsewhere\n").unwrap();
        let at = |choice, dir: &Path| locate(choice, dir).map(|r| (r.kind, r.top));
        assert_eq!(
            at(VcsChoice::Auto, outer),
            Ok((Kind::Jj, Some(outer.to_path_buf())))
        );
        assert_eq!(
            at(VcsChoice::Auto, &inner.join("src")),
            Ok((Kind::Git, Some(inner.clone())))
        );
        assert_eq!(
            at(VcsChoice::Jj, &inner),
            Ok((Kind::Jj, Some(outer.to_path_buf())))
        );
        assert_eq!(
            at(VcsChoice::Git, outer),
            Ok((Kind::Git, Some(outer.to_path_buf())))
        );
    }

    #[test]
    fn no_repository_is_critical_unless_a_vcs_is_forced() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("plain");
        std::fs::create_dir(&dir).unwrap();
        // Only if no ancestor of the temporary directory is a repository.
        if nearest(tmp.path(), &[Kind::Jj, Kind::Git]).is_some() {
            return;
        }
        let critical = locate(VcsChoice::Auto, &dir).unwrap_err();
        assert_eq!(critical.subject, Subject::Repository(dir.clone()));
        assert!(critical.to_string().contains("Searched: "), "{critical}");
        let missing = locate(VcsChoice::Auto, &dir.join("gone")).unwrap_err();
        assert!(
            missing.status.ends_with("(not a directory)"),
            "{}",
            missing.status
        );
        let forced = locate(VcsChoice::Git, &dir).unwrap();
        assert_eq!((forced.kind, forced.top), (Kind::Git, None));
    }
}
