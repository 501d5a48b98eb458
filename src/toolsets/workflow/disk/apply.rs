// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Carries out a transition's effects in order: directories, moves,
//! writes, `state.json` last. Every write is atomic (a temporary file in
//! the same folder, fsync, rename, fsync of the folder) and never goes
//! through a symbolic link. If a step fails, the steps done are undone in
//! reverse (moves moved back, files created removed, files replaced
//! restored), so `state.json` and every file stay as they were.

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::pause::Pause;
use super::{CastError, Dir, entry_exists};
use crate::runtime::whole_file::{Step, Write, rename_no_replace};
use crate::toolsets::workflow::machine::effect::Effect;

/// A failure injected before one effect, to test undo and recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Fault {
    /// No failure.
    #[default]
    None,
    /// The effect at this index fails; the ones before are undone.
    Fail(usize),
    /// The process "dies" before the effect at this index: nothing is undone.
    Crash(usize),
}

/// A step done, and how to undo it.
enum Done {
    Dir(PathBuf),
    Moved { from: PathBuf, to: PathBuf },
    Created(PathBuf),
    Replaced { path: PathBuf, old: Vec<u8> },
}

/// Carries out `effects` in D, all or nothing; with a `pause` (tests
/// only), stops before the last effect (`state.json`) until resumed.
pub(crate) fn apply(
    dir: &Dir,
    effects: &[Effect],
    fault: Fault,
    pause: Option<&Pause>,
) -> Result<(), CastError> {
    let mut done = Vec::new();
    let mut touched = BTreeSet::new();
    for (index, effect) in effects.iter().enumerate() {
        if index > 0
            && index + 1 == effects.len()
            && let Some(pause) = pause
        {
            pause.wait();
        }
        if fault == Fault::Crash(index) {
            return Err(CastError::io("carry out", dir.show(""), injected()));
        }
        let result = if fault == Fault::Fail(index) {
            Err(CastError::io("carry out", dir.show(""), injected()))
        } else if index + 1 == effects.len() {
            // What the steps before changed reaches the disk before the
            // state that points at it (written last).
            sync_dirs(dir, &std::mem::take(&mut touched))
                .and_then(|()| carry_out(dir, effect, &mut done, &mut touched))
        } else {
            carry_out(dir, effect, &mut done, &mut touched)
        };
        if let Err(error) = result {
            undo(done);
            return Err(error);
        }
    }
    Ok(())
}

fn injected() -> io::Error {
    io::Error::other("injected failure")
}

/// The parent folder of `rel` (relative to D).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(parent, _)| parent)
}

fn carry_out(
    dir: &Dir,
    effect: &Effect,
    done: &mut Vec<Done>,
    touched: &mut BTreeSet<String>,
) -> Result<(), CastError> {
    match effect {
        Effect::CreateDir(rel) => {
            dir.refuse_symlinks(rel)?;
            let path = dir.join(rel);
            match fs::symlink_metadata(&path) {
                Ok(meta) if meta.is_dir() => return Ok(()),
                Ok(_) => {
                    let error =
                        io::Error::new(io::ErrorKind::AlreadyExists, "a file is in the way");
                    return Err(CastError::io("create the folder", dir.show(rel), error));
                }
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(source) => return Err(CastError::io("inspect", dir.show(rel), source)),
            }
            fs::create_dir(&path)
                .map_err(|e| CastError::io("create the folder", dir.show(rel), e))?;
            touched.insert(parent(rel).to_owned());
            done.push(Done::Dir(path));
        }
        Effect::Move { from, to } => {
            dir.refuse_symlinks(parent(from))?;
            dir.refuse_symlinks(to)?;
            let target = dir.join(to);
            refuse_existing(dir, to, &target)?;
            let source = dir.join(from);
            rename_no_replace(&source, &target)
                .map_err(|e| CastError::io("move", dir.show(from), e))?;
            touched.insert(parent(from).to_owned());
            touched.insert(parent(to).to_owned());
            done.push(Done::Moved {
                from: source,
                to: target,
            });
        }
        Effect::Create { path, bytes } => {
            dir.refuse_symlinks(path)?;
            let target = dir.join(path);
            refuse_existing(dir, path, &target)?;
            write_whole(dir, path, bytes, Done::Created(target), done)?;
        }
        Effect::Replace { path, bytes, old } => {
            dir.refuse_symlinks(path)?;
            let target = dir.join(path);
            if old.is_none() {
                refuse_existing(dir, path, &target)?;
            }
            let undo = match old {
                Some(old) => Done::Replaced {
                    path: target,
                    old: old.clone(),
                },
                None => Done::Created(target),
            };
            write_whole(dir, path, bytes, undo, done)?;
        }
    }
    Ok(())
}

/// Refuses a target that exists already (nothing is overwritten by a move
/// or a new file).
fn refuse_existing(dir: &Dir, rel: &str, target: &Path) -> Result<(), CastError> {
    match entry_exists(target) {
        Ok(false) => Ok(()),
        Ok(true) => Err(CastError::io(
            "write",
            dir.show(rel),
            io::Error::new(io::ErrorKind::AlreadyExists, "it already exists"),
        )),
        Err(source) => Err(CastError::io("inspect", dir.show(rel), source)),
    }
}

/// Writes `bytes` whole to the file `rel` of D (see `runtime::whole_file`:
/// a rename over it replaces a symlink rather than following it, and its
/// folder is synced); `undo` goes to `done` once the file is in place,
/// even if syncing its folder then failed.
fn write_whole(
    dir: &Dir,
    rel: &str,
    bytes: &[u8],
    undo: Done,
    done: &mut Vec<Done>,
) -> Result<(), CastError> {
    match Write::new().to(&dir.join(rel), bytes) {
        Ok(()) => {
            done.push(undo);
            Ok(())
        }
        Err(error) if error.step == Step::SyncDirectory => {
            done.push(undo);
            Err(CastError::io("sync", dir.show(parent(rel)), error.source))
        }
        Err(error) => Err(CastError::io("write", dir.show(rel), error.source)),
    }
}

fn sync_dir(path: &Path) -> io::Result<()> {
    File::open(path)?.sync_all()
}

fn sync_dirs(dir: &Dir, touched: &BTreeSet<String>) -> Result<(), CastError> {
    for rel in touched {
        sync_dir(&dir.join(rel)).map_err(|e| CastError::io("sync", dir.show(rel), e))?;
    }
    Ok(())
}

/// Undoes `done` in reverse; what cannot be undone is logged.
fn undo(done: Vec<Done>) {
    for step in done.into_iter().rev() {
        let (what, result, path) = match step {
            Done::Dir(path) => ("remove the folder", fs::remove_dir(&path), path),
            Done::Moved { from, to } => ("move back", rename_no_replace(&to, &from), to),
            // Created by this call: removing it deletes nothing of the user's.
            Done::Created(path) => ("remove", fs::remove_file(&path), path),
            Done::Replaced { path, old } => {
                let restored = Write::new().to(&path, &old).map_err(|error| error.source);
                ("restore", restored, path)
            }
        };
        if let Err(error) = result {
            tracing::warn!(path = %path.display(), %error, "could not {what} while undoing a failed spell");
        }
    }
}
