// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Properties over any sequence of spells, with the agent's and the user's
//! edits in between (so every state is reachable): `state.json` stays
//! valid; no file is ever lost (each one that existed before a spell is
//! still there, or its bytes moved to a new path); a blocked, read-only or
//! refused call leaves the directory byte-identical; a failure injected
//! before any effect leaves it byte-identical too; and after a crash
//! between any two effects the next Accio recovers.

use proptest::prelude::*;

use super::fixtures::*;
use crate::toolsets::workflow::disk::apply::Fault;
use crate::toolsets::workflow::files::names::{LOCK, STATE};
use crate::toolsets::workflow::files::templates::{PLAN, REVIEW_TASK as REVIEW_TEMPLATE, TASK};
use crate::toolsets::workflow::machine::spell::Spell;
use crate::toolsets::workflow::machine::state_json::{Read, read};
use crate::toolsets::workflow::machine::transition::Kind;

/// Something that happens in the project.
#[derive(Debug, Clone)]
enum Act {
    /// The user types a spell, maybe with a note.
    Cast(Spell, Option<String>),
    /// The agent or the user writes a file.
    Write(&'static str, &'static str),
    /// The user deletes a file.
    Delete(&'static str),
}

fn spell() -> impl Strategy<Value = Spell> {
    prop::sample::select(Spell::ALL.to_vec())
}

fn note() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        4 => Just(None),
        1 => Just(Some("https://github.com/acme/app/pull/7".to_owned())),
        1 => "[a-z \n\r\t\u{0}-\u{1f}é→]{0,40}".prop_map(Some),
        1 => Just(Some("x".repeat(501))),
    ]
}

fn write() -> impl Strategy<Value = Act> {
    prop::sample::select(vec![
        ("plan.md", PLAN_OPEN),
        ("plan.md", PLAN_DONE),
        ("plan.md", PLAN),
        ("plan.md", PLAN_LINKS),
        ("task.md", TASK_READY),
        ("task.md", TASK),
        ("task.md", TASK_UNNAMED),
        ("task-results.md", RESULTS_ONE),
        ("task-results.md", RESULTS_ALL),
        ("comments.md", COMMENTS),
        ("comments.md", "\n"),
        ("review-task.md", REVIEW_TASK),
        ("review-task.md", REVIEW_TEMPLATE),
        ("review-task-results.md", REVIEW_RESULTS),
        ("atlassian/refs", REFS_ONE),
        (STATE, "{\"current_state\": 7"),
        (
            STATE,
            "{\"version\": 1, \"current_state\": \"PR_REVIEW_TASK_DRAFT\", \"mine\": [1]}",
        ),
    ])
    .prop_map(|(rel, content)| Act::Write(rel, content))
}

fn delete() -> impl Strategy<Value = Act> {
    prop::sample::select(vec![
        "plan.md",
        "task.md",
        "task-results.md",
        "comments.md",
        "review-task.md",
        "review-task-results.md",
        STATE,
    ])
    .prop_map(Act::Delete)
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        6 => (spell(), note()).prop_map(|(spell, note)| Act::Cast(spell, note)),
        3 => write(),
        1 => delete(),
    ]
}

/// The directory without the lock file (which only a first spell creates).
fn files(project: &Project) -> Tree {
    let mut tree = project.tree();
    tree.remove(LOCK);
    tree
}

/// Checks `state.json`: readable, laid out as this server writes it, and
/// its context where it belongs.
fn valid_state(project: &Project) -> Result<(), TestCaseError> {
    let Some(Node::File(bytes)) = project.tree().get(STATE).cloned() else {
        return Err(TestCaseError::fail("state.json is missing after a spell"));
    };
    let Read::Doc(doc) = read(&bytes) else {
        return Err(TestCaseError::fail(format!(
            "state.json is unreadable: {}",
            String::from_utf8_lossy(&bytes)
        )));
    };
    prop_assert_eq!(doc.render().into_bytes(), bytes);
    let review = doc.state.is_review() || doc.state.is_error();
    prop_assert!(doc.context.pr_return_state.is_none() || review, "{:?}", doc);
    prop_assert_eq!(
        doc.context.error_original_state.is_some(),
        doc.state.is_error(),
        "{:?}",
        doc
    );
    Ok(())
}

/// Every file of `before` is in `after`, at its path or (moved) with its
/// bytes at a path `before` did not have.
fn nothing_lost(before: &Tree, after: &Tree) -> Result<(), TestCaseError> {
    for (path, node) in before {
        if after.contains_key(path) {
            continue;
        }
        let moved = after
            .iter()
            .any(|(new, other)| !before.contains_key(new) && other == node);
        prop_assert!(moved, "{} was lost", path);
    }
    Ok(())
}

/// Does `act`; for a spell, checks the properties of one call.
fn run(project: &Project, act: &Act, fault: Fault) -> Result<(), TestCaseError> {
    match act {
        Act::Write(rel, content) => project.write(rel, content),
        Act::Delete(rel) => {
            let _ = std::fs::remove_file(project.path(rel));
        }
        Act::Cast(spell, note) => {
            let before = files(project);
            match project.try_cast(*spell, note.as_deref(), fault) {
                Ok(decision) => {
                    let after = files(project);
                    match decision.kind {
                        Kind::Blocked | Kind::Read => prop_assert_eq!(&after, &before),
                        Kind::Moved => valid_state(project)?,
                    }
                    nothing_lost(&before, &after)?;
                }
                Err(_) if matches!(fault, Fault::Crash(_)) => {}
                Err(error) => prop_assert_eq!(files(project), before, "refused: {}", error),
            }
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_sequence_keeps_state_valid_and_loses_nothing(acts in prop::collection::vec(act(), 1..30)) {
        let project = Project::new();
        for act in &acts {
            run(&project, act, Fault::None)?;
        }
    }

    #[test]
    fn a_failed_effect_changes_nothing(
        acts in prop::collection::vec(act(), 0..20),
        spell in spell(),
        at in 0usize..8,
    ) {
        let project = Project::new();
        for act in &acts {
            run(&project, act, Fault::None)?;
        }
        run(&project, &Act::Cast(spell, None), Fault::Fail(at))?;
    }

    #[test]
    fn after_a_crash_between_effects_the_next_accio_recovers(
        acts in prop::collection::vec(act(), 0..20),
        spell in spell(),
        at in 0usize..8,
    ) {
        let project = Project::new();
        for act in &acts {
            run(&project, act, Fault::None)?;
        }
        let before = files(&project);
        run(&project, &Act::Cast(spell, None), Fault::Crash(at))?;
        let recovered = project.try_cast(Spell::Accio, None, Fault::None);
        prop_assert!(recovered.is_ok(), "{:?}", recovered.err());
        valid_state(&project)?;
        nothing_lost(&before, &files(&project))?;
    }
}
