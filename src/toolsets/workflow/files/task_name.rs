// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `task_name` in `task.md`'s front matter, and the slug an archive is
//! named by.

use super::markdown::lines;

/// The value of the first `task_name:` line of the front matter (a `---`
/// first line up to the next `---` line), quotes stripped; empty when there
/// is none.
pub(crate) fn task_name(task: &[u8]) -> String {
    let mut lines = lines(task).map(|line| String::from_utf8_lossy(line.bytes));
    if lines.next().is_none_or(|first| first.trim_end() != "---") {
        return String::new();
    }
    for line in lines {
        if line.trim_end() == "---" {
            break;
        }
        if let Some(value) = line.trim_start().strip_prefix("task_name:") {
            return unquoted(value.trim()).trim().to_owned();
        }
    }
    String::new()
}

/// `value` without one pair of surrounding `"` or `'`.
fn unquoted(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// The longest slug, in characters.
const MAX_SLUG: usize = 60;

/// The archive name of a task named `name`: lowercase, each run of
/// characters outside `[a-z0-9]` one `-`, `-` trimmed at both ends, cut to
/// 60 characters (then trimmed again); `untitled` when nothing is left.
pub(crate) fn slug(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        match c {
            'a'..='z' | '0'..='9' => slug.push(c),
            _ if !slug.ends_with('-') => slug.push('-'),
            _ => {}
        }
    }
    let slug = slug.trim_matches('-');
    let cut: String = slug.chars().take(MAX_SLUG).collect();
    let cut = cut.trim_matches('-');
    match cut.is_empty() {
        true => "untitled".to_owned(),
        false => cut.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_comes_from_the_front_matter_only() {
        assert_eq!(task_name(b"---\ntask_name: sum\n---\n"), "sum");
        assert_eq!(
            task_name(b"---\r\ntitle: x\r\ntask_name: \"quoted name\"\r\n---\r\n"),
            "quoted name"
        );
        assert_eq!(
            task_name(b"---\ntask_name: 'single'\ntask_name: second\n---\n"),
            "single"
        );
        assert_eq!(task_name(b"---\ntask_name:\n---\n"), "");
        assert_eq!(task_name(b"---\ntask_name: \"\"\n---\n"), "");
        assert_eq!(task_name(b"---\n---\ntask_name: after\n"), "");
        assert_eq!(task_name(b"# Task\ntask_name: no front matter\n"), "");
        assert_eq!(task_name(b""), "");
        assert_eq!(task_name(b"---\ntask_name: unterminated"), "unterminated");
    }

    #[test]
    fn slugs_are_lowercase_kebab_at_most_60_characters() {
        assert_eq!(slug("Implement Sum_Function!"), "implement-sum-function");
        assert_eq!(slug("--a--b--"), "a-b");
        assert_eq!(slug("Ünïcode ✓ name"), "n-code-name");
        assert_eq!(slug(""), "untitled");
        assert_eq!(slug("!!!"), "untitled");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        let long = format!("{}-{}", "a".repeat(59), "b".repeat(10));
        assert_eq!(slug(&long), "a".repeat(59));
        assert_eq!(slug(&"x".repeat(100)).len(), 60);
    }
}
