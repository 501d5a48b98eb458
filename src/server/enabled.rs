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

/// The most characters the enabled toolsets' instructions take together:
/// what a client shows (Claude Code cuts the rest).
pub(crate) const INSTRUCTIONS_LIMIT: usize = 2048;

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

    /// Where the toolsets keep boards, for the start-up log: each one's
    /// [`Toolset::storage`], `;`-separated (`none` when none keeps any).
    pub(crate) fn storage(&self) -> String {
        let places: Vec<String> = self.0.iter().filter_map(|t| t.storage()).collect();
        match places.is_empty() {
            true => "none".into(),
            false => places.join(";"),
        }
    }

    /// What a model reads first: the instructions of each, in order.
    pub(crate) fn instructions(&self) -> String {
        let parts: Vec<&str> = self.0.iter().map(|t| t.instructions()).collect();
        parts.join(INSTRUCTIONS_SEPARATOR)
    }

    /// Refuses toolsets whose instructions together take more than
    /// [`INSTRUCTIONS_LIMIT`] characters, naming the largest.
    pub(crate) fn check_instructions(&self) -> Result<(), String> {
        let length = self.instructions().chars().count();
        if length <= INSTRUCTIONS_LIMIT {
            return Ok(());
        }
        let size = |toolset: &&Arc<dyn Toolset>| toolset.instructions().chars().count();
        let (largest, its) = self
            .0
            .iter()
            .max_by_key(size)
            .map(|toolset| (toolset.name(), size(&toolset)))
            .unwrap_or_default();
        Err(format!(
            "server.toolsets: the instructions of toolsets {} take {length} characters, more \
             than the {INSTRUCTIONS_LIMIT} a client shows; the largest are toolset '{largest}''s \
             ({its}): enable fewer toolsets",
            self.names()
        ))
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

    /// Whether every toolset's store can be used now
    /// ([`Toolset::reachable`]): the first that cannot, by name, and why.
    pub(crate) fn reachable(
        &self,
        limit: std::time::Duration,
    ) -> Result<(), (&'static str, String)> {
        self.0.iter().try_for_each(|toolset| {
            toolset
                .reachable(limit)
                .map_err(|why| (toolset.name(), why))
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::settings::Settings;
    use crate::server::toolset::{Tools, ToolsetKind};

    /// A toolset whose instructions take `length` characters.
    #[derive(Debug)]
    struct Wordy {
        name: &'static str,
        instructions: &'static str,
    }

    impl ToolsetKind for Wordy {
        fn name(&self) -> &'static str {
            self.name
        }
        fn about(&self) -> &'static str {
            "a test's"
        }
        fn instructions(&self) -> &'static str {
            self.instructions
        }
        fn tables(&self) -> &'static [&'static str] {
            &[]
        }
        fn example(&self) -> &'static str {
            ""
        }
        fn configure(&self, _: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
            Err(Vec::new())
        }
    }

    #[derive(Debug)]
    struct Configured(&'static Wordy);

    impl Toolset for Configured {
        fn kind(&self) -> &'static dyn ToolsetKind {
            self.0
        }
        fn open(&self, _: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
            Err(OpenError::Failed("a test's".into()))
        }
    }

    fn wordy(name: &'static str, length: usize) -> Arc<dyn Toolset> {
        let instructions = Box::leak("x".repeat(length).into_boxed_str());
        Arc::new(Configured(Box::leak(Box::new(Wordy {
            name,
            instructions,
        }))))
    }

    #[test]
    fn instructions_over_the_limit_are_refused_naming_the_largest() {
        let fits = Enabled::new(vec![wordy("a", 1000), wordy("b", 1046)]);
        assert_eq!(fits.instructions().chars().count(), INSTRUCTIONS_LIMIT);
        assert_eq!(fits.check_instructions(), Ok(()));
        let over = Enabled::new(vec![wordy("a", 900), wordy("b", 1000), wordy("c", 200)]);
        assert_eq!(
            over.check_instructions().unwrap_err(),
            "server.toolsets: the instructions of toolsets a,b,c take 2104 characters, more than \
             the 2048 a client shows; the largest are toolset 'b''s (1000): enable fewer toolsets"
        );
    }
}
