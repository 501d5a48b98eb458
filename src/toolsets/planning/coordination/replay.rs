// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The replay of a team operation (`Action::Edit`): its task IDs resolved,
//! each edit checked by the rule of its kind, then the operation applied
//! whole or set aside whole (docs/sync.md says the rules for users):
//!
//! - an end of a claim comes with its record, which says whose claim it
//!   ends: an end by an agent that no longer holds the task is set aside;
//!   an expiry of a claim that is gone (or was renewed) is skipped, with
//!   its record and the status that goes with it ([`State::check_claim_end`]);
//! - a claim on a task another agent holds (a lease not ended at the
//!   claim's time) is set aside, unless it was confirmed by the remote and
//!   the holder's was provisional: then it takes over, and the provisional
//!   claim is set aside as lost ([`State::check_claim_take`]);
//! - a link that would make a cycle with the links made elsewhere is set
//!   aside ([`State::cycle_made`]);
//! - the rest is the board's to refuse (`Board::edit`).
//!
//! The replay keeps how each claim on the board was made ([`ClaimOrigin`]),
//! which the next claim's rule needs, and follows the board's claims with
//! it when planning's own operations reword, delete or re-status a task.

use std::collections::HashSet;

use super::data::{Claim, Edit, Note};
use crate::toolsets::planning::domain::replay::{ClaimMode, Op, OpId, Reason, State, intent};
use crate::toolsets::planning::domain::{ClaimEnd, Event, Status, TaskId};

/// How a claim on the board was made, and by which operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClaimOrigin {
    /// Confirmed through the remote, or provisional.
    pub(crate) mode: ClaimMode,
    /// The operation that made it.
    pub(crate) op: OpId,
}

/// A provisional claim that a confirmed one of the operation takes over.
struct TakeOver {
    /// How the provisional claim was made.
    origin: ClaimOrigin,
    /// Who held it.
    holder: String,
    /// The task.
    task: TaskId,
    /// Who takes it over.
    winner: String,
}

/// A team operation's edits as the rules leave them: what to apply, and
/// the provisional claims it takes over.
#[derive(Default)]
struct Checked {
    /// The edits to apply, their task IDs resolved.
    kept: Vec<Edit>,
    /// The tasks whose claim an earlier edit of the operation ended: a
    /// later end of it is not the holder's, a later claim takes a free
    /// task.
    ended: HashSet<TaskId>,
    /// The provisional claims taken over.
    taken_over: Vec<TakeOver>,
}

impl State {
    /// A team operation: its edits checked by the rules, then applied
    /// whole, or set aside.
    pub(crate) fn edit(&mut self, op: &Op, edits: &[Edit]) {
        match self.check_edits(op, edits) {
            Ok(checked) => self.apply_checked(op, checked),
            Err(reason) => self.set_aside(op, reason),
        }
    }

    /// The edits the rules keep, or why the operation is set aside.
    fn check_edits(&self, op: &Op, edits: &[Edit]) -> Result<Checked, Reason> {
        let mut checked = Checked {
            kept: Vec::with_capacity(edits.len()),
            ..Checked::default()
        };
        let mut n = 0;
        while n < edits.len() {
            let edit = self.resolved(&edits[n]).map_err(Reason::TaskGone)?;
            match &edit {
                Edit::Claim(task, None) => {
                    // An end of a claim is followed by its record, which
                    // says whose.
                    if let Some(Edit::Record(Event::ClaimEnded { holder, reason, .. })) =
                        edits.get(n + 1)
                    {
                        n += self.check_claim_end(
                            op,
                            *task,
                            holder,
                            *reason,
                            &edits[n..],
                            &mut checked,
                        )?;
                        continue;
                    }
                    checked.ended.insert(*task);
                }
                Edit::Claim(task, Some(claim)) => {
                    self.check_claim_take(op, *task, claim, &mut checked)?;
                    checked.ended.remove(task);
                }
                _ => {}
            }
            checked.kept.push(edit);
            n += 1;
        }
        Ok(checked)
    }

    /// The end of `task`'s claim, the first of `edits`, followed by its
    /// record (by `holder`, for `reason`): kept with its record when it
    /// ends the holder's claim; an expiry of a claim that is gone or was
    /// renewed is skipped, with its record and the status that goes with
    /// it; any other end by an agent that does not hold the claim sets the
    /// operation aside. Returns how many edits it took.
    fn check_claim_end(
        &self,
        op: &Op,
        task: TaskId,
        holder: &str,
        reason: ClaimEnd,
        edits: &[Edit],
        checked: &mut Checked,
    ) -> Result<usize, Reason> {
        let current = self.board.coordination().claim(task);
        let holds = current.is_some_and(|claim| claim.holder == holder);
        let ended = checked.ended.contains(&task);
        match reason {
            ClaimEnd::Expired => {
                let due = current.is_some_and(|claim| claim.until <= op.at);
                if !(holds && due && !ended) {
                    return Ok(2 + usize::from(self.resets_status(edits.get(2), task)));
                }
            }
            _ if !holds || ended => {
                let holder = current.filter(|_| !ended).map(|claim| claim.holder.clone());
                return Err(Reason::NotHolder { task, holder });
            }
            _ => {}
        }
        checked.ended.insert(task);
        checked.kept.push(Edit::Claim(task, None));
        checked.kept.extend(edits.get(1).cloned());
        Ok(2)
    }

    /// Whether `edit` sets `task` back to pending: the status that goes
    /// with an expiry.
    fn resets_status(&self, edit: Option<&Edit>, task: TaskId) -> bool {
        matches!(edit, Some(Edit::Status(id, Status::Pending)) if self.resolve(*id) == Some(task))
    }

    /// A claim on `task`: free, ended earlier in the operation, the
    /// holder's own or past its lease, it is taken; another agent's live
    /// claim sets the operation aside, unless this claim was confirmed by
    /// the remote and that one provisional: then this one takes it over.
    fn check_claim_take(
        &self,
        op: &Op,
        task: TaskId,
        claim: &Claim,
        checked: &mut Checked,
    ) -> Result<(), Reason> {
        if checked.ended.contains(&task) {
            return Ok(());
        }
        let Some(current) = self.board.coordination().claim(task) else {
            return Ok(());
        };
        if current.holder == claim.holder || current.until <= op.at {
            return Ok(());
        }
        let ours = op.claim.unwrap_or(ClaimMode::Provisional);
        match (ours, self.claims.get(&task).copied()) {
            (
                ClaimMode::Confirmed,
                Some(
                    origin @ ClaimOrigin {
                        mode: ClaimMode::Provisional,
                        ..
                    },
                ),
            ) => {
                checked.taken_over.push(TakeOver {
                    origin,
                    holder: current.holder.clone(),
                    task,
                    winner: claim.holder.clone(),
                });
                Ok(())
            }
            _ => Err(Reason::Held {
                task,
                holder: current.holder.clone(),
            }),
        }
    }

    /// Applies what the rules kept: the board refuses it, or its links
    /// make a cycle (taken back), and the operation is set aside; else the
    /// provisional claims it took over are set aside as lost and the
    /// claims' origins follow.
    fn apply_checked(&mut self, op: &Op, checked: Checked) {
        let Checked {
            kept, taken_over, ..
        } = checked;
        let links = links_of(&kept);
        let claims = claims_of(&kept);
        let statuses = statuses_of(&kept);
        let undo = match self.board.edit(op.at, kept) {
            Ok(undo) => undo,
            Err(error) => return self.set_aside(op, Reason::Refused(error.to_string())),
        };
        if let Some((task, blocker)) = self.cycle_made(&links) {
            self.board.undo(undo);
            return self.set_aside(op, Reason::Cycle { task, blocker });
        }
        for lost in taken_over {
            let reason = Reason::Lost {
                task: lost.task,
                winner: lost.winner,
            };
            let intent = intent::claim_of(self, lost.task);
            self.set_aside_as(lost.origin.op, Some(lost.holder), reason, Some(intent));
        }
        let mode = op.claim.unwrap_or(ClaimMode::Provisional);
        for (task, claimed) in claims {
            match claimed {
                true => self.claims.insert(task, ClaimOrigin { mode, op: op.id }),
                false => self.claims.remove(&task),
            };
        }
        self.forget_ended_claims(statuses.into_iter());
    }

    /// The first of `links` (task, blocker) that, on the board as it is
    /// now, links a task to itself or closes a cycle.
    fn cycle_made(&self, links: &[(TaskId, TaskId)]) -> Option<(TaskId, TaskId)> {
        let coordination = self.board.coordination();
        links
            .iter()
            .find(|(task, blocker)| task == blocker || coordination.path(*blocker, *task).is_some())
            .copied()
    }

    /// `edit` with its task IDs resolved to the tasks they name now, or
    /// the first ID that names no task.
    fn resolved(&self, edit: &Edit) -> Result<Edit, TaskId> {
        let id = |id: TaskId| self.resolve(id).ok_or(id);
        Ok(match edit {
            Edit::Status(task, status) => Edit::Status(id(*task)?, *status),
            Edit::Claim(task, claim) => Edit::Claim(id(*task)?, claim.clone()),
            Edit::Evidence(task, evidence) => Edit::Evidence(id(*task)?, evidence.clone()),
            Edit::CompletedBy(task, agent) => Edit::CompletedBy(id(*task)?, agent.clone()),
            Edit::Link { task, blocker } => Edit::Link {
                task: id(*task)?,
                blocker: id(*blocker)?,
            },
            Edit::Unlink { task, blocker } => Edit::Unlink {
                task: id(*task)?,
                blocker: id(*blocker)?,
            },
            Edit::Dispatch(task, dispatch) => Edit::Dispatch(id(*task)?, dispatch.clone()),
            Edit::Touches(task, paths) => Edit::Touches(id(*task)?, paths.clone()),
            Edit::Note(n, note) => Edit::Note(
                *n,
                match note {
                    Some(note) => Some(Note {
                        task: match note.task {
                            Some(task) => Some(id(task)?),
                            None => None,
                        },
                        ..note.clone()
                    }),
                    None => None,
                },
            ),
            Edit::DoneWhen(_) | Edit::Record(_) => edit.clone(),
        })
    }

    /// Drops the origins of claims that are no longer on the board (their
    /// tasks were deleted).
    pub(crate) fn forget_claims_gone(&mut self) {
        let coordination = self.board.coordination();
        self.claims
            .retain(|task, _| coordination.claim(*task).is_some());
    }

    /// Moves the origin of task `from`'s claim to `to`, its new ID after a
    /// rewording (the board moved the claim).
    pub(crate) fn move_claim_origin(&mut self, from: TaskId, to: TaskId) {
        if let Some(origin) = self.claims.remove(&from) {
            self.claims.insert(to, origin);
        }
    }

    /// Drops the origins of claims that a status change ended.
    pub(crate) fn forget_ended_claims(&mut self, tasks: impl Iterator<Item = TaskId>) {
        for task in tasks {
            if self.board.coordination().claim(task).is_none() {
                self.claims.remove(&task);
            }
        }
    }
}

/// The links `edits` make: (task, blocker).
fn links_of(edits: &[Edit]) -> Vec<(TaskId, TaskId)> {
    edits
        .iter()
        .filter_map(|edit| match edit {
            Edit::Link { task, blocker } => Some((*task, *blocker)),
            _ => None,
        })
        .collect()
}

/// The claims `edits` take (true) or end (false).
fn claims_of(edits: &[Edit]) -> Vec<(TaskId, bool)> {
    edits
        .iter()
        .filter_map(|edit| match edit {
            Edit::Claim(task, claim) => Some((*task, claim.is_some())),
            _ => None,
        })
        .collect()
}

/// The tasks whose status `edits` set.
fn statuses_of(edits: &[Edit]) -> Vec<TaskId> {
    edits
        .iter()
        .filter_map(|edit| match edit {
            Edit::Status(task, _) => Some(*task),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::*;
    use crate::toolsets::planning::domain::replay::Replica;
    use crate::toolsets::planning::domain::{Action, Board, Limits, NewTask};

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn a() -> TaskId {
        TaskId::from_content("a", "")
    }

    /// Operation `counter` of one replica, at `secs`.
    fn op(counter: u64, secs: u64, action: Action) -> Op {
        let claim = action.claims().then_some(ClaimMode::Provisional);
        Op {
            id: OpId {
                stamp: secs * 1_000_000 + counter,
                replica: Replica(1),
                counter,
            },
            at: at(secs),
            claim,
            action,
        }
    }

    fn claim(holder: &str, until: u64) -> Edit {
        let claim = Claim {
            holder: holder.into(),
            since: at(1),
            until: at(until),
        };
        Edit::Claim(a(), Some(claim))
    }

    /// The end of `holder`'s claim on task a, with its record.
    fn end(holder: &str, reason: ClaimEnd) -> [Edit; 2] {
        let record = Event::ClaimEnded {
            task_id: a(),
            title: "a".into(),
            holder: holder.into(),
            until: at(100),
            reason,
        };
        [Edit::Claim(a(), None), Edit::Record(record)]
    }

    /// A board with task a in progress, claimed by ann until 100 s.
    fn claimed() -> State {
        let mut state = State::new(Board::new(Limits::default(), true));
        state.apply(&op(1, 1, Action::AddTasks(vec![NewTask::new("a", "")])));
        let edits = vec![Edit::Status(a(), Status::InProgress), claim("ann", 100)];
        state.apply(&op(2, 1, Action::Edit(edits)));
        assert_eq!(state.set_aside_count, 0);
        state
    }

    fn reasons(state: &State) -> Vec<Reason> {
        state.set_aside.iter().map(|s| s.reason.clone()).collect()
    }

    #[test]
    fn an_expiry_before_the_lease_ends_is_skipped_with_its_record_and_status() {
        let mut state = claimed();
        let before = state.clone();
        let mut edits = end("ann", ClaimEnd::Expired).to_vec();
        edits.push(Edit::Status(a(), Status::Pending));
        state.apply(&op(3, 50, Action::Edit(edits)));
        assert_eq!(state.set_aside_count, 0, "skipped, not set aside");
        assert_eq!(state.board.coordination(), before.board.coordination());
        assert_eq!(state.board.task(a()).unwrap().status, Status::InProgress);
    }

    #[test]
    fn a_claim_after_an_end_in_the_same_operation_takes_a_free_task() {
        let mut state = claimed();
        let mut edits = end("ann", ClaimEnd::Released).to_vec();
        edits.push(claim("bob", 200));
        state.apply(&op(3, 50, Action::Edit(edits)));
        assert_eq!(reasons(&state), []);
        let holder = &state.board.coordination().claim(a()).unwrap().holder;
        assert_eq!(holder, "bob");
        assert_eq!(
            state.claims[&a()].op.counter,
            3,
            "the origin is the new claim's"
        );
    }

    #[test]
    fn a_second_end_of_one_claim_is_not_the_holders_and_changes_nothing() {
        let mut state = claimed();
        let before = state.board.clone();
        let edits = [
            end("ann", ClaimEnd::Released),
            end("ann", ClaimEnd::Released),
        ]
        .concat();
        state.apply(&op(3, 50, Action::Edit(edits)));
        assert_eq!(
            reasons(&state),
            [Reason::NotHolder {
                task: a(),
                holder: None
            }]
        );
        assert_eq!(state.board.coordination(), before.coordination());
    }

    #[test]
    fn a_link_of_a_task_to_itself_is_set_aside_and_taken_back() {
        let mut state = claimed();
        let before = state.board.clone();
        let link = Edit::Link {
            task: a(),
            blocker: a(),
        };
        state.apply(&op(3, 50, Action::Edit(vec![link])));
        assert_eq!(
            reasons(&state),
            [Reason::Cycle {
                task: a(),
                blocker: a()
            }]
        );
        assert_eq!(state.board.coordination().link_count(), 0);
        assert_eq!(state.board.coordination(), before.coordination());
    }
}
