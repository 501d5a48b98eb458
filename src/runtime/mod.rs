// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The shared runtime under every toolset: the servers' allocators; its
//! vocabulary of one way each (blocking work off the async workers and
//! tracked for shutdown, the notice that shutdown began, the file lock, the
//! clock, the per-key mutexes); child processes (run without a shell, with a
//! timeout and an output cap, killed with their groups: process.rs),
//! logging, the one whole-file write (temporary file, sync, rename,
//! directory sync: whole_file.rs), the directories the server makes for
//! its own files, what the command-line programs print,
//! large stacks for deep plans, and small text helpers.

pub(crate) mod allocator;
pub(crate) mod blocking;
pub(crate) mod children;
pub(crate) mod clock;
pub(crate) mod entropy;
pub(crate) mod file_lock;
pub(crate) mod keyed_mutex;
pub(crate) mod logging;
pub(crate) mod output;
pub(crate) mod own_dir;
pub(crate) mod process;
pub(crate) mod regular_file;
pub(crate) mod stack;
pub(crate) mod stopping;
pub(crate) mod text;
pub(crate) mod whole_file;
