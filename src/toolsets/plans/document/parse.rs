// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The line-based parser: headings with their ranges and section paths, the
//! task tree built by indentation, blockquote bodies, and every position an
//! edit needs. It knows nothing about code fences, like the reference.
//!
//! A plan borrows its ids, titles and headings from the text it was parsed
//! from, so that parsing 2,000 tasks allocates next to nothing; only
//! decoded bodies and the rare trimmed string that differs are owned.

use std::borrow::Cow;

use crate::toolsets::plans::document::diagnostic::{DUPLICATE_TASK_ID, Diagnostic};
use crate::toolsets::plans::syntax::hash::FxHashMap;
use crate::toolsets::plans::syntax::line::{self, heading};
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{
    self, has_format_header, is_blank, space_indent, trim_start,
};

/// The title of a plan without a non-empty H1.
pub(crate) const UNTITLED: &str = "Untitled Plan";

/// A blockquote body: its decoded Markdown and its 0-based inclusive line range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body<'a> {
    /// The decoded lines joined with `\n`.
    pub markdown: Cow<'a, str>,
    /// The first body line.
    pub start_line: usize,
    /// The last body line.
    pub end_line: usize,
}

/// A heading and the lines of its section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading<'a> {
    /// 1 to 6.
    pub level: usize,
    /// The trimmed text.
    pub(crate) text: Cow<'a, str>,
    /// Its line.
    pub(crate) line: usize,
    /// The texts of the open headings of level 2 and deeper, itself included.
    pub path: Vec<Cow<'a, str>>,
    /// The line before the next heading of the same or a higher level, or the last line.
    pub(crate) end_line: usize,
}

/// A task and its place in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task<'a> {
    /// The id from its trailer.
    pub id: Cow<'a, str>,
    /// The trimmed title.
    pub title: Cow<'a, str>,
    /// The status.
    pub status: Status,
    /// Leading whitespace of the task line, in characters.
    pub(crate) indent: usize,
    /// The task line.
    pub(crate) line: usize,
    /// The last line of its block (children, bodies, trailing blank lines).
    pub(crate) block_end_line: usize,
    /// The heading whose section holds it (its path is the section path).
    pub(crate) section: Option<usize>,
    /// The index of its parent task.
    pub(crate) parent: Option<usize>,
    /// The indexes of its direct children, in order.
    pub(crate) children: Vec<usize>,
    /// Its blockquote body, if any.
    pub body: Option<Body<'a>>,
}

/// A parsed plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan<'a> {
    /// The first non-empty H1, or `Untitled Plan`.
    pub(crate) title: Cow<'a, str>,
    /// The blockquote body after the first non-empty H1.
    pub body: Option<Body<'a>>,
    /// Every heading, in document order.
    pub headings: Vec<Heading<'a>>,
    /// Every task, in document order (which is also pre-order).
    pub tasks: Vec<Task<'a>>,
    /// The indexes of the top-level tasks.
    pub(crate) roots: Vec<usize>,
    /// Task index by id; the first occurrence of an id wins.
    pub(crate) by_id: FxHashMap<Cow<'a, str>, usize>,
}

impl<'a> Plan<'a> {
    /// The task with this id (its first occurrence).
    pub(crate) fn task(&self, id: &str) -> Option<&Task<'a>> {
        self.by_id.get(id).map(|&i| &self.tasks[i])
    }

    /// A task's section path (heading texts below the H1).
    pub(crate) fn section_path(&self, task: &Task<'a>) -> &[Cow<'a, str>] {
        task.section.map_or(&[], |h| &self.headings[h].path)
    }

    /// The id of a task's parent.
    pub(crate) fn parent_id(&self, task: &Task<'a>) -> Option<&str> {
        task.parent.map(|p| &*self.tasks[p].id)
    }

    /// The tasks in `by_id`, in document order (first occurrences only).
    pub(crate) fn unique_tasks(&self) -> impl Iterator<Item = &Task<'a>> {
        self.tasks
            .iter()
            .enumerate()
            .filter(|(i, t)| self.by_id.get(&*t.id) == Some(i))
            .map(|(_, t)| t)
    }
}

/// What parsing found: the plan when there are no errors, and the findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The plan, present exactly when `errors` is empty.
    pub plan: Option<Plan<'a>>,
    /// `MISSING_FORMAT_HEADER` and `DUPLICATE_TASK_ID` only.
    pub(crate) errors: Vec<Diagnostic>,
    /// `NO_TASKS` only.
    pub(crate) warnings: Vec<Diagnostic>,
}

impl<'a> Parsed<'a> {
    /// The plan, or the error `requireParsedPlan` throws: the errors as
    /// `CODE@line: message` joined with `\n`.
    pub(crate) fn require(self) -> Result<Plan<'a>, String> {
        match self.plan {
            Some(plan) => Ok(plan),
            None if self.errors.is_empty() => Err("Failed to parse plan".into()),
            None => Err(self
                .errors
                .iter()
                .map(Diagnostic::short)
                .collect::<Vec<_>>()
                .join("\n")),
        }
    }
}

/// Decodes one blockquote line: trim the start, drop `>`, drop one space.
fn decode_quote_line(line: &str) -> &str {
    let rest = trim_start(line);
    let Some(rest) = rest.strip_prefix('>') else {
        return "";
    };
    rest.strip_prefix(' ').unwrap_or(rest)
}

fn is_quote_line(line: &str) -> bool {
    trim_start(line).starts_with('>')
}

/// Collects the run of lines from `start` that `take` accepts, as a body.
/// A one-line body borrows its line; a longer one is joined.
fn quote_run<'a>(lines: &[&'a str], start: usize, take: impl Fn(&str) -> bool) -> Option<Body<'a>> {
    let end = lines[start.min(lines.len())..]
        .iter()
        .take_while(|l| take(l))
        .count()
        + start;
    let markdown = match &lines[start..end] {
        [] => return None,
        [one] => Cow::Borrowed(decode_quote_line(one)),
        [first, rest @ ..] => {
            let size = rest.iter().map(|l| l.len() + 1).sum::<usize>() + first.len();
            let mut joined = String::with_capacity(size);
            joined.push_str(decode_quote_line(first));
            for l in rest {
                joined.push('\n');
                joined.push_str(decode_quote_line(l));
            }
            Cow::Owned(joined)
        }
    };
    Some(Body {
        markdown,
        start_line: start,
        end_line: end - 1,
    })
}

/// The plan body: after the H1 and any blank lines, the first run of `>` lines.
fn plan_body<'a>(lines: &[&'a str], h1: Option<usize>) -> Option<Body<'a>> {
    let h1 = h1?;
    let start = (h1 + 1..lines.len()).find(|&i| !is_blank(lines[i]))?;
    quote_run(lines, start, is_quote_line)
}

/// Parses a plan document into a plan that borrows from `text`.
pub fn parse(text: &str) -> Parsed<'_> {
    let lines = text::split_content_lines(text);
    parse_lines_with(&lines, |_, line| line::task_line(line))
}

/// Parses already split lines (as [`text::split_content_lines`] splits
/// them), with the task-line recogniser given (the validator passes
/// the results it already has, by line index), into a borrowing plan.
pub(crate) fn parse_lines_with<'a>(
    lines: &[&'a str],
    task_line: impl Fn(usize, &'a str) -> Option<line::TaskLine<'a>>,
) -> Parsed<'a> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let has_header = has_format_header(lines);
    if !has_header {
        errors.push(Diagnostic::missing_header());
    }
    let last_line = lines.len().saturating_sub(1);

    let mut headings: Vec<Heading<'a>> = Vec::new();
    let mut heading_stack: Vec<usize> = Vec::new();
    // Room for every task, so that 2,000 tasks are not moved as the vector
    // grows, nor rehashed, and no more: every line that starts with `-` may
    // be one.
    let candidates = lines
        .iter()
        .filter(|l| trim_start(l).starts_with('-'))
        .count();
    let mut tasks: Vec<Task<'a>> = Vec::with_capacity(candidates);
    let mut roots = Vec::new();
    let mut by_id: FxHashMap<Cow<'a, str>, usize> =
        FxHashMap::with_capacity_and_hasher(candidates, Default::default());
    let mut open: Vec<usize> = Vec::new();
    let mut title: Option<(&'a str, usize)> = None;

    // Pops the open tasks whose indent is at least `indent`; their blocks
    // end on the line before `boundary`.
    let close =
        |open: &mut Vec<usize>, tasks: &mut Vec<Task<'a>>, boundary: usize, indent: usize| {
            while let Some(&top) = open.last() {
                if indent > tasks[top].indent {
                    break;
                }
                tasks[top].block_end_line = boundary.saturating_sub(1);
                open.pop();
            }
        };

    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if let Some((level, text)) = heading(line) {
            close(&mut open, &mut tasks, index, 0);
            if level == 1 && !text.is_empty() && title.is_none() {
                title = Some((text, index));
            }
            while let Some(&top) = heading_stack.last() {
                if headings[top].level < level {
                    break;
                }
                headings[top].end_line = index.saturating_sub(1);
                heading_stack.pop();
            }
            let mut path: Vec<Cow<'a, str>> = heading_stack
                .iter()
                .filter(|&&h| headings[h].level >= 2)
                .map(|&h| headings[h].text.clone())
                .collect();
            if level >= 2 {
                path.push(Cow::Borrowed(text));
            }
            heading_stack.push(headings.len());
            headings.push(Heading {
                level,
                text: Cow::Borrowed(text),
                line: index,
                path,
                end_line: last_line,
            });
            index += 1;
            continue;
        }
        if let Some(task_line) = task_line(index, line) {
            close(&mut open, &mut tasks, index, task_line.indent);
            let body_indent = task_line.indent + 2;
            let body = quote_run(lines, index + 1, |l| {
                space_indent(l) >= body_indent && is_quote_line(l)
            });
            let me = tasks.len();
            match by_id.entry(Cow::Borrowed(task_line.id)) {
                std::collections::hash_map::Entry::Occupied(_) => errors.push(Diagnostic::new(
                    DUPLICATE_TASK_ID,
                    format!("Duplicate task id: {}", task_line.id),
                    Some(index),
                )),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(me);
                }
            }
            let parent = open.last().copied();
            match parent {
                Some(p) => tasks[p].children.push(me),
                None => roots.push(me),
            }
            let next = body.as_ref().map_or(index + 1, |b| b.end_line + 1);
            tasks.push(Task {
                id: Cow::Borrowed(task_line.id),
                title: Cow::Borrowed(task_line.title),
                status: task_line.status,
                indent: task_line.indent,
                line: index,
                block_end_line: last_line,
                section: heading_stack.last().copied(),
                parent,
                children: Vec::new(),
                body,
            });
            open.push(me);
            index = next;
            continue;
        }
        if !is_blank(line) {
            let indent = space_indent(line);
            if open.last().is_some_and(|&top| indent <= tasks[top].indent) {
                close(&mut open, &mut tasks, index, indent);
            }
        }
        index += 1;
    }
    close(&mut open, &mut tasks, lines.len(), 0);

    if has_header && by_id.is_empty() {
        warnings.push(Diagnostic::no_tasks());
    }
    let plan = errors.is_empty().then(|| {
        let (title, h1) = title.map_or((UNTITLED, None), |(t, l)| (t, Some(l)));
        Plan {
            title: Cow::Borrowed(title),
            body: plan_body(lines, h1),
            headings,
            tasks,
            roots,
            by_id,
        }
    });
    Parsed {
        plan,
        errors,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn plan(text: &str) -> Plan<'_> {
        parse(text).plan.expect("parses")
    }

    fn ids<'a>(plan: &'a Plan<'_>, of: &[usize]) -> Vec<&'a str> {
        of.iter().map(|&i| &*plan.tasks[i].id).collect()
    }

    #[test]
    fn titles_sections_and_tree() {
        let text = format!(
            "{H}\n\n# Plan\n\n## A\n\n- [ ] one <!-- long-term-plan:id=a -->\n  - [*] two <!-- long-term-plan:id=b -->\n     - [√] three <!-- long-term-plan:id=c -->\n- [ ] four <!-- long-term-plan:id=d -->\n\n### B\n- [ ] five <!-- long-term-plan:id=e -->\n"
        );
        let p = plan(&text);
        assert_eq!(p.title, "Plan");
        assert_eq!(ids(&p, &p.roots), ["a", "d", "e"]);
        assert_eq!(ids(&p, &p.tasks[0].children), ["b"]);
        assert_eq!(ids(&p, &p.tasks[1].children), ["c"]);
        assert_eq!(p.parent_id(&p.tasks[2]), Some("b"));
        assert_eq!(p.section_path(&p.tasks[0]), ["A"]);
        assert_eq!(p.section_path(&p.tasks[4]), ["A", "B"]);
        assert_eq!(p.tasks[2].status, Status::Done);
        // Blocks: a ends before d; d takes the blank line before ### B.
        assert_eq!((p.tasks[0].line, p.tasks[0].block_end_line), (6, 8));
        assert_eq!(p.tasks[3].block_end_line, 10);
        assert_eq!(p.tasks[4].block_end_line, 12);
        // Section ranges include subsections.
        let a = &p.headings[1];
        assert_eq!(
            (a.line, a.end_line, a.path.clone()),
            (4, 12, vec![Cow::from("A")])
        );
        assert!(p.headings[0].path.is_empty());
    }

    #[test]
    fn untitled_and_empty_h1() {
        let text = format!("{H}\n# \n- [ ] x <!-- long-term-plan:id=x -->\n");
        let p = plan(&text);
        assert_eq!(p.title, UNTITLED);
        let text = format!("{H}\n# \n# Real\n");
        let p = plan(&text);
        assert_eq!(p.title, "Real");
        let text = format!("\u{FEFF}# BOM\n{H}\n");
        let p = plan(&text);
        assert_eq!(p.title, UNTITLED);
    }

    #[test]
    fn errors_and_warnings() {
        let parsed = parse("# x\n- [ ] a <!-- long-term-plan:id=a -->\n");
        assert!(parsed.plan.is_none());
        assert_eq!(parsed.errors[0].code, "MISSING_FORMAT_HEADER");
        assert!(parsed.warnings.is_empty(), "no NO_TASKS without header");

        let dup = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=d -->\n- [ ] b <!-- long-term-plan:id=d -->\n"
        );
        let parsed = parse(&dup);
        assert_eq!(
            parsed.clone().require().unwrap_err(),
            "DUPLICATE_TASK_ID@3: Duplicate task id: d"
        );

        let text = format!("{H}\n- [ ] no id\n");
        let parsed = parse(&text);
        assert_eq!(parsed.warnings, [Diagnostic::no_tasks()]);
        assert!(parsed.plan.is_some());
    }

    #[test]
    fn non_task_lines_close_by_spaces_only() {
        let text = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n  note\n  - [ ] b <!-- long-term-plan:id=b -->\ntext\n  - [ ] c <!-- long-term-plan:id=c -->\n"
        );
        let p = plan(&text);
        assert_eq!(
            p.parent_id(&p.tasks[1]),
            Some("a"),
            "an indented note keeps a open"
        );
        assert_eq!(
            p.parent_id(&p.tasks[2]),
            None,
            "column-0 text closes everything"
        );
        assert_eq!(p.tasks[0].block_end_line, 3);

        let tab = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n\tnote\n - [ ] b <!-- long-term-plan:id=b -->\n"
        );
        let p = plan(&tab);
        assert_eq!(
            p.parent_id(&p.tasks[1]),
            None,
            "a tab is not a space for lineIndent"
        );
        let odd = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=a -->\n - [ ] b <!-- long-term-plan:id=b -->\n"
        );
        assert_eq!(
            plan(&odd).parent_id(&plan(&odd).tasks[1]),
            Some("a"),
            "one extra space nests"
        );
    }

    #[test]
    fn bodies() {
        let text = format!(
            "{H}\n# T\n\n> plan\n>\n> - [ ] not a task\n\n- [ ] a <!-- long-term-plan:id=a -->\n  > first\n      >second\n  >\n\n  > not body\n- [ ] b <!-- long-term-plan:id=b -->\n > too shallow\n"
        );
        let p = plan(&text);
        let body = p.body.clone().unwrap();
        assert_eq!(body.markdown, "plan\n\n- [ ] not a task");
        assert_eq!((body.start_line, body.end_line), (3, 5));
        let a = p.task("a").unwrap().body.clone().unwrap();
        assert_eq!(a.markdown, "first\nsecond\n");
        assert_eq!((a.start_line, a.end_line), (8, 10));
        assert_eq!(p.task("b").unwrap().body, None);
        // A blockquote right under the H1 after blank lines only.
        let text = format!("{H}\n# T\ntext\n> late\n");
        let p = plan(&text);
        assert_eq!(p.body, None);
        let text = format!("{H}\n# T\n>\n");
        let p = plan(&text);
        assert_eq!(p.body.unwrap().markdown, "");
    }

    #[test]
    fn headings_close_tasks_and_sections() {
        let text = format!(
            "{H}\n# T\n## M\n### S1\n- [ ] a <!-- long-term-plan:id=a -->\n### S2\n\n## N\n#### deep\n"
        );
        let p = plan(&text);
        assert_eq!(p.tasks[0].block_end_line, 4);
        let m = &p.headings[1];
        assert_eq!((m.line, m.end_line), (2, 6));
        assert_eq!(p.headings[3].end_line, 6);
        assert_eq!(p.headings[4].path, ["N"]);
        assert_eq!(p.headings[5].path, ["N", "deep"]);
        assert_eq!(p.headings[0].end_line, 8);
    }

    #[test]
    fn empty_and_odd_inputs_do_not_panic() {
        for text in [
            "", "\n", "\r\n", "#", "- [ ]", ">", "\u{FEFF}", "\r", "- [√]",
        ] {
            let _ = parse(text);
            let _ = parse(&format!("{H}\n{text}"));
        }
    }
}
