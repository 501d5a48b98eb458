// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of the board: its seven tools (`tools`) and its resources
//! (`resources`) on one board, offered through [`PlanningTools`]; the log of
//! skipped duplicates (`skipped`); what the store tells a reply (`notices`);
//! `add_tasks` with a planner, toolset team's fields (`plan`).

pub(crate) mod notices;
pub(crate) mod plan;
pub(crate) mod resources;
pub(crate) mod skipped;
pub(crate) mod tools;

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, ReadResourceResult, Resource, Tool};
use rmcp::service::{RequestContext, RoleServer};
use tokio::sync::watch;

use self::skipped::SkippedLog;
use super::config::Replies;
use super::coordination::plan::Planner;
use super::shared_board::SharedBoard;
use crate::server::BoardName;
use crate::server::routed_tools::RoutedTools;
use crate::server::toolset::{ToolFuture, Tools};

/// The board's tools and resources on one board.
#[derive(Clone)]
pub(crate) struct PlanningTools {
    name: BoardName,
    board: SharedBoard,
    replies: Replies,
    skipped: Arc<SkippedLog>,
    /// What decides the links and touches `add_tasks` takes (toolset
    /// team's rules, when it is on).
    planner: Option<Arc<dyn Planner>>,
}

impl PlanningTools {
    /// The face of board `name`, whose changes reply as `replies` says,
    /// whose skipped duplicates go to the server's `skipped` log, and whose
    /// `add_tasks` takes links and touches when there is a `planner`.
    pub(crate) fn new(
        name: BoardName,
        board: SharedBoard,
        replies: Replies,
        skipped: Arc<SkippedLog>,
        planner: Option<Arc<dyn Planner>>,
    ) -> Self {
        Self {
            name,
            board,
            replies,
            skipped,
            planner,
        }
    }

    /// The board the tools work on.
    pub(crate) fn board(&self) -> &SharedBoard {
        &self.board
    }
}

/// The seven tools.
static TOOLS: RoutedTools<PlanningTools> = RoutedTools::new(PlanningTools::tool_router);

impl Tools for PlanningTools {
    fn tools(&self) -> Vec<Tool> {
        let mut tools = TOOLS.list();
        if self.planner.is_some() {
            for tool in tools.iter_mut().filter(|tool| tool.name == "add_tasks") {
                *tool = plan::listed(tool);
            }
        }
        tools
    }

    fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        let agent = notices::agent_of(&request);
        let call = TOOLS.call(self, request, context)?;
        Some(notices::told(call, self.board.clone(), agent))
    }

    fn resources(&self) -> Vec<Resource> {
        resources::list(&self.name)
    }

    fn read_resource(&self, uri: &str) -> Option<Result<ReadResourceResult, ErrorData>> {
        resources::read(&self.name, &self.board, uri)
    }

    fn watch(&self, uri: &str) -> Option<watch::Receiver<u64>> {
        resources::is_resource_of(&self.name, uri).then(|| self.board.watch())
    }
}
