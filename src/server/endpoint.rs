// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One board's endpoint: the enabled toolsets opened on it, shared by all
//! the sessions that work on that board.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::model::{Resource, Tool};

use super::BoardName;
use super::toolset::Tools;

/// The toolsets' tools and resources on one board.
pub struct Endpoint {
    name: BoardName,
    tools: Vec<Arc<dyn Tools>>,
    instructions: String,
    /// Every tool, sorted by name, and the face that has each; built on
    /// first use, since `initialize` (the client's start-up wait) needs none.
    listed: OnceLock<Listed>,
}

struct Listed {
    tools: Vec<Tool>,
    face_of: HashMap<String, usize>,
}

impl Endpoint {
    /// The endpoint of board `name` with these toolsets' faces.
    pub fn new(name: BoardName, tools: Vec<Arc<dyn Tools>>, instructions: String) -> Self {
        Self {
            name,
            tools,
            instructions,
            listed: OnceLock::new(),
        }
    }

    /// The board's name.
    pub fn name(&self) -> &BoardName {
        &self.name
    }

    /// What a model reads first.
    pub fn instructions(&self) -> &str {
        &self.instructions
    }

    /// Each toolset's face, in registry order.
    pub fn faces(&self) -> &[Arc<dyn Tools>] {
        &self.tools
    }

    /// Every tool of every toolset, sorted by name.
    pub fn tool_list(&self) -> &[Tool] {
        &self.listed().tools
    }

    /// The face that has tool `name`.
    pub fn face_of(&self, name: &str) -> Option<&Arc<dyn Tools>> {
        let index = *self.listed().face_of.get(name)?;
        self.tools.get(index)
    }

    fn listed(&self) -> &Listed {
        self.listed.get_or_init(|| {
            let mut face_of = HashMap::new();
            let mut tools = Vec::new();
            for (index, face) in self.tools.iter().enumerate() {
                for tool in face.tools() {
                    face_of.insert(tool.name.to_string(), index);
                    tools.push(tool);
                }
            }
            tools.sort_by(|a, b| a.name.cmp(&b.name));
            Listed { tools, face_of }
        })
    }

    /// Every resource of every toolset.
    pub fn resources(&self) -> Vec<Resource> {
        self.tools.iter().flat_map(|t| t.resources()).collect()
    }

    /// Whether any toolset has resources (the capability is declared then).
    pub fn has_resources(&self) -> bool {
        !self.resources().is_empty()
    }
}
