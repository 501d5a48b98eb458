// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The text the team's tools reply with. One line per task, always: the
//! status glyph, the ID, the title on one line, then what the team knows
//! of it: ` · held by NAME until TIME`, ` · waits for [ID] [ID]` (blockers
//! not completed yet), ` · evidence: ...`.

use std::fmt::Write;

use super::claims::{Claimed, Expiry, Released};
use super::error::none_ready;
use super::text::{cut, flat, time};
use super::view::View;
use crate::toolsets::planning::domain::render::goal_line;
use crate::toolsets::planning::domain::{Evidence, Status, Task, TaskId};

/// The longest note shown in a task line, in characters.
const NOTE_CHARS: usize = 80;

/// The line of task `task`: glyph, ID, title and the team's annotations.
pub(crate) fn task_line(view: View<'_>, task: &Task) -> String {
    let mut line = plain_line(view, task, false);
    let coordination = view.board.coordination();
    if let Some(claim) = view.claim(task.id) {
        let _ = write!(
            line,
            " · held by {} until {}",
            claim.holder,
            time(claim.until)
        );
    }
    let waiting: Vec<TaskId> = view.waiting_for(task.id).collect();
    if !waiting.is_empty() {
        let _ = write!(line, " · waits for {}", ids(&waiting));
    }
    if let Some(evidence) = coordination.evidence(task.id) {
        let _ = write!(line, " · evidence: {}", evidence_text(evidence));
    }
    line
}

/// `- ☐ [id] title`, with `: description` when `described`, on one line.
pub(crate) fn plain_line(view: View<'_>, task: &Task, described: bool) -> String {
    let mut line = format!(
        "- {} [{}] {}",
        view.status(task).glyph(),
        task.id,
        flat(&task.title)
    );
    if described && !task.description.is_empty() {
        let _ = write!(line, ": {}", flat(&task.description));
    }
    line
}

/// `[a] [b]`.
pub(crate) fn ids(ids: &[TaskId]) -> String {
    let listed: Vec<String> = ids.iter().map(|id| format!("[{id}]")).collect();
    listed.join(" ")
}

/// Evidence on one line, e.g. `` `cargo test` → exit 0, commit 1a2b3c4``.
pub(crate) fn evidence_text(evidence: &Evidence) -> String {
    let mut parts = Vec::new();
    if let (Some(command), Some(code)) = (&evidence.command, evidence.exit_code) {
        parts.push(format!("`{command}` → exit {code}"));
    }
    if let Some(commit) = &evidence.commit {
        parts.push(format!("commit {commit}"));
    }
    if let Some(url) = &evidence.url {
        parts.push(url.clone());
    }
    if let Some(note) = &evidence.note {
        parts.push(format!("\"{}\"", cut(&flat(note), NOTE_CHARS)));
    }
    format!("{} (by {})", parts.join(", "), evidence.by)
}

/// One line per lease this change found ended.
pub(crate) fn expiry_lines(view: View<'_>, expired: &[Expiry]) -> String {
    let mut out = String::new();
    for expiry in expired {
        let title = view
            .board
            .task(expiry.id)
            .map_or_else(String::new, |t| flat(&t.title));
        let _ = writeln!(
            out,
            "Lease ended: [{}] {title} (held by {} until {}); it is pending again.",
            expiry.id,
            expiry.holder,
            time(expiry.until)
        );
    }
    out
}

/// The counts line: tasks per status and how many completed tasks carry
/// evidence.
pub(crate) fn counts_line(view: View<'_>) -> String {
    let mut counts = [0usize; Status::ALL.len()];
    for task in view.board.tasks() {
        let status = view.status(task);
        if let Some(n) = Status::ALL.iter().position(|s| *s == status) {
            counts[n] += 1;
        }
    }
    let parts: Vec<String> = Status::ALL
        .iter()
        .zip(counts)
        .map(|(status, count)| format!("{count} {}", status.label()))
        .collect();
    let (completed, with_evidence) = view.evidence_count();
    format!(
        "Tasks: {} ({}); {with_evidence} of {completed} completed with evidence",
        view.board.len(),
        parts.join(", ")
    )
}

/// Whether the goal is met, as a line.
pub(crate) fn met_line(view: View<'_>) -> &'static str {
    match view.goal_met() {
        true => "Goal met: yes (every task is completed or cancelled)",
        false => "Goal met: no",
    }
}

/// The reply of `claim_task`.
pub(crate) fn claimed(
    view: View<'_>,
    expired: &[Expiry],
    claimed: &Claimed,
    agent: &str,
) -> String {
    let mut out = expiry_lines(view, expired);
    let what = if claimed.renewed {
        "Renewed"
    } else {
        "Claimed"
    };
    let _ = writeln!(
        out,
        "{what} by {agent} until {}; claim it again to renew, release_task when done.",
        time(claimed.until)
    );
    if let Some(task) = view.board.task(claimed.id) {
        out.push_str(&plain_line(view, task, true));
    }
    out
}

/// The reply of `release_task`.
pub(crate) fn released(view: View<'_>, expired: &[Expiry], released: &Released) -> String {
    let mut out = expiry_lines(view, expired);
    let evidence = view.board.coordination().evidence(released.id).is_some();
    let _ = match (released.evidence_added, released.status, evidence) {
        (true, _, _) => writeln!(
            out,
            "Added evidence to [{}], which you completed.",
            released.id
        ),
        (false, Status::Completed, false) => writeln!(
            out,
            "Released [{}] as completed, without evidence; to add it later, call release_task \
             on it again, as completed with the evidence.",
            released.id
        ),
        (false, status, true) => {
            writeln!(
                out,
                "Released [{}] as {status}, with evidence.",
                released.id
            )
        }
        (false, status, false) => writeln!(out, "Released [{}] as {status}.", released.id),
    };
    if let Some(task) = view.board.task(released.id) {
        out.push_str(&task_line(view, task));
    }
    if !released.now_ready.is_empty() {
        out.push_str("\nNow ready:");
        for id in &released.now_ready {
            if let Some(task) = view.board.task(*id) {
                let _ = write!(out, "\n{}", plain_line(view, task, false));
            }
        }
    }
    out
}

/// The reply of `link_tasks` and `unlink_tasks`: the task's line.
pub(crate) fn linked(view: View<'_>, expired: &[Expiry], id: TaskId) -> String {
    let mut out = expiry_lines(view, expired);
    let blockers: Vec<TaskId> = view
        .board
        .coordination()
        .blockers(id)
        .iter()
        .copied()
        .collect();
    match blockers.is_empty() {
        true => {
            let _ = writeln!(out, "[{id}] waits for no task.");
        }
        false => {
            let _ = writeln!(out, "[{id}] waits for {}.", ids(&blockers));
        }
    }
    if let Some(task) = view.board.task(id) {
        out.push_str(&task_line(view, task));
    }
    out
}

/// The goal lines: the goal, its done-when condition, whether it is met.
pub(crate) fn goal_lines(view: View<'_>) -> String {
    let mut out = goal_line(view.board.goal());
    if let Some(condition) = view.board.coordination().done_when() {
        let _ = write!(out, "\n**Done when:** {}", flat(condition));
    }
    let _ = write!(out, "\n{}", met_line(view));
    out
}

/// The reply of `team_board`: the goal, counts, and every task's line.
pub(crate) fn board(view: View<'_>, expired: &[Expiry]) -> String {
    let mut out = expiry_lines(view, expired);
    let _ = write!(out, "{}\n{}\n", goal_lines(view), counts_line(view));
    if view.board.is_empty() {
        out.push_str("\nNo tasks.");
        return out;
    }
    out.reserve(view.board.len() * 64);
    for task in view.board.tasks() {
        let _ = write!(out, "\n{}", task_line(view, task));
    }
    out
}

/// The reply of `ready_tasks`: at most `limit` ready tasks, in board order.
pub(crate) fn ready(view: View<'_>, expired: &[Expiry], limit: usize) -> String {
    let mut out = expiry_lines(view, expired);
    let ready: Vec<&Task> = view.ready().collect();
    if ready.is_empty() {
        let _ = write!(
            out,
            "No task is ready: {}.",
            none_ready(view.blocked().count(), view.claimed().count())
        );
        return out;
    }
    let _ = write!(
        out,
        "Ready: {} of {} tasks, in board order; claim_task takes the first.",
        ready.len(),
        view.board.len()
    );
    for task in ready.iter().take(limit) {
        let _ = write!(out, "\n{}", plain_line(view, task, false));
    }
    if ready.len() > limit {
        let _ = write!(out, "\n- … and {} more", ready.len() - limit);
    }
    out
}

/// The reply of `set_done_when`.
pub(crate) fn done_when(view: View<'_>, expired: &[Expiry]) -> String {
    let mut out = expiry_lines(view, expired);
    let what = match view.board.coordination().done_when() {
        Some(_) => "Done-when condition set.",
        None => "Done-when condition removed.",
    };
    let _ = write!(out, "{what}\n\n{}", goal_lines(view));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::Board;
    use crate::toolsets::team::domain::claims::{self, Target};
    use crate::toolsets::team::domain::fixture::{apply, at, board, claim, id, link, release};
    use crate::toolsets::team::domain::{EvidenceInput, goal};

    /// A team's board at minute 20: a goal with a done-when condition, a
    /// completed task with evidence, a failed one with a failing command,
    /// a held one, an expired lease, links, and a multi-line title.
    fn scripted() -> Board {
        let mut board = board(&[
            "Write the parser",
            "Write the tests",
            "Wire the CLI",
            "Document it",
            "Two\nlines",
            "Benchmark",
        ]);
        apply(&mut board, at(0), |v| {
            Ok((goal::done_when(v.board, "cargo test passes on main")?, ()))
        })
        .unwrap();
        link(
            &mut board,
            "Wire the CLI",
            &["Write the parser", "Write the tests"],
        );
        link(&mut board, "Document it", &["Wire the CLI"]);
        claim(&mut board, 0, "worker-1", "Write the parser");
        claim(&mut board, 0, "worker-2", "Write the tests");
        claim(&mut board, 1, "lead", "Benchmark");
        let evidence = EvidenceInput {
            command: Some("cargo test parser"),
            exit_code: Some(0),
            commit: Some("1a2b3c4"),
            ..EvidenceInput::default()
        };
        release(
            &mut board,
            10,
            "worker-1",
            "Write the parser",
            Status::Completed,
            evidence,
        );
        let failing = EvidenceInput {
            command: Some("cargo bench"),
            exit_code: Some(101),
            note: Some("the machine is too busy"),
            ..EvidenceInput::default()
        };
        release(&mut board, 12, "lead", "Benchmark", Status::Failed, failing);
        claim(&mut board, 12, "worker-2", "Write the tests"); // renewed until 27
        claim(&mut board, 13, "worker-1", "Two\nlines"); // ends at 28
        board
    }

    #[test]
    fn replies_are_one_line_per_task() {
        let board = scripted();
        let view = View::new(&board, at(20));
        let text = super::board(view, &[]);
        insta::assert_snapshot!("team_board", text);
        let tasks = text.lines().filter(|l| l.starts_with("- ")).count();
        assert_eq!(tasks, board.len(), "one line per task");
        insta::assert_snapshot!("ready", ready(view, &[], 10));
    }

    #[test]
    fn replies_of_changes() {
        let mut board = scripted();
        // At minute 30 both leases have ended: the next change records it.
        let lease = std::time::Duration::from_secs(600);
        let view = View::new(&board, at(30));
        let (mut edits, expired) = claims::expiries(view);
        let (more, claimed) = claims::claim(view, "worker-3", Target::NextReady, lease).unwrap();
        edits.extend(more);
        let _ = board.edit(at(30), edits).unwrap();
        let view = View::new(&board, at(30));
        let text = super::claimed(view, &expired, &claimed, "worker-3");
        insta::assert_snapshot!("claimed_after_expiries", text);
        let task = claimed.id.to_string();
        let (edits, released) = claims::release(
            view,
            "worker-3",
            &task,
            "completed",
            None,
            Default::default(),
        )
        .unwrap();
        let _ = board.edit(at(31), edits).unwrap();
        let view = View::new(&board, at(31));
        insta::assert_snapshot!("released", super::released(view, &[], &released));
        insta::assert_snapshot!("linked", linked(view, &[], id("Document it")));
        insta::assert_snapshot!("done_when", done_when(view, &[]));
        // Completed without evidence: the agent adds it later.
        let note = EvidenceInput {
            note: Some("reviewed by the lead"),
            ..EvidenceInput::default()
        };
        let evidence = note.check("worker-3", at(32), Status::Completed).unwrap();
        let view = View::new(&board, at(32));
        let rule = Default::default();
        let (edits, added) =
            claims::release(view, "worker-3", &task, "completed", evidence, rule).unwrap();
        let _ = board.edit(at(32), edits).unwrap();
        let view = View::new(&board, at(32));
        insta::assert_snapshot!("evidence_added", super::released(view, &[], &added));
    }

    #[test]
    fn an_empty_board_and_an_empty_queue() {
        let board = board(&[]);
        let view = View::new(&board, at(0));
        assert_eq!(
            super::board(view, &[]),
            "**Goal:** Ship it: the release\nGoal met: no\n\
             Tasks: 0 (0 pending, 0 in progress, 0 completed, 0 failed, 0 cancelled); \
             0 of 0 completed with evidence\n\nNo tasks."
        );
        assert_eq!(
            ready(view, &[], 10),
            "No task is ready: 0 pending tasks wait for others and 0 are held."
        );
    }
}
