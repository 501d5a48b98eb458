// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Reading and writing the agents' config files. A file is read whole
//! (a regular file of at most 16 MiB, in UTF-8) and written atomically: a
//! temporary file beside it, synced, given the old file's permissions, and
//! renamed over it, so an agent never reads half a file. A symbolic link
//! (a dotfiles repository) is followed: its target is rewritten, the link
//! kept. If the file changed since it was read (the agent wrote it
//! meanwhile), nothing is written and the user is asked to run again.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::runtime::regular_file;

/// The largest config file read.
const MAX_SIZE: u64 = 16 * 1024 * 1024;

/// The text of `path`, or `None` if there is no such file.
pub(crate) fn read(path: &Path, shown: &str) -> Result<Option<String>, String> {
    match regular_file::read(path, MAX_SIZE) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| format!("cannot read {shown}: it is not UTF-8 text; nothing was changed")),
        Err(refused) if refused.is_not_found() => Ok(None),
        Err(refused) => Err(format!(
            "cannot read {shown}: {refused}; nothing was changed"
        )),
    }
}

/// Replaces the text of `path` (or makes the file, and its directories)
/// with `text`, if it still holds `expected` (`None`: no file).
pub(crate) fn write(
    path: &Path,
    shown: &str,
    expected: Option<&str>,
    text: &str,
) -> Result<(), String> {
    let target = target(path);
    let fail = |error: std::io::Error| format!("cannot write {shown}: {error}");
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(fail)?;
    let temp = temp_beside(&target);
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        if let Ok(old) = fs::metadata(&target) {
            file.set_permissions(fs::Permissions::from_mode(
                old.permissions().mode() & 0o7777,
            ))?;
        }
        file.write_all(text.as_bytes())?;
        file.sync_all()
    })();
    if let Err(error) = written {
        let _ = fs::remove_file(&temp);
        return Err(fail(error));
    }
    if read(&target, shown)?.as_deref() != expected {
        let _ = fs::remove_file(&temp);
        return Err(changed(shown));
    }
    if let Err(error) = fs::rename(&temp, &target) {
        let _ = fs::remove_file(&temp);
        return Err(fail(error));
    }
    // The rename itself, on the disk.
    let _ = fs::File::open(&dir).and_then(|d| d.sync_all());
    Ok(())
}

/// Deletes `path` if it still holds `expected`, then its directory if that
/// is left empty and is not the project's or the home directory itself
/// (`keep`): `setup` made both.
pub(crate) fn delete(
    path: &Path,
    shown: &str,
    expected: &str,
    keep: &[&Path],
) -> Result<(), String> {
    let target = target(path);
    if read(&target, shown)?.as_deref() != Some(expected) {
        return Err(changed(shown));
    }
    fs::remove_file(&target).map_err(|error| format!("cannot delete {shown}: {error}"))?;
    if let Some(dir) = path.parent().filter(|dir| !keep.contains(dir)) {
        // Fails, as it should, when anything else is in it.
        let _ = fs::remove_dir(dir);
    }
    Ok(())
}

fn changed(shown: &str) -> String {
    format!(
        "{shown} changed while setup was working on it (did the agent write it?): run setup again"
    )
}

/// Where `path` leads: the target of a symbolic link, else itself.
fn target(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
        }
        _ => path.to_owned(),
    }
}

/// A new temporary name beside `path`, hidden, named for it and this
/// process.
fn temp_beside(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.setup-{}-{n}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_whole_with_its_permissions_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        fs::write(&real, "{}").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write(&link, "link.json", Some("{}"), "{\"a\": 1}").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "{\"a\": 1}");
        assert_eq!(
            fs::metadata(&real).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    }

    #[test]
    fn a_file_changed_meanwhile_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        fs::write(&path, "{\"theirs\": 1}").unwrap();
        let error = write(&path, "a.json", Some("{}"), "{\"ours\": 1}").unwrap_err();
        assert!(
            error.starts_with("a.json changed while setup was working on it"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"theirs\": 1}");
        assert!(delete(&path, "a.json", "{}", &[]).is_err());
        assert!(path.exists());
    }

    #[test]
    fn made_with_its_directory_and_deleted_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/mcp.json");
        write(&path, ".cursor/mcp.json", None, "{}\n").unwrap();
        assert_eq!(read(&path, "x").unwrap().as_deref(), Some("{}\n"));
        delete(&path, ".cursor/mcp.json", "{}\n", &[dir.path()]).unwrap();
        assert!(!dir.path().join(".cursor").exists());
        assert_eq!(read(&path, "x").unwrap(), None);
    }

    #[test]
    fn what_is_not_a_text_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = read(dir.path(), "dir").unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
        let path = dir.path().join("bin");
        fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read(&path, "bin").unwrap_err(),
            "cannot read bin: it is not UTF-8 text; nothing was changed"
        );
    }
}
