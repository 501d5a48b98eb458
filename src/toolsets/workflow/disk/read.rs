// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Reading what a call needs: `state.json` (stored, missing, corrupt or
//! newer), which files exist, the text of those the rows read (none larger
//! than `max_file_bytes`), and the free names of the archives.

use std::fs::File as FsFile;
use std::io::Read as _;

use chrono::{DateTime, Utc};

use super::{CastError, Dir, entry_exists};
use crate::toolsets::workflow::files::archive::{Place, Slots, candidate};
use crate::toolsets::workflow::files::names::{File, STATE};
use crate::toolsets::workflow::files::task_name::{slug, task_name};
use crate::toolsets::workflow::machine::context::infer;
use crate::toolsets::workflow::machine::facts::{Facts, Found, needs};
use crate::toolsets::workflow::machine::spell::Spell;
use crate::toolsets::workflow::machine::state_json::{self, Read, StateDoc};
use crate::toolsets::workflow::machine::step::Start;

/// What a call found on disk.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    /// How the state was found.
    pub(crate) start: Start,
    /// The state (inferred when `state.json` is missing or corrupt).
    pub(crate) doc: StateDoc,
    /// `state.json`'s bytes, if it exists.
    pub(crate) state_file: Option<Vec<u8>>,
    /// The files.
    pub(crate) facts: Facts,
}

/// The bytes of `rel`, refused if it is not a regular file or larger than
/// `max` bytes.
fn read_limited(dir: &Dir, rel: &str, max: u64) -> Result<Vec<u8>, CastError> {
    let path = dir.join(rel);
    let shown = || dir.show(rel);
    let meta = std::fs::metadata(&path).map_err(|e| CastError::io("read", shown(), e))?;
    // A FIFO or a device would block or never end.
    if !meta.is_file() {
        return Err(CastError::NotAFile(shown()));
    }
    let too_large = |size| CastError::TooLarge {
        path: shown(),
        size,
        max,
    };
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    let file = FsFile::open(&path).map_err(|e| CastError::io("read", shown(), e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CastError::io("read", shown(), e))?;
    match bytes.len() as u64 > max {
        true => Err(too_large(bytes.len() as u64)),
        false => Ok(bytes),
    }
}

/// Whether `rel` exists.
fn exists(dir: &Dir, rel: &str) -> Result<bool, CastError> {
    entry_exists(&dir.join(rel)).map_err(|e| CastError::io("inspect", dir.show(rel), e))
}

/// The first free name for `base`: `base`, `base-2`, `base-3`, …
fn free_name(dir: &Dir, base: &str) -> Result<String, CastError> {
    for n in 1..=10_000 {
        let name = candidate(base, n);
        if !exists(dir, &name)? {
            return Ok(name);
        }
    }
    Err(CastError::io(
        "name",
        dir.show(base),
        std::io::Error::new(std::io::ErrorKind::AlreadyExists, "10,000 names are taken"),
    ))
}

/// Loads the state and the files a `spell` needs, at `now`.
pub(crate) fn load(
    dir: &Dir,
    spell: Spell,
    now: DateTime<Utc>,
    max_file_bytes: u64,
) -> Result<Loaded, CastError> {
    let state_file = match exists(dir, STATE)? {
        true => Some(read_limited(dir, STATE, max_file_bytes)?),
        false => None,
    };
    let (start, stored) = match state_file.as_deref().map(state_json::read) {
        None => (Start::Missing, None),
        Some(Read::Newer) => return Err(CastError::Newer),
        Some(Read::Unknown(version)) => return Err(CastError::UnknownVersion(version)),
        Some(Read::Corrupt(reason)) => (Start::Corrupt(reason), None),
        Some(Read::Doc(doc)) => (Start::Stored, Some(doc)),
    };
    let mut facts = Facts::default();
    for file in File::ALL {
        if exists(dir, file.name())? {
            facts.set(file, Found::Present);
        }
    }
    let doc = stored.unwrap_or_else(|| {
        let (state, context) = infer(&facts);
        StateDoc::new(state, context)
    });
    for file in needs(doc.state, spell) {
        if facts.exists(file) {
            let bytes = read_limited(dir, file.name(), max_file_bytes)?;
            facts.set(file, Found::Text(bytes));
        }
    }
    if spell != Spell::Lumos {
        let name = slug(&task_name(facts.bytes(File::Task)));
        let mut names: [String; 5] = Default::default();
        for (slot, place) in names.iter_mut().zip(Place::ALL) {
            *slot = free_name(dir, &place.base(&name, now))?;
        }
        facts.slots = Slots::new(names);
    }
    Ok(Loaded {
        start,
        doc,
        state_file,
        facts,
    })
}
