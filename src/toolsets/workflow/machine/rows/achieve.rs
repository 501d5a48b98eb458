// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Achieve Acceptance Criteria: draft a task, execute it, integrate its
//! results (archive, tick), until every criterion is met; and Finite.

use super::gather::{new_task, resume_task};
use super::{RELAY, RESULTS_HEADINGS, count, draft_task, help_with_plan};
use crate::toolsets::workflow::files::archive::Place;
use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::files::templates;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::step::Step;

/// A3, A4n, E1d: every criterion is met.
pub(crate) fn all_met(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    step.say(format!(
        "Every acceptance criterion in {plan} is met. Type Finite to add criteria, or Reparo to \
         start a PR review."
    ));
    step.tell(RELAY);
}

/// A1b: `task.md` is missing.
pub(crate) fn a1b(step: &mut Step<'_>) {
    step.say(
        "Task file is missing. Use Accio to create a new task or Finite to return to plan editing.",
    );
    step.tell(RELAY);
}

/// A1t: `task.md` is not ready to execute.
pub(crate) fn a1t(step: &mut Step<'_>) {
    let task = step.file(File::Task);
    step.say(match step.bytes(File::Task) == templates::TASK.as_bytes() {
        true => format!(
            "{task} is still the empty template: draft the task and set its `task_name`, then \
             type Accio."
        ),
        false => format!(
            "{task} has no `task_name` in its front matter: set one (kebab-case), then type Accio."
        ),
    });
    step.tell(format!(
        "Help the user finish {task}: intent, steps, validation, and a kebab-case `task_name` in \
         the front matter. Edit only task.md; do not execute it yet."
    ));
}

/// A1: the task is executed.
pub(crate) fn a1(step: &mut Step<'_>) {
    let task = step.file(File::Task);
    let results = step.file(File::Results);
    step.say(format!(
        "Executing the task in {task}. Review its results in {results} when the agent is done, \
         then type Accio."
    ));
    step.tell(
        "Perform exactly the steps of the task below, with minimal, safe changes. Do not edit \
         plan.md.",
    );
    step.tell(format!(
        "Then write {results} with these headings: {RESULTS_HEADINGS}. Tell the user to review \
         the results and type Accio."
    ));
    step.quote(File::Task);
}

/// A2b: `task-results.md` is missing.
pub(crate) fn a2b(step: &mut Step<'_>) {
    step.say(
        "Task results file is missing. Please ask the AI to recreate task-results.md based on \
         the current git diff.",
    );
    let results = step.file(File::Results);
    step.tell(format!(
        "Tell the user message_to_user. When they ask, recreate {results} from the current git \
         diff with the headings {RESULTS_HEADINGS}; then they type Accio."
    ));
}

/// A2, A2d, E2, E2d: archives the task and its results, ticks the
/// criteria they satisfy, and drafts the next task while some remain.
pub(crate) fn integrate(step: &mut Step<'_>) {
    let ticking = step.ticking().clone();
    let dir = step
        .archive(Place::Task, &[File::Task, File::Results])
        .unwrap_or_default();
    if let Some(plan) = ticking.plan.clone() {
        step.replace_plan(plan);
    }
    let remain = step.to == State::AchieveTaskDrafting;
    if remain {
        step.create(File::Task, templates::TASK);
    }
    let archived = step.at(&format!("{dir}/"));
    let ticked = count(ticking.ticked.len(), "acceptance criterion");
    step.say(match remain {
        true => format!(
            "Archived the task to {archived} and ticked {ticked} in `plan.md`; {} still \
             unchecked. The agent drafts the next task in {}; type Accio to execute it.",
            count(ticking.remaining.len(), "criterion"),
            step.file(File::Task)
        ),
        false => format!(
            "Archived the task to {archived} and ticked {ticked} in `plan.md`. Every criterion \
             is met: the workstream is complete. Type Finite to add criteria, or Reparo to start \
             a PR review."
        ),
    });
    let plan = step.file(File::Plan);
    match ticking.ticked.is_empty() {
        true => step.tell(format!(
            "The server ticked no criterion in {plan}: no item under Satisfied Acceptance \
             Criteria matched an unchecked criterion exactly."
        )),
        false => step.list(&format!("Ticked by the server in {plan}"), &ticking.ticked),
    }
    if !ticking.unmatched.is_empty() {
        step.list(
            "Items under Satisfied Acceptance Criteria that match no criterion exactly",
            &ticking.unmatched,
        );
    }
    let results = String::from_utf8_lossy(step.bytes(File::Results)).into_owned();
    step.quote_as(&format!("{dir}/{}", File::Results.name()), &results);
    match remain {
        true => {
            step.tell(format!(
                "Reconcile {plan}: tick (`- [x]`) any other criterion this task met (the \
                 unmatched items above may name some), and tell the user what you ticked."
            ));
            draft_task(step, &ticking.remaining);
        }
        false => step.tell(
            "Tell the user the workstream is complete and suggest Finite (add criteria) or \
             Reparo (PR review).",
        ),
    }
}

/// A4: criteria were added after the work was complete.
pub(crate) fn a4(step: &mut Step<'_>) {
    match step.has(File::Task) {
        true => resume_task(step, "New acceptance criteria were added. "),
        false => new_task(step, "New acceptance criteria were added. "),
    }
}

/// A6: Finite while results wait to be integrated.
pub(crate) fn a6(step: &mut Step<'_>) {
    step.say(
        "Finish integrating the task results with Accio first: Finite now would leave the plan \
         unmarked.",
    );
    step.tell(RELAY);
}

/// F1: back to Gather Acceptance Criteria; files untouched.
pub(crate) fn f1(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    let mut message = match step.to {
        State::GatherNeedsPlan => format!(
            "Back in Gather Acceptance Criteria. There is no plan yet: type Accio to create {plan}."
        ),
        _ => format!(
            "Back in Gather Acceptance Criteria: refine {plan}, then type Accio when it is ready."
        ),
    };
    if step.has(File::Task) {
        let task = step.file(File::Task);
        message.push_str(&format!(
            " The unfinished task in {task} is kept; it resumes when Achieve starts."
        ));
    }
    if File::REVIEW.iter().any(|f| step.has(*f)) {
        message.push_str(
            " The PR review is paused: its files stay, and Reparo offers to continue or restart it.",
        );
    }
    step.say(message);
    match step.to {
        State::GatherNeedsPlan => step.tell(RELAY),
        _ => help_with_plan(step),
    }
}

/// F2: Finite where it is blocked.
pub(crate) fn f2(step: &mut Step<'_>) {
    step.say(match step.from {
        State::PrAppliedPendingArchive => {
            "Finish the review with Accio first: it archives the review and returns to where it started."
        }
        State::ErrorPlanMissing => "Type Accio to create a plan first.",
        _ => "Type Accio to create the review task first.",
    });
    step.tell(RELAY);
}
