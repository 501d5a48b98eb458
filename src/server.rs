// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP server: identity, instructions and the tools of the enabled toolsets.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool_handler};

use crate::shared::SharedBoard;

/// What a model reads first: how to use the board.
pub const INSTRUCTIONS: &str = "A planning board: one goal and a list of tasks with statuses. \
Start with set_goal, then break the work into small tasks with add_tasks. Keep statuses \
current with update_task_statuses: in_progress when you start a task, completed as soon as it \
is done, failed when it cannot be done (then ask the operator). Call get_tasks often to stay \
oriented. Use change_goal and delete_tasks only when the operator asks.";

/// One MCP session's server: a handle on the shared board and the tools.
#[derive(Clone)]
pub struct PlanningServer {
    board: SharedBoard,
    tool_router: ToolRouter<Self>,
}

impl PlanningServer {
    /// A server whose tools work on `board`.
    pub fn new(board: SharedBoard) -> Self {
        Self {
            board,
            tool_router: Self::planning_tools(),
        }
    }

    /// The board the planning tools work on.
    pub(crate) fn board(&self) -> &SharedBoard {
        &self.board
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PlanningServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
                    .with_title("Planning board"),
            )
            .with_instructions(INSTRUCTIONS)
    }
}
