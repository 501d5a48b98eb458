// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The text and line syntax of plan files, pure: JavaScript string rules
//! (`text`), the one-line recognisers (`line`), task statuses (`status`),
//! IDs (`id`) and content hashes (`hash`), the reference's JSON printing
//! (`json`) and plan order (`collate`).

pub(crate) mod collate;
pub(crate) mod hash;
pub(crate) mod id;
pub(crate) mod json;
pub(crate) mod line;
pub(crate) mod status;
pub(crate) mod text;
