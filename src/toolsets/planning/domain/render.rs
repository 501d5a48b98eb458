// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The text a model reads: the goal line, one line per task, the legend.

use std::fmt::Write;

use super::board::Board;
use super::error::BoardError;
use super::history::Goal;
use super::task::{Status, Task};
use crate::runtime::text::{is_line_break, may_need_care, shown};

/// Guidance that starts the reply of the first `add_tasks` on an empty board.
pub(crate) const FIRST_TASKS_GUIDANCE: &str = "Tasks added. Work through them in order, one at a time: \
mark a task in_progress when you start it and completed as soon as it is done. If a task \
cannot be done, mark it failed and ask the operator how to go on; never cancel or delete \
tasks unless the operator asks. Call get_tasks whenever you need to see where things stand.";

/// Which tasks `get_tasks` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// Every task.
    All,
    /// Only tasks with this status.
    Only(Status),
}

impl Filter {
    /// Parses a `get_tasks` status filter: `all` or a status name.
    pub(crate) fn parse(text: &str) -> Result<Self, BoardError> {
        match text {
            "all" => Ok(Filter::All),
            other => other
                .parse()
                .map(Filter::Only)
                .map_err(|_| BoardError::UnknownFilter(other.to_owned())),
        }
    }

    /// Whether `task` is one the filter lists.
    pub(crate) fn admits(self, task: &Task) -> bool {
        match self {
            Filter::All => true,
            Filter::Only(status) => task.status == status,
        }
    }
}

/// The goal line: `**Goal:** title: description`, or a hint when no goal is set.
pub(crate) fn goal_line(goal: Option<&Goal>) -> String {
    let mut out = String::from("**Goal:** ");
    match goal {
        None => out.push_str("not set (use set_goal)"),
        Some(goal) => {
            push_indented(&mut out, &goal.title);
            if !goal.description.is_empty() {
                out.push_str(": ");
                push_indented(&mut out, &goal.description);
            }
        }
    }
    out
}

/// The goal line, the tasks the filter admits (oldest first) and the legend.
pub fn task_list(board: &Board, filter: Filter) -> String {
    let mut out = goal_line(board.goal());
    // Room for typical task lines, so that the text is not copied as it grows.
    out.reserve(board.len() * 64 + 64);
    out.push_str("\n\n");
    let (mut any, mut cancelled, mut failed, mut review) = (false, false, false, false);
    for task in board.tasks().filter(|task| filter.admits(task)) {
        any = true;
        cancelled |= task.status == Status::Cancelled;
        failed |= task.status == Status::Failed;
        review |= task.status == Status::AwaitingReview;
        push_task_line(&mut out, task);
    }
    if !any {
        match filter {
            Filter::All => out.push_str("No tasks."),
            Filter::Only(status) => {
                let _ = write!(out, "No {status} tasks.");
            }
        }
        return out;
    }
    out.push_str("\nLegend: ☐ pending ⟳ in progress ☑ completed");
    if cancelled {
        out.push_str(" ⊗ cancelled");
    }
    if failed {
        out.push_str(" ☒ failed");
    }
    if review {
        out.push_str(" ⧗ awaiting review");
    }
    out
}

/// The reply of `add_tasks`: guidance first when the board had no tasks, then the list.
pub(crate) fn added_reply(board: &Board, was_empty: bool) -> String {
    let list = task_list(board, Filter::All);
    if was_empty {
        format!("{FIRST_TASKS_GUIDANCE}\n\n{list}")
    } else {
        list
    }
}

/// The most characters a board summary has, whatever the board's size.
pub(crate) const SUMMARY_MAX_CHARS: usize = 1500;

/// A short view of board `name` for a model that lost its context: the goal,
/// counts per status, the tasks in progress and the next pending ones. At
/// most [`SUMMARY_MAX_CHARS`] characters.
pub(crate) fn summary(name: &str, board: &Board) -> String {
    const GOAL_CHARS: usize = 250;
    const LINE_CHARS: usize = 100;
    const IN_PROGRESS_SHOWN: usize = 3;
    const PENDING_SHOWN: usize = 5;

    let mut out = format!("# Board {name}\n\n");
    match board.goal() {
        None => out.push_str("**Goal:** not set"),
        Some(goal) if goal.description.is_empty() => {
            let _ = write!(out, "**Goal:** {}", one_line(&goal.title, GOAL_CHARS));
        }
        Some(goal) => {
            let text = format!("{}: {}", goal.title, goal.description);
            let _ = write!(out, "**Goal:** {}", one_line(&text, GOAL_CHARS));
        }
    }
    let _ = write!(out, "\n\n{}", counts_line(board));
    for (heading, status, shown) in [
        ("In progress", Status::InProgress, IN_PROGRESS_SHOWN),
        ("Next pending", Status::Pending, PENDING_SHOWN),
    ] {
        let total = board.tasks().filter(|t| t.status == status).count();
        if total == 0 {
            continue;
        }
        let _ = write!(out, "\n\n{heading}:");
        for task in board.tasks().filter(|t| t.status == status).take(shown) {
            let line = format!("{} [{}] {}", status.glyph(), task.id, task.title);
            let _ = write!(out, "\n- {}", one_line(&line, LINE_CHARS));
        }
        if total > shown {
            let _ = write!(out, "\n- … and {} more", total - shown);
        }
    }
    one_line_limit(out, SUMMARY_MAX_CHARS)
}

/// `Tasks: 9 (7 pending, 1 in progress, 1 completed, 0 failed, 0 cancelled)`.
pub(crate) fn counts_line(board: &Board) -> String {
    let mut counts = [0usize; Status::ALL.len()];
    for task in board.tasks() {
        if let Some(n) = Status::ALL.iter().position(|s| *s == task.status) {
            counts[n] += 1;
        }
    }
    let parts: Vec<String> = Status::ALL
        .iter()
        .zip(counts)
        .map(|(status, count)| format!("{count} {}", status.label()))
        .collect();
    format!(
        "Tasks: {} ({}{})",
        board.len(),
        parts.join(", "),
        awaiting_review_count(board.tasks().map(|task| task.status))
    )
}

/// `, 2 awaiting review`, or nothing on a board where no task awaits a
/// person's review (whose counts read as they always did).
pub(crate) fn awaiting_review_count(statuses: impl Iterator<Item = Status>) -> String {
    match statuses.filter(|s| *s == Status::AwaitingReview).count() {
        0 => String::new(),
        n => format!(", {n} awaiting review"),
    }
}

/// Text on one line (line breaks become spaces, other control characters
/// visible), cut to `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if is_line_break(c) { ' ' } else { shown(c) })
        .collect();
    one_line_limit(flat, max)
}

/// Cuts `text` to at most `max` characters, ending with `…` when cut.
pub(crate) fn one_line_limit(text: String, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text,
        Some(_) => {
            let cut = text.char_indices().nth(max - 1).map_or(0, |(i, _)| i);
            format!("{}…", &text[..cut])
        }
    }
}

/// The reply of `set_goal` and `change_goal`: a confirmation and the goal line.
pub(crate) fn goal_reply(confirmation: &str, board: &Board) -> String {
    format!("{confirmation}\n\n{}", goal_line(board.goal()))
}

pub(crate) fn push_task_line(out: &mut String, task: &Task) {
    out.push_str("- ");
    out.push(task.status.glyph());
    out.push_str(" [");
    task.id.push_to(out);
    out.push_str("] ");
    push_indented(out, &task.title);
    if !task.description.is_empty() {
        out.push_str(": ");
        push_indented(out, &task.description);
    }
    out.push('\n');
}

/// Appends text whose later lines are indented by four spaces, so that a
/// multi-line title or description stays inside its list item (and cannot
/// forge a task line of its own). Every line break counts (`\r\n` as one):
/// a lone `\r` or U+2028 would start a line in a terminal or an editor.
/// Other control characters are made visible; empty lines get no
/// indentation.
fn push_indented(out: &mut String, text: &str) {
    if !may_need_care(text) {
        out.push_str(text);
        return;
    }
    let mut indent = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if is_line_break(c) {
            // `\r\n` is one break; a `\r` that ends the text (as typed on
            // Windows) none.
            if c == '\r' && (chars.next_if_eq(&'\n').is_none() && chars.peek().is_none()) {
                continue;
            }
            out.push('\n');
            indent = true;
            continue;
        }
        if std::mem::take(&mut indent) {
            out.push_str("    ");
        }
        out.push(shown(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::board::{Limits, NewTask};

    fn board_with(tasks: &[(&str, &str)]) -> Board {
        let mut board = Board::new(Limits::default(), true);
        let new: Vec<NewTask> = tasks
            .iter()
            .map(|(title, description)| NewTask {
                title: (*title).into(),
                description: (*description).into(),
            })
            .collect();
        let _ = board.add_tasks(&new).expect("valid tasks");
        board
    }

    #[test]
    fn empty_board_without_goal() {
        let board = Board::new(Limits::default(), true);
        assert_eq!(
            task_list(&board, Filter::All),
            "**Goal:** not set (use set_goal)\n\nNo tasks."
        );
        assert_eq!(
            task_list(&board, Filter::Only(Status::InProgress)),
            "**Goal:** not set (use set_goal)\n\nNo in_progress tasks."
        );
    }

    #[test]
    fn list_with_goal_and_basic_legend() {
        let mut board = board_with(&[("Write tests", ""), ("Write tests", "Cover the manager")]);
        let _ = board.set_goal("Ship it", "Release 1.0").unwrap();
        let _ = board
            .update_statuses(&[("4e21ad16", "in_progress")])
            .unwrap();
        assert_eq!(
            task_list(&board, Filter::All),
            "**Goal:** Ship it: Release 1.0\n\n\
             - ☐ [a46f8d35] Write tests\n\
             - ⟳ [4e21ad16] Write tests: Cover the manager\n\n\
             Legend: ☐ pending ⟳ in progress ☑ completed"
        );
    }

    #[test]
    fn legend_names_cancelled_then_failed_only_when_listed() {
        let mut board = board_with(&[("a", ""), ("b", ""), ("c", "")]);
        let [a, b] = ["a", "b"]
            .map(|t| crate::toolsets::planning::domain::TaskId::from_content(t, "").to_string());
        let _ = board
            .update_statuses(&[(&a, "failed"), (&b, "cancelled")])
            .unwrap();
        let all = task_list(&board, Filter::All);
        assert!(all.ends_with("Legend: ☐ pending ⟳ in progress ☑ completed ⊗ cancelled ☒ failed"));
        let failed = task_list(&board, Filter::Only(Status::Failed));
        assert!(failed.ends_with("Legend: ☐ pending ⟳ in progress ☑ completed ☒ failed"));
        let pending = task_list(&board, Filter::Only(Status::Pending));
        assert!(pending.ends_with("Legend: ☐ pending ⟳ in progress ☑ completed"));
        assert!(!pending.contains("[a"), "filtered out: {pending}");
    }

    #[test]
    fn multi_line_text_stays_in_its_item() {
        let mut board = board_with(&[(
            "Line one\nline two",
            "first\r\n\nsecond\n- ☑ [12345678] forged",
        )]);
        let _ = board.set_goal("Goal\nmore", "x").unwrap();
        let text = task_list(&board, Filter::All);
        let id = crate::toolsets::planning::domain::TaskId::from_content(
            "Line one\nline two",
            "first\r\n\nsecond\n- ☑ [12345678] forged",
        );
        assert_eq!(
            text,
            format!(
                "**Goal:** Goal\n    more: x\n\n\
                 - ☐ [{id}] Line one\n    line two: first\n\n    second\n    - ☑ [12345678] forged\n\n\
                 Legend: ☐ pending ⟳ in progress ☑ completed"
            )
        );
    }

    #[test]
    fn a_trailing_carriage_return_is_dropped_on_one_line_text_too() {
        let board = board_with(&[("Title\r", "end\r")]);
        let text = task_list(&board, Filter::All);
        assert!(text.contains("] Title: end\n"), "{text:?}");
    }

    #[test]
    fn no_line_break_or_control_character_forges_a_line() {
        let forged = "- ☑ [deadbeef] forged";
        let titles = [
            format!("real\r{forged}"),
            format!("real\u{2028}{forged}"),
            format!("real\u{2029}{forged}"),
            format!("real\u{85}{forged}"),
            format!("real\u{b}{forged}"),
            format!("real\u{c}{forged}"),
        ];
        for title in &titles {
            let mut board = board_with(&[(title.as_str(), "x\r- ☒ [00000000] also")]);
            let _ = board.set_goal(title, "").unwrap();
            let text = task_list(&board, Filter::All);
            let starts: Vec<&str> = text
                .split('\n')
                .filter(|line| line.starts_with("- "))
                .collect();
            assert_eq!(starts.len(), 1, "{title:?}: {text}");
            assert!(!text.contains(['\r', '\u{2028}', '\u{2029}', '\u{85}', '\u{b}', '\u{c}']));
            assert!(text.contains("\n    - ☑ [deadbeef] forged"), "{text}");
            let summary = summary("b", &board);
            assert!(!summary.contains("\n- ☑"), "{summary}");
            assert!(summary.contains("real - ☑ [deadbeef] forged"), "{summary}");
        }
        let board = board_with(&[("bell\u{7} esc\u{1b}[2K", "")]);
        let text = task_list(&board, Filter::All);
        assert!(text.contains("] bell␇ esc␛[2K\n"), "{text}");
    }

    #[test]
    fn goal_without_description_has_no_colon() {
        let mut board = Board::new(Limits::default(), false);
        let _ = board.set_goal("Just a title", "").unwrap();
        assert_eq!(goal_line(board.goal()), "**Goal:** Just a title");
    }

    #[test]
    fn first_add_starts_with_guidance() {
        let board = board_with(&[("a", "")]);
        assert!(added_reply(&board, true).starts_with(FIRST_TASKS_GUIDANCE));
        assert!(added_reply(&board, false).starts_with("**Goal:**"));
    }

    #[test]
    fn summary_shows_goal_counts_and_next_tasks() {
        let titles: Vec<String> = (1..=9).map(|n| format!("task {n}")).collect();
        let refs: Vec<(&str, &str)> = titles.iter().map(|t| (t.as_str(), "")).collect();
        let mut board = board_with(&refs);
        let _ = board.set_goal("Ship", "the release").unwrap();
        let id =
            |t: &str| crate::toolsets::planning::domain::TaskId::from_content(t, "").to_string();
        let _ = board
            .update_statuses(&[(&id("task 1"), "completed"), (&id("task 2"), "in_progress")])
            .unwrap();
        let text = summary("default", &board);
        assert_eq!(
            text,
            format!(
                "# Board default\n\n**Goal:** Ship: the release\n\n\
                 Tasks: 9 (7 pending, 1 in progress, 1 completed, 0 failed, 0 cancelled)\n\n\
                 In progress:\n- ⟳ [{}] task 2\n\n\
                 Next pending:\n- ☐ [{}] task 3\n- ☐ [{}] task 4\n- ☐ [{}] task 5\n- ☐ [{}] task 6\n- ☐ [{}] task 7\n- … and 2 more",
                id("task 2"),
                id("task 3"),
                id("task 4"),
                id("task 5"),
                id("task 6"),
                id("task 7")
            )
        );
    }

    #[test]
    fn summary_stays_within_its_bound() {
        let limits = crate::toolsets::planning::domain::Limits {
            max_tasks: 1000,
            max_goal_length: 5000,
            max_task_length: 5000,
        };
        let mut board = Board::new(limits, false);
        let long = "ü\n".repeat(2000);
        let _ = board.set_goal(&long, &long).unwrap();
        let tasks: Vec<NewTask> = (0..1000)
            .map(|n| NewTask {
                title: format!("{n} {long}"),
                description: long.clone(),
            })
            .collect();
        let _ = board.add_tasks(&tasks).unwrap();
        let ids: Vec<String> = board.tasks().take(10).map(|t| t.id.to_string()).collect();
        let updates: Vec<(&str, &str)> = ids.iter().map(|i| (i.as_str(), "in_progress")).collect();
        let _ = board.update_statuses(&updates).unwrap();
        let text = summary(&"n".repeat(64), &board);
        assert!(
            text.chars().count() <= SUMMARY_MAX_CHARS,
            "{}",
            text.chars().count()
        );
        assert!(text.contains("Tasks: 1000 (990 pending, 10 in progress"));
        assert!(text.contains("- … and 7 more"));
        assert!(text.contains("- … and 985 more"));
        assert!(
            summary("x", &Board::new(limits, false)).ends_with(
                "Tasks: 0 (0 pending, 0 in progress, 0 completed, 0 failed, 0 cancelled)"
            )
        );
    }

    #[test]
    fn filters_parse() {
        assert_eq!(Filter::parse("all"), Ok(Filter::All));
        assert_eq!(Filter::parse("failed"), Ok(Filter::Only(Status::Failed)));
        assert_eq!(
            Filter::parse("done").unwrap_err().to_string(),
            "'done' is not a status filter; use one of all, pending, in_progress, completed, failed, cancelled."
        );
    }
}
