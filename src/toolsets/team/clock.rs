// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The clock leases are measured by: the system clock, shifted by a number
//! of seconds that only tests set (`PLANNING_TEST_CLOCK_OFFSET`), so that
//! an end-to-end test can see a lease end without waiting for it.

use std::time::{Duration, SystemTime};

/// The variable that shifts the clock, in whole seconds (may be negative).
/// For tests only: a server started with it misjudges every lease.
pub const OFFSET_VARIABLE: &str = "PLANNING_TEST_CLOCK_OFFSET";

/// The system clock, shifted by a fixed number of seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    offset_seconds: i64,
}

impl Clock {
    /// The clock shifted as [`OFFSET_VARIABLE`] says (not shifted when it
    /// is unset), or what is wrong with its value.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(OFFSET_VARIABLE) {
            Err(std::env::VarError::NotPresent) => Ok(Self::default()),
            Ok(text) => text
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|seconds| seconds.unsigned_abs() <= 10 * 365 * 24 * 3600)
                .map(|offset_seconds| Self { offset_seconds })
                .ok_or_else(|| bad(&text)),
            Err(std::env::VarError::NotUnicode(text)) => Err(bad(&text.to_string_lossy())),
        }
    }

    /// The time now, as this clock tells it.
    pub fn now(&self) -> SystemTime {
        let shift = Duration::from_secs(self.offset_seconds.unsigned_abs());
        let now = SystemTime::now();
        let shifted = match self.offset_seconds >= 0 {
            true => now.checked_add(shift),
            false => now.checked_sub(shift),
        };
        shifted.unwrap_or(now)
    }
}

fn bad(text: &str) -> String {
    format!(
        "{OFFSET_VARIABLE} (a test-only setting) is '{}': it must be a whole number of seconds \
         within ten years; unset it outside tests",
        crate::runtime::text::clip(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_shifts_the_clock() {
        let ahead = Clock {
            offset_seconds: 3600,
        };
        let behind = Clock {
            offset_seconds: -3600,
        };
        let real = SystemTime::now();
        assert!(ahead.now() >= real + Duration::from_secs(3600));
        assert!(behind.now() < real);
    }
}
