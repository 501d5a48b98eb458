// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Text rules of the team's fields: agent names and evidence are one line
//! (no control characters, no line or paragraph separators) and bounded;
//! agent names hold no invisible format characters either; times read as
//! RFC 3339 in UTC to the second; titles are flattened so that a task is
//! one line.

use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};

use super::error::TeamError;
use crate::runtime::text::{is_invisible_format, is_line_break};

/// The longest agent name, in characters.
pub(crate) const MAX_AGENT_CHARS: usize = 64;

/// A time as replies show it, e.g. `2026-11-22T10:30:00Z`.
pub(crate) fn time(at: SystemTime) -> String {
    DateTime::<Utc>::from(at).to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Checks a one-line text field: not blank (when `required`), at most `max`
/// characters, no control characters.
pub(crate) fn check_line(field: &'static str, text: &str, max: usize) -> Result<(), TeamError> {
    if text.trim().is_empty() {
        return Err(TeamError::Text {
            field,
            problem: "must not be blank".into(),
        });
    }
    // U+2028 and U+2029 are no control characters, but they break lines.
    if text.chars().any(|c| c.is_control() || is_line_break(c)) {
        return Err(TeamError::Text {
            field,
            problem: "must be one line without control characters".into(),
        });
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(TeamError::Text {
            field,
            problem: format!("is {chars} characters long; the limit is {max}"),
        });
    }
    Ok(())
}

/// An agent's name, checked. A name is an identity that people and
/// agents compare by eye: one with invisible characters could pass for
/// another ("w1" and "w1" with a zero-width space are two agents), and a
/// bidirectional override could show it backwards in every reply that
/// names it.
pub(crate) fn agent(name: &str) -> Result<&str, TeamError> {
    check_line("agent name", name, MAX_AGENT_CHARS)?;
    if let Some(c) = name.chars().find(|c| is_invisible_format(*c)) {
        return Err(TeamError::Text {
            field: "agent name",
            problem: format!(
                "must not hold invisible or direction-changing characters (it holds U+{:04X})",
                u32::from(c)
            ),
        });
    }
    Ok(name)
}

/// `text` on one line: every control character (line breaks included)
/// becomes a space.
pub(crate) fn flat(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `text` cut to at most `max` characters, ending with `…` when cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some(_) => {
            let end = text.char_indices().nth(max - 1).map_or(0, |(i, _)| i);
            format!("{}…", &text[..end])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_bounded_line() {
        assert_eq!(agent("worker-1"), Ok("worker-1"));
        for bad in ["", "  ", "a\nb", "tab\there", "\u{7f}"] {
            assert!(agent(bad).is_err(), "{bad:?}");
        }
        assert!(agent(&"é".repeat(64)).is_ok());
        assert_eq!(
            agent(&"é".repeat(65)).unwrap_err().to_string(),
            "The agent name is 65 characters long; the limit is 64."
        );
    }

    #[test]
    fn names_hold_no_invisible_or_direction_changing_characters() {
        let bad = [
            ("w\u{202e}1", "U+202E"),
            ("w\u{202a}1", "U+202A"),
            ("w\u{2066}1", "U+2066"),
            ("w\u{2069}1", "U+2069"),
            ("w\u{200b}1", "U+200B"),
            ("w\u{200d}1", "U+200D"),
            ("w\u{200f}1", "U+200F"),
            ("w\u{feff}1", "U+FEFF"),
            ("w\u{ad}1", "U+00AD"),
            ("w\u{e0041}1", "U+E0041"),
            ("\u{3164}", "U+3164"),
        ];
        for (name, code) in bad {
            assert_eq!(
                agent(name).unwrap_err().to_string(),
                format!(
                    "The agent name must not hold invisible or direction-changing characters (it holds {code})."
                ),
                "{name:?}"
            );
        }
        for separator in ["w\u{2028}1", "w\u{2029}1", "w\u{85}1"] {
            assert_eq!(
                agent(separator).unwrap_err().to_string(),
                "The agent name must be one line without control characters.",
                "{separator:?}"
            );
            assert!(check_line("note", separator, 100).is_err(), "{separator:?}");
        }
        // Names in any script stay welcome, and a note may join emoji.
        for good in ["ワーカー", "عامل-1", "רובוט", "worker-é", "w 1"] {
            assert_eq!(agent(good), Ok(good));
        }
        assert!(check_line("note", "done 👩\u{200d}💻", 100).is_ok());
    }

    #[test]
    fn text_is_flattened_and_cut() {
        assert_eq!(flat("a\nb\r\tc"), "a b  c");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abcd", 4), "abcd");
        assert_eq!(time(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
