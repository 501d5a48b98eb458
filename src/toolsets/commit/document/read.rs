// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The tolerant reader: a description in, one of four states out.
//!
//! It tolerates what the next write normalises (`\r\n`, trailing spaces and
//! tabs, blank lines around the text, runs of blank lines, `[X]`, tasks with
//! no direction) and nothing else. It scans forward, one section at a time:
//! header, description, constraints, tasks, direction. The first problem
//! halts it; every problem names its line as read.

use super::grammar::{self, Structure};
use super::tasks;
use super::{Document, Limits, Problem, Task};

/// What a description is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// Nothing but blank lines.
    Empty,
    /// Free text: its first line is not a header.
    Unknown(Problem),
    /// A plan, read completely.
    Parsed(Document),
    /// A plan with a problem.
    Halted(Problem),
}

impl Reading {
    /// The state's name: `empty`, `unknown`, `parsed`, `halted`.
    pub(crate) fn state(&self) -> &'static str {
        match self {
            Reading::Empty => "empty",
            Reading::Unknown(_) => "unknown",
            Reading::Parsed(_) => "parsed",
            Reading::Halted(_) => "halted",
        }
    }

    /// The problem of a text that is not a valid plan.
    pub(crate) fn problem(&self) -> Option<&Problem> {
        match self {
            Reading::Unknown(problem) | Reading::Halted(problem) => Some(problem),
            Reading::Empty | Reading::Parsed(_) => None,
        }
    }
}

/// One line as read: its number (1-based) and its text without a trailing
/// `\r`, spaces and tabs.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    number: usize,
    text: &'a str,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.text.is_empty()
    }
}

/// Reads `text` against `limits`.
pub fn read(text: &str, limits: &Limits) -> Reading {
    match scan(text, limits) {
        Ok(Some(document)) => Reading::Parsed(document),
        Ok(None) => Reading::Empty,
        Err(Halt::Unknown(problem)) => Reading::Unknown(problem),
        Err(Halt::Halted(problem)) => Reading::Halted(problem),
    }
}

enum Halt {
    Unknown(Problem),
    Halted(Problem),
}

fn halt(line: usize, message: impl Into<String>) -> Halt {
    Halt::Halted(Problem::new(line, message))
}

/// The lines of `text` with trailing `\r`, spaces and tabs removed, after
/// the checks that come first: size and control characters.
fn lines_of<'a>(text: &'a str, limits: &Limits) -> Result<Vec<Line<'a>>, Halt> {
    if text.len() > limits.max_input_bytes {
        return Err(halt(
            1,
            format!(
                "the description is {} bytes; the limit is {}",
                text.len(),
                limits.max_input_bytes
            ),
        ));
    }
    let mut lines = Vec::new();
    for (index, raw) in text.split('\n').enumerate() {
        let number = index + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(c) = raw.chars().find(|&c| grammar::is_forbidden_control(c)) {
            return Err(halt(
                number,
                format!(
                    "the control character {} is not allowed (only newline, and tab in description lines)",
                    grammar::code(c)
                ),
            ));
        }
        lines.push(Line {
            number,
            text: raw.trim_end_matches([' ', '\t']),
        });
    }
    Ok(lines)
}

/// The forward scan; `Ok(None)` is an empty description.
fn scan(text: &str, limits: &Limits) -> Result<Option<Document>, Halt> {
    let lines = lines_of(text, limits)?;
    let mut cursor = Cursor {
        lines: &lines,
        at: 0,
    };
    cursor.skip_blank();
    let Some(first) = cursor.next() else {
        return Ok(None);
    };
    let Some(loose) = grammar::loose_header(first.text) else {
        return Err(Halt::Unknown(Problem::new(
            first.number,
            "the first line is not a header \"type(scope): title\"; the description is free text, not a plan",
        )));
    };
    let header = grammar::strict_header(&loose, limits.max_title_length)
        .map_err(|message| halt(first.number, message))?;
    let mut document = Document::new(header);
    if let Some(line) = cursor.peek().filter(|l| !l.is_blank()) {
        return Err(halt(line.number, "expected an empty line after the header"));
    }
    cursor.skip_blank();
    document.description = description(&mut cursor)?;
    sections(&mut cursor, &mut document, limits)?;
    Ok(Some(document))
}

struct Cursor<'l, 'a> {
    lines: &'l [Line<'a>],
    at: usize,
}

impl<'a> Cursor<'_, 'a> {
    fn peek(&self) -> Option<Line<'a>> {
        self.lines.get(self.at).copied()
    }

    fn next(&mut self) -> Option<Line<'a>> {
        let line = self.peek()?;
        self.at += 1;
        Some(line)
    }

    fn skip_blank(&mut self) {
        while self.peek().is_some_and(|l| l.is_blank()) {
            self.at += 1;
        }
    }

    /// Whether the line before the current one is blank.
    fn after_blank(&self) -> bool {
        self.at
            .checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .is_some_and(|l| l.is_blank())
    }
}

/// The description: every line up to the first structure line, which must
/// follow an empty line; blank runs read as one, blank ends trimmed.
fn description(cursor: &mut Cursor<'_, '_>) -> Result<Option<String>, Halt> {
    let mut kept: Vec<&str> = Vec::new();
    while let Some(line) = cursor.peek() {
        if let Some(kind) = grammar::structure(line.text) {
            if !cursor.after_blank() {
                return Err(halt(
                    line.number,
                    format!(
                        "expected an empty line before {}; a section starts after an empty line",
                        kind.name()
                    ),
                ));
            }
            break;
        }
        let collapsed = line.is_blank() && kept.last().is_some_and(|l| l.is_empty());
        if !collapsed {
            kept.push(line.text);
        }
        cursor.at += 1;
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    Ok((!kept.is_empty()).then(|| kept.join("\n")))
}

/// Where the scan is after the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Description,
    Constraints,
    Tasks,
    Direction,
}

/// Constraints, tasks and direction, each at most once, in that order.
fn sections(
    cursor: &mut Cursor<'_, '_>,
    document: &mut Document,
    limits: &Limits,
) -> Result<(), Halt> {
    let mut done = Section::Description;
    let mut task_lines = Vec::new();
    let mut direction_line = 0;
    loop {
        cursor.skip_blank();
        let Some(line) = cursor.peek() else {
            break;
        };
        let at = line.number;
        if done == Section::Direction {
            return Err(halt(at, "nothing may follow the direction line"));
        }
        match grammar::structure(line.text) {
            Some(Structure::Constraint) if done == Section::Description => {
                document.constraints = constraints(cursor, limits)?;
                done = Section::Constraints;
            }
            Some(Structure::Constraint) if done == Section::Constraints => {
                return Err(halt(
                    at,
                    "the constraints must be one block without empty lines; this line starts a second one",
                ));
            }
            Some(Structure::Constraint) => {
                return Err(halt(at, "constraints must come before the tasks"));
            }
            Some(Structure::Task) if done < Section::Tasks => {
                task_lines = task_block(cursor, limits)?;
                done = Section::Tasks;
            }
            Some(Structure::Task) => {
                return Err(halt(
                    at,
                    "the tasks must be one block without empty lines; this line starts a second one",
                ));
            }
            Some(Structure::Direction) => {
                let Some(direction) = grammar::direction(line.text) else {
                    return Err(halt(
                        at,
                        format!(
                            "unknown direction \"{}\"; expected ~~~ EXECUTE ~~~ or ~~~ COMPLETE ~~~",
                            crate::runtime::text::clip(line.text)
                        ),
                    ));
                };
                if done != Section::Tasks {
                    return Err(halt(
                        at,
                        "a direction line without tasks; a direction follows the tasks",
                    ));
                }
                document.complete = direction == super::Direction::Complete;
                direction_line = at;
                cursor.at += 1;
                done = Section::Direction;
            }
            Some(Structure::OldHeading) => {
                return Err(halt(
                    at,
                    format!(
                        "\"{}\" is a heading of the old format; call verify_plan to migrate the description",
                        line.text
                    ),
                ));
            }
            None => {
                let after = match done {
                    Section::Constraints => "the constraints",
                    _ => "the tasks",
                };
                return Err(halt(
                    at,
                    format!("text after {after}; only {} may follow", next_allowed(done)),
                ));
            }
        }
    }
    document.tasks = build_tree(&task_lines);
    if document.complete {
        let open = tasks::open_leaves(&document.tasks);
        if !open.is_empty() {
            return Err(halt(
                direction_line,
                format!(
                    "marked COMPLETE but tasks {} are open",
                    tasks::path_list(&open)
                ),
            ));
        }
    }
    Ok(())
}

/// What may follow section `done`, for messages.
fn next_allowed(done: Section) -> &'static str {
    match done {
        Section::Description | Section::Constraints => "an empty line and the tasks",
        Section::Tasks | Section::Direction => "an empty line and the direction",
    }
}

/// One block of constraint lines.
fn constraints(
    cursor: &mut Cursor<'_, '_>,
    limits: &Limits,
) -> Result<Vec<super::Constraint>, Halt> {
    let mut out = Vec::new();
    while let Some(line) = cursor.peek().filter(|l| !l.is_blank()) {
        if let Some(kind @ (Structure::Task | Structure::Direction)) = grammar::structure(line.text)
        {
            return Err(halt(
                line.number,
                format!("expected an empty line before {}", kind.name()),
            ));
        }
        let constraint = grammar::constraint_line(line.text, limits.max_item_length)
            .map_err(|message| halt(line.number, message))?;
        out.push(constraint);
        cursor.at += 1;
    }
    Ok(out)
}

/// One task line as read.
struct Read<'a> {
    level: usize,
    done: bool,
    text: &'a str,
}

/// One block of task lines, checked for indentation and depth.
fn task_block<'a>(cursor: &mut Cursor<'_, 'a>, limits: &Limits) -> Result<Vec<Read<'a>>, Halt> {
    let mut out: Vec<Read<'a>> = Vec::new();
    while let Some(line) = cursor.peek().filter(|l| !l.is_blank()) {
        match grammar::structure(line.text) {
            Some(Structure::Direction) => {
                return Err(halt(
                    line.number,
                    "expected an empty line before the direction line",
                ));
            }
            Some(Structure::Constraint) => {
                return Err(halt(line.number, "constraints must come before the tasks"));
            }
            _ => {}
        }
        let task = grammar::task_line(line.text, limits.max_item_length)
            .map_err(|message| halt(line.number, message))?;
        let allowed = out.last().map_or(0, |above| above.level + 1);
        if task.level > allowed {
            let message = match out.is_empty() {
                true => "the first task must not be indented".to_owned(),
                false => format!(
                    "the task is at level {} under a task at level {}; a subtask is indented two spaces more than its parent",
                    task.level + 1,
                    allowed
                ),
            };
            return Err(halt(line.number, message));
        }
        if task.level >= limits.max_depth {
            return Err(halt(
                line.number,
                format!(
                    "the task is at depth {}; the limit is {}",
                    task.level + 1,
                    limits.max_depth
                ),
            ));
        }
        if out.len() == limits.max_tasks {
            return Err(halt(
                line.number,
                format!(
                    "too many tasks; the limit is {} (all levels counted)",
                    limits.max_tasks
                ),
            ));
        }
        out.push(Read {
            level: task.level,
            done: task.done,
            text: task.text,
        });
        cursor.at += 1;
    }
    Ok(out)
}

/// The tree of a checked task block, parent boxes derived.
fn build_tree(lines: &[Read<'_>]) -> Vec<Task> {
    // A stack of open parents: each entry holds the tasks of one level.
    let mut stack: Vec<Vec<Task>> = vec![Vec::new()];
    for line in lines {
        while stack.len() > line.level + 1 {
            close_level(&mut stack);
        }
        if let Some(level) = stack.last_mut() {
            level.push(Task {
                text: line.text.to_owned(),
                done: line.done,
                subtasks: Vec::new(),
            });
        }
        stack.push(Vec::new());
    }
    while stack.len() > 1 {
        close_level(&mut stack);
    }
    let mut tasks = stack.pop().unwrap_or_default();
    tasks::derive_boxes(&mut tasks);
    tasks
}

/// Moves the innermost level into the last task of the level above.
fn close_level(stack: &mut Vec<Vec<Task>>) {
    let Some(children) = stack.pop() else {
        return;
    };
    if let Some(parent) = stack.last_mut().and_then(|level| level.last_mut()) {
        parent.subtasks = children;
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
