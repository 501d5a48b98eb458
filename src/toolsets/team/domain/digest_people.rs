// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What the digest says of a person's part (docs/review.md): the tasks
//! awaiting their review, the rejections a pending task carries for its
//! next claimant, and the notes no agent has read yet. A few short lines
//! each, so that the rest of the digest keeps its room; nothing at all on
//! a board that uses neither review nor notes (its digest reads as before).

use std::fmt::Write;

use super::notes;
use super::review;
use super::text::{cut, flat};
use super::view::View;
use crate::runtime::text::escaped;
use crate::toolsets::planning::domain::Status;

/// How many lines each of these sections lists.
const SHOWN: usize = 2;
/// The longest title or text on one of their lines, in characters.
const TEXT_CHARS: usize = 48;

/// The sections, each after a newline, or nothing.
pub(crate) fn sections(view: View<'_>) -> String {
    let mut out = String::new();
    let awaiting: Vec<_> = review::awaiting(view).collect();
    if !awaiting.is_empty() {
        let _ = write!(out, "\nAwaiting review ({}):", awaiting.len());
        for task in awaiting.iter().take(SHOWN) {
            let by = view
                .board
                .coordination()
                .evidence(task.id)
                .map_or_else(String::new, |e| format!(" by {}", cut(&flat(&e.by), 20)));
            let _ = write!(
                out,
                "\n- {} [{}]{by}: {}",
                Status::AwaitingReview.glyph(),
                task.id,
                cut(&flat(&task.title), TEXT_CHARS)
            );
        }
        more(&mut out, awaiting.len());
    }
    let rejected: Vec<_> = view
        .board
        .tasks()
        .filter(|task| view.status(task) == Status::Pending)
        .filter_map(|task| review::rejection(view, task).map(|(_, r)| (task, r)))
        .collect();
    if !rejected.is_empty() {
        let _ = write!(
            out,
            "\nRejected, for the next claimant ({}):",
            rejected.len()
        );
        for (task, review) in rejected.iter().take(SHOWN) {
            let reason = review.rejected.as_deref().unwrap_or_default();
            let _ = write!(
                out,
                "\n- ☐ [{}] by {}: \"{}\"",
                task.id,
                cut(&flat(&review.by), 20),
                cut(&flat(reason), TEXT_CHARS)
            );
        }
        more(&mut out, rejected.len());
    }
    let unread: Vec<_> = notes::unread(view).collect();
    if !unread.is_empty() {
        let _ = write!(out, "\nNotes unread ({}):", unread.len());
        for (_, note) in unread.iter().take(SHOWN) {
            let _ = write!(
                out,
                "\n- {} {}: {}",
                escaped(&cut(&flat(&note.by), 20)),
                notes::on(note.task),
                cut(&flat(&note.text), TEXT_CHARS)
            );
        }
        more(&mut out, unread.len());
    }
    match out.is_empty() {
        true => out,
        false => format!("\n{out}"),
    }
}

/// `- … and N more` when a section lists fewer than it counts.
fn more(out: &mut String, count: usize) {
    if count > SHOWN {
        let _ = write!(out, "\n- … and {} more", count - SHOWN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::team::domain::claims;
    use crate::toolsets::team::domain::evidence::EvidenceRule;
    use crate::toolsets::team::domain::fixture::{apply, at, board, claim, id};
    use crate::toolsets::team::domain::review::ReviewRule;
    use crate::toolsets::team::domain::{digest, notes};

    /// Completes `title` as `agent` under review, at `minute`.
    fn complete(board: &mut crate::toolsets::planning::domain::Board, minute: u64, title: &str) {
        claim(board, minute, "w1", title);
        let task = id(title).to_string();
        apply(board, at(minute), |v| {
            claims::release(
                v,
                "w1",
                &task,
                "completed",
                None,
                EvidenceRule::Optional,
                ReviewRule::Required,
            )
        })
        .unwrap();
    }

    #[test]
    fn the_digest_shows_what_waits_for_a_person_and_what_they_said() {
        let mut board = board(&["Parser", "Lexer", "Docs", "CLI"]);
        assert_eq!(
            sections(View::new(&board, at(0))),
            "",
            "nothing on a plain board"
        );
        for (minute, title) in [(1, "Parser"), (2, "Lexer"), (3, "Docs")] {
            complete(&mut board, minute, title);
        }
        let lexer = id("Lexer").to_string();
        apply(&mut board, at(4), |v| {
            review::reject(v, &lexer, "ada", "the lexer drops comments")
        })
        .unwrap();
        apply(&mut board, at(5), |v| {
            notes::leave(v, Some(&id("CLI").to_string()), "ada", "flags first")
        })
        .unwrap();
        apply(&mut board, at(5), |v| {
            notes::leave(v, None, "ada", "stop at five")
        })
        .unwrap();
        let text = digest("default", View::new(&board, at(6)));
        insta::assert_snapshot!("digest_people", text);
        assert!(text.chars().count() <= crate::toolsets::team::domain::digest::DIGEST_MAX_CHARS);
    }
}
