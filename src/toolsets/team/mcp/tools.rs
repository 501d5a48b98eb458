// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The team's tools: typed parameters (their JSON schemas are generated),
//! one-line-per-task text replies (and, for the tools that hand out tasks,
//! the same answer as structured content). Every call reads the clock once; a
//! change first records the leases that ended, then the decision, as one
//! change of the shared board, so concurrent callers see one order and
//! exactly one claimant of a task wins. Each call runs where the board's
//! store may block (a file's lock, a save) without stalling the async
//! workers (`SharedBoard::run`); `wait_for` ([`super::super::waiter`])
//! waits without running at all.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::TeamTools;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::Status;
use crate::toolsets::team::domain::claims::{self, Expiry};
use crate::toolsets::team::domain::dispatch::{self, Request};
use crate::toolsets::team::domain::wave::{self, Stalled};
use crate::toolsets::team::domain::{
    EvidenceInput, Target, TeamError, View, fields, goal, links, render, touches,
};
use crate::toolsets::team::waiter::WaitRequest;

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
    /// Claim it even if its touches overlap another agent's work.
    #[serde(default)]
    pub(crate) accept_overlap: bool,
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
    /// Stalled dispatches: include (default), exclude, or only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", extend("enum" = ["include", "exclude", "only"]))]
    pub(crate) stalled: Option<String>,
}

/// Arguments of `set_done_when`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DoneWhenParams {
    /// What must be true for the goal to be met; "" removes it.
    pub(crate) condition: String,
}

/// Arguments of `dispatch_task`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DispatchParams {
    /// Your (the lead's) agent name.
    pub(crate) lead: String,
    /// The worker's agent name; it claims the task with it.
    pub(crate) worker: String,
    /// The task; omit it for the next task of the ready wave (the reply names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) task_id: Option<String>,
    /// The worker's worktree or directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) worktree: Option<String>,
    /// A one-line note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub(crate) note: Option<String>,
    /// Minutes the worker has to claim it; omit for the default lease.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) lease_minutes: Option<i64>,
    /// Dispatch it even if its touches overlap another agent's work.
    #[serde(default)]
    pub(crate) accept_overlap: bool,
}

/// Arguments of `set_touches`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct TouchesParams {
    /// The task.
    pub(crate) task_id: String,
    /// Glob patterns relative to the repository (e.g. src/parser/**); [] for none.
    pub(crate) touches: Vec<String>,
    /// Keep them even if they overlap another agent's claimed work.
    #[serde(default)]
    pub(crate) accept_overlap: bool,
}

/// Arguments of `wait_for`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct WaitParams {
    /// Any of: finished, ready, stalled, goal_met, changed, review, reviewed.
    #[schemars(length(min = 1))]
    pub(crate) events: Vec<String>,
    /// For finished: only these tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<String>")]
    pub(crate) task_ids: Option<Vec<String>>,
    /// The revision your last wait_for reply gave; what changed after it counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) revision: Option<i64>,
    /// Seconds to wait at most (default and maximum: team.max_wait_seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub(crate) timeout_seconds: Option<i64>,
}

/// The most tasks `ready_tasks` lists.
const READY_MAX: i64 = 100;
/// The tasks `ready_tasks` lists by default.
const READY_DEFAULT: i64 = 10;

/// A successful reply: its text, and for the tools that hand out tasks
/// the same answer as fields ([`fields`]).
pub(crate) struct Reply {
    text: String,
    fields: Option<Value>,
}

impl Reply {
    /// The text and the fields.
    fn with(text: String, fields: Value) -> Self {
        Self {
            text,
            fields: Some(fields),
        }
    }
}

impl From<String> for Reply {
    fn from(text: String) -> Self {
        Self { text, fields: None }
    }
}

/// A successful reply. Its fields become the structured content, with the
/// text as the field `text`: a client that shows the model only the
/// structured content (Claude Code does) must still get the whole answer.
fn success(reply: Reply) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(reply.text.clone())]);
    if let Some(mut fields) = reply.fields {
        fields["text"] = Value::String(reply.text);
        result.structured_content = Some(fields);
    }
    result
}

/// A refusal: an `isError` result with one sentence.
fn failure(error: &dyn std::fmt::Display) -> CallToolResult {
    tracing::debug!(%error, "tool call refused");
    CallToolResult::error(vec![ContentBlock::text(error.to_string())])
}

impl TeamTools {
    /// Runs a change: the expiries due now, then `decide`'s edits, applied
    /// and saved as one change; `reply` renders the board after it.
    async fn change<T: Send + 'static, R: Into<Reply> + Send + 'static>(
        &self,
        mut decide: impl FnMut(View<'_>) -> Result<(Vec<Edit>, T), TeamError> + Send + 'static,
        reply: impl FnOnce(View<'_>, &[Expiry], T) -> R + Send + 'static,
    ) -> CallToolResult {
        let clock = self.clock;
        let result = self
            .board
            .run(move |shared| {
                shared.mutate_with(
                    |board| {
                        // The board's time, read with this attempt's load
                        // (the database's, under its lock, on PostgreSQL).
                        let now = shared.now(clock);
                        let view = View::new(board, now);
                        let (mut edits, expired) = claims::expiries(view);
                        let (more, outcome) = decide(view)?;
                        edits.extend(more);
                        let undo = board.edit(now, edits)?;
                        Ok::<_, TeamError>(((expired, outcome, now), undo))
                    },
                    |board, (expired, outcome, now)| {
                        reply(View::new(board, now), &expired, outcome)
                    },
                )
            })
            .await;
        match result {
            Ok(Ok(reply)) => success(reply.into()),
            Ok(Err(refused)) => failure(&refused),
            Err(store) => failure(&store),
        }
    }

    /// Runs a read: leases that ended are recorded first (a change) if
    /// there are any, so the history and the reply agree.
    async fn look<R: Into<Reply> + Send + 'static>(
        &self,
        reply: impl FnOnce(View<'_>, &[Expiry]) -> R + Send + 'static,
    ) -> CallToolResult {
        let clock = self.clock;
        // Read once: the reply when no lease ended, else `None` and the
        // reply comes from the change that records the ends.
        let read = self
            .board
            .run(move |shared| {
                shared.read(|board| {
                    let view = View::new(board, shared.now(clock));
                    match claims::has_expiries(view) {
                        true => Err(reply),
                        false => Ok(reply(view, &[])),
                    }
                })
            })
            .await;
        match read {
            Ok(Ok(reply)) => success(reply.into()),
            Ok(Err(reply)) => {
                self.change(
                    |_| Ok((Vec::new(), ())),
                    |view, expired, ()| reply(view, expired),
                )
                .await
            }
            Err(error) => failure(&error),
        }
    }
}

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl TeamTools {
    /// Claims a task (or the next ready one) for a lease.
    #[tool(
        description = "Claim a task before working on it: by task_id, or the next ready one. Refused if another agent holds it, it is dispatched to another worker, or its touches overlap another's claim (unless accept_overlap). Claim again to renew. Sets it in_progress.",
        annotations(
            title = "Claim task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn claim_task(
        &self,
        Parameters(p): Parameters<ClaimParams>,
    ) -> CallToolResult {
        let lease = match self.policy.lease(p.lease_minutes) {
            Ok(lease) => lease,
            Err(error) => return failure(&error),
        };
        let (agent, task_id, accept) = (p.agent, p.task_id, p.accept_overlap);
        let replying_agent = agent.clone();
        self.change(
            move |view| {
                let target = task_id.as_deref().map_or(Target::NextReady, Target::Task);
                claims::claim(view, &agent, target, lease, accept)
            },
            move |view, expired, claimed| {
                Reply::with(
                    render::claimed(view, expired, &claimed, &replying_agent),
                    fields::claimed(view, &claimed, &replying_agent),
                )
            },
        )
        .await
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
    pub(crate) async fn release_task(
        &self,
        Parameters(p): Parameters<ReleaseParams>,
    ) -> CallToolResult {
        let outcome = p.status.parse::<Status>().unwrap_or(Status::Pending);
        let (rule, review) = (self.evidence, self.review);
        self.change(
            move |view| {
                let input = EvidenceInput {
                    command: p.command.as_deref(),
                    exit_code: p.exit_code,
                    commit: p.commit.as_deref(),
                    url: p.url.as_deref(),
                    note: p.note.as_deref(),
                };
                let evidence = input.check(&p.agent, view.now, outcome)?;
                claims::release(
                    view, &p.agent, &p.task_id, &p.status, evidence, rule, review,
                )
            },
            |view, expired, released| render::released(view, expired, &released),
        )
        .await
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
    pub(crate) async fn link_tasks(&self, Parameters(p): Parameters<LinkParams>) -> CallToolResult {
        self.change(
            move |view| links::link(view, &p.task_id, &p.blocked_by),
            render::linked,
        )
        .await
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
    pub(crate) async fn unlink_tasks(
        &self,
        Parameters(p): Parameters<LinkParams>,
    ) -> CallToolResult {
        self.change(
            move |view| links::unlink(view, &p.task_id, &p.blocked_by),
            render::linked,
        )
        .await
    }

    /// The ready queue, as a wave that can run in parallel.
    #[tool(
        description = "The ready queue, the tasks that unblock the most work first, then board order: a wave whose touches overlap neither held work nor each other, then the tasks held back and why. stalled: include (default), exclude or only stalled dispatches.",
        annotations(
            title = "Ready tasks",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn ready_tasks(
        &self,
        Parameters(p): Parameters<ReadyParams>,
    ) -> CallToolResult {
        let limit = p.limit.unwrap_or(READY_DEFAULT);
        if !(1..=READY_MAX).contains(&limit) {
            return failure(&format!(
                "The limit is 1 to {READY_MAX} tasks; {limit} is not."
            ));
        }
        let stalled = match p.stalled.as_deref().map(Stalled::parse).transpose() {
            Ok(stalled) => stalled.unwrap_or_default(),
            Err(error) => return failure(&error),
        };
        let limit = usize::try_from(limit).unwrap_or(1);
        self.look(move |view, expired| {
            let wave = wave::wave(view, limit, stalled, None);
            Reply::with(
                render::ready_wave(view, expired, &wave, stalled),
                fields::ready(view, &wave),
            )
        })
        .await
    }

    /// Every task with holders, links and evidence.
    #[tool(
        description = "The goal, its done-when condition, counts, the dispatched tasks in flight and stalled, and every task with its holder and lease end, dispatch, the tasks it waits for, its touches and evidence.",
        annotations(
            title = "Team board",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn team_board(&self) -> CallToolResult {
        self.look(render::board).await
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
    pub(crate) async fn set_done_when(
        &self,
        Parameters(p): Parameters<DoneWhenParams>,
    ) -> CallToolResult {
        self.change(
            move |view| Ok((goal::done_when(view.board, &p.condition)?, ())),
            |view, expired, ()| render::done_when(view, expired),
        )
        .await
    }

    /// Records that the lead sent a task to a worker.
    #[tool(
        description = "Lead: record that you sent task_id (omit it for the next ready task, named in the reply) to a worker sub-agent (its worktree, a note). The worker must claim it in time and keep its lease, or the dispatch shows as stalled.",
        annotations(
            title = "Dispatch task",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn dispatch_task(
        &self,
        Parameters(p): Parameters<DispatchParams>,
    ) -> CallToolResult {
        let lease = match self.policy.lease(p.lease_minutes) {
            Ok(lease) => lease,
            Err(error) => return failure(&error),
        };
        let worker = p.worker.clone();
        self.change(
            move |view| {
                let request = Request {
                    lead: &p.lead,
                    worker: &p.worker,
                    task_id: p.task_id.as_deref(),
                    place: p.worktree.as_deref(),
                    note: p.note.as_deref(),
                    lease,
                    accept_overlap: p.accept_overlap,
                };
                dispatch::dispatch(view, &request)
            },
            move |view, expired, dispatched| {
                Reply::with(
                    render::dispatched(view, expired, &dispatched, &worker),
                    fields::dispatched(view, &dispatched, &worker),
                )
            },
        )
        .await
    }

    /// Declares the paths a task touches.
    #[tool(
        description = "Declare the paths task_id will touch, as globs relative to the repository (src/parser/**); [] for none. Claims reserve them: ready_tasks waves never overlap, and check-touches warns of commits into them.",
        annotations(
            title = "Set touches",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn set_touches(
        &self,
        Parameters(p): Parameters<TouchesParams>,
    ) -> CallToolResult {
        self.change(
            move |view| touches::set(view, &p.task_id, &p.touches, p.accept_overlap),
            |view, expired, set| render::touches_set(view, expired, &set),
        )
        .await
    }

    /// Waits until the board changes in a way the caller named.
    #[tool(
        description = "Wait instead of polling until an event: finished (a task, or one of task_ids, completed or failed), ready (a task became ready), stalled (a dispatch), goal_met, changed, review (a task awaits a person's review), reviewed. Returns at the first, or at the timeout with the digest. Pass the revision it returns to the next call.",
        annotations(
            title = "Wait for",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn wait_for(
        &self,
        Parameters(p): Parameters<WaitParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let request = WaitRequest {
            events: p.events,
            task_ids: p.task_ids,
            revision: p.revision,
            timeout_seconds: p.timeout_seconds,
        };
        // Over HTTP, the session the call came in (rmcp hands on the
        // request's head); over stdio there is one client.
        let session = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|id| id.to_str().ok())
            .unwrap_or_default();
        match self.waiters.wait(session, &request, context.ct).await {
            Ok(text) => success(text.into()),
            Err(refused) => failure(&refused),
        }
    }
}
