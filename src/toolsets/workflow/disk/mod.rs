// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The safety layer, where the workflow touches the disk: the lock
//! (`lock`), reading the state and the files (`read`), and carrying out a
//! transition's effects in order with undo on failure (`apply`), never
//! through a symbolic link and never deleting a file of the user's.

pub mod apply;
pub mod error;
pub mod lock;
pub mod read;

use std::io;
use std::path::{Path, PathBuf};

pub use error::CastError;

/// The workflow directory D: where it is, and how replies show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dir {
    /// Its path.
    pub path: PathBuf,
    /// How replies show it: relative to the root (e.g. `.ai/task`), or
    /// absolute when it lies outside the root.
    pub shown: String,
}

impl Dir {
    /// `rel` (relative to D) on disk.
    pub fn join(&self, rel: &str) -> PathBuf {
        match rel {
            "" => self.path.clone(),
            rel => self.path.join(rel),
        }
    }

    /// `rel` (relative to D) as replies show it.
    pub fn show(&self, rel: &str) -> String {
        match (self.shown.as_str(), rel) {
            (dir, "") => dir.to_owned(),
            ("" | ".", rel) => rel.to_owned(),
            (dir, rel) => format!("{dir}/{rel}"),
        }
    }

    /// Refuses `rel` if D or any part of `rel` below D is a symbolic link
    /// (a missing part is fine: it is about to be created).
    pub fn refuse_symlinks(&self, rel: &str) -> Result<(), CastError> {
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
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(CastError::Symlink(self.show(&shown)));
                }
                Ok(_) => {}
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    return Ok(());
                }
                Err(source) => return Err(CastError::io("inspect", self.show(&shown), source)),
            }
        }
        Ok(())
    }
}

/// Whether `path` exists as a directory entry (a dangling symlink does;
/// nothing exists below a file).
pub fn entry_exists(path: &Path) -> io::Result<bool> {
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
        };
        assert_eq!(dir.show("plan.md"), ".ai/task/plan.md");
        assert_eq!(dir.show(""), ".ai/task");
        assert_eq!(dir.join("tasks/x"), PathBuf::from("/p/.ai/task/tasks/x"));
        let here = Dir {
            path: PathBuf::from("/p"),
            shown: ".".into(),
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
        };
        std::os::unix::fs::symlink(&d, &linked.path).unwrap();
        assert!(linked.refuse_symlinks("plan.md").is_err(), "D itself");
    }
}
