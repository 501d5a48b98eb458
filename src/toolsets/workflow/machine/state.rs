// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The fifteen stored states, their phases and purposes, and the derived
//! `GATHER_READY` (a stored `GATHER_EDITING` whose plan has an unchecked
//! criterion: shown, accepted when read, never written).

/// A stored state of the workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum State {
    /// 1: no plan yet.
    GatherNeedsPlan,
    /// 2: the plan is being written (shown as `GATHER_READY` once it has an
    /// unchecked criterion).
    GatherEditing,
    /// 3: the next task is being drafted.
    AchieveTaskDrafting,
    /// 4: the task ran; its results wait for review.
    AchieveTaskExecuted,
    /// 5: every criterion is met.
    AchieveComplete,
    /// 6: review comments are being gathered.
    PrGatheringComments,
    /// 7: the review task is being drafted.
    PrReviewTaskDraft,
    /// 8: the review task was applied; the review waits to be archived.
    PrAppliedPendingArchive,
    /// 9: confirm restarting a review that has comments.
    PrConfirmRestartComments,
    /// 11: confirm restarting a review that has a review task.
    PrConfirmRestartTask,
    /// 12: `task.md` went missing.
    ErrorTaskMissing,
    /// 13: `task-results.md` went missing.
    ErrorTaskResultsMissing,
    /// 14: `plan.md` went missing.
    ErrorPlanMissing,
    /// 15: `comments.md` went missing.
    ErrorCommentsMissing,
    /// 16: `review-task.md` went missing.
    ErrorReviewTaskMissing,
}

/// The name shown for a stored `GATHER_EDITING` whose plan has an unchecked
/// criterion.
pub(crate) const GATHER_READY: &str = "GATHER_READY";

/// The phases of the workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Gather Acceptance Criteria.
    Gather,
    /// Achieve Acceptance Criteria.
    Achieve,
    /// Handle PR Reviews.
    Review,
    /// Recovery from a missing file.
    Recovery,
}

impl Phase {
    /// Its name as the user reads it.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Phase::Gather => "Gather Acceptance Criteria",
            Phase::Achieve => "Achieve Acceptance Criteria",
            Phase::Review => "Handle PR Reviews",
            Phase::Recovery => "Recovery",
        }
    }
}

impl State {
    /// Every stored state, in number order.
    pub(crate) const ALL: [State; 15] = [
        State::GatherNeedsPlan,
        State::GatherEditing,
        State::AchieveTaskDrafting,
        State::AchieveTaskExecuted,
        State::AchieveComplete,
        State::PrGatheringComments,
        State::PrReviewTaskDraft,
        State::PrAppliedPendingArchive,
        State::PrConfirmRestartComments,
        State::PrConfirmRestartTask,
        State::ErrorTaskMissing,
        State::ErrorTaskResultsMissing,
        State::ErrorPlanMissing,
        State::ErrorCommentsMissing,
        State::ErrorReviewTaskMissing,
    ];

    /// Its stored name, e.g. `GATHER_EDITING`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            State::GatherNeedsPlan => "GATHER_NEEDS_PLAN",
            State::GatherEditing => "GATHER_EDITING",
            State::AchieveTaskDrafting => "ACHIEVE_TASK_DRAFTING",
            State::AchieveTaskExecuted => "ACHIEVE_TASK_EXECUTED",
            State::AchieveComplete => "ACHIEVE_COMPLETE",
            State::PrGatheringComments => "PR_GATHERING_COMMENTS",
            State::PrReviewTaskDraft => "PR_REVIEW_TASK_DRAFT",
            State::PrAppliedPendingArchive => "PR_APPLIED_PENDING_ARCHIVE",
            State::PrConfirmRestartComments => "PR_CONFIRM_RESTART_COMMENTS",
            State::PrConfirmRestartTask => "PR_CONFIRM_RESTART_TASK",
            State::ErrorTaskMissing => "ERROR_TASK_MISSING",
            State::ErrorTaskResultsMissing => "ERROR_TASK_RESULTS_MISSING",
            State::ErrorPlanMissing => "ERROR_PLAN_MISSING",
            State::ErrorCommentsMissing => "ERROR_COMMENTS_MISSING",
            State::ErrorReviewTaskMissing => "ERROR_REVIEW_TASK_MISSING",
        }
    }

    /// Its number in the design (1–16; 10 is the derived `GATHER_READY`).
    pub(crate) fn number(self) -> u8 {
        match self {
            State::GatherNeedsPlan => 1,
            State::GatherEditing => 2,
            State::AchieveTaskDrafting => 3,
            State::AchieveTaskExecuted => 4,
            State::AchieveComplete => 5,
            State::PrGatheringComments => 6,
            State::PrReviewTaskDraft => 7,
            State::PrAppliedPendingArchive => 8,
            State::PrConfirmRestartComments => 9,
            State::PrConfirmRestartTask => 11,
            State::ErrorTaskMissing => 12,
            State::ErrorTaskResultsMissing => 13,
            State::ErrorPlanMissing => 14,
            State::ErrorCommentsMissing => 15,
            State::ErrorReviewTaskMissing => 16,
        }
    }

    /// The state stored under `name`; `GATHER_READY` reads as
    /// `GATHER_EDITING`.
    pub(crate) fn parse(name: &str) -> Option<State> {
        match name {
            GATHER_READY => Some(State::GatherEditing),
            _ => State::ALL.into_iter().find(|s| s.name() == name),
        }
    }

    /// Its phase.
    pub(crate) fn phase(self) -> Phase {
        match self.number() {
            1 | 2 => Phase::Gather,
            3..=5 => Phase::Achieve,
            6..=11 => Phase::Review,
            _ => Phase::Recovery,
        }
    }

    /// Whether it is a PR review state.
    pub(crate) fn is_review(self) -> bool {
        self.phase() == Phase::Review
    }

    /// Whether it is an error state.
    pub(crate) fn is_error(self) -> bool {
        self.phase() == Phase::Recovery
    }

    /// What the state is used to do (completes "which is used to …").
    pub(crate) fn purpose(self) -> &'static str {
        match self {
            State::GatherNeedsPlan => "start a new plan",
            State::GatherEditing => "write `plan.md` and its acceptance criteria",
            State::AchieveTaskDrafting => "draft the next task in `task.md`",
            State::AchieveTaskExecuted => "review the executed task's results",
            State::AchieveComplete => "wrap up: every criterion is met",
            State::PrGatheringComments => "collect review comments in `comments.md`",
            State::PrReviewTaskDraft => "draft `review-task.md`",
            State::PrAppliedPendingArchive => "finish the applied review",
            State::PrConfirmRestartComments => "confirm restarting a review that has comments",
            State::PrConfirmRestartTask => "confirm restarting a review that has a review task",
            State::ErrorTaskMissing => "recover a missing `task.md`",
            State::ErrorTaskResultsMissing => "recover missing `task-results.md`",
            State::ErrorPlanMissing => "recover a missing `plan.md`",
            State::ErrorCommentsMissing => "recover a missing `comments.md`",
            State::ErrorReviewTaskMissing => "recover a missing `review-task.md`",
        }
    }

    /// The name shown in replies: `GATHER_READY` for `GATHER_EDITING` when
    /// the plan has an unchecked criterion.
    pub(crate) fn shown(self, has_unchecked: bool) -> &'static str {
        match self {
            State::GatherEditing if has_unchecked => GATHER_READY,
            _ => self.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_gather_ready_is_a_synonym() {
        for state in State::ALL {
            assert_eq!(State::parse(state.name()), Some(state));
        }
        assert_eq!(State::parse(GATHER_READY), Some(State::GatherEditing));
        assert_eq!(State::parse("gather_editing"), None);
        let numbers: Vec<u8> = State::ALL.iter().map(|s| s.number()).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16]);
        assert_eq!(State::GatherEditing.shown(true), GATHER_READY);
        assert_eq!(State::GatherEditing.shown(false), "GATHER_EDITING");
        assert_eq!(State::AchieveComplete.shown(true), "ACHIEVE_COMPLETE");
    }
}
