// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where random bytes come from. What makes random names (plans' task ids)
//! is handed an [`Entropy`], as a domain is handed a clock: the server
//! gives [`SystemEntropy`], tests a fixed one.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::clock::Clock;

/// A source of random bytes.
pub(crate) trait Entropy: Debug + Send + Sync {
    /// Fills `bytes` with as much randomness as this source has.
    fn fill(&self, bytes: &mut [u8; 16]);
}

/// The system's randomness; when it has none (practically never), the
/// time by its clock, a counter and the process's id, still unique within
/// this process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SystemEntropy {
    clock: Clock,
}

impl SystemEntropy {
    /// The system's randomness, falling back on `clock`.
    pub(crate) const fn new(clock: Clock) -> Self {
        Self { clock }
    }
}

impl Entropy for SystemEntropy {
    fn fill(&self, bytes: &mut [u8; 16]) {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        if getrandom::fill(bytes).is_err() {
            let count = COUNTER.fetch_add(1, Ordering::Relaxed);
            *bytes = fallback(self.clock.now(), count, std::process::id());
        }
    }
}

/// 16 bytes from the time, a counter and the process's id: distinct for
/// each count at one instant, and for each instant.
fn fallback(now: SystemTime, count: u64, process: u32) -> [u8; 16] {
    let nanos = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mixed = nanos ^ (u128::from(count) << 64) ^ u128::from(process);
    mixed.to_le_bytes()
}

/// Bytes counting up from a seed, one more on each fill (tests).
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct Counting(pub(crate) AtomicU64);

#[cfg(test)]
impl Entropy for Counting {
    fn fill(&self, bytes: &mut [u8; 16]) {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        *bytes = u128::from(n).to_be_bytes();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_fallback_depends_on_the_time_and_the_count_only() {
        let at = UNIX_EPOCH + Duration::from_nanos(0x0102);
        assert_eq!(
            fallback(at, 1, 3),
            [0x01, 0x01, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(fallback(at, 1, 3), fallback(at, 1, 3));
        assert_ne!(fallback(at, 1, 3), fallback(at, 2, 3));
        let later = at + Duration::from_nanos(1);
        assert_ne!(fallback(at, 1, 3), fallback(later, 1, 3));
        let mut bytes = [0; 16];
        SystemEntropy::new(Clock::fixed(at)).fill(&mut bytes);
        let mut more = [0; 16];
        SystemEntropy::new(Clock::fixed(at)).fill(&mut more);
        assert_ne!(bytes, more, "random");
    }
}
