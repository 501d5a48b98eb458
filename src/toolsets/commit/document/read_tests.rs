// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The reader: every tolerated deviation, every problem message, and the
//! round trip of the spec's example.

use super::*;
use crate::toolsets::commit::document::format::format;

const EXAMPLE: &str = "feat(mcp): implement the requirements-to-execution workflow

Replace the unmaintainable v1 server with a structured, testable v2.

Targets: the workflow engine and the state kept in the commit description.

- Do not: implement complex error recovery
- Never: add performance optimisations in this iteration

- [x]: Fix and stabilise the draft implementation
  - [x]: Repair syntax errors in format.ts
  - [x]: Fix return type inconsistencies
- [ ]: Complete the missing workflow implementation
  - [ ]: Add stage transition validation

~~~ EXECUTE ~~~
";

fn limits() -> Limits {
    Limits {
        max_title_length: 30,
        max_depth: 3,
        max_tasks: 5,
        max_item_length: 20,
        max_input_bytes: 1024,
    }
}

/// `state` or `state: line N: message`.
fn outcome(text: &str) -> String {
    let reading = read(text, &limits());
    match reading.problem() {
        Some(problem) => format!("{}: {problem}", reading.state()),
        None => reading.state().to_owned(),
    }
}

fn parsed(text: &str) -> Document {
    match read(text, &Limits::default()) {
        Reading::Parsed(document) => document,
        other => panic!("{text:?} is not a plan: {other:?}"),
    }
}

#[test]
fn the_spec_example_is_canonical() {
    let document = parsed(EXAMPLE);
    assert_eq!(
        document.header.to_string(),
        "feat(mcp): implement the requirements-to-execution workflow"
    );
    assert_eq!(
        document.description.as_deref(),
        Some(
            "Replace the unmaintainable v1 server with a structured, testable v2.\n\nTargets: the workflow engine and the state kept in the commit description."
        )
    );
    assert_eq!(document.constraints.len(), 2);
    assert_eq!(document.tasks.len(), 2);
    assert_eq!(document.tasks[0].subtasks.len(), 2);
    assert!(document.tasks[0].done);
    assert!(!document.complete);
    assert_eq!(format(&document), EXAMPLE);
}

#[test]
fn tolerated_deviations_read_as_the_canonical_text() {
    let canonical =
        "fix(api): a\n\nwhy\n\nmore\n\n- Never: b\n\n- [x]: c\n  - [x]: d\n\n~~~ EXECUTE ~~~\n";
    let variants = [
        // \r\n, trailing spaces and tabs.
        "fix(api): a \r\n\r\nwhy\t\r\n\r\nmore  \r\n\r\n- Never: b \r\n\r\n- [x]: c\r\n  - [x]: d\t\r\n\r\n~~~ EXECUTE ~~~\r\n",
        // Blank lines before and after, runs of blank lines, also after the header.
        "\n\n  \nfix(api): a\n\n\n\nwhy\n \n\t\nmore\n\n\n- Never: b\n\n\n- [x]: c\n  - [x]: d\n\n\n~~~ EXECUTE ~~~\n\n\n",
        // [X], no final newline.
        "fix(api): a\n\nwhy\n\nmore\n\n- Never: b\n\n- [X]: c\n  - [X]: d\n\n~~~ EXECUTE ~~~",
        // A parent box that disagrees with its subtasks is derived.
        "fix(api): a\n\nwhy\n\nmore\n\n- Never: b\n\n- [ ]: c\n  - [x]: d\n\n~~~ EXECUTE ~~~\n",
        // No direction: EXECUTE.
        "fix(api): a\n\nwhy\n\nmore\n\n- Never: b\n\n- [x]: c\n  - [x]: d\n",
    ];
    for text in variants {
        assert_eq!(format(&parsed(text)), canonical, "{text:?}");
    }
}

#[test]
fn sections_may_be_absent() {
    for text in [
        "feat: a\n",
        "feat: a\n\nwhy\n",
        "feat: a\n\n- Do not: b\n",
        "feat: a\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n",
        "feat: a\n\n- Do not: b\n\n- [x]: t\n\n~~~ COMPLETE ~~~\n",
        "feat(x)!: a\n\nwhy\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n",
        "feat: a\n\n- item\n- Note: x\n- [ ] item\n\tindented with a tab\n",
    ] {
        assert_eq!(format(&parsed(text)), text);
    }
}

#[test]
fn states() {
    assert_eq!(outcome(""), "empty");
    assert_eq!(outcome(" \n\t\n\r\n"), "empty");
    assert_eq!(outcome("feat: a"), "parsed");
    assert_eq!(
        outcome("Just some notes\n\n- [ ]: a task"),
        "unknown: line 1: the first line is not a header \"type(scope): title\"; the description is free text, not a plan"
    );
    assert_eq!(
        outcome("\n\nnotes"),
        "unknown: line 3: the first line is not a header \"type(scope): title\"; the description is free text, not a plan"
    );
}

#[test]
fn every_problem_names_its_line() {
    let long = "x".repeat(1025);
    let cases: Vec<(String, &str)> = vec![
        (
            long,
            "halted: line 1: the description is 1025 bytes; the limit is 1024",
        ),
        (
            "feat: a\n\nwhy\u{1b}[0m".into(),
            "halted: line 3: the control character U+001B is not allowed (only newline, and tab in description lines)",
        ),
        (
            "feat: a\r\r\n".into(),
            "halted: line 1: the control character U+000D is not allowed (only newline, and tab in description lines)",
        ),
        (
            "feat: a\u{0}".into(),
            "halted: line 1: the control character U+0000 is not allowed (only newline, and tab in description lines)",
        ),
        (
            "Feat: a".into(),
            "halted: line 1: the type \"Feat\" must be lowercase; the types are feat, fix, refactor, build, chore, docs, lint, ci, infra, spec",
        ),
        (
            "feature(x): a".into(),
            "halted: line 1: unknown type \"feature\"; the types are feat, fix, refactor, build, chore, docs, lint, ci, infra, spec",
        ),
        (
            "feat(Api): a".into(),
            "halted: line 1: the scope \"Api\" must be a lowercase word: a letter a-z, then letters, digits or hyphens",
        ),
        (
            "feat:a".into(),
            "halted: line 1: expected one space after the header's colon, then the title",
        ),
        (
            "feat: 1234567890123456789012345678901".into(),
            "halted: line 1: the title is 31 characters; the limit is 30",
        ),
        (
            "feat: a\nwhy".into(),
            "halted: line 2: expected an empty line after the header",
        ),
        (
            "feat: a\n\nwhy\n- [ ]: t".into(),
            "halted: line 4: expected an empty line before a task line; a section starts after an empty line",
        ),
        (
            "feat: a\n\nwhy\n- Do not: b".into(),
            "halted: line 4: expected an empty line before a constraint line; a section starts after an empty line",
        ),
        (
            "feat: a\n\n- Do not: b\nmore".into(),
            "halted: line 4: expected a constraint \"- Prefix: text\" with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden",
        ),
        (
            "feat: a\n\n- Do not: b\n- [ ]: t".into(),
            "halted: line 4: expected an empty line before a task line",
        ),
        (
            "feat: a\n\n- Do not: b\n\nmore".into(),
            "halted: line 5: text after the constraints; only an empty line and the tasks may follow",
        ),
        (
            "feat: a\n\n- Do not: b\n\n- Never: c".into(),
            "halted: line 5: the constraints must be one block without empty lines; this line starts a second one",
        ),
        (
            "feat: a\n\n- [ ]: t\n\n- Never: c".into(),
            "halted: line 5: constraints must come before the tasks",
        ),
        (
            "feat: a\n\n- [ ]: t\n- Never: c".into(),
            "halted: line 4: constraints must come before the tasks",
        ),
        (
            "feat: a\n\n- [ ]: t\n\n- [ ]: u".into(),
            "halted: line 5: the tasks must be one block without empty lines; this line starts a second one",
        ),
        (
            "feat: a\n\n- [ ]: t\n\nmore".into(),
            "halted: line 5: text after the tasks; only an empty line and the direction may follow",
        ),
        (
            "feat: a\n\n- [ ]: t\n~~~ EXECUTE ~~~".into(),
            "halted: line 4: expected an empty line before the direction line",
        ),
        (
            "feat: a\n\n- [ ]: t\nplain".into(),
            "halted: line 4: expected a task line \"- [ ]: text\" or \"- [x]: text\" (two spaces of indentation per level), not \"plain\"",
        ),
        (
            "feat: a\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n\nmore".into(),
            "halted: line 7: nothing may follow the direction line",
        ),
        (
            "feat: a\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n\n~~~ EXECUTE ~~~".into(),
            "halted: line 7: nothing may follow the direction line",
        ),
        (
            "feat: a\n\n- [ ]: t\n\n~~~ HALT ~~~".into(),
            "halted: line 5: unknown direction \"~~~ HALT ~~~\"; expected ~~~ EXECUTE ~~~ or ~~~ COMPLETE ~~~",
        ),
        (
            "feat: a\n\n~~~ EXECUTE ~~~".into(),
            "halted: line 3: a direction line without tasks; a direction follows the tasks",
        ),
        (
            "feat: a\n\n- Do not: b\n\n~~~ COMPLETE ~~~".into(),
            "halted: line 5: a direction line without tasks; a direction follows the tasks",
        ),
        (
            "feat: a\n\nwhy\n\nTasks [ ]:\n- [ ] t".into(),
            "halted: line 5: \"Tasks [ ]:\" is a heading of the old format; call verify_plan to migrate the description",
        ),
        (
            "feat: a\n\nConstraints: none".into(),
            "halted: line 3: \"Constraints: none\" is a heading of the old format; call verify_plan to migrate the description",
        ),
        (
            "feat: a\n\n  - [ ]: t".into(),
            "halted: line 3: the first task must not be indented",
        ),
        (
            "feat: a\n\n- [ ]: t\n    - [ ]: u".into(),
            "halted: line 4: the task is at level 3 under a task at level 1; a subtask is indented two spaces more than its parent",
        ),
        (
            "feat: a\n\n- [ ]: t\n - [ ]: u".into(),
            "halted: line 4: the task is indented by an odd number of spaces (1); indent by two spaces per level",
        ),
        (
            "feat: a\n\n- [ ]: t\n  - [ ]: u\n    - [ ]: v\n      - [ ]: w".into(),
            "halted: line 6: the task is at depth 4; the limit is 3",
        ),
        (
            "feat: a\n\n- [ ]: 1\n- [ ]: 2\n- [ ]: 3\n- [ ]: 4\n- [ ]: 5\n- [ ]: 6".into(),
            "halted: line 8: too many tasks; the limit is 5 (all levels counted)",
        ),
        (
            "feat: a\n\n- [ ]: 123456789012345678901".into(),
            "halted: line 3: the task's text is 21 characters; the limit is 20",
        ),
        (
            "feat: a\n\n- Avoid: 123456789012345678901".into(),
            "halted: line 3: the constraint's text is 21 characters; the limit is 20",
        ),
        (
            "feat: a\n\n- [ ]: t\tu".into(),
            "halted: line 3: the task's text contains a tab; a tab is allowed only in description lines",
        ),
        (
            "feat: a\n\n- [ ]: t\n  - [x]: u\n  - [ ]: w\n- [ ]: v\n\n~~~ COMPLETE ~~~".into(),
            "halted: line 8: marked COMPLETE but tasks 1.2, 2 are open",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(outcome(&text), expected, "{text:?}");
    }
}

#[test]
fn a_ticked_parent_with_all_subtasks_done_may_be_complete() {
    let text = "feat: a\n\n- [ ]: t\n  - [x]: u\n\n~~~ COMPLETE ~~~\n";
    let document = parsed(text);
    assert!(document.is_finished());
    assert!(document.tasks[0].done);
}
