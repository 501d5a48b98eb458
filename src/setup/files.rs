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
use std::path::{Path, PathBuf};

use crate::runtime::regular_file;
use crate::runtime::whole_file::{Step, Write};

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
    let fail = |error: &dyn std::fmt::Display| format!("cannot write {shown}: {error}");
    if let Some(dir) = target.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|error| fail(&error))?;
    }
    let staged = Write::new()
        .keeping_permissions()
        .stage(&target, text.as_bytes())
        .map_err(|error| fail(&error.source))?;
    // Dropped, the temporary file goes.
    if read(&target, shown)?.as_deref() != expected {
        return Err(changed(shown));
    }
    match staged.land() {
        // The new file is in place; only the directory's sync failed.
        Err(error) if error.step != Step::SyncDirectory => Err(fail(&error.source)),
        _ => Ok(()),
    }
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

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

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
