// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of the board: the seven tools of the Go server, with typed
//! parameters (their JSON schemas are generated) and text replies.

use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use super::PlanningTools;
use super::plan::{self, Refused};
use crate::toolsets::planning::config::Replies;
use crate::toolsets::planning::coordination::plan::Planner;
use crate::toolsets::planning::domain::render::{self, Filter};
use crate::toolsets::planning::domain::{Board, NewTask, Task, TaskId, compact};
use crate::toolsets::planning::shared_board::{CallError, SharedBoard};

/// Arguments of `set_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SetGoalParams {
    /// A short title.
    pub(crate) title: String,
    /// What done looks like.
    pub(crate) description: String,
}

/// Arguments of `change_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ChangeGoalParams {
    /// The new title.
    pub(crate) title: String,
    /// The new description.
    pub(crate) description: String,
    /// The operator's reason.
    pub(crate) reason: String,
}

/// One task to add.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct TaskInput {
    /// Short and specific.
    pub(crate) title: String,
    /// How to do it or tell it is done.
    #[serde(default)]
    pub(crate) description: String,
    /// Toolset team's: the paths it touches (read only with team on; the
    /// Go schema does not show it, see [`super::plan`]).
    #[serde(default)]
    #[schemars(skip)]
    pub(crate) touches: Option<serde_json::Value>,
    /// Toolset team's: the tasks it waits for (likewise).
    #[serde(default)]
    #[schemars(skip)]
    pub(crate) blocked_by: Option<serde_json::Value>,
}

/// Arguments of `add_tasks`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct AddTasksParams {
    /// In the order to do them.
    #[schemars(length(min = 1))]
    pub(crate) tasks: Vec<TaskInput>,
}

/// Arguments of `get_tasks`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct GetTasksParams {
    /// Only tasks with this status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "String",
        extend("enum" = ["all", "pending", "in_progress", "completed", "cancelled", "failed"], "default" = "all")
    )]
    pub(crate) status: Option<String>,
}

/// One status change.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct TaskUpdate {
    /// The ID shown in brackets.
    pub(crate) task_id: String,
    #[schemars(extend("enum" = ["pending", "in_progress", "completed", "failed", "cancelled"]))]
    pub(crate) status: String,
}

/// Arguments of `update_task_statuses`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct UpdateTaskStatusesParams {
    /// All apply or none.
    #[schemars(length(min = 1))]
    pub(crate) tasks: Vec<TaskUpdate>,
}

/// Arguments of `modify_task`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ModifyTaskParams {
    /// The ID shown in brackets.
    pub(crate) task_id: String,
    /// Omit to keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) title: Option<String>,
    /// Omit to keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) description: Option<String>,
}

/// Arguments of `delete_tasks`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DeleteTasksParams {
    /// All are deleted or none.
    #[schemars(length(min = 1))]
    pub(crate) task_ids: Vec<String>,
}

/// The tool's reply: the text on success, an `isError` result with the
/// board's one-sentence explanation otherwise.
fn reply(result: Result<String, CallError>) -> CallToolResult {
    match result {
        Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Err(error) => {
            tracing::debug!(%error, "tool call refused");
            CallToolResult::error(vec![ContentBlock::text(error.to_string())])
        }
    }
}

/// The reply of an `add_tasks` with a planner: its text, or the refusal
/// of the board, the planner or the store.
fn planned(result: Result<Result<String, Refused>, CallError>) -> CallToolResult {
    match result {
        Ok(Ok(text)) => reply(Ok(text)),
        Ok(Err(Refused(refused))) => {
            tracing::debug!(error = %refused, "tool call refused");
            CallToolResult::error(vec![ContentBlock::text(refused)])
        }
        Err(error) => reply(Err(error)),
    }
}

/// The tasks on `board` that `ids` name, each once, in request order.
fn tasks_named(board: &Board, ids: &[&str]) -> Vec<Task> {
    let mut seen = std::collections::HashSet::new();
    ids.iter()
        .filter_map(|id| TaskId::parse(id))
        .filter(|id| seen.insert(*id))
        .filter_map(|id| board.task(id).cloned())
        .collect()
}

/// The tasks a request asks for, as the board takes them.
fn new_tasks(tasks: &[TaskInput]) -> Vec<NewTask> {
    tasks
        .iter()
        .map(|t| NewTask::new(t.title.clone(), t.description.clone()))
        .collect()
}

impl PlanningTools {
    /// `add_tasks` whose tasks give links or touches, with a planner: the
    /// tasks added and what the planner attaches, as one change.
    async fn plan(&self, planner: Arc<dyn Planner>, tasks: &[TaskInput]) -> CallToolResult {
        let plans = match plan::plans(tasks) {
            Ok(plans) => plans,
            Err(refused) => return planned(Ok(Err(Refused(refused)))),
        };
        let new = new_tasks(tasks);
        let (replies, name, skipped) = (self.replies, self.name.clone(), self.skipped.clone());
        let result = self
            .board()
            .run(move |shared| {
                shared.mutate_with(
                    |board| {
                        let now = shared.now(board.clock());
                        let (added, attached, undo) = board.add_tasks_with(&new, |board, _| {
                            planner.attach(board, now, &plans).map_err(Refused)
                        })?;
                        Ok::<_, Refused>(((added, attached, now), undo))
                    },
                    |board, (added, attached, now)| {
                        skipped.record(&name, &added.skipped);
                        let list = match replies {
                            Replies::Full => render::added_reply(board, added.was_empty),
                            Replies::Compact => compact::added(board, &added),
                        };
                        match attached.is_empty() {
                            true => list,
                            false => format!("{list}\n\n{}", planner.reply(board, now, &attached)),
                        }
                    },
                )
            })
            .await;
        planned(result)
    }

    /// Runs a call on the board off the async workers (see
    /// [`SharedBoard::run`]) and turns its outcome into the tool's reply.
    async fn on_board(
        &self,
        call: impl FnOnce(&SharedBoard) -> Result<String, CallError> + Send + 'static,
    ) -> CallToolResult {
        reply(self.board().run(call).await)
    }
}

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl PlanningTools {
    /// Sets the goal of the session.
    #[tool(
        description = "Set the session's goal: a title and what done looks like. Call once, before add_tasks; fails if a goal is set.",
        annotations(
            title = "Set goal",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_goal(
        &self,
        Parameters(p): Parameters<SetGoalParams>,
    ) -> CallToolResult {
        self.on_board(move |shared| {
            shared.mutate(
                |board| Ok(((), board.set_goal(&p.title, &p.description)?)),
                |board, ()| render::goal_reply("Goal set.", board),
            )
        })
        .await
    }

    /// Replaces the goal and records why.
    #[tool(
        description = "Replace the goal, keeping the tasks. Only when the operator asks.",
        annotations(
            title = "Change goal",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn change_goal(
        &self,
        Parameters(p): Parameters<ChangeGoalParams>,
    ) -> CallToolResult {
        self.on_board(move |shared| {
            shared.mutate(
                |board| {
                    let undo = board.change_goal(&p.title, &p.description, &p.reason)?;
                    Ok(((), undo))
                },
                |board, ()| render::goal_reply("Goal changed.", board),
            )
        })
        .await
    }

    /// Adds tasks in order, skipping duplicates.
    #[tool(
        description = "Add tasks, as small as you can track. A task identical to one on the board is skipped. Returns the list with IDs.",
        annotations(
            title = "Add tasks",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn add_tasks(
        &self,
        Parameters(p): Parameters<AddTasksParams>,
    ) -> CallToolResult {
        let asks = plan::asks(&p.tasks);
        if let (Some(planner), true) = (&self.planner, asks) {
            return self.plan(planner.clone(), &p.tasks).await;
        }
        let new = new_tasks(&p.tasks);
        let (replies, name, skipped) = (self.replies, self.name.clone(), self.skipped.clone());
        self.on_board(move |shared| {
            shared.mutate(
                |board| board.add_tasks(&new),
                |board, added| {
                    skipped.record(&name, &added.skipped);
                    let reply = match replies {
                        Replies::Full => render::added_reply(board, added.was_empty),
                        Replies::Compact => compact::added(board, &added),
                    };
                    // The Go contract ignores unknown properties; say so.
                    match asks {
                        true => format!("{reply}\n\n{}", plan::IGNORED),
                        false => reply,
                    }
                },
            )
        })
        .await
    }

    /// Shows the goal and the tasks.
    #[tool(
        description = "Show the goal and the tasks (oldest first) with status and ID. Call it often.",
        annotations(
            title = "Get tasks",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn get_tasks(
        &self,
        Parameters(p): Parameters<GetTasksParams>,
    ) -> CallToolResult {
        match Filter::parse(p.status.as_deref().unwrap_or("all")) {
            Ok(filter) => {
                self.on_board(move |shared| shared.read(|board| render::task_list(board, filter)))
                    .await
            }
            Err(error) => reply(Err(error.into())),
        }
    }

    /// Sets task statuses, all or nothing.
    #[tool(
        description = "Set statuses by ID: in_progress when you start a task, completed once done, failed if it cannot be done (then ask the operator). Never cancel on your own.",
        annotations(
            title = "Update task statuses",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn update_task_statuses(
        &self,
        Parameters(p): Parameters<UpdateTaskStatusesParams>,
    ) -> CallToolResult {
        let replies = self.replies;
        let review = self
            .planner
            .as_ref()
            .is_some_and(|planner| planner.completion_needs_review());
        self.on_board(move |shared| {
            let updates: Vec<(&str, &str)> = p
                .tasks
                .iter()
                .map(|u| (u.task_id.as_str(), u.status.as_str()))
                .collect();
            shared.mutate(
                |board| Ok(((), board.update_statuses_reviewed(&updates, review)?)),
                |board, ()| match replies {
                    Replies::Full => render::task_list(board, Filter::All),
                    Replies::Compact => {
                        let ids: Vec<TaskId> = updates
                            .iter()
                            .filter_map(|(id, _)| TaskId::parse(id))
                            .collect();
                        compact::statuses_set(board, &ids)
                    }
                },
            )
        })
        .await
    }

    /// Rewords a task; its ID follows its content.
    #[tool(
        description = "Reword a task. It keeps its status and place; its ID follows its content (the reply shows the new one).",
        annotations(
            title = "Modify task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn modify_task(
        &self,
        Parameters(p): Parameters<ModifyTaskParams>,
    ) -> CallToolResult {
        let replies = self.replies;
        self.on_board(move |shared| {
            shared.mutate(
                |board| board.modify_task(&p.task_id, p.title.as_deref(), p.description.as_deref()),
                |board, new_id| match (replies, TaskId::parse(&p.task_id)) {
                    (Replies::Compact, Some(old_id)) => compact::modified(board, old_id, new_id),
                    _ => render::task_list(board, Filter::All),
                },
            )
        })
        .await
    }

    /// Deletes tasks, all or nothing.
    #[tool(
        description = "Delete tasks by ID. Only when the operator asks.",
        annotations(
            title = "Delete tasks",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn delete_tasks(
        &self,
        Parameters(p): Parameters<DeleteTasksParams>,
    ) -> CallToolResult {
        let replies = self.replies;
        self.on_board(move |shared| {
            let ids: Vec<&str> = p.task_ids.iter().map(String::as_str).collect();
            shared.mutate(
                |board| {
                    // The compact reply shows the tasks as they were.
                    let gone = match replies {
                        Replies::Full => Vec::new(),
                        Replies::Compact => tasks_named(board, &ids),
                    };
                    Ok((gone, board.delete_tasks(&ids)?))
                },
                |board, gone| match replies {
                    Replies::Full => render::task_list(board, Filter::All),
                    Replies::Compact => compact::deleted(board, &gone),
                },
            )
        })
        .await
    }
}
