// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What this clone last fetched of a remote's boards: per board, the value
//! the remote's ref had (what a push's lease names, and what tells a
//! remote rewritten since). It is kept in a file,
//! `{git-common-dir}/planning-mcp-server/fetched/{remote}`, not in refs: a
//! `git push --mirror` sends every ref, and would copy it to the mirror.
//!
//! A fetch brings the remote's boards into `refs/planning/fetching/*` for
//! the moment it takes to read them (under the fetch lock, one fetch at a
//! time per clone), records them here and deletes those refs. The objects
//! the file names are kept by no ref: `git gc` may prune one that the
//! board's own log does not hold, and a value whose object is gone reads
//! as nothing fetched before (the next push's lease then fails, and the
//! sync fetches again). The refs that builds before this one kept,
//! `refs/planning/remotes/{remote}/*`, are read once into the files and
//! removed.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::time::Instant;

use super::git::{Git, GitError};
use super::place::Place;
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::runtime::whole_file::Write;

/// Where a fetch puts the remote's boards while it reads them.
const FETCHING: &str = "refs/planning/fetching/";

/// Where builds before this one kept the remote's boards.
const LEGACY: &str = "refs/planning/remotes/";

/// The remote's boards as this clone last fetched them: board -> the
/// value of the remote's ref (a commit, or whatever a hostile push left).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Fetched {
    boards: BTreeMap<String, String>,
}

impl Fetched {
    /// The value board `board`'s ref had on the remote, if it had one.
    pub(crate) fn get(&self, board: &str) -> Option<String> {
        self.boards.get(board).cloned()
    }

    /// The boards the remote had.
    pub(crate) fn boards(&self) -> impl Iterator<Item = &str> {
        self.boards.keys().map(String::as_str)
    }

    fn parse(text: &str) -> Self {
        let boards = text
            .lines()
            .filter_map(|line| line.split_once(' '))
            .filter(|(oid, board)| is_oid(oid) && !board.is_empty())
            .map(|(oid, board)| (board.to_owned(), oid.to_owned()))
            .collect();
        Self { boards }
    }

    fn text(&self) -> String {
        self.boards
            .iter()
            .map(|(board, oid)| format!("{oid} {board}\n"))
            .collect()
    }
}

fn is_oid(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The file of `remote` (a remote's name may hold a `/`, which a file's
/// name cannot).
fn file(place: &Place, remote: &str) -> PathBuf {
    let name = remote.replace('%', "%25").replace('/', "%2F");
    place.dir().join("fetched").join(name)
}

fn io_error(path: &std::path::Path, error: &io::Error) -> GitError {
    GitError {
        command: path.display().to_string(),
        problem: error.to_string(),
    }
}

/// Reads `remote`'s file: `None` when there is none yet.
fn read(place: &Place, remote: &str) -> Result<Option<Fetched>, GitError> {
    let path = file(place, remote);
    match fs::read_to_string(&path) {
        Ok(text) => Ok(Some(Fetched::parse(&text))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(io_error(&path, &error)),
    }
}

/// Writes `remote`'s file whole (a reader never sees half of it).
fn write(place: &Place, remote: &str, fetched: &Fetched) -> Result<(), GitError> {
    let path = file(place, remote);
    let dir = place.dir().join("fetched");
    fs::create_dir_all(&dir).map_err(|error| io_error(&dir, &error))?;
    Write::new()
        .to(&path, fetched.text().as_bytes())
        .map_err(|error| io_error(&path, &io::Error::new(error.kind(), error.to_string())))
}

/// Takes the fetch lock: one fetch, and one change of the files, at a time
/// per clone (so that a fetch that ends after a push does not put back
/// what the push replaced), waiting at most one git command's time.
fn lock(git: &Git, place: &Place) -> Result<FileLock, GitError> {
    let path = place.dir().join("fetch.lock");
    let opened = fs::create_dir_all(place.dir()).and_then(|()| {
        fs::File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
    });
    let file = opened.map_err(|error| io_error(&path, &error))?;
    FileLock::wait(file, Access::Exclusive, Instant::now() + git.timeout()).map_err(|error| {
        match error {
            LockError::Held => GitError {
                command: path.display().to_string(),
                problem: "another process of this clone kept fetching until the deadline".into(),
            },
            LockError::Io(error) => io_error(&path, &error),
        }
    })
}

/// What `remote` had at this clone's last fetch (nothing: never fetched).
pub(crate) fn last(git: &Git, place: &Place, remote: &str) -> Result<Fetched, GitError> {
    if let Some(fetched) = read(place, remote)? {
        return Ok(fetched);
    }
    let legacy: Vec<(String, String)> = git.refs(LEGACY)?;
    if legacy.is_empty() {
        return Ok(Fetched::default());
    }
    let _lock = lock(git, place)?;
    migrate(git, place, &legacy)?;
    Ok(read(place, remote)?.unwrap_or_default())
}

/// Fetches `remote`'s boards; returns them as fetched (and keeps them as
/// the last fetch).
pub(crate) fn fetch(git: &Git, place: &Place, remote: &str) -> Result<Fetched, GitError> {
    let _lock = lock(git, place)?;
    git.fetch(remote, FETCHING)?;
    let refs = git.refs("refs/planning/")?;
    let legacy: Vec<(String, String)> = refs
        .iter()
        .filter(|(name, _)| name.starts_with(LEGACY))
        .cloned()
        .collect();
    // The other remotes' refs of an earlier build are kept in their files
    // before they go.
    migrate(git, place, &legacy)?;
    let fetching: Vec<(String, String)> = refs
        .into_iter()
        .filter(|(name, _)| name.starts_with(FETCHING))
        .collect();
    let fetched = Fetched {
        boards: fetching
            .iter()
            .filter_map(|(name, oid)| Some((name.strip_prefix(FETCHING)?.to_owned(), oid.clone())))
            .collect(),
    };
    write(place, remote, &fetched)?;
    // A ref left behind (a process killed here) is pruned or replaced by
    // the next fetch, and holds nothing the file does not.
    git.delete_refs(&fetching)?;
    Ok(fetched)
}

/// Keeps `value` as what `remote` has for `board` now (a push of this
/// clone put it there).
pub(crate) fn record(
    git: &Git,
    place: &Place,
    remote: &str,
    board: &str,
    value: &str,
) -> Result<(), GitError> {
    let _lock = lock(git, place)?;
    let mut fetched = read(place, remote)?.unwrap_or_default();
    fetched.boards.insert(board.to_owned(), value.to_owned());
    write(place, remote, &fetched)
}

/// Reads the refs an earlier build kept (`legacy`, under
/// `refs/planning/remotes/{remote}/`) into the files of the remotes that
/// have none yet, then deletes them. Called under the fetch lock.
fn migrate(git: &Git, place: &Place, legacy: &[(String, String)]) -> Result<(), GitError> {
    if legacy.is_empty() {
        return Ok(());
    }
    // A remote's name may hold a `/`: the longest name that fits wins.
    let mut remotes = git.remotes()?;
    remotes.sort_by_key(|remote| std::cmp::Reverse(remote.len()));
    let mut found: BTreeMap<&str, Fetched> = BTreeMap::new();
    for (name, oid) in legacy {
        let rest = name.strip_prefix(LEGACY).unwrap_or(name);
        let owner = remotes.iter().find_map(|remote| {
            let board = rest.strip_prefix(remote.as_str())?.strip_prefix('/')?;
            Some((remote.as_str(), board))
        });
        if let Some((remote, board)) = owner {
            let entry = found.entry(remote).or_default();
            entry.boards.insert(board.to_owned(), oid.clone());
        }
    }
    for (remote, fetched) in &found {
        if read(place, remote)?.is_none() {
            write(place, remote, fetched)?;
        }
    }
    git.delete_refs(legacy)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{clones, git};
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_fetch_keeps_the_remotes_boards_in_a_file_and_leaves_no_ref() {
        let c = clones(2);
        let tree = git(&c.clones[0], &["mktree"]);
        let commit = git(&c.clones[0], &["commit-tree", tree.trim(), "-m", "log"]);
        let commit = commit.trim();
        for board in ["default", "release"] {
            git(
                &c.clones[0],
                &[
                    "update-ref",
                    &format!("refs/planning/boards/{board}"),
                    commit,
                ],
            );
        }
        git(
            &c.clones[0],
            &["push", "-q", "origin", "refs/planning/boards/*"],
        );
        let g = Git::open(&c.clones[1], Duration::from_secs(60)).unwrap();
        let place = Place::new(g.common_dir());
        assert_eq!(last(&g, &place, "origin").unwrap(), Fetched::default());
        let fetched = fetch(&g, &place, "origin").unwrap();
        assert_eq!(fetched.boards().collect::<Vec<_>>(), ["default", "release"]);
        assert_eq!(fetched.get("default").as_deref(), Some(commit));
        assert_eq!(last(&g, &place, "origin").unwrap(), fetched);
        assert_eq!(git(&c.clones[1], &["for-each-ref", "refs/planning/"]), "");
        // A board the remote no longer has is gone from the file.
        git(
            &c.remote,
            &["update-ref", "-d", "refs/planning/boards/release"],
        );
        let fetched = fetch(&g, &place, "origin").unwrap();
        assert_eq!(fetched.boards().collect::<Vec<_>>(), ["default"]);
        record(&g, &place, "origin", "other", commit).unwrap();
        assert_eq!(
            last(&g, &place, "origin").unwrap().get("other").as_deref(),
            Some(commit)
        );
    }

    #[test]
    fn an_earlier_builds_refs_are_read_once_and_removed() {
        let c = clones(1);
        let dir = &c.clones[0];
        let tree = git(dir, &["mktree"]);
        let commit = git(dir, &["commit-tree", tree.trim(), "-m", "log"]);
        let commit = commit.trim();
        git(dir, &["remote", "add", "up/stream", "/nonexistent"]);
        for name in [
            "refs/planning/remotes/origin/default",
            "refs/planning/remotes/up/stream/release",
            "refs/planning/remotes/gone/default",
        ] {
            git(dir, &["update-ref", name, commit]);
        }
        let g = Git::open(dir, Duration::from_secs(60)).unwrap();
        let place = Place::new(g.common_dir());
        let origin = last(&g, &place, "origin").unwrap();
        assert_eq!(origin.get("default").as_deref(), Some(commit));
        assert_eq!(git(dir, &["for-each-ref", "refs/planning/"]), "");
        let upstream = last(&g, &place, "up/stream").unwrap();
        assert_eq!(upstream.boards().collect::<Vec<_>>(), ["release"]);
        assert!(place.dir().join("fetched/up%2Fstream").is_file());
    }
}
