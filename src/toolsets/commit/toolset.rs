// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit` as the server sees it: its registry entry and its
//! configured state (the settings and the repository locks).

use std::sync::Arc;

use super::config::{CommitSettings, EXAMPLE};
use super::mcp::CommitTools;
use super::mcp::call::Planner;
use crate::server::BoardName;
use crate::server::settings::Settings;
use crate::server::skill::{Skill, docs_section};
use crate::server::toolset::{OpenError, Tools, Toolset, ToolsetKind};

/// What a model reads first when toolset `commit` is on.
pub(crate) const INSTRUCTIONS: &str = "The commit planner keeps the plan in the commit description (jj @, or git \
refs/commit-plan/<branch>). Call gather_requirements first and follow its Next line; \
mark_task only work really done. A reply starting CRITICAL: stop all work and tell the user. \
More: skill://commit-planner/SKILL.md";

/// The stages of a plan: the long form of [`INSTRUCTIONS`], a section of
/// docs/commit.md.
pub(crate) static SKILL: Skill = Skill {
    name: "commit-planner",
    description: "How to plan a change in its commit description: the stages from goal to \
finished job, following each reply's Next line, marking only work really done, and what a \
CRITICAL reply means.",
    body: docs_section(include_str!("../../../docs/commit.md")),
    source: "docs/commit.md",
};

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

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn skill(&self) -> Option<&'static Skill> {
        Some(&SKILL)
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
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    fn open(&self, _board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        Ok(Arc::new(self.tools.clone()))
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
