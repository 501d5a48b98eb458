// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Properties of the plan domain over generated documents: whatever parses
//! renders; valid documents render both views; no-op edits keep every byte;
//! adding a task and deleting it again gives back the original bytes; a
//! task or plan update applied at once equals its steps applied one by one.

use planning_mcp_server::api::plans::{
    NewTask, PlanChanges, Status, TaskChanges, View, add_task_with_id, delete, encode_body,
    first_error, one_by_one, parse, plan_detail, plan_one_by_one, rename, set_plan_body,
    set_status, set_task_body, split_content_lines, update_plan, update_task, validate,
};
use proptest::prelude::*;

const H: &str = "<!-- long-term-plan:format=v1 -->";

/// One line of a plan; `{id}` is replaced by a unique id. With `invalid`,
/// some lines break the format.
fn line(invalid: u32) -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "alpha",
        "Beta",
        "gamma δ",
        "x",
        "ÄÖ",
        "a-b",
        "1",
        "twenty words",
    ]);
    let indent = prop::sample::select(vec!["", " ", "  ", "   ", "    ", "      ", "\t"]);
    let symbol = prop::sample::select(vec![" ", "*", "√"]);
    prop_oneof![
        3 => (indent.clone(), symbol, word.clone())
            .prop_map(|(i, s, w)| format!("{i}- [{s}] {w} <!-- long-term-plan:id={{id}} -->")),
        1 => Just(String::new()),
        1 => (1usize..4, word.clone()).prop_map(|(n, w)| format!("{} {w}", "#".repeat(n))),
        1 => (indent.clone(), word.clone()).prop_map(|(i, w)| format!("{i}  > {w}")),
        1 => (indent, word).prop_map(|(i, w)| format!("{i}{w}")),
        invalid => Just("- [x] not valid".to_owned()),
        invalid => Just("- [ ] dup <!-- long-term-plan:id=dup -->".to_owned()),
        invalid => Just("- [*] bad <!-- long-term-plan:id=_bad -->".to_owned()),
        invalid => Just("- [ ]  <!-- long-term-plan:id=empty -->".to_owned()),
    ]
}

/// A document: header, title, generated lines; LF or CRLF; final EOL or not.
fn document() -> impl Strategy<Value = (String, bool)> {
    documents(1, any::<bool>().boxed())
}

/// A document without broken lines that ends with its EOL.
fn valid_document() -> impl Strategy<Value = (String, bool)> {
    documents(0, Just(true).boxed())
}

fn documents(
    invalid: u32,
    final_eol: BoxedStrategy<bool>,
) -> impl Strategy<Value = (String, bool)> {
    (
        prop::collection::vec(line(invalid), 0..40),
        any::<bool>(),
        final_eol,
    )
        .prop_map(|(lines, crlf, final_eol)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut all = vec![
                H.to_owned(),
                String::new(),
                "# Plan".to_owned(),
                String::new(),
            ];
            for (n, l) in lines.into_iter().enumerate() {
                all.push(l.replace("{id}", &format!("t_{n}")));
            }
            let mut text = all.join(eol);
            if final_eol {
                text.push_str(eol);
            }
            (text, final_eol)
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn valid_documents_parse_and_render((text, _) in document()) {
        let parsed = parse(&text);
        let valid = validate(&text).errors.is_empty();
        if valid {
            let plan = parsed.plan.expect("a valid document parses");
            for v in [View::Tree, View::Flat] {
                let detail = plan_detail("p", plan.clone(), v, true, true);
                prop_assert!(serde_json::to_string(&detail).is_ok());
            }
        }
    }

    #[test]
    fn the_first_error_is_the_validators((text, _) in document()) {
        prop_assert_eq!(first_error(&text), validate(&text).errors.into_iter().next());
    }

    #[test]
    fn no_op_edits_keep_every_byte((text, _) in documents(0, any::<bool>().boxed())) {
        let lines = split_content_lines(&text);
        prop_assume!(validate(&text).errors.is_empty());
        let plan = parse(&text).plan.unwrap();
        for task in plan.tasks.iter().take(5) {
            let same = rename(&text, &task.id, &task.title).unwrap();
            prop_assert!(!same.changed);
            prop_assert_eq!(&same.text, &text);
            if task.body.is_none() {
                let cleared = set_task_body(&text, &task.id, None).unwrap();
                prop_assert_eq!(&cleared.text, &text);
            }
            // There and back again.
            let other = if task.status == Status::Done { Status::Todo } else { Status::Done };
            let there = set_status(&text, &task.id, other).unwrap();
            let back = set_status(&there.text, &task.id, task.status).unwrap();
            prop_assert_eq!(&back.text, &text);
        }
        // Setting the body it has is a no-op when it is written canonically.
        if let Some(body) = plan.body.as_ref().filter(|b| {
            encode_body(&b.markdown, 0) == lines[b.start_line..=b.end_line]
        }) {
            let same = set_plan_body(&text, Some(&body.markdown)).unwrap();
            prop_assert_eq!(&same.text, &text);
        }
    }

    #[test]
    fn add_then_delete_gives_back_the_bytes((text, _) in valid_document(), pick in 0usize..40, how in 0usize..4) {
        prop_assume!(validate(&text).errors.is_empty());
        let plan = parse(&text).plan.unwrap();
        let anchor = plan.tasks.get(pick % plan.tasks.len().max(1)).map(|t| t.id.clone());
        let section: Option<Vec<String>> = plan.headings.iter().find(|h| h.level >= 2).map(|h| h.path.iter().map(|s| s.to_string()).collect());
        let mut new = NewTask { title: "Added task", body: Some("with\nbody"), ..NewTask::default() };
        match how {
            1 => new.parent_task_id = anchor.as_deref(),
            2 => new.before_task_id = anchor.as_deref(),
            3 => new.section_path = section.as_deref(),
            _ => {}
        }
        let added = add_task_with_id(&text, &new, "t_added").unwrap();
        prop_assert!(validate(&added.text).errors.is_empty());
        let deleted = delete(&added.text, "t_added").unwrap();
        prop_assert_eq!(&deleted.text, &text);
    }

    #[test]
    fn one_update_equals_the_steps(
        (text, _) in prop_oneof![document(), valid_document()],
        mixed_eol in any::<bool>(),
        pick in 0usize..45,
        status in prop::option::of(prop::sample::select(vec![Status::Todo, Status::Doing, Status::Done])),
        title in prop::option::of(prop::sample::select(vec![
            "New title", "alpha", "  spaced\r\nout ", "", " ", "a <!-- b", "c --> d", "line\u{2028}sep", "cr\ronly", "√ [*]",
        ])),
        new_body in prop::option::of(prop::option::of(prop::sample::select(vec![
            "", "one", "two\nlines", "crlf\r\nbody\r", "- [ ] looks like a task <!-- long-term-plan:id=x -->", "> quoted",
        ]))),
    ) {
        // Some LF documents get one CRLF: every edit then re-joins with CRLF.
        let text = if mixed_eol && !text.contains("\r\n") { text.replacen('\n', "\r\n", 1) } else { text };
        // Mostly a task of the document (any of its task lines, whichever the
        // parser makes of it), sometimes an odd or missing id.
        let ids = ["dup", "_bad", "empty", "missing"];
        let task_lines: Vec<String> = text
            .lines()
            .filter_map(|l| l.split("id=").nth(1))
            .map(|rest| rest.trim_end_matches(['>', '-', ' ', '\r']).to_owned())
            .collect();
        let task_id = match (pick, task_lines.len()) {
            (0..=3, _) | (_, 0) => ids[pick % 4].to_owned(),
            (n, len) => task_lines[n % len].clone(),
        };
        let changes = TaskChanges { status, title, body: new_body };
        let fast = update_task(&text, &task_id, &changes);
        let slow = one_by_one(&text, &task_id, &changes);
        prop_assert_eq!(fast.map_err(|e| e.0), slow.map_err(|e| e.0));
    }

    #[test]
    fn one_plan_update_equals_the_steps(
        (text, _) in prop_oneof![document(), valid_document()],
        h1 in prop::sample::select(vec!["# Plan", "# ", "#\tTabbed", "#", "## Not the title"]),
        plan_body in any::<bool>(),
        title in prop::option::of(prop::sample::select(vec!["Renamed", "Plan", " ", "line\u{2028}sep", "a\nb"])),
        new_body in prop::option::of(prop::option::of(prop::sample::select(vec!["", "why", "two\r\nlines"]))),
    ) {
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let body = if plan_body { format!("{eol}> plan body{eol}>{eol}> more") } else { String::new() };
        let text = text.replacen("# Plan", &format!("{h1}{body}"), 1);
        let changes = PlanChanges { title, body: new_body };
        let fast = update_plan(&text, &changes);
        let slow = plan_one_by_one(&text, &changes);
        prop_assert_eq!(fast.map_err(|e| e.0), slow.map_err(|e| e.0));
    }
}
