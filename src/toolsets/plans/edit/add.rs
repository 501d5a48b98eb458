// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Adding a task: before another task, as the last child of a parent, at the
//! end of a section (creating the section at the end if it is missing), or
//! at the end of the file. The file always ends with an EOL afterwards.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::runtime::entropy::Entropy;
use crate::toolsets::plans::document::diagnostic::MISSING_FORMAT_HEADER;
use crate::toolsets::plans::document::parse;
use crate::toolsets::plans::document::validate;
use crate::toolsets::plans::edit::body::encode;
use crate::toolsets::plans::edit::lines::{check_valid, find_task, require_plan, sanitize_title};
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{Lines, is_blank};

/// Where and what to add.
#[derive(Debug, Clone, Default)]
pub struct NewTask<'a> {
    /// The title (sanitised like a rename).
    pub title: &'a str,
    /// The status; todo by default.
    pub status: Option<Status>,
    /// A body to write under the task.
    pub body: Option<&'a str>,
    /// A section path; the task goes at the end of that section.
    pub section_path: Option<&'a [String]>,
    /// A parent; the task becomes its last child.
    pub parent_task_id: Option<&'a str>,
    /// An anchor; the task goes right before it, at its indent.
    pub before_task_id: Option<&'a str>,
}

/// An added task: its id and the new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// The generated id.
    pub(crate) task_id: String,
    /// The new document.
    pub text: String,
}

/// Adds a task with an id made from `entropy`.
pub(crate) fn add_task(
    text: &str,
    new: &NewTask<'_>,
    entropy: &dyn Entropy,
) -> Result<Added, PlanError> {
    add_task_with_id(text, new, &id::generate(entropy))
}

/// Adds a task with the given id (tests pin ids through this).
pub fn add_task_with_id(text: &str, new: &NewTask<'_>, task_id: &str) -> Result<Added, PlanError> {
    let section = new.section_path.filter(|p| !p.is_empty());
    let before = new.before_task_id.filter(|b| !b.is_empty());
    let parent = new.parent_task_id.filter(|p| !p.is_empty());
    if before.is_some() && (parent.is_some() || section.is_some()) {
        return Err("beforeTaskId cannot be combined with parentTaskId or sectionPath".into());
    }
    let mut lines = Lines::split(text);
    let parsed = parse::parse(text);
    // The text with its header mended, when the plan had to be parsed again.
    let mended: String;
    let plan = match parsed.plan {
        Some(plan) => plan,
        None => {
            // Only a missing header may be mended on the way.
            let validation = validate::validate(text);
            if let Some(other) = validation
                .errors
                .iter()
                .find(|d| d.code != MISSING_FORMAT_HEADER)
            {
                return Err(PlanError(format!(
                    "Refusing to add task: document has validation errors (e.g. {})",
                    other.code
                )));
            }
            lines.ensure_format_header();
            mended = lines.join();
            require_plan(&mended)?
        }
    };
    if plan.by_id.contains_key(task_id) {
        return Err("Generated duplicate task id (unexpected)".into());
    }

    let mut at = lines.lines.len();
    let mut indent = 0;
    if let Some(anchor) = before {
        let anchor = find_task(&plan, anchor)?;
        indent = anchor.indent;
        at = anchor.line;
    } else if let Some(parent) = parent {
        let parent = find_task(&plan, parent)?;
        indent = parent.indent + 2;
        at = parent.block_end_line + 1;
    } else if let Some(path) = section {
        let key = path.join(" / ");
        // When headings repeat, the last one with the key wins.
        let sections: HashMap<String, usize> = plan
            .headings
            .iter()
            .map(|h| (h.path.join(" / "), h.end_line))
            .collect();
        at = match sections.get(&key) {
            Some(&end_line) => end_line + 1,
            None => append_section(&mut lines, path),
        };
    }

    let title = sanitize_title(new.title)?;
    let status = new.status.unwrap_or(Status::Todo);
    let mut inserted = vec![format!(
        "{}- [{}] {title} <!-- long-term-plan:id={task_id} -->",
        " ".repeat(indent),
        status.symbol()
    )];
    if let Some(body) = new.body {
        inserted.extend(encode(body, indent + 2));
    }
    let at = at.min(lines.lines.len());
    lines
        .lines
        .splice(at..at, inserted.into_iter().map(Cow::Owned));
    let text = lines.join_with_final_eol(true);
    check_valid(&text, "Add")?;
    Ok(Added {
        task_id: task_id.to_owned(),
        text,
    })
}

/// Appends the whole section path at the end as `##`, `###`, ... headings
/// (capped at `######`), after a blank line and followed by one; returns
/// where the task goes (after that blank line).
fn append_section(lines: &mut Lines<'_>, path: &[String]) -> usize {
    lines.ensure_format_header();
    if lines.lines.last().is_some_and(|l| !is_blank(l)) {
        lines.lines.push(Cow::Borrowed(""));
    }
    for (depth, title) in path.iter().enumerate() {
        let hashes = "#".repeat((2 + depth).min(6));
        lines.lines.push(Cow::Owned(format!("{hashes} {title}")));
    }
    lines.lines.push(Cow::Borrowed(""));
    lines.lines.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn add(text: &str, new: NewTask<'_>) -> Result<String, String> {
        add_task_with_id(text, &new, "t_new")
            .map(|a| a.text)
            .map_err(|e| e.0)
    }

    fn titled(title: &str) -> NewTask<'_> {
        NewTask {
            title,
            ..NewTask::default()
        }
    }

    fn path(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| (*s).to_owned()).collect()
    }

    const NEW: &str = "- [ ] N <!-- long-term-plan:id=t_new -->";

    #[test]
    fn at_the_end_with_a_final_newline() {
        let text = format!("{H}\n\n# P\n\n## Inbox\n\n");
        assert_eq!(
            add(&text, titled("N")).unwrap(),
            format!("{H}\n\n# P\n\n## Inbox\n\n{NEW}\n")
        );
        let no_newline = format!("{H}\r\n# P");
        assert_eq!(
            add(&no_newline, titled("N")).unwrap(),
            format!("{H}\r\n# P\r\n{NEW}\r\n")
        );
        let new = NewTask {
            status: Some(Status::Doing),
            body: Some("b\n"),
            ..titled("  N\n ")
        };
        assert_eq!(
            add(&text, new).unwrap(),
            format!(
                "{H}\n\n# P\n\n## Inbox\n\n- [*] N <!-- long-term-plan:id=t_new -->\n  > b\n  >\n"
            )
        );
    }

    #[test]
    fn into_sections() {
        let text = format!(
            "{H}\n# P\n## M\n- [ ] a <!-- long-term-plan:id=a -->\n\n### S2\n- [ ] b <!-- long-term-plan:id=b -->\n\n## Other\n"
        );
        // A parent section's range includes its last subsection.
        assert_eq!(
            add(
                &text,
                NewTask {
                    section_path: Some(&path(&["M"])),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!(
                "{H}\n# P\n## M\n- [ ] a <!-- long-term-plan:id=a -->\n\n### S2\n- [ ] b <!-- long-term-plan:id=b -->\n\n{NEW}\n## Other\n"
            )
        );
        assert_eq!(
            add(
                &text,
                NewTask {
                    section_path: Some(&path(&["Other"])),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!("{text}{NEW}\n")
        );
        // Missing (even partly): the whole path is appended.
        assert_eq!(
            add(
                &text,
                NewTask {
                    section_path: Some(&path(&["M", "S9"])),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!("{text}\n## M\n### S9\n\n{NEW}\n")
        );
        let deep = path(&["1", "2", "3", "4", "5", "6"]);
        let added = add(
            &format!("{H}\nx"),
            NewTask {
                section_path: Some(&deep),
                ..titled("N")
            },
        )
        .unwrap();
        assert_eq!(
            added,
            format!("{H}\nx\n\n## 1\n### 2\n#### 3\n##### 4\n###### 5\n###### 6\n\n{NEW}\n")
        );
        // [""] is the H1's path: the end of the H1's range.
        assert_eq!(
            add(
                &text,
                NewTask {
                    section_path: Some(&path(&[""])),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!("{text}{NEW}\n")
        );
        // The H1's text is not a section: a new ## heading.
        assert_eq!(
            add(
                &text,
                NewTask {
                    section_path: Some(&path(&["P"])),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!("{text}\n## P\n\n{NEW}\n")
        );
    }

    #[test]
    fn under_parents_and_before_anchors() {
        let text = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  - [ ] c <!-- long-term-plan:id=c -->\n\n- [ ] b <!-- long-term-plan:id=b -->\n"
        );
        assert_eq!(
            add(
                &text,
                NewTask {
                    parent_task_id: Some("a"),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!(
                "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  - [ ] c <!-- long-term-plan:id=c -->\n\n  {NEW}\n- [ ] b <!-- long-term-plan:id=b -->\n"
            )
        );
        assert_eq!(
            add(
                &text,
                NewTask {
                    before_task_id: Some("c"),
                    ..titled("N")
                }
            )
            .unwrap(),
            format!(
                "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  {NEW}\n  - [ ] c <!-- long-term-plan:id=c -->\n\n- [ ] b <!-- long-term-plan:id=b -->\n"
            )
        );
        let sections = path(&["X"]);
        assert_eq!(
            add(
                &text,
                NewTask {
                    before_task_id: Some("a"),
                    section_path: Some(&sections),
                    ..titled("N")
                }
            )
            .unwrap_err(),
            "beforeTaskId cannot be combined with parentTaskId or sectionPath"
        );
        // An empty section path is fine with an anchor.
        assert!(
            add(
                &text,
                NewTask {
                    before_task_id: Some("a"),
                    section_path: Some(&[]),
                    ..titled("N")
                }
            )
            .is_ok()
        );
        assert_eq!(
            add(
                &text,
                NewTask {
                    parent_task_id: Some("zz"),
                    ..titled("N")
                }
            )
            .unwrap_err(),
            "Task not found: zz"
        );
        assert_eq!(
            add(
                &text,
                NewTask {
                    before_task_id: Some("zz"),
                    ..titled("")
                }
            )
            .unwrap_err(),
            "Task not found: zz",
            "placement errors come before title errors"
        );
        assert_eq!(
            add(&text, titled(" ")).unwrap_err(),
            "Task title must be non-empty"
        );
    }

    #[test]
    fn broken_documents() {
        // A missing header is mended; an empty file gets header, two blank lines, task.
        assert_eq!(add("", titled("N")).unwrap(), format!("{H}\n\n\n{NEW}\n"));
        assert_eq!(
            add("# P\n", titled("N")).unwrap(),
            format!("{H}\n\n# P\n{NEW}\n")
        );
        assert_eq!(
            add("# P\n- [x] a\n", titled("N")).unwrap_err(),
            "Refusing to add task: document has validation errors (e.g. INVALID_STATUS_SYMBOL)"
        );
        // Parses, but the validator objects: fails after the edit.
        assert_eq!(
            add(&format!("{H}\n- [ ] no id\n"), titled("N")).unwrap_err(),
            "Add produced invalid document: Task line is missing required trailing id: <!-- long-term-plan:id=... -->"
        );
        let existing = format!("{H}\n- [ ] a <!-- long-term-plan:id=t_new -->\n");
        assert_eq!(
            add(&existing, titled("N")).unwrap_err(),
            "Generated duplicate task id (unexpected)"
        );
    }
}
