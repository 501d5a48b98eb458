// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A description that is not a valid plan: the answer of
//! `gather_requirements` and `verify_plan`, and the refusal of every
//! mutating tool. Nothing is rewritten until someone asks (choice B is the
//! default); the choice is put to the agent in text, and only choices that
//! work are offered: no reformat when no migration is possible, an undo
//! when `jj squash` joined two plans.

use super::status::{Standing, push_status};
use super::{Around, Place};
use crate::toolsets::commit::document::fence::{push_fenced, push_raw};
use crate::toolsets::commit::document::migrate::NEEDS_GOAL;
use crate::toolsets::commit::document::{Problem, Reading};
use crate::toolsets::commit::edit::verify::Diagnosis;

/// The most of the raw text the answer shows.
const ANSWER_RAW_BYTES: usize = 64 * 1024;
/// The most of the raw text a refusal shows.
const REFUSAL_RAW_BYTES: usize = 8 * 1024;

/// The answer for a description that is not a valid plan.
pub(crate) fn answer(reading: &Reading, raw: &str, place: &Place, diagnosis: &Diagnosis) -> String {
    let mut out = format!(
        "The description is not a valid plan ({}).\n\nCommit: {}\nProblems:\n",
        reading.state(),
        place.commit()
    );
    if let Some(problem) = reading.problem() {
        out.push_str(&format!("  {problem}\n"));
    }
    push_joined(&mut out, diagnosis);
    out.push_str("Description as it is:\n");
    push_raw(&mut out, raw, ANSWER_RAW_BYTES);
    match &diagnosis.migration {
        Ok(text) => {
            out.push_str("Migration:\n");
            push_fenced(&mut out, text);
        }
        Err(why) => out.push_str(&format!("Migration: not possible: {why}\n")),
    }
    let letters = push_choices(&mut out, diagnosis, place);
    out.push('\n');
    push_status(
        &mut out,
        Standing::Invalid(&letters),
        place,
        &Around::default(),
    );
    out.pop();
    out
}

/// The refusal of a mutating tool when the description is not a valid plan.
pub(crate) fn refusal(
    problem: Option<&Problem>,
    raw: &str,
    place: &Place,
    diagnosis: &Diagnosis,
) -> String {
    let first = problem.map_or_else(String::new, |p| format!(": {p}"));
    let mut out = format!(
        "The description of {} is not a valid plan{first}. Nothing was changed.\n",
        place.holder()
    );
    push_joined(&mut out, diagnosis);
    out.push_str("Description as it is:\n");
    push_raw(&mut out, raw, REFUSAL_RAW_BYTES);
    push_choices(&mut out, diagnosis, place);
    out.pop();
    out
}

/// Says which plans a joined description holds.
fn push_joined(out: &mut String, diagnosis: &Diagnosis) {
    if diagnosis.joined.is_empty() {
        return;
    }
    out.push_str(&format!(
        "  it joins {} plans one after another, as jj squash of one planned change into another leaves them:\n",
        diagnosis.joined.len()
    ));
    for (number, plan) in diagnosis.joined.iter().enumerate() {
        out.push_str(&format!("    {}. {plan}\n", number + 1));
    }
}

/// Pushes the choices that work here; answers their letters for the
/// `Next:` line (`A, B or C`).
fn push_choices(out: &mut String, diagnosis: &Diagnosis, place: &Place) -> String {
    out.push_str("Choices:\n");
    let mut letters = Vec::new();
    let joined = !diagnosis.joined.is_empty();
    let reformat = match &diagnosis.migration {
        Ok(_) if joined => Some(
            "Merge them into one plan: call verify_plan with migrate: true; it writes the text under Migration.",
        ),
        Ok(_) => Some(
            "Reformat: call verify_plan with migrate: true; it writes the text under Migration.",
        ),
        Err(why) if why.0 == [NEEDS_GOAL] => Some(
            "Reformat: call verify_plan with migrate: true and a goal; the text above becomes the description of a plan with that goal.",
        ),
        Err(_) => None,
    };
    if let Some(reformat) = reformat {
        out.push_str(&format!("  A) {reformat}\n"));
        letters.push("A");
    }
    out.push_str("  B) Keep it: use the text above as read-only context; the commit tools stay unavailable\n     until the description is a plan.\n");
    out.push_str("  C) Leave this change alone and plan new work: set_overarching_goal with start_new: true.\n");
    letters.extend(["B", "C"]);
    if joined && matches!(place, Place::Jj { .. }) {
        out.push_str("  D) Undo the squash that joined them: jj undo, when it was the last jj operation (jj op log lists them).\n");
        letters.push("D");
    }
    match letters.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
