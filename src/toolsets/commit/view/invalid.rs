// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A description that is not a valid plan: the answer of
//! `gather_requirements` and `verify_plan`, and the refusal of every
//! mutating tool. Nothing is rewritten until someone asks (choice B is the
//! default); the choice is put to the agent in text.

use super::Place;
use super::fence::{push_fenced, push_raw};
use super::status::{Standing, push_status};
use crate::toolsets::commit::document::migrate::Impossible;
use crate::toolsets::commit::document::{Problem, Reading};

/// The most of the raw text the answer shows.
const ANSWER_RAW_BYTES: usize = 64 * 1024;
/// The most of the raw text a refusal shows.
const REFUSAL_RAW_BYTES: usize = 8 * 1024;

const CHOICES: &str = "Choices:
  A) Reformat: call verify_plan with migrate: true (add goal when the migration needs one).
  B) Keep it: use the text above as read-only context; the commit tools stay unavailable
     until the description is a plan.
  C) Leave this change alone and plan new work: set_overarching_goal with start_new: true.
";

/// The answer for a description that is not a valid plan.
pub fn answer(
    reading: &Reading,
    raw: &str,
    place: &Place,
    migration: &Result<String, Impossible>,
) -> String {
    let mut out = format!(
        "The description is not a valid plan ({}).\n\nCommit: {}\nProblems:\n",
        reading.state(),
        place.commit()
    );
    if let Some(problem) = reading.problem() {
        out.push_str(&format!("  {problem}\n"));
    }
    out.push_str("Description as it is:\n");
    push_raw(&mut out, raw, ANSWER_RAW_BYTES);
    match migration {
        Ok(text) => {
            out.push_str("Migration:\n");
            push_fenced(&mut out, text);
        }
        Err(why) => out.push_str(&format!("Migration: not possible: {why}\n")),
    }
    out.push_str(CHOICES);
    out.push('\n');
    push_status(&mut out, Standing::Invalid, place);
    out.pop();
    out
}

/// The refusal of a mutating tool when the description is not a valid plan.
pub fn refusal(problem: Option<&Problem>, raw: &str, place: &Place) -> String {
    let first = problem.map_or_else(String::new, |p| format!(": {p}"));
    let mut out = format!(
        "The description of {} is not a valid plan{first}. Nothing was changed.\nDescription as it is:\n",
        place.holder()
    );
    push_raw(&mut out, raw, REFUSAL_RAW_BYTES);
    out.push_str(CHOICES);
    out.pop();
    out
}
