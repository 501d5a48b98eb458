// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The hard preconditions, checked before anything else. Order is guided,
//! not enforced: these are the only rules that refuse a call.

use super::Refused;
use crate::toolsets::commit::document::{Document, Reading};

/// The refusal when there is no header yet.
pub(crate) fn no_goal() -> Refused {
    Refused::because(
        "There is no goal yet; set it first with set_overarching_goal. Nothing was changed.",
    )
}

/// The refusal when there are no tasks yet.
pub(crate) fn no_tasks(what: &str) -> Refused {
    Refused::because(format!(
        "There are no tasks yet; {what}. Nothing was changed."
    ))
}

/// The refusal when the job is finished.
pub(crate) fn finished(what: &str) -> Refused {
    Refused::because(format!("The job is finished; {what}. Nothing was changed."))
}

/// The plan, for tools that need one: refused when the description is not
/// a valid plan, `None` when it is empty.
pub(crate) fn valid(reading: &Reading) -> Result<Option<&Document>, Refused> {
    match reading {
        Reading::Empty => Ok(None),
        Reading::Parsed(document) => Ok(Some(document)),
        Reading::Unknown(_) | Reading::Halted(_) => Err(Refused::NotAPlan),
    }
}

/// The plan for `set_detailed_goal`, `set_constraints` and `set_plan`:
/// a header, and the job not finished.
pub(crate) fn open_plan(reading: &Reading) -> Result<&Document, Refused> {
    let document = valid(reading)?.ok_or_else(no_goal)?;
    if document.is_finished() {
        return Err(finished(
            "start the next change with set_overarching_goal and start_new: true, or reopen this job with unfinish_job",
        ));
    }
    Ok(document)
}

/// The plan for tools that need tasks.
pub(crate) fn with_tasks<'a>(reading: &'a Reading, what: &str) -> Result<&'a Document, Refused> {
    match valid(reading)? {
        Some(document) if !document.tasks.is_empty() => Ok(document),
        _ => Err(no_tasks(what)),
    }
}
