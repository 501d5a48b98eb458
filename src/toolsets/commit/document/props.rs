// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Properties of the document: `read(format(d)) == d` for every valid
//! document, hence `format(read(t)) == t` for every canonical text; the
//! reader and the migration never panic; whatever the reader accepts or the
//! migration writes formats to a text that reads back the same.

use proptest::prelude::*;

use super::format::format;
use super::migrate::migrate;
use super::tasks::derive_boxes;
use super::{
    CommitType, Constraint, Document, Header, Limits, Prefix, Reading, Task, grammar, read,
};

/// One-line text: no control characters, no surrounding whitespace.
pub(crate) fn one_line() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 :()\\[\\]~!#`é漢\u{a0}-]{1,24}"
        .prop_map(|s| s.trim().to_owned())
        .prop_filter("not empty", |s| !s.is_empty())
}

fn header() -> impl Strategy<Value = Header> {
    (
        prop::sample::select(CommitType::ALL.to_vec()),
        prop::option::of("[a-z][a-z0-9-]{0,8}"),
        any::<bool>(),
        one_line(),
    )
        .prop_map(|(kind, scope, breaking, title)| Header {
            kind,
            scope,
            breaking,
            title,
        })
}

/// A description: lines that are no structure lines, no trailing spaces or
/// tabs, blank lines only single and inside.
fn description() -> impl Strategy<Value = Option<String>> {
    prop::collection::vec("[a-zA-Z0-9 \t:()\\[\\]~!#*>-]{0,30}", 0..8).prop_map(|lines| {
        let mut kept: Vec<String> = Vec::new();
        for line in lines {
            let line = line.trim_end_matches([' ', '\t']).to_owned();
            let blank_run = line.is_empty() && kept.last().is_none_or(|l| l.is_empty());
            if !blank_run && grammar::structure(&line).is_none() {
                kept.push(line);
            }
        }
        while kept.last().is_some_and(|l| l.is_empty()) {
            kept.pop();
        }
        (!kept.is_empty()).then(|| kept.join("\n"))
    })
}

fn constraint() -> impl Strategy<Value = Constraint> {
    (prop::sample::select(Prefix::ALL.to_vec()), one_line())
        .prop_map(|(prefix, text)| Constraint { prefix, text })
}

fn task_tree(depth: u32) -> impl Strategy<Value = Vec<Task>> {
    let leaf = (one_line(), any::<bool>()).prop_map(|(text, done)| Task {
        text,
        done,
        subtasks: Vec::new(),
    });
    let tree = leaf.prop_recursive(depth, 24, 4, |inner| {
        (
            one_line(),
            any::<bool>(),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(text, done, subtasks)| Task {
                text,
                done,
                subtasks,
            })
    });
    prop::collection::vec(tree, 0..5)
}

/// Any valid document under the default limits, parent boxes derived.
pub(crate) fn document() -> impl Strategy<Value = Document> {
    (
        header(),
        description(),
        prop::collection::vec(constraint(), 0..4),
        task_tree(3),
        any::<bool>(),
    )
        .prop_map(|(header, description, constraints, mut tasks, finish)| {
            derive_boxes(&mut tasks);
            let all_done = tasks.iter().all(|t| t.done);
            Document {
                header,
                description,
                constraints,
                complete: finish && all_done && !tasks.is_empty(),
                tasks,
            }
        })
}

/// Text that looks like a plan often enough to reach every branch.
fn plan_like() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec![
        "",
        " ",
        "\t",
        "\r",
        "feat: a",
        "feat(x)!: b",
        "Fix: c",
        "notes",
        "- [ ]: t",
        "- [x]: u",
        "  - [X]: v",
        "    - [ ]: w",
        "   - [ ]: odd",
        "- [ ] old",
        "  - [x] old child",
        "- Do not: d",
        "- Never:",
        "- Must not:x",
        "~~~ EXECUTE ~~~",
        "~~~ COMPLETE ~~~",
        "~~~ HALT ~~~",
        "Constraints:",
        "Constraints: none",
        "Tasks [ ]:",
        "Tasks [x]:",
        "\u{1b}",
        "- [ ]: \t",
        "feat:  two",
        "fix(A B): c",
    ]);
    prop::collection::vec(line, 0..16).prop_map(|lines| lines.join("\n"))
}

fn small_limits() -> Limits {
    Limits {
        max_title_length: 10,
        max_depth: 2,
        max_tasks: 4,
        max_item_length: 10,
        max_input_bytes: 1024,
    }
}

/// What the reader accepts formats to a text that reads back the same.
fn accepted_text_is_stable(text: &str, limits: &Limits) {
    if let Reading::Parsed(document) = read(text, limits) {
        let canonical = format(&document);
        assert_eq!(read(&canonical, limits), Reading::Parsed(document));
    }
}

/// Whatever the migration writes is canonical and a plan.
fn migration_is_canonical(text: &str, limits: &Limits) {
    let goal = Header {
        kind: CommitType::Fix,
        scope: None,
        breaking: false,
        title: "g".into(),
    };
    for goal in [None, Some(&goal)] {
        if let Ok(migrated) = migrate(text, goal, limits) {
            let Reading::Parsed(document) = read(&migrated, limits) else {
                panic!("the migration of {text:?} wrote {migrated:?}, not a plan");
            };
            assert_eq!(format(&document), migrated);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn read_of_format_is_the_document(document in document()) {
        let text = format(&document);
        prop_assert_eq!(read(&text, &Limits::default()), Reading::Parsed(document));
    }

    #[test]
    fn format_of_read_is_the_canonical_text(document in document()) {
        let canonical = format(&document);
        let Reading::Parsed(again) = read(&canonical, &Limits::default()) else {
            panic!("canonical text not read: {canonical:?}");
        };
        prop_assert_eq!(format(&again), canonical);
    }

    #[test]
    fn the_reader_and_the_migration_never_panic_on_any_text(text in any::<String>()) {
        accepted_text_is_stable(&text, &Limits::default());
        migration_is_canonical(&text, &Limits::default());
    }

    #[test]
    fn near_plans_read_stably_and_migrate_to_plans(text in plan_like()) {
        for limits in [Limits::default(), small_limits()] {
            accepted_text_is_stable(&text, &limits);
            migration_is_canonical(&text, &limits);
        }
    }
}
