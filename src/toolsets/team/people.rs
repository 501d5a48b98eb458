// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's hand on a board, the team's side: approving or rejecting an
//! agent's completion that awaits review ([`super::domain::review`]), as
//! one change of the shared board, the agents' path (validate, lock,
//! apply, save, notify). The terminal's `board review` and the web board
//! call it; no MCP tool does (docs/review.md).

use serde_json::json;

use super::domain::review::{self, Reviewed};
use super::domain::text::time;
use super::domain::{TeamError, View, render};
use super::domain::{claims, notes};
use crate::runtime::clock::Clock;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::coordination::person::{PersonDesk, PersonError, PersonReply};
use crate::toolsets::planning::domain::{Status, TaskId};
use crate::toolsets::planning::shared_board::SharedBoard;

/// Toolset `team`'s desk for a person, timed by the toolset's clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TeamDesk {
    /// The clock of the team's decisions (the test offset included).
    pub(crate) clock: Clock,
}

impl PersonDesk for TeamDesk {
    fn approve(
        &self,
        board: &SharedBoard,
        task_id: &str,
        by: &str,
    ) -> Result<PersonReply, PersonError> {
        decide(board, self.clock, |view| review::approve(view, task_id, by))
    }

    fn reject(
        &self,
        board: &SharedBoard,
        task_id: &str,
        by: &str,
        reason: &str,
    ) -> Result<PersonReply, PersonError> {
        decide(board, self.clock, |view| {
            review::reject(view, task_id, by, reason)
        })
    }

    fn note(
        &self,
        board: &SharedBoard,
        task_id: Option<&str>,
        by: &str,
        text: &str,
    ) -> Result<PersonReply, PersonError> {
        let clock = self.clock;
        let outcome = board.mutate_with(
            |board_now| {
                let now = board.now(clock);
                let view = View::new(board_now, now);
                let (edits, n) = notes::leave(view, task_id, by, text)?;
                let undo = board_now.edit(now, edits)?;
                Ok::<_, TeamError>((n, undo))
            },
            |after, n| {
                let note = after.coordination().notes().find(|(m, _)| *m == n);
                let task = note.and_then(|(_, note)| note.task);
                let whom = match task {
                    Some(id) => match after.coordination().claim(id) {
                        Some(claim) => format!("{}, which holds it", claim.holder),
                        None => "the agent that claims it next".to_owned(),
                    },
                    None => "the next agent that calls".to_owned(),
                };
                PersonReply {
                    text: format!(
                        "Note {n} left {}: the next reply of {whom} carries it once.",
                        notes::on(task)
                    ),
                    json: json!({
                        "note": n,
                        "task_id": task.map(|id| id.to_string()),
                        "by": note.map(|(_, note)| note.by.clone()),
                    }),
                }
            },
        );
        match outcome {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(refused)) => Err(refusal(refused)),
            Err(failed) => Err(failed.into()),
        }
    }
}

/// The lines of the notes due to `agent` (on the tasks it holds or `held`
/// before its call, on the board), marked told as one change so that they are carried once; none
/// when nothing is due (a read, no change) or the change cannot be saved
/// (they stay due, for its next reply).
pub(crate) fn deliver(
    board: &SharedBoard,
    clock: Clock,
    agent: &str,
    held: &[TaskId],
) -> Vec<String> {
    let any = board
        .read(|now_board| {
            !notes::due(View::new(now_board, board.now(clock)), agent, held).is_empty()
        })
        .unwrap_or(false);
    if !any {
        return Vec::new();
    }
    let told = board.mutate_with(
        |board_now| {
            let now = board.now(clock);
            let view = View::new(board_now, now);
            let due = notes::due(view, agent, held);
            let lines: Vec<String> = due.iter().map(|(_, note)| notes::line(note)).collect();
            let edits = notes::told(&due, agent);
            let undo = board_now.edit(now, edits)?;
            Ok::<_, TeamError>((lines, undo))
        },
        |_, lines| lines,
    );
    match told {
        Ok(Ok(lines)) => lines,
        _ => Vec::new(),
    }
}

/// The tasks `agent` holds with a note not yet told (read before its call,
/// for [`deliver`] after it); `None` when no note is untold or the board
/// cannot be read: nothing to deliver (a note left meanwhile waits for the
/// agent's next call).
pub(crate) fn held_with_notes(
    board: &SharedBoard,
    clock: Clock,
    agent: &str,
) -> Option<Vec<TaskId>> {
    board
        .read(|now_board| notes::held_with_notes(View::new(now_board, board.now(clock)), agent))
        .ok()
        .flatten()
}

/// Makes the review `decide` says as one change: the leases that ended
/// first (as every team change records them), then the review.
fn decide(
    board: &SharedBoard,
    clock: Clock,
    mut decide: impl FnMut(View<'_>) -> Result<(Vec<Edit>, Reviewed), TeamError>,
) -> Result<PersonReply, PersonError> {
    let outcome = board.mutate_with(
        |board_now| {
            let now = board.now(clock);
            let view = View::new(board_now, now);
            let (mut edits, _) = claims::expiries(view);
            let (more, reviewed) = decide(view)?;
            edits.extend(more);
            let undo = board_now.edit(now, edits)?;
            Ok::<_, TeamError>(((reviewed, now), undo))
        },
        |after, (reviewed, now)| reply(View::new(after, now), &reviewed),
    );
    match outcome {
        Ok(Ok(reply)) => Ok(reply),
        Ok(Err(refused)) => Err(refusal(refused)),
        Err(failed) => Err(failed.into()),
    }
}

/// A refusal of the team's rules as the person reads it: an ID that names
/// no task is told apart (a script's `board` exit status says so).
fn refusal(refused: TeamError) -> PersonError {
    match refused {
        TeamError::Board(error) => error.into(),
        other => PersonError::Refused(other.to_string()),
    }
}

/// The reply of a review: a sentence and the task's line; as JSON, the
/// task, its status now and the review.
fn reply(view: View<'_>, reviewed: &Reviewed) -> PersonReply {
    let id = reviewed.id;
    let review = reviewed.evidence.review.as_ref();
    let by = review.map_or("", |r| r.by.as_str());
    let at = review.map(|r| time(r.at));
    let reason = review.and_then(|r| r.rejected.clone());
    let mut text = match reviewed.status {
        Status::Completed => format!("Approved [{id}]: it is completed.\n"),
        _ => format!("Rejected [{id}]: it is pending again; its next claimant reads the reason.\n"),
    };
    if let Some(task) = view.board.task(id) {
        text.push_str(&render::task_line(view, task));
    }
    let json = json!({
        "task_id": id.to_string(),
        "status": reviewed.status.as_str(),
        "verdict": if reason.is_some() { "rejected" } else { "approved" },
        "reviewer": by,
        "at": at,
        "reason": reason,
        "evidence_by": reviewed.evidence.by,
    });
    PersonReply { text, json }
}
