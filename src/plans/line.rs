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

use super::status::Status;
use super::text::{char_count, has_line_terminator, is_space, trim, trim_end, trim_start};

/// The key inside an id comment.
const ID_KEY: &str = "long-term-plan:id=";

/// A strict task line, as the parser accepts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskLine<'a> {
    /// Leading whitespace, in UTF-16 code units (every JS space is one unit).
    pub indent: usize,
    /// The status symbol's status.
    pub status: Status,
    /// The title, trimmed, non-empty, without comment markers.
    pub title: &'a str,
    /// The id from the trailer (not necessarily a safe id).
    pub id: &'a str,
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
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    spaces_then_rest_of_line(&line[level..]).map(|text| (level, trim(text)))
}

/// `/^#\s+/`: the line that plan-title and plan-body edits treat as the H1.
pub fn is_h1_prefix(line: &str) -> bool {
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
pub fn id_trailer(line: &str) -> Option<&str> {
    trailer(line).map(|(_, id)| id)
}

/// The strict task-line regex, without the parser's extra checks: the
/// indent, the status, the raw title capture and the id.
fn strict_match(line: &str) -> Option<(usize, Status, &str, &str)> {
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
pub fn task_line(line: &str) -> Option<TaskLine<'_>> {
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
pub fn loose_task_symbol(line: &str) -> Option<char> {
    let (_, symbol, rest) = checkbox(line)?;
    if symbol == ']' || symbol.len_utf16() != 1 {
        return None;
    }
    spaces_then_rest_of_line(rest).map(|_| symbol)
}

/// `/^(\s*-\s+\[([ *√])\]\s+.*?)(\s*)$/`: a line repair may give an id.
pub fn is_repair_candidate(line: &str) -> bool {
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
pub fn status_symbol_range(line: &str) -> Option<std::ops::Range<usize>> {
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
pub fn title_range(line: &str) -> Option<std::ops::Range<usize>> {
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
}
