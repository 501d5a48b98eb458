// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The validation limits, from `[commit]`.

/// How large a plan and its parts may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most characters in the header's title.
    pub max_title_length: usize,
    /// Most task levels (a top-level task is at depth 1).
    pub max_depth: usize,
    /// Most tasks, all levels counted.
    pub max_tasks: usize,
    /// Most characters in one task text or one constraint text.
    pub max_item_length: usize,
    /// Most bytes in the whole description.
    pub max_input_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_title_length: 120,
            max_depth: 4,
            max_tasks: 1000,
            max_item_length: 500,
            max_input_bytes: 102_400,
        }
    }
}
