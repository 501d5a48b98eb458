// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Fenced blocks: a fence one backtick longer than the longest backtick run
//! inside (at least three), and raw text shown safely and cut short.

use crate::toolsets::commit::document::grammar::is_forbidden_control;

/// Pushes `text` in a fenced block, with a newline after the closing fence.
pub(crate) fn push_fenced(out: &mut String, text: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    out.push_str(&fence);
    out.push('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    if !body.is_empty() {
        out.push_str(body);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
}

/// Pushes the raw description fenced, at most `max_bytes` of it (cut at a
/// character boundary, with a note), `\r\n` shown as `\n` and other control
/// characters but tab as U+FFFD.
pub(crate) fn push_raw(out: &mut String, raw: &str, max_bytes: usize) {
    let mut end = raw.len().min(max_bytes);
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    let shown: String = raw[..end]
        .replace("\r\n", "\n")
        .chars()
        .map(|c| {
            if is_forbidden_control(c) {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    push_fenced(out, &shown);
    if end < raw.len() {
        out.push_str(&format!(
            "(cut at {} KiB; the description is {} bytes)\n",
            max_bytes / 1024,
            raw.len()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_longer_than_any_backtick_run_inside() {
        let mut out = String::new();
        push_fenced(&mut out, "a\n");
        assert_eq!(out, "```\na\n```\n");
        let mut out = String::new();
        push_fenced(&mut out, "```rust\n``````\n");
        assert_eq!(out, "```````\n```rust\n``````\n```````\n");
        let mut out = String::new();
        push_fenced(&mut out, "");
        assert_eq!(out, "```\n```\n");
    }

    #[test]
    fn raw_text_is_cut_at_a_character_boundary_and_made_safe() {
        let mut out = String::new();
        push_raw(&mut out, "ab\u{1b}c\r\nd\te", 100);
        assert_eq!(out, "```\nab\u{fffd}c\nd\te\n```\n");
        let mut out = String::new();
        push_raw(&mut out, &"é".repeat(1025), 1025);
        assert_eq!(
            out,
            format!(
                "```\n{}\n```\n(cut at 1 KiB; the description is 2050 bytes)\n",
                "é".repeat(512)
            )
        );
    }
}
