// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The server of `long-term-plan-mcp`, the drop-in stdio server: the
//! reference's identity (`long-term-plan-mcp` 0.1.0) and only its tools, so
//! that a client configured for `npx long-term-plan-mcp` sees the same
//! server. Its command line is the binary's (`src/bin/long-term-plan-mcp.rs`).

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::IntoTransport;
use rmcp::{ErrorData, ServerHandler, ServiceExt};

use crate::toolsets::plans::api::PlanFiles;
use crate::toolsets::plans::mcp::tools;

/// The reference's name and version, reported in `initialize`.
pub const NAME: &str = "long-term-plan-mcp";
/// The reference's version.
pub const VERSION: &str = "0.1.0";

/// The server of `long-term-plan-mcp`: the plans tools, nothing else.
#[derive(Debug, Clone)]
pub struct PlansServer {
    plans: Arc<PlanFiles>,
    legacy_doc_tools: bool,
}

impl PlansServer {
    /// A server over `plans`.
    pub fn new(plans: PlanFiles, legacy_doc_tools: bool) -> Self {
        Self {
            plans: Arc::new(plans),
            legacy_doc_tools,
        }
    }
}

impl ServerHandler for PlansServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new(NAME, VERSION))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::tools(
            self.legacy_doc_tools,
        )))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let served = self.get_info().capabilities;
        Err(crate::server::untyped_request::answer(&request, &served))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (plans, legacy) = (self.plans.clone(), self.legacy_doc_tools);
        // Plan files are read, locked and written: off the async worker.
        let result = crate::runtime::blocking::run(move || {
            let name = request.name.as_ref();
            tools::call(name, &plans, request.arguments.as_ref(), legacy).unwrap_or_else(|| {
                // The reference answers an unknown tool with an error result.
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "MCP error -32602: Tool {name} not found"
                ))])
            })
        })
        .await;
        Ok(result.into())
    }
}

/// Serves `server` on `transport` (stdin/stdout) until the client leaves.
pub async fn serve<T, E, A>(server: PlansServer, transport: T) -> std::io::Result<()>
where
    T: IntoTransport<RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let service = server
        .serve(transport)
        .await
        .map_err(std::io::Error::other)?;
    let _ = service.waiting().await;
    Ok(())
}
