// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of the board: its seven tools (`tools`) and its resources
//! (`resources`) on one board, offered through [`BoardTools`].

pub mod resources;
pub mod tools;

use std::sync::OnceLock;

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, ReadResourceResult, Resource, Tool};
use rmcp::service::{RequestContext, RoleServer};
use tokio::sync::watch;

use super::shared_board::SharedBoard;
use crate::server::BoardName;
use crate::server::toolset::{ToolFuture, Tools, route};

/// The board's tools and resources on one board.
#[derive(Clone)]
pub struct BoardTools {
    name: BoardName,
    board: SharedBoard,
}

impl BoardTools {
    /// The face of board `name`.
    pub fn new(name: BoardName, board: SharedBoard) -> Self {
        Self { name, board }
    }

    /// The board the tools work on.
    pub(crate) fn board(&self) -> &SharedBoard {
        &self.board
    }
}

/// The seven tools, built once: building them generates every schema.
fn router() -> &'static ToolRouter<BoardTools> {
    static ROUTER: OnceLock<ToolRouter<BoardTools>> = OnceLock::new();
    ROUTER.get_or_init(BoardTools::planning_tools)
}

impl Tools for BoardTools {
    fn tools(&self) -> Vec<Tool> {
        router().list_all()
    }

    fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        route(router(), self, request, context)
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
