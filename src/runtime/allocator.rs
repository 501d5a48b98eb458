// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The allocators of the server binaries, chosen per binary by what the
//! figures in `docs/performance.md` say.
//!
//! - [`Sessions`], for `planning-mcp-server`: a client starts it for every
//!   session, and mimalloc's set-up (its options read from the environment,
//!   fresh pages for every thread: about 0.3 ms) would put its cold start
//!   above 1.3 times that of the smallest rmcp server. The system allocator,
//!   unless the crate is built with feature `mimalloc-sessions`.
//! - [`LargeResults`], for `long-term-plan-mcp` (and the benches of server
//!   calls): a 2,000-task `plan.get` is some 26,000 small blocks (the
//!   `structuredContent` value rmcp requires) next to a reply of almost a
//!   megabyte, and mimalloc serves it in under 1 ms. mimalloc, unless the
//!   crate is built without its default feature `mimalloc`.
//!
//! On the system allocator, [`keep_freed_memory`] removes most of the cost
//! of large results: glibc's `malloc` gave their memory back to the kernel
//! after each call and faulted it in again on the next. Each server binary
//! declares its allocator and calls [`keep_freed_memory`] first thing:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: allocator::Sessions = allocator::Sessions;
//! ```

/// The allocator of `planning-mcp-server`.
#[cfg(feature = "mimalloc-sessions")]
pub use mimalloc::MiMalloc as Sessions;
/// The allocator of `planning-mcp-server`.
#[cfg(not(feature = "mimalloc-sessions"))]
pub use std::alloc::System as Sessions;

/// The allocator of `long-term-plan-mcp` and of the benches of server calls.
#[cfg(feature = "mimalloc")]
pub use mimalloc::MiMalloc as LargeResults;
/// The allocator of `long-term-plan-mcp` and of the benches of server calls.
#[cfg(not(feature = "mimalloc"))]
pub use std::alloc::System as LargeResults;

/// The largest block glibc will serve from its heap, and half of what the
/// heap may keep free at its top, once [`keep_freed_memory`] ran: a reply
/// of a few megabytes and the values behind it stay in the heap.
pub(crate) const KEPT_BLOCK: usize = 8 << 20;

/// Lets glibc's `malloc` keep freed memory for the next call instead of
/// returning it to the kernel and faulting it in again.
///
/// Blocks over 128 KiB are mapped and unmapped, and the heap is trimmed
/// once 128 KiB are free at its top; but when a mapped block is freed,
/// glibc raises its mapping threshold to that block's size and its trim
/// threshold to twice that (its "dynamic mmap threshold", mallopt(3) under
/// `M_MMAP_THRESHOLD`), up to 32 MiB on 64-bit systems. Allocating and
/// freeing one untouched block of [`KEPT_BLOCK`] bytes does exactly that,
/// with no `unsafe` and no page touched. mimalloc and musl ignore it.
pub fn keep_freed_memory() {
    // `black_box` keeps the optimiser from removing the unused allocation.
    drop(std::hint::black_box(Vec::<u8>::with_capacity(KEPT_BLOCK)));
}
