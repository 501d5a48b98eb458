// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `sync` prints: a line per board, and under it what a person
//! should know (operations set aside, unreadable ones, a compaction, a
//! remote rebuilt from the union).

use std::fmt::Write as _;

use super::Outcome;
use crate::toolsets::planning::store::git_log::sync::Report;

/// The text of a sync with `remote`, and whether every board synced.
pub(crate) fn render(remote: &str, outcome: &Outcome) -> (String, bool) {
    let mut text = String::new();
    let mut all_good = true;
    if outcome.is_empty() {
        let _ = writeln!(text, "no board to sync: none here, none on {remote}");
    }
    for (board, result) in outcome {
        match result {
            Ok(report) => board_lines(&mut text, remote, report),
            Err(error) => {
                all_good = false;
                let _ = writeln!(text, "board {board}: not synced: {error}");
            }
        }
    }
    (text, all_good)
}

fn board_lines(text: &mut String, remote: &str, report: &Report) {
    let tasks = match report.tasks {
        1 => "1 task".to_owned(),
        n => format!("{n} tasks"),
    };
    let ops = |n: usize| match n {
        1 => "1 operation".to_owned(),
        n => format!("{n} operations"),
    };
    let _ = match (report.fetched, report.push) {
        (0, false) => writeln!(
            text,
            "board {}: up to date with {remote}; {tasks}",
            report.board
        ),
        (fetched, false) => writeln!(
            text,
            "board {}: fetched {} from {remote}; {tasks}",
            report.board,
            ops(fetched)
        ),
        (fetched, true) => writeln!(
            text,
            "board {}: fetched {}, pushed {} to {remote}{}; {tasks}",
            report.board,
            ops(fetched),
            ops(report.pushed),
            match report.attempts {
                0 | 1 => String::new(),
                2 => " (after 1 push that another clone beat)".to_owned(),
                n => format!(" (after {} pushes that another clone beat)", n - 1),
            },
        ),
    };
    if report.rewritten {
        let _ = writeln!(
            text,
            "  {remote}'s log had been rewritten (it no longer held what this clone fetched before): \
             rebuilt from the union of both logs"
        );
    }
    if let Some(replica) = report.renewed {
        let _ = writeln!(
            text,
            "  another clone writes under this clone's replica {replica} (a copied repository, \
             or a hostile push): this clone takes a new replica name from now on"
        );
    }
    if report.reissued > 0 {
        let _ = writeln!(
            text,
            "  kept {} that another version under the same name pushed out of the log: made \
             again under this clone's replica, in {} place in the order",
            match report.reissued {
                1 => "1 operation".to_owned(),
                n => format!("{n} operations"),
            },
            match report.reissued {
                1 => "its",
                _ => "their",
            }
        );
    }
    if report.compacted {
        let _ = writeln!(
            text,
            "  compacted into a checkpoint (the operations stay in git's history)"
        );
    }
    for entry in &report.displaced {
        let _ = writeln!(
            text,
            "  set aside, unread, in the place of an operation this clone holds (the operation \
             stays there): {entry}"
        );
    }
    for corrupt in &report.corrupt {
        let _ = writeln!(text, "  set aside, unread (kept in the log): {corrupt}");
    }
    for aside in &report.set_aside {
        let _ = writeln!(text, "  {aside}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::TaskId;
    use crate::toolsets::planning::domain::replay::intent::Intent;
    use crate::toolsets::planning::domain::replay::{OpId, Reason, Replica, SetAside};

    #[test]
    fn a_sync_names_what_it_set_aside_and_what_is_not_an_operation() {
        let task = TaskId::from_content("Write the parser", "");
        let report = Report {
            board: "default".into(),
            fetched: 1,
            tasks: 1,
            set_aside: vec![SetAside {
                op: OpId {
                    stamp: 1,
                    replica: Replica(0xac1d96ac22cb1f3d),
                    counter: 9,
                },
                agent: Some("worker-2".into()),
                reason: Reason::TaskGone(task),
                intent: Some(Intent {
                    text: format!(
                        "release_task of [{task}] 'Write the parser' as completed, with evidence"
                    ),
                    evidence: true,
                }),
            }],
            corrupt: vec![
                "NOTES.md: not the name of an operation".into(),
                "op-00000000000000aa-1: not an operation: binary, not text (a NUL byte at byte 0)"
                    .into(),
            ],
            ..Report::default()
        };
        let (text, ok) = render("origin", &vec![("default".into(), Ok(report))]);
        assert!(ok);
        insta::assert_snapshot!("sync_set_aside_lines", text);
    }
}
