// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets, each one folder: a pure domain, its storage where it has
//! one, and its MCP face. Each registers itself with one line in
//! [`REGISTRY`]; the server and the configuration know of it only from there.

pub mod commit;
pub mod planning;
pub mod plans;

use crate::server::toolset::ToolsetKind;

/// Every toolset the server can offer, in the order their instructions,
/// tables and flags appear.
pub(crate) static REGISTRY: &[&dyn ToolsetKind] = &[&planning::KIND, &plans::KIND, &commit::KIND];
