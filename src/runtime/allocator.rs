// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The allocator of the MCP servers: the system allocator, tuned by
//! [`keep_freed_memory`], or mimalloc when the crate is built with the
//! feature `mimalloc`.
//!
//! A result of 2,000 tasks is some 26,000 small blocks (the
//! `structuredContent` value rmcp requires) next to a reply of almost a
//! megabyte. glibc's `malloc` served such calls slowly only because it
//! gave the memory back after each one (blocks over 128 KiB are mapped and
//! unmapped, and the heap is trimmed once 128 KiB are free at its top) and
//! faulted it in again on the next call. [`keep_freed_memory`] raises both
//! limits at start-up, and the servers then answer such calls as fast as on
//! mimalloc, without mimalloc's start-up cost (about 0.3 ms: option parsing
//! and fresh pages for every thread), which every session pays: see
//! `docs/performance.md`. Each server binary (and each bench of server
//! calls) declares
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: allocator::Server = allocator::Server;
//! ```
//!
//! and calls [`keep_freed_memory`] first thing in `main`.

/// The allocator the servers install.
#[cfg(feature = "mimalloc")]
pub use mimalloc::MiMalloc as Server;
/// The allocator the servers install.
#[cfg(not(feature = "mimalloc"))]
pub use std::alloc::System as Server;

/// The largest block glibc will serve from its heap, and half of what the
/// heap may keep free at its top, once [`keep_freed_memory`] ran: a reply
/// of a few megabytes and the values behind it stay in the heap.
pub const KEPT_BLOCK: usize = 8 << 20;

/// Lets glibc's `malloc` keep freed memory for the next call instead of
/// returning it to the kernel and faulting it in again.
///
/// glibc raises its mapping threshold to the size of a mapped block when
/// that block is freed, and its trim threshold to twice that (its "dynamic
/// mmap threshold", documented in mallopt(3) under `M_MMAP_THRESHOLD`), up
/// to 32 MiB on 64-bit systems. Allocating and freeing one untouched block
/// of [`KEPT_BLOCK`] bytes does exactly that, with no `unsafe` and no page
/// touched. Other allocators (mimalloc, musl's) ignore it.
pub fn keep_freed_memory() {
    // `black_box` keeps the optimiser from removing the unused allocation.
    #[cfg(not(feature = "mimalloc"))]
    drop(std::hint::black_box(Vec::<u8>::with_capacity(KEPT_BLOCK)));
}
