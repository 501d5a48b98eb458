// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The grammar of single lines: which lines are structure lines, and how a
//! header, a constraint and a task line are read. Each check answers the
//! message a problem carries (without its `line N: `). Lines arrive with
//! trailing spaces and tabs already removed.

use super::{CommitType, Constraint, Direction, Header, Prefix};

/// What kind of structure line a line is. Structure lines make a paragraph
/// a section, so a description may not contain them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Structure {
    /// `^ *- \[[ xX]\]:`
    Task,
    /// `^- (Do not|Never|...):`
    Constraint,
    /// `^~~~ .* ~~~$`
    Direction,
    /// `^Constraints:( none)?$` or `^Tasks \[[ xX]\]:$`
    OldHeading,
}

impl Structure {
    /// Its name in messages: `a task line`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Structure::Task => "a task line",
            Structure::Constraint => "a constraint line",
            Structure::Direction => "a direction line",
            Structure::OldHeading => "an old-format heading",
        }
    }
}

/// The kind of structure line `line` is, if any.
pub(crate) fn structure(line: &str) -> Option<Structure> {
    if is_task_line(line) {
        Some(Structure::Task)
    } else if constraint_prefix(line).is_some() {
        Some(Structure::Constraint)
    } else if is_direction_line(line) {
        Some(Structure::Direction)
    } else if is_old_heading(line) {
        Some(Structure::OldHeading)
    } else {
        None
    }
}

/// `^ *- \[[ xX]\]:`: the indentation and whether the box is ticked.
fn task_start(line: &str) -> Option<(usize, bool, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line[indent..].strip_prefix("- [")?;
    let ticked = match rest.as_bytes().first()? {
        b' ' => false,
        b'x' | b'X' => true,
        _ => return None,
    };
    let after = rest[1..].strip_prefix("]:")?;
    Some((indent, ticked, after))
}

/// Whether `line` is a task structure line.
pub(crate) fn is_task_line(line: &str) -> bool {
    task_start(line).is_some()
}

/// `^- (Do not|Never|...):`: the prefix and what follows its colon.
fn constraint_start(line: &str) -> Option<(Prefix, &str)> {
    let rest = line.strip_prefix("- ")?;
    Prefix::ALL.into_iter().find_map(|prefix| {
        let after = rest.strip_prefix(prefix.as_str())?.strip_prefix(':')?;
        Some((prefix, after))
    })
}

/// The prefix when `line` is a constraint structure line.
pub(crate) fn constraint_prefix(line: &str) -> Option<Prefix> {
    constraint_start(line).map(|(prefix, _)| prefix)
}

/// Whether `line` is a direction structure line `^~~~ .* ~~~$`.
pub(crate) fn is_direction_line(line: &str) -> bool {
    line.len() >= 8 && line.starts_with("~~~ ") && line.ends_with(" ~~~")
}

/// The direction a direction line names, if it is one of the two markers.
pub(crate) fn direction(line: &str) -> Option<Direction> {
    [Direction::Execute, Direction::Complete]
        .into_iter()
        .find(|d| d.line() == line)
}

/// Whether `line` is an old-format heading.
pub(crate) fn is_old_heading(line: &str) -> bool {
    matches!(line, "Constraints:" | "Constraints: none") || old_tasks_heading(line).is_some()
}

/// `^Tasks \[([ xX])\]:$`: whether the old tasks heading is ticked.
pub(crate) fn old_tasks_heading(line: &str) -> Option<bool> {
    match line {
        "Tasks [ ]:" => Some(false),
        "Tasks [x]:" | "Tasks [X]:" => Some(true),
        _ => None,
    }
}

/// Whether `c` may not appear in a plan (every control character but
/// newline and tab).
pub(crate) fn is_forbidden_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Checks one-line text (a title, a task, a constraint): not empty, at most
/// `max` characters, no surrounding whitespace, no control character.
pub(crate) fn check_text(what: &str, text: &str, max: usize) -> Result<(), String> {
    if text.is_empty() {
        return Err(format!("{what} is empty"));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(match c {
            '\t' => format!("{what} contains a tab; a tab is allowed only in description lines"),
            '\n' | '\r' => format!("{what} must be one line"),
            c => format!("{what} contains the control character {}", code(c)),
        });
    }
    if text.starts_with(char::is_whitespace) || text.ends_with(char::is_whitespace) {
        return Err(format!("{what} starts or ends with whitespace"));
    }
    let length = text.chars().count();
    if length > max {
        return Err(format!("{what} is {length} characters; the limit is {max}"));
    }
    Ok(())
}

/// `U+001B`: how a character is named in messages.
pub(crate) fn code(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Whether `scope` matches `^[a-z][a-z0-9-]*$`.
pub(crate) fn is_valid_scope(scope: &str) -> bool {
    let mut chars = scope.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// What a scope must look like, for messages.
pub(crate) const SCOPE_RULE: &str =
    "a lowercase word: a letter a-z, then letters, digits or hyphens";

/// A header line's parts as loosely recognised: `^[A-Za-z]+(\([^()]*\))?!?:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LooseHeader<'a> {
    /// The letters before the scope or colon.
    pub(crate) kind: &'a str,
    /// What is between the parentheses, if there are any.
    pub(crate) scope: Option<&'a str>,
    /// Whether `!` precedes the colon.
    pub(crate) breaking: bool,
    /// Everything after the colon.
    pub(crate) rest: &'a str,
}

/// Recognises `line` as a header, loosely; `None` means free text.
pub(crate) fn loose_header(line: &str) -> Option<LooseHeader<'_>> {
    let letters = line.len()
        - line
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    if letters == 0 {
        return None;
    }
    let (kind, mut rest) = line.split_at(letters);
    let mut scope = None;
    if let Some(inner) = rest.strip_prefix('(') {
        let close = inner.find([')', '('])?;
        if inner.as_bytes()[close] != b')' {
            return None;
        }
        scope = Some(&inner[..close]);
        rest = &inner[close + 1..];
    }
    let breaking = rest.starts_with('!');
    if breaking {
        rest = &rest[1..];
    }
    let rest = rest.strip_prefix(':')?;
    Some(LooseHeader {
        kind,
        scope,
        breaking,
        rest,
    })
}

/// Reads a recognised header strictly:
/// `^([a-z]+)(?:\(([^()\s]+)\))?(!)?: (\S.*)$`, a listed type, a valid
/// scope, a title within `max_title`.
pub(crate) fn strict_header(loose: &LooseHeader<'_>, max_title: usize) -> Result<Header, String> {
    let kind = match CommitType::parse(loose.kind) {
        Some(kind) => kind,
        None if CommitType::parse(&loose.kind.to_ascii_lowercase()).is_some() => {
            return Err(format!(
                "the type \"{}\" must be lowercase; the types are {}",
                loose.kind,
                CommitType::list()
            ));
        }
        None => {
            return Err(format!(
                "unknown type \"{}\"; the types are {}",
                loose.kind,
                CommitType::list()
            ));
        }
    };
    let scope = match loose.scope {
        None => None,
        Some("") => {
            return Err(
                "the scope is empty; write type: title, or a scope like feat(api): title".into(),
            );
        }
        Some(scope) if is_valid_scope(scope) => Some(scope.to_owned()),
        Some(scope) => {
            return Err(format!(
                "the scope \"{}\" must be {SCOPE_RULE}",
                scope.escape_debug()
            ));
        }
    };
    let title = match loose.rest.strip_prefix(' ') {
        _ if loose.rest.is_empty() => {
            return Err("the header has no title; expected type(scope): title".into());
        }
        None => return Err("expected one space after the header's colon, then the title".into()),
        Some(title) if title.starts_with(char::is_whitespace) => {
            return Err("expected exactly one space after the header's colon".into());
        }
        Some(title) => title,
    };
    check_text("the title", title, max_title)?;
    Ok(Header {
        kind,
        scope,
        breaking: loose.breaking,
        title: title.to_owned(),
    })
}

/// One task line read: its level, its box and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaskLine<'a> {
    /// 0 for a top-level task, one more per two spaces of indentation.
    pub(crate) level: usize,
    /// Whether the box is ticked.
    pub(crate) done: bool,
    /// The task's text.
    pub(crate) text: &'a str,
}

/// Reads a task line strictly: `indent "- [" (" "|"x"|"X") "]: " text`.
pub(crate) fn task_line(line: &str, max_item: usize) -> Result<TaskLine<'_>, String> {
    let Some((indent, done, after)) = task_start(line) else {
        return Err(format!(
            "expected a task line \"- [ ]: text\" or \"- [x]: text\" (two spaces of indentation per level), not \"{}\"",
            crate::runtime::text::clip(line)
        ));
    };
    if indent % 2 != 0 {
        return Err(format!(
            "the task is indented by an odd number of spaces ({indent}); indent by two spaces per level"
        ));
    }
    let text = match after.strip_prefix(' ') {
        Some(text) if !text.starts_with(char::is_whitespace) => text,
        _ if after.is_empty() => return Err("the task has no text".into()),
        _ => return Err("expected exactly one space after \"]:\", then the task's text".into()),
    };
    check_text("the task's text", text, max_item)?;
    Ok(TaskLine {
        level: indent / 2,
        done,
        text,
    })
}

/// Reads a constraint line strictly: `"- " prefix ": " text`.
pub(crate) fn constraint_line(line: &str, max_item: usize) -> Result<Constraint, String> {
    let Some((prefix, after)) = constraint_start(line) else {
        return Err(format!(
            "expected a constraint \"- Prefix: text\" with one of the prefixes {}",
            Prefix::list()
        ));
    };
    let text = match after.strip_prefix(' ') {
        Some(text) if !text.starts_with(char::is_whitespace) => text,
        _ if after.is_empty() => return Err("the constraint has no text".into()),
        _ => return Err("expected exactly one space after the prefix's colon".into()),
    };
    check_text("the constraint's text", text, max_item)?;
    Ok(Constraint {
        prefix,
        text: text.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_lines_are_recognised() {
        assert_eq!(structure("- [ ]: a"), Some(Structure::Task));
        assert_eq!(structure("    - [X]:"), Some(Structure::Task));
        assert_eq!(structure("- [x]:x"), Some(Structure::Task));
        assert_eq!(structure("- Do not: a"), Some(Structure::Constraint));
        assert_eq!(structure("- Decide against:"), Some(Structure::Constraint));
        assert_eq!(structure("~~~ EXECUTE ~~~"), Some(Structure::Direction));
        assert_eq!(structure("~~~ anything ~~~"), Some(Structure::Direction));
        assert_eq!(structure("~~~  ~~~"), Some(Structure::Direction));
        assert_eq!(structure("Constraints:"), Some(Structure::OldHeading));
        assert_eq!(structure("Constraints: none"), Some(Structure::OldHeading));
        assert_eq!(structure("Tasks [X]:"), Some(Structure::OldHeading));
        // Ordinary Markdown is fine in a description.
        for line in [
            "- item",
            "- Note: x",
            "- [ ] item",
            "- [x] item: with a colon later",
            "  - Do not: indented is not a constraint",
            "~~~ x",
            "~~~ ~~~",
            "Constraints: some",
            "Tasks [ ]",
            "- do not: lowercase prefix",
            "\t- [ ]: a tab is not indentation",
        ] {
            assert_eq!(structure(line), None, "{line}");
        }
    }

    #[test]
    fn loose_headers() {
        let h = loose_header("Feat(My Scope)!:x").unwrap();
        assert_eq!(
            (h.kind, h.scope, h.breaking, h.rest),
            ("Feat", Some("My Scope"), true, "x")
        );
        assert_eq!(loose_header("fix: a").unwrap().scope, None);
        assert_eq!(loose_header("fix():").unwrap().scope, Some(""));
        for free in [
            "",
            "hello world",
            "fix",
            "fix(a(b)): x",
            "fix(a: x",
            "1fix: x",
            " fix: x",
            "fix (a): x",
        ] {
            assert_eq!(loose_header(free), None, "{free}");
        }
    }

    fn strict(line: &str) -> Result<Header, String> {
        strict_header(&loose_header(line).unwrap(), 20)
    }

    #[test]
    fn strict_headers_and_their_messages() {
        assert_eq!(
            strict("feat(api-2)!: Add x").unwrap().to_string(),
            "feat(api-2)!: Add x"
        );
        assert_eq!(strict("spec: s").unwrap().to_string(), "spec: s");
        let errors = [
            (
                "Feat: x",
                "the type \"Feat\" must be lowercase; the types are feat, fix, refactor, build, chore, docs, lint, ci, infra, spec",
            ),
            (
                "feature: x",
                "unknown type \"feature\"; the types are feat, fix, refactor, build, chore, docs, lint, ci, infra, spec",
            ),
            (
                "feat(): x",
                "the scope is empty; write type: title, or a scope like feat(api): title",
            ),
            (
                "feat(Api): x",
                "the scope \"Api\" must be a lowercase word: a letter a-z, then letters, digits or hyphens",
            ),
            (
                "feat(a b): x",
                "the scope \"a b\" must be a lowercase word: a letter a-z, then letters, digits or hyphens",
            ),
            (
                "feat(1a): x",
                "the scope \"1a\" must be a lowercase word: a letter a-z, then letters, digits or hyphens",
            ),
            (
                "feat:",
                "the header has no title; expected type(scope): title",
            ),
            (
                "feat:x",
                "expected one space after the header's colon, then the title",
            ),
            (
                "feat:  x",
                "expected exactly one space after the header's colon",
            ),
            (
                "feat: 123456789012345678901",
                "the title is 21 characters; the limit is 20",
            ),
            (
                "feat: a\tb",
                "the title contains a tab; a tab is allowed only in description lines",
            ),
            (
                "feat: a\u{1}",
                "the title contains the control character U+0001",
            ),
            ("feat: a\u{a0}", "the title starts or ends with whitespace"),
        ];
        for (line, message) in errors {
            assert_eq!(strict(line).unwrap_err(), message, "{line}");
        }
    }

    #[test]
    fn task_lines_and_their_messages() {
        let t = task_line("    - [X]: a: b", 10).unwrap();
        assert_eq!((t.level, t.done, t.text), (2, true, "a: b"));
        let errors = [
            (
                "   - [ ]: a",
                "the task is indented by an odd number of spaces (3); indent by two spaces per level",
            ),
            ("- [ ]:", "the task has no text"),
            (
                "- [ ]:a",
                "expected exactly one space after \"]:\", then the task's text",
            ),
            (
                "- [ ]:  a",
                "expected exactly one space after \"]:\", then the task's text",
            ),
            (
                "- [ ]: 12345678901",
                "the task's text is 11 characters; the limit is 10",
            ),
            (
                "- [ ]: a\tb",
                "the task's text contains a tab; a tab is allowed only in description lines",
            ),
            (
                "- [ ] a",
                "expected a task line \"- [ ]: text\" or \"- [x]: text\" (two spaces of indentation per level), not \"- [ ] a\"",
            ),
        ];
        for (line, message) in errors {
            assert_eq!(task_line(line, 10).unwrap_err(), message, "{line}");
        }
    }

    #[test]
    fn constraint_lines_and_their_messages() {
        let c = constraint_line("- Must not: API calls", 50).unwrap();
        assert_eq!(c.to_string(), "Must not: API calls");
        let errors = [
            ("- Do not:", "the constraint has no text"),
            (
                "- Do not:x",
                "expected exactly one space after the prefix's colon",
            ),
            (
                "- Should: x",
                "expected a constraint \"- Prefix: text\" with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden",
            ),
            (
                "- Never: 123456789012345678901234567890123456789012345678901",
                "the constraint's text is 51 characters; the limit is 50",
            ),
        ];
        for (line, message) in errors {
            assert_eq!(constraint_line(line, 50).unwrap_err(), message, "{line}");
        }
    }

    #[test]
    fn scopes() {
        for ok in ["a", "api", "a-1", "z9-"] {
            assert!(is_valid_scope(ok), "{ok}");
        }
        for bad in ["", "A", "-a", "1", "a_b", "a/b", "a.b", "é"] {
            assert!(!is_valid_scope(bad), "{bad}");
        }
    }
}
