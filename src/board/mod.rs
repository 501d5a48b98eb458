// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `planning`: the Go-compatible planning board.
//!
//! `task`, `history`, `board`, `render` and `error` are the pure domain;
//! `tools` and `resources` are the MCP face.

#[allow(clippy::module_inception)]
pub mod board;
pub mod error;
pub mod history;
pub mod render;
pub mod resources;
pub mod task;
pub mod tools;

pub use board::{Added, Board, Limits, NewTask, Undo};
pub use error::BoardError;
pub use history::{Entry, Event, Goal, History};
pub use task::{Status, Task, TaskId};
