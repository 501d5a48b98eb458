// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of the board: its seven tools and its resources.

pub mod resources;
pub mod tools;
