// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Links between tasks: a task waits for (is blocked by) other tasks and is
//! ready only when they are all completed. Links never name a task that is
//! not on the board and never close a cycle: a link that would is refused
//! with the cycle's path.

use std::collections::BTreeSet;

use super::claims::task;
use super::error::TeamError;
use super::view::View;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::{BoardError, TaskId};

/// The most tasks one task may wait for.
pub(crate) const MAX_BLOCKERS: usize = 100;

/// Links task `id` to `blockers` (it waits for each): all or nothing.
/// Links already there are kept as they are.
pub fn link(
    view: View<'_>,
    id: &str,
    blockers: &[String],
) -> Result<(Vec<Edit>, TaskId), TeamError> {
    let (task, blockers) = resolve(view, id, blockers)?;
    let coordination = view.board.coordination();
    let existing = coordination.blockers(task);
    let new: Vec<TaskId> = blockers
        .into_iter()
        .filter(|blocker| !existing.contains(blocker))
        .collect();
    if let Some(&blocker) = new.iter().find(|blocker| **blocker == task) {
        return Err(TeamError::SelfLink(blocker));
    }
    let count = existing.len() + new.len();
    if count > MAX_BLOCKERS {
        return Err(TeamError::TooManyLinks {
            id: task,
            count,
            max: MAX_BLOCKERS,
        });
    }
    // Every new link starts at `task`, so a cycle through one of them runs
    // back to `task` through links that are already there.
    for &blocker in &new {
        if let Some(path) = coordination.path(blocker, task) {
            let mut cycle = vec![task];
            cycle.extend(path);
            return Err(TeamError::Cycle(cycle));
        }
    }
    let edits = new
        .into_iter()
        .map(|blocker| Edit::Link { task, blocker })
        .collect();
    Ok((edits, task))
}

/// Removes the links from task `id` to `blockers`: all or nothing, each
/// must be there.
pub(crate) fn unlink(
    view: View<'_>,
    id: &str,
    blockers: &[String],
) -> Result<(Vec<Edit>, TaskId), TeamError> {
    let (task, blockers) = resolve(view, id, blockers)?;
    let existing = view.board.coordination().blockers(task);
    let missing: Vec<TaskId> = blockers
        .iter()
        .copied()
        .filter(|blocker| !existing.contains(blocker))
        .collect();
    if !missing.is_empty() {
        return Err(TeamError::NotLinked { id: task, missing });
    }
    let edits = blockers
        .into_iter()
        .map(|blocker| Edit::Unlink { task, blocker })
        .collect();
    Ok((edits, task))
}

/// The task and the blockers a request names, every unknown ID listed.
fn resolve(
    view: View<'_>,
    id: &str,
    blockers: &[String],
) -> Result<(TaskId, BTreeSet<TaskId>), TeamError> {
    if blockers.is_empty() {
        return Err(BoardError::EmptyRequest("blocker IDs").into());
    }
    let mut unknown: Vec<String> = Vec::new();
    let task = task(view.board, id).map_err(|_| unknown.push(id.to_owned()));
    let mut resolved = BTreeSet::new();
    for blocker in blockers {
        match super::claims::task(view.board, blocker) {
            Ok(found) => {
                resolved.insert(found.id);
            }
            Err(_) if !unknown.contains(blocker) => unknown.push(blocker.clone()),
            Err(_) => {}
        }
    }
    match task {
        Ok(task) if unknown.is_empty() => Ok((task.id, resolved)),
        _ => Err(BoardError::UnknownTasks(unknown).into()),
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::toolsets::planning::domain::{Board, Limits, NewTask};

    fn id(title: &str) -> TaskId {
        TaskId::from_content(title, "")
    }

    fn board(titles: &[&str]) -> Board {
        let limits = Limits {
            max_tasks: 1000,
            ..Limits::default()
        };
        let mut board = Board::new(limits, true);
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    type Decide = fn(View<'_>, &str, &[String]) -> Result<(Vec<Edit>, TaskId), TeamError>;

    fn apply(board: &mut Board, f: Decide, task: &str, blockers: &[&str]) -> Result<(), TeamError> {
        let blockers: Vec<String> = blockers.iter().map(|t| id(t).to_string()).collect();
        let (edits, _) = f(
            View::new(board, SystemTime::UNIX_EPOCH),
            &id(task).to_string(),
            &blockers,
        )?;
        let _ = board.edit(SystemTime::UNIX_EPOCH, edits)?;
        Ok(())
    }

    #[test]
    fn cycles_are_refused_with_their_path() {
        let mut board = board(&["a", "b", "c", "d"]);
        apply(&mut board, link, "a", &["b"]).unwrap();
        apply(&mut board, link, "b", &["c"]).unwrap();
        apply(&mut board, link, "c", &["d"]).unwrap();
        let before = board.clone();
        let error = apply(&mut board, link, "d", &["a"]).unwrap_err();
        assert_eq!(
            error,
            TeamError::Cycle(vec![id("d"), id("a"), id("b"), id("c"), id("d")])
        );
        assert_eq!(board, before, "nothing changed");
        assert_eq!(
            apply(&mut board, link, "a", &["a"]).unwrap_err(),
            TeamError::SelfLink(id("a"))
        );
        // Linking again is no change; a diamond is no cycle.
        apply(&mut board, link, "a", &["b", "c"]).unwrap();
        assert_eq!(board.coordination().link_count(), 4);
    }

    #[test]
    fn unknown_ids_are_all_named_and_unlinking_needs_a_link() {
        let mut board = board(&["a", "b"]);
        let view = View::new(&board, SystemTime::UNIX_EPOCH);
        let error = link(view, "nope", &["b".into(), "ffffffff".into(), "b".into()]).unwrap_err();
        assert_eq!(
            error,
            TeamError::Board(BoardError::UnknownTasks(vec![
                "nope".into(),
                "b".into(),
                "ffffffff".into()
            ]))
        );
        assert_eq!(
            link(view, &id("a").to_string(), &[]).unwrap_err(),
            TeamError::Board(BoardError::EmptyRequest("blocker IDs"))
        );
        assert_eq!(
            apply(&mut board, unlink, "a", &["b"]).unwrap_err(),
            TeamError::NotLinked {
                id: id("a"),
                missing: vec![id("b")]
            }
        );
        apply(&mut board, link, "a", &["b"]).unwrap();
        apply(&mut board, unlink, "a", &["b"]).unwrap();
        assert_eq!(board.coordination().link_count(), 0);
    }

    #[test]
    fn a_task_waits_for_at_most_the_limit() {
        let titles: Vec<String> = (0..=MAX_BLOCKERS + 1).map(|n| n.to_string()).collect();
        let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
        let mut board = board(&refs);
        let blockers = &refs[1..=MAX_BLOCKERS];
        apply(&mut board, link, "0", blockers).unwrap();
        assert_eq!(
            apply(&mut board, link, "0", &[refs[MAX_BLOCKERS + 1]]).unwrap_err(),
            TeamError::TooManyLinks {
                id: id("0"),
                count: MAX_BLOCKERS + 1,
                max: MAX_BLOCKERS
            }
        );
    }
}
