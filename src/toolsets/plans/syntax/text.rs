// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! JavaScript string semantics the reference relies on: what `\s` and
//! `trim()` call whitespace, what `.` refuses to match, `split(/\r?\n/)`,
//! and the EOL and final-newline bookkeeping of every edit. Matching them
//! exactly is what keeps our files byte-identical to the reference's.

use std::borrow::Cow;

/// The literal every plan must carry in its first 30 lines.
pub(crate) const FORMAT_HEADER: &str = "<!-- long-term-plan:format=v1 -->";

/// How many leading lines are searched for [`FORMAT_HEADER`].
pub(crate) const HEADER_SEARCH_LINES: usize = 30;

/// JavaScript's `\s` (and what `trim()` strips): ECMAScript WhiteSpace and
/// LineTerminator. Unlike Rust's `char::is_whitespace` it includes U+FEFF
/// and excludes U+0085.
pub(crate) fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// The characters a JavaScript `.` does not match (without the `s` flag).
pub(crate) fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Whether an ASCII byte is JavaScript whitespace (tab, LF, VT, FF, CR, space).
#[inline]
fn is_ascii_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

/// `String.prototype.trim`.
#[inline]
pub(crate) fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// `String.prototype.trimStart`. Most strings start with a visible ASCII
/// character and are answered inline; otherwise ASCII is handled a byte at
/// a time, and the first non-ASCII byte hands over to the Unicode check.
#[inline]
pub(crate) fn trim_start(s: &str) -> &str {
    match s.as_bytes().first() {
        Some(&b) if b < 0x80 && !is_ascii_space(b) => s,
        None => s,
        Some(_) => trim_start_slow(s),
    }
}

fn trim_start_slow(s: &str) -> &str {
    let ascii = s
        .bytes()
        .position(|b| !is_ascii_space(b))
        .unwrap_or(s.len());
    let rest = &s[ascii..];
    match rest.as_bytes().first() {
        Some(&b) if b >= 0x80 => rest.trim_start_matches(is_space),
        _ => rest,
    }
}

/// `String.prototype.trimEnd`, with the same fast path as [`trim_start`].
#[inline]
pub(crate) fn trim_end(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(&b) if b < 0x80 && !is_ascii_space(b) => s,
        None => s,
        Some(_) => trim_end_slow(s),
    }
}

fn trim_end_slow(s: &str) -> &str {
    let ascii = s
        .bytes()
        .rposition(|b| !is_ascii_space(b))
        .map_or(0, |i| i + 1);
    // A non-ASCII byte ends a character here: hand over to the Unicode check.
    let rest = &s[..ascii];
    match rest.as_bytes().last() {
        Some(&b) if b >= 0x80 => rest.trim_end_matches(is_space),
        _ => rest,
    }
}

/// Whether `s` holds a character a JavaScript `.` does not match.
pub(crate) fn has_line_terminator(s: &str) -> bool {
    let bytes = s.as_bytes();
    memchr::memchr3_iter(b'\n', b'\r', 0xE2, bytes).any(|i| {
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; other E2 characters
        // (such as √) are fine.
        bytes[i] != 0xE2 || matches!(bytes[i + 1..], [0x80, 0xA8 | 0xA9, ..])
    })
}

/// The number of characters of `s` (bytes when it is ASCII).
pub(crate) fn char_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// `line.trim().length === 0`.
pub(crate) fn is_blank(s: &str) -> bool {
    trim(s).is_empty()
}

/// The number of leading spaces (U+0020 only), as the reference's
/// `lineIndent` counts them.
pub(crate) fn space_indent(s: &str) -> usize {
    s.bytes().take_while(|&b| b == b' ').count()
}

/// `text.split(/\r?\n/)`: a lone `\r` is not a line break.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    // Room for lines of about 40 bytes, the typical task line; more grows.
    let mut lines = Vec::with_capacity(text.len() / 40 + 1);
    lines.extend(lines_of(text));
    lines
}

/// The lines of [`split_lines`], one at a time.
pub(crate) fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        match ends.next() {
            Some(end) => {
                start = Some(end + 1);
                let line = &text[from..end];
                Some(line.strip_suffix('\r').unwrap_or(line))
            }
            None => {
                start = None;
                Some(&text[from..])
            }
        }
    })
}

/// [`split_lines`], then the final empty element dropped when the text ends
/// with `\n` (what the parser, the editor and repair do; the validator does not).
pub fn split_content_lines(text: &str) -> Vec<&str> {
    let mut lines = split_lines(text);
    lines.truncate(content_len(text, &lines));
    lines
}

/// How many of `text`'s [`split_lines`] are content lines: all but a final
/// empty one after a final `\n`.
pub(crate) fn content_len(text: &str, lines: &[&str]) -> usize {
    if text.ends_with('\n') && lines.last() == Some(&"") {
        lines.len() - 1
    } else {
        lines.len()
    }
}

/// Whether the header is in one of the first 30 lines.
pub(crate) fn has_format_header<S: AsRef<str>>(lines: &[S]) -> bool {
    header_within(lines.iter().map(AsRef::as_ref))
}

/// [`has_format_header`] on lines as they come.
pub(crate) fn header_within<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let finder = memchr::memmem::Finder::new(FORMAT_HEADER);
    lines
        .take(HEADER_SEARCH_LINES)
        .any(|line| finder.find(line.as_bytes()).is_some())
}

/// `JSON.stringify` of a string (serde_json escapes exactly the same way).
pub(crate) fn json_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// A document split for editing: its lines, its EOL, and whether it ended
/// with a newline, so that an edit re-joins it the way the reference does.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'a> {
    /// The lines, without their line breaks.
    pub(crate) lines: Vec<Cow<'a, str>>,
    /// `\r\n` if the text contains any `\r\n`, else `\n`.
    pub(crate) eol: &'static str,
    /// Whether the text ended with `\n`.
    pub(crate) ends_with_newline: bool,
}

impl<'a> Lines<'a> {
    /// Splits `text` as the reference's editor does.
    pub(crate) fn split(text: &'a str) -> Self {
        Self {
            lines: split_content_lines(text)
                .into_iter()
                .map(Cow::Borrowed)
                .collect(),
            eol: if text.contains("\r\n") { "\r\n" } else { "\n" },
            ends_with_newline: text.ends_with('\n'),
        }
    }

    /// Joins the lines with the EOL, with a final EOL if the text had one.
    pub(crate) fn join(&self) -> String {
        self.join_with_final_eol(self.ends_with_newline)
    }

    /// Joins the lines with the EOL, with a final EOL if `final_eol`.
    pub(crate) fn join_with_final_eol(&self, final_eol: bool) -> String {
        let size: usize = self.lines.iter().map(|l| l.len() + self.eol.len()).sum();
        let mut text = String::with_capacity(size);
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                text.push_str(self.eol);
            }
            text.push_str(line);
        }
        if final_eol {
            text.push_str(self.eol);
        }
        text
    }

    /// Prepends the header and a blank line unless the header is already in
    /// the first 30 lines; says whether it did.
    pub(crate) fn ensure_format_header(&mut self) -> bool {
        if has_format_header(&self.lines) {
            return false;
        }
        self.lines
            .splice(0..0, [Cow::Borrowed(FORMAT_HEADER), Cow::Borrowed("")]);
        true
    }
}

/// `s.replace(/\r?\n/g, ' ')`, as the title sanitisers do, and (our
/// deviation) every other line terminator too: a lone `\r`, U+2028 or
/// U+2029 left in a title would make its line unreadable to the parser
/// (the task would vanish) and would start a new line in a terminal.
pub(crate) fn newlines_to_spaces(s: &str) -> Cow<'_, str> {
    if !has_line_terminator(s) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace("\r\n", " ").replace(is_line_terminator, " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_javascripts() {
        for c in ['\t', ' ', '\u{A0}', '\u{FEFF}', '\u{3000}', '\u{2028}'] {
            assert!(is_space(c), "{c:?}");
        }
        assert!(!is_space('\u{85}'));
        assert!(!is_space('x'));
        assert_eq!(trim("\u{FEFF} a \u{3000}"), "a");
        assert_eq!(trim_start("  > x "), "> x ");
        assert_eq!(trim_end(" x\t"), " x");
        assert_eq!(trim("\u{3000}\u{3000}"), "");
        assert_eq!(trim(" é \u{A0}"), "é");
        assert_eq!(trim_end("a\u{FEFF}\t "), "a");
        assert!(has_line_terminator("a\u{2029}b") && has_line_terminator("\r"));
        assert!(!has_line_terminator("a\u{2027}b é"));
        assert_eq!(char_count("aé"), 2);
    }

    #[test]
    fn split_keeps_lone_carriage_returns() {
        assert_eq!(split_lines("a\r\nb\nc"), ["a", "b", "c"]);
        assert_eq!(split_lines("a\r\r\nb\r"), ["a\r", "b\r"]);
        assert_eq!(split_lines(""), [""]);
        assert_eq!(split_lines("a\n"), ["a", ""]);
        assert_eq!(split_content_lines("a\n"), ["a"]);
        assert_eq!(split_content_lines("a\n\n"), ["a", ""]);
        assert_eq!(split_content_lines(""), [""]);
    }

    #[test]
    fn lines_round_trip_with_their_eol() {
        for text in ["a\nb\n", "a\nb", "a\r\nb\r\n", "a\r\nb", "", "\n"] {
            assert_eq!(Lines::split(text).join(), text, "{text:?}");
        }
        // Mixed EOLs become CRLF.
        assert_eq!(Lines::split("a\nb\r\nc\n").join(), "a\r\nb\r\nc\r\n");
        assert_eq!(Lines::split("a").join_with_final_eol(true), "a\n");
    }

    #[test]
    fn header_is_searched_in_the_first_thirty_lines() {
        let mut lines = vec!["x"; 29];
        lines.push(FORMAT_HEADER);
        assert!(has_format_header(&lines));
        lines.insert(0, "y");
        assert!(!has_format_header(&lines));
        assert!(has_format_header(&[format!("  {FORMAT_HEADER} trailing")]));
    }

    #[test]
    fn json_quoting_matches_json_stringify() {
        assert_eq!(json_quote("x"), "\"x\"");
        assert_eq!(json_quote("a\"b\\"), "\"a\\\"b\\\\\"");
        assert_eq!(json_quote("\t\u{1}"), "\"\\t\\u0001\"");
        assert_eq!(json_quote("√"), "\"√\"");
    }

    #[test]
    fn title_newlines_become_spaces() {
        assert_eq!(
            newlines_to_spaces("a\r\nb\nc\rd\u{2028}e\u{2029}f"),
            "a b c d e f"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn split_lines_is_split_on_lf_less_one_cr(text in "[a\r\n√ ]{0,24}") {
            let mut expected: Vec<&str> = text.split('\n').collect();
            let last = expected.len() - 1;
            for line in &mut expected[..last] {
                *line = line.strip_suffix('\r').unwrap_or(line);
            }
            proptest::prop_assert_eq!(split_lines(&text), expected);
        }
    }
}
