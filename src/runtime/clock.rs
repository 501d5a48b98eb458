// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The one clock. A toolset holds a [`Clock`] and hands the time (or the
//! clock) to its domain, which never reads the system clock itself: tests
//! fix the time ([`Clock::fixed`]), and end-to-end tests shift it by a
//! number of seconds ([`OFFSET_VARIABLE`], read where a toolset asks for
//! it with [`Clock::from_env`]) to see a lease end without waiting for it.

use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, Utc};

/// The variable that shifts the clock, in whole seconds (may be negative).
/// For tests only: a server started with it misjudges every lease.
pub(crate) const OFFSET_VARIABLE: &str = "PLANNING_TEST_CLOCK_OFFSET";

/// Where the time comes from. Cheap to copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    source: Source,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The system clock, shifted by this many seconds.
    System { offset_seconds: i64 },
    /// Always this time (tests, and the replay of a board's git log, which
    /// applies each operation at the time it was made).
    Fixed(SystemTime),
    /// Another machine's clock, as read at `read`: that time plus what
    /// elapsed since on this machine's monotonic clock (a board's store
    /// that keeps one clock for every replica, e.g. PostgreSQL's `now()`).
    // Only the postgres backend reads another machine's clock.
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Anchored { at: SystemTime, read: Instant },
}

impl Default for Source {
    fn default() -> Self {
        Source::System { offset_seconds: 0 }
    }
}

impl Clock {
    /// The system clock.
    pub const fn system() -> Self {
        Self {
            source: Source::System { offset_seconds: 0 },
        }
    }

    /// A clock that always says `at` (tests, and the replay of a git log).
    pub(crate) fn fixed(at: impl Into<SystemTime>) -> Self {
        Self {
            source: Source::Fixed(at.into()),
        }
    }

    /// A clock that said `at` just now (another machine's clock, read a
    /// moment ago) and goes on from there at this machine's pace; never
    /// shifted by [`OFFSET_VARIABLE`], which is this machine's own.
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    pub(crate) fn anchored(at: SystemTime) -> Self {
        Self {
            source: Source::Anchored {
                at,
                read: Instant::now(),
            },
        }
    }

    /// This clock, or, while it is behind, one that read `at` at instant
    /// `read` and goes on from there (a fixed clock stays at `at`): a
    /// board in git times its changes no earlier than the newest operation
    /// it has read, and from then on (docs/sync.md, "Leases and clocks").
    pub(crate) fn at_least(self, at: SystemTime, read: Instant) -> Self {
        let lifted = match self.source {
            Source::Fixed(_) => Self::fixed(at),
            Source::System { .. } | Source::Anchored { .. } => Self {
                source: Source::Anchored { at, read },
            },
        };
        match self.now() >= lifted.now() {
            true => self,
            false => lifted,
        }
    }

    /// The system clock shifted as [`OFFSET_VARIABLE`] says (not shifted
    /// when it is unset), or what is wrong with its value.
    pub(crate) fn from_env() -> Result<Self, String> {
        let offset_seconds = match std::env::var(OFFSET_VARIABLE) {
            Err(std::env::VarError::NotPresent) => 0,
            Ok(text) => text
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|seconds| seconds.unsigned_abs() <= 10 * 365 * 24 * 3600)
                .ok_or_else(|| bad(&text))?,
            Err(std::env::VarError::NotUnicode(text)) => return Err(bad(&text.to_string_lossy())),
        };
        Ok(Self {
            source: Source::System { offset_seconds },
        })
    }

    /// The time now, as this clock tells it.
    pub(crate) fn now(&self) -> SystemTime {
        match self.source {
            Source::Fixed(at) => at,
            Source::Anchored { at, read } => at.checked_add(read.elapsed()).unwrap_or(at),
            Source::System { offset_seconds } => {
                let now = SystemTime::now();
                let shift = Duration::from_secs(offset_seconds.unsigned_abs());
                let shifted = match offset_seconds >= 0 {
                    true => now.checked_add(shift),
                    false => now.checked_sub(shift),
                };
                shifted.unwrap_or(now)
            }
        }
    }

    /// [`Clock::now`] as a UTC date and time.
    pub(crate) fn now_utc(&self) -> DateTime<Utc> {
        DateTime::from(self.now())
    }
}

fn bad(text: &str) -> String {
    format!(
        "{OFFSET_VARIABLE} (a test-only setting) is '{}': it must be a whole number of seconds \
         within ten years; unset it outside tests",
        super::text::clip(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_at_least_a_time_is_lifted_to_it_only_while_behind() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let later = at + Duration::from_secs(60);
        let read = Instant::now();
        assert_eq!(Clock::fixed(at).at_least(later, read).now(), later);
        assert_eq!(Clock::fixed(later).at_least(at, read).now(), later);
        let far = SystemTime::now() + Duration::from_secs(3600);
        assert!(Clock::system().at_least(far, read).now() >= far);
        assert_eq!(Clock::system().at_least(at, read), Clock::system());
        // Read a while ago, it has gone on since.
        let earlier = read.checked_sub(Duration::from_secs(60)).unwrap();
        let moved = Clock::system().at_least(far, earlier).now();
        assert!(moved >= far + Duration::from_secs(60), "{moved:?}");
    }

    #[test]
    fn an_offset_shifts_the_system_clock_and_a_fixed_one_stands_still() {
        let ahead = Clock {
            source: Source::System {
                offset_seconds: 3600,
            },
        };
        let behind = Clock {
            source: Source::System {
                offset_seconds: -3600,
            },
        };
        let real = SystemTime::now();
        assert!(ahead.now() >= real + Duration::from_secs(3600));
        assert!(behind.now() < real);
        assert!(Clock::system().now() >= real);
        assert_eq!(Clock::default(), Clock::system());
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000);
        let fixed = Clock::fixed(at);
        assert_eq!((fixed.now(), fixed.now()), (at, at));
        assert_eq!(fixed.now_utc().to_rfc3339(), "2025-06-15T15:06:40+00:00");
        let utc: DateTime<Utc> = DateTime::from(at);
        assert_eq!(Clock::fixed(utc).now(), at);
    }

    #[test]
    fn an_anchored_clock_goes_on_from_the_time_it_was_given() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000);
        let anchored = Clock::anchored(at);
        let first = anchored.now();
        assert!(first >= at && first < at + Duration::from_secs(60));
        assert!(anchored.now() >= first, "it never goes back");
    }
}
