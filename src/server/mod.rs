// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP server of one session: identity, instructions, the tools of the
//! enabled toolsets, and the session's board as resources with change
//! notifications (`resources/subscribe`, or `subscriptions/listen` in
//! protocol 2026-07-28).

pub mod untyped_request;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse, Implementation,
    ListPromptsResult, ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler, tool_handler};
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::toolsets::planning::boards::BoardName;
use crate::toolsets::planning::mcp::resources;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::plans::Plans;
use crate::toolsets::plans::tools::PlansHost;

/// What a model reads first: how to use the board.
pub const INSTRUCTIONS: &str = "A planning board: one goal and a list of tasks with statuses. \
Start with set_goal, then break the work into small tasks with add_tasks. Keep statuses \
current with update_task_statuses: in_progress when you start a task, completed as soon as it \
is done, failed when it cannot be done (then ask the operator). Call get_tasks often to stay \
oriented. Use change_goal and delete_tasks only when the operator asks. The resource \
board://{name}/summary is a short summary to re-read after a context reset.";

/// What a model reads first when toolset `plans` is on.
pub const PLANS_INSTRUCTIONS: &str = "Markdown plan files (long-term-plan): each plan is \
<planId>.md in the plans directory, tasks are `- [ ]` todo, `- [*]` doing, `- [√]` done. Read \
with plan.list, plan.get and task.get (no taskId: the current task); change with task.add, \
task.update and task.delete; find with task.search. Pass the etag you read as ifMatch when \
you write, and re-read on CONFLICT.";

/// The enabled toolsets of a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolsets {
    /// Toolset `planning`: the board's tools and resources.
    pub planning: bool,
    /// Toolset `plans`: the plan files it works on, when on.
    pub plans: Option<Arc<Plans>>,
    /// Whether `plans` also offers `doc.validate` and `doc.repair`.
    pub legacy_doc_tools: bool,
}

impl Toolsets {
    /// The board only (the default).
    pub fn planning_only() -> Self {
        Self {
            planning: true,
            plans: None,
            legacy_doc_tools: false,
        }
    }

    /// The toolsets `[server] toolsets` enables, with `[plans]`.
    pub fn from_config(config: &Config) -> Self {
        Self {
            planning: config.server.offers("planning"),
            plans: config
                .server
                .offers("plans")
                .then(|| Arc::new(Plans::new(&config.plans.root, &config.plans.dir))),
            legacy_doc_tools: config.plans.legacy_doc_tools,
        }
    }

    /// Which of the combined routers serves these toolsets.
    fn router_index(&self) -> usize {
        usize::from(self.planning)
            | usize::from(self.plans.is_some()) << 1
            | usize::from(self.legacy_doc_tools && self.plans.is_some()) << 2
    }

    /// What a model reads first: the instructions of the enabled toolsets.
    pub fn instructions(&self) -> String {
        let mut parts = Vec::new();
        if self.planning {
            parts.push(INSTRUCTIONS);
        }
        if self.plans.is_some() {
            parts.push(PLANS_INSTRUCTIONS);
        }
        parts.join("\n\n")
    }
}

/// The tools of each combination of toolsets, each built once and on first
/// use: building a router generates every tool's JSON schema, rmcp asks for
/// a session's server on every HTTP request, and `initialize` (the client's
/// start-up wait) needs no tools. Toolsets are routers that add up.
static ROUTERS: [OnceLock<ToolRouter<PlanningServer>>; 8] = [const { OnceLock::new() }; 8];

fn router_for(toolsets: &Toolsets) -> &'static ToolRouter<PlanningServer> {
    let index = toolsets.router_index();
    ROUTERS[index].get_or_init(|| {
        let mut router = ToolRouter::new();
        if index & 1 != 0 {
            router += PlanningServer::planning_tools();
        }
        if index & 2 != 0 {
            router += crate::toolsets::plans::tools::router(index & 4 != 0);
        }
        router
    })
}

/// One MCP session's server: a handle on its board and the tools.
#[derive(Clone)]
pub struct PlanningServer {
    name: BoardName,
    board: SharedBoard,
    toolsets: Toolsets,
    /// Legacy `resources/subscribe` subscriptions of this session, by URI.
    subscriptions: Arc<Mutex<HashMap<String, CancellationToken>>>,
}

impl PlansHost for PlanningServer {
    fn plans(&self) -> Option<&Plans> {
        self.toolsets.plans.as_deref()
    }
}

impl PlanningServer {
    /// A session's server whose tools and resources work on board `name`.
    pub fn new(name: BoardName, board: SharedBoard) -> Self {
        Self::with_toolsets(name, board, Toolsets::planning_only())
    }

    /// A session's server offering `toolsets`; the board's tools and
    /// resources work on board `name`.
    pub fn with_toolsets(name: BoardName, board: SharedBoard, toolsets: Toolsets) -> Self {
        Self {
            name,
            board,
            toolsets,
            subscriptions: Arc::default(),
        }
    }

    /// The tools of this server's toolsets, built on first use.
    fn tool_router(&self) -> &'static ToolRouter<Self> {
        router_for(&self.toolsets)
    }

    /// The board the planning tools work on.
    pub(crate) fn board(&self) -> &SharedBoard {
        &self.board
    }
}

#[tool_handler(router = self.tool_router())]
impl ServerHandler for PlanningServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts();
        // The board's resources belong to toolset `planning`.
        let capabilities = if self.toolsets.planning {
            capabilities
                .enable_resources()
                .enable_resources_subscribe()
                .build()
        } else {
            capabilities.build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
                    .with_title("Planning board"),
            )
            .with_instructions(self.toolsets.instructions())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(crate::server::untyped_request::answer(&request))
    }

    // The SDK answers prompts/list whatever the capabilities say, so the
    // capability is declared (SEP-2575) and the list is honestly empty.
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::default())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = crate::runtime::text::clip(&request.name);
        Err(ErrorData::invalid_params(
            format!("No prompt '{name}': this server has no prompts."),
            None,
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        // The board's resources belong to toolset `planning`.
        let resources = match self.toolsets.planning {
            true => resources::list(&self.name),
            false => Vec::new(),
        };
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&self.name, &self.board, &request.uri).map(Into::into)
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let uri = request.uri;
        if !resources::is_resource_of(&self.name, &uri) {
            return Err(resources::not_found(&self.name, &uri));
        }
        let stop = CancellationToken::new();
        if let Some(previous) = self.subscriptions.lock().insert(uri.clone(), stop.clone()) {
            previous.cancel();
        }
        let mut changes = self.board.watch();
        let peer = context.peer;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = stop.cancelled() => return,
                    changed = changes.changed() => {
                        let notified = match changed {
                            Ok(()) => peer
                                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri.clone()))
                                .await,
                            Err(_) => return,
                        };
                        if notified.is_err() {
                            return; // the session is gone
                        }
                    }
                }
            }
        });
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Some(stop) = self.subscriptions.lock().remove(&request.uri) {
            stop.cancel();
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris = requested.resource_subscriptions.iter().flatten();
        let mine = uris.filter(|uri| resources::is_resource_of(&self.name, uri));
        Some(
            SubscriptionFilter::builder()
                .resource_subscriptions(mine.cloned())
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        if uris.is_empty() {
            context.cancelled().await;
            return Ok(());
        }
        let mut changes = self.board.watch();
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    for uri in &uris {
                        if context.sink().notify_resource_updated(uri.clone()).await.is_err() {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }
}
