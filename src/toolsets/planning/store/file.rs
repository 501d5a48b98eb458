// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `file` backend: one JSON snapshot per board, `{dir}/{name}.json`.
//!
//! A save writes a temporary file next to the snapshot, syncs it, renames it
//! over the snapshot and syncs the directory, so that the snapshot on disk is
//! always a whole one, old or new. Writers (in this process and in others)
//! take an exclusive lock on the sidecar `{name}.json.lock` around
//! reload-change-save, and every process reloads the snapshot when its file
//! changed since it last saw it, so that no update is lost and no read is stale.
//!
//! The lock file is made by the first write (a board that is only read
//! leaves no file behind), and a lock counts only while the locked file is
//! still the one at the path: a lock file that someone deleted or replaced
//! is locked again, and a save whose lock file was replaced meanwhile is
//! refused. A symlinked snapshot is written through (the link stays), a
//! snapshot keeps its permissions, and only a regular file of at most
//! [`MAX_SNAPSHOT_BYTES`] is read.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime};

use parking_lot::Mutex;

use super::{SnapshotStore, StoreError, WriteLock, snapshot};
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::runtime::own_dir;
use crate::runtime::regular_file::{self, ReadRefused};
use crate::runtime::whole_file::{Step, Write};
use crate::toolsets::planning::domain::action::Done;
use crate::toolsets::planning::domain::{Board, Limits};

/// The `.gitignore` a directory of board files is born with when the
/// server makes it (`storage.gitignore`): everything in it, this file too,
/// so that git and jj keep the boards out of the user's commits.
pub(crate) const IGNORE_RULE: &str = "\
# Made by planning-mcp-server with this directory: git and jj keep the
# boards out of your commits. To share them through the repository instead,
# delete this file (and set [storage] gitignore = false); see docs/storage.md.
*
";

/// The largest snapshot read: far beyond any board within the limits
/// (100 tasks and 1,000 history entries take well under a megabyte).
pub(crate) const MAX_SNAPSHOT_BYTES: u64 = 64 << 20;

/// Snapshots of one board in a directory.
#[derive(Debug)]
pub struct FileStore {
    dir: PathBuf,
    name: String,
    path: PathBuf,
    lock_path: PathBuf,
    /// The lock file as last opened; opened by the first write, and again
    /// when the file at the path is no longer this one.
    lock_file: Mutex<Option<Arc<File>>>,
    fsync: bool,
    /// Whether a directory this store makes gets [`IGNORE_RULE`].
    gitignore: bool,
    limits: Limits,
    history_enabled: bool,
    seen: Mutex<Seen>,
    /// Whether temporary files left by a killed writer were looked for.
    swept: AtomicBool,
}

/// What this process last saw at the snapshot's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Not looked yet, or unsure (after a failed save).
    Unknown,
    /// No snapshot.
    Missing,
    /// This file.
    File(Fingerprint),
}

/// Identifies a version of the snapshot file without reading it. Every save
/// renames a new file into place, so the inode alone changes on each save;
/// size and modification time guard against inode reuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl Fingerprint {
    fn of(metadata: &Metadata) -> Self {
        Self {
            device: metadata.dev(),
            inode: metadata.ino(),
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

/// Whether `file` is the file now at `path` (same device and inode).
fn is_at(file: &File, path: &Path) -> std::io::Result<bool> {
    let (open, now) = (file.metadata()?, fs::metadata(path)?);
    Ok(open.dev() == now.dev() && open.ino() == now.ino())
}

impl FileStore {
    /// The store of board `name` in `dir` (relative to the working
    /// directory). Nothing is created until the first write.
    pub fn open(
        dir: &Path,
        name: &str,
        fsync: bool,
        limits: Limits,
        history_enabled: bool,
    ) -> Result<Self, StoreError> {
        let dir = std::path::absolute(dir).map_err(|source| StoreError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Self {
            path: dir.join(format!("{name}.json")),
            lock_path: dir.join(format!("{name}.json.lock")),
            dir,
            name: name.to_owned(),
            lock_file: Mutex::new(None),
            fsync,
            gitignore: false,
            limits,
            history_enabled,
            seen: Mutex::new(Seen::Unknown),
            swept: AtomicBool::new(false),
        })
    }

    /// The same store; when `gitignore`, the directory it makes (at the
    /// first write, if it is missing) is born with [`IGNORE_RULE`] inside.
    /// A directory that exists is never given one.
    pub(crate) fn with_gitignore(self, gitignore: bool) -> Self {
        Self { gitignore, ..self }
    }

    /// Whether a snapshot of board `name` is stored in `dir`.
    pub(crate) fn exists(dir: &Path, name: &str) -> bool {
        dir.join(format!("{name}.json")).exists()
    }

    fn temp_prefix(&self) -> String {
        format!(".{}.json.", self.name)
    }

    fn lock_error(&self, source: std::io::Error) -> StoreError {
        StoreError::Lock {
            path: self.lock_path.clone(),
            source,
        }
    }

    /// The lock file, opened (and with its directory, created) if needed.
    fn lock_file(&self) -> Result<Arc<File>, StoreError> {
        let mut slot = self.lock_file.lock();
        if let Some(file) = slot.as_ref() {
            return Ok(file.clone());
        }
        let rule = self.gitignore.then_some(IGNORE_RULE);
        own_dir::create(&self.dir, rule, self.fsync).map_err(|source| StoreError::Write {
            path: self.dir.clone(),
            source,
        })?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(regular_file::nonblocking())
            .open(&self.lock_path)
            .map_err(|source| self.lock_error(source))?;
        regular_file::check_regular(&file).map_err(|refused| match refused {
            ReadRefused::Io(source) => self.lock_error(source),
            other => self.lock_error(std::io::Error::other(other.to_string())),
        })?;
        let file = Arc::new(file);
        *slot = Some(file.clone());
        Ok(file)
    }

    /// Forgets the lock file, so that the next lock opens the one at the path.
    fn forget_lock_file(&self, stale: &Arc<File>) {
        let mut slot = self.lock_file.lock();
        if slot.as_ref().is_some_and(|file| Arc::ptr_eq(file, stale)) {
            *slot = None;
        }
    }

    /// Only called under the lock, when no writer can be midway.
    fn remove_leftover_temp_files(&self) {
        if self.swept.swap(true, Ordering::Relaxed) {
            return;
        }
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        let prefix = self.temp_prefix();
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let file_name = file_name.to_string_lossy();
            if file_name.starts_with(&prefix) && file_name.ends_with(".tmp") {
                tracing::warn!(file = %entry.path().display(), "removing a temporary file left by an interrupted save");
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    fn write_error(&self, source: std::io::Error) -> StoreError {
        StoreError::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// The file a save replaces: the snapshot, or the file its symlink
    /// points to (written through, so that the link stays).
    fn target(&self) -> Result<PathBuf, StoreError> {
        match fs::symlink_metadata(&self.path) {
            Ok(metadata) if metadata.file_type().is_symlink() => fs::canonicalize(&self.path)
                .map_err(|source| {
                    self.write_error(std::io::Error::new(
                        source.kind(),
                        format!("it is a symlink to a missing file ({source})"),
                    ))
                }),
            _ => Ok(self.path.clone()),
        }
    }

    /// Refuses to save when the lock file at the path is no longer the one
    /// this process locked (someone deleted or replaced it meanwhile, so
    /// another writer may hold the new one).
    fn check_lock_held(&self) -> Result<(), StoreError> {
        let held = self.lock_file.lock().clone();
        let still = held.is_some_and(|file| is_at(&file, &self.lock_path).unwrap_or(false));
        match still {
            true => Ok(()),
            false => Err(StoreError::LockLost {
                path: self.lock_path.clone(),
            }),
        }
    }
}

/// The names of the boards stored in `dir`: the stems of its `{name}.json`
/// files, unchecked (the caller decides which are valid names), sorted. A
/// missing directory holds no boards.
pub(crate) fn stored_names(dir: &Path) -> Result<Vec<String>, StoreError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(StoreError::Read {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|entry| fs::metadata(entry.path()).is_ok_and(|m| m.is_file()))
        .filter_map(|entry| {
            let file_name = entry.file_name();
            file_name.to_str()?.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort();
    Ok(names)
}

/// Reads board `name` from `dir` without taking the lock or creating
/// anything (a save renames a whole new snapshot into place, so a read
/// never sees half of one): `None` when no snapshot is there.
pub(crate) fn read(
    dir: &Path,
    name: &str,
    limits: Limits,
    history_enabled: bool,
) -> Result<Option<Board>, StoreError> {
    let path = std::path::absolute(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .join(format!("{name}.json"));
    let json = match fs::read(&path) {
        Ok(json) => json,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(StoreError::Read { path, source }),
    };
    snapshot::from_json(&json, limits, history_enabled)
        .map(Some)
        .map_err(|problem| StoreError::Invalid { path, problem })
}

impl SnapshotStore for FileStore {
    fn lock(&self, until: Instant) -> Result<WriteLock<'_>, StoreError> {
        loop {
            let locked = match FileLock::wait(self.lock_file()?, Access::Exclusive, until) {
                Ok(locked) => locked,
                Err(LockError::Held) => {
                    return Err(StoreError::Busy {
                        board: self.name.clone(),
                        lock: self.lock_path.clone(),
                    });
                }
                Err(LockError::Io(source)) => return Err(self.lock_error(source)),
            };
            match is_at(locked.file(), &self.lock_path) {
                Ok(true) => {
                    self.remove_leftover_temp_files();
                    return Ok(Box::new(locked));
                }
                // Deleted or replaced since it was opened: that lock keeps
                // no one out. Lock the file at the path instead.
                Ok(false) => {}
                Err(error) if error.kind() == ErrorKind::NotFound => {}
                Err(source) => return Err(self.lock_error(source)),
            }
            tracing::warn!(file = %self.lock_path.display(), "the lock file was deleted or replaced; locking the one at the path");
            self.forget_lock_file(locked.file());
        }
    }

    fn may_block(&self) -> bool {
        true
    }

    fn persistent(&self) -> bool {
        true
    }

    fn may_have_changed(&self) -> bool {
        let now = match fs::metadata(&self.path) {
            Ok(metadata) => Seen::File(Fingerprint::of(&metadata)),
            Err(error) if error.kind() == ErrorKind::NotFound => Seen::Missing,
            Err(_) => return true,
        };
        *self.seen.lock() != now
    }

    fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
        let mut seen = self.seen.lock();
        let read_error = |source| StoreError::Read {
            path: self.path.clone(),
            source,
        };
        let invalid = |problem: String| StoreError::Invalid {
            path: self.path.clone(),
            problem,
        };
        let mut file = match regular_file::open(&self.path) {
            Ok(file) => file,
            Err(error) if error.kind() == ErrorKind::NotFound => {
                let before = std::mem::replace(&mut *seen, Seen::Missing);
                let gone = matches!(before, Seen::File(_));
                return Ok(gone.then(|| Board::new(self.limits, self.history_enabled)));
            }
            Err(error) => return Err(read_error(error)),
        };
        let now = Fingerprint::of(&file.metadata().map_err(read_error)?);
        if *seen == Seen::File(now) {
            return Ok(None);
        }
        let json =
            regular_file::read_all(&mut file, MAX_SNAPSHOT_BYTES).map_err(
                |refused| match refused {
                    ReadRefused::Io(source) => read_error(source),
                    other => invalid(other.to_string()),
                },
            )?;
        let board =
            snapshot::from_json(&json, self.limits, self.history_enabled).map_err(invalid)?;
        *seen = Seen::File(now);
        Ok(Some(board))
    }

    fn save(&self, board: &Board, _change: &Done) -> Result<(), StoreError> {
        let target = self.target()?;
        let staged = Write::new()
            .synced(self.fsync)
            .keeping_permissions()
            .temp_prefix(self.temp_prefix())
            .stage(&target, &snapshot::to_json(board))
            .map_err(|error| self.write_error(error.source))?;
        // Dropped, the temporary file goes.
        self.check_lock_held()?;
        let landed = staged.land();
        let mut seen = self.seen.lock();
        match landed {
            Ok(()) => {}
            Err(error) if error.step == Step::SyncDirectory => {
                // The new snapshot is in place but may not survive a power
                // cut: reload it on the next call rather than trust either
                // version.
                *seen = Seen::Unknown;
                return Err(self.write_error(error.source));
            }
            Err(error) => return Err(self.write_error(error.source)),
        }
        *seen = match fs::metadata(&self.path) {
            Ok(metadata) => Seen::File(Fingerprint::of(&metadata)),
            Err(_) => Seen::Unknown,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;
    use crate::toolsets::planning::domain::NewTask;

    fn open(dir: &Path) -> FileStore {
        FileStore::open(dir, "default", false, Limits::default(), true).unwrap()
    }

    /// Saves under the lock, as the shared board does.
    fn save(store: &FileStore, board: &Board) {
        let _lock = store.lock(far()).unwrap();
        store.save(board, &Done::nothing()).unwrap();
    }

    fn board_with(titles: &[&str]) -> Board {
        let mut board = Board::new(Limits::default(), true);
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    fn titles(board: &Board) -> Vec<String> {
        board.tasks().map(|t| t.title.clone()).collect()
    }

    #[test]
    fn saves_survive_a_new_store_and_missing_dirs_are_created() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b/c");
        let store = open(&dir);
        assert!(
            store.load_if_changed().unwrap().is_none(),
            "no snapshot yet"
        );
        save(&store, &board_with(&["one", "two"]));
        assert!(dir.join("default.json").is_file());
        assert!(
            store.load_if_changed().unwrap().is_none(),
            "our own save is not a change"
        );
        let reopened = open(&dir);
        let loaded = reopened.load_if_changed().unwrap().unwrap();
        assert_eq!(titles(&loaded), ["one", "two"]);
    }

    #[test]
    fn a_directory_the_store_makes_is_born_ignored_and_an_existing_one_is_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let made = root.path().join("made");
        let store = open(&made).with_gitignore(true);
        assert!(!made.exists(), "opening makes nothing");
        save(&store, &board_with(&["one"]));
        assert_eq!(
            fs::read_to_string(made.join(".gitignore")).unwrap(),
            IGNORE_RULE
        );
        assert!(IGNORE_RULE.ends_with("\n*\n"));
        // A directory that exists gets no rule; the user's stays as it is.
        let existing = root.path().join("existing");
        fs::create_dir(&existing).unwrap();
        fs::write(existing.join(".gitignore"), "mine\n").unwrap();
        save(&open(&existing).with_gitignore(true), &board_with(&["one"]));
        assert_eq!(
            fs::read_to_string(existing.join(".gitignore")).unwrap(),
            "mine\n"
        );
        // Turned off: a plain directory.
        let plain = root.path().join("plain");
        save(&open(&plain).with_gitignore(false), &board_with(&["one"]));
        assert!(!plain.join(".gitignore").exists());
        assert!(plain.join("default.json").is_file());
    }

    #[test]
    fn another_writer_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, theirs) = (open(dir.path()), open(dir.path()));
        save(&mine, &board_with(&["a"]));
        assert!(theirs.may_have_changed());
        assert_eq!(titles(&theirs.load_if_changed().unwrap().unwrap()), ["a"]);
        assert!(!theirs.may_have_changed());
        assert!(theirs.load_if_changed().unwrap().is_none());
        save(&theirs, &board_with(&["a", "b"]));
        assert!(mine.may_have_changed());
        assert_eq!(
            titles(&mine.load_if_changed().unwrap().unwrap()),
            ["a", "b"]
        );
        // A deleted snapshot reads as an empty board, once.
        fs::remove_file(dir.path().join("default.json")).unwrap();
        assert!(mine.may_have_changed());
        assert!(mine.load_if_changed().unwrap().unwrap().is_empty());
        assert!(mine.load_if_changed().unwrap().is_none());
    }

    #[test]
    fn a_bad_snapshot_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("default.json");
        fs::write(&path, b"{\"format\": \"planning-mcp-server board\", \"vers").unwrap();
        let store = open(dir.path());
        let error = store.load_if_changed().unwrap_err().to_string();
        assert!(
            error.starts_with(&format!(
                "{} is not a usable board snapshot: it is truncated",
                path.display()
            )),
            "{error}"
        );
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"format\": \"planning-mcp-server board\", \"vers"
        );
    }

    #[test]
    fn a_failed_save_leaves_the_snapshot_as_it_was() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("boards");
        let store = open(&dir);
        save(&store, &board_with(&["kept"]));
        let before = fs::read(dir.join("default.json")).unwrap();
        // The directory vanishes (like a disk going away): saving must fail.
        fs::remove_dir_all(&dir).unwrap();
        let error = store
            .save(&board_with(&["kept", "new"]), &Done::nothing())
            .unwrap_err();
        assert!(matches!(error, StoreError::Write { .. }), "{error}");
        assert!(error.to_string().starts_with(&format!(
            "cannot save {}",
            dir.join("default.json").display()
        )));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("default.json"), &before).unwrap();
        assert_eq!(
            titles(&open(&dir).load_if_changed().unwrap().unwrap()),
            ["kept"]
        );
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(20)
    }

    #[test]
    fn opening_creates_nothing_and_the_first_lock_sweeps_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(&dir.path().join("boards"));
        assert!(store.load_if_changed().unwrap().is_none());
        assert!(
            !dir.path().join("boards").exists(),
            "a read creates nothing"
        );
        fs::create_dir(dir.path().join("boards")).unwrap();
        let leftover = dir.path().join("boards/.default.json.4242-0.tmp");
        let other = dir.path().join("boards/.other.json.4242-0.tmp");
        fs::write(&leftover, b"half a snap").unwrap();
        fs::write(&other, b"another board's").unwrap();
        drop(store.lock(far()).unwrap());
        assert!(!leftover.exists());
        assert!(other.exists(), "other boards' files are theirs");
    }

    #[test]
    fn the_lock_excludes_other_holders_for_a_bounded_time() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (open(dir.path()), open(dir.path()));
        let held = first.lock(far()).unwrap();
        let error = second.lock(soon()).map(|_| ()).unwrap_err();
        assert_eq!(
            error.public(),
            "another process holds the lock of board default (default.json.lock)"
        );
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _lock = second.lock(far()).unwrap();
                sender.send(()).unwrap();
            });
            drop(held);
            receiver
                .recv_timeout(Duration::from_secs(30))
                .expect("then gets the lock");
        });
    }

    #[test]
    fn a_deleted_lock_file_is_locked_again() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (open(dir.path()), open(dir.path()));
        drop(first.lock(far()).unwrap());
        fs::remove_file(dir.path().join("default.json.lock")).unwrap();
        let held = second.lock(far()).unwrap();
        assert!(
            matches!(first.lock(soon()), Err(StoreError::Busy { .. })),
            "the first store locks the new lock file, which the second holds"
        );
        drop(held);
        drop(first.lock(far()).unwrap());
    }

    #[test]
    fn a_save_whose_lock_file_was_replaced_meanwhile_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (open(dir.path()), open(dir.path()));
        let held = first.lock(far()).unwrap();
        fs::remove_file(dir.path().join("default.json.lock")).unwrap();
        let theirs = second.lock(far()).unwrap();
        second
            .save(&board_with(&["theirs"]), &Done::nothing())
            .unwrap();
        drop(theirs);
        let error = first
            .save(&board_with(&["mine"]), &Done::nothing())
            .unwrap_err();
        assert!(matches!(error, StoreError::LockLost { .. }), "{error}");
        drop(held);
        let stored = open(dir.path()).load_if_changed().unwrap().unwrap();
        assert_eq!(titles(&stored), ["theirs"]);
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_symlinked_snapshot_is_written_through_and_modes_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let target = elsewhere.path().join("shared.json");
        save(&open(elsewhere.path()), &board_with(&["one"]));
        fs::rename(elsewhere.path().join("default.json"), &target).unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join("default.json")).unwrap();
        let store = open(dir.path());
        assert_eq!(titles(&store.load_if_changed().unwrap().unwrap()), ["one"]);
        let _lock = store.lock(far()).unwrap();
        store
            .save(&board_with(&["one", "two"]), &Done::nothing())
            .unwrap();
        let link = fs::symlink_metadata(dir.path().join("default.json")).unwrap();
        assert!(link.file_type().is_symlink(), "the link stays");
        assert_eq!(
            fs::metadata(&target).unwrap().permissions().mode() & 0o777,
            0o640
        );
        let again = open(dir.path()).load_if_changed().unwrap().unwrap();
        assert_eq!(titles(&again), ["one", "two"]);
    }

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("default.json");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let error = open(dir.path()).load_if_changed().unwrap_err().to_string();
        assert!(
            error.contains("it is not a regular file but a device"),
            "{error}"
        );
        fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let error = open(dir.path()).load_if_changed().unwrap_err().to_string();
        assert!(
            error.contains("it is not a regular file but a FIFO"),
            "{error}"
        );
        fs::remove_file(&path).unwrap();
        File::create(&path)
            .unwrap()
            .set_len(MAX_SNAPSHOT_BYTES + 1)
            .unwrap();
        let error = open(dir.path()).load_if_changed().unwrap_err().to_string();
        assert!(
            error.contains("it is larger than 67108864 bytes"),
            "{error}"
        );
    }

    #[test]
    fn stored_names_are_the_snapshot_stems() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            stored_names(&dir.path().join("missing"))
                .unwrap()
                .is_empty()
        );
        for name in ["b", "a"] {
            save(&open(dir.path()), &board_with(&[name]));
            fs::rename(
                dir.path().join("default.json"),
                dir.path().join(format!("{name}.json")),
            )
            .unwrap();
        }
        fs::create_dir(dir.path().join("dir.json")).unwrap();
        fs::write(dir.path().join("notes.txt"), "").unwrap();
        assert_eq!(stored_names(dir.path()).unwrap(), ["a", "b"]);
    }

    #[test]
    fn fsync_saves_work_too() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path(), "default", true, Limits::default(), false).unwrap();
        save(&store, &board_with(&["synced"]));
        let loaded = open(dir.path()).load_if_changed().unwrap().unwrap();
        assert_eq!(titles(&loaded), ["synced"]);
    }
}
