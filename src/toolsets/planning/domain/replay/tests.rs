// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The replay's rules, one test each, and the property: clones that act
//! concurrently and sync in any order, through partitions, converge to
//! byte-identical boards, keep every operation and every invariant.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;

use super::log::{Diverged, MAX_SKEW};
use super::op::Vector;
use super::*;
use crate::runtime::clock::Clock;
use crate::toolsets::planning::coordination::{Claim, Edit};
use crate::toolsets::planning::domain::{
    Action, Board, ClaimEnd, Event, Limits, NewTask, Status, TaskId, Undo,
};

const MAX_TASKS: usize = 6;

/// The readers' clock: a year past the clones' simulated clocks, so that
/// every stamp they write is one a clone could have written. (The tests of
/// that rule read at other times.)
fn reader() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(365 * 24 * 3600)
}

fn empty() -> Board {
    let limits = Limits {
        max_tasks: MAX_TASKS,
        ..Limits::default()
    };
    Board::new(limits, true).with_clock(Clock::fixed(reader()))
}

fn time(micros: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_micros(micros)
}

fn id(title: &str) -> TaskId {
    TaskId::from_content(title, "")
}

/// One clone of the repository, as the git store drives the domain: its
/// log, a wall clock, and whether its claims reach the remote first.
#[derive(Debug, Clone)]
struct Clone {
    replica: Replica,
    log: Log,
    /// Microseconds of its wall clock.
    now: u64,
}

impl Clone {
    fn new(n: u64) -> Self {
        Self {
            replica: Replica(n + 1),
            log: Log::new(),
            now: 1_000_000,
        }
    }

    fn board(&self) -> Board {
        self.log.replay(empty()).board
    }

    /// Makes a change on the replayed board, as a tool call would; a
    /// refused change writes nothing. Checks that replaying the log with
    /// the new operation gives the board the change made. Returns the
    /// operation written.
    fn act(
        &mut self,
        mode: ClaimMode,
        change: impl FnOnce(&mut Board) -> Option<Undo>,
    ) -> Option<OpId> {
        self.now += 1_000;
        let mut board = self.board();
        board.set_clock(Clock::fixed(time(self.now)));
        let done = change(&mut board)?.change().clone();
        if done.action.is_empty() {
            return None;
        }
        let op = Op {
            id: self.log.next_id(self.replica, self.now),
            at: done.at,
            claim: done.action.claims().then_some(mode),
            action: done.action,
        };
        let id = op.id;
        let before = self.log.replay(empty()).set_aside_count;
        assert!(self.log.insert(op));
        let replayed = self.log.replay(empty());
        let mut local = board;
        local.set_clock(Clock::fixed(reader()));
        assert_eq!(replayed.board, local, "the replay is the local change");
        assert_eq!(
            replayed.set_aside_count, before,
            "a local change is never set aside"
        );
        Some(id)
    }

    fn claim(&mut self, agent: &str, title: &str, minutes: u64, mode: ClaimMode) -> Option<OpId> {
        let now = self.now + 1_000;
        self.act(mode, |board| {
            let task = board.task(id(title)).cloned()?;
            if board
                .coordination()
                .claim(task.id)
                .is_some_and(|c| c.holder != agent)
            {
                return None;
            }
            let until = time(now) + Duration::from_secs(60 * minutes);
            let claim = Claim {
                holder: agent.into(),
                since: time(now),
                until,
            };
            let edits = vec![
                Edit::Status(task.id, Status::InProgress),
                Edit::Claim(task.id, Some(claim)),
                Edit::Record(Event::Claimed {
                    task_id: task.id,
                    title: task.title.clone(),
                    holder: agent.into(),
                    until,
                }),
            ];
            board.edit(time(now), edits).ok()
        })
    }

    fn release(&mut self, agent: &str, title: &str, to: Status, reason: ClaimEnd) -> Option<OpId> {
        let now = self.now + 1_000;
        self.act(ClaimMode::Provisional, |board| {
            let task = board.task(id(title)).cloned()?;
            let claim = board.coordination().claim(task.id).cloned()?;
            if reason == ClaimEnd::Released && claim.holder != agent {
                return None;
            }
            // Toolset team expires only leases that ended.
            if reason == ClaimEnd::Expired && claim.until > time(now) {
                return None;
            }
            let edits = vec![
                Edit::Claim(task.id, None),
                Edit::Record(Event::ClaimEnded {
                    task_id: task.id,
                    title: task.title.clone(),
                    holder: claim.holder.clone(),
                    until: claim.until,
                    reason,
                }),
                Edit::Status(task.id, to),
            ];
            board.edit(time(now), edits).ok()
        })
    }

    fn add(&mut self, titles: &[&str]) -> Option<OpId> {
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        self.act(ClaimMode::Provisional, |board| {
            board.add_tasks(&tasks).ok().map(|(_, undo)| undo)
        })
    }

    fn status(&mut self, title: &str, status: &str) -> Option<OpId> {
        let task = id(title).to_string();
        self.act(ClaimMode::Provisional, |board| {
            board.update_statuses(&[(&task, status)]).ok()
        })
    }

    fn delete(&mut self, title: &str) -> Option<OpId> {
        let task = id(title).to_string();
        self.act(ClaimMode::Provisional, |board| {
            board.delete_tasks(&[&task]).ok()
        })
    }

    fn reword(&mut self, title: &str, to: &str) -> Option<OpId> {
        let task = id(title).to_string();
        self.act(ClaimMode::Provisional, |board| {
            board
                .modify_task(&task, Some(to), None)
                .ok()
                .map(|(_, undo)| undo)
        })
    }

    fn link(&mut self, task: &str, blocker: &str) -> Option<OpId> {
        let (task, blocker) = (id(task), id(blocker));
        self.act(ClaimMode::Provisional, |board| {
            if board.task(task).is_none()
                || board.task(blocker).is_none()
                || task == blocker
                || board.coordination().path(blocker, task).is_some()
            {
                return None;
            }
            board
                .edit(board.clock().now(), vec![Edit::Link { task, blocker }])
                .ok()
        })
    }

    /// Fetches and merges `remote`, then pushes: the remote takes the
    /// merged log (a compare-and-swap that succeeds: the test runs one
    /// step at a time).
    fn sync(&mut self, remote: &mut Log) {
        self.log = self
            .log
            .merge(remote)
            .expect("checkpoints made through the remote");
        *remote = self.log.clone();
    }

    /// Compacts through the remote: fetch, merge, compact, push.
    fn compact(&mut self, remote: &mut Log) {
        self.log = self
            .log
            .merge(remote)
            .expect("checkpoints made through the remote");
        self.now += 1_000;
        let id = CheckpointId {
            stamp: self.log.next_id(self.replica, self.now).stamp,
            replica: self.replica,
        };
        let before = self.log.replay(empty());
        self.log = self.log.compact(id, empty());
        let after = self.log.replay(empty());
        assert_eq!(after.board, before.board, "compaction changes no board");
        *remote = self.log.clone();
    }
}

/// The snapshot of a board (what clones compare, byte for byte).
fn bytes(board: &Board) -> Vec<u8> {
    crate::toolsets::planning::store::snapshot::to_json(board)
}

fn set_aside(log: &Log) -> Vec<Reason> {
    log.replay(empty())
        .set_aside
        .into_iter()
        .map(|s| s.reason)
        .collect()
}

#[test]
fn complete_and_delete_of_one_task_end_deleted_in_either_order() {
    for complete_first in [true, false] {
        let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
        a.add(&["t"]);
        a.sync(&mut remote);
        b.sync(&mut remote);
        // The later clock writes the later operation.
        if complete_first {
            a.status("t", "completed");
            b.now = a.now + 10_000;
            b.delete("t");
        } else {
            b.delete("t");
            a.now = b.now + 10_000;
            a.status("t", "completed");
        }
        a.sync(&mut remote);
        b.sync(&mut remote);
        a.sync(&mut remote);
        assert!(a.board().is_empty(), "delete wins");
        assert_eq!(bytes(&a.board()), bytes(&b.board()));
        let expected = match complete_first {
            true => vec![],
            false => vec![Reason::TaskGone(id("t"))],
        };
        assert_eq!(set_aside(&a.log), expected);
    }
}

#[test]
fn two_adds_of_one_task_are_one_task_and_excess_adds_are_set_aside() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["same", "a1", "a2", "a3"]);
    b.add(&["same", "b1", "b2", "b3"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.sync(&mut remote);
    let board = a.board();
    let titles: Vec<&str> = board.tasks().map(|t| t.title.as_str()).collect();
    // a's add came first: its four, then b's first two of three new ones.
    assert_eq!(titles, ["same", "a1", "a2", "a3", "b1", "b2"]);
    assert_eq!(
        set_aside(&b.log),
        [Reason::TooManyTasks {
            title: "b3".into(),
            max: MAX_TASKS
        }]
    );
    assert_eq!(bytes(&board), bytes(&b.board()));
}

#[test]
fn a_status_change_written_before_a_rewording_reaches_the_reworded_task() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["old", "other"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.reword("old", "new");
    b.status("old", "completed");
    b.reword("other", "new");
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.sync(&mut remote);
    let board = a.board();
    let task = board.task(id("new")).expect("reworded");
    assert_eq!(task.status, Status::Completed);
    // b's rewording of "other" to the same words came second: set aside.
    assert!(board.task(id("other")).is_some());
    assert_eq!(
        set_aside(&a.log),
        [Reason::IdTaken {
            task: id("other"),
            id: id("new")
        }]
    );
}

#[test]
fn a_second_first_goal_is_set_aside() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.act(ClaimMode::Provisional, |b| b.set_goal("A", "").ok());
    b.act(ClaimMode::Provisional, |b| b.set_goal("B", "").ok());
    a.sync(&mut remote);
    b.sync(&mut remote);
    assert_eq!(b.board().goal().unwrap().title, "A");
    assert_eq!(
        set_aside(&b.log),
        [Reason::GoalAlreadySet { title: "B".into() }]
    );
}

#[test]
fn an_offline_rewording_onto_a_deleted_tasks_words_leaves_one_claim_per_task() {
    let (mut a, mut b, mut c, mut remote) =
        (Clone::new(0), Clone::new(1), Clone::new(2), Log::new());
    a.add(&["x", "y"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    // b, offline and behind in time, deletes x and rewords y as "x".
    b.delete("x");
    b.reword("y", "x");
    // c, online and later, has two claims acknowledged: x and y.
    c.now = b.now + 1_000_000;
    for (agent, task) in [("cyd", "x"), ("ann", "y")] {
        c.sync(&mut remote);
        assert!(c.claim(agent, task, 5, ClaimMode::Confirmed).is_some());
        c.sync(&mut remote);
    }
    b.sync(&mut remote);
    c.sync(&mut remote);
    // b's operations come first: y now bears x's words and ID, so both
    // claims name one task; the first in order holds it.
    let board = c.board();
    let titles: Vec<&str> = board.tasks().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["x"]);
    assert_eq!(board.coordination().claim(id("x")).unwrap().holder, "cyd");
    assert_eq!(
        set_aside(&c.log),
        [Reason::Held {
            task: id("x"),
            holder: "cyd".into()
        }]
    );
    assert_eq!(bytes(&board), bytes(&b.board()));
}

#[test]
fn a_confirmed_claim_takes_over_a_provisional_one_and_the_loser_is_named() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["t"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    // b is offline: its claim is provisional, and earlier than a's.
    let lost = b.claim("bee", "t", 30, ClaimMode::Provisional).unwrap();
    b.release("bee", "t", Status::Completed, ClaimEnd::Released);
    a.sync(&mut remote);
    a.claim("ay", "t", 30, ClaimMode::Confirmed).unwrap();
    a.sync(&mut remote);
    b.sync(&mut remote);
    let board = b.board();
    assert_eq!(board.coordination().claim(id("t")).unwrap().holder, "ay");
    assert_eq!(board.task(id("t")).unwrap().status, Status::InProgress);
    let aside = b.log.replay(empty()).set_aside;
    let lost_entry = aside.iter().find(|s| s.op == lost).unwrap();
    assert_eq!(lost_entry.agent.as_deref(), Some("bee"));
    assert_eq!(
        lost_entry.reason,
        Reason::Lost {
            task: id("t"),
            winner: "ay".into()
        }
    );
    // bee's release of a task it no longer holds is set aside too.
    assert_eq!(
        aside.last().unwrap().reason,
        Reason::NotHolder {
            task: id("t"),
            holder: Some("ay".into())
        }
    );
}

#[test]
fn of_two_provisional_claims_the_first_in_order_wins() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["t"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.claim("ay", "t", 30, ClaimMode::Provisional);
    b.now = a.now + 5_000;
    b.claim("bee", "t", 30, ClaimMode::Provisional);
    b.sync(&mut remote);
    a.sync(&mut remote);
    assert_eq!(
        a.board().coordination().claim(id("t")).unwrap().holder,
        "ay"
    );
    assert_eq!(
        set_aside(&a.log),
        [Reason::Held {
            task: id("t"),
            holder: "ay".into()
        }]
    );
}

#[test]
fn an_expiry_of_a_claim_that_moved_on_is_skipped() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["t"]);
    a.claim("ay", "t", 1, ClaimMode::Provisional);
    a.sync(&mut remote);
    b.sync(&mut remote);
    // Both see the lease end; a expires it and another agent claims it;
    // b expires it too, later.
    a.now += 120_000_000;
    b.now = a.now + 10_000;
    a.release("ay", "t", Status::Pending, ClaimEnd::Expired);
    a.claim("cee", "t", 30, ClaimMode::Provisional);
    b.release("ay", "t", Status::Pending, ClaimEnd::Expired);
    a.sync(&mut remote);
    b.sync(&mut remote);
    let board = b.board();
    assert_eq!(board.coordination().claim(id("t")).unwrap().holder, "cee");
    assert_eq!(board.task(id("t")).unwrap().status, Status::InProgress);
    assert_eq!(set_aside(&b.log), []);
}

/// A lead's dispatch of `title` to `worker` (team's `dispatch_task`).
fn dispatch(clone: &mut Clone, title: &str, worker: &str) -> Option<OpId> {
    let now = clone.now + 1_000;
    clone.act(ClaimMode::Provisional, |board| {
        let record = crate::toolsets::planning::coordination::Dispatch {
            worker: worker.into(),
            by: "lead".into(),
            place: None,
            note: None,
            at: time(now),
            until: time(now + 600_000_000),
            claimed: false,
        };
        board
            .edit(time(now), vec![Edit::Dispatch(id(title), Some(record))])
            .ok()
    })
}

#[test]
fn of_two_dispatches_the_later_stands_and_touches_of_a_deleted_task_are_set_aside() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["t", "u"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    dispatch(&mut a, "t", "worker-a");
    b.now = a.now + 10_000;
    dispatch(&mut b, "t", "worker-b");
    // a deletes u; b, not knowing, says which paths u touches.
    a.delete("u");
    b.now = a.now + 10_000;
    let now = b.now + 1_000;
    b.act(ClaimMode::Provisional, |board| {
        board
            .edit(
                time(now),
                vec![Edit::Touches(id("u"), vec!["src/**".into()])],
            )
            .ok()
    });
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.sync(&mut remote);
    let board = a.board();
    let worker = board
        .coordination()
        .dispatch(id("t"))
        .map(|d| d.worker.clone());
    assert_eq!(worker.as_deref(), Some("worker-b"));
    assert!(board.task(id("u")).is_none());
    assert_eq!(bytes(&board), bytes(&b.board()));
    assert_eq!(set_aside(&a.log), vec![Reason::TaskGone(id("u"))]);
}

#[test]
fn links_that_make_a_cycle_across_clones_are_set_aside() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["x", "y"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.link("x", "y");
    b.now = a.now + 10_000;
    b.link("y", "x");
    a.sync(&mut remote);
    b.sync(&mut remote);
    let board = b.board();
    assert!(board.coordination().find_cycle().is_none());
    assert_eq!(board.coordination().link_count(), 1);
    assert_eq!(
        set_aside(&b.log),
        [Reason::Cycle {
            task: id("y"),
            blocker: id("x")
        }]
    );
}

/// An `add_tasks` plan of `titles` in which each task waits for `blocker`.
fn plan(clone: &mut Clone, titles: &[&str], blocker: &str) -> Option<OpId> {
    use crate::toolsets::planning::coordination::plan::Attach;
    let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
    let blocker = id(blocker);
    clone.act(ClaimMode::Provisional, |board| {
        let attach = |board: &Board, _: &_| {
            let links = titles.iter().map(|t| Attach::Link {
                task: id(t),
                blocker,
            });
            match board.task(blocker) {
                Some(_) => Ok(links.collect()),
                None => Err(crate::toolsets::planning::domain::BoardError::NoGoal),
            }
        };
        board
            .add_tasks_with(&tasks, attach)
            .ok()
            .map(|(_, _, undo)| undo)
    })
}

#[test]
fn a_plan_whose_blocker_another_clone_deleted_keeps_its_tasks_and_sets_its_links_aside() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["x"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.delete("x");
    b.now = a.now + 10_000;
    plan(&mut b, &["y", "z"], "x").unwrap();
    a.sync(&mut remote);
    b.sync(&mut remote);
    a.sync(&mut remote);
    let board = b.board();
    assert_eq!(board.len(), 2, "the plan's tasks are added");
    assert_eq!(board.coordination().link_count(), 0);
    assert_eq!(set_aside(&b.log), [Reason::TaskGone(id("x"))]);
    assert_eq!(bytes(&a.board()), bytes(&board), "both clones agree");
}

#[test]
fn an_unreadable_entry_is_set_aside_and_the_others_replay() {
    let mut a = Clone::new(0);
    a.add(&["kept"]);
    a.log.insert_corrupt(Corrupt {
        name: Some((Replica(9), 1)),
        label: "0000000000000009-1".into(),
        problem: "not JSON".into(),
    });
    a.add(&["also kept"]);
    assert_eq!(a.board().len(), 2);
    assert_eq!(
        set_aside(&a.log),
        [Reason::Corrupt {
            entry: "0000000000000009-1".into(),
            problem: "not JSON".into()
        }]
    );
    // The next operation of replica 9 does not reuse its number.
    assert_eq!(a.log.next_id(Replica(9), 0).counter, 2);
}

#[test]
fn the_order_is_stamp_then_replica_then_counter_and_stamps_pass_what_was_seen() {
    let mut a = Clone::new(0);
    a.now = 5_000_000;
    a.add(&["first"]);
    let mut b = Clone::new(1);
    b.now = 1_000; // far behind
    let mut remote = a.log.clone();
    b.sync(&mut remote);
    let op = b.add(&["second"]).unwrap();
    assert!(op.stamp > 5_000_000, "after everything it had seen");
    let titles: Vec<String> = b.board().tasks().map(|t| t.title.clone()).collect();
    assert_eq!(titles, ["first", "second"]);
}

#[test]
fn a_checkpoint_replays_what_it_covers_and_late_operations_after_it() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["a"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    // b goes offline and completes "a", with an old stamp.
    b.status("a", "completed");
    a.now += 10_000_000;
    a.add(&["b"]);
    a.compact(&mut remote);
    assert!(remote.is_empty() && remote.checkpoint().is_some());
    b.sync(&mut remote);
    a.sync(&mut remote);
    let board = a.board();
    assert_eq!(board.task(id("a")).unwrap().status, Status::Completed);
    assert_eq!(bytes(&board), bytes(&b.board()));
    // The operations the checkpoint covers are gone from the log, and an
    // old clone's copy of them brings nothing back.
    let mut old = Log::new();
    assert!(
        old.insert(
            a.log
                .checkpoint()
                .unwrap()
                .state
                .board
                .tasks()
                .next()
                .map(|_| {
                    Op {
                        id: OpId {
                            stamp: 1,
                            replica: a.replica,
                            counter: 1,
                        },
                        at: UNIX_EPOCH,
                        claim: None,
                        action: Action::AddTasks(vec![NewTask::new("a", "")]),
                    }
                })
                .unwrap()
        )
    );
    let merged = a.log.merge(&old).unwrap();
    assert_eq!(merged.len(), a.log.len());
}

#[test]
fn checkpoints_that_went_apart_do_not_merge() {
    let (mut a, mut b) = (Clone::new(0), Clone::new(1));
    let (mut ra, mut rb) = (Log::new(), Log::new());
    a.add(&["x"]);
    b.add(&["y"]);
    a.compact(&mut ra);
    b.compact(&mut rb);
    assert_eq!(a.log.merge(&b.log), Err(Diverged { common: None }));
}

/// A step of the property test.
#[derive(Debug, Clone)]
enum Step {
    Add(usize, u8, u8),
    Status(usize, u8, u8),
    Delete(usize, u8),
    Reword(usize, u8, u8),
    Claim(usize, u8, u8, bool),
    Release(usize, u8, u8),
    Expire(usize, u8),
    Link(usize, u8, u8),
    Goal(usize, u8),
    Sync(usize),
    Compact(usize),
    Sleep(usize, u32),
}

const TITLES: [&str; 9] = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
const AGENTS: [&str; 3] = ["ann", "bob", "cyd"];

fn step(clones: usize) -> impl Strategy<Value = Step> {
    let c = 0..clones;
    let t = 0u8..9;
    prop_oneof![
        3 => (c.clone(), t.clone(), t.clone()).prop_map(|(c, a, b)| Step::Add(c, a, b)),
        3 => (c.clone(), t.clone(), 0u8..5).prop_map(|(c, a, s)| Step::Status(c, a, s)),
        1 => (c.clone(), t.clone()).prop_map(|(c, a)| Step::Delete(c, a)),
        2 => (c.clone(), t.clone(), t.clone()).prop_map(|(c, a, b)| Step::Reword(c, a, b)),
        3 => (c.clone(), t.clone(), 0u8..3, any::<bool>()).prop_map(|(c, a, g, k)| Step::Claim(c, a, g, k)),
        2 => (c.clone(), t.clone(), 0u8..3).prop_map(|(c, a, s)| Step::Release(c, a, s)),
        1 => (c.clone(), t.clone()).prop_map(|(c, a)| Step::Expire(c, a)),
        2 => (c.clone(), t.clone(), t.clone()).prop_map(|(c, a, b)| Step::Link(c, a, b)),
        1 => (c.clone(), 0u8..3).prop_map(|(c, g)| Step::Goal(c, g)),
        3 => c.clone().prop_map(Step::Sync),
        1 => c.clone().prop_map(Step::Compact),
        1 => (c, 0u32..3_000_000).prop_map(|(c, d)| Step::Sleep(c, d)),
    ]
}

/// The board's invariants: within max_tasks, one task per ID, links
/// without cycle naming tasks on the board, claims on tasks in progress.
fn check_invariants(state: &State) {
    let board = &state.board;
    assert!(board.len() <= MAX_TASKS);
    let ids: BTreeSet<TaskId> = board.tasks().map(|t| t.id).collect();
    assert_eq!(ids.len(), board.len(), "one task per ID");
    let coordination = board.coordination();
    assert!(coordination.find_cycle().is_none(), "no cycle");
    for task in board.tasks() {
        for blocker in coordination.blockers(task.id) {
            assert!(ids.contains(blocker), "a link names a task on the board");
        }
    }
    for (task, _) in coordination.claims() {
        let task = board.task(task).expect("a claim names a task on the board");
        assert_eq!(
            task.status,
            Status::InProgress,
            "a claimed task is in progress"
        );
    }
}

/// The title of the `n`th task (modulo the count) on `clone`'s board, or
/// of a task not on it when the board is empty.
fn pick(clone: &Clone, n: u8) -> String {
    let board = clone.board();
    match board.len() {
        0 => TITLES[n as usize % TITLES.len()].to_owned(),
        len => board
            .tasks()
            .nth(n as usize % len)
            .map(|t| t.title.clone())
            .unwrap_or_default(),
    }
}

fn run(clones: usize, steps: &[Step]) {
    let mut all: Vec<Clone> = (0..clones as u64).map(Clone::new).collect();
    let mut remote = Log::new();
    let mut written: Vec<OpId> = Vec::new();
    // The operations that add, delete or reword tasks.
    let mut reshaping: Vec<OpId> = Vec::new();
    // Each acknowledged claim with what its clone had seen when it made it.
    let mut confirmed: Vec<(OpId, Vector)> = Vec::new();
    for step in steps {
        let op = match *step {
            Step::Add(c, a, b) => {
                let op = all[c].add(&[TITLES[a as usize], TITLES[b as usize]]);
                reshaping.extend(op);
                op
            }
            Step::Status(c, a, s) => {
                let status = Status::ALL[s as usize].as_str();
                let task = pick(&all[c], a);
                all[c].status(&task, status)
            }
            Step::Delete(c, a) => {
                let task = pick(&all[c], a);
                let op = all[c].delete(&task);
                reshaping.extend(op);
                op
            }
            Step::Reword(c, a, b) => {
                let task = pick(&all[c], a);
                let op = all[c].reword(&task, TITLES[b as usize]);
                reshaping.extend(op);
                op
            }
            Step::Claim(c, a, g, online) => {
                let agent = AGENTS[g as usize];
                match online {
                    // Sync on: fetch, decide, push before telling the agent.
                    true => {
                        all[c].sync(&mut remote);
                        let task = pick(&all[c], a);
                        let seen = all[c].log.vector();
                        let op = all[c].claim(agent, &task, 5, ClaimMode::Confirmed);
                        all[c].sync(&mut remote);
                        confirmed.extend(op.map(|op| (op, seen)));
                        op
                    }
                    false => {
                        let task = pick(&all[c], a);
                        all[c].claim(agent, &task, 5, ClaimMode::Provisional)
                    }
                }
            }
            Step::Release(c, a, s) => {
                let agent = AGENTS[s as usize];
                let task = pick(&all[c], a);
                let to = [Status::Completed, Status::Failed, Status::Pending][s as usize];
                all[c].release(agent, &task, to, ClaimEnd::Released)
            }
            Step::Expire(c, a) => {
                // Time passes for every clone: their clocks stay within the
                // skew a replay trusts (the clones' own skews come from
                // `Sleep`).
                for clone in &mut all {
                    clone.now += 6 * 60 * 1_000_000;
                }
                let task = pick(&all[c], a);
                all[c].release("", &task, Status::Pending, ClaimEnd::Expired)
            }
            Step::Link(c, a, b) => {
                let (task, blocker) = (pick(&all[c], a), pick(&all[c], b));
                all[c].link(&task, &blocker)
            }
            Step::Goal(c, g) => {
                let title = AGENTS[g as usize];
                all[c].act(ClaimMode::Provisional, |board| match board.goal() {
                    None => board.set_goal(title, "").ok(),
                    Some(_) => board.change_goal(title, "", "why").ok(),
                })
            }
            Step::Sync(c) => {
                all[c].sync(&mut remote);
                None
            }
            Step::Compact(c) => {
                all[c].compact(&mut remote);
                None
            }
            Step::Sleep(c, d) => {
                all[c].now += u64::from(d);
                None
            }
        };
        written.extend(op);
        for clone in &all {
            check_invariants(&clone.log.replay(empty()));
        }
    }
    // Everyone syncs, twice round: every clone then holds the same log.
    for _ in 0..2 {
        for clone in &mut all {
            clone.sync(&mut remote);
        }
    }
    let expected = bytes(&all[0].board());
    for clone in &all {
        assert_eq!(clone.log, all[0].log);
        assert_eq!(bytes(&clone.board()), expected, "byte-identical boards");
    }
    // No operation is missing: each is in the log or in its checkpoint.
    let log = &all[0].log;
    for op in &written {
        assert!(
            log.op(op.replica, op.counter).is_some() || log.covered(op.replica, op.counter),
            "{op} is missing"
        );
    }
    // The same operations in any order (and without the checkpoint's
    // history of merges) make the same board.
    let mut reversed = Log::new();
    if let Some(checkpoint) = log.checkpoint() {
        reversed = Log::from_checkpoint(checkpoint.clone());
    }
    for op in log.ops().rev() {
        reversed.insert(op.clone());
    }
    assert_eq!(bytes(&reversed.replay(empty()).board), expected);
    // An acknowledged claim stands, unless an operation its clone had not
    // seen (written offline), ordered before it, added, deleted or
    // reworded tasks: that can take its task away (a delete, or an add
    // set aside past max_tasks), or give its task's ID to the task another
    // acknowledged claim holds (one winner per task).
    let state = log.replay(empty());
    for aside in &state.set_aside {
        let Some((_, seen)) = confirmed.iter().find(|(op, _)| *op == aside.op) else {
            continue;
        };
        let unseen_reshaping = reshaping
            .iter()
            .any(|op| *op < aside.op && seen.get(&op.replica).is_none_or(|&n| op.counter > n));
        assert!(
            unseen_reshaping,
            "an acknowledged claim was set aside: {aside}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn clones_converge_whatever_the_order_of_their_syncs(
        (clones, steps) in (2usize..5).prop_flat_map(|n| (Just(n), prop::collection::vec(step(n), 1..120)))
    ) {
        run(clones, &steps);
    }
}

/// An operation of `replica` numbered `counter`, stamped `stamp`, that
/// deletes task `title` (what a hostile clone would forge).
fn forged(replica: u64, counter: u64, stamp: u64, title: &str) -> Op {
    Op {
        id: OpId {
            stamp,
            replica: Replica(replica),
            counter,
        },
        at: time(stamp.min(1_000_000)),
        claim: None,
        action: Action::Delete(vec![id(title)]),
    }
}

#[test]
fn an_operation_numbered_past_a_gap_is_set_aside_and_moves_no_counter() {
    let mut a = Clone::new(0);
    a.add(&["kept"]);
    // Forged under a's own replica, numbered u64::MAX.
    assert!(a.log.insert(forged(1, u64::MAX, 2_000_000, "kept")));
    assert_eq!(a.board().len(), 1, "the forged delete is not applied");
    assert!(
        matches!(&set_aside(&a.log)[..], [Reason::Untrusted(why)] if why.contains("after a gap")),
        "{:?}",
        set_aside(&a.log)
    );
    assert_eq!(a.log.vector().get(&a.replica), Some(&1));
    // a's next changes number on, are read back, and survive compaction.
    let next = a.add(&["next"]).unwrap();
    assert_eq!(next.counter, 2);
    let mut remote = Log::new();
    a.compact(&mut remote);
    assert_eq!(a.board().len(), 2);
    assert_eq!(a.log.checkpoint().unwrap().covers.get(&a.replica), Some(&2));
    assert_eq!(a.add(&["after"]).unwrap().counter, 3);
    assert_eq!(a.board().len(), 3);
}

#[test]
fn an_operation_stamped_past_the_clock_and_its_skew_is_set_aside_until_then() {
    let mut a = Clone::new(0);
    a.add(&["kept"]);
    let skew = u64::try_from(MAX_SKEW.as_micros()).unwrap();
    // A reader whose clock is at 0: u64::MAX and 0 + skew + 1 are beyond
    // what a clone could have written.
    let at_zero = || empty().with_clock(Clock::fixed(UNIX_EPOCH));
    for stamp in [u64::MAX, skew + 1] {
        let mut log = a.log.clone();
        log.insert(forged(7, 1, stamp, "kept"));
        let state = log.replay(at_zero());
        assert_eq!(state.board.len(), 1, "stamp {stamp}: not applied");
        assert!(
            matches!(&state.set_aside[..], [SetAside { reason: Reason::Untrusted(why), .. }] if why.contains("10 minutes")),
            "{:?}",
            state.set_aside
        );
        // The forged stamp does not push the writers' clock.
        assert!(log.next_id(a.replica, 0).stamp < skew);
    }
    // Within the skew it is trusted: a clone up to 10 minutes ahead.
    let mut log = a.log.clone();
    log.insert(forged(7, 1, skew, "kept"));
    assert_eq!(log.replay(at_zero()).board.len(), 0);
    // And once the reader's clock reaches a stamp, it applies.
    let mut log = a.log.clone();
    log.insert(forged(7, 1, skew + 5, "kept"));
    let later = empty().with_clock(Clock::fixed(time(10)));
    assert_eq!(log.replay(later).board.len(), 0);
}

#[test]
fn a_clone_30_minutes_ahead_cannot_take_over_a_lease_before_it_ended_elsewhere() {
    let minute = 60 * 1_000_000;
    let mut a = Clone::new(0);
    a.add(&["t"]);
    assert!(a.claim("ann", "t", 15, ClaimMode::Confirmed).is_some());
    // b's clock runs 30 minutes ahead: by it, ann's lease has ended.
    let mut b = Clone::new(1);
    let mut remote = a.log.clone();
    b.sync(&mut remote);
    b.now = a.now + 30 * minute;
    assert!(
        b.release("", "t", Status::Pending, ClaimEnd::Expired)
            .is_some()
    );
    assert!(b.claim("bob", "t", 15, ClaimMode::Confirmed).is_some());
    b.sync(&mut remote);
    a.sync(&mut remote);
    let holder = |log: &Log, at: u64| {
        let reader = empty().with_clock(Clock::fixed(time(at)));
        let state = log.replay(reader);
        let holder = state
            .board
            .coordination()
            .claim(id("t"))
            .map(|c| c.holder.clone());
        (holder, state.set_aside)
    };
    // Every clone whose clock is within 10 minutes of a's: ann holds it,
    // bob's claim is set aside, not trusted.
    for at in [a.now + 1_000_000, a.now + 15 * minute] {
        let (who, aside) = holder(&a.log, at);
        assert_eq!(who.as_deref(), Some("ann"));
        assert_eq!(aside.len(), 2, "the expiry and the claim: {aside:?}");
        assert!(
            aside
                .iter()
                .all(|s| matches!(s.reason, Reason::Untrusted(_))),
            "{aside:?}"
        );
    }
    // Once their clocks reach bob's stamp less the skew, ann's 15 minutes
    // have ended by their clocks too: bob's claim stands everywhere.
    let (who, _) = holder(&a.log, a.now + 21 * minute);
    assert_eq!(who.as_deref(), Some("bob"));
}

#[test]
fn what_a_set_aside_operation_set_out_to_do_is_said_in_its_tools_words() {
    let (mut a, mut b, mut remote) = (Clone::new(0), Clone::new(1), Log::new());
    a.add(&["Ship it", "Held"]);
    a.sync(&mut remote);
    b.sync(&mut remote);
    // b deletes "Ship it" first; a, offline, completes and rewords it and
    // claims "Held" after b did.
    b.delete("Ship it");
    b.claim("bee", "Held", 30, ClaimMode::Confirmed).unwrap();
    a.now = b.now + 10_000;
    a.status("Ship it", "completed");
    a.reword("Ship it", "Ship it now");
    a.claim("ay", "Held", 30, ClaimMode::Provisional).unwrap();
    b.sync(&mut remote);
    a.sync(&mut remote);
    let aside = a.log.replay(empty()).set_aside;
    let said: Vec<String> = aside.iter().map(SetAside::what_happened).collect();
    let (gone, held) = (id("Ship it"), id("Held"));
    assert_eq!(
        said,
        [
            format!(
                "update_task_statuses of [{gone}] 'Ship it' to completed: the task had been \
                 deleted on another clone; delete wins"
            ),
            format!(
                "modify_task of [{gone}] 'Ship it': the task had been deleted on another clone; \
                 delete wins"
            ),
            format!("claim_task of [{held}] 'Held': bee holds the task"),
        ]
    );
    assert_eq!(aside[2].agent.as_deref(), Some("ay"));
    let notice = aside[0].notice();
    assert!(
        notice.starts_with(&format!(
            "Sync: your update_task_statuses of [{gone}] 'Ship it'"
        )),
        "{notice}"
    );
    assert!(notice.ends_with(&format!(
        "kept in the board's history in git (operation {}).",
        aside[0].op
    )));
    // A stored checkpoint keeps the reason as its words (not the intent):
    // each is told and reported by the same key before and after.
    let keys: Vec<String> = aside.iter().map(SetAside::key).collect();
    let noted: Vec<String> = aside
        .iter()
        .map(|s| {
            SetAside {
                reason: Reason::Noted(s.reason.to_string()),
                intent: None,
                ..s.clone()
            }
            .key()
        })
        .collect();
    assert_eq!(noted, keys);
}

/// The reach of `log` by `bound` as it was first written: a map of each
/// replica's counters, walked in order (the reference for
/// [`Log::reaches`], which sorts lists instead).
fn reach_by_maps(log: &Log, bound: u64) -> Vector {
    let mut vector = log
        .checkpoint()
        .map(|checkpoint| checkpoint.covers.clone())
        .unwrap_or_default();
    let mut counters: std::collections::BTreeMap<Replica, std::collections::BTreeMap<u64, bool>> =
        std::collections::BTreeMap::new();
    for op in log.ops() {
        let fits = op.id.stamp <= bound && super::log::micros(op.at) <= bound;
        let entry = counters
            .entry(op.id.replica)
            .or_default()
            .entry(op.id.counter);
        *entry.or_insert(false) |= fits;
    }
    for (replica, counter) in log.corrupt().filter_map(|c| c.name) {
        counters.entry(replica).or_default().insert(counter, true);
    }
    for (replica, counters) in counters {
        let from = vector.get(&replica).copied().unwrap_or(0);
        let mut reach = from;
        for (&counter, &fits) in counters.range(from.saturating_add(1)..) {
            if Some(counter) != reach.checked_add(1) || !fits {
                break;
            }
            reach = counter;
        }
        if reach > 0 {
            vector.insert(replica, reach);
        }
    }
    vector
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The reaches in one pass are the reaches walked map by map, on logs
    /// with gaps, repeated names, unreadable entries, stamps past the
    /// bound and a checkpoint.
    #[test]
    fn the_reaches_in_one_pass_are_those_walked_by_maps(
        ops in prop::collection::vec((1u64..4, 1u64..12, 0u64..40), 0..60),
        corrupt in prop::collection::vec((1u64..4, 1u64..12), 0..4),
        covers in prop::collection::btree_map(1u64..4, 0u64..5, 0..3),
        bound in 0u64..40,
    ) {
        let covers: Vector = covers.into_iter().map(|(r, n)| (Replica(r), n)).collect();
        let mut log = match covers.is_empty() {
            true => Log::new(),
            false => Log::from_checkpoint(super::log::Checkpoint {
                id: super::log::CheckpointId { stamp: 1, replica: Replica(1) },
                chain: Vec::new(),
                covers,
                state: State::new(empty()),
            }),
        };
        for (replica, counter, stamp) in ops {
            let _ = log.insert(forged(replica, counter, stamp, "t"));
        }
        for (replica, counter) in corrupt {
            log.insert_corrupt(Corrupt {
                name: Some((Replica(replica), counter)),
                label: format!("{replica}-{counter}"),
                problem: "not JSON".into(),
            });
        }
        let (trusted, counted) = log.reaches(bound);
        prop_assert_eq!(trusted, reach_by_maps(&log, bound));
        prop_assert_eq!(&counted, &reach_by_maps(&log, u64::MAX));
        prop_assert_eq!(log.vector(), counted);
    }
}
