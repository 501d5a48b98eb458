// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets a server offers, configured, in registry order.

use std::sync::Arc;

use super::BoardName;
use super::endpoint::Endpoint;
use super::skill::Skill;
use super::toolset::{OpenError, Toolset};

/// What stands between two toolsets' instructions.
pub(crate) const INSTRUCTIONS_SEPARATOR: &str = "\n\n";

/// The enabled toolsets of a server.
#[derive(Debug, Clone, Default)]
pub struct Enabled(Vec<Arc<dyn Toolset>>);

impl Enabled {
    /// These toolsets, in this order.
    pub(crate) fn new(toolsets: Vec<Arc<dyn Toolset>>) -> Self {
        Self(toolsets)
    }

    /// The toolsets.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arc<dyn Toolset>> {
        self.0.iter()
    }

    /// Their names, comma-separated, for logs.
    pub(crate) fn names(&self) -> String {
        let names: Vec<&str> = self.0.iter().map(|t| t.name()).collect();
        names.join(",")
    }

    /// What a model reads first: the instructions of each, in order.
    pub(crate) fn instructions(&self) -> String {
        let parts: Vec<&str> = self.0.iter().map(|t| t.instructions()).collect();
        parts.join(INSTRUCTIONS_SEPARATOR)
    }

    /// Their skills, in order.
    pub(crate) fn skills(&self) -> Vec<&'static Skill> {
        self.0.iter().filter_map(|t| t.skill()).collect()
    }

    /// Whether any of them needs a large stack.
    pub fn need_large_stack(&self) -> bool {
        self.0.iter().any(|t| t.needs_large_stack())
    }

    /// The state of the enabled toolset whose state is a `T`, if any.
    pub(crate) fn state<T: 'static>(&self) -> Option<&T> {
        self.0.iter().find_map(|t| t.as_any().downcast_ref::<T>())
    }

    /// Opens every toolset on board `name`: what its sessions serve.
    /// Refused if two of them list a tool of the same name.
    pub(crate) fn open(&self, name: &BoardName) -> Result<Arc<Endpoint>, OpenError> {
        let faces = self
            .0
            .iter()
            .map(|toolset| Ok((toolset.name(), toolset.open(name)?)))
            .collect::<Result<Vec<_>, OpenError>>()?;
        let endpoint = Endpoint::new(faces, self.instructions(), self.skills())
            .map_err(|duplicate| OpenError::Failed(duplicate.to_string()))?;
        Ok(Arc::new(endpoint))
    }
}
