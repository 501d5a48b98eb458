// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Recovery: the next Accio after a file went missing.

use super::gather::{new_task, resume_task};
use super::{RELAY, draft_task, gather_comments, guidance, help_with_plan};
use crate::toolsets::workflow::files::archive::Place;
use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::files::templates;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::step::Step;

/// E1r: `task.md` is back.
pub(crate) fn e1r(step: &mut Step<'_>) {
    resume_task(step, "The task file is back. ");
}

/// E1: a new `task.md` for the unchecked criteria.
pub(crate) fn e1(step: &mut Step<'_>) {
    new_task(step, "");
}

/// E3, E3d: no results: the task is archived as incomplete.
pub(crate) fn incomplete(step: &mut Step<'_>) {
    let dir = step.archive(Place::IncompleteTask, &[File::Task]);
    let archived = match &dir {
        Some(dir) => format!(
            "Archived the task without results to {}.",
            step.at(&format!("{dir}/"))
        ),
        None => "There was no task to archive.".to_owned(),
    };
    let plan = step.file(File::Plan);
    if step.to == State::AchieveComplete {
        step.say(format!(
            "{archived} Every acceptance criterion in {plan} is met. Type Finite to add \
             criteria, or Reparo to start a PR review."
        ));
        step.tell(RELAY);
        return;
    }
    step.create(File::Task, templates::TASK);
    step.say(format!(
        "{archived} The agent reviews the plan and proposes the next task in {}; type Accio to \
         execute it.",
        step.file(File::Task)
    ));
    if dir.is_some() {
        step.tell("Tell the user the task without results was archived.");
    }
    step.tell(format!("Review {plan} with the user, then:"));
    let unchecked = step.unchecked();
    draft_task(step, &unchecked);
}

/// E4r: `plan.md` is back: resume where we were.
pub(crate) fn e4r(step: &mut Step<'_>) {
    step.say(format!(
        "{} is back: resuming in {} — {}.",
        step.file(File::Plan),
        step.to.name(),
        guidance(step, step.to)
    ));
    step.tell(RELAY);
}

/// E4: a new `plan.md` from the template.
pub(crate) fn e4(step: &mut Step<'_>) {
    step.create(File::Plan, templates::PLAN);
    let plan = step.file(File::Plan);
    let mut message = format!(
        "Created a new {plan} from the template. Fill it in with the agent, with each acceptance \
         criterion as `- [ ] …`; type Accio when it is ready."
    );
    if step.has(File::Task) {
        message.push_str(&format!(
            " A task from before is still in {}; it resumes when Achieve starts.",
            step.file(File::Task)
        ));
    }
    step.say(message);
    help_with_plan(step);
}

/// E5: `comments.md` recreated; the comments are gathered again.
pub(crate) fn e5(step: &mut Step<'_>) {
    let comments = step.file(File::Comments);
    let lead = match step.create_missing(File::Comments, "") {
        true => format!("Recreated {comments} empty. "),
        false => String::new(),
    };
    step.say(format!(
        "{lead}The agent gathers the review comments again into {comments}."
    ));
    gather_comments(step);
}

/// E6: a new review task from the comments.
pub(crate) fn e6(step: &mut Step<'_>) {
    step.create_missing(File::ReviewTask, templates::REVIEW_TASK);
    let review_task = step.file(File::ReviewTask);
    step.say(format!(
        "Drafting a new review task in {review_task} from the comments; refine it together, then \
         type Accio to apply it."
    ));
    step.tell(format!(
        "Recreate the review task in {review_task}: cover every actionable comment below with \
         `## Items` (one per comment or thread, with its permalink), `## Steps`, \
         `## Validation`. Iterate with the user. Edit only review-task.md; do not apply it yet."
    ));
    step.quote(File::Comments);
}

/// E7: `comments.md` is missing too.
pub(crate) fn e7(step: &mut Step<'_>) {
    step.say(
        "Cannot create review task because comments.md is also missing. Use Accio to recreate \
         comments.md first.",
    );
    step.tell(RELAY);
}
