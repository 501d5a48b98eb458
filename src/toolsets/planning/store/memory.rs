// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `memory` backend: nothing is stored, as in the Go server.

use std::time::Instant;

use super::{SnapshotStore, StoreError, WriteLock};
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::domain::action::Done;

/// Keeps nothing: a board starts empty and is gone when the process ends.
#[derive(Debug, Default)]
pub struct MemoryStore;

impl SnapshotStore for MemoryStore {
    fn lock(&self, _until: Instant) -> Result<WriteLock<'_>, StoreError> {
        Ok(Box::new(()))
    }

    fn may_block(&self) -> bool {
        false
    }

    fn persistent(&self) -> bool {
        false
    }

    fn may_have_changed(&self) -> bool {
        false
    }

    fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
        Ok(None)
    }

    fn save(&self, _board: &Board, _change: &Done) -> Result<(), StoreError> {
        Ok(())
    }
}
