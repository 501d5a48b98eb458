// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board's pure domain: tasks, the board, its history, the text the
//! tools reply with, and what can be wrong. No I/O, no MCP.

pub(crate) mod action;
pub(crate) mod board;
pub(crate) mod compact;
pub(crate) mod error;
pub(crate) mod history;
pub(crate) mod id_hash;
pub(crate) mod render;
pub(crate) mod replay;
pub(crate) mod task;

pub(crate) use action::Action;
pub(crate) use board::{Board, Limits, NewTask, Undo};
pub(crate) use error::BoardError;
pub(crate) use history::{ClaimEnd, DispatchEnd, Entry, Event, Goal, History};
pub(crate) use id_hash::{IdMap, IdSet};
pub(crate) use task::{Status, Task, TaskId};
