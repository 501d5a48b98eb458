// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The team's tools: typed parameters (their JSON schemas are generated),
//! one-line-per-task text replies. Every call reads the clock once; a
//! change first records the leases that ended, then the decision, as one
//! change of the shared board, so concurrent callers see one order and
//! exactly one claimant of a task wins.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use super::TeamTools;
use crate::toolsets::planning::domain::{Edit, Status};
use crate::toolsets::team::domain::claims::{self, Expiry};
use crate::toolsets::team::domain::{EvidenceInput, Target, TeamError, View, goal, links, render};

/// Arguments of `claim_task`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ClaimParams {
    /// Your agent name, the same in every call.
    pub(crate) agent: String,
    /// The task to claim; omit it for the next ready task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) task_id: Option<String>,
    /// Minutes the lease lasts; omit it for the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) lease_minutes: Option<i64>,
}

/// Arguments of `release_task`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ReleaseParams {
    /// Your agent name.
    pub(crate) agent: String,
    /// The task you hold.
    pub(crate) task_id: String,
    /// What the task becomes.
    #[schemars(extend("enum" = ["completed", "failed", "pending"]))]
    pub(crate) status: String,
    /// Evidence: a command you ran (with exit_code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) command: Option<String>,
    /// Evidence: the command's exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) exit_code: Option<i64>,
    /// Evidence: a commit or change ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) commit: Option<String>,
    /// Evidence: a URL (CI run, pull request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) url: Option<String>,
    /// Evidence: a one-line note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) note: Option<String>,
}

/// Arguments of `link_tasks` and `unlink_tasks`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct LinkParams {
    /// The task that waits.
    pub(crate) task_id: String,
    /// The tasks it waits for.
    #[schemars(length(min = 1))]
    pub(crate) blocked_by: Vec<String>,
}

/// Arguments of `ready_tasks`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ReadyParams {
    /// The most tasks listed (1 to 100, default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) limit: Option<i64>,
}

/// Arguments of `set_done_when`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DoneWhenParams {
    /// What must be true for the goal to be met; "" removes it.
    pub(crate) condition: String,
}

/// The most tasks `ready_tasks` lists.
const READY_MAX: i64 = 100;
/// The tasks `ready_tasks` lists by default.
const READY_DEFAULT: i64 = 10;

fn success(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn failure(error: &dyn std::fmt::Display) -> CallToolResult {
    tracing::debug!(%error, "tool call refused");
    CallToolResult::error(vec![ContentBlock::text(error.to_string())])
}

impl TeamTools {
    /// Runs a change: the expiries due now, then `decide`'s edits, applied
    /// and saved as one change; `reply` renders the board after it.
    fn change<T>(
        &self,
        decide: impl FnOnce(View<'_>) -> Result<(Vec<Edit>, T), TeamError>,
        reply: impl FnOnce(View<'_>, &[Expiry], T) -> String,
    ) -> CallToolResult {
        let now = self.clock.now();
        let result = self.board.mutate_with(
            |board| {
                let view = View::new(board, now);
                let (mut edits, expired) = claims::expiries(view);
                let (more, outcome) = decide(view)?;
                edits.extend(more);
                let undo = board.edit(now, edits)?;
                Ok::<_, TeamError>(((expired, outcome), undo))
            },
            |board, (expired, outcome)| reply(View::new(board, now), &expired, outcome),
        );
        match result {
            Ok(Ok(text)) => success(text),
            Ok(Err(refused)) => failure(&refused),
            Err(store) => failure(&store),
        }
    }

    /// Runs a read: leases that ended are recorded first (a change) if
    /// there are any, so the history and the reply agree.
    fn look(&self, reply: impl FnOnce(View<'_>, &[Expiry]) -> String) -> CallToolResult {
        let now = self.clock.now();
        match self
            .board
            .read(|board| claims::has_expiries(View::new(board, now)))
        {
            Ok(true) => self.change(
                |_| Ok((Vec::new(), ())),
                |view, expired, ()| reply(view, expired),
            ),
            Ok(false) => match self.board.read(|board| reply(View::new(board, now), &[])) {
                Ok(text) => success(text),
                Err(error) => failure(&error),
            },
            Err(error) => failure(&error),
        }
    }
}

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl TeamTools {
    /// Claims a task (or the next ready one) for a lease.
    #[tool(
        description = "Claim a task before working on it: by task_id, or the next ready task. Exactly one agent holds a task; a task held by another is refused, naming the holder. Claim a task you hold again to renew its lease. Sets it in_progress.",
        annotations(
            title = "Claim task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) fn claim_task(&self, Parameters(p): Parameters<ClaimParams>) -> CallToolResult {
        let lease = match self.policy.lease(p.lease_minutes) {
            Ok(lease) => lease,
            Err(error) => return failure(&error),
        };
        let target = p.task_id.as_deref().map_or(Target::NextReady, Target::Task);
        self.change(
            |view| claims::claim(view, &p.agent, target, lease),
            |view, expired, claimed| render::claimed(view, expired, &claimed, &p.agent),
        )
    }

    /// Ends the caller's claim, with the outcome and its evidence.
    #[tool(
        description = "Release a task you hold: completed (give evidence: command with exit_code, commit, url or note), failed, or pending to hand it back. Returns the task and the tasks it made ready. On a task you completed without evidence, completed with evidence adds it.",
        annotations(
            title = "Release task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) fn release_task(&self, Parameters(p): Parameters<ReleaseParams>) -> CallToolResult {
        let input = EvidenceInput {
            command: p.command.as_deref(),
            exit_code: p.exit_code,
            commit: p.commit.as_deref(),
            url: p.url.as_deref(),
            note: p.note.as_deref(),
        };
        let now = self.clock.now();
        let outcome = p.status.parse::<Status>().unwrap_or(Status::Pending);
        let rule = self.evidence;
        self.change(
            |view| {
                let evidence = input.check(&p.agent, now, outcome)?;
                claims::release(view, &p.agent, &p.task_id, &p.status, evidence, rule)
            },
            |view, expired, released| render::released(view, expired, &released),
        )
    }

    /// Makes a task wait for others.
    #[tool(
        description = "Make task_id wait for the blocked_by tasks: it is ready only when they are all completed. Refused if it would make a cycle (the cycle is named).",
        annotations(
            title = "Link tasks",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) fn link_tasks(&self, Parameters(p): Parameters<LinkParams>) -> CallToolResult {
        self.change(
            |view| links::link(view, &p.task_id, &p.blocked_by),
            render::linked,
        )
    }

    /// Removes links.
    #[tool(
        description = "Remove links: task_id no longer waits for the blocked_by tasks.",
        annotations(
            title = "Unlink tasks",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) fn unlink_tasks(&self, Parameters(p): Parameters<LinkParams>) -> CallToolResult {
        self.change(
            |view| links::unlink(view, &p.task_id, &p.blocked_by),
            render::linked,
        )
    }

    /// The ready queue.
    #[tool(
        description = "The ready queue: pending, unclaimed tasks whose blockers are all completed, in board order.",
        annotations(
            title = "Ready tasks",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) fn ready_tasks(&self, Parameters(p): Parameters<ReadyParams>) -> CallToolResult {
        let limit = p.limit.unwrap_or(READY_DEFAULT);
        if !(1..=READY_MAX).contains(&limit) {
            return failure(&format!(
                "The limit is 1 to {READY_MAX} tasks; {limit} is not."
            ));
        }
        let limit = usize::try_from(limit).unwrap_or(1);
        self.look(|view, expired| render::ready(view, expired, limit))
    }

    /// Every task with holders, links and evidence.
    #[tool(
        description = "The goal, its done-when condition, counts, and every task with its holder and lease end, the tasks it waits for and its evidence.",
        annotations(
            title = "Team board",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) fn team_board(&self) -> CallToolResult {
        self.look(render::board)
    }

    /// Sets the goal's done-when condition.
    #[tool(
        description = "Set what must be true for the goal to be met (e.g. a command that passes); shown with the goal. The goal counts as met only when every task is completed or cancelled.",
        annotations(
            title = "Set done-when",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) fn set_done_when(
        &self,
        Parameters(p): Parameters<DoneWhenParams>,
    ) -> CallToolResult {
        self.change(
            |view| Ok((goal::done_when(view.board, &p.condition)?, ())),
            |view, expired, ()| render::done_when(view, expired),
        )
    }
}
