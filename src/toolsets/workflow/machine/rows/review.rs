// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Handle PR Reviews: start, restart, continue or leave a review; gather
//! comments, draft and apply the review task, archive the review.

use super::{RELAY, REVIEW_RESULTS_HEADINGS, gather_comments, guidance};
use crate::toolsets::workflow::files::archive::Place;
use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::files::templates;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::step::Step;

/// S0: Reparo where it is blocked.
pub(crate) fn s0(step: &mut Step<'_>) {
    step.say(match step.from {
        State::AchieveTaskExecuted => {
            "Integrate the task results with Accio first, then type Reparo to start a PR review."
        }
        State::PrAppliedPendingArchive => "Finish the current review with Accio first.",
        _ => "Resolve this first with Accio, then type Reparo to start a PR review.",
    });
    step.tell(RELAY);
}

/// The message of a row that hands the agent the Reparo instructions.
fn gathering(step: &Step<'_>, lead: &str) -> String {
    let comments = step.file(File::Comments);
    let pr = step
        .input()
        .note
        .as_deref()
        .and_then(super::pull_request_url);
    let of = pr.map(|url| format!(" of {url}")).unwrap_or_default();
    format!("{lead}The agent gathers the review comments{of} into {comments}.")
}

/// S1: starts a review with an empty `comments.md`.
pub(crate) fn s1(step: &mut Step<'_>) {
    step.create(File::Comments, "");
    let message = gathering(step, "Starting a PR review. ");
    step.say(message);
    gather_comments(step);
}

/// S5: `comments.md` went missing while gathering: recreated empty.
pub(crate) fn s5(step: &mut Step<'_>) {
    step.create(File::Comments, "");
    let lead = format!(
        "{} was missing and is empty again. ",
        step.file(File::Comments)
    );
    let message = gathering(step, &lead);
    step.say(message);
    gather_comments(step);
}

/// S2, S3, S4, S6: a review exists; ask to restart, continue or leave it.
pub(crate) fn confirm(step: &mut Step<'_>) {
    let what = match step.to {
        State::PrConfirmRestartComments => {
            format!("with gathered comments ({})", step.file(File::Comments))
        }
        _ => {
            let files: Vec<String> = [File::ReviewTask, File::ReviewResults]
                .into_iter()
                .filter(|f| step.has(*f))
                .map(|f| step.file(f))
                .collect();
            format!("with a review task ({})", files.join(", "))
        }
    };
    step.say(format!(
        "A PR review {what} already exists. Type Reparo again to restart it (its files are set \
         aside), Accio to continue it, or Reverto to leave it."
    ));
    step.tell("Tell the user message_to_user and wait for their spell. Change no file.");
}

/// P1b: `comments.md` is missing.
pub(crate) fn p1b(step: &mut Step<'_>) {
    step.say("Comments file is missing. Use Accio to recreate it and gather comments.");
    step.tell(RELAY);
}

/// P1e: `comments.md` is still empty: gather again.
pub(crate) fn p1e(step: &mut Step<'_>) {
    let lead = format!("{} is still empty. ", step.file(File::Comments));
    let message = gathering(step, &lead);
    step.say(message);
    gather_comments(step);
}

/// Asks for a review task covering the comments (quoted).
fn draft_review_task(step: &mut Step<'_>) {
    let review_task = step.file(File::ReviewTask);
    step.tell(format!(
        "Propose a review task in {review_task} that covers every actionable comment below: \
         `## Items` (one per comment or thread, with its permalink), `## Steps`, \
         `## Validation`. Iterate with the user. Edit only review-task.md; do not apply it yet."
    ));
    step.quote(File::Comments);
}

/// P1: drafts the review task from the comments.
pub(crate) fn p1(step: &mut Step<'_>) {
    step.create_missing(File::ReviewTask, templates::REVIEW_TASK);
    step.say(format!(
        "Drafting the review task in {} from the comments; refine it together, then type Accio \
         to apply it.",
        step.file(File::ReviewTask)
    ));
    draft_review_task(step);
}

/// P2b: `review-task.md` is missing.
pub(crate) fn p2b(step: &mut Step<'_>) {
    step.say("Review task file is missing. Use Accio to create a new review task.");
    step.tell(RELAY);
}

/// P2t: `review-task.md` is still the template.
pub(crate) fn p2t(step: &mut Step<'_>) {
    let review_task = step.file(File::ReviewTask);
    let comments = step.file(File::Comments);
    step.say(format!(
        "{review_task} is still the empty template: fill it in from {comments} first, then type \
         Accio."
    ));
    step.tell(format!(
        "Help the user fill {review_task} from the comments in {comments}: items, steps, \
         validation. Edit only review-task.md; do not apply it yet."
    ));
}

/// P2: the review task is applied.
pub(crate) fn p2(step: &mut Step<'_>) {
    let review_task = step.file(File::ReviewTask);
    let results = step.file(File::ReviewResults);
    step.say(format!(
        "Applying the review task in {review_task}; type Accio to archive the review once its \
         results are written."
    ));
    step.tell(format!(
        "Do the following as one operation, without asking the user questions.\n\
         1. Apply exactly the steps of the review task below.\n\
         2. Write {results} with these headings: {REVIEW_RESULTS_HEADINGS}.\n\
         3. Tell the user \"Applied the review task. Wrote results to {results}.\" and that \
         typing Accio archives the review."
    ));
    step.quote(File::ReviewTask);
}

/// P3r: the review's results are missing.
pub(crate) fn p3r(step: &mut Step<'_>) {
    let results = step.file(File::ReviewResults);
    step.say(format!(
        "{results} is missing: the agent writes it from the current diff; then type Accio to \
         archive the review."
    ));
    step.tell(format!(
        "Write {results} from the current git diff and {}, with these headings: \
         {REVIEW_RESULTS_HEADINGS}. Then tell the user to type Accio.",
        step.file(File::ReviewTask)
    ));
}

/// P3, P4: archives the review and returns to where it started.
pub(crate) fn finish(step: &mut Step<'_>) {
    let dir = step
        .archive(Place::Review, &File::REVIEW)
        .unwrap_or_default();
    let phase = step.to.phase();
    step.say(format!(
        "PR review finished. Archived to {}/. We're back in {} — {}.",
        step.shown(&dir),
        phase.title(),
        guidance(step, step.to)
    ));
    step.tell(
        "Tell the user message_to_user: where the review was archived, the phase we are back \
         in and the next step. Do no file operations.",
    );
}

/// C1, C3: restarts the review; its files are set aside.
pub(crate) fn restart(step: &mut Step<'_>) {
    let set_aside = step.archive(Place::Discarded, &File::REVIEW);
    step.create(File::Comments, "");
    let lead = match set_aside {
        Some(dir) => format!(
            "Restarted the PR review; its old files were set aside in {}. ",
            step.at(&format!("{dir}/"))
        ),
        None => "Restarted the PR review. ".to_owned(),
    };
    let message = gathering(step, &lead);
    step.say(message);
    gather_comments(step);
}

/// C2: continues the review from the gathered comments.
pub(crate) fn c2(step: &mut Step<'_>) {
    let comments = step.file(File::Comments);
    let created = step.create_missing(File::Comments, "");
    step.say(match created {
        true => format!(
            "Continuing the PR review; {comments} was missing and is empty again: type Accio and \
             the agent gathers the comments."
        ),
        false => format!(
            "Continuing the PR review with the comments in {comments}; type Accio to draft the \
             review task."
        ),
    });
    step.tell(format!(
        "Discuss the comments in {comments} with the user as they wish. Change no file; typing \
         Accio moves the review on."
    ));
}

/// C4: continues the review where its files show it stands.
pub(crate) fn c4(step: &mut Step<'_>) {
    let next = match step.to {
        State::PrAppliedPendingArchive => {
            "the review task was applied; type Accio to archive the review".to_owned()
        }
        State::PrReviewTaskDraft => format!(
            "refine the review task in {}, then type Accio to apply it",
            step.file(File::ReviewTask)
        ),
        _ => format!(
            "the comments are in {}; type Accio to draft the review task",
            step.file(File::Comments)
        ),
    };
    step.say(format!("Continuing the PR review: {next}."));
    step.tell(RELAY);
}

/// V1–V4: leaves the review; its files stay (paused).
pub(crate) fn leave(step: &mut Step<'_>) {
    let phase = step.to.phase();
    step.say(format!(
        "Left the PR review; we're back in {} — {}. The review files stay; a later Reparo offers \
         to continue or restart the review.",
        phase.title(),
        guidance(step, step.to)
    ));
    step.tell(RELAY);
}

/// V5: Reverto while the applied review waits to be archived.
pub(crate) fn v5(step: &mut Step<'_>) {
    step.say("Finish the review with Accio first: it archives the results.");
    step.tell(RELAY);
}

/// V0: Reverto without a review.
pub(crate) fn v0(step: &mut Step<'_>) {
    step.say(match step.from.is_error() {
        true => "No PR review is in progress; resolve this state with Accio first.",
        false => "No PR review is in progress.",
    });
    step.tell(RELAY);
}
