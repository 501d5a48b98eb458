// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `team` on one board: its tools (`tools`;
//! `wait_for`'s long poll is [`super::waiter`]) and the digest resource
//! (`board://{name}/digest`), offered through [`TeamTools`].

mod notes_told;
pub(crate) mod tools;

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, ReadResourceResult, Resource, ResourceContents, Tool};
use rmcp::service::{RequestContext, RoleServer};
use tokio::sync::watch;

use super::domain::{EvidenceRule, LeasePolicy, ReviewRule, View, digest_at};
use super::waiter::Waiters;
use crate::runtime::clock::Clock;
use crate::server::BoardName;
use crate::server::routed_tools::RoutedTools;
use crate::server::toolset::{ToolFuture, Tools};
use crate::toolsets::planning::mcp::notices;
use crate::toolsets::planning::shared_board::SharedBoard;

/// The team's tools and the digest on one board.
#[derive(Clone)]
pub(crate) struct TeamTools {
    name: BoardName,
    board: SharedBoard,
    policy: LeasePolicy,
    evidence: EvidenceRule,
    review: ReviewRule,
    clock: Clock,
    /// `wait_for`'s waiters (what they share: one per board endpoint).
    waiters: Waiters,
}

/// How a board's team tools behave: the `[team]` settings they use.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// Leases.
    pub(crate) policy: LeasePolicy,
    /// Whether completions need evidence.
    pub(crate) evidence: EvidenceRule,
    /// Whether completions wait for a person's review.
    pub(crate) review: ReviewRule,
    /// The longest `wait_for`.
    pub(crate) max_wait: Duration,
}

impl TeamTools {
    /// The face of board `name`, working as `rules` say, times by `clock`.
    pub(crate) fn new(name: BoardName, board: SharedBoard, rules: Rules, clock: Clock) -> Self {
        let waiters = Waiters::new(name.to_string(), board.clone(), clock, rules.max_wait);
        Self {
            name,
            board,
            policy: rules.policy,
            evidence: rules.evidence,
            review: rules.review,
            clock,
            waiters,
        }
    }

    /// The URI of the board's digest.
    fn digest_uri(&self) -> String {
        format!("board://{}/digest", self.name)
    }
}

/// The team's tools.
static TOOLS: RoutedTools<TeamTools> = RoutedTools::new(TeamTools::tool_router);

impl Tools for TeamTools {
    fn tools(&self) -> Vec<Tool> {
        TOOLS.list()
    }

    fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        let agent = notices::agent_of(&request);
        let call = TOOLS.call(self, request, context)?;
        let call = notes_told::carried(call, self.board.clone(), self.clock, agent.clone());
        Some(notices::told(call, self.board.clone(), agent))
    }

    fn resources(&self) -> Vec<Resource> {
        vec![
            Resource::new(self.digest_uri(), format!("board {} digest", self.name))
                .with_title(format!("Team digest of board {}", self.name))
                .with_description(
                    "Goal, counts, claimed tasks with holders, the next ready tasks and what \
                     is blocked; at most 1,500 characters. Re-read it after a context reset.",
                )
                .with_mime_type("text/markdown"),
        ]
    }

    fn read_resource(&self, uri: &str) -> Option<Result<ReadResourceResult, ErrorData>> {
        if uri != self.digest_uri() {
            return None;
        }
        let revision = self.board.revision();
        let text = self.board.read(|board| {
            let now = self.board.now(self.clock);
            let set_aside = self.board.set_aside();
            let view = View::new(board, now).with_set_aside(&set_aside);
            digest_at(self.name.as_str(), view, revision)
        });
        Some(
            text.map(|text| {
                ReadResourceResult::new(vec![
                    ResourceContents::text(text, uri).with_mime_type("text/markdown"),
                ])
            })
            .map_err(|error| ErrorData::internal_error(error.to_string(), None)),
        )
    }

    fn watch(&self, uri: &str) -> Option<watch::Receiver<u64>> {
        (uri == self.digest_uri()).then(|| self.board.watch())
    }
}
