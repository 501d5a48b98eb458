// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Migration of a description that is not a valid plan: the old (v1)
//! format and the damage a hand edit leaves. It builds a candidate and
//! keeps it only if it reads as a plan.
//!
//! With a goal, its header replaces the first line when that line is a
//! header, or goes above the whole old text, which becomes the
//! description. Then, in order: the old-format conversion, the scope
//! lowercased, exactly one space after the header's colon, an empty line
//! after the header, EXECUTE when tasks are open under COMPLETE, a direction
//! without tasks dropped; the formatter derives the parent boxes.

use super::grammar::{self, Structure};
use super::{Header, Limits, Problem, Reading, format, read};

/// Why a description cannot be migrated: one reason per line of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Impossible(pub(crate) Vec<String>);

impl std::fmt::Display for Impossible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

/// The reason an `unknown` text without a goal cannot be migrated.
pub(crate) const NEEDS_GOAL: &str = "needs goal: the old text has no header";

/// One candidate line and the line of the old text it came from.
#[derive(Debug, Clone)]
struct Line {
    origin: Option<usize>,
    text: String,
}

impl Line {
    fn new(origin: Option<usize>, text: impl Into<String>) -> Self {
        Self {
            origin,
            text: text.into(),
        }
    }

    fn blank() -> Self {
        Self::new(None, "")
    }
}

/// The canonical text a migration of `text` writes, or why there is none.
/// Plans joined one after another (`jj squash`) merge into one.
pub fn migrate(text: &str, goal: Option<&Header>, limits: &Limits) -> Result<String, Impossible> {
    if let Some(mut plans) = super::joined::split(text, limits) {
        if let (Some(first), Some(goal)) = (plans.first_mut(), goal) {
            first.header = goal.clone();
        }
        return super::joined::merged_text(&plans, limits).map_err(|why| Impossible(vec![why]));
    }
    let mut lines: Vec<Line> = text
        .split('\n')
        .enumerate()
        .map(|(index, raw)| {
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            Line::new(Some(index + 1), raw.trim_end_matches([' ', '\t']))
        })
        .collect();
    let Some(first) = lines.iter().position(|l| !l.text.is_empty()) else {
        return Err(Impossible(vec![
            "the description is empty: nothing to migrate".into(),
        ]));
    };
    lines.drain(..first);
    match (grammar::loose_header(&lines[0].text).is_some(), goal) {
        (true, Some(goal)) => lines[0] = Line::new(None, goal.to_string()),
        (true, None) => fix_header(&mut lines[0]),
        (false, Some(goal)) => {
            lines.insert(0, Line::blank());
            lines.insert(0, Line::new(None, goal.to_string()));
        }
        (false, None) => return Err(Impossible(vec![NEEDS_GOAL.into()])),
    }
    let mut lines = convert_old_format(lines)?;
    if lines.get(1).is_some_and(|l| !l.text.is_empty()) {
        lines.insert(1, Line::blank());
    }
    fix_direction(&mut lines);
    let candidate: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    match read(&candidate.join("\n"), limits) {
        Reading::Parsed(document) => {
            // The canonical text can be longer than the candidate (an added
            // direction, empty line or final newline): it must fit too, or
            // the plan written would not read back.
            let text = format::format(&document);
            match text.len() > limits.max_input_bytes {
                true => Err(Impossible(vec![format!(
                    "the migrated plan would be {} bytes; the limit is {} ([commit] max_input_bytes)",
                    text.len(),
                    limits.max_input_bytes
                )])),
                false => Ok(text),
            }
        }
        Reading::Empty => Err(Impossible(vec!["nothing is left to migrate".into()])),
        Reading::Unknown(problem) | Reading::Halted(problem) => {
            Err(Impossible(vec![located(&lines, problem).to_string()]))
        }
    }
}

/// A problem of the candidate, at the old text's line where there is one.
fn located(lines: &[Line], problem: Problem) -> Problem {
    match lines
        .get(problem.line.wrapping_sub(1))
        .and_then(|l| l.origin)
    {
        Some(origin) => Problem::new(origin, problem.message),
        None => Problem::new(
            problem.line,
            format!("{} (in the migrated text)", problem.message),
        ),
    }
}

/// Lowercases the scope and puts exactly one space after the colon.
fn fix_header(line: &mut Line) {
    let Some(loose) = grammar::loose_header(&line.text) else {
        return;
    };
    let title = loose.rest.trim_start();
    if title.is_empty() {
        return;
    }
    let mut fixed = loose.kind.to_owned();
    if let Some(scope) = loose.scope {
        fixed.push('(');
        fixed.push_str(&scope.to_lowercase());
        fixed.push(')');
    }
    if loose.breaking {
        fixed.push('!');
    }
    fixed.push_str(": ");
    fixed.push_str(title);
    line.text = fixed;
}

/// Which old section the conversion is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OldSection {
    Constraints,
    NoConstraints,
    Tasks,
}

/// Converts the old format (v1) when one of its headings is present: the
/// description is what precedes the first heading; `- text` lines under
/// `Constraints:` stay (each must be a valid constraint); `- [ ] text` lines
/// under `Tasks [ ]:` become
/// `- [ ]: text`; the direction is COMPLETE when the heading and every task
/// are ticked. Any other line in those sections makes it impossible.
fn convert_old_format(lines: Vec<Line>) -> Result<Vec<Line>, Impossible> {
    let Some(start) = lines
        .iter()
        .skip(1)
        .position(|l| grammar::is_old_heading(&l.text))
        .map(|p| p + 1)
    else {
        return Ok(lines);
    };
    let mut out: Vec<Line> = lines[..start].to_vec();
    while out.last().is_some_and(|l| l.text.is_empty()) {
        out.pop();
    }
    let mut constraints: Vec<Line> = Vec::new();
    let mut tasks: Vec<Line> = Vec::new();
    let mut heading_ticked = false;
    let mut section = None;
    let mut seen: Vec<&str> = Vec::new();
    let mut problems = Vec::new();
    for line in &lines[start..] {
        let at = line.origin.unwrap_or(0);
        let text = line.text.as_str();
        if text.is_empty() {
            continue;
        }
        let heading = match text {
            "Constraints:" => Some(OldSection::Constraints),
            "Constraints: none" => Some(OldSection::NoConstraints),
            _ => grammar::old_tasks_heading(text).map(|ticked| {
                heading_ticked = ticked;
                OldSection::Tasks
            }),
        };
        if let Some(heading) = heading {
            let name = match heading {
                OldSection::Tasks => "Tasks",
                _ => "Constraints",
            };
            if seen.contains(&name) {
                problems.push(format!("line {at}: a second {name} heading"));
            }
            seen.push(name);
            section = Some(heading);
            continue;
        }
        let clipped = crate::runtime::text::clip(text);
        match section {
            Some(OldSection::Constraints) => match grammar::constraint_line(text, usize::MAX) {
                Ok(_) => constraints.push(line.clone()),
                Err(message) => problems.push(format!("line {at}: {message}")),
            },
            Some(OldSection::NoConstraints) => problems.push(format!(
                "line {at}: \"{clipped}\" follows \"Constraints: none\""
            )),
            Some(OldSection::Tasks) => match old_task(text) {
                Some(converted) => tasks.push(Line::new(line.origin, converted)),
                None => problems.push(format!(
                    "line {at}: \"{clipped}\" is not an old-format task line \"- [ ] text\""
                )),
            },
            None => {}
        }
    }
    if !problems.is_empty() {
        return Err(Impossible(problems));
    }
    let complete = heading_ticked && !has_open_leaf(&tasks);
    let has_tasks = !tasks.is_empty();
    for block in [constraints, tasks] {
        if !block.is_empty() {
            out.push(Line::blank());
            out.extend(block);
        }
    }
    if has_tasks {
        let direction = match complete {
            true => super::Direction::Complete,
            false => super::Direction::Execute,
        };
        out.push(Line::blank());
        out.push(Line::new(None, direction.line()));
    }
    Ok(out)
}

/// `^( *)- \[([ xX])\] (.+)$` as `{indent}- [{ |x}]: {text}`.
fn old_task(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line[indent..].strip_prefix("- [")?;
    let (ticked, rest) = match rest.as_bytes() {
        [b' ', ..] => (false, &rest[1..]),
        [b'x' | b'X', ..] => (true, &rest[1..]),
        _ => return None,
    };
    let text = rest.strip_prefix("] ")?;
    if text.is_empty() {
        return None;
    }
    let glyph = if ticked { 'x' } else { ' ' };
    Some(format!("{}- [{glyph}]: {text}", &line[..indent]))
}

/// Whether any task line that has no subtasks below it is open.
fn has_open_leaf(lines: &[Line]) -> bool {
    let parsed: Vec<Option<(usize, bool)>> = lines
        .iter()
        .map(|l| {
            grammar::task_line(&l.text, usize::MAX)
                .ok()
                .map(|t| (t.level, t.done))
        })
        .collect();
    parsed.iter().enumerate().any(|(i, task)| {
        let Some((level, done)) = task else {
            return false;
        };
        let next_deeper = parsed
            .get(i + 1)
            .and_then(|next| *next)
            .is_some_and(|(next, _)| next > *level);
        !done && !next_deeper
    })
}

/// EXECUTE when tasks are open under COMPLETE; a direction without tasks dropped.
fn fix_direction(lines: &mut Vec<Line>) {
    let task_lines: Vec<Line> = lines
        .iter()
        .filter(|l| grammar::structure(&l.text) == Some(Structure::Task))
        .cloned()
        .collect();
    if task_lines.is_empty() {
        lines.retain(|l| grammar::direction(&l.text).is_none());
        return;
    }
    if has_open_leaf(&task_lines) {
        for line in lines.iter_mut() {
            if grammar::direction(&line.text) == Some(super::Direction::Complete) {
                line.text = super::Direction::Execute.line().into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::document::CommitType;

    fn goal() -> Header {
        Header {
            kind: CommitType::Feat,
            scope: Some("cli".into()),
            breaking: false,
            title: "add the thing".into(),
        }
    }

    fn run(text: &str, goal: Option<&Header>) -> Result<String, String> {
        migrate(text, goal, &Limits::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_old_format_becomes_the_new_one() {
        let old = "feat(Parser)!:  Add hierarchical tasks\r\n\
                   Why: the old parser was flat.\n\
                   \n\
                   Constraints:\n\
                   - Do not: break the API\n\
                   - Never: drop data\n\
                   \n\
                   Tasks [ ]:\n\
                   - [x] Parse: indentation\n\
                   \x20\x20- [x] Levels: two spaces\n\
                   - [ ] Build the tree\n";
        assert_eq!(
            run(old, None).unwrap(),
            "feat(parser)!: Add hierarchical tasks\n\n\
             Why: the old parser was flat.\n\n\
             - Do not: break the API\n- Never: drop data\n\n\
             - [x]: Parse: indentation\n  - [x]: Levels: two spaces\n- [ ]: Build the tree\n\n\
             ~~~ EXECUTE ~~~\n"
        );
    }

    #[test]
    fn a_ticked_old_heading_with_every_task_done_is_complete() {
        let old = "fix: a\n\nConstraints: none\n\nTasks [X]:\n- [ ] parent\n  - [x] child\n";
        assert_eq!(
            run(old, None).unwrap(),
            "fix: a\n\n- [x]: parent\n  - [x]: child\n\n~~~ COMPLETE ~~~\n"
        );
        let open = "fix: a\n\nTasks [x]:\n- [x] one\n- [ ] two\n";
        assert_eq!(
            run(open, None).unwrap(),
            "fix: a\n\n- [x]: one\n- [ ]: two\n\n~~~ EXECUTE ~~~\n"
        );
        assert_eq!(run("fix: a\n\nTasks [ ]:\n", None).unwrap(), "fix: a\n");
    }

    #[test]
    fn impossible_old_format_lines_are_named() {
        let old = "fix: a\n\nConstraints:\nno dash\n\nTasks [ ]:\n- [ ]: already new\n* star\n";
        assert_eq!(
            run(old, None).unwrap_err(),
            "line 4: expected a constraint \"- Prefix: text\" with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden; \
             line 7: \"- [ ]: already new\" is not an old-format task line \"- [ ] text\"; \
             line 8: \"* star\" is not an old-format task line \"- [ ] text\""
        );
        assert_eq!(
            run("fix: a\n\nConstraints: none\n- Never: x\n", None).unwrap_err(),
            "line 4: \"- Never: x\" follows \"Constraints: none\""
        );
        assert_eq!(
            run("fix: a\n\nTasks [ ]:\n- [ ] x\nTasks [ ]:\n", None).unwrap_err(),
            "line 5: a second Tasks heading"
        );
        // Converted, but a constraint without a known prefix stays a problem.
        assert_eq!(
            run("fix: a\n\nConstraints:\n- Should: x\n", None).unwrap_err(),
            "line 4: expected a constraint \"- Prefix: text\" with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden"
        );
    }

    #[test]
    fn header_fixes_and_the_missing_empty_line() {
        assert_eq!(
            run("fix(API):   a\nbody\n", None).unwrap(),
            "fix(api): a\n\nbody\n"
        );
        // The type is not guessed.
        assert_eq!(
            run("Fix: a\n", None).unwrap_err(),
            "line 1: the type \"Fix\" must be lowercase; the types are feat, fix, refactor, build, chore, docs, lint, ci, infra, spec"
        );
        // A goal replaces a recognised header.
        assert_eq!(
            run("Fix(A B):\nbody\n", Some(&goal())).unwrap(),
            "feat(cli): add the thing\n\nbody\n"
        );
    }

    #[test]
    fn free_text_needs_a_goal_and_becomes_the_description() {
        assert_eq!(
            run("Some notes\n- [ ] item\n", None).unwrap_err(),
            NEEDS_GOAL
        );
        assert_eq!(
            run("\n\nSome notes\n- [ ] item\n", Some(&goal())).unwrap(),
            "feat(cli): add the thing\n\nSome notes\n- [ ] item\n"
        );
        // Structure lines in the old text remain problems, at their old lines.
        assert_eq!(
            run("notes\n- [ ]: t\n", Some(&goal())).unwrap_err(),
            "line 2: expected an empty line before a task line; a section starts after an empty line"
        );
    }

    #[test]
    fn directions_are_repaired() {
        assert_eq!(
            run("fix: a\n\n- [x]: t\n- [ ]: u\n\n~~~ COMPLETE ~~~\n", None).unwrap(),
            "fix: a\n\n- [x]: t\n- [ ]: u\n\n~~~ EXECUTE ~~~\n"
        );
        assert_eq!(
            run("fix: a\n\nwhy\n\n~~~ COMPLETE ~~~\n", None).unwrap(),
            "fix: a\n\nwhy\n"
        );
        assert_eq!(
            run("fix: a\n\n- [ ]: p\n  - [x]: c\n\n~~~ COMPLETE ~~~\n", None).unwrap(),
            "fix: a\n\n- [x]: p\n  - [x]: c\n\n~~~ COMPLETE ~~~\n"
        );
    }

    #[test]
    fn a_migration_that_would_outgrow_the_limit_is_impossible() {
        // Found by the fuzzer: the candidate fits, the direction added to it
        // does not.
        let text = format!("fix: a\n\n- [ ]: {}\n", "t".repeat(1008));
        assert_eq!(text.len(), 1_024);
        let limits = Limits {
            max_input_bytes: 1_024,
            max_item_length: 2_000,
            ..Limits::default()
        };
        assert_eq!(
            migrate(&text, None, &limits).unwrap_err().to_string(),
            "the migrated plan would be 1041 bytes; the limit is 1024 ([commit] max_input_bytes)"
        );
    }

    #[test]
    fn what_cannot_be_fixed_is_reported() {
        assert_eq!(
            run("", None).unwrap_err(),
            "the description is empty: nothing to migrate"
        );
        assert_eq!(
            run("fix: a\n\n- [ ]: t\n\nafter\n", None).unwrap_err(),
            "line 5: text after the tasks; only an empty line and the direction may follow"
        );
        assert_eq!(
            run("fix: a\u{7}\n", None).unwrap_err(),
            "line 1: the control character U+0007 is not allowed (only newline, and tab in description lines)"
        );
    }
}
