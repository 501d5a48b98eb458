// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Minimal-diff line edits: a task's status symbol, a task's title, a task's
//! whole block, the plan title. Each keeps every other byte, re-joins with
//! the document's EOL (CRLF if it has any), keeps a missing final newline,
//! and ends by validating the result.

use std::borrow::Cow;

use crate::toolsets::plans::document::parse::{Plan, Task, parse};
use crate::toolsets::plans::document::validate;
use crate::toolsets::plans::error::{PlanError, task_not_found};
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{Lines, newlines_to_spaces, trim};

/// The result of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The new text.
    pub text: String,
    /// Whether it differs from the old one.
    pub changed: bool,
}

impl Edited {
    /// `text` as it is: the start of a chain of edits.
    pub(crate) fn unchanged(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            changed: false,
        }
    }

    /// Applies `edit` to this text: its result, changed if either was.
    pub(crate) fn then(
        self,
        edit: impl FnOnce(&str) -> Result<Edited, PlanError>,
    ) -> Result<Edited, PlanError> {
        let next = edit(&self.text)?;
        Ok(Edited {
            changed: self.changed || next.changed,
            text: next.text,
        })
    }
}

/// Joins the edited lines and validates them: `Edit produced invalid
/// document: <first error>` if the result is not valid.
pub(crate) fn finish(lines: &Lines<'_>, original: &str) -> Result<Edited, PlanError> {
    let text = lines.join();
    check_valid(&text, "Edit")?;
    let changed = text != original;
    Ok(Edited { text, changed })
}

/// `<what> produced invalid document: <message>` for the first error.
pub(crate) fn check_valid(text: &str, what: &str) -> Result<(), PlanError> {
    match validate::first_error(text) {
        Some(error) => Err(PlanError(format!(
            "{what} produced invalid document: {}",
            error.message
        ))),
        None => Ok(()),
    }
}

/// `requireParsedPlan`.
pub(crate) fn require_plan(text: &str) -> Result<Plan<'_>, PlanError> {
    parse(text).require().map_err(PlanError)
}

/// The first task with this id.
pub(crate) fn find_task<'p, 'a>(plan: &'p Plan<'a>, id: &str) -> Result<&'p Task<'a>, PlanError> {
    plan.task(id).ok_or_else(|| task_not_found(id))
}

/// A task title as written: newlines become spaces, then trimmed; it must
/// not be empty nor hold comment markers.
pub(crate) fn sanitize_title(title: &str) -> Result<String, PlanError> {
    let title = newlines_to_spaces(title);
    let title = trim(&title);
    if title.is_empty() {
        return Err("Task title must be non-empty".into());
    }
    if title.contains("<!--") || title.contains("-->") {
        return Err(
            "Task title must not include HTML comment markers (\"<!--\" or \"-->\")".into(),
        );
    }
    Ok(title.to_owned())
}

/// Sets a task's status by replacing its symbol. Setting the status it has
/// is an error, as in the reference.
pub fn set_status(text: &str, task_id: &str, status: Status) -> Result<Edited, PlanError> {
    let plan = require_plan(text)?;
    let task = find_task(&plan, task_id)?;
    let mut lines = Lines::split(text);
    lines.lines[task.line] = Cow::Owned(status_line(&lines.lines[task.line], status)?);
    finish(&lines, text)
}

/// A task line with its status symbol replaced by `status`'s.
pub(crate) fn status_line(old: &str, status: Status) -> Result<String, PlanError> {
    let unchanged =
        || PlanError::from("Failed to update status (task line not in expected format)");
    let range = line::status_symbol_range(old).ok_or_else(unchanged)?;
    if old[range.clone()].starts_with(status.symbol()) {
        return Err(unchanged());
    }
    let mut new = String::with_capacity(old.len() + 2);
    new.push_str(&old[..range.start]);
    new.push(status.symbol());
    new.push_str(&old[range.end..]);
    Ok(new)
}

/// Renames a task, keeping the spacing around the title and the trailer.
pub fn rename(text: &str, task_id: &str, title: &str) -> Result<Edited, PlanError> {
    let plan = require_plan(text)?;
    let task = find_task(&plan, task_id)?;
    let mut lines = Lines::split(text);
    lines.lines[task.line] = Cow::Owned(renamed_line(&lines.lines[task.line], title)?);
    finish(&lines, text)
}

/// A task line with its title replaced by `title`, sanitised.
pub(crate) fn renamed_line(old: &str, title: &str) -> Result<String, PlanError> {
    let title = sanitize_title(title)?;
    if line::task_line(old).is_none() {
        return Err("Failed to rename (task line not in expected format)".into());
    }
    let range = line::title_range(old)
        .ok_or_else(|| PlanError::from("Failed to rename (could not locate title region)"))?;
    Ok(format!(
        "{}{title}{}",
        &old[..range.start],
        &old[range.end..]
    ))
}

/// Deletes a task's block: its line through its block end, so its children,
/// bodies, notes and trailing blank lines go with it.
pub fn delete(text: &str, task_id: &str) -> Result<Edited, PlanError> {
    let plan = require_plan(text)?;
    let task = find_task(&plan, task_id)?;
    let mut lines = Lines::split(text);
    let end = task.block_end_line.min(lines.lines.len().saturating_sub(1));
    lines.lines.drain(task.line..=end);
    finish(&lines, text)
}

/// Plan titles: newlines become spaces, trimmed, non-empty.
fn sanitize_plan_title(title: &str) -> Result<String, PlanError> {
    let title = newlines_to_spaces(title);
    let title = trim(&title);
    if title.is_empty() {
        return Err("Plan title must be non-empty".into());
    }
    Ok(title.to_owned())
}

/// The first line matching `/^#\s+/` (which may be an H1 with empty text).
pub(crate) fn first_h1_line<S: AsRef<str>>(lines: &[S]) -> Result<usize, PlanError> {
    lines
        .iter()
        .position(|l| line::is_h1_prefix(l.as_ref()))
        .ok_or_else(|| "Missing plan title heading (# ...)".into())
}

/// Replaces the first `# ` line with `# <title>`. There is no parse first,
/// only the validation after, as in the reference.
pub fn set_plan_title(text: &str, title: &str) -> Result<Edited, PlanError> {
    let mut lines = Lines::split(text);
    retitle(&mut lines, title)?;
    finish(&lines, text)
}

/// Puts `# <title>` in place of the first `# ` line; says which line that is.
pub(crate) fn retitle(lines: &mut Lines<'_>, title: &str) -> Result<usize, PlanError> {
    let title = sanitize_plan_title(title)?;
    let h1 = first_h1_line(&lines.lines)?;
    lines.lines[h1] = Cow::Owned(format!("# {title}"));
    Ok(h1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn doc(body: &str) -> String {
        format!("{H}\n\n# Plan\n\n{body}")
    }

    #[test]
    fn status_changes_one_character() {
        let text = doc("- [ ] a <!-- long-term-plan:id=a -->\n");
        let done = set_status(&text, "a", Status::Done).unwrap();
        assert_eq!(done.text, doc("- [√] a <!-- long-term-plan:id=a -->\n"));
        assert!(done.changed);
        let back = set_status(&done.text, "a", Status::Doing).unwrap();
        assert_eq!(back.text, doc("- [*] a <!-- long-term-plan:id=a -->\n"));
        assert_eq!(
            set_status(&text, "a", Status::Todo).unwrap_err().message(),
            "Failed to update status (task line not in expected format)"
        );
        assert_eq!(
            set_status(&text, "zz", Status::Done).unwrap_err().message(),
            "Task not found: zz"
        );
    }

    #[test]
    fn crlf_and_missing_final_newline_are_kept() {
        let text = format!("{H}\r\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->");
        let edited = set_status(&text, "a", Status::Doing).unwrap();
        assert_eq!(
            edited.text,
            format!("{H}\r\n# P\r\n- [*] a <!-- long-term-plan:id=a -->")
        );
        let mixed = format!("{H}\n# P\r\n- [ ] a <!-- long-term-plan:id=a -->\n");
        let edited = set_status(&mixed, "a", Status::Doing).unwrap();
        assert_eq!(
            edited.text,
            format!("{H}\r\n# P\r\n- [*] a <!-- long-term-plan:id=a -->\r\n")
        );
    }

    #[test]
    fn rename_keeps_odd_spacing() {
        let text = doc("-   [*]   X   <!--  long-term-plan:id=a -->  \n");
        let edited = rename(&text, "a", "  New\r\ntitle ").unwrap();
        assert_eq!(
            edited.text,
            doc("-   [*]   New title   <!--  long-term-plan:id=a -->  \n")
        );
        let same = rename(&text, "a", "X").unwrap();
        assert!(!same.changed);
        assert_eq!(same.text, text);
        assert_eq!(
            rename(&text, "a", " \n ").unwrap_err().message(),
            "Task title must be non-empty"
        );
        assert_eq!(
            rename(&text, "a", "a <!-- b").unwrap_err().message(),
            "Task title must not include HTML comment markers (\"<!--\" or \"-->\")"
        );
    }

    #[test]
    fn delete_takes_the_block_and_trailing_blank_lines() {
        let text = doc(
            "## A\n\n- [ ] a <!-- long-term-plan:id=a -->\n  - [ ] b <!-- long-term-plan:id=b -->\n  > body\n  note\n\n## B\n- [ ] c <!-- long-term-plan:id=c -->\n",
        );
        let edited = delete(&text, "a").unwrap();
        assert_eq!(
            edited.text,
            doc("## A\n\n## B\n- [ ] c <!-- long-term-plan:id=c -->\n")
        );
        let edited = delete(&text, "b").unwrap();
        assert_eq!(
            edited.text,
            doc(
                "## A\n\n- [ ] a <!-- long-term-plan:id=a -->\n  > body\n  note\n\n## B\n- [ ] c <!-- long-term-plan:id=c -->\n"
            ),
            "the indent-2 quote is not b's body and closes b"
        );
    }

    #[test]
    fn edits_refuse_invalid_documents() {
        let text = doc("- [ ] a <!-- long-term-plan:id=a -->\n- [x] other\n");
        assert_eq!(
            set_status(&text, "a", Status::Done).unwrap_err().message(),
            "Edit produced invalid document: Invalid status symbol: \"x\" (expected ' ', '*', or '√')"
        );
        let dup =
            doc("- [ ] a <!-- long-term-plan:id=a -->\n- [ ] b <!-- long-term-plan:id=a -->\n");
        assert_eq!(
            delete(&dup, "a").unwrap_err().message(),
            "DUPLICATE_TASK_ID@6: Duplicate task id: a"
        );
        assert!(
            set_status("# x\n", "a", Status::Done)
                .unwrap_err()
                .message()
                .starts_with("MISSING_FORMAT_HEADER: Missing required header")
        );
    }

    #[test]
    fn plan_title() {
        let text = doc("- [ ] a <!-- long-term-plan:id=a -->\n");
        let edited = set_plan_title(&text, "New\nname").unwrap();
        assert!(edited.text.contains("\n# New name\n"));
        assert!(!set_plan_title(&text, "Plan").unwrap().changed);
        assert_eq!(
            set_plan_title(&text, " ").unwrap_err().message(),
            "Plan title must be non-empty"
        );
        assert_eq!(
            set_plan_title(&format!("{H}\n## x\n"), "T")
                .unwrap_err()
                .message(),
            "Missing plan title heading (# ...)"
        );
        // The empty H1 is the target.
        let empty = format!("{H}\n# \n# Real\n");
        assert_eq!(
            set_plan_title(&empty, "T").unwrap().text,
            format!("{H}\n# T\n# Real\n")
        );
        // No parse first: the validator's message wins.
        let bad = "# P\n- [ ] a <!-- long-term-plan:id=a -->\n";
        assert_eq!(
            set_plan_title(bad, "T").unwrap_err().message(),
            "Edit produced invalid document: Missing required header: <!-- long-term-plan:format=v1 -->"
        );
    }
}
