// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One board's endpoint: the enabled toolsets opened on it, shared by all
//! the sessions that work on that board. A tool name is one toolset's: an
//! endpoint whose toolsets both list one is refused (at start-up, since
//! both transports open the served board first), never served with one of
//! them hidden.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::model::{Resource, Tool};

use super::skill::Skill;
use super::toolset::Tools;

/// The toolsets' tools and resources on one board.
pub(crate) struct Endpoint {
    tools: Vec<Arc<dyn Tools>>,
    /// The name of each face's toolset.
    toolsets: Vec<&'static str>,
    instructions: String,
    /// The toolsets' skills, in registry order.
    skills: Vec<&'static Skill>,
    /// Every tool, sorted by name, and the face that has each. With one
    /// toolset it is built on first use, since `initialize` (the client's
    /// start-up wait) needs none and one toolset cannot clash with itself;
    /// with more, at once, to refuse a name two of them list.
    listed: OnceLock<Listed>,
}

struct Listed {
    tools: Vec<Tool>,
    face_of: HashMap<String, usize>,
}

impl Listed {
    /// The tools of `faces` (of toolsets `toolsets`), sorted by name, and
    /// the first name two toolsets share, if any (the first keeps it).
    fn of(toolsets: &[&'static str], faces: &[Arc<dyn Tools>]) -> (Self, Option<DuplicateTool>) {
        let mut face_of: HashMap<String, usize> = HashMap::new();
        let mut tools = Vec::new();
        let mut duplicate = None;
        for (index, face) in faces.iter().enumerate() {
            for tool in face.tools() {
                match face_of.get(tool.name.as_ref()) {
                    Some(&first) if first != index => {
                        duplicate.get_or_insert_with(|| DuplicateTool {
                            tool: tool.name.to_string(),
                            first: toolsets.get(first).copied().unwrap_or_default(),
                            second: toolsets.get(index).copied().unwrap_or_default(),
                        });
                    }
                    Some(_) => {}
                    None => {
                        face_of.insert(tool.name.to_string(), index);
                        tools.push(tool);
                    }
                }
            }
        }
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        (Self { tools, face_of }, duplicate)
    }
}

/// Two enabled toolsets list a tool of the same name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "toolsets '{first}' and '{second}' both have a tool named '{tool}': a call could reach \
     only one of them; enable one of the two"
)]
pub(crate) struct DuplicateTool {
    /// The tool's name.
    pub(crate) tool: String,
    /// The toolset that lists it first, in registry order.
    pub(crate) first: &'static str,
    /// The other toolset that lists it.
    pub(crate) second: &'static str,
}

impl Endpoint {
    /// The endpoint of one board with these toolsets' faces, each with its
    /// toolset's name, in registry order, their instructions and their
    /// skills; refused if two of them list a tool of the same name.
    pub(crate) fn new(
        faces: Vec<(&'static str, Arc<dyn Tools>)>,
        instructions: String,
        skills: Vec<&'static Skill>,
    ) -> Result<Self, DuplicateTool> {
        let (toolsets, tools) = faces.into_iter().unzip();
        let endpoint = Self {
            tools,
            toolsets,
            instructions,
            skills,
            listed: OnceLock::new(),
        };
        if endpoint.tools.len() > 1 {
            let (listed, duplicate) = Listed::of(&endpoint.toolsets, &endpoint.tools);
            if let Some(duplicate) = duplicate {
                return Err(duplicate);
            }
            let _ = endpoint.listed.set(listed);
        }
        Ok(endpoint)
    }

    /// What a model reads first.
    pub(crate) fn instructions(&self) -> &str {
        &self.instructions
    }

    /// Each toolset's face, in registry order.
    pub(crate) fn faces(&self) -> &[Arc<dyn Tools>] {
        &self.tools
    }

    /// Every tool of every toolset, sorted by name.
    pub(crate) fn tool_list(&self) -> &[Tool] {
        &self.listed().tools
    }

    /// The face that has tool `name`.
    pub(crate) fn face_of(&self, name: &str) -> Option<&Arc<dyn Tools>> {
        let index = *self.listed().face_of.get(name)?;
        self.tools.get(index)
    }

    fn listed(&self) -> &Listed {
        // Only one face is listed here (`new` lists more): it cannot clash.
        self.listed
            .get_or_init(|| Listed::of(&self.toolsets, &self.tools).0)
    }

    /// Every resource of every toolset, then each skill's file.
    pub(crate) fn resources(&self) -> Vec<Resource> {
        let skills = self.skills.iter().map(|skill| skill.resource());
        let resources = self.tools.iter().flat_map(|t| t.resources());
        resources.chain(skills).collect()
    }

    /// Whether any toolset has resources or a skill (the capability is
    /// declared then).
    pub(crate) fn has_resources(&self) -> bool {
        !self.skills.is_empty() || self.tools.iter().any(|t| !t.resources().is_empty())
    }

    /// The toolsets' skills, in registry order.
    pub(crate) fn skills(&self) -> &[&'static Skill] {
        &self.skills
    }

    /// The skill whose `SKILL.md` is at `uri`.
    pub(crate) fn skill(&self, uri: &str) -> Option<&'static Skill> {
        self.skills.iter().copied().find(|skill| skill.uri() == uri)
    }
}
