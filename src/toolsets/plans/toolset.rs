// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `plans` as the server sees it: its registry entry and its
//! configured state (its MCP face on the plan files).

use std::sync::Arc;

use super::PlanFiles;
use super::mcp::PlansTools;
use crate::server::BoardName;
use crate::server::settings::{Flag, Settings};
use crate::server::toolset::{OpenError, Tools, Toolset, ToolsetKind};
use crate::toolsets::plans::config::{EXAMPLE, FLAGS, PlansSettings};

/// What a model reads first when toolset `plans` is on.
pub(crate) const INSTRUCTIONS: &str = "Markdown plan files (long-term-plan): pass the etag you read \
as ifMatch when you write, and re-read on CONFLICT. Each plan is <planId>.md in the plans \
directory; tasks are `- [ ]` todo, `- [*]` doing, `- [√]` done. Read with plan.list, plan.get \
and task.get (no taskId: the current task); change with task.add, task.update and \
task.delete; find with task.search.";

/// The registry entry of toolset `plans`.
pub(crate) struct PlansKind;

/// The registry entry of toolset `plans`.
pub(crate) static KIND: PlansKind = PlansKind;

impl ToolsetKind for PlansKind {
    fn name(&self) -> &'static str {
        "plans"
    }

    fn about(&self) -> &'static str {
        "Markdown plan files"
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn instructions_budget(&self) -> usize {
        370
    }

    fn tables(&self) -> &'static [&'static str] {
        &["plans"]
    }

    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let lock_timeout = settings.lock_timeout();
        let settings = PlansSettings::read(settings)?;
        let plans = PlanFiles::new(&settings.root, &settings.dir).with_lock_timeout(lock_timeout);
        Ok(Arc::new(Plans(PlansTools::new(
            Arc::new(plans),
            settings.legacy_doc_tools,
        ))))
    }
}

/// Toolset `plans`, configured: its MCP face, the same on every board
/// (plans do not belong to a board).
#[derive(Debug)]
pub(crate) struct Plans(PlansTools);

impl Toolset for Plans {
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    // A plan's task tree is as deep as its indentation (see `runtime::stack`).
    fn needs_large_stack(&self) -> bool {
        true
    }

    fn open(&self, _board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        Ok(Arc::new(self.0.clone()))
    }
}
