// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The table of toolset `team`: `[team]`, the leases of claims.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::domain::{EvidenceRule, LeasePolicy, ReviewRule};
use super::mcp::Rules;
use crate::server::settings::Settings;

/// The part of the example config file that belongs to toolset `team`.
pub(crate) const EXAMPLE: &str = r#"
[team]
# The lease of a claim that names none, in minutes: when it ends without a
# renewal, the task is free again (recorded in the history).
lease_minutes = 15
# The longest lease a claim may ask for, in minutes (at most 1440, a day).
max_lease_minutes = 120
# Refuse release_task as completed without evidence (a command with its
# exit code, a commit, a URL or a note). Off: such a completion is accepted,
# and the agent that made it may add the evidence later.
require_evidence = false
# Park an agent's release_task as completed as "awaiting review" until a
# person approves it (then it is completed) or rejects it with a reason
# (then it is pending again): planning-mcp-server board review, or the web
# board. No MCP tool completes such a task (docs/review.md).
require_review = false
# The longest wait_for, in seconds (1 to 60): its default timeout and the
# most a call may ask for.
max_wait_seconds = 60
"#;

/// The longest `max_wait_seconds`.
pub(crate) const MAX_WAIT_LIMIT: u64 = 60;

/// The longest `max_lease_minutes`: a day.
const MAX_LEASE_LIMIT: i64 = 24 * 60;

/// `[team]`: the leases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct TeamSettings {
    /// The default lease, in minutes.
    pub(crate) lease_minutes: i64,
    /// The longest lease, in minutes.
    pub(crate) max_lease_minutes: i64,
    /// Whether a completion must carry evidence.
    pub(crate) require_evidence: bool,
    /// Whether a completion waits for a person's review.
    pub(crate) require_review: bool,
    /// The longest `wait_for`, in seconds.
    pub(crate) max_wait_seconds: u64,
}

impl Default for TeamSettings {
    fn default() -> Self {
        let policy = LeasePolicy::default();
        Self {
            lease_minutes: policy.default_minutes,
            max_lease_minutes: policy.max_minutes,
            require_evidence: false,
            require_review: false,
            max_wait_seconds: MAX_WAIT_LIMIT,
        }
    }
}

impl TeamSettings {
    /// Reads `[team]` and checks what types cannot.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let team = settings.table::<Self>("team")?;
        let mut problems = Vec::new();
        settings.require(
            &mut problems,
            (1..=MAX_LEASE_LIMIT).contains(&team.max_lease_minutes),
            "team.max_lease_minutes",
            "must be 1 to 1440 (minutes)",
        );
        settings.require(
            &mut problems,
            (1..=team.max_lease_minutes).contains(&team.lease_minutes),
            "team.lease_minutes",
            "must be at least 1 and at most team.max_lease_minutes",
        );
        settings.require(
            &mut problems,
            (1..=MAX_WAIT_LIMIT).contains(&team.max_wait_seconds),
            "team.max_wait_seconds",
            "must be 1 to 60 (seconds)",
        );
        match problems.is_empty() {
            true => Ok(team),
            false => Err(problems),
        }
    }

    /// Whether a completion must carry evidence.
    pub(crate) fn evidence_rule(&self) -> EvidenceRule {
        match self.require_evidence {
            true => EvidenceRule::Required,
            false => EvidenceRule::Optional,
        }
    }

    /// How the team's tools work on a board.
    pub(crate) fn rules(&self) -> Rules {
        Rules {
            policy: self.policy(),
            evidence: self.evidence_rule(),
            review: match self.require_review {
                true => ReviewRule::Required,
                false => ReviewRule::Off,
            },
            max_wait: Duration::from_secs(self.max_wait_seconds),
        }
    }

    /// The lease policy these settings set.
    pub(crate) fn policy(&self) -> LeasePolicy {
        LeasePolicy {
            default_minutes: self.lease_minutes,
            max_minutes: self.max_lease_minutes,
        }
    }
}
