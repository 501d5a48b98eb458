// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The digest: what an agent must know of a board after a context reset,
//! in at most [`DIGEST_MAX_CHARS`] characters whatever the board's size.
//! Hooks inject it (`planning-mcp-server summary`), so it is deterministic:
//! the same board at the same moment gives the same text.
//!
//! ```text
//! # Board default
//!
//! **Goal:** Ship v1: the release
//! **Done when:** cargo test passes on main
//! Goal met: no
//! Tasks: 12 (7 pending, 2 in progress, 3 completed, 0 failed, 0 cancelled); 2 of 3 completed with evidence
//!
//! Claimed (2):
//! - ⟳ [4e21ad16] worker-1 until 2026-11-22T10:30:00Z: Write tests
//! Ready (4):
//! - ☐ [48dd0523] Implement feature X
//! Blocked (5):
//! - ☐ [0e4bc2e3] waits for [48dd0523]: Document the tools
//! ```

use std::fmt::Write;

use super::render::{counts_line, met_line};
use super::text::{cut, flat, time};
use super::view::View;
use crate::toolsets::planning::domain::{Task, TaskId};

/// The most characters a digest has.
pub const DIGEST_MAX_CHARS: usize = 1500;

const GOAL_CHARS: usize = 120;
const DONE_WHEN_CHARS: usize = 80;
const LINE_CHARS: usize = 80;
const HOLDER_CHARS: usize = 20;
const CLAIMED_SHOWN: usize = 3;
const READY_SHOWN: usize = 4;
const BLOCKED_SHOWN: usize = 3;
const BLOCKERS_SHOWN: usize = 3;

/// The digest of board `name` as `view` sees it.
pub fn digest(name: &str, view: View<'_>) -> String {
    let board = view.board;
    let mut out = format!("# Board {name}\n\n");
    match board.goal() {
        None => out.push_str("**Goal:** not set"),
        Some(goal) => {
            let text = match goal.description.is_empty() {
                true => goal.title.clone(),
                false => format!("{}: {}", goal.title, goal.description),
            };
            let _ = write!(out, "**Goal:** {}", cut(&flat(&text), GOAL_CHARS));
        }
    }
    if let Some(condition) = board.coordination().done_when() {
        let _ = write!(
            out,
            "\n**Done when:** {}",
            cut(&flat(condition), DONE_WHEN_CHARS)
        );
    }
    let _ = write!(out, "\n{}\n{}", met_line(view), counts_line(view));
    let claimed: Vec<(&Task, String)> = view
        .claimed()
        .map(|(task, claim)| {
            let holder = cut(&flat(&claim.holder), HOLDER_CHARS);
            (task, format!("{holder} until {}", time(claim.until)))
        })
        .collect();
    let ready: Vec<(&Task, String)> = view.ready().map(|task| (task, String::new())).collect();
    let blocked: Vec<(&Task, String)> = view
        .blocked()
        .map(|task| (task, waits_for(view, task.id)))
        .collect();
    let sections = [
        ("Claimed", claimed, CLAIMED_SHOWN),
        ("Ready", ready, READY_SHOWN),
        ("Blocked", blocked, BLOCKED_SHOWN),
    ];
    let mut first = true;
    for (heading, tasks, shown) in sections {
        if tasks.is_empty() {
            continue;
        }
        out.push_str(if first { "\n\n" } else { "\n" });
        first = false;
        let _ = write!(out, "{heading} ({}):", tasks.len());
        for (task, before_title) in tasks.iter().take(shown) {
            let mut line = format!("- {} [{}] ", view.status(task).glyph(), task.id);
            if !before_title.is_empty() {
                let _ = write!(line, "{before_title}: ");
            }
            line.push_str(&flat(&task.title));
            let _ = write!(out, "\n{}", cut(&line, LINE_CHARS));
        }
        if tasks.len() > shown {
            let _ = write!(out, "\n- … and {} more", tasks.len() - shown);
        }
    }
    cut(&out, DIGEST_MAX_CHARS)
}

/// `waits for [a] [b] [c] +2`: the blockers of `id` not completed yet.
fn waits_for(view: View<'_>, id: TaskId) -> String {
    let waiting: Vec<TaskId> = view.waiting_for(id).collect();
    let mut text = String::from("waits for");
    for blocker in waiting.iter().take(BLOCKERS_SHOWN) {
        let _ = write!(text, " [{blocker}]");
    }
    if waiting.len() > BLOCKERS_SHOWN {
        let _ = write!(text, " +{}", waiting.len() - BLOCKERS_SHOWN);
    }
    text
}
