// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The replies of `wait_for`: what happened (one line per task, at most
//! [`TASKS_SHOWN`] per event), or at the timeout the board's digest; each
//! ends with the revision to pass to the next call.

use std::fmt::Write;

use super::digest::digest;
use super::render::{flight_line, task_line};
use super::view::View;
use super::waiting::{Event, Woke};
use crate::toolsets::planning::domain::TaskId;

/// How many tasks a reply lists per event (the rest are counted).
pub(crate) const TASKS_SHOWN: usize = 10;

/// The line that ends every reply (and every digest a server serves).
pub(crate) fn revision_line(revision: u64) -> String {
    format!("Revision {revision}: pass it as revision to wait_for what comes next.")
}

/// The reply when `woke` happened, the board at `revision`, changes
/// counted after `since`.
pub(crate) fn woke(view: View<'_>, woke: &Woke, since: u64, revision: u64) -> String {
    let mut out = String::new();
    for event in &woke.events {
        match event {
            Event::Finished => {
                let _ = writeln!(out, "Finished ({}):", woke.finished.len());
                task_lines(&mut out, view, &woke.finished);
            }
            Event::Ready => {
                let _ = writeln!(out, "Ready since revision {since} ({}):", woke.ready.len());
                task_lines(&mut out, view, &woke.ready);
            }
            Event::Stalled => {
                let _ = writeln!(
                    out,
                    "Stalled, their worker's time ran out ({}); dispatch them again:",
                    woke.stalled.len()
                );
                let mut shown = 0;
                for id in &woke.stalled {
                    let Some((task, (dispatch, state))) =
                        view.board.task(*id).zip(view.dispatch(*id))
                    else {
                        continue;
                    };
                    if shown < TASKS_SHOWN {
                        let line = flight_line(view, task, dispatch, state, false);
                        let _ = writeln!(out, "{line}");
                    }
                    shown += 1;
                }
                if shown > TASKS_SHOWN {
                    let _ = writeln!(out, "- … and {} more", shown - TASKS_SHOWN);
                }
            }
            Event::GoalMet => {
                let _ = writeln!(
                    out,
                    "The goal is met: every task is completed or cancelled."
                );
            }
            Event::Changed => {
                let _ = writeln!(out, "The board changed since revision {since}.");
            }
            Event::Review => {
                let _ = writeln!(out, "Awaiting a person's review ({}):", woke.review.len());
                task_lines(&mut out, view, &woke.review);
            }
            Event::Reviewed => {
                let _ = writeln!(
                    out,
                    "Reviewed by a person since revision {since} ({}):",
                    woke.reviewed.len()
                );
                task_lines(&mut out, view, &woke.reviewed);
            }
        }
    }
    out.push_str(&revision_line(revision));
    out
}

/// `ids`' task lines, in board order, at most [`TASKS_SHOWN`].
fn task_lines(out: &mut String, view: View<'_>, ids: &[TaskId]) {
    let mut tasks: Vec<_> = ids.iter().filter_map(|id| view.board.task(*id)).collect();
    tasks.sort_by_key(|task| view.board.position(task.id));
    for task in tasks.iter().take(TASKS_SHOWN) {
        let _ = writeln!(out, "{}", task_line(view, task));
    }
    if tasks.len() > TASKS_SHOWN {
        let _ = writeln!(out, "- … and {} more", tasks.len() - TASKS_SHOWN);
    }
}

/// The reply at the timeout: nothing named happened in `seconds`; the
/// digest of board `name` as it is.
pub(crate) fn timed_out(name: &str, view: View<'_>, seconds: u64, revision: u64) -> String {
    format!(
        "Nothing you wait for happened within {seconds} s.\n{}\n\n{}",
        revision_line(revision),
        digest(name, view)
    )
}

/// The reply when the server shuts down during the wait.
pub(crate) fn shutting_down(revision: u64) -> String {
    format!(
        "The server is shutting down; nothing you wait for happened yet. Call wait_for again \
         once it is back (revisions start anew then).\n{}",
        revision_line(revision)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::team::domain::fixture::{at, board, id};

    #[test]
    fn replies_name_the_tasks_and_end_with_the_revision() {
        let mut board = board(&["a", "b"]);
        let a = id("a").to_string();
        let _ = board.update_statuses(&[(&a, "completed")]).unwrap();
        let view = View::new(&board, at(0));
        let happened = Woke {
            review: Vec::new(),
            reviewed: Vec::new(),
            events: vec![Event::Finished, Event::Changed],
            finished: vec![id("a")],
            ready: Vec::new(),
            stalled: Vec::new(),
        };
        assert_eq!(
            woke(view, &happened, 3, 4),
            format!(
                "Finished (1):\n- ☑ [{}] a\nThe board changed since revision 3.\n\
                 Revision 4: pass it as revision to wait_for what comes next.",
                id("a")
            )
        );
        let timeout = timed_out("default", view, 30, 4);
        assert!(
            timeout.starts_with(
                "Nothing you wait for happened within 30 s.\nRevision 4: pass it as revision \
                 to wait_for what comes next.\n\n# Board default\n"
            ),
            "{timeout}"
        );
        assert!(
            shutting_down(7)
                .ends_with("Revision 7: pass it as revision to wait_for what comes next.")
        );
    }
}
