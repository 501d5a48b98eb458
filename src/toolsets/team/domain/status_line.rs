// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board in one short line, for a status bar (Claude Code's
//! `statusLine`, tmux's `status-right`): how much is done, who holds what,
//! and what waits for a person. `7/12 ☑ · ⟳ worker-1 [a46f8d35] +1 · 1 stalled · 1 to review`.

use super::view::{DispatchState, View};
use crate::toolsets::planning::domain::Status;

/// What the line counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    /// Tasks not cancelled.
    total: usize,
    completed: usize,
    failed: usize,
    /// Completions that wait for a person's review.
    to_review: usize,
}

impl Counts {
    /// Counts the tasks of `view`'s board by status.
    fn of(view: View<'_>) -> Self {
        let mut counts = Self::default();
        for task in view.board.tasks() {
            match view.status(task) {
                Status::Cancelled => continue,
                Status::Completed => counts.completed += 1,
                Status::Failed => counts.failed += 1,
                Status::AwaitingReview => counts.to_review += 1,
                Status::Pending | Status::InProgress => {}
            }
            counts.total += 1;
        }
        counts
    }
}

/// Board `name`'s line: the board named unless it is `default`.
pub(crate) fn status_line(name: &str, view: View<'_>) -> String {
    let counts = Counts::of(view);
    let mut parts = Vec::new();
    if counts.total == 0 {
        parts.push("no tasks".to_owned());
    } else {
        parts.push(format!("{}/{} ☑", counts.completed, counts.total));
    }
    let mut claimed = view.claimed();
    if let Some((task, claim)) = claimed.next() {
        let more = claimed.count();
        let holder = super::text::cut(&claim.holder, 24);
        match more {
            0 => parts.push(format!("⟳ {holder} [{}]", task.id)),
            n => parts.push(format!("⟳ {holder} [{}] +{n}", task.id)),
        }
    }
    let stalled = view
        .dispatched()
        .iter()
        .filter(|(_, _, state)| *state == DispatchState::Stalled)
        .count();
    for (n, what) in [
        (stalled, "stalled"),
        (counts.failed, "failed"),
        (counts.to_review, "to review"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    let line = parts.join(" · ");
    match name {
        "default" => line,
        board => format!("{}: {line}", super::text::cut(board, 24)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::team::domain::EvidenceInput;
    use crate::toolsets::team::domain::fixture::{at, board, claim, release};

    #[test]
    fn the_line_of_a_board_at_each_stage() {
        let titles = ["Parser", "Lexer", "CLI", "Docs"];
        let mut shown = Vec::new();
        let mut b = board(&[]);
        shown.push(status_line("default", View::new(&b, at(0))));
        b = board(&titles);
        shown.push(status_line("default", View::new(&b, at(0))));
        claim(&mut b, 1, "worker-1", "Parser");
        shown.push(status_line("default", View::new(&b, at(2))));
        claim(&mut b, 2, "worker-2", "Lexer");
        shown.push(status_line("release", View::new(&b, at(3))));
        let evidence = EvidenceInput {
            note: Some("done"),
            ..EvidenceInput::default()
        };
        release(&mut b, 4, "worker-1", "Parser", Status::Completed, evidence);
        claim(&mut b, 5, "worker-3", "CLI");
        release(
            &mut b,
            6,
            "worker-3",
            "CLI",
            Status::Failed,
            EvidenceInput::default(),
        );
        shown.push(status_line("default", View::new(&b, at(7))));
        // worker-2's lease (15 minutes from minute 2) has ended.
        shown.push(status_line("default", View::new(&b, at(30))));
        insta::assert_snapshot!(shown.join("\n"));
    }
}
