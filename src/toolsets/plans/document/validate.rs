// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The validator (`doc validate`, and the gate after every edit): looser
//! than the parser at finding task-like lines, stricter about what they
//! hold, then the parser's own findings, de-duplicated.

use std::collections::HashSet;

use crate::toolsets::plans::document::diagnostic::{
    DUPLICATE_TASK_ID, Diagnostic, INVALID_STATUS_SYMBOL, INVALID_TASK_ID, MALFORMED_TASK_LINE,
    MISSING_TASK_ID,
};
use crate::toolsets::plans::document::parse;
use crate::toolsets::plans::syntax::hash::FxHashSet;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::text;

/// Errors and warnings, in the reference's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validation {
    /// Header first, then by line, then the parser's extras.
    pub errors: Vec<Diagnostic>,
    /// `NO_TASKS`, at most once.
    pub(crate) warnings: Vec<Diagnostic>,
}

/// The reference's explanation of a safe id.
const SAFE_ID_EXPECTATION: &str = "expected 1..128 chars: first [A-Za-z0-9], then [A-Za-z0-9_-]";

/// Pushes unless a diagnostic with the same code, line and message is there.
fn push_unique(
    list: &mut Vec<Diagnostic>,
    seen: &mut HashSet<(String, Option<usize>, String)>,
    d: Diagnostic,
) {
    if seen.insert((d.code.to_owned(), d.line, d.message.clone())) {
        list.push(d);
    }
}

fn invalid_id(id: &str, line: usize) -> Diagnostic {
    Diagnostic::new(
        INVALID_TASK_ID,
        format!(
            "Invalid task id: {} ({SAFE_ID_EXPECTATION})",
            text::json_quote(id)
        ),
        Some(line),
    )
}

/// The validator's finding on one line, if any. `checkbox` is the line's
/// task-like prefix, `strict` the line as a task line; `seen` collects the
/// safe ids met so far.
fn line_error<'a>(
    line_text: &str,
    checkbox: Option<line::Checkbox<'_>>,
    strict: Option<line::TaskLine<'a>>,
    index: usize,
    seen: &mut FxHashSet<&'a str>,
) -> Option<Diagnostic> {
    let symbol = checkbox?.loose_symbol()?;
    if crate::toolsets::plans::syntax::status::Status::from_symbol(symbol).is_none() {
        let message = format!(
            "Invalid status symbol: {} (expected ' ', '*', or '√')",
            text::json_quote(&symbol.to_string())
        );
        return Some(Diagnostic::new(INVALID_STATUS_SYMBOL, message, Some(index)));
    }
    let Some(task) = strict else {
        return Some(match line::id_trailer(line_text) {
            None => Diagnostic::new(
                MISSING_TASK_ID,
                "Task line is missing required trailing id: <!-- long-term-plan:id=... -->",
                Some(index),
            ),
            Some(found) if !id::is_safe(found) => invalid_id(found, index),
            Some(_) => Diagnostic::new(
                MALFORMED_TASK_LINE,
                "Task line is malformed (expected: - [ ] title <!-- long-term-plan:id=... -->)",
                Some(index),
            ),
        });
    };
    if !id::is_safe(task.id) {
        return Some(invalid_id(task.id, index));
    }
    (!seen.insert(task.id)).then(|| {
        Diagnostic::new(
            DUPLICATE_TASK_ID,
            format!("Duplicate task id: {}", task.id),
            Some(index),
        )
    })
}

/// The finding on one line, its prefix recognised once for both regexes.
fn error_of<'a>(
    line_text: &'a str,
    index: usize,
    seen: &mut FxHashSet<&'a str>,
) -> Option<Diagnostic> {
    let checkbox = line::Checkbox::of(line_text);
    let strict = checkbox.and_then(line::Checkbox::task_line);
    line_error(line_text, checkbox, strict, index, seen)
}

/// The first error of the text, if any: what every write checks at its end,
/// equal to `validate(text).errors[0]` but without building the task tree.
/// The errors come in order: the header, then the lines; the parser's own
/// errors (the header and duplicates among task lines) can only come first
/// when the lines have no error of their own, and then there is none: every
/// task line's id is safe and unique.
pub fn first_error(text: &str) -> Option<Diagnostic> {
    if !text::header_within(text::lines_of(text)) {
        return Some(Diagnostic::missing_header());
    }
    // Room for every id of a plan of typical task lines, grown at most once.
    let mut seen: FxHashSet<&str> =
        FxHashSet::with_capacity_and_hasher(text.len() / 64, Default::default());
    text::lines_of(text)
        .enumerate()
        .find_map(|(index, l)| error_of(l, index, &mut seen))
}

/// Validates a plan document.
pub fn validate(text: &str) -> Validation {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut error_keys = HashSet::new();
    let mut warning_keys = HashSet::new();

    // Unlike the parser, the validator keeps the final empty line.
    let lines = text::split_lines(text);
    let has_header = text::has_format_header(&lines);
    if !has_header {
        push_unique(&mut errors, &mut error_keys, Diagnostic::missing_header());
    }

    // Each line is recognised once, for this loop and for the parser.
    let mut strict: Vec<Option<line::TaskLine<'_>>> = Vec::with_capacity(lines.len());
    let mut seen_ids: FxHashSet<&str> = FxHashSet::default();
    for (index, line_text) in lines.iter().enumerate() {
        let checkbox = line::Checkbox::of(line_text);
        let task = checkbox.and_then(line::Checkbox::task_line);
        strict.push(task);
        if let Some(d) = line_error(line_text, checkbox, task, index, &mut seen_ids) {
            push_unique(&mut errors, &mut error_keys, d);
        }
    }

    // The parser's lines are the same, less a final empty one.
    let content = text::content_len(text, &lines);
    let parsed = parse::parse_lines_with(&lines[..content], |index, _| strict[index]);
    for d in parsed.errors {
        push_unique(&mut errors, &mut error_keys, d);
    }
    for d in parsed.warnings {
        push_unique(&mut warnings, &mut warning_keys, d);
    }
    if errors.is_empty() && seen_ids.is_empty() && has_header {
        push_unique(&mut warnings, &mut warning_keys, Diagnostic::no_tasks());
    }
    Validation { errors, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn codes(v: &[Diagnostic]) -> Vec<(&str, Option<usize>)> {
        v.iter().map(|d| (d.code, d.line.map(|l| l + 1))).collect()
    }

    #[test]
    fn a_valid_document_has_no_findings() {
        let v = validate(&format!("{H}\n# T\n- [ ] a <!-- long-term-plan:id=a -->\n"));
        assert_eq!(v, Validation::default());
    }

    #[test]
    fn every_diagnostic() {
        let text = format!(
            "# T\n- [x] bad symbol\n- [ ] no id\n- [ ] x <!-- long-term-plan:id=_bad -->\n- [*] <!-- long-term-plan:id=ok -->\n- [ ] y <!-- long-term-plan:id=t.dot -->\n- [ ] a <!-- long-term-plan:id=d -->\n- [ ] b <!-- long-term-plan:id=d -->\n{H}\n"
        );
        let v = validate(&text);
        assert_eq!(
            codes(&v.errors),
            [
                ("INVALID_STATUS_SYMBOL", Some(2)),
                ("MISSING_TASK_ID", Some(3)),
                ("INVALID_TASK_ID", Some(4)),
                ("MALFORMED_TASK_LINE", Some(5)),
                ("MISSING_TASK_ID", Some(6)),
                ("DUPLICATE_TASK_ID", Some(8)),
            ],
            "{v:?}"
        );
        // The header is on line 9: within 30 lines, so no MISSING_FORMAT_HEADER.
        assert_eq!(
            v.errors[0].message,
            "Invalid status symbol: \"x\" (expected ' ', '*', or '√')"
        );
        assert_eq!(
            v.errors[1].message,
            "Task line is missing required trailing id: <!-- long-term-plan:id=... -->"
        );
        assert_eq!(
            v.errors[2].message,
            "Invalid task id: \"_bad\" (expected 1..128 chars: first [A-Za-z0-9], then [A-Za-z0-9_-])"
        );
        assert_eq!(v.errors[5].message, "Duplicate task id: d");
        assert!(v.warnings.is_empty());
    }

    #[test]
    fn malformed_lines() {
        for line in [
            "- [*]  <!-- long-term-plan:id=ok -->",
            "- [ ] a <!-- x --> b <!-- long-term-plan:id=ok -->",
            "- [ ] a --> <!-- long-term-plan:id=ok -->",
        ] {
            let v = validate(&format!("{H}\n{line}\n"));
            assert_eq!(
                codes(&v.errors),
                [("MALFORMED_TASK_LINE", Some(2))],
                "{line:?}"
            );
            assert_eq!(
                v.errors[0].message,
                "Task line is malformed (expected: - [ ] title <!-- long-term-plan:id=... -->)"
            );
        }
        // A lone \r in the title: not even a loose match, so not a task line.
        let v = validate(&format!("{H}\n- [ ] a\rb <!-- long-term-plan:id=ok -->\n"));
        assert!(v.errors.is_empty());
        // A single space before the comment is not even a strict match, but
        // the trailer is there: malformed too.
        let v = validate(&format!("{H}\n- [*] <!-- long-term-plan:id=ok -->\n"));
        assert_eq!(codes(&v.errors), [("MALFORMED_TASK_LINE", Some(2))]);
    }

    #[test]
    fn header_and_no_tasks() {
        let v = validate("# T\n");
        assert_eq!(codes(&v.errors), [("MISSING_FORMAT_HEADER", None)]);
        assert!(v.warnings.is_empty());
        let v = validate(&format!("{H}\n# T\n"));
        assert!(v.errors.is_empty());
        assert_eq!(codes(&v.warnings), [("NO_TASKS", None)]);
        // The parser's NO_TASKS comes even with errors when no line parsed.
        let v = validate(&format!("{H}\n- [ ] no id\n"));
        assert_eq!(codes(&v.errors), [("MISSING_TASK_ID", Some(2))]);
        assert_eq!(codes(&v.warnings), [("NO_TASKS", None)]);
    }

    #[test]
    fn unsafe_duplicates_and_parser_extras() {
        let text = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=_x -->\n- [ ] b <!-- long-term-plan:id=_x -->\n"
        );
        let v = validate(&text);
        assert_eq!(
            codes(&v.errors),
            [
                ("INVALID_TASK_ID", Some(2)),
                ("INVALID_TASK_ID", Some(3)),
                ("DUPLICATE_TASK_ID", Some(3)),
            ]
        );
    }

    #[test]
    fn fences_and_quotes() {
        let text = format!("{H}\n```\n- [ ] example\n```\n  > - [ ] quoted\n");
        let v = validate(&text);
        assert_eq!(codes(&v.errors), [("MISSING_TASK_ID", Some(3))]);
    }

    #[test]
    fn the_final_empty_line_counts_for_the_header_window() {
        // 29 blank lines, then the header as line 30: found. The trailing
        // empty element is kept by the validator but does not matter here.
        let text = format!("{}{H}\n", "\n".repeat(29));
        assert!(validate(&text).errors.is_empty());
        let text = format!("{}{H}\n", "\n".repeat(30));
        assert_eq!(
            codes(&validate(&text).errors),
            [("MISSING_FORMAT_HEADER", None)]
        );
    }
}
