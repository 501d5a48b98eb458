// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Fuzzes the plan parser, the validator, the views, repair and every edit
//! with arbitrary text: none may panic, and their results must agree; the
//! one-pass updates must equal the reference's steps.

#![no_main]

use libfuzzer_sys::fuzz_target;
use planning_mcp_server::api::plans::{
    Action, NewTask, PlanChanges, Stats, Status, TaskChanges, View, add_task_with_id, delete,
    one_by_one, parse, plan_detail, plan_one_by_one, rename, repair_with, search, set_plan_body,
    set_plan_title, set_status, set_task_body, update_plan, update_task, validate,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let parsed = parse(text);
    let validation = validate(text);
    // The validator includes the parser's errors.
    if validation.errors.is_empty() {
        assert!(parsed.plan.is_some());
    }
    let _ = Stats::of_text(text);
    let mut n = 0;
    let _ = repair_with(
        text,
        &[Action::AddFormatHeader, Action::AddMissingIds],
        || {
            n += 1;
            format!("t_fuzz{n}")
        },
    );
    let section = vec!["Fuzz".to_owned()];
    let _ = add_task_with_id(
        text,
        &NewTask {
            title: "new",
            section_path: Some(&section),
            ..NewTask::default()
        },
        "t_fuzz_new",
    );
    let _ = set_plan_body(text, Some("b\n"));
    let _ = set_plan_body(text, None);
    let _ = set_plan_title(text, "T");
    let plan_changes = PlanChanges {
        title: Some("T"),
        body: Some(Some("b\n")),
    };
    assert_eq!(
        update_plan(text, &plan_changes).map_err(|e| e.0),
        plan_one_by_one(text, &plan_changes).map_err(|e| e.0)
    );
    let Some(plan) = parsed.plan else {
        return;
    };
    for v in [View::Tree, View::Flat] {
        let detail = plan_detail("p", plan.clone(), v, true, true);
        let _ = serde_json::to_string(&detail);
    }
    let _ = search(&plan, "p", "a", None, 50.0);
    for task in plan.tasks.iter().take(3) {
        let id: &str = &task.id;
        let _ = set_status(text, id, Status::Done);
        let _ = rename(text, id, "renamed");
        let _ = set_task_body(text, id, Some("x\n> y"));
        let _ = set_task_body(text, id, None);
        for changes in [
            TaskChanges {
                status: Some(Status::Doing),
                title: Some("renamed"),
                body: Some(Some("x\n> y")),
            },
            TaskChanges {
                status: Some(Status::Done),
                title: None,
                body: Some(None),
            },
        ] {
            assert_eq!(
                update_task(text, id, &changes).map_err(|e| e.0),
                one_by_one(text, id, &changes).map_err(|e| e.0)
            );
        }
        let _ = add_task_with_id(
            text,
            &NewTask {
                title: "child",
                parent_task_id: Some(id),
                ..NewTask::default()
            },
            "t_fuzz_child",
        );
        let _ = add_task_with_id(
            text,
            &NewTask {
                title: "before",
                before_task_id: Some(id),
                ..NewTask::default()
            },
            "t_fuzz_before",
        );
        if let Ok(deleted) = delete(text, id) {
            assert!(deleted.text.len() <= text.len() + text.matches('\n').count());
        }
    }
});
