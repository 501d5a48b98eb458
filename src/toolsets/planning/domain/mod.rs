// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board's pure domain: tasks, the board, its history, the text the
//! tools reply with, and what can be wrong. No I/O, no MCP.

pub mod board;
pub mod compact;
pub mod coordination;
pub mod error;
pub mod history;
pub mod render;
pub mod task;

pub use board::{Added, Board, Limits, NewTask, Undo};
pub use coordination::{Claim, Coordination, Dispatch, Edit, Evidence};
pub use error::BoardError;
pub use history::{ClaimEnd, DispatchEnd, Entry, Event, Goal, History};
pub use task::{Status, Task, TaskId};
