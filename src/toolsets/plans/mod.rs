// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `plans`: Markdown plan files, a drop-in for long-term-plan.
//!
//! The pure domain works on text: `text` (JavaScript string rules), `line`
//! (one-line recognisers), `status`, `id`, `diagnostic`, `parse`,
//! `validate`, the edits (`edit`, `body`, `add`, `update`), `repair`, `search`,
//! `target` (default task), `view` (JSON shapes), `json` (pretty printing)
//! and `collate` (plan order).
//! `store` keeps plan files on disk; `api` is the operations the CLI
//! (`cli`) and the MCP tools (`tools`, `schema`) share.

pub mod add;
pub mod api;
pub mod body;
pub mod cli;
pub mod collate;
pub mod config;
pub mod diagnostic;
pub mod edit;
pub mod error;
pub mod hash;
pub mod id;
pub mod json;
pub mod line;
pub mod parse;
pub mod repair;
pub mod schema;
pub mod search;
pub mod status;
pub mod stdio;
pub mod store;
pub mod target;
pub mod text;
pub mod tools;
pub mod toolset;
pub mod update;
pub mod validate;
pub mod view;

pub use api::Plans;
pub use error::PlanError;
pub use status::Status;
pub use toolset::KIND;
