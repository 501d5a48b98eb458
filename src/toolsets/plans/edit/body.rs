// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Bodies stored as blockquotes, so that a body may hold checkboxes, fences
//! and tables without being taken for tasks: encoding, and the edits that
//! set or clear a task's body or the plan's body.

use std::borrow::Cow;

use crate::toolsets::plans::document::parse::{Plan, Task};
use crate::toolsets::plans::edit::lines::{Edited, find_task, finish, first_h1_line, require_plan};
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::text::{Lines, is_blank};

/// Encodes a body as blockquote lines at `indent` spaces: CR LF and lone
/// CR become LF, every line gets `> ` (an empty line a bare `>`).
pub fn encode(body: &str, indent: usize) -> Vec<String> {
    let normalized = body.replace("\r\n", "\n").replace('\r', "\n");
    let prefix = format!("{}>", " ".repeat(indent));
    normalized
        .split('\n')
        .map(|line| {
            if line.is_empty() {
                prefix.clone()
            } else {
                format!("{prefix} {line}")
            }
        })
        .collect()
}

/// Replaces `range` (or inserts at `at` when there is none) with `encoded`.
fn splice(lines: &mut Lines<'_>, range: Option<(usize, usize)>, at: usize, encoded: Vec<String>) {
    let encoded = encoded.into_iter().map(Cow::Owned);
    match range {
        Some((start, end)) => {
            lines.lines.splice(start..=end, encoded);
        }
        None => {
            lines.lines.splice(at..at, encoded);
        }
    }
}

/// Sets (`Some`) or clears (`None`) a task's body. Clearing a task without a
/// body changes nothing and skips validation, as in the reference.
pub fn set_task_body(text: &str, task_id: &str, body: Option<&str>) -> Result<Edited, PlanError> {
    edit_body(text, |lines, plan| {
        Ok(replace_task_body(lines, find_task(plan, task_id)?, body))
    })
}

/// Parses `text`, lets `replace` set or clear a body in its lines (`false`:
/// nothing to clear, the text stays as it is, unvalidated), and validates
/// the result.
fn edit_body(
    text: &str,
    replace: impl FnOnce(&mut Lines<'_>, &Plan<'_>) -> Result<bool, PlanError>,
) -> Result<Edited, PlanError> {
    let plan = require_plan(text)?;
    let mut lines = Lines::split(text);
    if !replace(&mut lines, &plan)? {
        return Ok(Edited::unchanged(text));
    }
    finish(&lines, text)
}

/// Sets or clears `task`'s body in its document's `lines`; `false` (and the
/// lines untouched) when there is no body to clear.
pub(crate) fn replace_task_body(
    lines: &mut Lines<'_>,
    task: &Task<'_>,
    body: Option<&str>,
) -> bool {
    let range = task.body.as_ref().map(|b| (b.start_line, b.end_line));
    match body {
        None => {
            let Some((start, end)) = range else {
                return false;
            };
            lines.lines.drain(start..=end);
        }
        Some(body) => splice(lines, range, task.line + 1, encode(body, task.indent + 2)),
    }
    true
}

/// Sets (`Some`) or clears (`None`) the plan body under the H1. A new body
/// goes at the first non-blank line after the H1 (or at the end), with no
/// blank line after it.
pub fn set_plan_body(text: &str, body: Option<&str>) -> Result<Edited, PlanError> {
    edit_body(text, |lines, plan| replace_plan_body(lines, plan, body))
}

/// Sets or clears the plan body of `plan` in its document's `lines`;
/// `false` (and the lines untouched) when there is no body to clear.
pub(crate) fn replace_plan_body(
    lines: &mut Lines<'_>,
    plan: &Plan<'_>,
    body: Option<&str>,
) -> Result<bool, PlanError> {
    let h1 = first_h1_line(&lines.lines)?;
    let range = plan.body.as_ref().map(|b| (b.start_line, b.end_line));
    match body {
        None => {
            let Some((start, end)) = range else {
                return Ok(false);
            };
            lines.lines.drain(start..=end);
        }
        Some(body) => {
            let at = (h1 + 1..lines.lines.len())
                .find(|&i| !is_blank(&lines.lines[i]))
                .unwrap_or(lines.lines.len());
            splice(lines, range, at, encode(body, 0));
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    #[test]
    fn encoding() {
        assert_eq!(encode("a\n\nb", 2), ["  > a", "  >", "  > b"]);
        assert_eq!(encode("", 0), [">"]);
        assert_eq!(encode("x\n", 0), ["> x", ">"]);
        assert_eq!(encode("a\r\nb\rc", 0), ["> a", "> b", "> c"]);
        assert_eq!(encode("  indented", 0), [">   indented"]);
    }

    #[test]
    fn task_body_set_replace_clear() {
        let text = format!(
            "{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n- [ ] b <!-- long-term-plan:id=b -->\n"
        );
        let set = set_task_body(&text, "a", Some("one\n- [ ] two")).unwrap();
        assert_eq!(
            set.text,
            format!(
                "{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n  > one\n  > - [ ] two\n- [ ] b <!-- long-term-plan:id=b -->\n"
            )
        );
        let replaced = set_task_body(&set.text, "a", Some("z")).unwrap();
        assert_eq!(
            replaced.text,
            format!(
                "{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n  > z\n- [ ] b <!-- long-term-plan:id=b -->\n"
            )
        );
        let cleared = set_task_body(&replaced.text, "a", None).unwrap();
        assert_eq!(cleared.text, text);
        let noop = set_task_body(&text, "a", None).unwrap();
        assert!(!noop.changed);
        // A 6-space body under an indent-0 task is re-indented to 2.
        let deep = format!("{H}\n- [ ] a <!-- long-term-plan:id=a -->\n      > x\n");
        assert_eq!(
            set_task_body(&deep, "a", Some("x")).unwrap().text,
            format!("{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  > x\n")
        );
        // Nested tasks get their indent + 2.
        let nested = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  - [ ] b <!-- long-term-plan:id=b -->"
        );
        assert_eq!(
            set_task_body(&nested, "b", Some("")).unwrap().text,
            format!(
                "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  - [ ] b <!-- long-term-plan:id=b -->\n    >"
            )
        );
    }

    #[test]
    fn plan_body_set_replace_clear() {
        let basic = format!("{H}\n\n# T\n\n## Inbox\n\n");
        let set = set_plan_body(&basic, Some("Why\n")).unwrap();
        assert_eq!(set.text, format!("{H}\n\n# T\n\n> Why\n>\n## Inbox\n\n"));
        let replaced = set_plan_body(&set.text, Some("new")).unwrap();
        assert_eq!(replaced.text, format!("{H}\n\n# T\n\n> new\n## Inbox\n\n"));
        let cleared = set_plan_body(&replaced.text, None).unwrap();
        assert_eq!(cleared.text, basic);
        assert!(!set_plan_body(&basic, None).unwrap().changed);
        let empty = format!("{H}\n\n# T\n\n");
        assert_eq!(
            set_plan_body(&empty, Some("b")).unwrap().text,
            format!("{H}\n\n# T\n\n> b\n")
        );
        assert_eq!(
            set_plan_body(&format!("{H}\n## x\n"), Some("b"))
                .unwrap_err()
                .message(),
            "Missing plan title heading (# ...)"
        );
    }
}
