// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `finish_job` (EXECUTE -> COMPLETE, every task done) and `unfinish_job`
//! (COMPLETE -> EXECUTE).

use super::preconditions::with_tasks;
use super::{Edit, Refused};
use crate::toolsets::commit::document::tasks;
use crate::toolsets::commit::document::{Limits, Reading};

/// `finish_job()` on the plan as read.
pub(crate) fn finish_job(reading: &Reading, limits: &Limits) -> Result<Edit, Refused> {
    let before = with_tasks(
        reading,
        "write the plan with set_plan, do the work, then finish",
    )?;
    if before.is_finished() {
        return Ok(Edit::unchanged(
            before.clone(),
            "The job is already finished.",
        ));
    }
    let open = tasks::open_leaves(&before.tasks);
    if !open.is_empty() {
        let count = match open.len() {
            1 => "1 task is".to_owned(),
            n => format!("{n} tasks are"),
        };
        return Err(Refused::because(format!(
            "{count} still open: {}. Finish the work and mark it with mark_task first. Nothing was changed.",
            tasks::described_list(&open)
        )));
    }
    let mut document = before.clone();
    document.complete = true;
    let (_, total) = tasks::counts(&document.tasks);
    let action = format!("Job finished: all {total} tasks done.");
    Edit::write(Some(before), document, vec![action], "", limits)
}

/// `unfinish_job()` on the plan as read.
pub(crate) fn unfinish_job(reading: &Reading, limits: &Limits) -> Result<Edit, Refused> {
    let before = with_tasks(reading, "nothing to reopen")?;
    if !before.is_finished() {
        return Ok(Edit::unchanged(before.clone(), "The job is not finished."));
    }
    let mut document = before.clone();
    document.complete = false;
    Edit::write(
        Some(before),
        document,
        vec!["Job reopened.".into()],
        "",
        limits,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    #[test]
    fn finish_and_reopen() {
        let edit = finish_job(&reading(ALL_DONE), &limits()).unwrap();
        assert_eq!(edit.actions, ["Job finished: all 3 tasks done."]);
        assert_eq!(edit.text.as_deref(), Some(STAGE_5));
        let edit = finish_job(&reading(STAGE_5), &limits()).unwrap();
        assert_eq!(
            (edit.actions, edit.text),
            (vec!["The job is already finished.".to_owned()], None)
        );
        let edit = unfinish_job(&reading(STAGE_5), &limits()).unwrap();
        assert_eq!(edit.actions, ["Job reopened."]);
        assert_eq!(edit.text.as_deref(), Some(ALL_DONE));
        let edit = unfinish_job(&reading(STAGE_4), &limits()).unwrap();
        assert_eq!(
            (edit.actions, edit.text),
            (vec!["The job is not finished.".to_owned()], None)
        );
    }

    #[test]
    fn refusals() {
        assert_eq!(
            finish_job(&reading(STAGE_4), &limits()),
            Err(Refused::because(
                "2 tasks are still open: 1.2 (Write tests), 2 (Document). Finish the work and mark it with mark_task first. Nothing was changed."
            ))
        );
        let one = "fix: a\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n";
        assert_eq!(
            finish_job(&reading(one), &limits()),
            Err(Refused::because(
                "1 task is still open: 1 (t). Finish the work and mark it with mark_task first. Nothing was changed."
            ))
        );
        for text in ["", STAGE_1, STAGE_3] {
            assert_eq!(
                finish_job(&reading(text), &limits()),
                Err(Refused::because(
                    "There are no tasks yet; write the plan with set_plan, do the work, then finish. Nothing was changed."
                ))
            );
            assert_eq!(
                unfinish_job(&reading(text), &limits()),
                Err(Refused::because(
                    "There are no tasks yet; nothing to reopen. Nothing was changed."
                ))
            );
        }
        assert_eq!(finish_job(&reading("x"), &limits()), Err(Refused::NotAPlan));
        assert_eq!(
            unfinish_job(&reading("x"), &limits()),
            Err(Refused::NotAPlan)
        );
    }
}
