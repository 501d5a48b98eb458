// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The VCS backends behind one small trait: jj (the description of `@`)
//! and git (the message of the commit at `refs/commit-plan/{branch}`),
//! driven through their CLIs (the runtime's [`process`] runner); where the repository is
//! ([`locate`]); the per-repository locks ([`locks`]); how a call fails
//! ([`failure`]).

pub(crate) mod failure;
pub(crate) mod git;
pub(crate) mod git_objects;
pub(crate) mod git_plan;
pub(crate) mod git_state;
pub(crate) mod jj;
pub(crate) mod locate;
pub(crate) mod locks;
/// The runner of every program the server drives (it lives in the runtime,
/// which toolset `planning`'s git log shares).
pub(crate) use crate::runtime::process;

use std::future::Future;

pub(crate) use failure::{CONFLICT, Failure};

use super::document::Limits;
use super::place::{Around, Place};

/// The plan as one call read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Snapshot {
    /// The description, as the VCS holds it (empty when none).
    pub(crate) text: String,
    /// Where it lives.
    pub(crate) place: Place,
    /// What a write replaces: jj, the commit the description was read
    /// from; git, the object `refs/commit-plan/{branch}` pointed at
    /// (`None`: no plan yet).
    pub(crate) base: Option<String>,
    /// git: `base` is a commit of the earlier layout, migrated by the next
    /// write.
    pub(crate) legacy: bool,
    /// git: what a write extends (the object format, `history/`); `None`
    /// for jj.
    pub(crate) history: Option<git_plan::History>,
    /// What the replies say about the repository around the plan.
    pub(crate) around: Around,
}

/// A VCS that holds the plan.
pub(crate) trait Vcs: Send + Sync {
    /// Reads the plan (`limits` tell a finished plan from an open one).
    fn read(&self, limits: &Limits) -> impl Future<Output = Result<Snapshot, Failure>> + Send;

    /// The files changed in the work of the plan `base` was read from, one
    /// line each, a path with a line break or a control character quoted.
    fn changes(&self, base: &Snapshot)
    -> impl Future<Output = Result<Vec<String>, Failure>> + Send;

    /// Writes `text` as the plan, unless it changed since `base` was read
    /// ([`Failure::Conflict`], nothing written); `tool` names the writer.
    fn write(
        &self,
        base: &Snapshot,
        text: &str,
        tool: &str,
    ) -> impl Future<Output = Result<(), Failure>> + Send;

    /// Starts a new plan with `text` (a header only), unless the plan
    /// changed since `base` was read; answers where the new plan lives.
    fn start_new(
        &self,
        base: &Snapshot,
        text: &str,
        tool: &str,
    ) -> impl Future<Output = Result<Place, Failure>> + Send;
}
