// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board that every session shares: a cheap handle around one lock.

use std::sync::Arc;

use parking_lot::RwLock;

use super::board::{Board, Undo};
use super::error::BoardError;

/// A clonable handle to one board. Each call locks, works and unlocks
/// without awaiting, so concurrent callers see one total order of calls.
#[derive(Debug, Clone)]
pub struct SharedBoard {
    board: Arc<RwLock<Board>>,
}

impl SharedBoard {
    /// Shares `board`.
    pub fn new(board: Board) -> Self {
        Self {
            board: Arc::new(RwLock::new(board)),
        }
    }

    /// Runs `read` on the board under a shared lock.
    pub fn read<T>(&self, read: impl FnOnce(&Board) -> T) -> T {
        read(&self.board.read())
    }

    /// Runs `change` on the board under the exclusive lock, then `reply` on
    /// the changed board before anyone else can change it again.
    pub fn mutate<T, R>(
        &self,
        change: impl FnOnce(&mut Board) -> Result<(T, Undo), BoardError>,
        reply: impl FnOnce(&Board, T) -> R,
    ) -> Result<R, BoardError> {
        let mut board = self.board.write();
        let (outcome, _undo) = change(&mut board)?;
        Ok(reply(&board, outcome))
    }
}
