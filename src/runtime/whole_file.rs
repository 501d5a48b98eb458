// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The one way to write a file whole: the bytes go to a new temporary file
//! in the target's directory, are synced, and the temporary file is renamed
//! over the target (or, for a file that must be new, put there only if
//! nothing is), then the directory is synced. A reader, or a power cut,
//! sees the old file or the new one, never a part of either. If a step
//! fails, the temporary file is removed and the old file is left as it was.
//!
//! Every step works relative to a handle on the directory, opened once (or
//! handed in: plans write beneath their root through directory handles), so
//! a directory renamed meanwhile cannot send the rename elsewhere. A
//! symbolic link at the target is replaced, not followed: a caller that
//! writes through links resolves them first.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, Write as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, CWD, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

/// A step of a write, named by its error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Opening the target's directory.
    OpenDirectory,
    /// Creating the temporary file.
    Create,
    /// Writing the bytes (and the old file's permissions) to it.
    Write,
    /// Syncing it to the disk.
    Sync,
    /// Putting it in the target's place.
    Land,
    /// Syncing the directory. The new file is in place, but may not
    /// survive a power cut.
    SyncDirectory,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::OpenDirectory => "cannot open the directory of",
            Self::Create => "cannot create a temporary file beside",
            Self::Write => "cannot write the temporary file of",
            Self::Sync => "cannot sync the temporary file of",
            Self::Land => "cannot put in place",
            Self::SyncDirectory => "cannot sync the directory of",
        })
    }
}

/// Why a write failed: the step, the file and what the system said.
#[derive(Debug, thiserror::Error)]
#[error("{step} {}: {source}", shown.display())]
pub(crate) struct WriteError {
    /// What failed.
    pub(crate) step: Step,
    /// The target, as the caller named it.
    pub(crate) shown: PathBuf,
    /// The system's error, as it came.
    pub(crate) source: io::Error,
}

impl WriteError {
    /// The kind of the system's error (`AlreadyExists` for a new file
    /// that found one in its place).
    pub(crate) fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

/// How the temporary file is named.
#[derive(Debug, Clone)]
enum Temp {
    /// `.{target}.{pid}-{n}.tmp`.
    Hidden,
    /// `{prefix}{pid}-{n}.tmp`.
    Prefixed(String),
    /// Exactly this name.
    Named(OsString),
}

/// A whole-file write: how it lands. Durable and replacing by default.
#[derive(Debug, Clone)]
pub(crate) struct Write {
    synced: bool,
    keep_permissions: bool,
    new_only: bool,
    temp: Temp,
}

impl Default for Write {
    fn default() -> Self {
        Self::new()
    }
}

impl Write {
    /// Synced (the file, then its directory), replacing what is there,
    /// with a new file's default permissions.
    pub(crate) const fn new() -> Self {
        Self {
            synced: true,
            keep_permissions: false,
            new_only: false,
            temp: Temp::Hidden,
        }
    }

    /// Whether the file and its directory are synced (`storage.fsync`).
    pub(crate) const fn synced(mut self, synced: bool) -> Self {
        self.synced = synced;
        self
    }

    /// The new file gets the permissions of the file it replaces.
    pub(crate) const fn keeping_permissions(mut self) -> Self {
        self.keep_permissions = true;
        self
    }

    /// Only a new file: refused (`AlreadyExists`, nothing changed) when
    /// anything is at the target, even one made meanwhile.
    pub(crate) const fn new_only(mut self) -> Self {
        self.new_only = true;
        self
    }

    /// The temporary file is named `{prefix}{pid}-{n}.tmp` (a store that
    /// sweeps the ones a killed writer left looks for its prefix).
    pub(crate) fn temp_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.temp = Temp::Prefixed(prefix.into());
        self
    }

    /// The temporary file has exactly this name (which must be free).
    pub(crate) fn temp_named(mut self, name: impl Into<OsString>) -> Self {
        self.temp = Temp::Named(name.into());
        self
    }

    /// Writes `bytes` to `target` whole.
    pub(crate) fn to(&self, target: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        self.stage(target, bytes)?.land()
    }

    /// Writes `bytes` whole to the file `name` in the directory `dir`.
    pub(crate) fn in_dir(
        &self,
        dir: BorrowedFd<'_>,
        name: &Path,
        bytes: &[u8],
    ) -> Result<(), WriteError> {
        self.stage_in(dir, name, bytes)?.land()
    }

    /// Writes the temporary file for `target`, to be put in place by
    /// [`Staged::land`] (after the caller's last check) or removed when
    /// dropped.
    pub(crate) fn stage(&self, target: &Path, bytes: &[u8]) -> Result<Staged<'static>, WriteError> {
        let fail = |step, source| WriteError {
            step,
            shown: target.to_owned(),
            source,
        };
        let Some(name) = target.file_name() else {
            let source = io::Error::new(io::ErrorKind::InvalidInput, "it names no file");
            return Err(fail(Step::OpenDirectory, source));
        };
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let dir = rustix::fs::openat(CWD, dir, flags, Mode::empty())
            .map_err(|errno| fail(Step::OpenDirectory, errno.into()))?;
        self.stage_at(Dir::Owned(dir), Path::new(name), target, bytes)
    }

    /// Writes the temporary file for `name` in `dir` (see [`Write::stage`]).
    pub(crate) fn stage_in<'d>(
        &self,
        dir: BorrowedFd<'d>,
        name: &Path,
        bytes: &[u8],
    ) -> Result<Staged<'d>, WriteError> {
        self.stage_at(Dir::Borrowed(dir), name, name, bytes)
    }

    fn stage_at<'d>(
        &self,
        dir: Dir<'d>,
        name: &Path,
        shown: &Path,
        bytes: &[u8],
    ) -> Result<Staged<'d>, WriteError> {
        let fail = |step, source| WriteError {
            step,
            shown: shown.to_owned(),
            source,
        };
        let (temp, fd) = self
            .create_temp(dir.as_fd(), name)
            .map_err(|source| fail(Step::Create, source))?;
        let staged = Staged {
            dir,
            temp,
            name: name.to_owned(),
            shown: shown.to_owned(),
            synced: self.synced,
            new_only: self.new_only,
            landed: false,
        };
        let mut file = File::from(fd);
        if self.keep_permissions
            && let Ok(old) = rustix::fs::statat(staged.dir.as_fd(), name, AtFlags::empty())
        {
            let mode = Mode::from_raw_mode(old.st_mode & 0o7777);
            rustix::fs::fchmod(&file, mode).map_err(|errno| fail(Step::Write, errno.into()))?;
        }
        file.write_all(bytes)
            .map_err(|source| fail(Step::Write, source))?;
        if self.synced {
            file.sync_all().map_err(|source| fail(Step::Sync, source))?;
        }
        Ok(staged)
    }

    /// Creates the temporary file, which must be new (never one that a
    /// link or another writer put there).
    fn create_temp(&self, dir: BorrowedFd<'_>, name: &Path) -> io::Result<(PathBuf, OwnedFd)> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC;
        let mode = Mode::from_raw_mode(0o666);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let pid = std::process::id();
            let temp = match &self.temp {
                Temp::Hidden => {
                    let mut temp = OsString::from(".");
                    temp.push(name.file_name().unwrap_or(OsStr::new("file")));
                    temp.push(format!(".{pid}-{n}.tmp"));
                    PathBuf::from(temp)
                }
                Temp::Prefixed(prefix) => PathBuf::from(format!("{prefix}{pid}-{n}.tmp")),
                Temp::Named(temp) => PathBuf::from(temp),
            };
            match rustix::fs::openat(dir, &temp, flags, mode) {
                Ok(fd) => return Ok((temp, fd)),
                Err(Errno::EXIST) if !matches!(self.temp, Temp::Named(_)) => {}
                Err(errno) => return Err(errno.into()),
            }
        }
    }
}

/// The directory a write works in.
#[derive(Debug)]
enum Dir<'d> {
    Owned(OwnedFd),
    Borrowed(BorrowedFd<'d>),
}

impl Dir<'_> {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Self::Owned(fd) => fd.as_fd(),
            Self::Borrowed(fd) => *fd,
        }
    }
}

/// A temporary file written and synced, not yet in its place; dropped, it
/// is removed.
#[derive(Debug)]
pub(crate) struct Staged<'d> {
    dir: Dir<'d>,
    temp: PathBuf,
    name: PathBuf,
    shown: PathBuf,
    synced: bool,
    new_only: bool,
    landed: bool,
}

impl Staged<'_> {
    /// Puts the file in its place, then syncs the directory.
    pub(crate) fn land(mut self) -> Result<(), WriteError> {
        let dir = self.dir.as_fd();
        let landed = match self.new_only {
            true => land_new(dir, &self.temp, &self.name),
            false => {
                rustix::fs::renameat(dir, &self.temp, dir, &self.name).map_err(io::Error::from)
            }
        };
        if let Err(source) = landed {
            return Err(self.error(Step::Land, source));
        }
        self.landed = true;
        if self.synced
            && let Err(errno) = rustix::fs::fsync(dir)
        {
            return Err(self.error(Step::SyncDirectory, errno.into()));
        }
        Ok(())
    }

    fn error(&self, step: Step, source: io::Error) -> WriteError {
        WriteError {
            step,
            shown: self.shown.clone(),
            source,
        }
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.landed {
            // Our own temporary file, never the user's.
            let _ = rustix::fs::unlinkat(self.dir.as_fd(), &self.temp, AtFlags::empty());
        }
    }
}

/// Renames `temp` to `name` unless something is there. A file system
/// without `RENAME_NOREPLACE` gets a hard link and the temporary name
/// removed, which never replaces anything either.
fn land_new(dir: BorrowedFd<'_>, temp: &Path, name: &Path) -> io::Result<()> {
    match rustix::fs::renameat_with(dir, temp, dir, name, RenameFlags::NOREPLACE) {
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
            rustix::fs::linkat(dir, temp, dir, name, AtFlags::empty())?;
            // The file is in place under both names; the spare one goes.
            let _ = rustix::fs::unlinkat(dir, temp, AtFlags::empty());
            Ok(())
        }
        renamed => Ok(renamed?),
    }
}

/// Renames the file or directory `from` to `to`, refusing (`AlreadyExists`)
/// when anything is at `to`. A file system without `RENAME_NOREPLACE` gets
/// a plain rename, which still never replaces a file, nor a directory that
/// holds anything.
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    match rustix::fs::renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
            if std::fs::symlink_metadata(to).is_ok_and(|meta| !meta.is_dir()) {
                return Err(io::Error::from(io::ErrorKind::AlreadyExists));
            }
            Ok(rustix::fs::rename(from, to)?)
        }
        renamed => Ok(renamed?),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.json");
        Write::new().to(&target, b"old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        Write::new()
            .keeping_permissions()
            .to(&target, b"new")
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        Write::new().synced(false).to(&target, b"newer").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"newer");
        assert_eq!(names(dir.path()), ["a.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_intact() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.json");
        fs::write(&target, b"old").unwrap();
        // The temporary name is taken: nothing is written.
        fs::write(dir.path().join("taken"), b"someone's").unwrap();
        let error = Write::new()
            .temp_named("taken")
            .to(&target, b"new")
            .unwrap_err();
        assert_eq!(error.step, Step::Create);
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert!(
            error.to_string().starts_with(&format!(
                "cannot create a temporary file beside {}: ",
                target.display()
            )),
            "{error}"
        );
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(fs::read(dir.path().join("taken")).unwrap(), b"someone's");
        // The rename fails (a directory is in the way): the temporary
        // file goes, the directory stays.
        let blocked = dir.path().join("blocked");
        fs::create_dir(&blocked).unwrap();
        fs::write(blocked.join("inside"), b"x").unwrap();
        let error = Write::new().to(&blocked, b"new").unwrap_err();
        assert_eq!(error.step, Step::Land);
        assert_eq!(names(dir.path()), ["a.json", "blocked", "taken"]);
        // A staged write that is dropped (the caller's check refused)
        // changes nothing.
        let staged = Write::new().stage(&target, b"new").unwrap();
        assert_eq!(names(dir.path()).len(), 4, "the temporary file");
        drop(staged);
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["a.json", "blocked", "taken"]);
        // No directory: a clear error.
        let error = Write::new()
            .to(&dir.path().join("missing/a.json"), b"new")
            .unwrap_err();
        assert_eq!(error.step, Step::OpenDirectory);
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_new_file_never_replaces_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.json");
        Write::new().new_only().to(&target, b"first").unwrap();
        let error = Write::new().new_only().to(&target, b"second").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(error.step, Step::Land);
        assert_eq!(fs::read(&target).unwrap(), b"first");
        assert_eq!(names(dir.path()), ["a.json"]);
    }

    #[test]
    fn a_link_at_the_target_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::write(&elsewhere, b"keep").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        Write::new().to(&link, b"new").unwrap();
        assert_eq!(fs::read(&elsewhere).unwrap(), b"keep");
        assert!(fs::symlink_metadata(&link).unwrap().is_file());
    }

    #[test]
    fn a_write_in_a_directory_handle_and_a_move_that_never_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let handle = File::open(dir.path()).unwrap();
        Write::new()
            .synced(false)
            .temp_named("p.md.tmp.1")
            .in_dir(handle.as_fd(), Path::new("p.md"), b"# p\n")
            .unwrap();
        assert_eq!(fs::read(dir.path().join("p.md")).unwrap(), b"# p\n");
        assert_eq!(names(dir.path()), ["p.md"]);
        let moved = dir.path().join("q.md");
        rename_no_replace(&dir.path().join("p.md"), &moved).unwrap();
        fs::write(dir.path().join("p.md"), b"other").unwrap();
        let error = rename_no_replace(&dir.path().join("p.md"), &moved).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&moved).unwrap(), b"# p\n");
    }
}
