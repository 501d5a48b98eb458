// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The shared runtime under every toolset: the servers' allocators; its
//! vocabulary of one way each (blocking work off the async workers and
//! tracked for shutdown, the notice that shutdown began, the file lock, the
//! clock, the per-key mutexes);
//! child processes (killed with their groups), logging, the directories the
//! server makes for its own files, what the command-line programs print,
//! large stacks for deep plans, and small text helpers.

pub mod allocator;
pub mod blocking;
pub mod children;
pub mod clock;
pub mod file_lock;
pub mod keyed_mutex;
pub mod logging;
pub mod output;
pub mod own_dir;
pub mod regular_file;
pub mod stack;
pub mod stopping;
pub mod text;
