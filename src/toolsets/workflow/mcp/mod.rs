// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `workflow`: the six spell tools.

pub(crate) mod tools;
