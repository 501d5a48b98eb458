// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! planning-mcp-server: a planning board for AI coding agents over MCP.
//!
//! Layout, outermost first:
//! - `cli` parses flags; `config` merges defaults < file < `PLANNING_*` env < flags;
//! - `logging` sends tracing to stderr; `serve` runs stdio or Streamable HTTP;
//! - `server` is the MCP server that combines the enabled toolsets;
//! - `board` is toolset `planning`: a pure domain (`board`, `task`, `render`, ...)
//!   and its MCP face (`board::tools`).
//!
//! Layers point one way: transports know the server, the server knows the
//! toolsets, the tools know the domain, and the domain knows nothing else.

pub mod board;
pub mod config;
pub mod logging;
pub mod serve;
pub mod server;
pub mod shared;
pub mod store;
