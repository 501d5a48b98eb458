// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Which notices a board's change brings, decided without a clock or any
//! I/O. A board's history records each change's events as they were made
//! (the status a tool set, the claim a release ended); the detector reads
//! the entries recorded since it last looked, so nothing is re-derived by
//! comparing two boards. A stall is not a change but a time passing (a
//! lease or a dispatch ran out, as team's [`View`] tells at an instant),
//! so each look also lists the stalls it has not told yet, and says when
//! the next one can come.

use std::collections::HashSet;
use std::time::SystemTime;

use super::notice::{Kind, Notice};
use crate::toolsets::planning::domain::history::{ClaimEnd, Entry, Event};
use crate::toolsets::planning::domain::{Status, TaskId};
use crate::toolsets::team::domain::View;
use crate::toolsets::team::domain::view::DispatchState;

/// What a detector has told of one board.
#[derive(Debug, Clone)]
pub(crate) struct Detector {
    board: String,
    /// The newest history entry's time it has read, and how many entries
    /// of that very time it read (a change records its events at one
    /// instant; a later change may share it).
    read_up_to: (SystemTime, usize),
    /// Stalls told: the task, the agent, when its time ran out.
    stalls: HashSet<(TaskId, String, SystemTime)>,
    /// Whether the goal was met at the last look (`None` before the first).
    goal_met: Option<bool>,
}

impl Detector {
    /// A detector of board `board` that tells what happens after `since`
    /// (when the server started: what was there before is no news).
    pub(crate) fn new(board: &str, since: SystemTime) -> Self {
        Self {
            board: board.to_owned(),
            read_up_to: (since, 0),
            stalls: HashSet::new(),
            goal_met: None,
        }
    }

    /// The notices of what happened since the last look, in the order it
    /// happened, then the stalls, then the goal.
    pub(crate) fn look(&mut self, view: View<'_>) -> Vec<Notice> {
        let new = self.new_entries(view);
        let mut notices = Vec::new();
        for entry in &new {
            if let Event::StatusChanged {
                task_id, title, to, ..
            } = &entry.event
            {
                let kind = match to {
                    Status::Completed => Kind::Finished,
                    Status::Failed => Kind::Failed,
                    Status::AwaitingReview => Kind::ReviewRequested,
                    _ => continue,
                };
                notices.push(Notice {
                    kind,
                    board: self.board.clone(),
                    task: Some(*task_id),
                    title: title.clone(),
                    agent: agent_of(&new, view, *task_id),
                    at: entry.at,
                });
            }
        }
        notices.extend(self.stalls(view));
        let met = view.goal_met();
        let before = self.goal_met.unwrap_or(met && new.is_empty());
        self.goal_met = Some(met);
        if met && !before {
            notices.push(Notice {
                kind: Kind::GoalMet,
                board: self.board.clone(),
                task: None,
                title: view
                    .board
                    .goal()
                    .map_or_else(|| "every task".into(), |goal| goal.title.clone()),
                agent: None,
                at: view.now,
            });
        }
        notices
    }

    /// When the next stall can happen: the earliest lease or dispatch
    /// that has not run out yet.
    pub(crate) fn next_stall(view: View<'_>) -> Option<SystemTime> {
        let coordination = view.board.coordination();
        let claims = coordination.claims().map(|(_, claim)| claim.until);
        let dispatches = coordination.dispatches().map(|(_, d)| d.until);
        claims
            .chain(dispatches)
            .filter(|until| *until > view.now)
            .min()
    }

    /// The history entries recorded since the last look, oldest first.
    fn new_entries(&mut self, view: View<'_>) -> Vec<Entry> {
        let Some(history) = view.board.history() else {
            return Vec::new();
        };
        let (time, mut same) = self.read_up_to;
        let mut new = Vec::new();
        for entry in history.entries() {
            if entry.at < time {
                continue;
            }
            if entry.at == time && same > 0 {
                same -= 1;
                continue;
            }
            new.push(entry.clone());
        }
        if let Some(last) = new.last() {
            let at = last.at;
            let seen_at = history.entries().filter(|e| e.at == at).count();
            self.read_up_to = (at, seen_at);
        }
        new
    }

    /// The stalls not told yet: dispatches whose worker's time ran out,
    /// and claims whose lease ended without a renewal or a release.
    fn stalls(&mut self, view: View<'_>) -> Vec<Notice> {
        let mut found = Vec::new();
        for (task, dispatch, state) in view.dispatched() {
            if state == DispatchState::Stalled {
                found.push((task.id, &task.title, &dispatch.worker, dispatch.until));
            }
        }
        let coordination = view.board.coordination();
        for (id, claim) in coordination.claims() {
            let dispatched = coordination.dispatch(id).is_some();
            if claim.until <= view.now
                && !dispatched
                && let Some(task) = view.board.task(id)
            {
                found.push((id, &task.title, &claim.holder, claim.until));
            }
        }
        let mut notices = Vec::new();
        for (id, title, agent, until) in found {
            if self.stalls.insert((id, agent.clone(), until)) {
                notices.push(Notice {
                    kind: Kind::Stalled,
                    board: self.board.clone(),
                    task: Some(id),
                    title: title.clone(),
                    agent: Some(agent.clone()),
                    at: until,
                });
            }
        }
        notices
    }
}

/// Who finished task `id`: the holder whose claim the same change ended
/// by a release, else who gave its evidence.
fn agent_of(new: &[Entry], view: View<'_>, id: TaskId) -> Option<String> {
    let released = new.iter().rev().find_map(|entry| match &entry.event {
        Event::ClaimEnded {
            task_id,
            holder,
            reason: ClaimEnd::Released,
            ..
        } if *task_id == id => Some(holder.clone()),
        _ => None,
    });
    released.or_else(|| {
        let evidence = view.board.coordination().evidence(id)?;
        Some(evidence.by.clone())
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::toolsets::team::domain::EvidenceInput;
    use crate::toolsets::team::domain::dispatch::{Request, dispatch};
    use crate::toolsets::team::domain::fixture::{apply, at, board, claim, id, release};

    fn kinds(notices: &[Notice]) -> Vec<(Kind, String, Option<String>)> {
        notices
            .iter()
            .map(|n| (n.kind, n.title.clone(), n.agent.clone()))
            .collect()
    }

    fn evidence() -> EvidenceInput<'static> {
        EvidenceInput {
            command: Some("cargo test"),
            exit_code: Some(0),
            ..EvidenceInput::default()
        }
    }

    #[test]
    fn completions_and_failures_are_told_once_with_their_agent() {
        let mut b = board(&["Parser", "Lexer", "CLI"]);
        let mut detector = Detector::new("default", at(0));
        // What the board held before the server started is no news.
        assert_eq!(detector.look(View::new(&b, at(0))), vec![]);
        claim(&mut b, 1, "worker-1", "Parser");
        claim(&mut b, 1, "worker-2", "Lexer");
        assert_eq!(detector.look(View::new(&b, at(1))), vec![]);
        release(
            &mut b,
            2,
            "worker-1",
            "Parser",
            Status::Completed,
            evidence(),
        );
        release(
            &mut b,
            2,
            "worker-2",
            "Lexer",
            Status::Failed,
            EvidenceInput::default(),
        );
        let told = detector.look(View::new(&b, at(2)));
        assert_eq!(
            kinds(&told),
            vec![
                (Kind::Finished, "Parser".into(), Some("worker-1".into())),
                (Kind::Failed, "Lexer".into(), Some("worker-2".into())),
            ]
        );
        assert_eq!(told[0].task, Some(id("Parser")));
        assert_eq!(detector.look(View::new(&b, at(3))), vec![], "told once");
    }

    #[test]
    fn the_goal_met_is_told_when_the_last_task_completes() {
        let mut b = board(&["Parser"]);
        let mut detector = Detector::new("default", at(0));
        assert_eq!(detector.look(View::new(&b, at(0))), vec![]);
        claim(&mut b, 1, "worker-1", "Parser");
        release(
            &mut b,
            2,
            "worker-1",
            "Parser",
            Status::Completed,
            evidence(),
        );
        let told = detector.look(View::new(&b, at(2)));
        assert_eq!(
            kinds(&told),
            vec![
                (Kind::Finished, "Parser".into(), Some("worker-1".into())),
                (Kind::GoalMet, "Ship it".into(), None),
            ]
        );
        assert_eq!(detector.look(View::new(&b, at(3))), vec![]);
    }

    #[test]
    fn a_lease_or_a_dispatch_that_runs_out_is_a_stall_told_once() {
        let mut b = board(&["Parser", "Lexer"]);
        let mut detector = Detector::new("default", at(0));
        claim(&mut b, 1, "worker-1", "Parser");
        let task = id("Lexer").to_string();
        apply(&mut b, at(1), |v| {
            dispatch(
                v,
                &Request {
                    lead: "lead",
                    worker: "worker-2",
                    task_id: Some(&task),
                    place: None,
                    note: None,
                    lease: Duration::from_secs(5 * 60),
                    accept_overlap: false,
                },
            )
        })
        .unwrap();
        assert_eq!(detector.look(View::new(&b, at(2))), vec![]);
        assert_eq!(Detector::next_stall(View::new(&b, at(2))), Some(at(6)));
        let told = detector.look(View::new(&b, at(6)));
        assert_eq!(
            kinds(&told),
            vec![(Kind::Stalled, "Lexer".into(), Some("worker-2".into()))]
        );
        assert_eq!(Detector::next_stall(View::new(&b, at(6))), Some(at(16)));
        let told = detector.look(View::new(&b, at(16)));
        assert_eq!(
            kinds(&told),
            vec![(Kind::Stalled, "Parser".into(), Some("worker-1".into()))]
        );
        assert_eq!(detector.look(View::new(&b, at(17))), vec![]);
    }
}
