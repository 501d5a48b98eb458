// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The options of each state are exactly the spells that are neither
//! blocked nor a no-op there, and every state and spell has a row, whatever
//! the files say.

use crate::toolsets::workflow::files::archive::Slots;
use crate::toolsets::workflow::files::names::File;
use crate::toolsets::workflow::machine::context::Context;
use crate::toolsets::workflow::machine::facts::{Facts, Found};
use crate::toolsets::workflow::machine::options::options;
use crate::toolsets::workflow::machine::spell::Spell;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::state_json::StateDoc;
use crate::toolsets::workflow::machine::step::{Input, Limits, Start};
use crate::toolsets::workflow::machine::transition::{Kind, decide};

use super::fixtures::{PLAN_DONE, PLAN_OPEN, now};

/// The rows that change nothing but the history.
const NO_OPS: [&str; 3] = ["X0", "F0", "A4n"];

#[test]
fn options_are_the_spells_that_do_something() {
    let limits = Limits {
        dir: ".ai/task".into(),
        max_inline_bytes: 65536,
        max_history: 200,
        atlassian_hosts: Vec::new(),
    };
    let plans: [Option<&str>; 3] = [None, Some(PLAN_OPEN), Some(PLAN_DONE)];
    for state in State::ALL {
        for plan in plans {
            for others in 0..(1u32 << 6) {
                let mut facts = Facts::new(Slots::default());
                if let Some(plan) = plan {
                    facts.set(File::Plan, Found::Text(plan.as_bytes().to_vec()));
                }
                for (bit, file) in File::ALL[1..].iter().enumerate() {
                    if others & (1 << bit) != 0 {
                        facts.set(*file, Found::Text(b"x".to_vec()));
                    }
                }
                let unchecked = !facts.unchecked().is_empty();
                let offered = options(state, plan.is_some(), unchecked);
                for spell in Spell::ALL {
                    let input = Input {
                        spell,
                        start: Start::Stored,
                        doc: StateDoc::new(state, Context::default()),
                        state_file: None,
                        facts: facts.clone(),
                        note: None,
                        now: now(),
                        limits: &limits,
                    };
                    let decision = decide(&input);
                    assert_ne!(decision.row, "none", "{state:?} {spell:?} has a row");
                    let does_something =
                        decision.kind != Kind::Blocked && !NO_OPS.contains(&decision.row);
                    assert_eq!(
                        offered.contains(&spell),
                        does_something,
                        "{state:?} {spell:?} plan {plan:?} files {others:b}: row {}",
                        decision.row
                    );
                }
            }
        }
    }
}

#[test]
fn options_per_state_are_the_specs() {
    let expected = [
        (State::GatherNeedsPlan, "Accio, Reparo, Lumos"),
        (State::GatherEditing, "Accio, Expecto, Reparo, Lumos"),
        (State::AchieveTaskDrafting, "Accio, Reparo, Finite, Lumos"),
        (State::AchieveTaskExecuted, "Accio, Lumos"),
        (State::AchieveComplete, "Reparo, Finite, Lumos"),
        (
            State::PrGatheringComments,
            "Accio, Reparo, Reverto, Finite, Lumos",
        ),
        (
            State::PrReviewTaskDraft,
            "Accio, Reparo, Reverto, Finite, Lumos",
        ),
        (State::PrAppliedPendingArchive, "Accio, Lumos"),
        (
            State::PrConfirmRestartComments,
            "Accio, Reparo, Reverto, Finite, Lumos",
        ),
        (
            State::PrConfirmRestartTask,
            "Accio, Reparo, Reverto, Finite, Lumos",
        ),
        (State::ErrorTaskMissing, "Accio, Finite, Lumos"),
        (State::ErrorTaskResultsMissing, "Accio, Finite, Lumos"),
        (State::ErrorPlanMissing, "Accio, Lumos"),
        (State::ErrorCommentsMissing, "Accio, Finite, Lumos"),
        (State::ErrorReviewTaskMissing, "Accio, Lumos"),
    ];
    for (state, spells) in expected {
        let names: Vec<&str> = options(state, true, false)
            .iter()
            .map(|s| s.name())
            .collect();
        assert_eq!(names.join(", "), spells, "{state:?}");
    }
    let again: Vec<&str> = options(State::AchieveComplete, true, true)
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(again.join(", "), "Accio, Reparo, Finite, Lumos");
}
