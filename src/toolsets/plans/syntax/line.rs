// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Recognisers for single lines, written by hand to give exactly the answers
//! of the reference's regular expressions (JavaScript semantics, including
//! backtracking), without a regex engine:
//!
//! - heading: `/^(#{1,6})\s+(.*)$/`
//! - strict task: `/^(\s*)-\s+\[([ *√])\]\s+(.*?)(\s+<!--\s*long-term-plan:id=([A-Za-z0-9_-]+)\s*-->)\s*$/`
//! - loose task: `/^(\s*)-\s+\[([^\]])\]\s+(.*)$/`
//! - id trailer: `/<!--\s*long-term-plan:id=([A-Za-z0-9_-]+)\s*-->\s*$/`
//! - repair candidate: `/^(\s*-\s+\[([ *√])\]\s+.*?)(\s*)$/`
//! - status and title regions for minimal-diff edits.
//!
//! Every plan line goes through some of these on every request, so they
//! read each line as few times as they can: a line is refused on its first
//! byte when it cannot be a task or a heading, the `- [x]` prefix is found
//! once ([`Checkbox`]) for both task regexes, and a title is scanned once
//! for everything it must not hold.

use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{
    char_count, has_line_terminator, is_space, trim, trim_end, trim_start,
};

/// The key inside an id comment.
const ID_KEY: &str = "long-term-plan:id=";

/// A strict task line, as the parser accepts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TaskLine<'a> {
    /// Leading whitespace, in UTF-16 code units (every JS space is one unit).
    pub(crate) indent: usize,
    /// The status symbol's status.
    pub(crate) status: Status,
    /// The title, trimmed, non-empty, without comment markers.
    pub(crate) title: &'a str,
    /// The id from the trailer (not necessarily a safe id).
    pub(crate) id: &'a str,
}

/// A line that starts like a task, `^(\s*)-\s+\[(.)\]`: found once, then
/// asked whether it is a loose or a strict task line (the validator asks
/// both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checkbox<'a> {
    /// Leading whitespace, in characters.
    indent: usize,
    /// The character between the brackets.
    symbol: char,
    /// The rest of the line after `]`.
    rest: &'a str,
}

impl<'a> Checkbox<'a> {
    /// `^(\s*)-\s+\[` + one character + `\]`.
    pub(crate) fn of(line: &'a str) -> Option<Self> {
        let rest = trim_start(line);
        // Most lines are not tasks: refuse them on their first byte.
        if !rest.starts_with('-') {
            return None;
        }
        let indent = char_count(&line[..line.len() - rest.len()]);
        let rest = &rest[1..];
        let after_space = trim_start(rest);
        if after_space.len() == rest.len() {
            return None;
        }
        let mut chars = after_space.strip_prefix('[')?.chars();
        let symbol = chars.next()?;
        let rest = chars.as_str().strip_prefix(']')?;
        Some(Self {
            indent,
            symbol,
            rest,
        })
    }

    /// The loose task-line regex: the character between the brackets. A
    /// character outside the Basic Multilingual Plane is two UTF-16 units
    /// and so never matches `[^\]]`.
    pub(crate) fn loose_symbol(self) -> Option<char> {
        if self.symbol == ']' || self.symbol.len_utf16() != 1 {
            return None;
        }
        spaces_then_rest_of_line(self.rest).map(|_| self.symbol)
    }

    /// `parseTaskLineStrict`: the task line the parser accepts (non-empty
    /// title without `<!--` or `-->`).
    pub(crate) fn task_line(self) -> Option<TaskLine<'a>> {
        let strict = self.strict()?;
        if strict.title.is_empty() || strict.flaws.comment_marker {
            return None;
        }
        Some(TaskLine {
            indent: self.indent,
            status: strict.status,
            title: strict.title,
            id: strict.id,
        })
    }

    /// The strict task-line regex on the rest of the line.
    fn strict(self) -> Option<Strict<'a>> {
        let status = Status::from_symbol(self.symbol)?;
        let (open, id) = trailer(self.rest)?;
        let between = &self.rest[..open];
        // `\s+(.*?)\s+` before `<!--`: spaces on both sides of a title that
        // holds no line terminator; an all-space gap needs two spaces.
        let after_start = trim_start(between);
        let title = trim_end(after_start);
        if title.is_empty() {
            return (char_count(between) >= 2).then_some(Strict {
                status,
                title: "",
                id,
                flaws: TitleFlaws::default(),
            });
        }
        let starts_with_space = after_start.len() < between.len();
        let ends_with_space = title.len() < after_start.len();
        let flaws = TitleFlaws::of(title);
        (starts_with_space && ends_with_space && !flaws.line_terminator).then_some(Strict {
            status,
            title,
            id,
            flaws,
        })
    }
}

/// What the strict regex captures, with what the title holds besides.
struct Strict<'a> {
    status: Status,
    /// Trimmed; empty when the regex matched an all-space gap.
    title: &'a str,
    id: &'a str,
    flaws: TitleFlaws,
}

/// What a title may hold that a task line refuses: a character `.` does
/// not match, or `<!--` / `-->`.
#[derive(Debug, Clone, Copy, Default)]
struct TitleFlaws {
    line_terminator: bool,
    comment_marker: bool,
}

/// The bytes that can start a line terminator (`\n`, `\r`, the first byte
/// of U+2028 and U+2029) or a comment marker (`<`, `-`).
static TITLE_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'\n' as usize] = true;
    table[b'\r' as usize] = true;
    table[0xE2] = true;
    table[b'<' as usize] = true;
    table[b'-' as usize] = true;
    table
};

impl TitleFlaws {
    /// Both findings in one pass over the title (two when it holds one of
    /// the bytes that can start them).
    fn of(title: &str) -> Self {
        let bytes = title.as_bytes();
        let mut flaws = Self::default();
        // Without an early exit, this loop is vectorised: most titles end here.
        let special = bytes.iter().fold(false, |found, &b| {
            found | matches!(b, b'\n' | b'\r' | 0xE2 | b'<' | b'-')
        });
        if !special {
            return flaws;
        }
        for (i, &b) in bytes.iter().enumerate() {
            if !TITLE_SPECIAL[usize::from(b)] {
                continue;
            }
            let next = &bytes[i + 1..];
            match b {
                b'\n' | b'\r' => flaws.line_terminator = true,
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                0xE2 => flaws.line_terminator |= matches!(next, [0x80, 0xA8 | 0xA9, ..]),
                b'<' => flaws.comment_marker |= next.starts_with(b"!--"),
                _ => flaws.comment_marker |= next.starts_with(b"->"),
            }
        }
        flaws
    }
}

/// `^(\s*)-\s+\[` + one character + `\]`: the leading whitespace's length
/// in characters, the character and the rest of the line after `]`.
fn checkbox(line: &str) -> Option<(usize, char, &str)> {
    Checkbox::of(line).map(|c| (c.indent, c.symbol, c.rest))
}

/// `\s+(.*)$` on `rest`: at least one space, then (after the whole run of
/// spaces) no line terminator up to the end. Returns what `(.*)` captures.
fn spaces_then_rest_of_line(rest: &str) -> Option<&str> {
    let body = trim_start(rest);
    if body.len() == rest.len() || has_line_terminator(body) {
        return None;
    }
    Some(body)
}

/// `/^(#{1,6})\s+(.*)$/`: the level and the trimmed text.
pub(crate) fn heading(line: &str) -> Option<(usize, &str)> {
    if !line.starts_with('#') {
        return None;
    }
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if level > 6 {
        return None;
    }
    spaces_then_rest_of_line(&line[level..]).map(|text| (level, trim(text)))
}

/// `/^#\s+/`: the line that plan-title and plan-body edits treat as the H1.
pub(crate) fn is_h1_prefix(line: &str) -> bool {
    line.strip_prefix('#')
        .and_then(|rest| rest.chars().next())
        .is_some_and(is_space)
}

/// The id trailer at the end of `s` (after trailing spaces):
/// `<!--\s*long-term-plan:id=([A-Za-z0-9_-]+)\s*-->\s*$`, searched anywhere.
/// Returns the byte offset of its `<!--` and the id.
fn trailer(s: &str) -> Option<(usize, &str)> {
    let s = trim_end(s);
    let inner_end = s.len().checked_sub(3)?;
    if !s.ends_with("-->") {
        return None;
    }
    // The id and the spaces around it hold no `<`, so only the last `<`
    // before the closing `-->` can open a trailer that reaches the end.
    let bytes = s.as_bytes();
    let open = memchr::memrchr(b'<', &bytes[..inner_end])?;
    if !bytes[open + 1..].starts_with(b"!--") {
        return None;
    }
    let inner = s.get(open + 4..inner_end)?;
    let after_key = trim_start(inner).strip_prefix(ID_KEY)?;
    let id_len = after_key
        .bytes()
        .position(|b| !ID_BYTE[usize::from(b)])
        .unwrap_or(after_key.len());
    let (id, tail) = after_key.split_at(id_len);
    (id_len > 0 && trim_start(tail).is_empty()).then_some((open, id))
}

/// `[A-Za-z0-9_-]`, the bytes of an id in a trailer.
static ID_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    table
};

/// The id of the trailer that ends `line`, if any (the validator's
/// `TASK_ID_TRAILER_RE`).
pub(crate) fn id_trailer(line: &str) -> Option<&str> {
    trailer(line).map(|(_, id)| id)
}

/// The strict task-line regex, without the parser's extra checks: the
/// indent, the status, the raw title capture and the id.
#[cfg(test)]
fn strict_match(line: &str) -> Option<(usize, Status, &str, &str)> {
    let checkbox = Checkbox::of(line)?;
    let strict = checkbox.strict()?;
    Some((checkbox.indent, strict.status, strict.title, strict.id))
}

/// `parseTaskLineStrict`: a task line the parser accepts (non-empty title
/// without `<!--` or `-->`).
pub(crate) fn task_line(line: &str) -> Option<TaskLine<'_>> {
    Checkbox::of(line)?.task_line()
}

/// The loose task-line regex: the character between the brackets, if the
/// line looks like a task at all.
#[cfg(test)]
pub(crate) fn loose_task_symbol(line: &str) -> Option<char> {
    Checkbox::of(line)?.loose_symbol()
}

/// `/^(\s*-\s+\[([ *√])\]\s+.*?)(\s*)$/`: a line repair may give an id.
pub(crate) fn is_repair_candidate(line: &str) -> bool {
    let Some((_, symbol, rest)) = checkbox(line) else {
        return false;
    };
    if Status::from_symbol(symbol).is_none() {
        return false;
    }
    let body = trim_start(rest);
    body.len() != rest.len() && !has_line_terminator(trim_end(body))
}

/// `/^(\s*-\s+\[)[ *√](\]\s+)/`: the byte range of the status symbol.
pub(crate) fn status_symbol_range(line: &str) -> Option<std::ops::Range<usize>> {
    let (_, symbol, rest) = checkbox(line)?;
    Status::from_symbol(symbol)?;
    if !rest.chars().next().is_some_and(is_space) {
        return None;
    }
    let end = line.len() - rest.len() - 1;
    Some(end - symbol.len_utf8()..end)
}

/// The byte range of the title between `^(\s*-\s+\[[ *√]\]\s+)` and
/// `(\s+<!--\s*long-term-plan:id=[A-Za-z0-9_-]+\s*-->\s*)$`, for renames.
pub(crate) fn title_range(line: &str) -> Option<std::ops::Range<usize>> {
    let (_, symbol, rest) = checkbox(line)?;
    Status::from_symbol(symbol)?;
    let title = trim_start(rest);
    if title.len() == rest.len() {
        return None;
    }
    let start = line.len() - title.len();
    let (open, _) = trailer(line)?;
    let end = trim_end(&line[..open]).len();
    if end < start || end == open {
        return None;
    }
    Some(start..end)
}

/// The recognisers as they were before they were tuned for speed, kept as
/// the oracle the tuned ones must agree with on any line.
#[cfg(test)]
mod oracle {
    #![allow(dead_code)]
    use super::{ID_KEY, TaskLine};
    use crate::toolsets::plans::syntax::status::Status;
    use crate::toolsets::plans::syntax::text::{char_count, is_space, trim, trim_end, trim_start};

    pub(super) fn has_line_terminator(s: &str) -> bool {
        let bytes = s.as_bytes();
        bytes.iter().enumerate().any(|(i, &b)| {
            b == b'\n'
                || b == b'\r'
                || (b == 0xE2
                    && bytes.get(i + 1) == Some(&0x80)
                    && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)))
        })
    }

    /// `^(\s*)-\s+\[` + one character + `\]`: the leading whitespace's length
    /// in characters, the character and the rest of the line after `]`.
    fn checkbox(line: &str) -> Option<(usize, char, &str)> {
        let rest = trim_start(line);
        let indent = char_count(&line[..line.len() - rest.len()]);
        let rest = rest.strip_prefix('-')?;
        let after_space = trim_start(rest);
        if after_space.len() == rest.len() {
            return None;
        }
        let mut chars = after_space.strip_prefix('[')?.chars();
        let symbol = chars.next()?;
        let rest = chars.as_str().strip_prefix(']')?;
        Some((indent, symbol, rest))
    }

    /// `\s+(.*)$` on `rest`: at least one space, then (after the whole run of
    /// spaces) no line terminator up to the end. Returns what `(.*)` captures.
    fn spaces_then_rest_of_line(rest: &str) -> Option<&str> {
        let body = trim_start(rest);
        if body.len() == rest.len() || has_line_terminator(body) {
            return None;
        }
        Some(body)
    }

    /// `/^(#{1,6})\s+(.*)$/`: the level and the trimmed text.
    pub(super) fn heading(line: &str) -> Option<(usize, &str)> {
        let level = line.bytes().take_while(|&b| b == b'#').count();
        if !(1..=6).contains(&level) {
            return None;
        }
        spaces_then_rest_of_line(&line[level..]).map(|text| (level, trim(text)))
    }

    /// `/^#\s+/`: the line that plan-title and plan-body edits treat as the H1.
    pub(super) fn is_h1_prefix(line: &str) -> bool {
        line.strip_prefix('#')
            .and_then(|rest| rest.chars().next())
            .is_some_and(is_space)
    }

    /// The id trailer at the end of `s` (after trailing spaces):
    /// `<!--\s*long-term-plan:id=([A-Za-z0-9_-]+)\s*-->\s*$`, searched anywhere.
    /// Returns the byte offset of its `<!--` and the id.
    fn trailer(s: &str) -> Option<(usize, &str)> {
        let s = trim_end(s);
        let inner_end = s.len().checked_sub(3)?;
        if !s.ends_with("-->") {
            return None;
        }
        // The id and the spaces around it hold no `<`, so only the last `<!--`
        // can open a trailer that reaches the end.
        let open = rfind_comment_open(s)?;
        let inner = s.get(open + 4..inner_end)?;
        let after_key = trim_start(inner).strip_prefix(ID_KEY)?;
        let id_len = after_key
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            .count();
        let (id, tail) = after_key.split_at(id_len);
        (id_len > 0 && trim_start(tail).is_empty()).then_some((open, id))
    }

    /// The last `<!--` in `s` (a byte loop: cheaper than a substring searcher
    /// on lines this short).
    fn rfind_comment_open(s: &str) -> Option<usize> {
        let bytes = s.as_bytes();
        (0..bytes.len().saturating_sub(3))
            .rev()
            .find(|&i| bytes[i] == b'<' && bytes[i + 1..].starts_with(b"!--"))
    }

    /// Whether `s` holds `<!--` or `-->`.
    fn has_comment_marker(s: &str) -> bool {
        let bytes = s.as_bytes();
        bytes.iter().enumerate().any(|(i, &b)| {
            (b == b'<' && bytes[i + 1..].starts_with(b"!--"))
                || (b == b'-' && bytes[i + 1..].starts_with(b"->"))
        })
    }

    /// The id of the trailer that ends `line`, if any (the validator's
    /// `TASK_ID_TRAILER_RE`).
    pub(super) fn id_trailer(line: &str) -> Option<&str> {
        trailer(line).map(|(_, id)| id)
    }

    /// The strict task-line regex, without the parser's extra checks: the
    /// indent, the status, the raw title capture and the id.
    pub(super) fn strict_match(line: &str) -> Option<(usize, Status, &str, &str)> {
        let (indent, symbol, rest) = checkbox(line)?;
        let status = Status::from_symbol(symbol)?;
        let (open, id) = trailer(rest)?;
        let between = &rest[..open];
        // `\s+(.*?)\s+` before `<!--`: spaces on both sides of a title that
        // holds no line terminator; an all-space gap needs two spaces.
        let title = trim(between);
        if title.is_empty() {
            return (char_count(between) >= 2).then_some((indent, status, "", id));
        }
        let starts_with_space = between.chars().next().is_some_and(is_space);
        let ends_with_space = between.chars().next_back().is_some_and(is_space);
        (starts_with_space && ends_with_space && !has_line_terminator(title))
            .then_some((indent, status, title, id))
    }

    /// `parseTaskLineStrict`: a task line the parser accepts (non-empty title
    /// without `<!--` or `-->`).
    pub(super) fn task_line(line: &str) -> Option<TaskLine<'_>> {
        let (indent, status, title, id) = strict_match(line)?;
        if title.is_empty() || has_comment_marker(title) {
            return None;
        }
        Some(TaskLine {
            indent,
            status,
            title,
            id,
        })
    }

    /// The loose task-line regex: the character between the brackets, if the
    /// line looks like a task at all. A character outside the Basic
    /// Multilingual Plane is two UTF-16 units and so never matches `[^\]]`.
    pub(super) fn loose_task_symbol(line: &str) -> Option<char> {
        let (_, symbol, rest) = checkbox(line)?;
        if symbol == ']' || symbol.len_utf16() != 1 {
            return None;
        }
        spaces_then_rest_of_line(rest).map(|_| symbol)
    }

    /// `/^(\s*-\s+\[([ *√])\]\s+.*?)(\s*)$/`: a line repair may give an id.
    pub(super) fn is_repair_candidate(line: &str) -> bool {
        let Some((_, symbol, rest)) = checkbox(line) else {
            return false;
        };
        if Status::from_symbol(symbol).is_none() {
            return false;
        }
        let body = trim_start(rest);
        body.len() != rest.len() && !has_line_terminator(trim_end(body))
    }

    /// `/^(\s*-\s+\[)[ *√](\]\s+)/`: the byte range of the status symbol.
    pub(super) fn status_symbol_range(line: &str) -> Option<std::ops::Range<usize>> {
        let (_, symbol, rest) = checkbox(line)?;
        Status::from_symbol(symbol)?;
        if !rest.chars().next().is_some_and(is_space) {
            return None;
        }
        let end = line.len() - rest.len() - 1;
        Some(end - symbol.len_utf8()..end)
    }

    /// The byte range of the title between `^(\s*-\s+\[[ *√]\]\s+)` and
    /// `(\s+<!--\s*long-term-plan:id=[A-Za-z0-9_-]+\s*-->\s*)$`, for renames.
    pub(super) fn title_range(line: &str) -> Option<std::ops::Range<usize>> {
        let (_, symbol, rest) = checkbox(line)?;
        Status::from_symbol(symbol)?;
        let title = trim_start(rest);
        if title.len() == rest.len() {
            return None;
        }
        let start = line.len() - title.len();
        let (open, _) = trailer(line)?;
        let end = trim_end(&line[..open]).len();
        if end < start || end == open {
            return None;
        }
        Some(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_follow_the_regex() {
        assert_eq!(heading("# Title "), Some((1, "Title")));
        assert_eq!(heading("###### six"), Some((6, "six")));
        assert_eq!(heading("####### seven"), None);
        assert_eq!(heading("#NoSpace"), None);
        assert_eq!(heading("  ## indented"), None);
        assert_eq!(heading("#\tTab"), Some((1, "Tab")));
        assert_eq!(heading("# "), Some((1, "")));
        assert_eq!(heading("#"), None);
        assert_eq!(
            heading("## \r"),
            Some((2, "")),
            "the run of spaces takes the \\r"
        );
        assert_eq!(heading("## a\rb"), None, ". does not match \\r");
        assert_eq!(heading("## a\r"), None);
        assert_eq!(heading("\u{FEFF}# BOM"), None);
        assert_eq!(heading("#\u{3000}wide"), Some((1, "wide")));
    }

    #[test]
    fn h1_prefix() {
        assert!(is_h1_prefix("# x"));
        assert!(is_h1_prefix("# "));
        assert!(!is_h1_prefix("## x"));
        assert!(!is_h1_prefix("#x"));
        assert!(!is_h1_prefix("#"));
    }

    #[test]
    fn strict_task_lines() {
        let t = task_line("- [ ] Title <!-- long-term-plan:id=t_a -->").unwrap();
        assert_eq!(
            (t.indent, t.status, t.title, t.id),
            (0, Status::Todo, "Title", "t_a")
        );
        let t = task_line("    - [*]   Spaced   <!--long-term-plan:id=x-->  ").unwrap();
        assert_eq!(
            (t.indent, t.status, t.title, t.id),
            (4, Status::Doing, "Spaced", "x")
        );
        let t = task_line("\t-\t[√]\tTab\t<!--\tlong-term-plan:id=_bad\t-->").unwrap();
        assert_eq!(
            (t.indent, t.status, t.title, t.id),
            (1, Status::Done, "Tab", "_bad")
        );
        // The id may end in dashes: the last `-->` closes the comment.
        assert_eq!(
            task_line("- [ ] a <!-- long-term-plan:id=a--->")
                .unwrap()
                .id,
            "a-"
        );
        for bad in [
            "- [ ] <!-- long-term-plan:id=x -->",
            "- [ ]  <!-- long-term-plan:id=x -->",
            "- [x] t <!-- long-term-plan:id=x -->",
            "- [ ] t<!-- long-term-plan:id=x -->",
            "- [ ] t <!-- long-term-plan:id=t.dot -->",
            "- [ ] a <!-- b --> c <!-- long-term-plan:id=x -->",
            "- [ ] a --> c <!-- long-term-plan:id=x -->",
            "- [ ] t <!-- long-term-plan:id=x --> tail",
            "-[ ] t <!-- long-term-plan:id=x -->",
            "* [ ] t <!-- long-term-plan:id=x -->",
            "- [ ]t <!-- long-term-plan:id=x -->",
            "- [ ] a\rb <!-- long-term-plan:id=x -->",
            "- [ ] no id",
        ] {
            assert_eq!(task_line(bad), None, "{bad:?}");
        }
        // A \r in the spaces around the title is fine.
        assert_eq!(
            task_line("- [ ]\r a \r<!-- long-term-plan:id=x -->\r")
                .unwrap()
                .title,
            "a"
        );
    }

    #[test]
    fn strict_match_keeps_empty_titles_for_the_validator() {
        assert_eq!(
            strict_match("- [ ]  <!-- long-term-plan:id=x -->"),
            Some((0, Status::Todo, "", "x"))
        );
        assert_eq!(strict_match("- [ ] <!-- long-term-plan:id=x -->"), None);
    }

    #[test]
    fn loose_task_lines() {
        assert_eq!(loose_task_symbol("- [x] done"), Some('x'));
        assert_eq!(loose_task_symbol("  -  [ ] y"), Some(' '));
        assert_eq!(loose_task_symbol("- [ ]"), None);
        assert_eq!(loose_task_symbol("- [ ] "), Some(' '));
        assert_eq!(loose_task_symbol("-[ ] x"), None);
        assert_eq!(loose_task_symbol("* [ ] x"), None);
        assert_eq!(loose_task_symbol("- [xx] y"), None);
        assert_eq!(loose_task_symbol("- []] y"), None);
        assert_eq!(loose_task_symbol("- [😀] y"), None);
        assert_eq!(loose_task_symbol("- [\t] y"), Some('\t'));
        assert_eq!(loose_task_symbol("- [ ] a\rb"), None);
        assert_eq!(loose_task_symbol("  > - [ ] quoted"), None);
    }

    #[test]
    fn trailers() {
        assert_eq!(
            id_trailer("x <!-- long-term-plan:id=abc -->  "),
            Some("abc")
        );
        assert_eq!(id_trailer("x <!--long-term-plan:id=_x-->"), Some("_x"));
        assert_eq!(id_trailer("x <!-- long-term-plan:id=a.b -->"), None);
        assert_eq!(id_trailer("x <!-- long-term-plan:id= -->"), None);
        assert_eq!(id_trailer("<!-- long-term-plan:id=a --> <!-- b -->"), None);
        assert_eq!(id_trailer("-->"), None);
    }

    #[test]
    fn repair_candidates() {
        assert!(is_repair_candidate("- [ ] x"));
        assert!(is_repair_candidate("- [*] x   "));
        assert!(is_repair_candidate("- [ ] "));
        assert!(is_repair_candidate("- [ ] x\r"));
        assert!(!is_repair_candidate("- [ ]"));
        assert!(!is_repair_candidate("- [x] y"));
        assert!(!is_repair_candidate("- [ ] a\rb"));
    }

    #[test]
    fn edit_regions() {
        let line = "-   [*]   X   <!--  long-term-plan:id=a -->  ";
        let range = status_symbol_range(line).unwrap();
        assert_eq!(&line[range], "*");
        let range = title_range(line).unwrap();
        assert_eq!(&line[range.clone()], "X");
        assert_eq!(&line[..range.start], "-   [*]   ");
        assert_eq!(&line[range.end..], "   <!--  long-term-plan:id=a -->  ");
        let line = "  - [√] t <!-- long-term-plan:id=a -->";
        assert_eq!(&line[status_symbol_range(line).unwrap()], "√");
    }

    /// Lines made of the pieces the recognisers care about: free mixes, and
    /// mixes between a task-like start and a trailer-like end.
    fn lines() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop::sample::select(vec![
            " ",
            "  ",
            "\t",
            "\r",
            "\n",
            "\u{A0}",
            "\u{2028}",
            "\u{2029}",
            "\u{3000}",
            "\u{FEFF}",
            "-",
            "[",
            "]",
            "*",
            "√",
            "x",
            "a",
            "é",
            "😀",
            "<",
            "!",
            ">",
            "#",
            "##",
            ":",
            "=",
            "_",
            "long-term-plan:id=",
            "<!--",
            "-->",
            "--",
            "<!-- long-term-plan:id=t_1 -->",
            "- [ ] ",
            "- [*] ",
            "- [√] ",
            "- [x] ",
            "title",
        ]);
        let start = prop::sample::select(vec![
            "",
            " ",
            "\t",
            "\u{3000}",
            "- [ ] ",
            "  - [*]  ",
            "-\t[√]\t",
            "- [√]",
            "- [x] ",
            "-[ ] ",
            "- []] ",
            "- [😀] ",
            "# ",
            "###### ",
            "####### ",
            "#",
            "  > ",
            "- [ ]\r ",
        ]);
        let end = prop::sample::select(vec![
            "",
            " ",
            " <!-- long-term-plan:id=t_1 -->",
            "<!--long-term-plan:id=a-->  ",
            " <!-- long-term-plan:id=_x -->\r",
            " <!-- long-term-plan:id=a.b -->",
            " <!-- long-term-plan:id= -->",
            "-->",
            " <!-- long-term-plan:id=a--->",
            "\u{3000}<!-- long-term-plan:id=a -->\u{A0}",
            " <!-->",
            "\t<!--\tlong-term-plan:id=b\t-->\t",
        ]);
        let free = prop::collection::vec(piece.clone(), 0..16).prop_map(|p| p.concat());
        let framed = (start, prop::collection::vec(piece, 0..5), end)
            .prop_map(|(start, middle, end)| format!("{start}{}{end}", middle.concat()));
        prop_oneof![free, framed]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 20_000,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn tuned_recognisers_agree_with_the_oracle(line in lines()) {
            let l = line.as_str();
            proptest::prop_assert_eq!(heading(l), oracle::heading(l));
            proptest::prop_assert_eq!(is_h1_prefix(l), oracle::is_h1_prefix(l));
            proptest::prop_assert_eq!(task_line(l), oracle::task_line(l));
            proptest::prop_assert_eq!(strict_match(l), oracle::strict_match(l));
            proptest::prop_assert_eq!(loose_task_symbol(l), oracle::loose_task_symbol(l));
            proptest::prop_assert_eq!(id_trailer(l), oracle::id_trailer(l));
            proptest::prop_assert_eq!(is_repair_candidate(l), oracle::is_repair_candidate(l));
            proptest::prop_assert_eq!(status_symbol_range(l), oracle::status_symbol_range(l));
            proptest::prop_assert_eq!(title_range(l), oracle::title_range(l));
            proptest::prop_assert_eq!(has_line_terminator(l), oracle::has_line_terminator(l));
            let checkbox = Checkbox::of(l);
            proptest::prop_assert_eq!(checkbox.and_then(Checkbox::task_line), oracle::task_line(l));
            proptest::prop_assert_eq!(checkbox.and_then(Checkbox::loose_symbol), oracle::loose_task_symbol(l));
        }
    }
}
