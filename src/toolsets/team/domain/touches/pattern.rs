// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One pattern of a task's touches: a glob (globset's syntax, `/` matched
//! only by `/`), relative to the repository, checked and compiled once.
//!
//! Rules, so that a pattern means one set of paths on every machine: one
//! line of at most [`MAX_PATTERN_CHARS`] characters; relative (no leading
//! `/`); no `.` or `..` component and no empty one (`a//b`); no `\` (an
//! escape on Unix, a separator on Windows); not ending in `/` (a directory
//! is `dir/**`); a glob globset accepts.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use globset::{Glob, GlobBuilder, GlobMatcher};
use parking_lot::Mutex;

use super::nfa::Nfa;
use crate::toolsets::team::domain::error::TeamError;
use crate::toolsets::team::domain::text::check_line;

/// The longest pattern, in characters.
pub(crate) const MAX_PATTERN_CHARS: usize = 256;

/// The most patterns the memo keeps.
const MEMO_CAP: usize = 100_000;

/// Compiled stored patterns by their text: a memo, seen by nothing but the
/// time it saves (a pattern's compilation depends on its text alone).
static MEMO: LazyLock<Mutex<HashMap<String, Arc<Pattern>>>> = LazyLock::new(Mutex::default);

/// A pattern, compiled for the overlap test.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    text: String,
    nfa: Nfa,
}

impl Pattern {
    /// `text` checked against the rules and compiled.
    pub(crate) fn new(text: &str) -> Result<Self, TeamError> {
        let bad = |problem: String| TeamError::Touch {
            pattern: crate::runtime::text::clip(text),
            problem,
        };
        check_line("pattern", text, MAX_PATTERN_CHARS)?;
        if text.starts_with('/') {
            return Err(bad(
                "is absolute; write it relative to the repository's root".into(),
            ));
        }
        if text.contains('\\') {
            return Err(bad("holds a \\; write paths with / only".into()));
        }
        if text.ends_with('/') {
            return Err(bad(format!(
                "names a directory; write '{text}**' for everything in it"
            )));
        }
        if let Some(part) = text
            .split('/')
            .find(|part| matches!(*part, "" | "." | ".."))
        {
            let problem = match part {
                "" => "has an empty component (//)".to_owned(),
                _ => format!("has a '{part}' component; write it from the repository's root"),
            };
            return Err(bad(problem));
        }
        let glob = glob(text).map_err(|error| bad(format!("is not a glob ({})", error.kind())))?;
        let nfa = Nfa::from_glob_regex(glob.regex())
            .map_err(|unreadable| bad(format!("cannot be compared ({})", unreadable.0)))?;
        Ok(Self {
            text: text.to_owned(),
            nfa,
        })
    }

    /// A pattern as stored in a board: compiled as [`Pattern::new`] does,
    /// or, if it breaks the rules (a hand-edited file), as the literal path
    /// it spells, so that every stored pattern reserves something. Each
    /// text is compiled once per process ([`MEMO`]): reservations and waves
    /// read the same patterns call after call.
    pub(crate) fn stored(text: &str) -> Arc<Self> {
        if let Some(compiled) = MEMO.lock().get(text) {
            return compiled.clone();
        }
        let compiled = Arc::new(Self::new(text).unwrap_or_else(|_| Self {
            text: text.to_owned(),
            nfa: Nfa::literal(text),
        }));
        let mut memo = MEMO.lock();
        // A bound on the memory: start afresh rather than grow.
        if memo.len() >= MEMO_CAP {
            memo.clear();
        }
        memo.insert(text.to_owned(), compiled.clone());
        compiled
    }

    /// The pattern as written.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Its automaton.
    pub(crate) fn nfa(&self) -> &Nfa {
        &self.nfa
    }

    /// A matcher of paths (relative to the repository) for `check-touches`:
    /// globset's own, built with the automaton's options; for a stored
    /// pattern that breaks the rules, of its literal path (`None` if even
    /// that cannot be built).
    pub(crate) fn matcher(&self) -> Option<GlobMatcher> {
        let glob = glob(&self.text).or_else(|_| glob(&globset::escape(&self.text)));
        glob.ok().map(|glob| glob.compile_matcher())
    }
}

/// `text` as a glob of touches: `*` and `?` never match `/`, and `\` is no
/// escape (touches hold none: see the rules above).
fn glob(text: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(text)
        .literal_separator(true)
        .backslash_escape(false)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_follow_the_rules() {
        for good in ["src/**", "**/*.rs", "docs/{a,b}.md", "README.md", "a/[!x]*"] {
            assert_eq!(Pattern::new(good).unwrap().text(), good);
        }
        for (bad, problem) in [
            (
                "/etc/x",
                "The pattern '/etc/x' is absolute; write it relative to the repository's root.",
            ),
            (
                "src/",
                "The pattern 'src/' names a directory; write 'src/**' for everything in it.",
            ),
            (
                "../x",
                "The pattern '../x' has a '..' component; write it from the repository's root.",
            ),
            (
                "./x",
                "The pattern './x' has a '.' component; write it from the repository's root.",
            ),
            ("a//b", "The pattern 'a//b' has an empty component (//)."),
            (
                "a\\b",
                "The pattern 'a\\\\b' holds a \\; write paths with / only.",
            ),
            (
                "a[",
                "The pattern 'a[' is not a glob (unclosed character class; missing ']').",
            ),
        ] {
            assert_eq!(Pattern::new(bad).unwrap_err().to_string(), problem, "{bad}");
        }
        assert!(Pattern::new("a\nb").is_err());
        assert!(Pattern::new(&"a".repeat(MAX_PATTERN_CHARS + 1)).is_err());
    }

    #[test]
    fn a_stored_pattern_that_breaks_the_rules_is_its_literal_path() {
        let stored = Pattern::stored("../x");
        assert!(stored.nfa().matches(b"../x"));
        assert!(!stored.nfa().matches(b"x"));
        assert!(stored.matcher().unwrap().is_match("../x"));
        let rust = Pattern::stored("src/*.rs").matcher().unwrap();
        assert!(rust.is_match("src/a.rs") && !rust.is_match("src/a/b.rs"));
    }
}
