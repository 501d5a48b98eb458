// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a board's store has to tell the caller, appended to a tool's reply
//! as a text block of its own: with the git log, an operation of this
//! clone (or of the calling agent) that a merge set aside, a change kept
//! here because the push failed, a claim still provisional. Each is told
//! once; a store with nothing to tell adds nothing.

use rmcp::model::{CallToolRequestParams, CallToolResponse, ContentBlock};

use crate::server::toolset::ToolFuture;
use crate::toolsets::planning::shared_board::SharedBoard;

/// The agent a call names (its `agent` argument), if any.
pub(crate) fn agent_of(request: &CallToolRequestParams) -> Option<String> {
    request
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.get("agent"))
        .and_then(|agent| agent.as_str())
        .map(str::to_owned)
}

/// `call` with the board's notices for `agent` appended to its reply.
pub(crate) fn told(call: ToolFuture, board: SharedBoard, agent: Option<String>) -> ToolFuture {
    Box::pin(async move {
        let mut response = call.await?;
        let notices = board.notices(agent.as_deref());
        if let (false, CallToolResponse::Complete(result)) = (notices.is_empty(), &mut response) {
            result.content.push(ContentBlock::text(notices.join("\n")));
        }
        Ok(response)
    })
}
