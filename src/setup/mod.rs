// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server setup` and `doctor`: the server's own subcommands
//! (not a toolset's), which wire the server into the coding agents' config
//! files and check what they wrote.

mod agent;
mod json;
mod plan;
mod toml_file;
