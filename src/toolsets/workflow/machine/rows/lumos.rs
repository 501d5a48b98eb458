// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Lumos (L1): where we are and what the user does next; changes nothing.

use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::machine::options::options;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::step::{Start, Step};

/// What `state` means and what the user does next.
fn explain(step: &Step<'_>, state: State) -> String {
    let plan = step.file(File::Plan);
    let task = step.file(File::Task);
    let results = step.file(File::Results);
    let comments = step.file(File::Comments);
    let review_task = step.file(File::ReviewTask);
    let review_results = step.file(File::ReviewResults);
    let ready = !step.unchecked().is_empty();
    match state {
        State::GatherNeedsPlan => format!(
            "We're at the very start; no {plan} yet. Type Accio to create the plan template, or \
             paste initial context and ideas for acceptance criteria."
        ),
        State::GatherEditing if ready => format!(
            "{plan} has Acceptance Criteria; we can start executing. Type Accio to enter Achieve \
             Acceptance Criteria."
        ),
        State::GatherEditing => format!(
            "We're drafting {plan}. At least one Acceptance Criterion is required to proceed: \
             add an unchecked one (`- [ ] …`). Expecto fetches linked Jira/Confluence pages."
        ),
        State::AchieveTaskDrafting => format!(
            "We're in Achieve Acceptance Criteria; {task} is being drafted. Finish its intent, \
             steps and validation, then type Accio to execute it."
        ),
        State::AchieveTaskExecuted => format!(
            "Execution finished; {results} is ready for review. Type Accio and the server \
             archives the task and ticks the matching criteria in {plan}."
        ),
        State::AchieveComplete if ready => format!(
            "{plan} has new unchecked acceptance criteria. Type Accio to draft the next task, \
             Finite to refine the plan, or Reparo to address PR feedback."
        ),
        State::AchieveComplete => {
            "No acceptance criteria remain. Type Finite to add more, or Reparo to address PR \
             feedback."
                .to_owned()
        }
        State::PrGatheringComments => format!(
            "A PR review is in progress; its comments are gathered in {comments}. Type Accio to \
             draft {review_task} covering every actionable comment, or Reverto to leave the \
             review."
        ),
        State::PrReviewTaskDraft => {
            format!("{review_task} is being drafted. Finish it, then type Accio to apply it.")
        }
        State::PrAppliedPendingArchive => format!(
            "The review task was applied; {review_results} is ready. Type Accio to archive the \
             review and return to where it started."
        ),
        State::PrConfirmRestartComments | State::PrConfirmRestartTask => {
            "A PR review already exists. Type Reparo to restart it (its files are set aside), \
             Accio to continue it, or Reverto to leave it."
                .to_owned()
        }
        State::ErrorTaskMissing => format!(
            "{task} is missing. Type Accio to create a new task, or Finite to return to plan \
             editing."
        ),
        State::ErrorTaskResultsMissing => format!(
            "{results} is missing. Ask the agent to recreate it from the current git diff, then \
             type Accio; an Accio without it archives the task as incomplete."
        ),
        State::ErrorPlanMissing => format!(
            "{plan} is missing. Type Accio to create a new plan from the template (or to resume, \
             once the file is restored)."
        ),
        State::ErrorCommentsMissing => format!(
            "{comments} is missing. Type Accio to recreate it and gather the comments again."
        ),
        State::ErrorReviewTaskMissing => {
            format!("{review_task} is missing. Type Accio to create a new review task.")
        }
    }
}

/// Whether the next Accio in `state` needs `plan.md` (it goes to
/// `ERROR_PLAN_MISSING` without it).
fn needs_plan(state: State) -> bool {
    matches!(
        state,
        State::GatherEditing
            | State::AchieveTaskDrafting
            | State::AchieveTaskExecuted
            | State::AchieveComplete
            | State::ErrorTaskMissing
            | State::ErrorTaskResultsMissing
    )
}

/// L1: the state explained; reports an inferred or unreadable
/// `state.json` and a missing `plan.md`.
pub(crate) fn l1(step: &mut Step<'_>) {
    let state = step.from;
    let mut message = match &step.input().start {
        Start::Stored => String::new(),
        Start::Missing => {
            "state.json is missing, so the state was inferred from the files. ".to_owned()
        }
        Start::Corrupt(reason) => format!(
            "state.json is unreadable ({reason}); the next spell other than Lumos moves it aside \
             and rebuilds the state from the files as {}. ",
            state.name()
        ),
    };
    message.push_str(&explain(step, state));
    if needs_plan(state) && !step.has(File::Plan) {
        message.push_str(&format!(
            " {} is missing: the next Accio goes to ERROR_PLAN_MISSING.",
            step.file(File::Plan)
        ));
    }
    step.say(message);
    let ready = !step.unchecked().is_empty();
    let spells: Vec<&str> = options(state, step.has(File::Plan), ready)
        .iter()
        .map(|s| s.name())
        .collect();
    step.tell(format!(
        "Tell the user message_to_user and that the valid spells now are {}. Do no file \
         operations.",
        spells.join(", ")
    ));
}
