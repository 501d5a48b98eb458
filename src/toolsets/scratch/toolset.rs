// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `scratch` as the server sees it: its registry entry, its
//! configured state (the greeting) and its MCP face (one tool).

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::json;

use super::config::{EXAMPLE, FLAGS, ScratchSettings};
use crate::server::BoardName;
use crate::server::settings::{Flag, Settings};
use crate::server::toolset::{OpenError, ToolFuture, Tools, Toolset, ToolsetKind};

/// What a model reads first when toolset `scratch` is on.
const INSTRUCTIONS: &str = "Scratch (tests only): scratch_greet greets the name you give it.";

/// The registry entry of toolset `scratch`.
pub(crate) struct ScratchKind;

/// The registry entry of toolset `scratch`.
pub(crate) static KIND: ScratchKind = ScratchKind;

impl ToolsetKind for ScratchKind {
    fn name(&self) -> &'static str {
        "scratch"
    }

    fn about(&self) -> &'static str {
        "a test's sixth toolset"
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn tables(&self) -> &'static [&'static str] {
        &["scratch_pad"]
    }

    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let settings = ScratchSettings::read(settings)?;
        Ok(Arc::new(Scratch(Arc::new(settings))))
    }
}

/// Toolset `scratch`, configured: the same on every board.
#[derive(Debug)]
pub(crate) struct Scratch(pub(crate) Arc<ScratchSettings>);

/// The MCP face of toolset `scratch`.
#[derive(Debug)]
pub(crate) struct ScratchTools(Arc<ScratchSettings>);

impl Toolset for Scratch {
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    fn open(&self, _board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        Ok(Arc::new(ScratchTools(self.0.clone())))
    }
}

impl Tools for ScratchTools {
    fn tools(&self) -> Vec<Tool> {
        let schema = json!({
            "type": "object",
            "properties": { "name": { "type": "string" } },
            "required": ["name"],
        });
        let schema: JsonObject = serde_json::from_value(schema).unwrap_or_default();
        let description = "Greets `name`.";
        vec![Tool::new(
            self.0.tool.clone(),
            description,
            Arc::new(schema),
        )]
    }

    fn call(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        if request.name != self.0.tool {
            return None;
        }
        let name = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("name"))
            .and_then(|name| name.as_str())
            .unwrap_or("whoever you are")
            .to_owned();
        let text = format!("{}, {name}.", self.0.greeting);
        Some(Box::pin(async move {
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
        }))
    }
}
