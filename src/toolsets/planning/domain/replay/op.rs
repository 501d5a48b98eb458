// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One operation of the log: an [`Action`] with where it stands in the
//! log's order. The order is a hybrid logical clock (microseconds of the
//! wall clock, pushed past every stamp the writer had seen), then the
//! replica that wrote it, then that replica's counter: a total order that
//! every clone computes alike from the operations alone, and that keeps
//! an operation after every operation its writer knew of.

use std::fmt;
use std::time::SystemTime;

use crate::toolsets::planning::domain::Action;

/// One writer of a board's log: a clone of the repository (every process
/// and worktree of one clone writes as the same replica). Shown as 16 hex
/// digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Replica(pub u64);

impl Replica {
    /// Parses 16 lowercase hex digits.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let well_formed =
            text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        well_formed
            .then(|| u64::from_str_radix(text, 16).ok())
            .flatten()
            .map(Self)
    }
}

impl fmt::Display for Replica {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Where an operation stands in the log's order, and its name: `stamp`
/// first (the hybrid logical clock, in microseconds), then the replica and
/// its counter as tie-breaks. `(replica, counter)` alone names it: a
/// replica numbers its operations 1, 2, 3, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpId {
    /// The hybrid logical clock: microseconds since the Unix epoch, or
    /// more when the writer had seen a later stamp.
    pub stamp: u64,
    /// Who wrote it.
    pub replica: Replica,
    /// The writer's number for it, from 1.
    pub counter: u64,
}

impl fmt::Display for OpId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.replica, self.counter)
    }
}

/// How a claim was made: a claim acknowledged only once the remote had it
/// (sync on, the push went through) is `Confirmed`; a claim made offline,
/// or with sync off, is `Provisional` until a sync settles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimMode {
    /// The remote had it before the agent was told.
    Confirmed,
    /// Made without the remote; settled at the next sync.
    Provisional,
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// Its place in the order, and its name.
    pub id: OpId,
    /// The board's time when it was made: its tasks' `created_at` and its
    /// history entries' time (microseconds: what a snapshot keeps).
    pub at: SystemTime,
    /// For an action that claims a task: how the claim was made.
    pub claim: Option<ClaimMode>,
    /// What it does.
    pub action: Action,
}

impl Op {
    /// The agent an operation speaks for, when it names one (toolset
    /// `team`'s claims, releases and evidence); `None` for the planning
    /// tools, which name no agent.
    pub(crate) fn agent(&self) -> Option<&str> {
        use crate::toolsets::planning::coordination::Edit;
        use crate::toolsets::planning::domain::Event;
        let Action::Edit(edits) = &self.action else {
            return None;
        };
        edits.iter().rev().find_map(|edit| match edit {
            Edit::Claim(_, Some(claim)) => Some(claim.holder.as_str()),
            Edit::Evidence(_, Some(evidence)) => Some(evidence.by.as_str()),
            Edit::CompletedBy(_, Some(agent)) => Some(agent.as_str()),
            Edit::Record(Event::ClaimEnded { holder, reason, .. })
                if *reason != crate::toolsets::planning::domain::ClaimEnd::Expired =>
            {
                Some(holder.as_str())
            }
            _ => None,
        })
    }
}

/// How far a log reaches for each replica: the highest counter it holds
/// (or a checkpoint covers). A replica's operations always travel as a
/// prefix (1 to n), so this says exactly which ones a checkpoint covers.
pub(crate) type Vector = std::collections::BTreeMap<Replica, u64>;
