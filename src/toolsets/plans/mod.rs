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

pub(crate) mod api;
pub(crate) mod beneath;
pub(crate) mod cli;
pub(crate) mod config;
pub(crate) mod document;
pub(crate) mod edit;
pub(crate) mod error;
pub(crate) mod mcp;
pub(crate) mod store;
pub(crate) mod syntax;
pub(crate) mod toolset;

pub(crate) use api::PlanFiles;
pub(crate) use toolset::KIND;
