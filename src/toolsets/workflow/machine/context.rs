// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `state.json`'s `context`: where a PR review returns to and which state
//! an error state came from; the main-line inference of the state from the
//! files, and the rules that carry the context from one state to the next.

use super::facts::Facts;
use super::state::State;
use crate::toolsets::workflow::files::names::File;

/// The context kept next to the current state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Context {
    /// Where the PR review returns to: a non-PR, non-error state; present
    /// in PR states and in error states reached from the PR flow.
    pub(crate) pr_return_state: Option<State>,
    /// The last non-error state before the current error state; present in
    /// error states only.
    pub(crate) error_original_state: Option<State>,
}

impl Context {
    /// The context with values that cannot be right dropped: a PR return
    /// state that is a PR or error state, an error origin that is an error
    /// state.
    pub(crate) fn checked(self) -> Self {
        Self {
            pr_return_state: self
                .pr_return_state
                .filter(|s| !s.is_review() && !s.is_error()),
            error_original_state: self.error_original_state.filter(|s| !s.is_error()),
        }
    }
}

/// The main line of the inference from the files: no `plan.md` → 1,
/// `task-results.md` → 4, `task.md` → 3, else 2.
pub(crate) fn main_line(facts: &Facts) -> State {
    if !facts.exists(File::Plan) {
        State::GatherNeedsPlan
    } else if facts.exists(File::Results) {
        State::AchieveTaskExecuted
    } else if facts.exists(File::Task) {
        State::AchieveTaskDrafting
    } else {
        State::GatherEditing
    }
}

/// The state inferred from the files when `state.json` is missing or
/// unreadable: `review-task-results.md` → 8, `review-task.md` → 7,
/// `comments.md` → 6 (returning to the main line), else the main line.
pub(crate) fn infer(facts: &Facts) -> (State, Context) {
    let review = [
        (File::ReviewResults, State::PrAppliedPendingArchive),
        (File::ReviewTask, State::PrReviewTaskDraft),
        (File::Comments, State::PrGatheringComments),
    ]
    .into_iter()
    .find(|(file, _)| facts.exists(*file));
    match review {
        Some((_, state)) => {
            let context = Context {
                pr_return_state: Some(main_line(facts)),
                error_original_state: None,
            };
            (state, context)
        }
        None => (main_line(facts), Context::default()),
    }
}

/// The context after a row moves from `from` (with `context`) to `to`.
/// `pr_return_state` is set when a review starts (`starts_review`), kept
/// while the review (or an error state it led to) goes on, and cleared
/// everywhere else; a missing one falls back to the main line.
/// `error_original_state` is `from` when an error state is entered from a
/// non-error state, kept from one error state to the next, and cleared when
/// an error state is left.
pub(crate) fn next(
    from: State,
    context: Context,
    to: State,
    starts_review: bool,
    facts: &Facts,
) -> Context {
    let in_review = to.is_review()
        || (matches!(
            to,
            State::ErrorCommentsMissing | State::ErrorReviewTaskMissing
        ));
    let pr_return_state = match (starts_review, in_review) {
        (true, _) => Some(from),
        (false, true) => Some(context.pr_return_state.unwrap_or_else(|| main_line(facts))),
        (false, false) => None,
    };
    let error_original_state = match (to.is_error(), from.is_error()) {
        (false, _) => None,
        (true, false) => Some(from),
        (true, true) => Some(
            context
                .error_original_state
                .unwrap_or_else(|| main_line(facts)),
        ),
    };
    Context {
        pr_return_state,
        error_original_state,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::workflow::machine::facts::Found;

    fn facts(files: &[File]) -> Facts {
        let mut facts = Facts::default();
        for file in files {
            facts.set(*file, Found::Present);
        }
        facts
    }

    #[test]
    fn inference_takes_the_first_match() {
        use State::*;
        let cases: &[(&[File], State, Option<State>)] = &[
            (&[], GatherNeedsPlan, None),
            (&[File::Task, File::Results], GatherNeedsPlan, None),
            (&[File::Plan], GatherEditing, None),
            (&[File::Plan, File::Task], AchieveTaskDrafting, None),
            (
                &[File::Plan, File::Task, File::Results],
                AchieveTaskExecuted,
                None,
            ),
            (
                &[File::Plan, File::Comments],
                PrGatheringComments,
                Some(GatherEditing),
            ),
            (
                &[File::Comments, File::ReviewTask],
                PrReviewTaskDraft,
                Some(GatherNeedsPlan),
            ),
            (
                &[File::Plan, File::Task, File::ReviewResults],
                PrAppliedPendingArchive,
                Some(AchieveTaskDrafting),
            ),
        ];
        for (files, state, pr_return) in cases {
            let (found, context) = infer(&facts(files));
            assert_eq!(
                (found, context.pr_return_state),
                (*state, *pr_return),
                "{files:?}"
            );
            assert_eq!(context.error_original_state, None);
        }
    }

    #[test]
    fn context_is_carried_set_and_cleared() {
        use State::*;
        let plan = facts(&[File::Plan]);
        let none = Context::default();
        let reviewing = Context {
            pr_return_state: Some(AchieveTaskDrafting),
            error_original_state: None,
        };
        let started = next(AchieveComplete, none, PrGatheringComments, true, &plan);
        assert_eq!(started.pr_return_state, Some(AchieveComplete));
        let kept = next(
            PrGatheringComments,
            reviewing,
            ErrorCommentsMissing,
            false,
            &plan,
        );
        assert_eq!(
            kept,
            Context {
                pr_return_state: Some(AchieveTaskDrafting),
                error_original_state: Some(PrGatheringComments),
            }
        );
        let chained = next(
            ErrorReviewTaskMissing,
            kept,
            ErrorCommentsMissing,
            false,
            &plan,
        );
        assert_eq!(chained, kept);
        let fallback = next(
            PrReviewTaskDraft,
            none,
            PrAppliedPendingArchive,
            false,
            &plan,
        );
        assert_eq!(fallback.pr_return_state, Some(GatherEditing));
        assert_eq!(
            next(
                ErrorCommentsMissing,
                kept,
                PrGatheringComments,
                false,
                &plan
            ),
            reviewing
        );
        assert_eq!(
            next(PrGatheringComments, reviewing, GatherEditing, false, &plan),
            none
        );
        let checked = Context {
            pr_return_state: Some(PrGatheringComments),
            error_original_state: Some(ErrorPlanMissing),
        }
        .checked();
        assert_eq!(checked, none);
    }
}
