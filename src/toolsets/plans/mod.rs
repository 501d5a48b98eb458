// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `plans`: Markdown plan files, a drop-in for long-term-plan.
//!
//! The pure domain works on text: `syntax` (strings, lines, statuses, IDs),
//! `document` (parse, validate, views, search) and `edit` (minimal-diff
//! edits). `store` keeps plan files on disk (beneath the root, through
//! directory handles); `api` is the operations both faces share; `mcp` and
//! `cli` are the faces. `config` is its table and `toolset` its registry entry.

pub mod api;
pub(crate) mod beneath;
pub mod cli;
pub(crate) mod config;
pub mod document;
pub mod edit;
pub mod error;
pub mod mcp;
pub mod store;
pub mod syntax;
pub(crate) mod toolset;

pub use api::PlanFiles;
pub use error::PlanError;
pub use syntax::status::Status;
pub(crate) use toolset::KIND;
