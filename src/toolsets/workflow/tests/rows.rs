// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Every row of the transition table, walked from a prepared directory:
//! the next state, every file that changed (with its bytes) and that
//! nothing else did, the history entry, the reply's state and transition
//! lines, and the whole reply pinned by a golden file named after the case.

use super::fixtures::*;
use crate::toolsets::workflow::files::names::STATE;
use crate::toolsets::workflow::files::ordered_json::Json;
use crate::toolsets::workflow::files::templates::{PLAN, REVIEW_TASK as REVIEW_TEMPLATE, TASK};
use crate::toolsets::workflow::machine::context::Context;
use crate::toolsets::workflow::machine::spell::Spell::{self, *};
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::state_json::{Read, StateDoc, read};
use crate::toolsets::workflow::machine::table::TABLE;
use crate::toolsets::workflow::machine::transition::Kind;

/// How `state.json` is before the call.
#[derive(Clone)]
enum Before {
    /// Stored: this state, `pr_return_state`, `error_original_state`.
    Stored(&'static str, Option<&'static str>, Option<&'static str>),
    /// Missing.
    Missing,
    /// These bytes, unreadable.
    Corrupt(&'static str),
}

/// One expected change under D (besides `state.json`).
#[derive(Clone, Debug)]
enum Change {
    /// A new folder.
    Dir(&'static str),
    /// A new file, or a file with new bytes.
    File(&'static str, &'static str),
    /// A file that is gone (moved).
    Gone(&'static str),
}

#[derive(Clone)]
struct Case {
    name: &'static str,
    row: &'static str,
    before: Before,
    files: Vec<(&'static str, &'static str)>,
    spell: Spell,
    note: Option<&'static str>,
    to: &'static str,
    shown: Option<&'static str>,
    context: (Option<&'static str>, Option<&'static str>),
    changes: Vec<Change>,
}

fn case(row: &'static str, from: &'static str, spell: Spell, to: &'static str) -> Case {
    Case {
        name: row,
        row,
        before: Before::Stored(from, None, None),
        files: Vec::new(),
        spell,
        note: None,
        to,
        shown: None,
        context: (None, None),
        changes: Vec::new(),
    }
}

impl Case {
    fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }
    fn files(mut self, files: &[(&'static str, &'static str)]) -> Self {
        self.files = files.to_vec();
        self
    }
    fn before(mut self, before: Before) -> Self {
        self.before = before;
        self
    }
    fn with_context(mut self, pr: Option<&'static str>, error: Option<&'static str>) -> Self {
        if let Before::Stored(state, _, _) = self.before {
            self.before = Before::Stored(state, pr, error);
        }
        self
    }
    fn note(mut self, note: &'static str) -> Self {
        self.note = Some(note);
        self
    }
    fn shown(mut self, shown: &'static str) -> Self {
        self.shown = Some(shown);
        self
    }
    fn context(mut self, pr: Option<&'static str>, error: Option<&'static str>) -> Self {
        self.context = (pr, error);
        self
    }
    fn changes(mut self, changes: &[Change]) -> Self {
        self.changes = changes.to_vec();
        self
    }
}

const PLAN_MD: (&str, &str) = ("plan.md", PLAN_OPEN);
const TASK_MD: (&str, &str) = ("task.md", TASK_READY);
const COMMENTS_MD: (&str, &str) = ("comments.md", COMMENTS);
const REVIEW_TASK_MD: (&str, &str) = ("review-task.md", REVIEW_TASK);
const REVIEW_RESULTS_MD: (&str, &str) = ("review-task-results.md", REVIEW_RESULTS);

const TASK_DIR: &str = "tasks/task-implement-sum-2025-08-20-1130";
const REVIEW_DIR: &str = "pr-reviews/pr-review-2025-08-20-1130";

fn cases() -> Vec<Case> {
    use Change::*;
    const G_ED: &str = "GATHER_EDITING";
    const G_NP: &str = "GATHER_NEEDS_PLAN";
    const A_DR: &str = "ACHIEVE_TASK_DRAFTING";
    const A_EX: &str = "ACHIEVE_TASK_EXECUTED";
    const A_CO: &str = "ACHIEVE_COMPLETE";
    const P_GC: &str = "PR_GATHERING_COMMENTS";
    const P_TD: &str = "PR_REVIEW_TASK_DRAFT";
    const P_AP: &str = "PR_APPLIED_PENDING_ARCHIVE";
    const P_CC: &str = "PR_CONFIRM_RESTART_COMMENTS";
    const P_CT: &str = "PR_CONFIRM_RESTART_TASK";
    const E_TM: &str = "ERROR_TASK_MISSING";
    const E_RM: &str = "ERROR_TASK_RESULTS_MISSING";
    const E_PM: &str = "ERROR_PLAN_MISSING";
    const E_CM: &str = "ERROR_COMMENTS_MISSING";
    const E_RT: &str = "ERROR_REVIEW_TASK_MISSING";
    let task_archive = [
        Dir("tasks"),
        Dir(TASK_DIR),
        File(
            "tasks/task-implement-sum-2025-08-20-1130/task.md",
            TASK_READY,
        ),
        File(
            "tasks/task-implement-sum-2025-08-20-1130/task-results.md",
            RESULTS_ONE,
        ),
        Gone("task-results.md"),
    ];
    let task_archive_all = [
        Dir("tasks"),
        Dir(TASK_DIR),
        File(
            "tasks/task-implement-sum-2025-08-20-1130/task.md",
            TASK_READY,
        ),
        File(
            "tasks/task-implement-sum-2025-08-20-1130/task-results.md",
            RESULTS_ALL,
        ),
        Gone("task-results.md"),
        Gone("task.md"),
        File("plan.md", PLAN_DONE),
    ];
    let mut a2 = task_archive.to_vec();
    a2.extend([File("plan.md", PLAN_FIRST), File("task.md", TASK)]);
    let review_archive = [
        Dir("pr-reviews"),
        Dir(REVIEW_DIR),
        File("pr-reviews/pr-review-2025-08-20-1130/comments.md", COMMENTS),
        File(
            "pr-reviews/pr-review-2025-08-20-1130/review-task.md",
            REVIEW_TASK,
        ),
        File(
            "pr-reviews/pr-review-2025-08-20-1130/review-task-results.md",
            REVIEW_RESULTS,
        ),
        Gone("comments.md"),
        Gone("review-task.md"),
        Gone("review-task-results.md"),
    ];
    let mut p4 = review_archive.to_vec();
    p4.push(File("task.md", TASK));
    let review_files = [PLAN_MD, COMMENTS_MD, REVIEW_TASK_MD, REVIEW_RESULTS_MD];
    vec![
        // Gather
        case("G1", G_NP, Accio, G_ED).changes(&[File("plan.md", PLAN)]),
        case("G1b", G_NP, Accio, G_ED)
            .files(&[PLAN_MD])
            .shown("GATHER_READY"),
        case("G2b", G_ED, Accio, E_PM).context(None, Some(G_ED)),
        case("G3", G_ED, Accio, G_ED).files(&[("plan.md", PLAN)]),
        case("G3", G_ED, Accio, G_ED)
            .named("G3-all-ticked")
            .files(&[("plan.md", PLAN_DONE)]),
        case("G4", G_ED, Accio, A_DR).files(&[PLAN_MD, TASK_MD]),
        case("G2", G_ED, Accio, A_DR)
            .files(&[PLAN_MD])
            .changes(&[File("task.md", TASK)]),
        case("X0", G_NP, Expecto, G_NP),
        case("X1b", G_ED, Expecto, E_PM).context(None, Some(G_ED)),
        case("X2", G_ED, Expecto, G_ED)
            .files(&[PLAN_MD])
            .shown("GATHER_READY")
            .changes(&[Dir("atlassian"), File("atlassian/refs", "")]),
        case("X1", G_ED, Expecto, G_ED)
            .files(&[("plan.md", PLAN_LINKS), ("atlassian/refs", REFS_ONE)])
            .shown("GATHER_READY"),
        case("X3", A_DR, Expecto, A_DR).files(&[PLAN_MD, TASK_MD]),
        case("X3", A_EX, Expecto, A_EX)
            .named("X3-finite-blocked")
            .files(&[PLAN_MD]),
        case("F0", G_ED, Finite, G_ED)
            .files(&[PLAN_MD])
            .shown("GATHER_READY"),
        case("F0", G_NP, Finite, G_NP).named("F0-no-plan"),
        // Achieve
        case("A1c", A_DR, Accio, E_PM)
            .files(&[TASK_MD])
            .context(None, Some(A_DR)),
        case("A3", A_DR, Accio, A_CO).files(&[("plan.md", PLAN_DONE), TASK_MD]),
        case("A1b", A_DR, Accio, E_TM)
            .files(&[PLAN_MD])
            .context(None, Some(A_DR)),
        case("A1t", A_DR, Accio, A_DR).files(&[PLAN_MD, ("task.md", TASK)]),
        case("A1t", A_DR, Accio, A_DR)
            .named("A1t-no-name")
            .files(&[PLAN_MD, ("task.md", TASK_UNNAMED)]),
        case("A1", A_DR, Accio, A_EX).files(&[PLAN_MD, TASK_MD]),
        case("A2c", A_EX, Accio, E_PM)
            .files(&[TASK_MD])
            .context(None, Some(A_EX)),
        case("A2b", A_EX, Accio, E_RM)
            .files(&[PLAN_MD, TASK_MD])
            .context(None, Some(A_EX)),
        case("A2", A_EX, Accio, A_DR)
            .files(&[PLAN_MD, TASK_MD, ("task-results.md", RESULTS_ONE)])
            .changes(&a2),
        case("A2d", A_EX, Accio, A_CO)
            .files(&[PLAN_MD, TASK_MD, ("task-results.md", RESULTS_ALL)])
            .changes(&task_archive_all),
        case("A4c", A_CO, Accio, E_PM).context(None, Some(A_CO)),
        case("A4", A_CO, Accio, A_DR)
            .files(&[PLAN_MD])
            .changes(&[File("task.md", TASK)]),
        case("A4", A_CO, Accio, A_DR)
            .named("A4-task-kept")
            .files(&[PLAN_MD, TASK_MD]),
        case("A4n", A_CO, Accio, A_CO).files(&[("plan.md", PLAN_DONE)]),
        case("A6", A_EX, Finite, A_EX).files(&[PLAN_MD, TASK_MD]),
        case("F1", A_DR, Finite, G_ED)
            .files(&[PLAN_MD, TASK_MD])
            .shown("GATHER_READY"),
        case("F1", E_RM, Finite, G_NP)
            .named("F1-no-plan")
            .with_context(None, Some(A_EX)),
        // docs/workflow.md: a new piece of work after ACHIEVE_COMPLETE, the
        // finished plan moved out of the directory.
        case("F1", A_CO, Finite, G_NP).named("F1-complete-plan-moved-away"),
        case("F1", P_GC, Finite, G_ED)
            .named("F1-review-paused")
            .files(&[PLAN_MD, COMMENTS_MD])
            .with_context(Some(A_CO), None)
            .shown("GATHER_READY"),
        case("F2", P_AP, Finite, P_AP).with_context(Some(G_ED), None),
        case("F2", E_PM, Finite, E_PM)
            .named("F2-plan-missing")
            .with_context(None, Some(G_ED)),
        case("F2", E_RT, Finite, E_RT)
            .named("F2-review-task-missing")
            .with_context(Some(G_ED), Some(P_TD)),
        // PR review
        case("S0", A_EX, Reparo, A_EX).files(&[PLAN_MD]),
        case("S0", E_CM, Reparo, E_CM)
            .named("S0-error")
            .with_context(Some(G_ED), Some(P_GC)),
        case("S1", A_DR, Reparo, P_GC)
            .files(&[PLAN_MD, TASK_MD])
            .note("please review https://github.com/acme/app/pull/7 today")
            .context(Some(A_DR), None)
            .changes(&[File("comments.md", "")]),
        case("S1", G_NP, Reparo, P_GC)
            .named("S1-no-note")
            .context(Some(G_NP), None)
            .changes(&[File("comments.md", "")]),
        case("S2", G_ED, Reparo, P_CC)
            .files(&[PLAN_MD, COMMENTS_MD])
            .context(Some(G_ED), None),
        case("S3", A_CO, Reparo, P_CT)
            .files(&[PLAN_MD, REVIEW_TASK_MD])
            .context(Some(A_CO), None),
        case("S4", P_GC, Reparo, P_CC)
            .files(&[COMMENTS_MD])
            .with_context(Some(A_DR), None)
            .context(Some(A_DR), None),
        case("S5", P_GC, Reparo, P_GC)
            .with_context(Some(A_DR), None)
            .context(Some(A_DR), None)
            .changes(&[File("comments.md", "")]),
        case("S6", P_TD, Reparo, P_CT)
            .files(&[COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("P1b", P_GC, Accio, E_CM)
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), Some(P_GC)),
        case("P1e", P_GC, Accio, P_GC)
            .files(&[("comments.md", " \n\t\n")])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("P1", P_GC, Accio, P_TD)
            .files(&[COMMENTS_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None)
            .changes(&[File("review-task.md", REVIEW_TEMPLATE)]),
        case("P2b", P_TD, Accio, E_RT)
            .files(&[COMMENTS_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), Some(P_TD)),
        case("P2t", P_TD, Accio, P_TD)
            .files(&[COMMENTS_MD, ("review-task.md", REVIEW_TEMPLATE)])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("P2", P_TD, Accio, P_AP)
            .files(&[COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("P3r", P_AP, Accio, P_AP)
            .files(&[COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("P3", P_AP, Accio, G_ED)
            .files(&review_files)
            .with_context(Some(G_ED), None)
            .shown("GATHER_READY")
            .changes(&review_archive),
        case("P4", P_AP, Accio, A_DR)
            .files(&review_files)
            .with_context(Some(A_DR), None)
            .changes(&p4),
        case("C1", P_CC, Reparo, P_GC)
            .files(&[COMMENTS_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None)
            .changes(&[
                Dir("pr-reviews"),
                Dir("pr-reviews/pr-review-2025-08-20-1130-discarded"),
                File(
                    "pr-reviews/pr-review-2025-08-20-1130-discarded/comments.md",
                    COMMENTS,
                ),
                File("comments.md", ""),
            ]),
        case("C2", P_CC, Accio, P_GC)
            .files(&[COMMENTS_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("C3", P_CT, Reparo, P_GC)
            .files(&[COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(A_CO), None)
            .context(Some(A_CO), None)
            .changes(&[
                Dir("pr-reviews"),
                Dir("pr-reviews/pr-review-2025-08-20-1130-discarded"),
                File(
                    "pr-reviews/pr-review-2025-08-20-1130-discarded/comments.md",
                    COMMENTS,
                ),
                File(
                    "pr-reviews/pr-review-2025-08-20-1130-discarded/review-task.md",
                    REVIEW_TASK,
                ),
                Gone("review-task.md"),
                File("comments.md", ""),
            ]),
        case("C4", P_CT, Accio, P_TD)
            .files(&[COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(G_ED), None)
            .context(Some(G_ED), None),
        case("V1", P_GC, Reverto, G_ED)
            .files(&[PLAN_MD, COMMENTS_MD])
            .with_context(Some(G_ED), None)
            .shown("GATHER_READY"),
        case("V2", P_TD, Reverto, A_DR)
            .files(&[PLAN_MD, COMMENTS_MD, REVIEW_TASK_MD])
            .with_context(Some(A_DR), None)
            .changes(&[File("task.md", TASK)]),
        case("V3", P_CC, Reverto, A_CO)
            .files(&[("plan.md", PLAN_DONE), COMMENTS_MD])
            .with_context(Some(A_CO), None),
        case("V4", P_CT, Reverto, G_NP)
            .files(&[REVIEW_TASK_MD])
            .with_context(Some(G_ED), None),
        case("V5", P_AP, Reverto, P_AP).with_context(Some(G_ED), None),
        case("V0", G_ED, Reverto, G_ED)
            .files(&[PLAN_MD])
            .shown("GATHER_READY"),
        case("V0", E_TM, Reverto, E_TM)
            .named("V0-error")
            .files(&[PLAN_MD])
            .with_context(None, Some(A_DR)),
        // Recovery
        case("E1c", E_TM, Accio, E_PM)
            .with_context(None, Some(A_DR))
            .context(None, Some(A_DR)),
        case("E1d", E_TM, Accio, A_CO)
            .files(&[("plan.md", PLAN_DONE)])
            .with_context(None, Some(A_DR)),
        case("E1r", E_TM, Accio, A_DR)
            .files(&[PLAN_MD, TASK_MD])
            .with_context(None, Some(A_DR)),
        case("E1", E_TM, Accio, A_DR)
            .files(&[PLAN_MD])
            .with_context(None, Some(A_DR))
            .changes(&[File("task.md", TASK)]),
        case("E2c", E_RM, Accio, E_PM)
            .files(&[TASK_MD])
            .with_context(None, Some(A_EX))
            .context(None, Some(A_EX)),
        case("E2", E_RM, Accio, A_DR)
            .files(&[PLAN_MD, TASK_MD, ("task-results.md", RESULTS_ONE)])
            .with_context(None, Some(A_EX))
            .changes(&a2),
        case("E2d", E_RM, Accio, A_CO)
            .files(&[PLAN_MD, TASK_MD, ("task-results.md", RESULTS_ALL)])
            .with_context(None, Some(A_EX))
            .changes(&task_archive_all),
        case("E3", E_RM, Accio, A_DR)
            .files(&[PLAN_MD, TASK_MD])
            .with_context(None, Some(A_EX))
            .changes(&[
                Dir("tasks"),
                Dir("tasks/incomplete-task-implement-sum-2025-08-20-1130"),
                File(
                    "tasks/incomplete-task-implement-sum-2025-08-20-1130/task.md",
                    TASK_READY,
                ),
                File("task.md", TASK),
            ]),
        case("E3", E_RM, Accio, A_DR)
            .named("E3-no-task")
            .files(&[PLAN_MD])
            .with_context(None, Some(A_EX))
            .changes(&[File("task.md", TASK)]),
        case("E3d", E_RM, Accio, A_CO)
            .files(&[("plan.md", PLAN_DONE), TASK_MD])
            .with_context(None, Some(A_EX))
            .changes(&[
                Dir("tasks"),
                Dir("tasks/incomplete-task-implement-sum-2025-08-20-1130"),
                File(
                    "tasks/incomplete-task-implement-sum-2025-08-20-1130/task.md",
                    TASK_READY,
                ),
                Gone("task.md"),
            ]),
        case("E4r", E_PM, Accio, A_EX)
            .files(&[PLAN_MD, TASK_MD])
            .with_context(None, Some(A_EX)),
        case("E4", E_PM, Accio, G_ED)
            .files(&[TASK_MD])
            .with_context(None, Some(G_ED))
            .changes(&[File("plan.md", PLAN)]),
        case("E5", E_CM, Accio, P_GC)
            .with_context(Some(G_ED), Some(P_GC))
            .context(Some(G_ED), None)
            .changes(&[File("comments.md", "")]),
        case("E6", E_RT, Accio, P_TD)
            .files(&[COMMENTS_MD])
            .with_context(Some(A_DR), Some(P_TD))
            .context(Some(A_DR), None)
            .changes(&[File("review-task.md", REVIEW_TEMPLATE)]),
        case("E7", E_RT, Accio, E_CM)
            .with_context(Some(A_DR), Some(P_TD))
            .context(Some(A_DR), Some(P_TD)),
        // Lumos
        case("L1", G_ED, Lumos, G_ED)
            .files(&[PLAN_MD])
            .shown("GATHER_READY"),
        case("L1", A_CO, Lumos, A_CO).named("L1-plan-missing"),
        case("L1", A_DR, Lumos, A_DR)
            .named("L1-inferred")
            .before(Before::Missing)
            .files(&[PLAN_MD, TASK_MD]),
        case("L1", P_GC, Lumos, P_GC)
            .named("L1-corrupt")
            .before(Before::Corrupt("{\"current_state\": \"NOPE\"}"))
            .files(&[COMMENTS_MD]),
        // K1, and a spell from an inferred state
        case("K1", G_ED, Reparo, G_ED)
            .named("K1")
            .before(Before::Corrupt("not json"))
            .files(&[PLAN_MD])
            .shown("GATHER_READY")
            .changes(&[File("state.json.corrupt-2025-08-20-113000", "not json")]),
        case("A1", A_DR, Accio, A_EX)
            .named("A1-inferred")
            .before(Before::Missing)
            .files(&[PLAN_MD, TASK_MD]),
    ]
}

/// Prepares the case's directory.
fn prepare(case: &Case) -> Project {
    let project = Project::new();
    for (rel, content) in &case.files {
        project.write(rel, content);
    }
    match &case.before {
        Before::Stored(name, pr, error) => {
            let state = |name: &str| State::parse(name).unwrap();
            let context = Context {
                pr_return_state: pr.map(state),
                error_original_state: error.map(state),
            };
            let doc = StateDoc::new(state(name), context);
            project.write(STATE, &doc.render());
        }
        Before::Missing => {}
        Before::Corrupt(text) => project.write(STATE, text),
    }
    project
}

/// The tree after `changes` are applied to `before` (besides `state.json`).
fn expected(before: &Tree, changes: &[Change]) -> Tree {
    let mut tree = before.clone();
    for change in changes {
        match change {
            Change::Dir(rel) => tree.insert((*rel).to_owned(), Node::Dir),
            Change::File(rel, content) => {
                tree.insert((*rel).to_owned(), Node::File(content.as_bytes().to_vec()))
            }
            Change::Gone(rel) => tree.remove(*rel),
        };
    }
    tree
}

fn without_state(mut tree: Tree) -> Tree {
    tree.remove(STATE);
    tree
}

fn history(json: &str) -> Vec<Json> {
    let value: Json = serde_json::from_str(json).unwrap();
    let Json::Object(top) = value else {
        panic!("object")
    };
    match top.into_iter().find(|(k, _)| k == "history") {
        Some((_, Json::Array(items))) => items,
        _ => Vec::new(),
    }
}

#[test]
fn every_row_of_the_table_does_what_the_spec_says() {
    let cases = cases();
    for row in TABLE {
        assert!(
            cases.iter().any(|c| c.row == row.id),
            "row {} has no case",
            row.id
        );
    }
    for case in &cases {
        let project = prepare(case);
        let before = project.tree();
        let state_before = before.get(STATE).cloned();
        let decision = project.cast(case.spell, case.note);
        let name = case.name;
        assert_eq!(decision.row, case.row, "{name}: the row");
        assert_eq!(decision.to.name(), case.to, "{name}: the next state");
        let after = project.tree();
        let mut wanted = expected(&before, &case.changes);
        if case.row == "K1" {
            wanted.remove(STATE);
        }
        assert_eq!(
            without_state(after.clone()),
            without_state(wanted),
            "{name}: the files under D"
        );
        let reply = &decision.reply;
        let lines: Vec<&str> = reply.lines().collect();
        let shown = case.shown.unwrap_or(case.to);
        assert_eq!(lines[0], format!("state: {shown}"), "{name}");
        match decision.kind {
            Kind::Blocked | Kind::Read => {
                let transition = match decision.kind {
                    Kind::Blocked => format!("transition: blocked ({})", case.row),
                    _ => "transition: none".to_owned(),
                };
                assert_eq!(lines[1], transition, "{name}");
                assert_eq!(
                    after.get(STATE),
                    state_before.as_ref(),
                    "{name}: state.json untouched"
                );
                assert_eq!(decision.entry, None);
            }
            Kind::Moved => {
                let from = match case.row {
                    "K1" => "CORRUPT".to_owned(),
                    _ => decision.from.name().to_owned(),
                };
                let transition = format!("{from} → {}", case.to);
                assert_eq!(
                    lines[1],
                    format!("transition: {} {transition}", case.row),
                    "{name}"
                );
                let Some(Node::File(bytes)) = after.get(STATE) else {
                    panic!("{name}: state.json written")
                };
                let text = String::from_utf8(bytes.clone()).unwrap();
                let Read::Doc(doc) = read(bytes) else {
                    panic!("{name}: a readable state.json")
                };
                assert_eq!(doc.render(), text, "{name}: key order and layout");
                assert_eq!(doc.state.name(), case.to, "{name}");
                let context = (
                    doc.context.pr_return_state.map(State::name),
                    doc.context.error_original_state.map(State::name),
                );
                assert_eq!(context, case.context, "{name}: the context");
                let entries = history(&text);
                let old = match &state_before {
                    Some(Node::File(old)) if case.row != "K1" => {
                        history(&String::from_utf8_lossy(old)).len()
                    }
                    _ => 0,
                };
                assert_eq!(entries.len(), old + 1, "{name}: one entry appended");
                let mut fields = vec![
                    (
                        "timestamp".to_owned(),
                        Json::String("2025-08-20T11:30:00Z".into()),
                    ),
                    ("trigger".to_owned(), Json::String(case.spell.name().into())),
                    ("rule".to_owned(), Json::String(case.row.into())),
                    ("transition".to_owned(), Json::String(transition)),
                ];
                if let Some(note) = case.note {
                    fields.push(("note".to_owned(), Json::String(note.into())));
                }
                assert_eq!(
                    entries.last(),
                    Some(&Json::Object(fields)),
                    "{name}: the entry"
                );
            }
        }
        insta::assert_snapshot!(name, reply);
    }
}

/// docs/workflow.md lists the rule IDs replies show: exactly the table's
/// rows and K1 (the corrupt `state.json`, decided before the table), so the
/// page cannot drift from the table again.
#[test]
fn the_rule_ids_in_the_docs_are_the_tables() {
    let docs = include_str!("../../../../docs/workflow.md");
    let table = docs
        .split_once("| where | rule IDs |")
        .map(|(_, rest)| rest)
        .expect("the rule ID table in docs/workflow.md");
    let mut documented: Vec<&str> = table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .flat_map(|line| line.rsplit('|').nth(1).unwrap_or("").split(','))
        .map(str::trim)
        .collect();
    documented.sort_unstable();
    let mut ids: Vec<&str> = TABLE.iter().map(|row| row.id).chain(["K1"]).collect();
    ids.sort_unstable();
    assert_eq!(documented, ids);
}
