// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The property the git log's save relies on instead of checking each save:
//! the operation a save appends ([`super::store::operation`] of the change a
//! board's mutation returned), replayed on the stored state, gives the board
//! the change made, as its snapshot says (times to the microsecond, as the
//! log keeps them), and sets nothing aside.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;

use super::store::operation;
use crate::runtime::clock::Clock;
use crate::toolsets::planning::coordination::plan::Attach;
use crate::toolsets::planning::coordination::{Claim, Edit};
use crate::toolsets::planning::domain::replay::{ClaimMode, OpId, Replica, State};
use crate::toolsets::planning::domain::{
    Board, BoardError, Event, Limits, NewTask, Status, TaskId, Undo,
};
use crate::toolsets::planning::store::snapshot::to_json;

/// Whether two boards hold the same, as their snapshots say (times to the
/// microsecond, as the log keeps them).
fn same_board(a: &Board, b: &Board) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.set_clock(Clock::fixed(UNIX_EPOCH));
    b.set_clock(Clock::fixed(UNIX_EPOCH));
    to_json(&a) == to_json(&b)
}

const TITLES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];
const AGENTS: [&str; 2] = ["ann", "bob"];

/// One tool call, by index into the titles and agents.
#[derive(Debug, Clone)]
enum Call {
    Goal(u8),
    Add(u8, u8),
    Status(u8, u8),
    Reword(u8, u8),
    Delete(u8),
    Claim(u8, u8),
    Release(u8, u8),
    Link(u8, u8),
    Touches(u8),
    DoneWhen(u8),
    /// `add_tasks` of two tasks with toolset team's fields: the second
    /// waits for the first, the first touches a path.
    Plan(u8, u8),
}

fn call() -> impl Strategy<Value = Call> {
    let t = 0u8..6;
    prop_oneof![
        1 => (0u8..2).prop_map(Call::Goal),
        3 => (t.clone(), t.clone()).prop_map(|(a, b)| Call::Add(a, b)),
        3 => (t.clone(), 0u8..5).prop_map(|(a, s)| Call::Status(a, s)),
        2 => (t.clone(), t.clone()).prop_map(|(a, b)| Call::Reword(a, b)),
        1 => t.clone().prop_map(Call::Delete),
        3 => (t.clone(), 0u8..2).prop_map(|(a, g)| Call::Claim(a, g)),
        2 => (t.clone(), 0u8..3).prop_map(|(a, s)| Call::Release(a, s)),
        2 => (t.clone(), t.clone()).prop_map(|(a, b)| Call::Link(a, b)),
        1 => t.clone().prop_map(Call::Touches),
        1 => (0u8..2).prop_map(Call::DoneWhen),
        2 => (t.clone(), t.clone()).prop_map(|(a, b)| Call::Plan(a, b)),
    ]
}

/// The `n`th task on the board (modulo the count), if any.
fn pick(board: &Board, n: u8) -> Option<(TaskId, String)> {
    let len = board.len();
    (len > 0)
        .then(|| board.tasks().nth(usize::from(n) % len))
        .flatten()
        .map(|task| (task.id, task.title.clone()))
}

/// Makes `call` on `board` at `now` as the tools would (team's calls
/// only where team's rules allow them); `None` when refused.
fn make(board: &mut Board, call: &Call, now: SystemTime) -> Option<Undo> {
    match *call {
        Call::Goal(g) => match board.goal() {
            None => board.set_goal(AGENTS[usize::from(g)], "").ok(),
            Some(_) => board.change_goal(AGENTS[usize::from(g)], "d", "why").ok(),
        },
        Call::Add(a, b) => {
            let tasks = [a, b].map(|t| NewTask::new(TITLES[usize::from(t)], ""));
            board.add_tasks(&tasks).ok().map(|(_, undo)| undo)
        }
        Call::Status(a, s) => {
            let (id, _) = pick(board, a)?;
            let status = Status::ALL[usize::from(s)].as_str();
            board.update_statuses(&[(&id.to_string(), status)]).ok()
        }
        Call::Reword(a, b) => {
            let (id, _) = pick(board, a)?;
            let title = TITLES[usize::from(b)];
            board
                .modify_task(&id.to_string(), Some(title), Some("more"))
                .ok()
                .map(|(_, undo)| undo)
        }
        Call::Delete(a) => {
            let (id, _) = pick(board, a)?;
            board.delete_tasks(&[&id.to_string()]).ok()
        }
        Call::Claim(a, g) => {
            let (id, title) = pick(board, a)?;
            let holder = AGENTS[usize::from(g)];
            if board
                .coordination()
                .claim(id)
                .is_some_and(|claim| claim.holder != holder)
            {
                return None;
            }
            let until = now + Duration::from_secs(300);
            let claim = Claim {
                holder: holder.into(),
                since: now,
                until,
            };
            let edits = vec![
                Edit::Status(id, Status::InProgress),
                Edit::Claim(id, Some(claim)),
                Edit::Record(Event::Claimed {
                    task_id: id,
                    title,
                    holder: holder.into(),
                    until,
                }),
            ];
            board.edit(now, edits).ok()
        }
        Call::Release(a, s) => {
            let (id, _) = pick(board, a)?;
            board.coordination().claim(id)?;
            let to = [Status::Completed, Status::Failed, Status::Pending][usize::from(s)];
            let edits = vec![Edit::Claim(id, None), Edit::Status(id, to)];
            board.edit(now, edits).ok()
        }
        Call::Link(a, b) => {
            let ((task, _), (blocker, _)) = (pick(board, a)?, pick(board, b)?);
            let coordination = board.coordination();
            if task == blocker || coordination.path(blocker, task).is_some() {
                return None;
            }
            board.edit(now, vec![Edit::Link { task, blocker }]).ok()
        }
        Call::Touches(a) => {
            let (id, _) = pick(board, a)?;
            board
                .edit(now, vec![Edit::Touches(id, vec!["src/**".into()])])
                .ok()
        }
        Call::DoneWhen(n) => {
            let text = (n == 1).then(|| "cargo test passes".to_owned());
            board.edit(now, vec![Edit::DoneWhen(text)]).ok()
        }
        Call::Plan(a, b) => {
            let tasks = [a, b].map(|t| NewTask::new(TITLES[usize::from(t)], ""));
            let [first, second] = tasks.each_ref().map(|t| TaskId::from_content(&t.title, ""));
            let planned = board.add_tasks_with(&tasks, |board, _| {
                let mut attached = vec![Attach::Touches(first, vec!["src/a/**".into()])];
                // As team's rules allow: no self link, no cycle.
                if first != second && board.coordination().path(first, second).is_none() {
                    attached.push(Attach::Link {
                        task: second,
                        blocker: first,
                    });
                }
                Ok::<_, BoardError>(attached)
            });
            planned.ok().map(|(_, _, undo)| undo)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Replaying the operation on the stored state gives the board the
    /// change made, call after call, at times finer than a microsecond.
    #[test]
    fn replaying_the_change_gives_its_board(
        calls in proptest::collection::vec((call(), 0u64..5_000_000_000), 1..40),
    ) {
        let limits = Limits { max_tasks: 5, ..Limits::default() };
        let empty = Board::new(limits, true).with_clock(Clock::fixed(UNIX_EPOCH));
        let mut state = State::new(empty.clone());
        let mut board = empty;
        let mut now = UNIX_EPOCH + Duration::from_secs(1_795_000_000);
        for (counter, (call, nanos)) in (1..).zip(&calls) {
            now += Duration::from_nanos(*nanos);
            board.set_clock(Clock::fixed(now));
            let Some(undo) = make(&mut board, call, now) else {
                continue;
            };
            let done = undo.change().clone();
            if done.action.is_empty() {
                continue;
            }
            let stamp = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64);
            let id = OpId { stamp, replica: Replica(1), counter };
            let claim = done.action.claims().then_some(ClaimMode::Provisional);
            let before = state.set_aside_count;
            state.apply(&operation(&done, id, claim));
            prop_assert_eq!(state.set_aside_count, before, "{:?} was set aside", call);
            prop_assert!(same_board(&state.board, &board), "{:?} replays otherwise", call);
        }
    }
}
