// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team` as the server sees it: its registry entry (it requires
//! toolset `planning`; it brings the `summary` and `check-touches`
//! subcommands) and its configured state: planning's boards, its rules and
//! the clock, with its faces: the tools on a board and, in HTTP mode, the
//! digest and reservations routes.

use std::sync::Arc;

use super::cli::{BOARD, CHECK_TOUCHES, STATUSLINE, SUMMARY};
use super::config::{EXAMPLE, TeamSettings};
use super::domain::plan::TeamPlanner;
use super::domain::{View, digest_at};
use super::mcp::{Rules, TeamTools};
use super::notify::{self, NotifySettings};
use super::people::TeamDesk;
use super::reserved::{self, Reservations};
use super::routes;
use crate::runtime::clock::Clock;
use crate::server::BoardName;
use crate::server::command::CliCommand;
use crate::server::routes::{HttpContext, Routes};
use crate::server::settings::Settings;
use crate::server::skill::{Skill, docs_section};
use crate::server::toolset::{BackgroundTask, OpenError, Tools, Toolset, ToolsetKind};
use crate::toolsets::planning::Planning;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::named_boards::Boards;

/// What a model reads first: what must not go wrong first.
pub(crate) const INSTRUCTIONS: &str = "Team work on this board: claim_task (your agent name, same in \
every call) before working on a task, work only on tasks you hold, claim again to renew. Finish \
with release_task: completed with evidence (command and exit_code, commit, url or note), failed \
or pending. Leads: dispatch_task; wait_for, never poll. The loop: skill://team-loop/SKILL.md";

/// The team loop: the long form of [`INSTRUCTIONS`], a section of docs/team.md.
pub(crate) static SKILL: Skill = Skill {
    name: "team-loop",
    description: "The claim, work, release-with-evidence loop for agents sharing a planning \
board: names, leases, the ready queue, links between tasks, evidence, what to read after a \
context reset; for a lead, dispatch records, touches and waves, and wait_for.",
    body: docs_section(include_str!("../../../docs/team.md")),
    source: "docs/team.md",
};

/// The registry entry of toolset `team`.
pub(crate) struct TeamKind;

/// The registry entry of toolset `team`.
pub(crate) static KIND: TeamKind = TeamKind;

impl ToolsetKind for TeamKind {
    fn name(&self) -> &'static str {
        "team"
    }

    fn about(&self) -> &'static str {
        "claims, dispatches, touches and evidence for agents sharing the boards"
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn skill(&self) -> Option<&'static Skill> {
        Some(&SKILL)
    }

    fn instructions_budget(&self) -> usize {
        350
    }

    fn tables(&self) -> &'static [&'static str] {
        &["team", "notify"]
    }

    fn requires(&self) -> &'static [&'static str] {
        &["planning"]
    }

    fn example(&self) -> &'static str {
        static BOTH: std::sync::LazyLock<String> =
            std::sync::LazyLock::new(|| format!("{EXAMPLE}{}", notify::EXAMPLE));
        &BOTH
    }

    fn commands(&self) -> &'static [CliCommand] {
        &[SUMMARY, CHECK_TOUCHES, BOARD, STATUSLINE]
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let team = TeamSettings::read(settings);
        let notify = NotifySettings::read(settings);
        let (team, notify) = match (team, notify) {
            (Ok(team), Ok(notify)) => (team, notify),
            (team, notify) => {
                let mut problems = team.err().unwrap_or_default();
                problems.extend(notify.err().unwrap_or_default());
                return Err(problems);
            }
        };
        let clock = Clock::from_env().map_err(|problem| vec![problem])?;
        let Some(planning) = settings.configured::<Planning>() else {
            return Err(vec![
                "toolset team works on toolset planning's boards, which are not configured".into(),
            ]);
        };
        // Enabled, team gives planning's add_tasks its links and touches.
        let rules = team.rules();
        if settings.offers(self.name()) {
            planning.plan_with(Arc::new(TeamPlanner {
                review: rules.review,
            }));
            planning.desk_with(Arc::new(TeamDesk { clock }));
        }
        Ok(Arc::new(Team {
            boards: planning.boards().clone(),
            rules,
            clock,
            notify: notify.map(Arc::new),
        }))
    }
}

/// Toolset `team`, configured (a cheap handle: planning's boards are shared).
#[derive(Debug, Clone)]
pub(crate) struct Team {
    boards: Arc<Boards>,
    rules: Rules,
    clock: Clock,
    /// `[notify]`, when it sends anything.
    notify: Option<Arc<NotifySettings>>,
}

impl Team {
    /// The boards it works on: toolset `planning`'s.
    pub(crate) fn boards(&self) -> &Arc<Boards> {
        &self.boards
    }

    /// The digest of board `name` as it is now, at `revision`, with what
    /// its store `set_aside` (see `domain::digest_at`).
    pub(crate) fn digest(
        &self,
        name: &BoardName,
        board: &Board,
        set_aside: &[SetAside],
        revision: u64,
    ) -> String {
        let view = View::new(board, self.clock.now()).with_set_aside(set_aside);
        digest_at(name.as_str(), view, revision)
    }

    /// The live reservations of `board` as they are now.
    pub(crate) fn reservations(&self, board: &Board) -> Reservations {
        reserved::of(View::new(board, self.clock.now()))
    }
}

impl Toolset for Team {
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    fn open(&self, board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        let shared = self.boards.for_tools(board)?;
        Ok(Arc::new(TeamTools::new(
            board.clone(),
            shared,
            self.rules,
            self.clock,
        )))
    }

    /// The notifier, when `[notify]` sends anything (docs/notify.md).
    fn background(&self) -> Option<BackgroundTask> {
        let settings = self.notify.as_deref()?.clone();
        Some(notify::notifier(settings, self.boards.clone(), self.clock))
    }

    /// `GET /boards/{name}/digest` and `GET /boards/{name}/reservations`.
    fn routes(&self, _http: &HttpContext) -> Option<Routes> {
        Some(Routes::new(routes::routes(self.clone())))
    }
}
