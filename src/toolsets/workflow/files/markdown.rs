// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The line scanning that `plan.md`'s acceptance criteria and
//! `task-results.md`'s satisfied criteria share: lines with their byte
//! offsets (`\n` or `\r\n`), the lines of every section with a given heading,
//! lines inside fenced code blocks (``` or ~~~) and HTML comments (from a
//! line starting `<!--` to the line containing `-->`) left out. Works on
//! bytes, so that a file that is not valid UTF-8 keeps every byte when it
//! is edited.

/// One line: where it starts in the file, its bytes without the line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// The offset of its first byte in the file.
    pub(crate) start: usize,
    /// Its bytes, without `\n` and a `\r` before it.
    pub(crate) bytes: &'a [u8],
}

/// The lines of `text`.
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let rest = &text[start..];
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(end) => (&rest[..end], start + end + 1),
            None => (rest, text.len()),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let found = Line { start, bytes: line };
        start = next;
        Some(found)
    })
}

/// `bytes` without leading spaces and tabs.
pub(crate) fn trim_blank_start(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    &bytes[blank..]
}

/// `bytes` without trailing spaces and tabs.
fn trim_blank_end(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    &bytes[..bytes.len() - blank]
}

/// The level of an ATX heading line (`#` to `######` at the start, then a
/// space, a tab or the end of the line), if it is one.
fn heading_level(line: &[u8]) -> Option<usize> {
    let level = line.iter().take_while(|&&b| b == b'#').count();
    let after = line.get(level).copied();
    ((1..=6).contains(&level) && matches!(after, None | Some(b' ' | b'\t'))).then_some(level)
}

/// Whether `line` is the heading `title`:
/// `^(#{1,6})[ \t]+{title}[ \t]*#*[ \t]*$`, ignoring case.
fn is_heading(line: &[u8], title: &str) -> bool {
    let Some(level) = heading_level(line) else {
        return false;
    };
    let rest = &line[level..];
    let text = trim_blank_start(rest);
    if text.len() == rest.len() {
        return false; // no blank between the hashes and the title
    }
    let text = trim_blank_end(text);
    let hashes = text.iter().rev().take_while(|&&b| b == b'#').count();
    let text = trim_blank_end(&text[..text.len() - hashes]);
    text.eq_ignore_ascii_case(title.as_bytes())
}

/// An open fenced code block: its character and the length of its fence.
#[derive(Clone, Copy)]
struct Fence {
    mark: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` opens, if it opens one.
    fn opened_by(line: &[u8]) -> Option<Fence> {
        let text = trim_blank_start(line);
        let mark = *text.first()?;
        let len = text.iter().take_while(|&&b| b == mark).count();
        (matches!(mark, b'`' | b'~') && len >= 3).then_some(Fence { mark, len })
    }

    /// Whether `line` closes this fence.
    fn closed_by(self, line: &[u8]) -> bool {
        let text = trim_blank_start(line);
        let len = text.iter().take_while(|&&b| b == self.mark).count();
        len >= self.len && text[len..].iter().all(u8::is_ascii_whitespace)
    }
}

/// Whether `haystack` contains `needle`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// The lines of every section headed `title` (each runs to the next heading
/// of the same or a higher level), outside code blocks and HTML comments.
pub(crate) fn section_lines<'a>(text: &'a [u8], title: &str) -> Vec<Line<'a>> {
    let mut found = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut in_comment = false;
    let mut section: Option<usize> = None;
    for line in lines(text) {
        let bytes = line.bytes;
        if let Some(open) = fence {
            if open.closed_by(bytes) {
                fence = None;
            }
            continue;
        }
        if in_comment {
            in_comment = !contains(bytes, b"-->");
            continue;
        }
        if let Some(open) = Fence::opened_by(bytes) {
            fence = Some(open);
            continue;
        }
        if let Some(comment) = trim_blank_start(bytes).strip_prefix(b"<!--") {
            in_comment = !contains(comment, b"-->");
            continue;
        }
        if let Some(level) = heading_level(bytes) {
            if section.is_some_and(|open| level <= open) {
                section = None;
            }
            if is_heading(bytes, title) {
                section = Some(level);
            }
            continue;
        }
        if section.is_some() {
            found.push(line);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(text: &str, title: &str) -> Vec<String> {
        section_lines(text.as_bytes(), title)
            .iter()
            .map(|l| String::from_utf8_lossy(l.bytes).into_owned())
            .collect()
    }

    #[test]
    fn lines_keep_offsets_and_drop_line_ends() {
        let text = b"a\r\nbc\n\nd";
        let found: Vec<(usize, &[u8])> = lines(text).map(|l| (l.start, l.bytes)).collect();
        assert_eq!(found, [(0, &b"a"[..]), (3, b"bc"), (6, b""), (7, b"d")]);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"x\n").count(), 1);
    }

    #[test]
    fn headings_follow_the_pattern_ignoring_case() {
        for yes in [
            "## Acceptance Criteria",
            "# acceptance criteria",
            "###### ACCEPTANCE CRITERIA ##",
            "##\tAcceptance Criteria\t#\t",
            "## Acceptance Criteria#",
        ] {
            assert!(is_heading(yes.as_bytes(), "Acceptance Criteria"), "{yes}");
        }
        for no in [
            "##Acceptance Criteria",
            " ## Acceptance Criteria",
            "####### Acceptance Criteria",
            "## Acceptance  Criteria",
            "## Acceptance Criteria and more",
            "Acceptance Criteria",
        ] {
            assert!(!is_heading(no.as_bytes(), "Acceptance Criteria"), "{no}");
        }
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level_or_higher() {
        let text = "# Plan\n## Acceptance Criteria\na\n### Sub\nb\n## Next\nc\n# Acceptance criteria\nd\n## deeper\ne\n";
        assert_eq!(section(text, "Acceptance Criteria"), ["a", "b", "d", "e"]);
    }

    #[test]
    fn code_blocks_and_comments_are_left_out() {
        let text = "## Acceptance Criteria\n\
                    a\n\
                    ```\n\
                    ## Not a heading\n\
                    b\n\
                    ````\n\
                    c\n\
                    ~~~~\n\
                    d\n\
                    ~~~\n\
                    e\n\
                    ~~~~\n\
                    f\n\
                    <!-- one line --> g\n\
                    <!--\n\
                    ## Acceptance Criteria\n\
                    h\n\
                    end -->\n\
                    i\n";
        assert_eq!(section(text, "Acceptance Criteria"), ["a", "c", "f", "i"]);
    }

    #[test]
    fn an_unclosed_fence_or_comment_hides_the_rest() {
        assert!(section("## Acceptance Criteria\n```\na\n", "Acceptance Criteria").is_empty());
        assert!(section("## Acceptance Criteria\n<!--\na\n", "Acceptance Criteria").is_empty());
    }
}
