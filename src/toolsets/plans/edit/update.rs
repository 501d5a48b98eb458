// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `task update` (a new status, title and body for one task) and `plan
//! update` (a new title and body for the plan). The reference
//! applies the changes one after the other, each parsing the text, editing
//! it and validating the result; on a 2,000-task plan that is up to three
//! parses and three validations. Here they are applied to one parse of a
//! valid text, checking only what they touch, whenever that is sure to give
//! the same result; otherwise (a text that was not valid to begin with, or
//! any error on the way) the reference's steps run, so that every error
//! stays the reference's own.

use std::borrow::Cow;

use crate::toolsets::plans::document::parse::parse;
use crate::toolsets::plans::document::validate;
use crate::toolsets::plans::edit::body;
use crate::toolsets::plans::edit::body::{replace_plan_body, replace_task_body};
use crate::toolsets::plans::edit::lines::{self, Edited, renamed_line, retitle, status_line};
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{Lines, has_format_header};

/// What one `task update` changes, in the order the reference applies it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskChanges<'a> {
    /// A new status.
    pub status: Option<Status>,
    /// A new title.
    pub title: Option<&'a str>,
    /// A new body (`Some(Some(..))`), or none (`Some(None)`: clear it).
    pub body: Option<Option<&'a str>>,
}

/// Applies `changes` to task `task_id` of `text`.
pub fn update_task(
    text: &str,
    task_id: &str,
    changes: &TaskChanges<'_>,
) -> Result<Edited, PlanError> {
    match at_once(text, task_id, changes) {
        Some(edited) => Ok(edited),
        None => one_by_one(text, task_id, changes),
    }
}

/// The reference's way: each change is a whole edit of the text before it.
pub fn one_by_one(
    text: &str,
    task_id: &str,
    changes: &TaskChanges<'_>,
) -> Result<Edited, PlanError> {
    let mut done = Edited::unchanged(text);
    if let Some(status) = changes.status {
        done = done.then(|t| lines::set_status(t, task_id, status))?;
    }
    if let Some(title) = changes.title {
        done = done.then(|t| lines::rename(t, task_id, title))?;
    }
    if let Some(new_body) = changes.body {
        done = done.then(|t| body::set_task_body(t, task_id, new_body))?;
    }
    Ok(done)
}

/// Every change on one parse of `text`, or `None` when that might differ
/// from [`one_by_one`].
///
/// Why it cannot differ when it answers: the text is valid to begin with;
/// the status and title changes touch only the task's line and the body
/// change only the blockquote lines under it, so no change moves what
/// another one edits, as long as each version of the edited line is still
/// the task to the parser (checked). Then the reference's validation of
/// each step's text finds nothing either: the validator reads a task line
/// as the parser does, the task's id is the one it had (neither unsafe nor
/// a duplicate), body lines are blockquote lines, which it never faults,
/// and the header must still be in the first lines (checked at the end).
/// The property test `one_update_equals_the_steps` compares the two on
/// generated plans, valid or not.
fn at_once(text: &str, task_id: &str, changes: &TaskChanges<'_>) -> Option<Edited> {
    let plan = parse(text).plan?;
    let task = plan.task(task_id)?;
    if validate::first_error(text).is_some() {
        return None;
    }
    let mut lines = Lines::split(text);
    // Each step that edits the text would re-join and validate it: only
    // clearing a body that is not there leaves it as it was.
    let mut edits = false;
    // A title with U+2028, for one, makes the line no task line at all, and
    // the reference's next step would not find the task.
    let still_the_task = |l: &str| {
        line::task_line(l).is_some_and(|again| again.id == task.id && again.indent == task.indent)
    };
    let mut edit_line = |edit: &dyn Fn(&str) -> Result<String, PlanError>| {
        let new = edit(&lines.lines[task.line]).ok()?;
        lines.lines[task.line] = Cow::Owned(new);
        edits = true;
        still_the_task(&lines.lines[task.line]).then_some(())
    };
    if let Some(status) = changes.status {
        edit_line(&|l| status_line(l, status))?;
    }
    if let Some(title) = changes.title {
        edit_line(&|l| renamed_line(l, title))?;
    }
    if let Some(new_body) = changes.body {
        edits |= replace_task_body(&mut lines, task, new_body);
    }
    joined(&lines, text, edits)
}

/// The end of a one-pass update of `text`: the edited `lines` joined, or
/// `text` itself if no step edited it (`edits`); `None` if the header is no
/// longer in the first lines, which the reference reports as an error.
fn joined(lines: &Lines<'_>, text: &str, edits: bool) -> Option<Edited> {
    if !edits {
        return Some(Edited::unchanged(text));
    }
    if !has_format_header(&lines.lines) {
        return None;
    }
    let new_text = lines.join();
    Some(Edited {
        changed: new_text != text,
        text: new_text,
    })
}

/// What one `plan update` changes, in the order the reference applies it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanChanges<'a> {
    /// A new title.
    pub title: Option<&'a str>,
    /// A new plan body (`Some(Some(..))`), or none (`Some(None)`: clear it).
    pub body: Option<Option<&'a str>>,
}

/// Applies `changes` to the plan of `text`, in one pass when that is sure
/// to give what the reference's steps give, as [`update_task`] does.
pub fn update_plan(text: &str, changes: &PlanChanges<'_>) -> Result<Edited, PlanError> {
    match plan_at_once(text, changes) {
        Some(edited) => Ok(edited),
        None => plan_one_by_one(text, changes),
    }
}

/// The reference's way: a title edit, then a body edit of its result.
pub fn plan_one_by_one(text: &str, changes: &PlanChanges<'_>) -> Result<Edited, PlanError> {
    let mut done = Edited::unchanged(text);
    if let Some(title) = changes.title {
        done = done.then(|t| lines::set_plan_title(t, title))?;
    }
    if let Some(new_body) = changes.body {
        done = done.then(|t| body::set_plan_body(t, new_body))?;
    }
    Ok(done)
}

/// Both changes on one parse of a valid `text`, or `None` when that might
/// differ from [`plan_one_by_one`]. The title edit rewrites the first `# `
/// line; the body edit then finds the body the parser sees under the first
/// non-empty H1. Both are the same line when that line is the title before
/// and after the edit (checked), so the body is where it was; the new H1
/// line is no task line, so validation finds nothing new but a header
/// pushed out of the first lines (checked at the end). The property test
/// `one_plan_update_equals_the_steps` compares the two.
fn plan_at_once(text: &str, changes: &PlanChanges<'_>) -> Option<Edited> {
    let plan = parse(text)
        .plan
        .filter(|_| validate::first_error(text).is_none())?;
    let mut lines = Lines::split(text);
    let mut edits = false;
    if let Some(title) = changes.title {
        let is_title =
            |l: &str| line::heading(l).is_some_and(|(level, t)| level == 1 && !t.is_empty());
        let title_line = plan
            .headings
            .iter()
            .find(|h| h.level == 1 && !h.text.is_empty());
        let h1 = retitle(&mut lines, title).ok()?;
        if title_line.map(|h| h.line) != Some(h1) || !is_title(&lines.lines[h1]) {
            return None;
        }
        edits = true;
    }
    if let Some(new_body) = changes.body {
        edits |= replace_plan_body(&mut lines, &plan, new_body).ok()?;
    }
    joined(&lines, text, edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn changes<'a>(
        status: Option<Status>,
        title: Option<&'a str>,
        body: Option<Option<&'a str>>,
    ) -> TaskChanges<'a> {
        TaskChanges {
            status,
            title,
            body,
        }
    }

    #[test]
    fn all_three_changes_in_one_edit() {
        let text = format!(
            "{H}\r\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->\r\n  > old\r\n- [ ] b <!-- long-term-plan:id=b -->"
        );
        let all = changes(Some(Status::Doing), Some("A"), Some(Some("new\nbody")));
        let edited = update_task(&text, "a", &all).unwrap();
        assert_eq!(
            edited.text,
            format!(
                "{H}\r\n# P\r\n- [*] A <!-- long-term-plan:id=a -->\r\n  > new\r\n  > body\r\n- [ ] b <!-- long-term-plan:id=b -->"
            )
        );
        assert!(edited.changed);
        assert_eq!(at_once(&text, "a", &all), Some(edited));
        assert_eq!(one_by_one(&text, "a", &all), update_task(&text, "a", &all));
    }

    #[test]
    fn errors_are_the_first_step_that_fails() {
        let text = format!("{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n- [x] broken\n");
        // The text is invalid, so the status edit fails validation before
        // the empty title is looked at.
        let both = changes(Some(Status::Done), Some(" "), None);
        assert_eq!(at_once(&text, "a", &both), None);
        assert_eq!(
            update_task(&text, "a", &both).unwrap_err().message(),
            "Edit produced invalid document: Invalid status symbol: \"x\" (expected ' ', '*', or '√')"
        );
        let valid = format!("{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n");
        assert_eq!(
            update_task(&valid, "a", &both).unwrap_err().message(),
            "Task title must be non-empty"
        );
        assert_eq!(
            update_task(&valid, "a", &changes(Some(Status::Todo), None, None))
                .unwrap_err()
                .message(),
            "Failed to update status (task line not in expected format)"
        );
        assert_eq!(
            update_task(&valid, "z", &both).unwrap_err().message(),
            "Task not found: z"
        );
    }

    #[test]
    fn a_body_that_pushes_the_header_out_of_the_first_lines_is_refused() {
        // The header must be in the first 30 lines; here it is the 29th.
        let text = format!(
            "# P\n- [ ] a <!-- long-term-plan:id=a -->\n{}{H}\n",
            "\n".repeat(26)
        );
        let body = changes(None, None, Some(Some("one\ntwo")));
        assert_eq!(at_once(&text, "a", &body), None);
        assert_eq!(
            update_task(&text, "a", &body).unwrap_err().message(),
            "Edit produced invalid document: Missing required header: <!-- long-term-plan:format=v1 -->"
        );
        let short = changes(None, None, Some(Some("one")));
        assert_eq!(
            at_once(&text, "a", &short),
            Some(one_by_one(&text, "a", &short).unwrap())
        );
    }

    #[test]
    fn a_body_that_looks_like_a_task_is_quoted_and_valid() {
        let text = format!("{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->\n");
        let body = changes(
            Some(Status::Done),
            None,
            Some(Some("- [ ] b <!-- long-term-plan:id=b -->")),
        );
        let edited = update_task(&text, "a", &body).unwrap();
        assert!(
            edited
                .text
                .ends_with("  > - [ ] b <!-- long-term-plan:id=b -->\n")
        );
        assert_eq!(at_once(&text, "a", &body), Some(edited));
    }

    #[test]
    fn clearing_a_missing_body_keeps_every_byte_even_of_an_invalid_text() {
        let text = format!("{H}\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->\n- [x] broken");
        let edited = update_task(&text, "a", &changes(None, None, Some(None))).unwrap();
        assert_eq!(edited.text, text);
        assert!(!edited.changed);
    }
}
