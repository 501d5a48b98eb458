// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The text and line syntax of plan files, pure: JavaScript string rules
//! (`text`), the one-line recognisers (`line`), task statuses (`status`),
//! IDs (`id`) and content hashes (`hash`), the reference's JSON printing
//! (`json`) and plan order (`collate`).

pub mod collate;
pub mod hash;
pub mod id;
pub mod json;
pub mod line;
pub mod status;
pub mod text;
