// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A directory the server makes for its own files (`storage.dir`, the
//! workflow directory), born with an ignore rule inside, so that git and jj
//! never see the server's files in the user's change.
//!
//! The rule is a `.gitignore` (git and jj both read one in any folder of
//! the working copy, tracked or not). It is written only into a directory
//! this call makes, never into one that exists (the user's `.gitignore` is
//! never touched), and atomically: the directory is made under a temporary
//! name beside its place, the rule written and synced inside it, and the
//! whole directory renamed into place without replacing anything. So the
//! directory never exists without its rule, not even for a moment (a jj
//! snapshot taken meanwhile sees nothing to track), and a crash leaves at
//! most a hidden temporary folder whose own rule hides it.

use std::fs::{self, OpenOptions};
use std::io::{self, ErrorKind, Write as _};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::whole_file::rename_no_replace;

/// The name of the ignore file.
pub(crate) const GITIGNORE: &str = ".gitignore";

/// Makes the directory `path` (and its missing parents) unless it exists.
/// When this call makes `path` itself and `rule` is given, `path` appears
/// with `.gitignore` holding `rule` already inside. The parents get no
/// rule: they hold nothing but `path`, which git and jj then skip. With
/// `sync`, the rule and the new entry are flushed to the disk.
///
/// Returns whether this call made `path` (another process may make it at
/// the same time: then one of them does, and the other's rule is dropped).
pub(crate) fn create(path: &Path, rule: Option<&str>, sync: bool) -> io::Result<bool> {
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Ok(false);
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(parent)?;
    let Some(rule) = rule else {
        return made(fs::create_dir(path), path);
    };
    let temp = temp_dir(parent, path)?;
    let placed = write_rule(&temp, rule, sync).and_then(|()| rename_no_replace(&temp, path));
    match placed {
        Ok(()) => {
            if sync {
                fs::File::open(parent)?.sync_all()?;
            }
            Ok(true)
        }
        Err(error) => {
            // Our own temporary folder and rule, never the user's.
            let _ = fs::remove_file(temp.join(GITIGNORE));
            let _ = fs::remove_dir(&temp);
            made(Err(error), path)
        }
    }
}

/// Whether a directory was made, given the outcome of making it: one that
/// is there already (another process was first) is not an error.
fn made(outcome: io::Result<()>, path: &Path) -> io::Result<bool> {
    match outcome {
        Ok(()) => Ok(true),
        Err(_) if fs::metadata(path).is_ok_and(|m| m.is_dir()) => Ok(false),
        Err(error) => Err(error),
    }
}

/// A new empty folder beside `path`, hidden, named for it and this process.
fn temp_dir(parent: &Path, path: &Path) -> io::Result<std::path::PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = parent.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match fs::create_dir(&temp) {
            Ok(()) => return Ok(temp),
            Err(error) if error.kind() == ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
}

/// Writes `rule` to `dir/.gitignore`, a file that must not exist yet.
fn write_rule(dir: &Path, rule: &str, sync: bool) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.join(GITIGNORE))?;
    file.write_all(rule.as_bytes())?;
    if sync {
        file.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_directory_is_born_with_its_rule_and_its_parents_without() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("a/b/own");
        assert!(create(&path, Some("*\n"), true).unwrap());
        assert_eq!(fs::read_to_string(path.join(GITIGNORE)).unwrap(), "*\n");
        assert_eq!(entries(&path), [GITIGNORE]);
        assert_eq!(
            entries(&root.path().join("a/b")),
            ["own"],
            "no temporary left"
        );
        assert_eq!(entries(&root.path().join("a")), ["b"]);
        // Made once: a second call changes nothing.
        fs::write(path.join(GITIGNORE), "mine\n").unwrap();
        assert!(!create(&path, Some("*\n"), false).unwrap());
        assert_eq!(fs::read_to_string(path.join(GITIGNORE)).unwrap(), "mine\n");
    }

    #[test]
    fn an_existing_directory_gets_no_rule_and_keeps_the_users() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("own");
        fs::create_dir(&path).unwrap();
        assert!(!create(&path, Some("*\n"), false).unwrap());
        assert!(entries(&path).is_empty());
        // Reached through a symlink, it exists too.
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(!create(&link, Some("*\n"), false).unwrap());
        assert!(entries(&path).is_empty());
    }

    #[test]
    fn without_a_rule_it_is_a_plain_directory() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("x/own");
        assert!(create(&path, None, false).unwrap());
        assert!(entries(&path).is_empty());
    }

    #[test]
    fn a_file_in_the_way_is_an_error_and_nothing_is_left() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("own");
        fs::write(&path, "a file").unwrap();
        let error = create(&path, Some("*\n"), false).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::AlreadyExists, "{error}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "a file");
        assert_eq!(
            entries(root.path()),
            ["own"],
            "the temporary folder is gone"
        );
        assert!(create(&path.join("below"), Some("*\n"), false).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "a file");
    }

    #[test]
    fn racing_makers_agree_on_one_directory_with_one_rule() {
        for _ in 0..20 {
            let root = tempfile::tempdir().unwrap();
            let path = root.path().join("own");
            let made: Vec<bool> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..4)
                    .map(|_| scope.spawn(|| create(&path, Some("*\n"), false).unwrap()))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(made.iter().filter(|m| **m).count(), 1, "{made:?}");
            assert_eq!(entries(&path), [GITIGNORE]);
            assert_eq!(entries(root.path()), ["own"]);
        }
    }
}
