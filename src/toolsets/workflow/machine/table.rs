// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The transition table: one row per (states, spell, condition), in the
//! spec's order; the first row whose state, spell and condition match
//! decides everything. Each row names its next state and the function that
//! adds its file effects and says what it says (`rows/`).

use super::rows::{achieve, gather, lumos, recovery, review};
use super::spell::Spell;
use super::state::State;
use super::step::Step;
use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::files::templates;

/// When a row applies, checked against the files as the call found them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    /// Always.
    Always,
    /// `plan.md` is absent.
    PlanAbsent,
    /// `plan.md` is present.
    PlanPresent,
    /// `plan.md` has no unchecked criterion.
    NoUnchecked,
    /// `plan.md` has an unchecked criterion.
    Unchecked,
    /// `task.md` is present.
    TaskPresent,
    /// `task.md` is absent.
    TaskAbsent,
    /// `task.md` is the untouched template, or its `task_name` is empty.
    TaskNotReady,
    /// `task-results.md` is absent.
    ResultsAbsent,
    /// `task-results.md` is present.
    ResultsPresent,
    /// Unchecked criteria remain after ticking with `task-results.md`.
    RemainAfterTicking,
    /// `task-results.md` is present and criteria remain after ticking.
    ResultsPresentAndRemain,
    /// `plan.md` has no Atlassian link that `atlassian/refs` lacks.
    NoNewLinks,
    /// `comments.md` is absent.
    CommentsAbsent,
    /// `comments.md` is present.
    CommentsPresent,
    /// `comments.md` holds only whitespace.
    CommentsBlank,
    /// None of the review files is present.
    NoReviewFiles,
    /// `comments.md` is present, `review-task.md` and its results are not.
    CommentsOnly,
    /// `review-task.md` is absent.
    ReviewTaskAbsent,
    /// `review-task.md` is the untouched template.
    ReviewTaskUntouched,
    /// `review-task-results.md` is absent.
    ReviewResultsAbsent,
    /// The review returns to a Gather state.
    ReturnsToGather,
}

impl When {
    /// Whether the condition holds for `step`.
    pub(crate) fn holds(self, step: &Step<'_>) -> bool {
        use crate::toolsets::workflow::files::{atlassian, task_name};
        match self {
            When::Always => true,
            When::PlanAbsent => !step.has(File::Plan),
            When::PlanPresent => step.has(File::Plan),
            When::NoUnchecked => step.unchecked().is_empty(),
            When::Unchecked => !step.unchecked().is_empty(),
            When::TaskPresent => step.has(File::Task),
            When::TaskAbsent => !step.has(File::Task),
            When::TaskNotReady => {
                let task = step.bytes(File::Task);
                task == templates::TASK.as_bytes() || task_name::task_name(task).is_empty()
            }
            When::ResultsAbsent => !step.has(File::Results),
            When::ResultsPresent => step.has(File::Results),
            When::RemainAfterTicking => !step.ticking().remaining.is_empty(),
            When::ResultsPresentAndRemain => {
                step.has(File::Results) && !step.ticking().remaining.is_empty()
            }
            When::NoNewLinks => {
                let input = step.input();
                let plan = input.facts.text(File::Plan);
                let refs = input.facts.text(File::Refs);
                atlassian::new_urls(&plan, &refs, &input.limits.atlassian_hosts).is_empty()
            }
            When::CommentsAbsent => !step.has(File::Comments),
            When::CommentsPresent => step.has(File::Comments),
            When::CommentsBlank => step
                .bytes(File::Comments)
                .iter()
                .all(u8::is_ascii_whitespace),
            When::NoReviewFiles => File::REVIEW.iter().all(|f| !step.has(*f)),
            When::CommentsOnly => {
                step.has(File::Comments)
                    && !step.has(File::ReviewTask)
                    && !step.has(File::ReviewResults)
            }
            When::ReviewTaskAbsent => !step.has(File::ReviewTask),
            When::ReviewTaskUntouched => {
                step.bytes(File::ReviewTask) == templates::REVIEW_TASK.as_bytes()
            }
            When::ReviewResultsAbsent => !step.has(File::ReviewResults),
            When::ReturnsToGather => step.return_state().phase() == super::state::Phase::Gather,
        }
    }
}

/// Where a row goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Blocked: nothing changes.
    Blocked,
    /// Lumos: nothing changes, nothing is recorded.
    Read,
    /// The same state (recorded in the history).
    Stay,
    /// This state.
    To(State),
    /// `GATHER_EDITING`, or `GATHER_NEEDS_PLAN` when `plan.md` is absent.
    Gather,
    /// The review's return state (`task.md` created in
    /// `ACHIEVE_TASK_DRAFTING` when absent).
    Return,
    /// The PR state the files show: results → 8, review task → 7, else 6
    /// (`comments.md` created empty when absent).
    ReviewFromFiles,
    /// `error_original_state`, or the main line when it is missing.
    ErrorOrigin,
}

/// One row of the transition table.
pub(crate) struct Row {
    /// Its ID, e.g. `G1`.
    pub(crate) id: &'static str,
    /// The states it applies in.
    pub(crate) states: &'static [State],
    /// The spell it answers.
    pub(crate) spell: Spell,
    /// Its condition.
    pub(crate) when: When,
    /// Its next state.
    pub(crate) next: Next,
    /// Adds its file effects and what it says.
    pub(crate) act: fn(&mut Step<'_>),
}

/// The rows that start a PR review (they set `pr_return_state`).
pub(crate) const STARTS_REVIEW: [&str; 3] = ["S1", "S2", "S3"];

use Spell::{Accio, Expecto, Finite, Lumos, Reparo, Reverto};
use State::*;
use When::*;

const fn row(
    id: &'static str,
    states: &'static [State],
    spell: Spell,
    when: When,
    next: Next,
    act: fn(&mut Step<'_>),
) -> Row {
    Row {
        id,
        states,
        spell,
        when,
        next,
        act,
    }
}

const HOME: &[State] = &[
    GatherNeedsPlan,
    GatherEditing,
    AchieveTaskDrafting,
    AchieveComplete,
];
/// The whole table, in the spec's order: Gather, Achieve, PR review,
/// Recovery, Lumos.
pub(crate) static TABLE: &[Row] = &[
    // Gather
    row(
        "G1",
        &[GatherNeedsPlan],
        Accio,
        PlanAbsent,
        Next::To(GatherEditing),
        gather::g1,
    ),
    row(
        "G1b",
        &[GatherNeedsPlan],
        Accio,
        Always,
        Next::To(GatherEditing),
        gather::g1b,
    ),
    row(
        "G2b",
        &[GatherEditing],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "G3",
        &[GatherEditing],
        Accio,
        NoUnchecked,
        Next::Stay,
        gather::g3,
    ),
    row(
        "G4",
        &[GatherEditing],
        Accio,
        TaskPresent,
        Next::To(AchieveTaskDrafting),
        gather::g4,
    ),
    row(
        "G2",
        &[GatherEditing],
        Accio,
        Always,
        Next::To(AchieveTaskDrafting),
        gather::g2,
    ),
    row(
        "X0",
        &[GatherNeedsPlan],
        Expecto,
        Always,
        Next::Stay,
        gather::x0,
    ),
    row(
        "X1b",
        &[GatherEditing],
        Expecto,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "X2",
        &[GatherEditing],
        Expecto,
        NoNewLinks,
        Next::Stay,
        gather::x2,
    ),
    row(
        "X1",
        &[GatherEditing],
        Expecto,
        Always,
        Next::Stay,
        gather::x1,
    ),
    row(
        "X3",
        &[
            AchieveTaskDrafting,
            AchieveTaskExecuted,
            AchieveComplete,
            PrGatheringComments,
            PrReviewTaskDraft,
            PrAppliedPendingArchive,
            PrConfirmRestartComments,
            PrConfirmRestartTask,
            ErrorTaskMissing,
            ErrorTaskResultsMissing,
            ErrorPlanMissing,
            ErrorCommentsMissing,
            ErrorReviewTaskMissing,
        ],
        Expecto,
        Always,
        Next::Blocked,
        gather::x3,
    ),
    row(
        "F0",
        &[GatherNeedsPlan, GatherEditing],
        Finite,
        Always,
        Next::Stay,
        gather::f0,
    ),
    // Achieve
    row(
        "A1c",
        &[AchieveTaskDrafting],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "A3",
        &[AchieveTaskDrafting],
        Accio,
        NoUnchecked,
        Next::To(AchieveComplete),
        achieve::all_met,
    ),
    row(
        "A1b",
        &[AchieveTaskDrafting],
        Accio,
        TaskAbsent,
        Next::To(ErrorTaskMissing),
        achieve::a1b,
    ),
    row(
        "A1t",
        &[AchieveTaskDrafting],
        Accio,
        TaskNotReady,
        Next::Stay,
        achieve::a1t,
    ),
    row(
        "A1",
        &[AchieveTaskDrafting],
        Accio,
        Always,
        Next::To(AchieveTaskExecuted),
        achieve::a1,
    ),
    row(
        "A2c",
        &[AchieveTaskExecuted],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "A2b",
        &[AchieveTaskExecuted],
        Accio,
        ResultsAbsent,
        Next::To(ErrorTaskResultsMissing),
        achieve::a2b,
    ),
    row(
        "A2",
        &[AchieveTaskExecuted],
        Accio,
        RemainAfterTicking,
        Next::To(AchieveTaskDrafting),
        achieve::integrate,
    ),
    row(
        "A2d",
        &[AchieveTaskExecuted],
        Accio,
        Always,
        Next::To(AchieveComplete),
        achieve::integrate,
    ),
    row(
        "A4c",
        &[AchieveComplete],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "A4",
        &[AchieveComplete],
        Accio,
        Unchecked,
        Next::To(AchieveTaskDrafting),
        achieve::a4,
    ),
    row(
        "A4n",
        &[AchieveComplete],
        Accio,
        Always,
        Next::Stay,
        achieve::all_met,
    ),
    row(
        "A6",
        &[AchieveTaskExecuted],
        Finite,
        Always,
        Next::Blocked,
        achieve::a6,
    ),
    row(
        "F1",
        &[
            AchieveTaskDrafting,
            AchieveComplete,
            PrGatheringComments,
            PrReviewTaskDraft,
            PrConfirmRestartComments,
            PrConfirmRestartTask,
            ErrorTaskMissing,
            ErrorTaskResultsMissing,
            ErrorCommentsMissing,
        ],
        Finite,
        Always,
        Next::Gather,
        achieve::f1,
    ),
    row(
        "F2",
        &[
            PrAppliedPendingArchive,
            ErrorPlanMissing,
            ErrorReviewTaskMissing,
        ],
        Finite,
        Always,
        Next::Blocked,
        achieve::f2,
    ),
    // PR review
    row(
        "S0",
        &[
            AchieveTaskExecuted,
            PrAppliedPendingArchive,
            ErrorTaskMissing,
            ErrorTaskResultsMissing,
            ErrorPlanMissing,
            ErrorCommentsMissing,
            ErrorReviewTaskMissing,
        ],
        Reparo,
        Always,
        Next::Blocked,
        review::s0,
    ),
    row(
        "S1",
        HOME,
        Reparo,
        NoReviewFiles,
        Next::To(PrGatheringComments),
        review::s1,
    ),
    row(
        "S2",
        HOME,
        Reparo,
        CommentsOnly,
        Next::To(PrConfirmRestartComments),
        review::confirm,
    ),
    row(
        "S3",
        HOME,
        Reparo,
        Always,
        Next::To(PrConfirmRestartTask),
        review::confirm,
    ),
    row(
        "S4",
        &[PrGatheringComments],
        Reparo,
        CommentsPresent,
        Next::To(PrConfirmRestartComments),
        review::confirm,
    ),
    row(
        "S5",
        &[PrGatheringComments],
        Reparo,
        Always,
        Next::Stay,
        review::s5,
    ),
    row(
        "S6",
        &[PrReviewTaskDraft],
        Reparo,
        Always,
        Next::To(PrConfirmRestartTask),
        review::confirm,
    ),
    row(
        "P1b",
        &[PrGatheringComments],
        Accio,
        CommentsAbsent,
        Next::To(ErrorCommentsMissing),
        review::p1b,
    ),
    row(
        "P1e",
        &[PrGatheringComments],
        Accio,
        CommentsBlank,
        Next::Stay,
        review::p1e,
    ),
    row(
        "P1",
        &[PrGatheringComments],
        Accio,
        Always,
        Next::To(PrReviewTaskDraft),
        review::p1,
    ),
    row(
        "P2b",
        &[PrReviewTaskDraft],
        Accio,
        ReviewTaskAbsent,
        Next::To(ErrorReviewTaskMissing),
        review::p2b,
    ),
    row(
        "P2t",
        &[PrReviewTaskDraft],
        Accio,
        ReviewTaskUntouched,
        Next::Stay,
        review::p2t,
    ),
    row(
        "P2",
        &[PrReviewTaskDraft],
        Accio,
        Always,
        Next::To(PrAppliedPendingArchive),
        review::p2,
    ),
    row(
        "P3r",
        &[PrAppliedPendingArchive],
        Accio,
        ReviewResultsAbsent,
        Next::Stay,
        review::p3r,
    ),
    row(
        "P3",
        &[PrAppliedPendingArchive],
        Accio,
        ReturnsToGather,
        Next::Return,
        review::finish,
    ),
    row(
        "P4",
        &[PrAppliedPendingArchive],
        Accio,
        Always,
        Next::Return,
        review::finish,
    ),
    row(
        "C1",
        &[PrConfirmRestartComments],
        Reparo,
        Always,
        Next::To(PrGatheringComments),
        review::restart,
    ),
    row(
        "C2",
        &[PrConfirmRestartComments],
        Accio,
        Always,
        Next::To(PrGatheringComments),
        review::c2,
    ),
    row(
        "C3",
        &[PrConfirmRestartTask],
        Reparo,
        Always,
        Next::To(PrGatheringComments),
        review::restart,
    ),
    row(
        "C4",
        &[PrConfirmRestartTask],
        Accio,
        Always,
        Next::ReviewFromFiles,
        review::c4,
    ),
    row(
        "V1",
        &[PrGatheringComments],
        Reverto,
        Always,
        Next::Return,
        review::leave,
    ),
    row(
        "V2",
        &[PrReviewTaskDraft],
        Reverto,
        Always,
        Next::Return,
        review::leave,
    ),
    row(
        "V3",
        &[PrConfirmRestartComments],
        Reverto,
        Always,
        Next::Return,
        review::leave,
    ),
    row(
        "V4",
        &[PrConfirmRestartTask],
        Reverto,
        Always,
        Next::Return,
        review::leave,
    ),
    row(
        "V5",
        &[PrAppliedPendingArchive],
        Reverto,
        Always,
        Next::Blocked,
        review::v5,
    ),
    row(
        "V0",
        &[
            GatherNeedsPlan,
            GatherEditing,
            AchieveTaskDrafting,
            AchieveTaskExecuted,
            AchieveComplete,
            ErrorTaskMissing,
            ErrorTaskResultsMissing,
            ErrorPlanMissing,
            ErrorCommentsMissing,
            ErrorReviewTaskMissing,
        ],
        Reverto,
        Always,
        Next::Blocked,
        review::v0,
    ),
    // Recovery
    row(
        "E1c",
        &[ErrorTaskMissing],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "E1d",
        &[ErrorTaskMissing],
        Accio,
        NoUnchecked,
        Next::To(AchieveComplete),
        achieve::all_met,
    ),
    row(
        "E1r",
        &[ErrorTaskMissing],
        Accio,
        TaskPresent,
        Next::To(AchieveTaskDrafting),
        recovery::e1r,
    ),
    row(
        "E1",
        &[ErrorTaskMissing],
        Accio,
        Always,
        Next::To(AchieveTaskDrafting),
        recovery::e1,
    ),
    row(
        "E2c",
        &[ErrorTaskResultsMissing],
        Accio,
        PlanAbsent,
        Next::To(ErrorPlanMissing),
        gather::plan_missing,
    ),
    row(
        "E2",
        &[ErrorTaskResultsMissing],
        Accio,
        ResultsPresentAndRemain,
        Next::To(AchieveTaskDrafting),
        achieve::integrate,
    ),
    row(
        "E2d",
        &[ErrorTaskResultsMissing],
        Accio,
        ResultsPresent,
        Next::To(AchieveComplete),
        achieve::integrate,
    ),
    row(
        "E3",
        &[ErrorTaskResultsMissing],
        Accio,
        Unchecked,
        Next::To(AchieveTaskDrafting),
        recovery::incomplete,
    ),
    row(
        "E3d",
        &[ErrorTaskResultsMissing],
        Accio,
        Always,
        Next::To(AchieveComplete),
        recovery::incomplete,
    ),
    row(
        "E4r",
        &[ErrorPlanMissing],
        Accio,
        PlanPresent,
        Next::ErrorOrigin,
        recovery::e4r,
    ),
    row(
        "E4",
        &[ErrorPlanMissing],
        Accio,
        Always,
        Next::To(GatherEditing),
        recovery::e4,
    ),
    row(
        "E5",
        &[ErrorCommentsMissing],
        Accio,
        Always,
        Next::To(PrGatheringComments),
        recovery::e5,
    ),
    row(
        "E6",
        &[ErrorReviewTaskMissing],
        Accio,
        CommentsPresent,
        Next::To(PrReviewTaskDraft),
        recovery::e6,
    ),
    row(
        "E7",
        &[ErrorReviewTaskMissing],
        Accio,
        Always,
        Next::To(ErrorCommentsMissing),
        recovery::e7,
    ),
    // Lumos
    row("L1", &State::ALL, Lumos, Always, Next::Read, lumos::l1),
];

/// The first row for `spell` in `step`'s state whose condition holds.
pub(crate) fn find(step: &Step<'_>, spell: Spell) -> Option<&'static Row> {
    TABLE
        .iter()
        .find(|row| row.spell == spell && row.states.contains(&step.from) && row.when.holds(step))
}
