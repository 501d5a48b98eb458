// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where a board's log lives in the repository: its ref, the ref its last
//! fetch left, and the server's own files in the git directory that every
//! worktree shares (`{git-common-dir}/planning-mcp-server/`): this clone's
//! replica name and the boards' lock files. Nothing goes into a working
//! tree.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use crate::runtime::whole_file::Write;
use crate::toolsets::planning::domain::replay::Replica;

/// The ref of board `board`'s log.
pub(crate) fn local_ref(board: &str) -> String {
    format!("refs/planning/boards/{board}")
}

/// The prefix of every board's ref.
pub(crate) const BOARDS: &str = "refs/planning/boards/";

/// The server's files in one repository's git directory.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    common_dir: PathBuf,
    dir: PathBuf,
}

impl Place {
    /// The files of the repository whose shared git directory is
    /// `common_dir`.
    pub(crate) fn new(common_dir: &Path) -> Self {
        Self {
            common_dir: common_dir.to_path_buf(),
            dir: common_dir.join("planning-mcp-server"),
        }
    }

    /// The directory of the server's files (`{git-common-dir}/planning-mcp-server`).
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of board `board`'s lock file.
    pub(crate) fn lock_path(&self, board: &str) -> PathBuf {
        self.dir.join("boards").join(format!("{board}.lock"))
    }

    /// The lock file of board `board` (made with its directory).
    pub(crate) fn lock_file(&self, board: &str) -> io::Result<File> {
        fs::create_dir_all(self.dir.join("boards"))?;
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(self.lock_path(board))
    }

    /// The files whose change says that the ref of `board` may have moved:
    /// its loose ref, the packed refs, a reftable's list.
    pub(crate) fn ref_files(&self, board: &str) -> [PathBuf; 3] {
        [
            self.common_dir.join(local_ref(board)),
            self.common_dir.join("packed-refs"),
            self.common_dir.join("reftable").join("tables.list"),
        ]
    }

    /// This clone's replica: read from `replica`, or made (at random) the
    /// first time. The file also names the git directory it was made in:
    /// a copied repository (whose operations would otherwise repeat the
    /// original's names) makes a replica of its own.
    pub(crate) fn replica(&self) -> io::Result<Replica> {
        let path = self.dir.join("replica");
        let here = format!("{}\n{}", self.common_dir.display(), machine());
        if let Some(replica) = read_replica(&path, &here)? {
            return Ok(replica);
        }
        fs::create_dir_all(&self.dir)?;
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
        let replica = Replica(u64::from_be_bytes(bytes));
        // Written whole, so that a reader never sees half a file; two
        // processes that race both end with the one that landed.
        let bytes = format!("{replica}\n{here}\n");
        match Write::new().new_only().to(&path, bytes.as_bytes()) {
            Ok(()) => {}
            // A copied repository's file, or another process's: a file of
            // another directory is replaced.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                if read_replica(&path, &here)?.is_none() {
                    Write::new()
                        .to(&path, bytes.as_bytes())
                        .map_err(|error| io::Error::new(error.kind(), error))?;
                }
            }
            Err(error) => return Err(io::Error::new(error.kind(), error)),
        }
        read_replica(&path, &here)?
            .ok_or_else(|| io::Error::other(format!("{} is not a replica file", path.display())))
    }

    /// Drops this clone's replica: the next [`Self::replica`] makes a new
    /// one. Called when the shared log shows another clone writing under
    /// it (a repository copied with its git directory, even to the same
    /// path on another machine with the same machine ID: VM and container
    /// images), so that from then on the two clones' operations have
    /// names of their own.
    pub(crate) fn renew_replica(&self, shared: Replica) -> io::Result<()> {
        let path = self.dir.join("replica");
        let here = format!("{}\n{}", self.common_dir.display(), machine());
        if read_replica(&path, &here)? == Some(shared) {
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

/// What tells this machine from another: its machine ID and host name
/// (either may be missing in a container; the log's own check covers
/// what they miss).
fn machine() -> String {
    let read = |path: &str| {
        fs::read_to_string(path)
            .map(|text| text.trim().to_owned())
            .unwrap_or_default()
    };
    let id = match read("/etc/machine-id") {
        id if id.is_empty() => read("/var/lib/dbus/machine-id"),
        id => id,
    };
    let host = read("/proc/sys/kernel/hostname");
    format!("machine {id} host {host}")
}

/// The replica that `path` names for the git directory and machine
/// `here`, if it exists and was made there.
fn read_replica(path: &Path, here: &str) -> io::Result<Option<Replica>> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let replica = Replica::parse(first);
    Ok(replica.filter(|_| rest.trim_end_matches('\n') == here))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_keeps_its_replica_and_a_copy_gets_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        fs::create_dir_all(&git).unwrap();
        let place = Place::new(&git);
        let replica = place.replica().unwrap();
        assert_eq!(place.replica().unwrap(), replica);
        let copy = dir.path().join("copy");
        fs::create_dir_all(copy.join("planning-mcp-server")).unwrap();
        fs::copy(
            git.join("planning-mcp-server/replica"),
            copy.join("planning-mcp-server/replica"),
        )
        .unwrap();
        let copied = Place::new(&copy).replica().unwrap();
        assert_ne!(copied, replica);
        assert_eq!(Place::new(&copy).replica().unwrap(), copied);
        let leftovers: Vec<_> = fs::read_dir(git.join("planning-mcp-server"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, ["replica"]);
    }
}
