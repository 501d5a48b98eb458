// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The registry: every toolset a server can offer, one [`ToolsetKind`] each
//! (the server's is `crate::toolsets::REGISTRY`). Every list that names
//! toolsets is derived from it: the valid `[server] toolsets` names, the
//! config tables and their `PLANNING_*` variables, the flags, the example
//! file. The configuration takes a registry as a
//! parameter, so that a test can serve one more toolset than the server's.

use super::settings::Flag;
use super::toolset::ToolsetKind;

/// Toolsets a server can offer, in the order their instructions, tables,
/// flags and example parts appear.
#[derive(Clone, Copy)]
pub(crate) struct Registry<'a>(&'a [&'static dyn ToolsetKind]);

impl<'a> Registry<'a> {
    /// The registry of these toolsets, in this order.
    pub(crate) const fn new(kinds: &'a [&'static dyn ToolsetKind]) -> Self {
        Self(kinds)
    }

    /// Its toolsets, in order.
    pub(crate) fn kinds(&self) -> impl Iterator<Item = &'static dyn ToolsetKind> + 'a {
        self.0.iter().copied()
    }

    /// The names of its toolsets, in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + 'a {
        self.kinds().map(|kind| kind.name())
    }

    /// The config tables of its toolsets, in order.
    pub(crate) fn tables(&self) -> impl Iterator<Item = &'static str> + 'a {
        self.kinds().flat_map(|kind| kind.tables().iter().copied())
    }

    /// The flags of its toolsets, in order.
    pub(crate) fn flags(&self) -> impl Iterator<Item = &'static Flag> + 'a {
        self.kinds().flat_map(|kind| kind.flags().iter())
    }
}

impl std::fmt::Debug for Registry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}
