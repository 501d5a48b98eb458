// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The tools' arguments, with generated JSON schemas. Unknown properties
//! are ignored; a wrong JSON type or an unknown `type` fails schema
//! validation (an `isError` result from rmcp).

use schemars::JsonSchema;
use serde::Deserialize;

use crate::toolsets::commit::document::CommitType;
use crate::toolsets::commit::edit::{GoalInput, TaskInput};

/// `T` read from a JSON object only (serde would also read a struct from an array).
fn object_only<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<T, D::Error> {
    let object = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    T::deserialize(serde_json::Value::Object(object)).map_err(serde::de::Error::custom)
}

/// The header `type(scope)!: title`.
#[derive(Debug, Clone, JsonSchema)]
pub(crate) struct Goal {
    /// The kind of change.
    #[serde(rename = "type")]
    pub(crate) kind: CommitType,
    /// One lowercase noun for the part of the program (a-z, then a-z, 0-9, -); omit or "" for none.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(crate) scope: Option<String>,
    /// Whether the change breaks compatibility (adds `!`).
    #[serde(default)]
    #[schemars(with = "bool", extend("default" = false))]
    pub(crate) breaking: Option<bool>,
    /// What the change does, as an imperative instruction, one line.
    pub(crate) title: String,
}

/// [`Goal`]'s fields, as serde reads them.
#[derive(Deserialize)]
struct GoalFields {
    #[serde(rename = "type")]
    kind: CommitType,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    breaking: Option<bool>,
    title: String,
}

impl<'de> Deserialize<'de> for Goal {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f: GoalFields = object_only(d)?;
        Ok(Goal {
            kind: f.kind,
            scope: f.scope,
            breaking: f.breaking,
            title: f.title,
        })
    }
}

impl From<Goal> for GoalInput {
    fn from(goal: Goal) -> Self {
        GoalInput {
            kind: goal.kind,
            scope: goal.scope,
            breaking: goal.breaking.unwrap_or(false),
            title: goal.title,
        }
    }
}

/// Arguments of `set_overarching_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SetGoalParams {
    /// The header.
    pub(crate) goal: Goal,
    /// Start a new plan (jj: a new change) instead of updating this one;
    /// only when the job is finished or the description is not a plan.
    #[serde(default)]
    #[schemars(with = "bool", extend("default" = false))]
    pub(crate) start_new: Option<bool>,
}

/// Arguments of `set_detailed_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SetDescriptionParams {
    /// Why, what, how, and context for readers; several lines allowed.
    pub(crate) description: String,
}

/// Arguments of `set_constraints`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SetConstraintsParams {
    /// Each "Prefix: text", Prefix one of Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden; [] removes them.
    #[schemars(length(max = 50))]
    pub(crate) constraints: Vec<String>,
}

/// One task of `set_plan`.
#[derive(Debug, Clone, JsonSchema)]
pub(crate) struct PlanTask {
    /// What to do, one line ("summary: details").
    pub(crate) text: String,
    /// Whether it is already done (recomputed for a task with subtasks).
    #[serde(default)]
    #[schemars(with = "bool", extend("default" = false))]
    pub(crate) done: Option<bool>,
    /// Its subtasks, in order.
    #[serde(default)]
    #[schemars(with = "Vec<PlanTask>", extend("default" = []))]
    pub(crate) subtasks: Option<Vec<PlanTask>>,
}

/// [`PlanTask`]'s fields, as serde reads them.
#[derive(Deserialize)]
struct PlanTaskFields {
    text: String,
    #[serde(default)]
    done: Option<bool>,
    #[serde(default)]
    subtasks: Option<Vec<PlanTask>>,
}

impl<'de> Deserialize<'de> for PlanTask {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f: PlanTaskFields = object_only(d)?;
        Ok(PlanTask {
            text: f.text,
            done: f.done,
            subtasks: f.subtasks,
        })
    }
}

impl From<PlanTask> for TaskInput {
    fn from(task: PlanTask) -> Self {
        TaskInput {
            text: task.text,
            done: task.done.unwrap_or(false),
            subtasks: task
                .subtasks
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
        }
    }
}

/// Arguments of `set_plan`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SetPlanParams {
    /// The tasks, in the order they are done.
    #[schemars(length(min = 1))]
    pub(crate) plan: Vec<PlanTask>,
}

/// Arguments of `mark_task`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct MarkTaskParams {
    /// The task: its path (1.2), its exact text, or a unique part of its text.
    pub(crate) task_id: String,
    /// true (the default) ticks it, false unticks it.
    #[serde(default)]
    #[schemars(with = "bool", extend("default" = true))]
    pub(crate) completed: Option<bool>,
}

/// Arguments of `verify_plan`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct VerifyPlanParams {
    /// Rewrite a description that is not a valid plan into the plan format.
    #[serde(default)]
    #[schemars(with = "bool", extend("default" = false))]
    pub(crate) migrate: Option<bool>,
    /// The header for a migration when the old text has none (or replaces a broken one).
    #[serde(default)]
    #[schemars(with = "Goal")]
    pub(crate) goal: Option<Goal>,
}
