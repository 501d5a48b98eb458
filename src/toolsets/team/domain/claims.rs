// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Claims with leases: who may claim, renew and release a task, and what
//! an ended lease does. Every function decides against a [`View`] (the
//! board at one moment) and returns the board edits that carry the
//! decision out; the caller applies them with the expiries first, in one
//! change, so that exactly one of several racing claimants wins.

use std::time::{Duration, SystemTime};

use super::error::{CLAIM_INSTEAD, TeamError};
use super::evidence::EvidenceRule;
use super::review::{self, ReviewRule};
use super::text;
use super::touches::{self, Conflict, Touches};
use super::view::View;
use super::wave;
use crate::toolsets::planning::coordination::{Claim, Dispatch, Edit, Evidence};
use crate::toolsets::planning::domain::{
    Board, BoardError, ClaimEnd, DispatchEnd, Event, Status, Task, TaskId,
};

/// How long leases are: the default and the longest, in minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LeasePolicy {
    /// The lease when a claim names none.
    pub(crate) default_minutes: i64,
    /// The longest lease a claim may ask for.
    pub(crate) max_minutes: i64,
}

impl Default for LeasePolicy {
    fn default() -> Self {
        Self {
            default_minutes: 15,
            max_minutes: 120,
        }
    }
}

impl LeasePolicy {
    /// The lease a claim asks for (`None`: the default), checked.
    pub(crate) fn lease(&self, minutes: Option<i64>) -> Result<Duration, TeamError> {
        let minutes = minutes.unwrap_or(self.default_minutes);
        if !(1..=self.max_minutes).contains(&minutes) {
            return Err(TeamError::Lease {
                minutes,
                max: self.max_minutes,
            });
        }
        Ok(Duration::from_secs(minutes.unsigned_abs() * 60))
    }
}

/// A lease that ended, freed by a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expiry {
    /// The task, pending again.
    pub(crate) id: TaskId,
    /// Who held it.
    pub(crate) holder: String,
    /// When the lease ended.
    pub(crate) until: SystemTime,
}

/// The edits that record every lease that ended by `view.now`, in board
/// order: the claim goes (recorded as expired) and the task is pending
/// again. Every team change starts with them.
pub fn expiries(view: View<'_>) -> (Vec<Edit>, Vec<Expiry>) {
    let board = view.board;
    let mut ended: Vec<(&Task, &Claim)> = board
        .coordination()
        .claims()
        .filter_map(|(id, _)| Some((board.task(id)?, view.expired(id)?)))
        .collect();
    ended.sort_by_key(|(task, _)| board.position(task.id));
    let mut edits = Vec::with_capacity(ended.len() * 3);
    let mut expired = Vec::with_capacity(ended.len());
    for (task, claim) in ended {
        edits.extend(end_claim(task, claim, ClaimEnd::Expired));
        edits.push(Edit::Status(task.id, Status::Pending));
        expired.push(Expiry {
            id: task.id,
            holder: claim.holder.clone(),
            until: claim.until,
        });
    }
    (edits, expired)
}

/// Whether any lease ended by `view.now` is still recorded as a claim.
pub(crate) fn has_expiries(view: View<'_>) -> bool {
    let claims = view.board.coordination().claims();
    claims.into_iter().any(|(_, claim)| claim.until <= view.now)
}

/// Which task a claim is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// The task with this ID (as the caller wrote it).
    Task(&'a str),
    /// The first task of the ready queue.
    NextReady,
}

/// What a claim did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The task.
    pub(crate) id: TaskId,
    /// When the lease ends.
    pub(crate) until: SystemTime,
    /// Whether the agent held it already (a renewal).
    pub(crate) renewed: bool,
    /// The overlap with another agent's work the caller accepted.
    pub(crate) overlap: Option<Conflict>,
    /// The worker whose stalled dispatch of the task this claim ended.
    pub(crate) took_over: Option<String>,
    /// The person's rejection of the task's last outcome, which the claim
    /// clears from the task: its reply is where the claimant reads it.
    pub(crate) rejected: Option<Evidence>,
}

/// Claims `target` for `agent` for `lease`: a task that is pending (or in
/// progress with no holder), whose blockers are all completed, that no one
/// else holds, and that is not dispatched to another worker whose time has
/// not run out. Its touches must not overlap another agent's reservation
/// unless `accept_overlap` ("the next ready task" is the first that
/// overlaps nothing). Claiming a task one holds renews the lease; the
/// dispatched worker's claim links to the dispatch record (its `until`
/// follows the lease), another agent's claim of a stalled dispatch ends it.
pub fn claim(
    view: View<'_>,
    agent: &str,
    target: Target<'_>,
    lease: Duration,
    accept_overlap: bool,
) -> Result<(Vec<Edit>, Claimed), TeamError> {
    let agent = text::agent(agent)?;
    let task = match target {
        Target::Task(id) => task(view.board, id)?,
        Target::NextReady => wave::next(view, agent, "claim")?.0,
    };
    let until = view.now + lease;
    let record = Edit::Record(Event::Claimed {
        task_id: task.id,
        title: task.title.clone(),
        holder: agent.to_owned(),
        until,
    });
    let dispatch = view.dispatch(task.id);
    // The dispatched worker's claim keeps the record's time at its lease.
    let linked = dispatch
        .filter(|(d, _)| d.worker == agent)
        .map(|(d, _)| Dispatch {
            until,
            claimed: true,
            ..d.clone()
        });
    let mut claimed = Claimed {
        id: task.id,
        until,
        renewed: false,
        overlap: None,
        took_over: None,
        rejected: review::rejection(view, task).map(|(evidence, _)| evidence.clone()),
    };
    if let Some(held) = view.claim(task.id) {
        if held.holder != agent {
            return Err(TeamError::Held {
                id: task.id,
                holder: held.holder.clone(),
                until: held.until,
            });
        }
        let renewed = Claim {
            until,
            ..held.clone()
        };
        let mut edits = vec![Edit::Claim(task.id, Some(renewed)), record];
        edits.extend(linked.map(|d| Edit::Dispatch(task.id, Some(d))));
        claimed.renewed = true;
        return Ok((edits, claimed));
    }
    let status = view.status(task);
    if status == Status::AwaitingReview {
        return Err(TeamError::AwaitsReview { id: task.id });
    }
    if !matches!(status, Status::Pending | Status::InProgress) {
        return Err(TeamError::NotClaimable {
            id: task.id,
            status,
        });
    }
    not_blocked(view, task.id)?;
    if let Some((d, state)) = dispatch
        && state.in_flight()
        && d.worker != agent
    {
        return Err(TeamError::Dispatched {
            id: task.id,
            worker: d.worker.clone(),
            until: d.until,
            claimed: d.claimed,
        });
    }
    let touches = Touches::stored(view.board.coordination().touches(task.id));
    if let Some(found) = touches::conflict(&touches::reservations(view), task.id, &touches, agent) {
        if !accept_overlap {
            return Err(TeamError::Overlap {
                id: task.id,
                conflict: Box::new(found),
                hint: CLAIM_INSTEAD,
            });
        }
        claimed.overlap = Some(found);
    }
    let claim = Claim {
        holder: agent.to_owned(),
        since: view.now,
        until,
    };
    let mut edits = vec![
        Edit::Status(task.id, Status::InProgress),
        Edit::Claim(task.id, Some(claim)),
        record,
    ];
    match (linked, dispatch) {
        (Some(linked), _) => edits.push(Edit::Dispatch(task.id, Some(linked))),
        (None, Some((stalled, _))) => {
            edits.extend(end_dispatch(task, &stalled.worker, DispatchEnd::Taken));
            claimed.took_over = Some(stalled.worker.clone());
        }
        (None, None) => {}
    }
    Ok((edits, claimed))
}

/// The edits that end `worker`'s dispatch of `task` for `reason`.
pub(crate) fn end_dispatch(task: &Task, worker: &str, reason: DispatchEnd) -> [Edit; 2] {
    [
        Edit::Dispatch(task.id, None),
        Edit::Record(Event::DispatchEnded {
            task_id: task.id,
            title: task.title.clone(),
            worker: worker.to_owned(),
            reason,
        }),
    ]
}

/// What a release did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    /// The task.
    pub(crate) id: TaskId,
    /// Its status now.
    pub(crate) status: Status,
    /// Tasks that became ready because this one was completed, in board order.
    pub(crate) now_ready: Vec<TaskId>,
    /// Whether the call only added evidence to a task the agent had
    /// completed without it.
    pub(crate) evidence_added: bool,
}

/// Ends `agent`'s claim on task `id`, leaving it `to` (pending, completed
/// or failed) with `evidence` (already checked) if any; a completion
/// without evidence is refused when `rule` requires it. On a task that
/// `agent` released as completed without evidence, a release as completed
/// with evidence adds the evidence.
pub fn release(
    view: View<'_>,
    agent: &str,
    id: &str,
    to: &str,
    evidence: Option<Evidence>,
    rule: EvidenceRule,
    review: ReviewRule,
) -> Result<(Vec<Edit>, Released), TeamError> {
    let agent = text::agent(agent)?;
    let to = match to.parse::<Status>() {
        Ok(status @ (Status::Pending | Status::Completed | Status::Failed)) => status,
        _ => {
            return Err(TeamError::Text {
                field: "status of a release",
                problem: format!(
                    "'{}' is not one of pending, completed, failed",
                    crate::runtime::text::clip(to)
                ),
            });
        }
    };
    let task = task(view.board, id)?;
    // Only a person's review ends the wait: not a second release, by anyone.
    if view.status(task) == Status::AwaitingReview {
        return Err(TeamError::AwaitsReview { id: task.id });
    }
    let Some(claim) = view.claim(task.id) else {
        if let Some(ended) = view.expired(task.id).filter(|c| c.holder == agent) {
            return Err(TeamError::Expired {
                id: task.id,
                until: ended.until,
                holder: None,
            });
        }
        if let Some(until) = lapsed(view.board, task.id, agent) {
            return Err(TeamError::Expired {
                id: task.id,
                until,
                holder: None,
            });
        }
        let completer = view.board.coordination().completed_by(task.id);
        if view.status(task) == Status::Completed
            && to == Status::Completed
            && (evidence.is_some() || completer == Some(agent))
        {
            return add_evidence(view, agent, task, evidence);
        }
        return Err(TeamError::NotYours {
            id: task.id,
            agent: agent.to_owned(),
            holder: None,
        });
    };
    if claim.holder != agent {
        let holder = Some((claim.holder.clone(), claim.until));
        return Err(match lapsed(view.board, task.id, agent) {
            Some(until) => TeamError::Expired {
                id: task.id,
                until,
                holder,
            },
            None => TeamError::NotYours {
                id: task.id,
                agent: agent.to_owned(),
                holder,
            },
        });
    }
    if evidence.is_some() && to == Status::Pending {
        return Err(TeamError::Evidence(
            "Evidence shows an outcome: give it with status completed or failed.".into(),
        ));
    }
    if evidence.is_none() && to == Status::Completed && rule == EvidenceRule::Required {
        return Err(TeamError::EvidenceRequired { id: task.id });
    }
    let mut edits = end_claim(task, claim, ClaimEnd::Released).to_vec();
    if let Some(dispatch) = view.board.coordination().dispatch(task.id) {
        edits.extend(end_dispatch(task, &dispatch.worker, DispatchEnd::Released));
    }
    if to == Status::Completed && review == ReviewRule::Required {
        // The completion waits for a person; the evidence waits with it.
        edits.push(Edit::Status(task.id, Status::AwaitingReview));
        edits.push(Edit::Evidence(
            task.id,
            Some(review::submitted(evidence, agent, view.now)),
        ));
        let released = Released {
            id: task.id,
            status: Status::AwaitingReview,
            now_ready: Vec::new(),
            evidence_added: false,
        };
        return Ok((edits, released));
    }
    edits.push(Edit::Status(task.id, to));
    match evidence {
        Some(evidence) => edits.push(Edit::Evidence(task.id, Some(evidence))),
        // Remembered so that the agent may add the evidence later.
        None if to == Status::Completed => {
            edits.push(Edit::CompletedBy(task.id, Some(agent.to_owned())));
        }
        None => {}
    }
    let now_ready = match to {
        Status::Completed => unblocked_by(view, task.id),
        _ => Vec::new(),
    };
    let released = Released {
        id: task.id,
        status: to,
        now_ready,
        evidence_added: false,
    };
    Ok((edits, released))
}

/// Adds `evidence` to `task`, completed and no longer claimed: only the
/// agent that released it as completed without evidence may, once.
fn add_evidence(
    view: View<'_>,
    agent: &str,
    task: &Task,
    evidence: Option<Evidence>,
) -> Result<(Vec<Edit>, Released), TeamError> {
    let coordination = view.board.coordination();
    if let Some(kept) = coordination.evidence(task.id) {
        return Err(TeamError::EvidenceKept {
            id: task.id,
            by: kept.by.clone(),
        });
    }
    if coordination.completed_by(task.id) != Some(agent) {
        return Err(TeamError::NotCompleter {
            id: task.id,
            agent: agent.to_owned(),
            completer: coordination.completed_by(task.id).map(str::to_owned),
        });
    }
    let Some(evidence) = evidence else {
        return Err(TeamError::Evidence(format!(
            "[{}] is completed already; to add its evidence, give a command with its exit_code, \
             a commit, a url or a note.",
            task.id
        )));
    };
    let edits = vec![
        Edit::Evidence(task.id, Some(evidence)),
        Edit::CompletedBy(task.id, None),
    ];
    let added = Released {
        id: task.id,
        status: Status::Completed,
        now_ready: Vec::new(),
        evidence_added: true,
    };
    Ok((edits, added))
}

/// When `agent`'s lease on task `id` ran out, if that is how its last
/// claim on the task ended, as the history records it (the claim itself is
/// gone once the expiry is recorded, and with it the former holder's name;
/// without history, nothing is known).
fn lapsed(board: &Board, id: TaskId, agent: &str) -> Option<SystemTime> {
    let last_end = board
        .history()?
        .entries()
        .rev()
        .find_map(|entry| match &entry.event {
            Event::ClaimEnded {
                task_id,
                holder,
                until,
                reason,
                ..
            } if *task_id == id && holder == agent => Some((*reason, *until)),
            _ => None,
        });
    match last_end {
        Some((ClaimEnd::Expired, until)) => Some(until),
        _ => None,
    }
}

/// The tasks that wait only for `id` (besides completed ones) and are
/// otherwise ready: completing `id` makes them ready.
fn unblocked_by(view: View<'_>, id: TaskId) -> Vec<TaskId> {
    let board = view.board;
    let mut ready: Vec<&Task> = board
        .coordination()
        .dependents(id)
        .iter()
        .filter_map(|dependent| board.task(*dependent))
        .filter(|task| {
            view.status(task) == Status::Pending
                && view.claim(task.id).is_none()
                && view.waiting_for(task.id).all(|blocker| blocker == id)
        })
        .collect();
    ready.sort_by_key(|task| board.position(task.id));
    ready.into_iter().map(|task| task.id).collect()
}

/// The edits that end `claim` on `task` for `reason`.
fn end_claim(task: &Task, claim: &Claim, reason: ClaimEnd) -> [Edit; 2] {
    [
        Edit::Claim(task.id, None),
        Edit::Record(Event::ClaimEnded {
            task_id: task.id,
            title: task.title.clone(),
            holder: claim.holder.clone(),
            until: claim.until,
            reason,
        }),
    ]
}

/// `Ok` if `id` waits for no unfinished task; else the blockers, named
/// with their statuses (a claim or a dispatch of it is refused).
pub(crate) fn not_blocked(view: View<'_>, id: TaskId) -> Result<(), TeamError> {
    let waiting_for: Vec<(TaskId, Status)> = view
        .waiting_for(id)
        .filter_map(|blocker| Some((blocker, view.status_of(blocker)?)))
        .collect();
    match waiting_for.is_empty() {
        true => Ok(()),
        false => Err(TeamError::Blocked { id, waiting_for }),
    }
}

/// The task a request names, or the board's "no task has the ID" (for the
/// old ID of a held task a person reworded: its new ID).
pub(crate) fn task<'a>(board: &'a Board, id: &str) -> Result<&'a Task, TeamError> {
    let parsed = TaskId::parse(id);
    if let Some(task) = parsed.and_then(|parsed| board.task(parsed)) {
        return Ok(task);
    }
    // A held task a person reworded: the refusal names its new ID.
    let reworded = parsed
        .and_then(|old| board.coordination().renamed_to(old))
        .filter(|new| board.task(*new).is_some());
    Err(match reworded {
        Some(new) => BoardError::Reworded {
            old: id.to_owned(),
            new: new.to_string(),
        },
        None => BoardError::UnknownTasks(vec![id.to_owned()]),
    }
    .into())
}

/// Why no task is ready.
pub(crate) fn nothing_ready(view: View<'_>) -> TeamError {
    TeamError::NothingReady {
        pending: view.blocked().count(),
        held: view.claimed().count(),
        dispatched: view.dispatched_waiting(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Limits, NewTask};

    const MINUTE: Duration = Duration::from_secs(60);

    fn at(minutes: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000) + MINUTE * minutes as u32
    }

    fn id(title: &str) -> TaskId {
        TaskId::from_content(title, "")
    }

    fn board(titles: &[&str]) -> Board {
        let mut board = Board::new(Limits::default(), true);
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    /// Claims as the face does: expiries first, then the claim, in one edit.
    fn do_claim(
        board: &mut Board,
        now: SystemTime,
        agent: &str,
        target: Target<'_>,
    ) -> Result<Claimed, TeamError> {
        let view = View::new(board, now);
        let (mut edits, _) = expiries(view);
        let (more, claimed) = claim(view, agent, target, 15 * MINUTE, false)?;
        edits.extend(more);
        let _ = board.edit(now, edits)?;
        Ok(claimed)
    }

    fn do_release(
        board: &mut Board,
        now: SystemTime,
        agent: &str,
        task: TaskId,
        to: &str,
    ) -> Result<Released, TeamError> {
        let view = View::new(board, now);
        let (mut edits, _) = expiries(view);
        let rule = EvidenceRule::Optional;
        let (more, released) = release(
            view,
            agent,
            &task.to_string(),
            to,
            None,
            rule,
            ReviewRule::Off,
        )?;
        edits.extend(more);
        let _ = board.edit(now, edits)?;
        Ok(released)
    }

    #[test]
    fn exactly_one_claimant_wins_and_the_holder_renews() {
        let mut board = board(&["a", "b"]);
        let a = id("a");
        let first = do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        assert_eq!((first.id, first.until, first.renewed), (a, at(15), false));
        assert_eq!(board.task(a).unwrap().status, Status::InProgress);
        let before = board.clone();
        let refused = do_claim(&mut board, at(5), "w2", Target::Task(&a.to_string()));
        assert_eq!(
            refused.unwrap_err(),
            TeamError::Held {
                id: a,
                holder: "w1".into(),
                until: at(15)
            }
        );
        assert_eq!(board, before, "a refused claim changes nothing");
        let renewed = do_claim(&mut board, at(10), "w1", Target::Task(&a.to_string())).unwrap();
        assert_eq!((renewed.until, renewed.renewed), (at(25), true));
        let claim = board.coordination().claim(a).unwrap();
        assert_eq!((claim.since, claim.until), (at(0), at(25)));
    }

    #[test]
    fn an_ended_lease_frees_the_task_and_the_history_says_so() {
        let mut board = board(&["a"]);
        let a = id("a");
        do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        // One second before the end, the lease holds.
        let almost = at(15) - Duration::from_secs(1);
        assert!(!has_expiries(View::new(&board, almost)));
        assert!(do_claim(&mut board, almost, "w2", Target::NextReady).is_err());
        // At its end, the task is free: the next claimant takes it.
        assert!(has_expiries(View::new(&board, at(15))));
        let (_, ended) = expiries(View::new(&board, at(15)));
        assert_eq!(
            ended,
            [Expiry {
                id: a,
                holder: "w1".into(),
                until: at(15)
            }]
        );
        let taken = do_claim(&mut board, at(15), "w2", Target::NextReady).unwrap();
        assert_eq!(taken.id, a);
        assert_eq!(board.coordination().claim(a).unwrap().holder, "w2");
        let events: Vec<&Event> = board
            .history()
            .unwrap()
            .entries()
            .map(|e| &e.event)
            .collect();
        assert!(events.iter().any(|e| matches!(e,
            Event::ClaimEnded { reason: ClaimEnd::Expired, holder, until, .. } if holder == "w1" && *until == at(15))));
        // The old holder cannot release what it lost, and is told why.
        assert_eq!(
            do_release(&mut board, at(16), "w1", a, "completed").unwrap_err(),
            TeamError::Expired {
                id: a,
                until: at(15),
                holder: Some(("w2".into(), at(30)))
            }
        );
        // Anyone else is told who holds it.
        assert_eq!(
            do_release(&mut board, at(16), "w3", a, "completed").unwrap_err(),
            TeamError::NotYours {
                id: a,
                agent: "w3".into(),
                holder: Some(("w2".into(), at(30)))
            }
        );
        // Once w1 held it again and released it, its old lease is history.
        do_release(&mut board, at(17), "w2", a, "pending").unwrap();
        do_claim(&mut board, at(18), "w1", Target::Task(&a.to_string())).unwrap();
        do_release(&mut board, at(19), "w1", a, "pending").unwrap();
        do_claim(&mut board, at(20), "w2", Target::Task(&a.to_string())).unwrap();
        assert!(matches!(
            do_release(&mut board, at(21), "w1", a, "completed").unwrap_err(),
            TeamError::NotYours { .. }
        ));
    }

    #[test]
    fn a_recorded_expiry_is_told_from_the_history_and_only_from_it() {
        for history in [true, false] {
            let mut board = Board::new(Limits::default(), history);
            let _ = board.add_tasks(&[NewTask::new("a", "")]).unwrap();
            let a = id("a");
            do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
            // Another call records the expiry; nobody holds the task.
            do_claim(&mut board, at(20), "w2", Target::Task(&a.to_string())).unwrap();
            do_release(&mut board, at(21), "w2", a, "pending").unwrap();
            let refused = do_release(&mut board, at(22), "w1", a, "completed").unwrap_err();
            let expected = match history {
                true => TeamError::Expired {
                    id: a,
                    until: at(15),
                    holder: None,
                },
                false => TeamError::NotYours {
                    id: a,
                    agent: "w1".into(),
                    holder: None,
                },
            };
            assert_eq!(refused, expected, "history {history}");
        }
    }

    /// Releases as `do_release` does, with evidence (a note) and `rule`.
    fn release_with(
        board: &mut Board,
        now: SystemTime,
        agent: &str,
        task: TaskId,
        note: Option<&str>,
        rule: EvidenceRule,
    ) -> Result<Released, TeamError> {
        let evidence = note.map(|note| Evidence {
            command: None,
            exit_code: None,
            commit: None,
            url: None,
            note: Some(note.into()),
            by: agent.into(),
            at: now,
            review: None,
        });
        let view = View::new(board, now);
        let (mut edits, _) = expiries(view);
        let (more, released) = release(
            view,
            agent,
            &task.to_string(),
            "completed",
            evidence,
            rule,
            ReviewRule::Off,
        )?;
        edits.extend(more);
        let _ = board.edit(now, edits)?;
        Ok(released)
    }

    #[test]
    fn a_completion_may_be_required_to_carry_evidence() {
        let mut board = board(&["a"]);
        let a = id("a");
        do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        let before = board.clone();
        let refused = release_with(&mut board, at(1), "w1", a, None, EvidenceRule::Required);
        assert_eq!(refused.unwrap_err(), TeamError::EvidenceRequired { id: a });
        assert_eq!(board, before, "a refused release changes nothing");
        // Failing or handing back needs none.
        do_release(&mut board, at(1), "w1", a, "pending").unwrap();
        do_claim(&mut board, at(2), "w1", Target::Task(&a.to_string())).unwrap();
        let done = release_with(
            &mut board,
            at(3),
            "w1",
            a,
            Some("ok"),
            EvidenceRule::Required,
        );
        assert!(!done.unwrap().evidence_added);
        assert_eq!(board.coordination().evidence(a).unwrap().by, "w1");
    }

    #[test]
    fn the_agent_that_completed_a_task_without_evidence_may_add_it_later() {
        let mut board = board(&["a", "b"]);
        let [a, b] = [id("a"), id("b")];
        do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        release_with(&mut board, at(1), "w1", a, None, EvidenceRule::Optional).unwrap();
        assert_eq!(board.coordination().completed_by(a), Some("w1"));
        let before = board.clone();
        // Not by another agent, and not without evidence.
        let other = release_with(
            &mut board,
            at(2),
            "w2",
            a,
            Some("x"),
            EvidenceRule::Optional,
        );
        assert_eq!(
            other.unwrap_err(),
            TeamError::NotCompleter {
                id: a,
                agent: "w2".into(),
                completer: Some("w1".into())
            }
        );
        let empty = release_with(&mut board, at(2), "w1", a, None, EvidenceRule::Optional);
        assert!(matches!(empty, Err(TeamError::Evidence(_))));
        assert_eq!(board, before);
        let added = release_with(
            &mut board,
            at(2),
            "w1",
            a,
            Some("late"),
            EvidenceRule::Required,
        )
        .unwrap();
        assert!(added.evidence_added);
        assert_eq!(
            (added.status, added.now_ready.len()),
            (Status::Completed, 0)
        );
        let evidence = board.coordination().evidence(a).unwrap();
        assert_eq!(
            (evidence.note.as_deref(), evidence.at),
            (Some("late"), at(2))
        );
        assert!(board.coordination().completed_by(a).is_none());
        // Once: evidence is never replaced.
        let again = release_with(
            &mut board,
            at(3),
            "w1",
            a,
            Some("other"),
            EvidenceRule::Optional,
        );
        assert_eq!(
            again.unwrap_err(),
            TeamError::EvidenceKept {
                id: a,
                by: "w1".into()
            }
        );
        // A task completed through update_task_statuses has no completer.
        let _ = board
            .update_statuses(&[(&b.to_string(), "completed")])
            .unwrap();
        let planning = release_with(
            &mut board,
            at(3),
            "w1",
            b,
            Some("x"),
            EvidenceRule::Optional,
        );
        assert_eq!(
            planning.unwrap_err(),
            TeamError::NotCompleter {
                id: b,
                agent: "w1".into(),
                completer: None
            }
        );
    }

    #[test]
    fn a_holder_whose_lease_ended_is_told_so() {
        let mut board = board(&["a"]);
        let a = id("a");
        do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        assert_eq!(
            do_release(&mut board, at(20), "w1", a, "completed").unwrap_err(),
            TeamError::Expired {
                id: a,
                until: at(15),
                holder: None
            }
        );
    }

    #[test]
    fn release_ends_the_claim_and_tells_what_became_ready() {
        let mut board = board(&["a", "b", "c"]);
        let [a, b, c] = ["a", "b", "c"].map(id);
        let links = vec![
            Edit::Link {
                task: b,
                blocker: a,
            },
            Edit::Link {
                task: c,
                blocker: a,
            },
            Edit::Link {
                task: c,
                blocker: b,
            },
        ];
        let _ = board.edit(at(0), links).unwrap();
        let next = do_claim(&mut board, at(0), "w1", Target::NextReady).unwrap();
        assert_eq!(next.id, a, "only a is ready");
        assert_eq!(
            do_claim(&mut board, at(0), "w2", Target::NextReady).unwrap_err(),
            TeamError::NothingReady {
                pending: 2,
                held: 1,
                dispatched: 0
            }
        );
        assert!(matches!(
            do_claim(&mut board, at(0), "w2", Target::Task(&c.to_string())),
            Err(TeamError::Blocked { waiting_for, .. }) if waiting_for.len() == 2
        ));
        assert!(matches!(
            do_release(&mut board, at(1), "w2", a, "completed"),
            Err(TeamError::NotYours { .. })
        ));
        let released = do_release(&mut board, at(1), "w1", a, "completed").unwrap();
        assert_eq!(released.now_ready, [b], "c still waits for b");
        assert!(board.coordination().claim(a).is_none());
        assert_eq!(board.task(a).unwrap().status, Status::Completed);
        assert_eq!(
            do_claim(&mut board, at(1), "w2", Target::Task(&a.to_string())).unwrap_err(),
            TeamError::NotClaimable {
                id: a,
                status: Status::Completed
            }
        );
        do_claim(&mut board, at(1), "w2", Target::Task(&b.to_string())).unwrap();
        let back = do_release(&mut board, at(2), "w2", b, "pending").unwrap();
        assert_eq!((back.status, back.now_ready.len()), (Status::Pending, 0));
        assert!(matches!(
            do_release(&mut board, at(2), "w2", b, "cancelled"),
            Err(TeamError::Text { .. })
        ));
    }

    #[test]
    fn an_unclaimed_task_in_progress_can_be_adopted() {
        let mut board = board(&["a"]);
        let a = id("a");
        let _ = board
            .update_statuses(&[(&a.to_string(), "in_progress")])
            .unwrap();
        do_claim(&mut board, at(0), "w1", Target::Task(&a.to_string())).unwrap();
        assert_eq!(board.coordination().claim(a).unwrap().holder, "w1");
    }

    #[test]
    fn leases_are_bounded() {
        let policy = LeasePolicy::default();
        assert_eq!(policy.lease(None), Ok(15 * MINUTE));
        assert_eq!(policy.lease(Some(120)), Ok(120 * MINUTE));
        for bad in [0, -5, 121] {
            assert_eq!(
                policy.lease(Some(bad)),
                Err(TeamError::Lease {
                    minutes: bad,
                    max: 120
                })
            );
        }
    }

    #[test]
    fn unknown_tasks_and_bad_names_are_refused() {
        let mut board = board(&["a"]);
        assert_eq!(
            do_claim(&mut board, at(0), "w1", Target::Task("nope")).unwrap_err(),
            TeamError::Board(BoardError::UnknownTasks(vec!["nope".into()]))
        );
        assert!(matches!(
            do_claim(&mut board, at(0), "w\n1", Target::NextReady),
            Err(TeamError::Text { .. })
        ));
    }
}
