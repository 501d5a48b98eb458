// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Boards kept as logs of operations under the repository's refs
//! (`refs/planning/boards/{name}`), written with git's plumbing and shared
//! through the user's git remote (docs/sync.md).

pub(crate) mod codec;
pub(crate) mod detect;
pub(crate) mod fetched;
pub(crate) mod git;
pub(crate) mod place;
pub(crate) mod settings;
pub(crate) mod store;
pub(crate) mod stored;
pub(crate) mod sync;

pub(crate) use store::GitLogStore;

#[cfg(test)]
mod replay_props;
#[cfg(test)]
mod tests;
