// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Room for deep plans. A plan's task tree is as deep as its indentation,
//! and JSON serialisation and dropping of a tree recurse once per level
//! (in serde and in rmcp alike), so a plan nested a few thousand levels
//! deep would overflow a default stack and abort the process. The binaries
//! therefore do their work on threads with a large stack: it is only
//! reserved address space, and a tree deep enough to exhaust it needs a
//! file of many gigabytes (depth d takes at least d²/2 bytes of indentation).

/// The stack of the threads that serve and run commands: 256 MiB of address space.
pub const LARGE_STACK: usize = 256 << 20;

/// Runs `work` on a thread with [`LARGE_STACK`] and returns its result;
/// runs it right here if such a thread cannot be started.
pub fn run_with_large_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let mut work = Some(work);
    let spawned = std::thread::scope(|scope| {
        let job = &mut work;
        std::thread::Builder::new()
            .name("main-large-stack".into())
            .stack_size(LARGE_STACK)
            .spawn_scoped(scope, move || job.take().map(|w| w()))
            .ok()
            .map(|handle| handle.join())
    });
    match (spawned, work) {
        (Some(Ok(Some(result))), _) => result,
        (Some(Err(panic)), _) => std::panic::resume_unwind(panic),
        (_, Some(work)) => work(),
        // The thread took the work and returned nothing: it cannot happen.
        (_, None) => unreachable!("the work ran and returned"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_the_work_and_returns_its_result() {
        assert_eq!(run_with_large_stack(|| 6 * 7), 42);
        fn depth(n: u64) -> u64 {
            if n == 0 {
                0
            } else {
                1 + depth(n - 1) + std::hint::black_box(0)
            }
        }
        assert_eq!(run_with_large_stack(|| depth(200_000)), 200_000);
    }
}
