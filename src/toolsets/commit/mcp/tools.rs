// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The nine tools: names, descriptions for a model, annotations, and their
//! arguments turned into a [`Call`].

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use super::CommitTools;
use super::call::Call;
use super::params::{
    MarkTaskParams, SetConstraintsParams, SetDescriptionParams, SetGoalParams, SetPlanParams,
    VerifyPlanParams,
};

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl CommitTools {
    /// Reads the plan.
    #[tool(
        description = "Read the plan kept in this change's description: stage, goal, description, constraints, tasks with their paths, the changed files, guidance and the next step. Call it first, and whenever you are unsure where the work stands.",
        annotations(
            title = "Gather requirements",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn gather_requirements(&self) -> CallToolResult {
        self.run(Call::Gather).await
    }

    /// Sets the header.
    #[tool(
        description = "Set the plan's header type(scope)!: title; creates the plan when the description is empty and keeps every other section. With start_new: true, only after finish_job or on a description that is not a plan, it starts a new plan (jj: runs jj new).",
        annotations(
            title = "Set overarching goal",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_overarching_goal(
        &self,
        Parameters(p): Parameters<SetGoalParams>,
    ) -> CallToolResult {
        self.run(Call::SetGoal(p.goal.into(), p.start_new.unwrap_or(false)))
            .await
    }

    /// Sets the description.
    #[tool(
        description = "Set the description: why the change is needed, what changes, how, and context for reviewers. Plain text; no task, constraint or direction lines.",
        annotations(
            title = "Set detailed goal",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_detailed_goal(
        &self,
        Parameters(p): Parameters<SetDescriptionParams>,
    ) -> CallToolResult {
        self.run(Call::SetDescription(p.description)).await
    }

    /// Replaces the constraints.
    #[tool(
        description = "Replace the constraints: absolute prohibitions, each \"Prefix: text\" with Prefix one of Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden. [] removes them.",
        annotations(
            title = "Set constraints",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_constraints(
        &self,
        Parameters(p): Parameters<SetConstraintsParams>,
    ) -> CallToolResult {
        self.run(Call::SetConstraints(p.constraints)).await
    }

    /// Replaces the task list.
    #[tool(
        description = "Replace the task list with small sequential steps (subtasks allowed, 4 levels by default); set done: true for work already done. A parent's box follows its subtasks. Sets the direction to EXECUTE.",
        annotations(
            title = "Set plan",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_plan(
        &self,
        Parameters(p): Parameters<SetPlanParams>,
    ) -> CallToolResult {
        self.run(Call::SetPlan(p.plan.into_iter().map(Into::into).collect()))
            .await
    }

    /// Ticks or unticks one leaf task.
    #[tool(
        description = "Tick (completed: true, the default) or untick one leaf task, found by path (1.2), exact text or a unique part of its text. Tick only work that is really done.",
        annotations(
            title = "Mark task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn mark_task(
        &self,
        Parameters(p): Parameters<MarkTaskParams>,
    ) -> CallToolResult {
        self.run(Call::Mark(p.task_id, p.completed.unwrap_or(true)))
            .await
    }

    /// Finishes the job.
    #[tool(
        description = "Mark the job COMPLETE. Only when every task is done; then follow the reply's next step.",
        annotations(
            title = "Finish job",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn finish_job(&self) -> CallToolResult {
        self.run(Call::Finish).await
    }

    /// Reopens a finished job.
    #[tool(
        description = "Reopen a finished job (COMPLETE back to EXECUTE) to change its tasks.",
        annotations(
            title = "Unfinish job",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn unfinish_job(&self) -> CallToolResult {
        self.run(Call::Unfinish).await
    }

    /// Checks the plan against the change, or diagnoses and migrates.
    #[tool(
        description = "Final alignment check before finish_job: the plan next to the changed files. On a description that is not a plan: the problems and a preview of its migration; migrate: true rewrites it (give goal when it has no header).",
        annotations(
            title = "Verify plan",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn verify_plan(
        &self,
        Parameters(p): Parameters<VerifyPlanParams>,
    ) -> CallToolResult {
        self.run(Call::Verify(
            p.migrate.unwrap_or(false),
            p.goal.map(Into::into),
        ))
        .await
    }
}
