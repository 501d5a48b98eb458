// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A lead's plan in one `add_tasks`: the links and touches its tasks ask
//! for, decided by the very rules of `link_tasks` and `set_touches`
//! ([`links::link`], [`touches::set`]), one task after the other on a copy
//! of the board that already holds what the tasks before it attached, so
//! that a cycle running through several tasks of the call is found (and
//! named) as `link_tasks` would find it. Planning's `add_tasks` adds the
//! tasks and what this decides as one change ([`TeamPlanner`]).

use std::fmt::Write;
use std::time::SystemTime;

use super::error::TeamError;
use super::render::task_line;
use super::view::View;
use super::{links, touches};
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::coordination::plan::{Attach, Planner, TaskPlan};
use crate::toolsets::planning::domain::{Board, TaskId};

/// Toolset `team`'s rules for the links and touches `add_tasks` takes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TeamPlanner {
    /// Whether every completion waits for a person's review.
    pub(crate) review: super::ReviewRule,
}

impl Planner for TeamPlanner {
    fn attach(
        &self,
        board: &Board,
        now: SystemTime,
        plans: &[TaskPlan],
    ) -> Result<Vec<Attach>, String> {
        attach(View::new(board, now), plans)
    }

    fn reply(&self, board: &Board, now: SystemTime, attached: &[Attach]) -> String {
        reply(View::new(board, now), attached)
    }

    fn completion_needs_review(&self) -> bool {
        self.review == super::ReviewRule::Required
    }
}

/// What `plans` attach on `view`'s board (which holds the call's tasks):
/// all of it, or the first refusal, naming the task of the request.
/// Links and touches already there are no change, and are left out.
pub(crate) fn attach(view: View<'_>, plans: &[TaskPlan]) -> Result<Vec<Attach>, String> {
    let refused =
        |plan: &TaskPlan, error: TeamError| format!("Task {} of the request: {error}", plan.number);
    // A copy only when something is asked: the board itself changes only
    // once everything is decided.
    let mut scratch = view.board.clone();
    let mut attached = Vec::new();
    for plan in plans {
        let id = plan.id.to_string();
        let here = View::new(&scratch, view.now);
        let mut edits = Vec::new();
        if !plan.blocked_by.is_empty() {
            let (links, _) =
                links::link(here, &id, &plan.blocked_by).map_err(|e| refused(plan, e))?;
            edits.extend(links);
        }
        if let Some(patterns) = &plan.touches {
            let (set, _) =
                touches::set(here, &id, patterns, false).map_err(|e| refused(plan, e))?;
            let current = scratch.coordination().touches(plan.id);
            edits.extend(set.into_iter().filter(
                |edit| !matches!(edit, Edit::Touches(_, paths) if paths.as_slice() == current),
            ));
        }
        if edits.is_empty() {
            continue;
        }
        let _ = scratch
            .edit(view.now, edits.clone())
            .map_err(|e| refused(plan, e.into()))?;
        attached.extend(edits.into_iter().filter_map(|edit| match edit {
            Edit::Link { task, blocker } => Some(Attach::Link { task, blocker }),
            Edit::Touches(task, paths) => Some(Attach::Touches(task, paths)),
            _ => None,
        }));
    }
    Ok(attached)
}

/// `Links and touches set: 3 links, touches of 2 tasks.`, then the line of
/// each task they were set on, as it stands now, in the call's order.
pub(crate) fn reply(view: View<'_>, attached: &[Attach]) -> String {
    let mut tasks: Vec<TaskId> = Vec::new();
    let (mut links, mut touched) = (0, Vec::new());
    for attach in attached {
        let task = match attach {
            Attach::Link { task, .. } => {
                links += 1;
                *task
            }
            Attach::Touches(task, _) => {
                touched.push(*task);
                *task
            }
        };
        if !tasks.contains(&task) {
            tasks.push(task);
        }
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut parts = Vec::new();
    if links > 0 {
        parts.push(format!("{links} link{}", plural(links)));
    }
    if !touched.is_empty() {
        let n = touched.len();
        parts.push(format!("touches of {n} task{}", plural(n)));
    }
    let mut out = format!("Links and touches set: {}.", parts.join(", "));
    for task in tasks.iter().filter_map(|id| view.board.task(*id)) {
        let _ = write!(out, "\n{}", task_line(view, task));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use crate::toolsets::planning::domain::{BoardError, Limits, NewTask};

    fn id(title: &str) -> TaskId {
        TaskId::from_content(title, "")
    }

    fn board(titles: &[&str]) -> Board {
        let mut board = Board::new(Limits::default(), true);
        if titles.is_empty() {
            return board;
        }
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    fn plan(number: usize, title: &str, blocked_by: &[&str], touches: Option<&[&str]>) -> TaskPlan {
        TaskPlan {
            number,
            id: id(title),
            blocked_by: blocked_by.iter().map(|t| id(t).to_string()).collect(),
            touches: touches.map(|t| t.iter().map(|p| (*p).to_owned()).collect()),
        }
    }

    /// Adds `titles` with `plans` as planning's add_tasks does with team on.
    fn add(board: &mut Board, titles: &[&str], plans: &[TaskPlan]) -> Result<Vec<Attach>, String> {
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
        let result = board.add_tasks_with(&tasks, |board, _| {
            attach(View::new(board, UNIX_EPOCH), plans).map_err(Refusal)
        });
        result.map(|(_, attached, _)| attached).map_err(|r| r.0)
    }

    #[derive(Debug)]
    struct Refusal(String);

    impl From<BoardError> for Refusal {
        fn from(error: BoardError) -> Self {
            Self(error.to_string())
        }
    }

    #[test]
    fn links_and_touches_come_with_the_tasks_as_one_change() {
        let mut board = board(&["old"]);
        let plans = [
            plan(1, "a", &["old"], Some(&["src/a/**"])),
            plan(2, "b", &["a", "old"], None),
            plan(3, "c", &[], Some(&["docs/**", "docs/**"])),
        ];
        let attached = add(&mut board, &["a", "b", "c"], &plans).unwrap();
        assert_eq!(
            attached,
            [
                Attach::Link {
                    task: id("a"),
                    blocker: id("old")
                },
                Attach::Touches(id("a"), vec!["src/a/**".into()]),
                // A task's blockers in ID order, as link_tasks makes them.
                Attach::Link {
                    task: id("b"),
                    blocker: id("old")
                },
                Attach::Link {
                    task: id("b"),
                    blocker: id("a")
                },
                Attach::Touches(id("c"), vec!["docs/**".into()]),
            ]
        );
        let coordination = board.coordination();
        assert_eq!(coordination.link_count(), 3);
        assert_eq!(coordination.touches(id("c")), ["docs/**"]);
        assert_eq!(
            reply(View::new(&board, UNIX_EPOCH), &attached),
            format!(
                "Links and touches set: 3 links, touches of 2 tasks.\n\
                 - ☐ [{a}] a · waits for [{old}] · touches src/a/**\n\
                 - ☐ [{b}] b · waits for {b_waits}\n\
                 - ☐ [{c}] c · touches docs/**",
                a = id("a"),
                b = id("b"),
                c = id("c"),
                old = id("old"),
                b_waits = sorted_ids(&[id("old"), id("a")]),
            )
        );
    }

    fn sorted_ids(ids: &[TaskId]) -> String {
        let mut ids = ids.to_vec();
        ids.sort();
        ids.iter()
            .map(|id| format!("[{id}]"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn refusals_change_nothing() {
        let mut board = board(&["x", "y"]);
        // y waits for x; a duplicate of x that waits for y closes a cycle.
        let _ = add(&mut board, &["y"], &[plan(1, "y", &["x"], None)]).unwrap();
        let before = board.clone();
        let cases: Vec<(Vec<&str>, Vec<TaskPlan>, &str)> = vec![
            (
                vec!["new", "x"],
                vec![plan(2, "x", &["y"], None)],
                "Task 2 of the request: That link would make a cycle",
            ),
            (
                vec!["new"],
                vec![TaskPlan {
                    blocked_by: vec!["ffffffff".into()],
                    ..plan(1, "new", &[], None)
                }],
                "Task 1 of the request: No task",
            ),
            (
                vec!["new"],
                vec![plan(1, "new", &[], Some(&["/etc/passwd"]))],
                "Task 1 of the request: The pattern '/etc/passwd' is absolute",
            ),
            (
                vec!["new"],
                vec![plan(1, "new", &["new"], None)],
                "Task 1 of the request: ",
            ),
        ];
        for (titles, plans, start) in cases {
            let error = add(&mut board, &titles, &plans).unwrap_err();
            assert!(error.starts_with(start), "{error}");
            assert_eq!(board, before, "{error}: nothing changed");
        }
    }

    #[test]
    fn a_cycle_through_several_tasks_of_the_call_is_found() {
        let mut board = board(&["p", "q"]);
        // Both are duplicates: p waits for q, then q for p.
        let plans = [plan(1, "p", &["q"], None), plan(2, "q", &["p"], None)];
        let before = board.clone();
        let error = add(&mut board, &["p", "q"], &plans).unwrap_err();
        assert!(
            error.starts_with("Task 2 of the request: That link would make a cycle"),
            "{error}"
        );
        assert_eq!(board, before);
    }

    #[test]
    fn what_is_there_already_is_no_change() {
        let mut board = board(&[]);
        let plans = [
            plan(1, "a", &[], Some(&["a/**"])),
            plan(2, "b", &["a"], None),
        ];
        assert_eq!(add(&mut board, &["a", "b"], &plans).unwrap().len(), 2);
        let again = add(&mut board, &["a", "b"], &plans).unwrap();
        assert!(again.is_empty(), "{again:?}");
    }
}
