// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The lines every reply ends with: `Next:`, `Available:` and `Blocked:`.

use super::{Around, Place};
use crate::toolsets::commit::document::Document;
#[cfg(test)]
use crate::toolsets::commit::document::Reading;
use crate::toolsets::commit::document::stage::Stage;
use crate::toolsets::commit::document::tasks::open_leaves;

/// The nine tools, in the order replies list them.
pub(crate) const TOOLS: [&str; 9] = [
    "gather_requirements",
    "set_overarching_goal",
    "set_detailed_goal",
    "set_constraints",
    "set_plan",
    "mark_task",
    "finish_job",
    "unfinish_job",
    "verify_plan",
];

/// What the replies know of the plan: valid (maybe empty) or not.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Standing<'a> {
    /// An empty description (`None`) or a valid plan.
    Plan(Option<&'a Document>),
    /// Not a valid plan, with the letters of the choices that work
    /// (`A, B or C`).
    Invalid(&'a str),
}

impl<'a> Standing<'a> {
    /// The standing of a reading (tests).
    #[cfg(test)]
    pub(crate) fn of(reading: &'a Reading) -> Self {
        match reading {
            Reading::Empty => Standing::Plan(None),
            Reading::Parsed(document) => Standing::Plan(Some(document)),
            Reading::Unknown(_) | Reading::Halted(_) => Standing::Invalid("A, B or C"),
        }
    }
}

/// The `Next:` text.
pub(crate) fn next(standing: Standing<'_>, place: &Place, around: &Around) -> String {
    let document = match standing {
        Standing::Invalid(letters) => return format!("ask the user to choose {letters}."),
        Standing::Plan(document) => document,
    };
    match Stage::of(document) {
        Stage::Empty => "set the goal with set_overarching_goal (type, scope, title).".into(),
        Stage::Goal => "describe why, what and how with set_detailed_goal.".into(),
        Stage::Requirements => {
            "add constraints with set_constraints (optional), then the plan with set_plan.".into()
        }
        Stage::Constraints => "write the plan with set_plan.".into(),
        Stage::Plan => {
            let tasks = document.map(|d| d.tasks.as_slice()).unwrap_or_default();
            match open_leaves(tasks).first() {
                Some(task) => format!(
                    "work on task {} ({}), then mark it with mark_task.",
                    task.path, task.text
                ),
                None => "all tasks are done: call finish_job.".into(),
            }
        }
        Stage::Complete => place.complete_next(around),
    }
}

/// Why `tool` is blocked, or `None` when it is available.
fn blocked(tool: &str, standing: Standing<'_>) -> Option<String> {
    let Standing::Plan(document) = standing else {
        let open = ["gather_requirements", "verify_plan", "set_overarching_goal"];
        return (!open.contains(&tool)).then(|| "the description is not a valid plan".into());
    };
    let stage = Stage::of(document);
    let tasks = document.map(|d| d.tasks.as_slice()).unwrap_or_default();
    let no_goal = (stage == Stage::Empty).then(|| "no goal yet".to_owned());
    let no_tasks = tasks.is_empty().then(|| "no tasks yet".to_owned());
    let finished = (stage == Stage::Complete).then(|| "the job is finished".to_owned());
    match tool {
        "set_detailed_goal" | "set_constraints" | "set_plan" => no_goal.or(finished),
        "mark_task" => no_tasks.or(finished),
        "finish_job" => no_tasks.or(finished).or_else(|| {
            let open = open_leaves(tasks).len();
            (open > 0).then(|| match open {
                1 => "1 task open".to_owned(),
                n => format!("{n} tasks open"),
            })
        }),
        "unfinish_job" => no_tasks
            .or_else(|| (stage != Stage::Complete).then(|| "the job is not finished".to_owned())),
        _ => None,
    }
}

/// Pushes the `Next:`, `Available:` and `Blocked:` lines (the last only
/// when something is blocked); tools blocked for the same reason in a row
/// share it.
pub(crate) fn push_status(
    out: &mut String,
    standing: Standing<'_>,
    place: &Place,
    around: &Around,
) {
    out.push_str(&format!("Next: {}\n", next(standing, place, around)));
    let new_change_only = match standing {
        Standing::Invalid(_) => true,
        Standing::Plan(document) => Stage::of(document) == Stage::Complete,
    };
    let mut order: Vec<&str> = TOOLS.to_vec();
    if matches!(standing, Standing::Invalid(_)) {
        order = vec!["gather_requirements", "verify_plan", "set_overarching_goal"];
        order.extend(
            TOOLS
                .iter()
                .filter(|t| !order.contains(t))
                .copied()
                .collect::<Vec<_>>(),
        );
    }
    let available: Vec<String> = order
        .iter()
        .filter(|tool| blocked(tool, standing).is_none())
        .map(|tool| match (*tool, new_change_only) {
            ("set_overarching_goal", true) => "set_overarching_goal (start_new: true)".to_owned(),
            (tool, _) => tool.to_owned(),
        })
        .collect();
    out.push_str(&format!("Available: {}\n", available.join(", ")));
    let mut groups: Vec<(Vec<&str>, String)> = Vec::new();
    for tool in order {
        let Some(reason) = blocked(tool, standing) else {
            continue;
        };
        match groups.last_mut() {
            Some((tools, last)) if *last == reason => tools.push(tool),
            _ => groups.push((vec![tool], reason)),
        }
    }
    if !groups.is_empty() {
        let parts: Vec<String> = groups
            .iter()
            .map(|(tools, reason)| format!("{} ({reason})", tools.join(", ")))
            .collect();
        out.push_str(&format!("Blocked: {}\n", parts.join(", ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    fn status(text: &str, place: &Place) -> String {
        let reading = reading(text);
        let mut out = String::new();
        push_status(&mut out, Standing::of(&reading), place, &Around::default());
        out
    }

    #[test]
    fn every_stage_and_the_invalid_state() {
        let jj = Place::Jj {
            change_id: "kxqzvmwnlrpt".into(),
            below: None,
        };
        let git = Place::Git {
            branch: "main".into(),
        };
        let cases = [
            (
                "",
                "Next: set the goal with set_overarching_goal (type, scope, title).\nAvailable: gather_requirements, set_overarching_goal, verify_plan\nBlocked: set_detailed_goal, set_constraints, set_plan (no goal yet), mark_task, finish_job, unfinish_job (no tasks yet)\n",
            ),
            (
                STAGE_1,
                "Next: describe why, what and how with set_detailed_goal.\nAvailable: gather_requirements, set_overarching_goal, set_detailed_goal, set_constraints, set_plan, verify_plan\nBlocked: mark_task, finish_job, unfinish_job (no tasks yet)\n",
            ),
            (
                STAGE_2,
                "Next: add constraints with set_constraints (optional), then the plan with set_plan.\nAvailable: gather_requirements, set_overarching_goal, set_detailed_goal, set_constraints, set_plan, verify_plan\nBlocked: mark_task, finish_job, unfinish_job (no tasks yet)\n",
            ),
            (
                STAGE_3,
                "Next: write the plan with set_plan.\nAvailable: gather_requirements, set_overarching_goal, set_detailed_goal, set_constraints, set_plan, verify_plan\nBlocked: mark_task, finish_job, unfinish_job (no tasks yet)\n",
            ),
            (
                STAGE_4,
                "Next: work on task 1.2 (Write tests), then mark it with mark_task.\nAvailable: gather_requirements, set_overarching_goal, set_detailed_goal, set_constraints, set_plan, mark_task, verify_plan\nBlocked: finish_job (2 tasks open), unfinish_job (the job is not finished)\n",
            ),
            (
                ALL_DONE,
                "Next: all tasks are done: call finish_job.\nAvailable: gather_requirements, set_overarching_goal, set_detailed_goal, set_constraints, set_plan, mark_task, finish_job, verify_plan\nBlocked: unfinish_job (the job is not finished)\n",
            ),
            (
                STAGE_5,
                "Next: start the next change with set_overarching_goal and start_new: true (runs jj new).\nAvailable: gather_requirements, set_overarching_goal (start_new: true), unfinish_job, verify_plan\nBlocked: set_detailed_goal, set_constraints, set_plan, mark_task, finish_job (the job is finished)\n",
            ),
            (
                "notes",
                "Next: ask the user to choose A, B or C.\nAvailable: gather_requirements, verify_plan, set_overarching_goal (start_new: true)\nBlocked: set_detailed_goal, set_constraints, set_plan, mark_task, finish_job, unfinish_job (the description is not a valid plan)\n",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(status(text, &jj), expected, "{text:?}");
        }
        assert!(status(STAGE_5, &git).starts_with("Next: stage the work (git add -A, or git add each path under Changes), then commit with the plan as message: git cat-file blob refs/commit-plan/main:plan | git commit --cleanup=verbatim --file=-; then start the next plan with set_overarching_goal and start_new: true.\n"));
        let one_open = "fix: a\n\n- [ ]: t\n\n~~~ EXECUTE ~~~\n";
        assert!(status(one_open, &jj).contains("Blocked: finish_job (1 task open), "));
    }
}
