// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a call knows of the files of D: which exist, the text of those its
//! rows read, and the free names its archives would get. Gathered by the
//! caller before the transition, so that the transition does no I/O.

use std::borrow::Cow;

use super::spell::Spell;
use super::state::State;
use crate::toolsets::workflow::files::archive::Slots;
use crate::toolsets::workflow::files::criteria;
use crate::toolsets::workflow::files::names::File;

/// One file as found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Found {
    /// Not there.
    #[default]
    Absent,
    /// There, not read (no row of this call needs its text).
    Present,
    /// There, with its bytes.
    Text(Vec<u8>),
}

/// The files of D as one call found them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Facts {
    files: [Found; 7],
    /// The free names of the places files may be moved to.
    pub(crate) slots: Slots,
}

impl Facts {
    /// Facts with every file absent and `slots` for the archives.
    #[cfg(test)]
    pub(crate) fn new(slots: Slots) -> Self {
        Self {
            files: Default::default(),
            slots,
        }
    }

    /// Records how `file` was found.
    pub(crate) fn set(&mut self, file: File, found: Found) {
        self.files[file.index()] = found;
    }

    /// Whether `file` exists.
    pub(crate) fn exists(&self, file: File) -> bool {
        !matches!(self.files[file.index()], Found::Absent)
    }

    /// The bytes of `file`; empty when it is absent or was not read.
    pub(crate) fn bytes(&self, file: File) -> &[u8] {
        match &self.files[file.index()] {
            Found::Text(bytes) => bytes,
            _ => &[],
        }
    }

    /// The text of `file` (invalid UTF-8 replaced).
    pub(crate) fn text(&self, file: File) -> Cow<'_, str> {
        String::from_utf8_lossy(self.bytes(file))
    }

    /// The unchecked criteria of `plan.md` (none when it is absent).
    pub(crate) fn unchecked(&self) -> Vec<String> {
        criteria::unchecked(self.bytes(File::Plan))
    }
}

/// The files whose text the rows of `spell` in `state` read: `plan.md`
/// always (the shown state and the options depend on it), the others only
/// where a row quotes or inspects them. Only these are read, so only these
/// can be refused for being larger than `max_file_bytes`.
pub(crate) fn needs(state: State, spell: Spell) -> Vec<File> {
    use State::*;
    let mut files = vec![File::Plan];
    match (spell, state) {
        (
            Spell::Accio,
            GatherEditing | AchieveTaskDrafting | AchieveComplete | ErrorTaskMissing,
        ) => files.push(File::Task),
        (Spell::Accio, AchieveTaskExecuted | ErrorTaskResultsMissing) => {
            files.extend([File::Task, File::Results])
        }
        (Spell::Accio, PrGatheringComments | ErrorReviewTaskMissing) => files.push(File::Comments),
        (Spell::Accio, PrReviewTaskDraft) => files.push(File::ReviewTask),
        (Spell::Expecto, GatherEditing) => files.push(File::Refs),
        _ => {}
    }
    files
}
