// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The plan document and its checks, pure: parsing (`parse`), validation
//! (`validate`) and its diagnostics (`diagnostic`), the JSON views
//! (`view`), the default task (`target`) and search (`search`).

pub(crate) mod diagnostic;
pub(crate) mod parse;
pub(crate) mod search;
pub(crate) mod target;
pub(crate) mod validate;
pub(crate) mod view;
