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

/// The most bytes the memo holds, by [`Pattern::heap_bytes`]' estimate:
/// a pattern's automaton depends on what it spells, not on its length (one
/// of 256 characters can compile to tens of kilobytes), so the bound is on
/// bytes, not on a count.
const MEMO_BYTES: usize = 64 * 1024 * 1024;

/// Compiled stored patterns by their text: a memo, seen by nothing but the
/// time it saves (a pattern's compilation depends on its text alone).
static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(|| Mutex::new(Memo::new(MEMO_BYTES)));

/// Compiled patterns by their text, at most `cap` bytes of them.
#[derive(Debug)]
struct Memo {
    patterns: HashMap<String, Arc<Pattern>>,
    /// The bytes of `patterns`, by estimate.
    bytes: usize,
    cap: usize,
}

impl Memo {
    fn new(cap: usize) -> Self {
        Self {
            patterns: HashMap::new(),
            bytes: 0,
            cap,
        }
    }

    fn get(&self, text: &str) -> Option<Arc<Pattern>> {
        self.patterns.get(text).cloned()
    }

    /// Keeps `compiled` under `text`, if it fits in the cap: when the memo
    /// is full it starts afresh rather than grow; a pattern larger than the
    /// whole cap is not kept.
    fn insert(&mut self, text: &str, compiled: Arc<Pattern>) {
        // The key, the entry and the pattern.
        let bytes = text.len()
            + size_of::<(String, Arc<Pattern>)>()
            + size_of::<Pattern>()
            + compiled.heap_bytes();
        if bytes > self.cap {
            return;
        }
        if self.bytes + bytes > self.cap {
            self.patterns = HashMap::new();
            self.bytes = 0;
        }
        if self.patterns.insert(text.to_owned(), compiled).is_none() {
            self.bytes += bytes;
        }
    }
}

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
            return compiled;
        }
        let compiled = Arc::new(Self::new(text).unwrap_or_else(|_| Self {
            text: text.to_owned(),
            nfa: Nfa::literal(text),
        }));
        MEMO.lock().insert(text, compiled.clone());
        compiled
    }

    /// An estimate of the bytes it holds on the heap.
    fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.nfa.heap_bytes()
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

    /// A glob of the longest length that compiles to a large automaton.
    fn large(n: usize) -> String {
        let mut text = format!("d{n}/");
        while text.len() + 13 <= MAX_PATTERN_CHARS {
            text.push_str("{[a-z]*,?}*/");
        }
        text.push('x');
        text
    }

    #[test]
    fn many_large_patterns_keep_the_memo_under_its_byte_cap() {
        let one = Pattern::new(&large(0)).unwrap();
        assert!(one.heap_bytes() > 10 * 1024, "{}", one.heap_bytes());
        // Room for about ten of them: a thousand never hold more.
        let cap = 10 * (one.heap_bytes() + 200);
        let mut memo = Memo::new(cap);
        let mut most = 0;
        for n in 0..1000 {
            let text = large(n);
            memo.insert(&text, Arc::new(Pattern::new(&text).unwrap()));
            assert!(memo.bytes <= cap, "{} > {cap}", memo.bytes);
            most = most.max(memo.patterns.len());
            assert!(memo.get(&text).is_some(), "the last one is kept");
        }
        assert!((5..=10).contains(&most), "{most}");
        // One larger than the whole cap is not kept.
        let mut tiny = Memo::new(100);
        tiny.insert("a", Arc::new(Pattern::new(&large(1)).unwrap()));
        assert!(tiny.get("a").is_none() && tiny.bytes == 0);
        // The process's memo keeps to its cap too.
        for n in 0..200 {
            Pattern::stored(&large(n));
        }
        let memo = MEMO.lock();
        assert!(memo.bytes <= MEMO_BYTES && memo.bytes > 0);
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
