// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! planning-mcp-server: a planning board for AI coding agents over MCP.
//!
//! Layout, outermost first:
//! - `config` merges defaults < file < `PLANNING_*` env < flags; `logging` sends
//!   tracing to stderr;
//! - `serve` runs stdio or HTTP; `http` is the axum router (auth, limits, one MCP
//!   endpoint per board); `web` is the live board for browsers in HTTP mode;
//! - `server` is one MCP session's server: the tools of the enabled toolsets and
//!   the board's resources;
//! - `boards` names and opens boards; `shared` is the handle sessions share
//!   (lock, reload, apply, save, notify); `store` keeps snapshots (memory, file);
//! - `board` is toolset `planning`: a pure domain (`board`, `task`, `render`, ...)
//!   and its MCP face (`board::tools`, `board::resources`);
//! - `plans` is toolset `plans`: long-term-plan's Markdown plan files (domain,
//!   store, CLI, MCP tools, the drop-in stdio server); `stack` gives the
//!   binaries room for deeply nested plans.
//!
//! `allocator` names the servers' allocator (mimalloc by default).
//!
//! Layers point one way: transports know the server, the server knows the
//! toolsets, the tools know the domain, and the domain knows nothing else.

pub mod allocator;
pub mod board;
pub mod boards;
pub mod config;
pub mod http;
pub mod logging;
pub mod plans;
pub mod serve;
pub mod server;
pub mod shared;
pub mod stack;
pub mod store;
pub mod untyped_request;
pub mod web;
