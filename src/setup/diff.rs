// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A unified diff of two texts, for `setup --dry-run`: the lines both
//! share at the start and the end are cut first (an edit of `setup`
//! changes one or two places), then the rest is compared line by line
//! (longest common subsequence), with three lines of context.

use std::fmt::Write as _;

/// Lines of context around a change.
const CONTEXT: usize = 3;
/// The most line pairs compared; past it the middle is shown as removed
/// and added whole (still a correct diff, only a longer one).
const MAX_CELLS: usize = 4_000_000;

/// One line of the diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// The unified diff from `old` to `new` (`None`: the file does not
/// exist), named `name`; empty when they are the same.
pub(crate) fn unified(name: &str, old: Option<&str>, new: Option<&str>) -> String {
    if old == new {
        return String::new();
    }
    let old_lines: Vec<&str> = old.map(|t| t.lines().collect()).unwrap_or_default();
    let new_lines: Vec<&str> = new.map(|t| t.lines().collect()).unwrap_or_default();
    let lines = compare(&old_lines, &new_lines);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "--- {}",
        old.map_or("/dev/null".to_owned(), |_| format!("a/{name}"))
    );
    let _ = writeln!(
        out,
        "+++ {}",
        new.map_or("/dev/null".to_owned(), |_| format!("b/{name}"))
    );
    for hunk in hunks(&lines) {
        let (old_start, new_start) = position(&lines, hunk.0);
        let part = &lines[hunk.0..hunk.1];
        let old_count = part.iter().filter(|l| !matches!(l, Line::Added(_))).count();
        let new_count = part
            .iter()
            .filter(|l| !matches!(l, Line::Removed(_)))
            .count();
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(old_start, old_count),
            range(new_start, new_count)
        );
        for line in part {
            let _ = match line {
                Line::Same(text) => writeln!(out, " {text}"),
                Line::Removed(text) => writeln!(out, "-{text}"),
                Line::Added(text) => writeln!(out, "+{text}"),
            };
        }
    }
    out
}

/// `start,count` as unified diffs write it (1-based; an empty range names
/// the line before it).
fn range(start: usize, count: usize) -> String {
    match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{count}", start + 1),
    }
}

/// The old and new line numbers (0-based) where line `index` of the diff is.
fn position(lines: &[Line<'_>], index: usize) -> (usize, usize) {
    lines[..index]
        .iter()
        .fold((0, 0), |(old, new), line| match line {
            Line::Same(_) => (old + 1, new + 1),
            Line::Removed(_) => (old + 1, new),
            Line::Added(_) => (old, new + 1),
        })
}

/// The hunks: ranges of the diff's lines, each change with its context,
/// changes close together merged.
fn hunks(lines: &[Line<'_>]) -> Vec<(usize, usize)> {
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        if matches!(line, Line::Same(_)) {
            continue;
        }
        let start = n.saturating_sub(CONTEXT);
        let end = (n + 1 + CONTEXT).min(lines.len());
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    hunks
}

/// The lines of `old` and `new` as kept, removed and added.
fn compare<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Line<'a>> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut lines: Vec<Line<'a>> = old[..prefix].iter().map(|l| Line::Same(l)).collect();
    lines.extend(middle(old_mid, new_mid));
    lines.extend(old[old.len() - suffix..].iter().map(|l| Line::Same(l)));
    lines
}

/// The longest common subsequence of `old` and `new`, as diff lines.
fn middle<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Line<'a>> {
    let (n, m) = (old.len(), new.len());
    if n.saturating_mul(m) > MAX_CELLS {
        let mut lines: Vec<Line<'a>> = old.iter().map(|l| Line::Removed(l)).collect();
        lines.extend(new.iter().map(|l| Line::Added(l)));
        return lines;
    }
    // lcs[i][j]: the common subsequence of old[i..] and new[j..].
    let width = m + 1;
    let mut lcs = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * width + j] = match old[i] == new[j] {
                true => lcs[(i + 1) * width + j + 1] + 1,
                false => lcs[(i + 1) * width + j].max(lcs[i * width + j + 1]),
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut lines = Vec::new();
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            lines.push(Line::Same(old[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
            // Removed lines before added ones, as diff(1) shows them.
            lines.push(Line::Removed(old[i]));
            i += 1;
        } else {
            lines.push(Line::Added(new[j]));
            j += 1;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_a_removed_file_and_no_change() {
        assert_eq!(
            unified("x.json", None, Some("{\n}\n")),
            "--- /dev/null\n+++ b/x.json\n@@ -0,0 +1,2 @@\n+{\n+}\n"
        );
        assert_eq!(
            unified("x.json", Some("{}\n"), None),
            "--- a/x.json\n+++ /dev/null\n@@ -1 +0,0 @@\n-{}\n"
        );
        assert_eq!(unified("x", Some("a"), Some("a")), "");
    }

    #[test]
    fn changes_come_with_three_lines_of_context_and_far_ones_apart() {
        let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let new = old
            .replacen("2\n", "2\nnew\n", 1)
            .replace("18\n", "eighteen\n");
        assert_eq!(
            unified("f", Some(&old), Some(&new)),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,6 @@\n 1\n 2\n+new\n 3\n 4\n 5\n@@ -15,6 +16,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n"
        );
    }
}
