// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's review of an agent's completion (docs/review.md). With review
//! on, `release_task` as completed leaves the task *awaiting review*, its
//! evidence kept; a person approves it (it is completed) or rejects it with
//! a reason (it is pending again, the rejected evidence and the reason kept
//! on it for the next claimant and in the history). Nothing here is reached
//! from an MCP tool an agent can call: the person's channels (the terminal
//! CLI, the web board) call [`approve`] and [`reject`].

use std::time::SystemTime;

use super::claims::task;
use super::error::TeamError;
use super::evidence::MAX_TEXT_CHARS;
use super::text;
use super::view::View;
use crate::toolsets::planning::coordination::{Edit, Evidence, Review};
use crate::toolsets::planning::domain::{Event, Status, Task, TaskId};

/// Whether an agent's completion waits for a person's review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReviewRule {
    /// A completion is a completion (the default).
    #[default]
    Off,
    /// `[team] require_review = true`: every completion waits for a person.
    Required,
}

/// The longest reviewer name, in characters (an agent name's bound).
const MAX_REVIEWER_CHARS: usize = text::MAX_AGENT_CHARS;

/// What a review did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reviewed {
    /// The task.
    pub(crate) id: TaskId,
    /// Its status now: completed (approved) or pending (rejected).
    pub(crate) status: Status,
    /// The evidence reviewed, with the review on it.
    pub(crate) evidence: Evidence,
}

/// The evidence a completion that waits for review keeps: what the agent
/// gave, or (when it gave none) a record of who completed it and when, so
/// that the reviewer always knows whose work it is.
pub(crate) fn submitted(evidence: Option<Evidence>, agent: &str, at: SystemTime) -> Evidence {
    evidence.unwrap_or_else(|| Evidence {
        command: None,
        exit_code: None,
        commit: None,
        url: None,
        note: None,
        by: agent.to_owned(),
        at,
        review: None,
    })
}

/// The person `reviewer` approves task `id`, which awaits review: it is
/// completed, its evidence kept with the review.
pub(crate) fn approve(
    view: View<'_>,
    id: &str,
    reviewer: &str,
) -> Result<(Vec<Edit>, Reviewed), TeamError> {
    decide(view, id, reviewer, None)
}

/// The person `reviewer` rejects task `id`, which awaits review, for
/// `reason`: it is pending again, the rejected evidence and the reason kept
/// on it (the next claimant's reply shows them) and in the history.
pub(crate) fn reject(
    view: View<'_>,
    id: &str,
    reviewer: &str,
    reason: &str,
) -> Result<(Vec<Edit>, Reviewed), TeamError> {
    text::check_line("reason of a rejection", reason, MAX_TEXT_CHARS)?;
    decide(view, id, reviewer, Some(reason.trim().to_owned()))
}

fn decide(
    view: View<'_>,
    id: &str,
    reviewer: &str,
    rejected: Option<String>,
) -> Result<(Vec<Edit>, Reviewed), TeamError> {
    let reviewer = reviewer.trim();
    text::check_line("reviewer name", reviewer, MAX_REVIEWER_CHARS)?;
    let task = task(view.board, id)?;
    let status = view.status(task);
    if status != Status::AwaitingReview {
        return Err(TeamError::NotAwaitingReview {
            id: task.id,
            status,
        });
    }
    let kept = view.board.coordination().evidence(task.id).cloned();
    let by = view
        .board
        .coordination()
        .completed_by(task.id)
        .unwrap_or("an agent");
    let mut evidence = submitted(kept, by, view.now);
    evidence.review = Some(Review {
        by: reviewer.to_owned(),
        at: view.now,
        rejected: rejected.clone(),
    });
    let to = match rejected {
        Some(_) => Status::Pending,
        None => Status::Completed,
    };
    let edits = vec![
        // The status first: a change of status drops the evidence, which
        // the next edit puts back with the review on it.
        Edit::Status(task.id, to),
        Edit::Evidence(task.id, Some(evidence.clone())),
        Edit::Record(Event::Reviewed {
            task_id: task.id,
            title: task.title.clone(),
            evidence: Box::new(evidence.clone()),
        }),
    ];
    let reviewed = Reviewed {
        id: task.id,
        status: to,
        evidence,
    };
    Ok((edits, reviewed))
}

/// The rejection a pending task carries from its last review, if any: who
/// rejected it, when and why, with the evidence rejected.
pub(crate) fn rejection<'a>(view: View<'a>, task: &Task) -> Option<(&'a Evidence, &'a Review)> {
    let evidence = view.board.coordination().evidence(task.id)?;
    let review = evidence.review.as_ref()?;
    review.rejected.as_ref()?;
    Some((evidence, review))
}

/// How many tasks await a person's review.
pub(crate) fn awaiting(view: View<'_>) -> impl Iterator<Item = &Task> + '_ {
    view.board
        .tasks()
        .filter(move |task| view.status(task) == Status::AwaitingReview)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Board, Limits, NewTask};
    use crate::toolsets::team::domain::claims::{self, LeasePolicy, Target};
    use crate::toolsets::team::domain::evidence::EvidenceRule;

    fn at(minutes: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(60 * minutes)
    }

    fn apply(board: &mut Board, when: SystemTime, edits: Vec<Edit>) {
        let _ = board.edit(when, edits).unwrap();
    }

    /// A board with one task, claimed by w1 and released as completed
    /// under review with a note.
    fn awaiting_board() -> (Board, TaskId) {
        let mut board = Board::new(Limits::default(), true);
        let (added, _) = board.add_tasks(&[NewTask::new("Parser", "")]).unwrap();
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
        apply(&mut board, at(0), edits);
        let evidence = Evidence {
            command: None,
            exit_code: None,
            commit: None,
            url: None,
            note: Some("all green".into()),
            by: "w1".into(),
            at: at(1),
            review: None,
        };
        let (edits, released) = claims::release(
            View::new(&board, at(1)),
            "w1",
            &id.to_string(),
            "completed",
            Some(evidence),
            EvidenceRule::Optional,
            ReviewRule::Required,
        )
        .unwrap();
        assert_eq!(released.status, Status::AwaitingReview);
        apply(&mut board, at(1), edits);
        (board, id)
    }

    #[test]
    fn a_completion_under_review_waits_with_its_evidence() {
        let (board, id) = awaiting_board();
        assert_eq!(board.task(id).unwrap().status, Status::AwaitingReview);
        let evidence = board.coordination().evidence(id).unwrap();
        assert_eq!(evidence.note.as_deref(), Some("all green"));
        assert!(board.coordination().claim(id).is_none());
    }

    #[test]
    fn the_agent_cannot_release_it_again_nor_set_it_completed() {
        let (mut board, id) = awaiting_board();
        let before = board.clone();
        let again = claims::release(
            View::new(&board, at(2)),
            "w1",
            &id.to_string(),
            "completed",
            None,
            EvidenceRule::Optional,
            ReviewRule::Required,
        )
        .unwrap_err();
        assert_eq!(again, TeamError::AwaitsReview { id });
        let refused = board
            .update_statuses_reviewed(&[(&id.to_string(), "completed")], false)
            .unwrap_err();
        assert!(refused.to_string().contains("awaits a person's review"));
        let by_hand = board
            .update_statuses(&[(&id.to_string(), "awaiting_review")])
            .unwrap_err();
        assert!(by_hand.to_string().contains("not set by hand"));
        assert_eq!(board, before, "a refusal changes nothing");
    }

    #[test]
    fn approval_completes_it_and_keeps_who_when_on_the_evidence() {
        let (mut board, id) = awaiting_board();
        let (edits, reviewed) = approve(View::new(&board, at(5)), &id.to_string(), "ada").unwrap();
        apply(&mut board, at(5), edits);
        assert_eq!(reviewed.status, Status::Completed);
        assert_eq!(board.task(id).unwrap().status, Status::Completed);
        let evidence = board.coordination().evidence(id).unwrap();
        assert_eq!(evidence.note.as_deref(), Some("all green"));
        let review = evidence.review.as_ref().unwrap();
        assert_eq!((review.by.as_str(), review.at), ("ada", at(5)));
        assert_eq!(review.rejected, None);
        let last = board.history().unwrap().entries().last().unwrap();
        assert!(matches!(&last.event, Event::Reviewed { task_id, .. } if *task_id == id));
    }

    #[test]
    fn rejection_makes_it_pending_with_the_reason_for_the_next_claimant() {
        let (mut board, id) = awaiting_board();
        let (edits, _) = reject(
            View::new(&board, at(5)),
            &id.to_string(),
            "ada",
            "the tests skip the lexer",
        )
        .unwrap();
        apply(&mut board, at(5), edits);
        let task = board.task(id).unwrap();
        assert_eq!(task.status, Status::Pending);
        let view = View::new(&board, at(6));
        let (evidence, review) = rejection(view, task).unwrap();
        assert_eq!(evidence.note.as_deref(), Some("all green"));
        assert_eq!(review.rejected.as_deref(), Some("the tests skip the lexer"));
        assert_eq!(review.by, "ada");
    }

    #[test]
    fn a_review_needs_a_task_awaiting_it_a_reviewer_and_a_reason() {
        let (board, id) = awaiting_board();
        let view = View::new(&board, at(5));
        let id = id.to_string();
        assert!(matches!(
            reject(view, &id, "ada", "  "),
            Err(TeamError::Text { .. })
        ));
        assert!(matches!(
            approve(view, &id, ""),
            Err(TeamError::Text { .. })
        ));
        assert!(approve(view, "ffffffff", "ada").is_err());
        let (mut done, _) = awaiting_board();
        let (edits, _) = approve(View::new(&done, at(5)), &id, "ada").unwrap();
        apply(&mut done, at(5), edits);
        let twice = approve(View::new(&done, at(6)), &id, "ada").unwrap_err();
        assert!(matches!(twice, TeamError::NotAwaitingReview { .. }));
        assert!(
            twice.to_string().contains("does not await review"),
            "{twice}"
        );
    }
}
