// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The order of `plan list`: the reference sorts with `localeCompare` (ICU
//! root collation). Plan ids only hold `[A-Za-z0-9_-]`, and for those the
//! root collation comes down to a few rules, implemented here instead of a
//! full ICU dependency: `_` before `-` before digits before letters; letters
//! compare without case first, then lowercase before uppercase.

use std::cmp::Ordering;

/// Primary weight: the character's place ignoring case.
fn primary(c: char) -> u32 {
    match c {
        '_' => 1,
        '-' => 2,
        '0'..='9' => 10 + (c as u32 - '0' as u32),
        'a'..='z' => 100 + (c as u32 - 'a' as u32),
        'A'..='Z' => 100 + (c as u32 - 'A' as u32),
        // Not in plan ids; after everything else, by code point.
        other => 1000 + other as u32,
    }
}

/// Tertiary weight: lowercase (and caseless) before uppercase.
fn tertiary(c: char) -> u8 {
    u8::from(c.is_ascii_uppercase())
}

/// Compares two plan ids as ICU's root collation does.
pub(crate) fn compare(a: &str, b: &str) -> Ordering {
    a.chars()
        .map(primary)
        .cmp(b.chars().map(primary))
        .then_with(|| a.chars().map(tertiary).cmp(b.chars().map(tertiary)))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_order() {
        let mut ids = vec![
            "Zed", "noh1", "dup", "broken", "Beta", "alpha", "A2", "a1", "a-b", "a_b", "9", "10",
        ];
        ids.sort_by(|a, b| compare(a, b));
        assert_eq!(
            ids,
            [
                "10", "9", "a_b", "a-b", "a1", "A2", "alpha", "Beta", "broken", "dup", "noh1",
                "Zed"
            ]
        );
    }

    #[test]
    fn case_is_a_tie_breaker() {
        assert_eq!(compare("ab", "Ab"), Ordering::Less);
        assert_eq!(compare("Ab", "ac"), Ordering::Less);
        assert_eq!(compare("a", "ab"), Ordering::Less);
        assert_eq!(compare("a-b", "ab"), Ordering::Less);
        assert_eq!(compare("x", "x"), Ordering::Equal);
    }
}
