// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The six spell tools: `accio`, `expecto`, `reparo`, `reverto`, `finite`
//! (each with an optional `note`) and `lumos`. A call runs on a blocking
//! thread (it locks and syncs files) and answers the reply's text, or an
//! `isError` result saying why nothing was done.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::runtime::blocking;
use crate::toolsets::workflow::cast::Caster;
use crate::toolsets::workflow::machine::spell::Spell;

/// Arguments of the spells that take a note.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct NoteParams {
    /// What the user typed after the spell ("Accio: <note>"), at most 500
    /// characters; recorded in the history.
    #[serde(default)]
    #[schemars(with = "String", length(max = 500))]
    pub(crate) note: Option<String>,
}

/// The spell tools on the server's workflow directory.
#[derive(Clone)]
pub(crate) struct WorkflowTools {
    workflow: Arc<Caster>,
}

impl WorkflowTools {
    /// The tools of `workflow`.
    pub(crate) fn new(workflow: Arc<Caster>) -> Self {
        Self { workflow }
    }

    /// Casts `spell` off the async workers, as blocking work that shutdown
    /// lets finish: a signal never cuts a spell between two of its files.
    async fn cast(&self, spell: Spell, note: Option<String>) -> CallToolResult {
        let workflow = self.workflow.clone();
        let cast = blocking::run(move || {
            // A panic (a bug) answers this call, as every other failure does.
            std::panic::catch_unwind(AssertUnwindSafe(|| workflow.cast(spell, note.as_deref())))
        })
        .await;
        match cast {
            Ok(Ok(reply)) => CallToolResult::success(vec![ContentBlock::text(reply)]),
            Ok(Err(error)) => {
                tracing::debug!(%error, spell = spell.name(), "spell refused");
                CallToolResult::error(vec![ContentBlock::text(error.to_string())])
            }
            Err(panic) => {
                let reason = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_owned());
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "the spell was interrupted ({reason}); type Lumos to see where the workflow is"
                ))])
            }
        }
    }
}

/// Said by every spell's description.
macro_rules! only_when_typed {
    ($spell:literal) => {
        concat!(
            " Call it only when the user types ",
            $spell,
            " (pass what follows \"",
            $spell,
            ":\" as note); never on words like \"continue\". Relay message_to_user and follow \
             instructions_to_coding_agent exactly."
        )
    };
}

#[tool_router(router = tool_router, vis = "pub(crate)")]
impl WorkflowTools {
    /// Accio: one step forward.
    #[tool(
        description = concat!("The user typed Accio: advance the spell workflow one step.", only_when_typed!("Accio")),
        annotations(title = "Accio", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    pub(crate) async fn accio(&self, Parameters(p): Parameters<NoteParams>) -> CallToolResult {
        self.cast(Spell::Accio, p.note).await
    }

    /// Expecto: hand the plan's new Atlassian links to the agent.
    #[tool(
        description = concat!("The user typed Expecto: hand the new Jira/Confluence links of plan.md to you to fetch (Gather phase only).", only_when_typed!("Expecto")),
        annotations(title = "Expecto", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    pub(crate) async fn expecto(&self, Parameters(p): Parameters<NoteParams>) -> CallToolResult {
        self.cast(Spell::Expecto, p.note).await
    }

    /// Reparo: start (or restart) a PR review.
    #[tool(
        description = concat!("The user typed Reparo: start (or restart) a PR review; a GitHub PR URL in note names the PR.", only_when_typed!("Reparo")),
        annotations(title = "Reparo", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    pub(crate) async fn reparo(&self, Parameters(p): Parameters<NoteParams>) -> CallToolResult {
        self.cast(Spell::Reparo, p.note).await
    }

    /// Reverto: leave the PR review.
    #[tool(
        description = concat!("The user typed Reverto: leave the PR review, back to where it started.", only_when_typed!("Reverto")),
        annotations(title = "Reverto", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    pub(crate) async fn reverto(&self, Parameters(p): Parameters<NoteParams>) -> CallToolResult {
        self.cast(Spell::Reverto, p.note).await
    }

    /// Finite: back to Gather Acceptance Criteria.
    #[tool(
        description = concat!("The user typed Finite: back to Gather Acceptance Criteria.", only_when_typed!("Finite")),
        annotations(title = "Finite", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    pub(crate) async fn finite(&self, Parameters(p): Parameters<NoteParams>) -> CallToolResult {
        self.cast(Spell::Finite, p.note).await
    }

    /// Lumos: where we are; changes nothing.
    #[tool(
        description = "The user typed Lumos: show where the spell workflow is and the spells valid now; changes nothing. Call it only when the user types Lumos, and relay message_to_user.",
        annotations(
            title = "Lumos",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn lumos(&self) -> CallToolResult {
        self.cast(Spell::Lumos, None).await
    }
}

// The six tools, as the toolset's `Tools`.
crate::server::routed_tools::routed_tools!(WorkflowTools);
