// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `plans`: the tools with the reference's names,
//! schemas and replies (`tools`, `schema`), and the drop-in stdio server
//! `long-term-plan-mcp` (`stdio`).

pub(crate) mod schema;
pub(crate) mod stdio;
pub(crate) mod tools;
