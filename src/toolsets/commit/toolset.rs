// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit` as the server sees it: its registry entry and its
//! configured state (the settings and the repository locks).

use std::any::Any;
use std::sync::Arc;

use super::config::{CommitSettings, EXAMPLE};
use super::mcp::CommitTools;
use super::mcp::call::Planner;
use crate::server::BoardName;
use crate::server::settings::Settings;
use crate::server::toolset::{OpenError, Tools, Toolset, ToolsetKind};

/// What a model reads first when toolset `commit` is on.
pub(crate) const INSTRUCTIONS: &str = "The commit planner keeps the plan in the commit description (jj @, or git \
refs/commit-plan/<branch>). Call gather_requirements first and follow its Next line. Use \
mark_task only for work really done and finish_job only when all is done. A reply starting \
CRITICAL: stop all work and tell the user.";

/// The registry entry of toolset `commit`.
pub(crate) struct CommitKind;

/// The registry entry of toolset `commit`.
pub(crate) static KIND: CommitKind = CommitKind;

impl ToolsetKind for CommitKind {
    fn name(&self) -> &'static str {
        "commit"
    }

    fn about(&self) -> &'static str {
        "the plan in the commit description, jj or git"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["commit"]
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let settings = CommitSettings::read(settings)?;
        Ok(Arc::new(Commit {
            tools: CommitTools::new(Arc::new(Planner::new(settings))),
        }))
    }
}

/// Toolset `commit`, configured. The same on every board: the plan belongs
/// to the repository.
#[derive(Debug)]
pub(crate) struct Commit {
    tools: CommitTools,
}

impl Toolset for Commit {
    fn name(&self) -> &'static str {
        KIND.name()
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn open(&self, _board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        Ok(Arc::new(self.tools.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instructions_fit_350_characters() {
        assert!(
            INSTRUCTIONS.chars().count() <= 350,
            "{}",
            INSTRUCTIONS.chars().count()
        );
    }
}
