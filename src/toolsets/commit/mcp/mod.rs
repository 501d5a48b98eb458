// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `commit`: the nine tools (`tools`), their
//! arguments (`params`) and one call's course (`call`).

pub(crate) mod call;
pub(crate) mod params;
pub(crate) mod tools;

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};

use call::{Call, Planner};

/// The nine tools; the same on every board (the plan belongs to the
/// repository, not to a board).
#[derive(Debug, Clone)]
pub(crate) struct CommitTools {
    planner: Arc<Planner>,
}

impl CommitTools {
    /// The tools over `planner`.
    pub(crate) fn new(planner: Arc<Planner>) -> Self {
        Self { planner }
    }

    /// Runs `call` on its own task, so that a client that goes away
    /// mid-call never cuts a write short.
    pub(crate) async fn run(&self, call: Call) -> CallToolResult {
        let planner = self.planner.clone();
        match tokio::spawn(async move { planner.call(call).await }).await {
            Ok(result) => result,
            Err(error) => {
                tracing::error!(%error, "a commit tool call failed");
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "The call failed inside the server ({error}); nothing more is known. Call gather_requirements to see the plan."
                ))])
            }
        }
    }
}

// The nine tools, as the toolset's `Tools`.
crate::server::routed_tools::routed_tools!(CommitTools);
