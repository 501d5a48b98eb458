// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Minimal-diff edits of a plan's text, pure: line edits (`lines`),
//! blockquote bodies (`body`), adding (`add`) and updating (`update`)
//! tasks, and the explicit repairs (`repair`).

pub(crate) mod add;
pub(crate) mod body;
pub(crate) mod lines;
pub(crate) mod repair;
pub(crate) mod update;
