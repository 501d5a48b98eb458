// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The safety layer, where the workflow touches the disk: the lock
//! (`lock`), reading the state and the files (`read`), and carrying out a
//! transition's effects in order with undo on failure (`apply`), never
//! through a symbolic link and never deleting a file of the user's; and a
//! pause in the middle of a spell for end-to-end tests (`pause`).

pub(crate) mod apply;
pub(crate) mod error;
pub(crate) mod lock;
pub(crate) mod pause;
pub(crate) mod read;

use std::io;
use std::path::{Path, PathBuf};

pub(crate) use error::CastError;

/// The workflow directory D: where it is, and how replies show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dir {
    /// Its path.
    pub(crate) path: PathBuf,
    /// How replies show it: relative to the root (e.g. `.ai/task`), or
    /// absolute when it lies outside the root.
    pub(crate) shown: String,
    /// The project root (`workflow.root`), the boundary writes stay
    /// beneath when D lies beneath it.
    pub(crate) root: PathBuf,
    /// Whether D, when a spell makes it, is born with a `.gitignore` that
    /// keeps the server's own files out of the user's commits.
    pub(crate) gitignore: bool,
}

/// What is at a path on the way to a write.
enum Step {
    /// A folder or a file: go on.
    Entry,
    /// Nothing (or a file above it): nothing below exists either.
    Missing,
}

/// Refuses `path` (shown as `shown`) if it is a symbolic link.
fn step(path: &Path, shown: impl Fn() -> String) -> Result<Step, CastError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(CastError::Symlink(shown())),
        Ok(_) => Ok(Step::Entry),
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(Step::Missing)
        }
        Err(source) => Err(CastError::io("inspect", shown(), source)),
    }
}

impl Dir {
    /// `rel` (relative to D) on disk.
    pub(crate) fn join(&self, rel: &str) -> PathBuf {
        match rel {
            "" => self.path.clone(),
            rel => self.path.join(rel),
        }
    }

    /// `rel` (relative to D) as replies show it.
    pub(crate) fn show(&self, rel: &str) -> String {
        match (self.shown.as_str(), rel) {
            (dir, "") => dir.to_owned(),
            ("" | ".", rel) => rel.to_owned(),
            (dir, rel) => format!("{dir}/{rel}"),
        }
    }

    /// Refuses `rel` if a folder between the root and D, D itself or any
    /// part of `rel` below D is a symbolic link (a missing part is fine: it
    /// is about to be created). The folders between the root and D count
    /// too: a symlinked `.ai` would lead every write out of the project.
    /// The root itself may be reached through links (it is the boundary),
    /// and a D configured outside the root is its own boundary.
    pub(crate) fn refuse_symlinks(&self, rel: &str) -> Result<(), CastError> {
        if let Ok(between) = self.path.strip_prefix(&self.root) {
            let parts: Vec<_> = between.components().collect();
            let mut path = self.root.clone();
            let mut shown: Vec<String> = Vec::new();
            // The last part is D itself, checked below.
            for part in parts.iter().take(parts.len().saturating_sub(1)) {
                path.push(part);
                shown.push(part.as_os_str().to_string_lossy().into_owned());
                if let Step::Missing = step(&path, || shown.join("/"))? {
                    return Ok(());
                }
            }
        }
        let mut path = self.path.clone();
        let mut shown = String::new();
        let parts = std::iter::once("").chain(rel.split('/').filter(|p| !p.is_empty()));
        for part in parts {
            if !part.is_empty() {
                path.push(part);
                if !shown.is_empty() {
                    shown.push('/');
                }
                shown.push_str(part);
            }
            if let Step::Missing = step(&path, || self.show(&shown))? {
                return Ok(());
            }
        }
        Ok(())
    }
}

/// Whether `path` exists as a directory entry (a dangling symlink does;
/// nothing exists below a file).
pub(crate) fn entry_exists(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_relative_to_the_root() {
        let dir = Dir {
            path: PathBuf::from("/p/.ai/task"),
            shown: ".ai/task".into(),
            root: PathBuf::from("/p"),
            gitignore: true,
        };
        assert_eq!(dir.show("plan.md"), ".ai/task/plan.md");
        assert_eq!(dir.show(""), ".ai/task");
        assert_eq!(dir.join("tasks/x"), PathBuf::from("/p/.ai/task/tasks/x"));
        let here = Dir {
            path: PathBuf::from("/p"),
            shown: ".".into(),
            root: PathBuf::from("/p"),
            gitignore: true,
        };
        assert_eq!(here.show("plan.md"), "plan.md");
    }

    #[test]
    fn symlinks_in_the_way_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let d = root.path().join("d");
        std::fs::create_dir(&d).unwrap();
        std::os::unix::fs::symlink(root.path(), d.join("tasks")).unwrap();
        let dir = Dir {
            path: d.clone(),
            shown: "d".into(),
            root: root.path().to_path_buf(),
            gitignore: true,
        };
        assert!(dir.refuse_symlinks("plan.md").is_ok());
        assert!(dir.refuse_symlinks("pr-reviews/x/comments.md").is_ok());
        let refused = dir.refuse_symlinks("tasks/task-x/task.md").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "d/tasks is a symbolic link; the workflow never writes through one, so nothing was changed"
        );
        let linked = Dir {
            path: root.path().join("link"),
            shown: "link".into(),
            root: root.path().to_path_buf(),
            gitignore: true,
        };
        std::os::unix::fs::symlink(&d, &linked.path).unwrap();
        assert!(linked.refuse_symlinks("plan.md").is_err(), "D itself");
    }

    #[test]
    fn a_symlinked_folder_between_the_root_and_d_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("task")).unwrap();
        std::os::unix::fs::symlink(outside.path(), project.path().join(".ai")).unwrap();
        let dir = Dir {
            path: project.path().join(".ai/task"),
            shown: ".ai/task".into(),
            root: project.path().to_path_buf(),
            gitignore: true,
        };
        for rel in ["", ".lock", "plan.md", "tasks/task-x/task.md"] {
            let refused = dir.refuse_symlinks(rel).unwrap_err();
            assert_eq!(
                refused.to_string(),
                ".ai is a symbolic link; the workflow never writes through one, so nothing was changed"
            );
        }
        // Deeper: `a/b/task` with `b` a link.
        std::fs::create_dir(project.path().join("a")).unwrap();
        std::os::unix::fs::symlink(outside.path(), project.path().join("a/b")).unwrap();
        let deeper = Dir {
            path: project.path().join("a/b/task"),
            shown: "a/b/task".into(),
            root: project.path().to_path_buf(),
            gitignore: true,
        };
        let refused = deeper.refuse_symlinks("plan.md").unwrap_err();
        assert!(
            refused.to_string().starts_with("a/b is a symbolic link"),
            "{refused}"
        );
        // The root itself may be a link (it is the boundary), and a D
        // configured outside the root is its own boundary.
        let link_root = project.path().join("root-link");
        std::fs::create_dir(project.path().join("real")).unwrap();
        std::os::unix::fs::symlink(project.path().join("real"), &link_root).unwrap();
        let through_root = Dir {
            path: link_root.join(".ai/task"),
            shown: ".ai/task".into(),
            root: link_root.clone(),
            gitignore: true,
        };
        assert!(through_root.refuse_symlinks("plan.md").is_ok());
        let elsewhere = Dir {
            path: outside.path().join("task"),
            shown: outside.path().join("task").display().to_string(),
            root: project.path().to_path_buf(),
            gitignore: true,
        };
        assert!(elsewhere.refuse_symlinks("plan.md").is_ok());
    }
}
