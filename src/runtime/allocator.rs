// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The allocator of the MCP servers: mimalloc, unless the crate is built
//! without its default feature `mimalloc`.
//!
//! A result of 2,000 tasks is some 26,000 small blocks (the
//! `structuredContent` value rmcp requires), and glibc's `malloc` and `free`
//! of them took about half of such a `plan.get`; mimalloc takes a third of
//! that. Each server binary (and each bench of server calls) declares
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: allocator::Server = allocator::Server;
//! ```
//!
//! The `long-term-plan` CLI keeps the system allocator: it lives a few
//! milliseconds, and mimalloc's set-up costs it about 0.3 ms of start-up.

/// The allocator the servers install.
#[cfg(feature = "mimalloc")]
pub use mimalloc::MiMalloc as Server;
/// The allocator the servers install.
#[cfg(not(feature = "mimalloc"))]
pub use std::alloc::System as Server;
