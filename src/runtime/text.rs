// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Small text helpers every layer shares.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` ends a line somewhere: in Markdown, a terminal, a log
/// viewer or an editor (`\n`, `\r`, vertical tab, form feed, NEL,
/// U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR).
pub(crate) fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// How a character of a caller's text is shown on one line: a control
/// character other than tab (one could move a terminal's cursor, e.g. ESC)
/// becomes its Unicode control picture (`␛`), or `�` where there is none;
/// every other character stays.
pub(crate) fn shown(c: char) -> char {
    match c {
        '\t' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        '\u{80}'..='\u{9f}' => '\u{fffd}',
        _ => c,
    }
}

/// Whether `text` may hold a line break or a control character: a quick,
/// conservative test on bytes (a `false` is certain), for the common text
/// that holds neither.
pub(crate) fn may_need_care(text: &str) -> bool {
    // C1 controls (NEL among them) start with 0xC2, U+2028/U+2029 with 0xE2.
    let care = |b: &u8| (*b < 0x20) | (*b == 0x7f) | (*b == 0xc2) | (*b == 0xe2);
    // Without short-circuits and early exits within a chunk, the compiler
    // makes this vector instructions: every text of every list passes here
    // (a byte-by-byte `any` made rendering 10,000 tasks 2.3 times slower).
    let any = |bytes: &[u8]| bytes.iter().fold(false, |any, b| any | care(b));
    let mut chunks = text.as_bytes().chunks_exact(16);
    chunks.any(any) || any(chunks.remainder())
}

/// Whether `c` is an invisible formatting character: Unicode's general
/// category Cf (format), which holds the bidirectional controls (U+200E,
/// U+200F, U+202A to U+202E, U+2066 to U+2069, U+061C), the zero-width
/// characters (U+200B to U+200D, U+2060, U+FEFF), the soft hyphen and the
/// tags, and U+115F, U+1160, U+3164 and U+FFA0, the Hangul fillers that
/// show as nothing. (Line and paragraph separators are refused as line
/// breaks by the team's `check_line`.)
pub(crate) fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{115f}'..='\u{1160}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{3164}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
    )
}

/// `text` (a name or path read from outside: a stored board, git) safe
/// to print on one line of a reply or a terminal: a line break, a control
/// character, an invisible or direction-changing character (U+202E would
/// show the rest of the line backwards) becomes its escape (`\n`, `\t`,
/// `\u{202e}`), and `\` becomes `\\` so that an escape cannot be
/// forged. Other text comes back as it is, without a copy.
pub(crate) fn escaped(text: &str) -> Cow<'_, str> {
    let escape =
        |c: char| c == '\\' || c.is_control() || is_line_break(c) || is_invisible_format(c);
    if !text.chars().any(escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escape(c) => {
                let _ = write!(out, "\\u{{{:04x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Quotes a caller's value for an error message, cut short so that a huge
/// argument does not come back as a huge error.
pub(crate) fn clip(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut clipped: String = text.chars().take(MAX_CHARS).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_outside_are_escaped_onto_one_line() {
        assert!(matches!(
            escaped("worker-1 é ✓"),
            Cow::Borrowed("worker-1 é ✓")
        ));
        for (raw, expected) in [
            ("w1\n- ☑ [3] forged", "w1\\n- ☑ [3] forged"),
            ("a\rb\tc", "a\\rb\\tc"),
            ("\u{202e}tnega", "\\u{202e}tnega"),
            ("w\u{200b}1", "w\\u{200b}1"),
            ("esc\u{1b}[2J", "esc\\u{001b}[2J"),
            ("a\u{2028}b\u{85}", "a\\u{2028}b\\u{0085}"),
            ("a\\nb", "a\\\\nb"),
        ] {
            assert_eq!(escaped(raw), expected, "{raw:?}");
        }
    }

    #[test]
    fn line_breaks_and_control_characters_are_known() {
        let breaks: Vec<char> = "a\n\r\u{b}\u{c}\u{85}\u{2028}\u{2029}\tb"
            .chars()
            .filter(|c| is_line_break(*c))
            .collect();
        assert_eq!(breaks.len(), 7);
        let shown: String = "a\u{1b}[2K\t\u{7}\u{7f}\u{9b}é✓"
            .chars()
            .map(shown)
            .collect();
        assert_eq!(shown, "a␛[2K\t␇␡\u{fffd}é✓");
        assert!(!may_need_care("plain text, é"));
        for text in ["a\tb", "a\rb", "a\u{85}b", "a\u{2028}b", "a\u{7f}"] {
            assert!(may_need_care(text), "{text:?}");
        }
        // In and after the chunks the test reads at once.
        let long = "x".repeat(40);
        assert!(!may_need_care(&long));
        for at in [0, 15, 16, 31, 32, 39] {
            let mut text = long.clone();
            text.replace_range(at..=at, "\n");
            assert!(may_need_care(&text), "{at}");
        }
    }
}
