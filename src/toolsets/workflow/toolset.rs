// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `workflow` as the server sees it: its registry entry and its
//! configured state, the one workflow directory every session shares.

use std::sync::Arc;

use super::cast::Caster;
use super::config::{EXAMPLE, FLAGS, WorkflowSettings};
use super::disk::pause::Pause;
use super::mcp::tools::WorkflowTools;
use crate::runtime::clock::Clock;
use crate::server::BoardName;
use crate::server::settings::{Flag, Settings};
use crate::server::skill::{Skill, docs_section};
use crate::server::toolset::{OpenError, Tools, Toolset, ToolsetKind};

/// What a model reads first when toolset `workflow` is on.
pub(crate) const INSTRUCTIONS: &str = "Spell workflow (.ai/task/): call accio, expecto, reparo, \
reverto, finite or lumos ONLY when the user types that spell (\"Accio: note\" passes note); \
never on words like \"continue\". Relay message_to_user, follow instructions_to_coding_agent \
exactly. More: skill://spell-workflow/SKILL.md";

/// Driving the spell workflow: the long form of [`INSTRUCTIONS`], a section
/// of docs/workflow.md.
pub(crate) static SKILL: Skill = Skill {
    name: "spell-workflow",
    description: "How to drive the spell workflow over .ai/task/: when to call a spell tool, \
what to do with its reply, and what each phase (plan, tasks, PR reviews) expects of you.",
    body: docs_section(include_str!("../../../docs/workflow.md")),
    source: "docs/workflow.md",
};

/// The registry entry of toolset `workflow`.
pub(crate) struct WorkflowKind;

/// The registry entry of toolset `workflow`.
pub(crate) static KIND: WorkflowKind = WorkflowKind;

impl ToolsetKind for WorkflowKind {
    fn name(&self) -> &'static str {
        "workflow"
    }

    fn about(&self) -> &'static str {
        "the spell workflow over .ai/task"
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn skill(&self) -> Option<&'static Skill> {
        Some(&SKILL)
    }

    fn tables(&self) -> &'static [&'static str] {
        &["workflow"]
    }

    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let settings = WorkflowSettings::read(settings)?;
        let cwd = std::env::current_dir().unwrap_or_default();
        let workflow =
            Caster::new(settings.setup(&cwd), Clock::system()).with_pause(Pause::from_env());
        Ok(Arc::new(Workflow {
            workflow: Arc::new(workflow),
        }))
    }
}

/// Toolset `workflow`, configured: one workflow directory, the same on
/// every board.
#[derive(Debug)]
pub(crate) struct Workflow {
    workflow: Arc<Caster>,
}

impl Toolset for Workflow {
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    fn open(&self, _board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        Ok(Arc::new(WorkflowTools::new(self.workflow.clone())))
    }
}
