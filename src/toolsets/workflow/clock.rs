// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where a call's time comes from: the system's UTC clock, or a fixed one
//! in tests, so that stamps and history timestamps are deterministic.

use std::fmt::Debug;

use chrono::{DateTime, Utc};

/// A source of the current UTC time.
pub trait Clock: Send + Sync + Debug {
    /// The time now.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that always says the same time.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub DateTime<Utc>);

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}
