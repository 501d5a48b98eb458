// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's notes for the agents (docs/review.md): a note on a task
//! reaches the agent that holds it, a note on the board the next agent
//! that calls; either is carried once, as the first line of that agent's
//! next reply, and is then *told* (kept, with the agent it reached). The
//! digest lists the notes no agent has read yet.

use super::claims::task;
use super::error::TeamError;
use super::evidence::MAX_TEXT_CHARS;
use super::text::{self, flat};
use super::view::View;
use crate::runtime::text::escaped;
use crate::toolsets::planning::coordination::{Edit, Note};
use crate::toolsets::planning::domain::TaskId;

/// The person `by` leaves a note saying `text`, on task `task_id` (for
/// the agent that holds it, now or next) or, with `None`, on the board
/// (for the next agent that calls). Returns its number.
pub(crate) fn leave(
    view: View<'_>,
    task_id: Option<&str>,
    by: &str,
    note: &str,
) -> Result<(Vec<Edit>, u64), TeamError> {
    let by = by.trim();
    text::check_line("name of who leaves a note", by, text::MAX_AGENT_CHARS)?;
    let note = note.trim();
    text::check_line("note", note, MAX_TEXT_CHARS)?;
    let task = match task_id {
        Some(id) => Some(task(view.board, id)?.id),
        None => None,
    };
    let n = view.board.coordination().next_note();
    let left = Note {
        task,
        by: by.to_owned(),
        at: view.now,
        text: note.to_owned(),
        told: None,
    };
    Ok((vec![Edit::Note(n, Some(left))], n))
}

/// The notes `agent`'s reply carries now: the untold notes on the tasks it
/// holds, or `held` before the call (a release ends the claim the note was
/// for), and on the board, oldest first.
pub(crate) fn due<'a>(view: View<'a>, agent: &str, held: &[TaskId]) -> Vec<(u64, &'a Note)> {
    view.board
        .coordination()
        .notes()
        .filter(|(_, note)| note.told.is_none())
        .filter(|(_, note)| match note.task {
            None => true,
            Some(id) => {
                held.contains(&id) || view.claim(id).is_some_and(|claim| claim.holder == agent)
            }
        })
        .collect()
}

/// The tasks `agent` holds that have an untold note: what its reply must
/// still carry when the call releases them. `None` when no note on the
/// board is untold, so that a call's reply need not look again.
pub(crate) fn held_with_notes(view: View<'_>, agent: &str) -> Option<Vec<TaskId>> {
    let mut untold = view
        .board
        .coordination()
        .notes()
        .filter(|(_, note)| note.told.is_none())
        .peekable();
    untold.peek()?;
    Some(
        untold
            .filter_map(|(_, note)| note.task)
            .filter(|id| view.claim(*id).is_some_and(|claim| claim.holder == agent))
            .collect(),
    )
}

/// The edits that mark `due` told to `agent`.
pub(crate) fn told(due: &[(u64, &Note)], agent: &str) -> Vec<Edit> {
    due.iter()
        .map(|(n, note)| {
            Edit::Note(
                *n,
                Some(Note {
                    told: Some(agent.to_owned()),
                    ..(*note).clone()
                }),
            )
        })
        .collect()
}

/// The line that carries a note to an agent, e.g. `NOTE from ada (a
/// person) on [a46f8d35]: use the new lexer API` (`on the board` for a
/// note on the board).
pub(crate) fn line(note: &Note) -> String {
    format!(
        "NOTE from {} (a person) {}: {}",
        escaped(&note.by),
        on(note.task),
        flat(&note.text)
    )
}

/// `on [id]` or `on the board`.
pub(crate) fn on(task: Option<TaskId>) -> String {
    match task {
        Some(id) => format!("on [{id}]"),
        None => "on the board".to_owned(),
    }
}

/// The notes no agent has read yet, oldest first.
pub(crate) fn unread(view: View<'_>) -> impl Iterator<Item = (u64, &Note)> {
    view.board
        .coordination()
        .notes()
        .filter(|(_, note)| note.told.is_none())
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::toolsets::planning::domain::{Board, Limits, NewTask};
    use crate::toolsets::team::domain::claims::{self, LeasePolicy, Target};

    fn at(minutes: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(60 * minutes)
    }

    fn board_with_claim() -> (Board, TaskId) {
        let mut board = Board::new(Limits::default(), true);
        let (added, _) = board
            .add_tasks(&[NewTask::new("Parser", ""), NewTask::new("Lexer", "")])
            .unwrap();
        let id = added.added[0];
        let lease = LeasePolicy::default().lease(None).unwrap();
        let (edits, _) = claims::claim(
            View::new(&board, at(0)),
            "w1",
            Target::Task(&id.to_string()),
            lease,
            false,
        )
        .unwrap();
        let _ = board.edit(at(0), edits).unwrap();
        (board, id)
    }

    #[test]
    fn a_task_note_reaches_its_holder_once_and_a_board_note_anyone() {
        let (mut board, id) = board_with_claim();
        let (edits, n) = leave(
            View::new(&board, at(1)),
            Some(&id.to_string()),
            "ada",
            "use v2",
        )
        .unwrap();
        assert_eq!(n, 1);
        let _ = board.edit(at(1), edits).unwrap();
        let (edits, n) = leave(View::new(&board, at(1)), None, "ada", "stop at 5").unwrap();
        assert_eq!(n, 2);
        let _ = board.edit(at(1), edits).unwrap();
        let view = View::new(&board, at(2));
        assert_eq!(
            due(view, "w2", &[]).len(),
            1,
            "w2 holds nothing: only the board note"
        );
        assert_eq!(held_with_notes(view, "w1"), Some(vec![id]));
        assert_eq!(
            due(view, "w2", &[id]).len(),
            2,
            "held before the call (then released): the task's note is due too"
        );
        let for_w1 = due(view, "w1", &[]);
        assert_eq!(for_w1.len(), 2);
        assert_eq!(
            line(for_w1[0].1),
            format!("NOTE from ada (a person) on [{id}]: use v2")
        );
        assert_eq!(
            line(for_w1[1].1),
            "NOTE from ada (a person) on the board: stop at 5"
        );
        let edits = told(&for_w1, "w1");
        let _ = board.edit(at(2), edits).unwrap();
        let view = View::new(&board, at(3));
        assert!(due(view, "w1", &[]).is_empty(), "told once");
        assert_eq!(unread(view).count(), 0);
    }

    #[test]
    fn a_note_needs_words_and_a_task_on_the_board() {
        let (board, _) = board_with_claim();
        let view = View::new(&board, at(1));
        assert!(matches!(
            leave(view, None, "ada", " "),
            Err(TeamError::Text { .. })
        ));
        assert!(leave(view, Some("ffffffff"), "ada", "x").is_err());
        assert!(leave(view, None, "ada", "two\nlines").is_err());
    }

    #[test]
    fn a_reworded_task_keeps_its_notes() {
        let (mut board, id) = board_with_claim();
        let (edits, _) = leave(
            View::new(&board, at(1)),
            Some(&id.to_string()),
            "ada",
            "use v2",
        )
        .unwrap();
        let _ = board.edit(at(1), edits).unwrap();
        let _ = board
            .modify_task(&id.to_string(), Some("Parser v2"), None)
            .unwrap();
        let new = TaskId::from_content("Parser v2", "");
        let view = View::new(&board, at(2));
        let due = due(view, "w1", &[]);
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].1.task, Some(new));
    }
}
