// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Test helpers: boards, a clock in whole minutes, and the team's changes
//! applied as the MCP face applies them (expiries first, one edit).

use std::time::{Duration, SystemTime};

use super::claims::{self, Target};
use super::error::TeamError;
use super::evidence::{EvidenceInput, EvidenceRule};
use super::links;
use super::review::ReviewRule;
use super::view::View;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::{Board, Limits, NewTask, Status, TaskId};

/// Minute `n` of a fixed day (2027-01-15T08:00:00Z + n minutes).
pub(crate) fn at(n: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + n * 60)
}

/// The ID of a task titled `title` with no description.
pub(crate) fn id(title: &str) -> TaskId {
    TaskId::from_content(title, "")
}

/// A board with a goal and these tasks (no descriptions).
pub(crate) fn board(titles: &[&str]) -> Board {
    let limits = Limits {
        max_tasks: titles.len().max(100),
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board.set_goal("Ship it", "the release").unwrap();
    if !titles.is_empty() {
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
    }
    board
}

/// Applies a team decision at `now` as the MCP face does.
pub(crate) fn apply<T>(
    board: &mut Board,
    now: SystemTime,
    decide: impl FnOnce(View<'_>) -> Result<(Vec<Edit>, T), TeamError>,
) -> Result<T, TeamError> {
    let view = View::new(board, now);
    let (mut edits, _) = claims::expiries(view);
    let (more, outcome) = decide(view)?;
    edits.extend(more);
    let _ = board.edit(now, edits)?;
    Ok(outcome)
}

/// `agent` claims task `title` at minute `minute` for 15 minutes.
pub(crate) fn claim(board: &mut Board, minute: u64, agent: &str, title: &str) {
    let task = id(title).to_string();
    let lease = Duration::from_secs(15 * 60);
    apply(board, at(minute), |v| {
        claims::claim(v, agent, Target::Task(&task), lease, false)
    })
    .unwrap();
}

/// `agent` releases task `title` as `status` at minute `minute`, with
/// `evidence`.
pub(crate) fn release(
    board: &mut Board,
    minute: u64,
    agent: &str,
    title: &str,
    status: Status,
    evidence: EvidenceInput<'_>,
) {
    let task = id(title).to_string();
    apply(board, at(minute), |v| {
        let evidence = evidence.check(agent, at(minute), status)?;
        claims::release(
            v,
            agent,
            &task,
            status.as_str(),
            evidence,
            EvidenceRule::Optional,
            ReviewRule::Off,
        )
    })
    .unwrap();
}

/// Task `task` waits for `blockers`.
pub(crate) fn link(board: &mut Board, task: &str, blockers: &[&str]) {
    let blockers: Vec<String> = blockers.iter().map(|t| id(t).to_string()).collect();
    let task = id(task).to_string();
    apply(board, at(0), |v| links::link(v, &task, &blockers)).unwrap();
}
