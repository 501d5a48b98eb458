// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Text rules of the team's fields: agent names and evidence are one line
//! (no control characters) and bounded; times read as RFC 3339 in UTC to
//! the second; titles are flattened so that a task is one line.

use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};

use super::error::TeamError;

/// The longest agent name, in characters.
pub const MAX_AGENT_CHARS: usize = 64;

/// A time as replies show it, e.g. `2026-11-22T10:30:00Z`.
pub fn time(at: SystemTime) -> String {
    DateTime::<Utc>::from(at).to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Checks a one-line text field: not blank (when `required`), at most `max`
/// characters, no control characters.
pub fn check_line(field: &'static str, text: &str, max: usize) -> Result<(), TeamError> {
    if text.trim().is_empty() {
        return Err(TeamError::Text {
            field,
            problem: "must not be blank".into(),
        });
    }
    if text.chars().any(char::is_control) {
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

/// An agent's name, checked.
pub fn agent(name: &str) -> Result<&str, TeamError> {
    check_line("agent name", name, MAX_AGENT_CHARS)?;
    Ok(name)
}

/// `text` on one line: every control character (line breaks included)
/// becomes a space.
pub fn flat(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `text` cut to at most `max` characters, ending with `…` when cut.
pub fn cut(text: &str, max: usize) -> String {
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
    fn text_is_flattened_and_cut() {
        assert_eq!(flat("a\nb\r\tc"), "a b  c");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abcd", 4), "abcd");
        assert_eq!(time(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
