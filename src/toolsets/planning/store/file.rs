// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `file` backend: one JSON snapshot per board, `{dir}/{name}.json`.
//!
//! A save writes a temporary file in the same directory, syncs it, renames it
//! over the snapshot and syncs the directory, so that the snapshot on disk is
//! always a whole one, old or new. Writers (in this process and in others)
//! take an exclusive lock on the sidecar `{name}.json.lock` around
//! reload-change-save, and every process reloads the snapshot when its file
//! changed since it last saw it, so that no update is lost and no read is stale.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use parking_lot::Mutex;

use super::{SnapshotStore, StoreError, WriteLock, snapshot};
use crate::toolsets::planning::domain::{Board, Limits};

/// Snapshots of one board in a directory.
#[derive(Debug)]
pub struct FileStore {
    dir: PathBuf,
    name: String,
    path: PathBuf,
    lock_path: PathBuf,
    lock_file: File,
    fsync: bool,
    limits: Limits,
    history_enabled: bool,
    seen: Mutex<Seen>,
    temp_counter: AtomicU64,
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
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Self {
            device,
            inode,
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

/// Releases the lock file's lock when dropped.
struct Locked<'a>(&'a File);

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

impl FileStore {
    /// Opens the store of board `name` in `dir` (relative to the working
    /// directory), creating the directory and the lock file if needed, and
    /// removing temporary files that a killed writer left behind.
    pub fn open(
        dir: &Path,
        name: &str,
        fsync: bool,
        limits: Limits,
        history_enabled: bool,
    ) -> Result<Self, StoreError> {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        fs::create_dir_all(&dir).map_err(|source| StoreError::Write {
            path: dir.clone(),
            source,
        })?;
        let lock_path = dir.join(format!("{name}.json.lock"));
        let lock_file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|source| StoreError::Lock {
                path: lock_path.clone(),
                source,
            })?;
        let store = Self {
            path: dir.join(format!("{name}.json")),
            dir,
            name: name.to_owned(),
            lock_path,
            lock_file,
            fsync,
            limits,
            history_enabled,
            seen: Mutex::new(Seen::Unknown),
            temp_counter: AtomicU64::new(0),
        };
        {
            let _lock = store.lock()?;
            store.remove_leftover_temp_files();
        }
        Ok(store)
    }

    /// The snapshot's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn temp_prefix(&self) -> String {
        format!(".{}.json.", self.name)
    }

    /// Only called under the lock, when no writer can be midway.
    fn remove_leftover_temp_files(&self) {
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

    /// Writes `json` to a new temporary file next to the snapshot, synced if asked.
    fn write_temp(&self, json: &[u8]) -> Result<PathBuf, StoreError> {
        let n = self.temp_counter.fetch_add(1, Ordering::Relaxed);
        let temp = self.dir.join(format!(
            "{}{}-{n}.tmp",
            self.temp_prefix(),
            std::process::id()
        ));
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .and_then(|mut file| {
                file.write_all(json)?;
                if self.fsync {
                    file.sync_all()?;
                }
                Ok(())
            });
        match written {
            Ok(()) => Ok(temp),
            Err(source) => {
                let _ = fs::remove_file(&temp);
                Err(self.write_error(source))
            }
        }
    }
}

/// The names of the boards stored in `dir`: the stems of its `{name}.json`
/// files, unchecked (the caller decides which are valid names), sorted. A
/// missing directory holds no boards.
pub fn stored_names(dir: &Path) -> Result<Vec<String>, StoreError> {
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
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
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
pub fn read(
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
    fn lock(&self) -> Result<WriteLock<'_>, StoreError> {
        self.lock_file.lock().map_err(|source| StoreError::Lock {
            path: self.lock_path.clone(),
            source,
        })?;
        Ok(Box::new(Locked(&self.lock_file)))
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
        let mut file = match File::open(&self.path) {
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
        let mut json = Vec::new();
        file.read_to_end(&mut json).map_err(read_error)?;
        let board =
            snapshot::from_json(&json, self.limits, self.history_enabled).map_err(|problem| {
                StoreError::Invalid {
                    path: self.path.clone(),
                    problem,
                }
            })?;
        *seen = Seen::File(now);
        Ok(Some(board))
    }

    fn save(&self, board: &Board) -> Result<(), StoreError> {
        let temp = self.write_temp(&snapshot::to_json(board))?;
        if let Err(source) = fs::rename(&temp, &self.path) {
            let _ = fs::remove_file(&temp);
            return Err(self.write_error(source));
        }
        let mut seen = self.seen.lock();
        if self.fsync
            && let Err(source) = File::open(&self.dir).and_then(|dir| dir.sync_all())
        {
            // The new snapshot is in place but may not survive a power cut:
            // reload it on the next call rather than trust either version.
            *seen = Seen::Unknown;
            return Err(self.write_error(source));
        }
        *seen = match fs::metadata(&self.path) {
            Ok(metadata) => Seen::File(Fingerprint::of(&metadata)),
            Err(_) => Seen::Unknown,
        };
        Ok(())
    }

    fn describe(&self) -> String {
        format!("file:{}", self.path.display())
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
        store.save(&board_with(&["one", "two"])).unwrap();
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
    fn another_writer_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, theirs) = (open(dir.path()), open(dir.path()));
        mine.save(&board_with(&["a"])).unwrap();
        assert!(theirs.may_have_changed());
        assert_eq!(titles(&theirs.load_if_changed().unwrap().unwrap()), ["a"]);
        assert!(!theirs.may_have_changed());
        assert!(theirs.load_if_changed().unwrap().is_none());
        theirs.save(&board_with(&["a", "b"])).unwrap();
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
        store.save(&board_with(&["kept"])).unwrap();
        let before = fs::read(dir.join("default.json")).unwrap();
        // The directory vanishes (like a disk going away): saving must fail.
        fs::remove_dir_all(&dir).unwrap();
        let error = store.save(&board_with(&["kept", "new"])).unwrap_err();
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

    #[test]
    fn leftover_temp_files_are_removed_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let leftover = dir.path().join(".default.json.4242-0.tmp");
        let other = dir.path().join(".other.json.4242-0.tmp");
        fs::write(&leftover, b"half a snap").unwrap();
        fs::write(&other, b"another board's").unwrap();
        let _store = open(dir.path());
        assert!(!leftover.exists());
        assert!(other.exists(), "other boards' files are theirs");
    }

    #[test]
    fn the_lock_excludes_other_holders() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (open(dir.path()), open(dir.path()));
        let held = first.lock().unwrap();
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _lock = second.lock().unwrap();
                sender.send(()).unwrap();
            });
            assert!(
                receiver.recv_timeout(Duration::from_millis(200)).is_err(),
                "the second writer waits"
            );
            drop(held);
            receiver
                .recv_timeout(Duration::from_secs(5))
                .expect("then gets the lock");
        });
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
            open(dir.path()).save(&board_with(&[name])).unwrap();
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
        store.save(&board_with(&["synced"])).unwrap();
        let loaded = open(dir.path()).load_if_changed().unwrap().unwrap();
        assert_eq!(titles(&loaded), ["synced"]);
        assert_eq!(
            store.describe(),
            format!("file:{}", dir.path().join("default.json").display())
        );
    }
}
