// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `add_tasks` with a planner (toolset `team` on): each task may carry
//! `touches` and `blocked_by`, which the tool list then shows (its own
//! schema and description), the call reads and checks, and the planner
//! turns into links and touches of the same change. Without a planner the
//! tool is the Go contract's: its schema is unchanged, and the two fields,
//! like any unknown property, are ignored; the reply then says they were.

use rmcp::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::tools::TaskInput;
use crate::server::compact_schema::compact_tool;
use crate::toolsets::planning::coordination::plan::TaskPlan;
use crate::toolsets::planning::domain::{BoardError, TaskId};

/// The description `add_tasks` has with a planner.
const DESCRIPTION: &str = "Add tasks, as small as you can track, with the paths each touches \
and the tasks it waits for (blocked_by: IDs on the board, or 1-based positions of earlier tasks \
in this call): a whole plan in one call, all or nothing. A task identical to one on the board is \
skipped. Returns the list with IDs.";

/// What a reply adds when a call without a planner gave team's fields.
pub(crate) const IGNORED: &str = "touches and blocked_by were not set: they need toolset team \
(--toolsets planning,team).";

/// A refused `add_tasks` with a planner: the sentence that says why.
#[derive(Debug)]
pub(crate) struct Refused(pub(crate) String);

impl From<BoardError> for Refused {
    fn from(error: BoardError) -> Self {
        Self(error.to_string())
    }
}

/// A task a `blocked_by` names: its ID, or its place in this call.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Blocker {
    /// A 1-based position of an earlier task of this call.
    Position(u64),
    /// The ID of a task on the board.
    Id(String),
}

/// One task to add, with team's fields: the schema `add_tasks` shows with
/// a planner (the call reads the fields from [`TaskInput`]).
#[derive(Debug, JsonSchema)]
#[schemars(description = "One task to add.")]
#[allow(dead_code, reason = "a schema: the call reads TaskInput")]
pub(crate) struct PlannedTaskInput {
    /// Short and specific.
    pub(crate) title: String,
    /// How to do it or tell it is done.
    #[serde(default)]
    pub(crate) description: String,
    /// Paths it will touch: globs relative to the repository (src/parser/**).
    #[serde(default)]
    pub(crate) touches: Vec<String>,
    /// Tasks it waits for: IDs on the board, or positions (from 1) of earlier tasks of this call.
    #[serde(default)]
    #[schemars(schema_with = "blockers_schema")]
    pub(crate) blocked_by: Vec<Blocker>,
}

/// `blocked_by`'s schema: a list of IDs and positions.
fn blockers_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "array", "items": {"type": ["string", "integer"]}})
}

/// Arguments of `add_tasks` with a planner (its schema).
#[derive(Debug, JsonSchema)]
#[allow(dead_code, reason = "a schema: the call reads AddTasksParams")]
pub(crate) struct PlannedAddTasksParams {
    /// In the order to do them.
    #[schemars(length(min = 1))]
    pub(crate) tasks: Vec<PlannedTaskInput>,
}

/// `tool` (the Go `add_tasks`) as a planner's server lists it: team's
/// schema and description, the rest (title, annotations) kept.
pub(crate) fn listed(tool: &Tool) -> Tool {
    let mut tool = tool.clone();
    tool.description = Some(DESCRIPTION.into());
    match rmcp::handler::server::common::schema_for_input::<PlannedAddTasksParams>() {
        Ok(schema) => tool.input_schema = schema,
        Err(error) => tracing::warn!(%error, "add_tasks: team's schema is not an input schema"),
    }
    compact_tool(tool)
}

/// Whether a task of the call gives team's fields.
pub(crate) fn asks(tasks: &[TaskInput]) -> bool {
    tasks
        .iter()
        .any(|task| task.touches.is_some() || task.blocked_by.is_some())
}

/// The plans of the tasks that give team's fields, in request order, each
/// blocker named by ID (a position turned into the ID of that task of the
/// call), or the refusal: a field that is not what the schema says, a
/// position that names no earlier task of the call.
pub(crate) fn plans(tasks: &[TaskInput]) -> Result<Vec<TaskPlan>, String> {
    let ids: Vec<TaskId> = tasks
        .iter()
        .map(|task| TaskId::from_content(&task.title, &task.description))
        .collect();
    let mut plans = Vec::new();
    for (n, task) in tasks.iter().enumerate() {
        let number = n + 1;
        if task.touches.is_none() && task.blocked_by.is_none() {
            continue;
        }
        let touches = match &task.touches {
            None | Some(Value::Null) => None,
            Some(value) => Some(
                Vec::<String>::deserialize(value)
                    .map_err(|_| format!("Task {number} of the request: touches is a list of glob patterns (strings), e.g. [\"src/parser/**\"]."))?,
            ),
        };
        let blockers = match &task.blocked_by {
            None | Some(Value::Null) => Vec::new(),
            Some(value) => Vec::<Blocker>::deserialize(value).map_err(|_| {
                format!(
                    "Task {number} of the request: blocked_by is a list of task IDs (strings) and \
                     positions of earlier tasks of this call (numbers from 1), e.g. [\"a46f8d35\", 1]."
                )
            })?,
        };
        let mut blocked_by = Vec::with_capacity(blockers.len());
        for blocker in blockers {
            let position = match blocker {
                Blocker::Position(position) => position,
                Blocker::Id(text) => match position_in(&text) {
                    Some(position) => position,
                    None => {
                        blocked_by.push(text);
                        continue;
                    }
                },
            };
            let earlier = usize::try_from(position)
                .ok()
                .filter(|p| (1..number).contains(p));
            match earlier {
                Some(p) => blocked_by.push(ids[p - 1].to_string()),
                None => return Err(bad_position(number, position)),
            }
        }
        plans.push(TaskPlan {
            number,
            id: ids[n],
            blocked_by,
            touches,
        });
    }
    Ok(plans)
}

/// A position written as a string (`"2"`): digits only, fewer than a
/// task ID's eight, so that it can be no ID.
fn position_in(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.len() < 8 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

/// Why `position` is no blocker of task `number`.
fn bad_position(number: usize, position: u64) -> String {
    let which = match number {
        1 => "task 1 has none before it".to_owned(),
        2 => "for task 2, that is 1".to_owned(),
        n => format!("for task {n}, 1 to {}", n - 1),
    };
    format!(
        "Task {number} of the request is blocked_by position {position}, which is no earlier task \
         of this call: a position names a task before it ({which}); name a task on the board by \
         its ID."
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;

    fn inputs(value: Value) -> Vec<TaskInput> {
        serde_json::from_value(value).unwrap()
    }

    fn id(title: &str) -> String {
        TaskId::from_content(title, "").to_string()
    }

    #[test]
    fn positions_become_the_ids_of_earlier_tasks() {
        let tasks = inputs(json!([
            {"title": "a", "touches": ["src/a/**"]},
            {"title": "b"},
            {"title": "c", "blocked_by": [1, "2", "a46f8d35"]},
        ]));
        let plans = plans(&tasks).unwrap();
        assert_eq!(
            plans,
            [
                TaskPlan {
                    number: 1,
                    id: TaskId::from_content("a", ""),
                    blocked_by: vec![],
                    touches: Some(vec!["src/a/**".into()]),
                },
                TaskPlan {
                    number: 3,
                    id: TaskId::from_content("c", ""),
                    blocked_by: vec![id("a"), id("b"), "a46f8d35".into()],
                    touches: None,
                },
            ]
        );
        assert!(asks(&tasks));
        assert!(!asks(&inputs(json!([{"title": "a"}]))));
    }

    #[test]
    fn positions_forward_at_itself_or_out_of_range_are_refused() {
        for (blocked_by, number) in [(json!([1]), 1), (json!([2]), 2), (json!([3]), 2)] {
            let mut tasks = vec![json!({"title": "a"}), json!({"title": "b"})];
            tasks[number - 1]["blocked_by"] = blocked_by;
            let error = plans(&inputs(Value::Array(tasks))).unwrap_err();
            assert!(
                error.starts_with(&format!(
                    "Task {number} of the request is blocked_by position"
                )),
                "{error}"
            );
        }
        let error = plans(&inputs(
            json!([{"title": "a"}, {"title": "b", "blocked_by": [0]}]),
        ));
        assert_eq!(
            error.unwrap_err(),
            "Task 2 of the request is blocked_by position 0, which is no earlier task of this \
             call: a position names a task before it (for task 2, that is 1); name a task on the \
             board by its ID."
        );
    }

    #[test]
    fn fields_of_the_wrong_shape_are_refused() {
        let error = plans(&inputs(json!([{"title": "a", "touches": "src/**"}]))).unwrap_err();
        assert!(
            error.contains("touches is a list of glob patterns"),
            "{error}"
        );
        let error = plans(&inputs(json!([{"title": "a", "blocked_by": [true]}]))).unwrap_err();
        assert!(
            error.contains("blocked_by is a list of task IDs"),
            "{error}"
        );
    }

    #[test]
    fn the_listed_schema_has_both_fields_per_task() {
        let go = Tool::new("add_tasks", "Go", Arc::new(serde_json::Map::new()));
        let tool = listed(&go);
        let schema = Value::Object((*tool.input_schema).clone());
        let task = &schema["properties"]["tasks"]["items"]["properties"];
        assert_eq!(task["touches"]["type"], "array", "{schema}");
        assert_eq!(task["blocked_by"]["type"], "array", "{schema}");
        assert!(tool.description.unwrap().contains("blocked_by"));
    }
}
