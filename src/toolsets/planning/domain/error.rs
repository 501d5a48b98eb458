// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What can be wrong with a request to the board, said so that the caller can fix it.

use std::fmt;

use crate::runtime::text::clip;

use super::task::UnknownStatus;

/// A text field that the board checks for blankness and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The goal's title.
    GoalTitle,
    /// The goal's description.
    GoalDescription,
    /// The reason given for a goal change.
    Reason,
    /// A task's title.
    TaskTitle,
    /// A task's description.
    TaskDescription,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::GoalTitle => "goal title",
            Field::GoalDescription => "goal description",
            Field::Reason => "reason",
            Field::TaskTitle => "task title",
            Field::TaskDescription => "task description",
        })
    }
}

/// Which task of a batch request a field belongs to (1-based), if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position(pub(crate) Option<usize>);

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, " (task {n} of the request)"),
            None => Ok(()),
        }
    }
}

/// Why the board refused a request. A refused request changed nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// `set_goal` when a goal exists.
    #[error("A goal is already set; use change_goal to replace it, but only if the operator asks.")]
    GoalAlreadySet,
    /// `change_goal` before any goal.
    #[error("No goal is set yet; use set_goal first.")]
    NoGoal,
    /// A title or reason that is empty or only whitespace.
    #[error("The {field}{position} must not be blank.")]
    Blank {
        /// The blank field.
        field: Field,
        /// Which task of a batch, if any.
        position: Position,
    },
    /// A text longer than its configured limit, in Unicode characters.
    #[error("The {field}{position} is {actual} characters long; the limit is {max}: shorten it.")]
    TooLong {
        /// The long field.
        field: Field,
        /// Which task of a batch, if any.
        position: Position,
        /// Its length in characters.
        actual: usize,
        /// The limit in characters.
        max: usize,
    },
    /// A batch request with nothing in it.
    #[error("The request lists no {0}; give at least one.")]
    EmptyRequest(&'static str),
    /// An `add_tasks` that would take the board over `max_tasks`.
    #[error("{}", too_many_tasks(*.adding, *.current, *.max, *.room))]
    TooManyTasks {
        /// New (non-duplicate) tasks in the request.
        adding: usize,
        /// Tasks on the board now.
        current: usize,
        /// The configured limit.
        max: usize,
        /// How many could still be added.
        room: usize,
    },
    /// IDs that name no task on the board (malformed IDs included).
    #[error("{}", unknown_ids_sentence(.0))]
    UnknownTasks(Vec<String>),
    /// The old ID of a task an agent held when a person reworded it.
    #[error(
        "[{old}] was reworded by a person: it is now [{new}] (its ID follows its words; its claim moved with it); read it again (get_tasks or team_board) and call again with task_id {new}. Nothing changed."
    )]
    Reworded {
        /// The ID the caller gave.
        old: String,
        /// The task's ID now.
        new: String,
    },
    /// A status name that is not one.
    #[error("{0}.")]
    UnknownStatus(#[from] UnknownStatus),
    /// A `get_tasks` filter that is not one.
    #[error(
        "'{}' is not a status filter; use one of all, pending, in_progress, completed, failed, cancelled.",
        clip(.0)
    )]
    UnknownFilter(String),
    /// `modify_task` with neither a title nor a description.
    #[error("Give a new title, a new description, or both.")]
    NothingToModify,
    /// `add_tasks` with a task whose ID (a hash of its content) another,
    /// different task already has.
    #[error(
        "Task {number} of the request, '{}', gets the ID {id}, which the different task '{}' already has (the IDs collide); word it a little differently.",
        clip(.title),
        clip(.holder)
    )]
    IdCollision {
        /// The ID both tasks hash to.
        id: String,
        /// Which task of the request, from 1.
        number: usize,
        /// The refused task's title.
        title: String,
        /// The title of the task that has the ID.
        holder: String,
    },
    /// A planning tool asked to set `awaiting_review`, which only a
    /// completion that waits for a person's review sets.
    #[error(
        "awaiting_review is not set by hand: it is what an agent's completion becomes when the board requires a person's review (docs/review.md); use one of pending, in_progress, completed, failed, cancelled."
    )]
    ReviewStatusByHand,
    /// A planning tool asked to change a task that awaits a person's review.
    #[error(
        "[{id}] awaits a person's review: only a person approves or rejects it (planning-mcp-server board review approve|reject {id}, or the web board); nothing changed."
    )]
    AwaitsReview {
        /// The task.
        id: String,
    },
    /// A planning tool asked to complete a task on a board that requires a
    /// person's review of every completion.
    #[error(
        "This board requires a person's review of every completion: release the task you hold with release_task as completed, with evidence, and a person approves it; nothing changed."
    )]
    ReviewRequired,
    /// `modify_task` whose new content hashes to another task's ID.
    #[error(
        "The new title and description give the ID {id}, which another task already has; choose different wording."
    )]
    IdTaken {
        /// The ID that is taken.
        id: String,
    },
}

/// `1 new task`, `2 new tasks`.
fn new_tasks(n: usize) -> String {
    match n {
        1 => "1 new task".to_owned(),
        n => format!("{n} new tasks"),
    }
}

/// The refusal of an `add_tasks` over the limit. A full board says so and
/// what would make room ("add at most 0" is no advice).
fn too_many_tasks(adding: usize, current: usize, max: usize, room: usize) -> String {
    match room {
        0 => format!(
            "The board is full ({current} tasks, the limit set by planning.max_tasks): the {} \
             cannot be added. Ask the operator to delete tasks or to raise the limit.",
            new_tasks(adding)
        ),
        room => format!(
            "Adding {} to the {current} on the board would exceed the limit of {max} tasks; add at most {room}.",
            new_tasks(adding)
        ),
    }
}

fn unknown_ids_sentence(ids: &[String]) -> String {
    const MAX_LISTED: usize = 10;
    let mut listed: Vec<String> = ids
        .iter()
        .take(MAX_LISTED)
        .map(|id| format!("'{}'", clip(id)))
        .collect();
    if ids.len() > MAX_LISTED {
        listed.push(format!("and {} more", ids.len() - MAX_LISTED));
    }
    let subject = if ids.len() == 1 {
        "No task has the ID"
    } else {
        "No tasks have the IDs"
    };
    format!(
        "{subject} {}; call get_tasks to see the current IDs.",
        listed.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_ids_are_listed_and_clipped() {
        let one = BoardError::UnknownTasks(vec!["deadbeef".into()]);
        assert_eq!(
            one.to_string(),
            "No task has the ID 'deadbeef'; call get_tasks to see the current IDs."
        );
        let long = "x".repeat(100);
        let two = BoardError::UnknownTasks(vec!["a".into(), long]);
        assert_eq!(
            two.to_string(),
            format!(
                "No tasks have the IDs 'a', '{}…'; call get_tasks to see the current IDs.",
                "x".repeat(40)
            )
        );
        let many = BoardError::UnknownTasks((0..12).map(|i| i.to_string()).collect());
        assert!(many.to_string().contains("'9', and 2 more;"));
    }

    #[test]
    fn a_full_board_says_it_is_full() {
        let full = BoardError::TooManyTasks {
            adding: 1,
            current: 100,
            max: 100,
            room: 0,
        };
        assert_eq!(
            full.to_string(),
            "The board is full (100 tasks, the limit set by planning.max_tasks): the 1 new task \
             cannot be added. Ask the operator to delete tasks or to raise the limit."
        );
        let over = BoardError::TooManyTasks {
            adding: 5,
            current: 98,
            max: 100,
            room: 2,
        };
        assert_eq!(
            over.to_string(),
            "Adding 5 new tasks to the 98 on the board would exceed the limit of 100 tasks; add at most 2."
        );
        assert!(!full.to_string().contains("at most 0"));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(clip("a\nb"), "a\\nb");
    }
}
