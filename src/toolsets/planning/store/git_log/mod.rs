// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Boards kept as logs of operations under the repository's refs
//! (`refs/planning/boards/{name}`), written with git's plumbing and shared
//! through the user's git remote (docs/sync.md).

pub mod codec;
pub mod git;
pub mod place;
pub mod settings;
pub mod store;
pub mod stored;
pub mod sync;

pub use store::GitLogStore;

#[cfg(test)]
mod tests;
