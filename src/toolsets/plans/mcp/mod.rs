// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `plans` ([`PlansTools`]): the tools with the
//! reference's names, schemas and replies (`tools`, `schema`), and the
//! drop-in stdio server `long-term-plan-mcp` (`stdio`).

pub(crate) mod schema;
pub(crate) mod stdio;
pub(crate) mod tools;

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::{RequestContext, RoleServer};

use super::PlanFiles;
use crate::runtime::blocking;
use crate::server::toolset::{ToolFuture, Tools};

/// The MCP face of toolset `plans`: the plan files and which tools are
/// offered.
#[derive(Debug, Clone)]
pub(crate) struct PlansTools {
    plans: Arc<PlanFiles>,
    legacy_doc_tools: bool,
}

impl PlansTools {
    /// The tools on `plans`; `doc.validate` and `doc.repair` too with
    /// `legacy_doc_tools`.
    pub(crate) fn new(plans: Arc<PlanFiles>, legacy_doc_tools: bool) -> Self {
        Self {
            plans,
            legacy_doc_tools,
        }
    }
}

impl Tools for PlansTools {
    fn tools(&self) -> Vec<Tool> {
        tools::tools(self.legacy_doc_tools)
    }

    fn call(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        let legacy = self.legacy_doc_tools;
        if !tools::tool_names(legacy).contains(&request.name.as_ref()) {
            return None;
        }
        // Plan files are read, locked and written: off the async workers.
        let plans = self.plans.clone();
        Some(Box::pin(async move {
            let result = blocking::run(move || {
                let arguments = request.arguments.as_ref();
                tools::call(&request.name, &plans, arguments, legacy)
            })
            .await;
            match result {
                Some(result) => Ok(result.into()),
                None => Err(ErrorData::invalid_params("tool not found", None)),
            }
        }))
    }
}
