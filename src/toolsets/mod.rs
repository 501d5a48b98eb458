// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets, each one folder: a pure domain, its storage where it has
//! one, and its MCP face. They register in [`crate::server::registry`].

pub mod planning;
pub mod plans;
