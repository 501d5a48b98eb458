// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Waves: ready tasks that can run in parallel. Walking the ready queue in
//! its ranked order (the tasks that unblock the most first, then board
//! order: [`super::unblocks`]), a task joins the wave when its touches overlap neither a
//! reservation of another agent (a live claim, a dispatch in flight) nor
//! the touches of a task already in the wave; otherwise it is held back,
//! with what it conflicts with. So no two tasks of a wave, and no task of
//! a wave and held work, can touch one path. A task that declares no
//! touches overlaps nothing.

use super::claims::nothing_ready;
use super::error::TeamError;
use super::touches::{self, Conflict, Reservation, Touches};
use super::unblocks::{self, Unblocks};
use super::view::{DispatchState, View};
use crate::toolsets::planning::domain::{Task, TaskId};

/// Which stalled tasks (dispatched, and their worker's time ran out) the
/// ready queue lists: they are ready, and a lead re-dispatches them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Stalled {
    /// Every ready task.
    #[default]
    Include,
    /// Ready tasks that are not stalled dispatches.
    Exclude,
    /// Only stalled dispatches.
    Only,
}

impl Stalled {
    /// `include`, `exclude` or `only`.
    pub(crate) fn parse(text: &str) -> Result<Self, TeamError> {
        match text {
            "include" => Ok(Self::Include),
            "exclude" => Ok(Self::Exclude),
            "only" => Ok(Self::Only),
            other => Err(TeamError::Text {
                field: "stalled filter",
                problem: format!(
                    "is '{}'; it is include, exclude or only",
                    crate::runtime::text::clip(other)
                ),
            }),
        }
    }
}

/// The most held-back tasks a wave keeps (it counts them all).
pub(crate) const HELD_BACK_KEPT: usize = 100;

/// A wave and what was held back while it was filled.
#[derive(Debug, Clone)]
pub struct Wave<'a> {
    /// The tasks that can run at once, in the ready queue's ranked order.
    pub members: Vec<&'a Task>,
    /// Ready tasks met before the wave was full that conflict with held
    /// work or with a member (at most [`HELD_BACK_KEPT`]).
    pub(crate) held_back: Vec<(&'a Task, Conflict)>,
    /// How many were held back.
    pub(crate) held_back_count: usize,
    /// How many tasks are ready (those the filter lists).
    pub ready: usize,
    /// How many tasks each ready task unblocks.
    pub(crate) unblocks: Unblocks,
}

/// The wave of at most `limit` ready tasks (as `stalled` filters them) for
/// `agent` (its own reservations do not hold its tasks back; `None`: every
/// reservation does).
pub fn wave<'a>(view: View<'a>, limit: usize, stalled: Stalled, agent: Option<&str>) -> Wave<'a> {
    let reservations = touches::reservations(view);
    let coordination = view.board.coordination();
    let (queue, unblocks) = unblocks::ranked(view);
    let mut wave = Wave {
        members: Vec::new(),
        held_back: Vec::new(),
        held_back_count: 0,
        ready: 0,
        unblocks,
    };
    let mut chosen: Vec<(TaskId, Touches)> = Vec::new();
    for task in queue {
        let is_stalled = matches!(view.dispatch(task.id), Some((_, DispatchState::Stalled)));
        let listed = match stalled {
            Stalled::Include => true,
            Stalled::Exclude => !is_stalled,
            Stalled::Only => is_stalled,
        };
        if !listed {
            continue;
        }
        wave.ready += 1;
        if wave.members.len() >= limit {
            continue;
        }
        let touches = Touches::stored(coordination.touches(task.id));
        match conflict(&reservations, &chosen, task.id, &touches, agent) {
            Some(found) => {
                wave.held_back_count += 1;
                if wave.held_back.len() < HELD_BACK_KEPT {
                    wave.held_back.push((task, found));
                }
            }
            None => {
                wave.members.push(task);
                chosen.push((task.id, touches));
            }
        }
    }
    wave
}

/// What task `task` conflicts with: a reservation of another agent, or a
/// task already chosen.
fn conflict(
    reservations: &[Reservation],
    chosen: &[(TaskId, Touches)],
    task: TaskId,
    touches: &Touches,
    agent: Option<&str>,
) -> Option<Conflict> {
    if touches.is_empty() {
        return None;
    }
    // No agent name is equal to "" (names are never blank).
    let held = touches::conflict(reservations, task, touches, agent.unwrap_or(""));
    held.or_else(|| {
        chosen.iter().find_map(|(other, theirs)| {
            Some(Conflict {
                task,
                other: *other,
                holder: None,
                overlap: touches.overlap(theirs)?,
            })
        })
    })
}

/// "The next ready task" for `agent`: the first task of its wave (the
/// top of the ranked queue that overlaps no other agent's held work), with
/// how many tasks it unblocks (counted once, by the ranking). A refusal
/// tells the caller to `verb` (`claim`, `dispatch`) a task by ID.
pub(crate) fn next<'a>(
    view: View<'a>,
    agent: &str,
    verb: &'static str,
) -> Result<(&'a Task, usize), TeamError> {
    let wave = wave(view, 1, Stalled::Include, Some(agent));
    if let Some(first) = wave.members.first() {
        return Ok((first, wave.unblocks.of(first.id)));
    }
    match wave.held_back.into_iter().next() {
        Some((_, first)) => Err(TeamError::NothingReadyWithoutOverlap {
            verb,
            ready: wave.ready,
            first: Box::new(first),
        }),
        None => Err(nothing_ready(view)),
    }
}

#[cfg(test)]
mod tests;
