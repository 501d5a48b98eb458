// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The spells valid in each state: exactly those that are neither blocked
//! nor a no-op there, in the order Accio, Expecto, Reparo, Reverto, Finite,
//! Lumos.

use super::spell::Spell;
use super::state::State;

/// The options of `state`. In `ACHIEVE_COMPLETE`, Accio does something
/// (and comes first) only when `plan.md` has unchecked criteria again, or
/// is missing (the next Accio then reports it).
pub(crate) fn options(state: State, plan_present: bool, has_unchecked: bool) -> Vec<Spell> {
    use Spell::*;
    use State::*;
    let options: &[Spell] = match state {
        GatherNeedsPlan => &[Accio, Reparo, Lumos],
        GatherEditing => &[Accio, Expecto, Reparo, Lumos],
        AchieveTaskDrafting => &[Accio, Reparo, Finite, Lumos],
        AchieveComplete if has_unchecked || !plan_present => &[Accio, Reparo, Finite, Lumos],
        AchieveComplete => &[Reparo, Finite, Lumos],
        PrGatheringComments
        | PrReviewTaskDraft
        | PrConfirmRestartComments
        | PrConfirmRestartTask => &[Accio, Reparo, Reverto, Finite, Lumos],
        AchieveTaskExecuted
        | PrAppliedPendingArchive
        | ErrorPlanMissing
        | ErrorReviewTaskMissing => &[Accio, Lumos],
        ErrorTaskMissing | ErrorTaskResultsMissing | ErrorCommentsMissing => {
            &[Accio, Finite, Lumos]
        }
    };
    options.to_vec()
}
