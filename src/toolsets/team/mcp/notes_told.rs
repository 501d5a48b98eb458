// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's notes reach the agents in their replies: after a team tool
//! call that names an agent, the notes due to it (on the tasks it holds,
//! on the board) come first in the reply's text, one line each, and in the
//! structured content's `text` too (a client may show the model only
//! that), and are marked told so that no later reply repeats them.

use rmcp::model::{CallToolResponse, ContentBlock};
use serde_json::Value;

use crate::runtime::clock::Clock;
use crate::server::toolset::ToolFuture;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::team::people;

/// `call` with the notes due to `agent` put first in its reply.
pub(super) fn carried(
    call: ToolFuture,
    board: SharedBoard,
    clock: Clock,
    agent: Option<String>,
) -> ToolFuture {
    Box::pin(async move {
        let Some(agent) = agent else {
            return call.await;
        };
        // A release ends the claim a note was for: what the agent held
        // before the call is still due to it after. One read per call when
        // no note waits (the usual case): the reply is not looked at again.
        let held = {
            let agent = agent.clone();
            board
                .run(move |shared| people::held_with_notes(shared, clock, &agent))
                .await
        };
        let Some(held) = held else {
            return call.await;
        };
        let mut response = call.await?;
        let CallToolResponse::Complete(result) = &mut response else {
            return Ok(response);
        };
        let lines = board
            .run(move |shared| people::deliver(shared, clock, &agent, &held))
            .await;
        if lines.is_empty() {
            return Ok(response);
        }
        let head = lines.join("\n");
        if let Some(ContentBlock::Text(text)) = result.content.first_mut() {
            text.text = format!("{head}\n{}", text.text);
        }
        if let Some(Value::String(text)) = result
            .structured_content
            .as_mut()
            .and_then(|fields| fields.get_mut("text"))
        {
            *text = format!("{head}\n{text}");
        }
        Ok(response)
    })
}
