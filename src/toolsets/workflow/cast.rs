// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One spell, start to end: check the note, lock D, load the state and
//! the files, compute the transition, carry out its effects (all or
//! nothing), answer. Blocking work: the MCP face runs it off the async
//! workers.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::disk::apply::{Fault, apply};
use super::disk::lock::{Mode, lock, mutex_for};
use super::disk::pause::Pause;
use super::disk::read::load;
use super::disk::{CastError, Dir};
use super::machine::spell::Spell;
use super::machine::step::{Input, Limits};
use super::machine::transition::{Decision, decide};
use crate::runtime::clock::Clock;

/// The longest note, in characters.
pub(crate) const MAX_NOTE_CHARS: usize = 500;

/// Casts the spells of one workflow directory D, as the server's sessions
/// share it.
#[derive(Debug)]
pub struct Caster {
    dir: Dir,
    limits: Limits,
    max_file_bytes: u64,
    lock_timeout: Duration,
    mutex: Arc<Mutex<()>>,
    clock: Clock,
    pause: Option<Pause>,
}

/// How a workflow is set up.
#[derive(Debug, Clone)]
pub struct Setup {
    /// D on disk.
    pub path: std::path::PathBuf,
    /// The project root on disk: writes never go through a symbolic link
    /// between it and D.
    pub root: std::path::PathBuf,
    /// The limits of a transition (with D as replies show it).
    pub limits: Limits,
    /// The largest file read.
    pub max_file_bytes: u64,
    /// The longest wait for the lock.
    pub lock_timeout: Duration,
    /// Whether D, when a spell makes it, is born with a `.gitignore`.
    pub gitignore: bool,
}

impl Caster {
    /// The workflow set up by `setup`, with time from `clock`.
    pub fn new(setup: Setup, clock: Clock) -> Self {
        Self {
            mutex: mutex_for(&setup.path),
            dir: Dir {
                path: setup.path,
                shown: setup.limits.dir.clone(),
                root: setup.root,
                gitignore: setup.gitignore,
            },
            limits: setup.limits,
            max_file_bytes: setup.max_file_bytes,
            lock_timeout: setup.lock_timeout,
            clock,
            pause: None,
        }
    }

    /// This workflow, pausing every spell that writes more than one file
    /// before its last when `pause` is given (end-to-end tests only).
    pub(crate) fn with_pause(self, pause: Option<Pause>) -> Self {
        Self { pause, ..self }
    }

    /// D on disk.
    #[cfg(test)]
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.dir.path
    }

    /// Casts `spell` with the user's `note`: the reply, or why nothing was done.
    pub fn cast(&self, spell: Spell, note: Option<&str>) -> Result<String, CastError> {
        self.cast_with(spell, note, Fault::None)
            .map(|decision| decision.reply)
    }

    /// [`Self::cast`], with a failure injected into the effects, returning
    /// the whole decision.
    pub(crate) fn cast_with(
        &self,
        spell: Spell,
        note: Option<&str>,
        fault: Fault,
    ) -> Result<Decision, CastError> {
        let note = clean_note(note)?;
        let mode = match spell {
            Spell::Lumos => Mode::Shared,
            _ => Mode::Exclusive,
        };
        let _held = lock(&self.mutex, &self.dir, mode, self.lock_timeout)?;
        let now = self.clock.now_utc();
        let loaded = load(&self.dir, spell, now, self.max_file_bytes)?;
        let input = Input {
            spell,
            start: loaded.start,
            doc: loaded.doc,
            state_file: loaded.state_file,
            facts: loaded.facts,
            note,
            now,
            limits: &self.limits,
        };
        let decision = decide(&input);
        apply(&self.dir, &decision.effects, fault, self.pause.as_ref())?;
        Ok(decision)
    }
}

/// The note as recorded: at most 500 characters; newlines and other
/// control characters become spaces; trimmed; an empty one is none.
pub(crate) fn clean_note(note: Option<&str>) -> Result<Option<String>, CastError> {
    let Some(note) = note else {
        return Ok(None);
    };
    let chars = note.chars().count();
    if chars > MAX_NOTE_CHARS {
        return Err(CastError::NoteTooLong(chars));
    }
    let cleaned: String = note
        .replace("\r\n", " ")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let cleaned = cleaned.trim();
    Ok((!cleaned.is_empty()).then(|| cleaned.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_one_line_of_at_most_500_characters() {
        assert_eq!(clean_note(None).unwrap(), None);
        assert_eq!(clean_note(Some("  \n ")).unwrap(), None);
        assert_eq!(
            clean_note(Some("a\r\nb\nc\td\u{7}e\u{85}"))
                .unwrap()
                .as_deref(),
            Some("a b c d e")
        );
        let most = "é".repeat(500);
        assert_eq!(clean_note(Some(&most)).unwrap(), Some(most.clone()));
        let error = clean_note(Some(&format!("{most}x"))).unwrap_err();
        assert_eq!(
            error.to_string(),
            "note is 501 characters long; at most 500 are allowed"
        );
    }
}
