// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `planning` as the server sees it: its registry entry and its
//! configured state, the server's boards, with its faces: the tools on a
//! board and, in HTTP mode, the web board.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::config::{BoardSettings, EXAMPLE, FLAGS, Replies};
use super::coordination::person::PersonDesk;
use super::coordination::plan::Planner;
use super::mcp::PlanningTools;
use super::mcp::skipped::SkippedLog;
use super::named_boards::Boards;
use super::sync_cli::{SYNC, background_syncs};
use super::web::{self, Web};
use crate::server::BoardName;
use crate::server::command::CliCommand;
use crate::server::routes::{HttpContext, Routes};
use crate::server::settings::{Flag, Settings};
use crate::server::skill::{Skill, docs_section};
use crate::server::toolset::{BackgroundTask, OpenError, Tools, Toolset, ToolsetKind};

/// What a model reads first: how to use the board.
pub(crate) const INSTRUCTIONS: &str = "A planning board: one goal and tasks with statuses. Keep it \
true: update_task_statuses to in_progress when you start a task, completed as soon as it is \
done, failed if it cannot be done (then ask the operator). change_goal and delete_tasks only \
when the operator asks. Start with set_goal, then add_tasks. After a context reset, read \
board://{name}/summary. More: skill://planning-board/SKILL.md";

/// How to use the board well: the long form of [`INSTRUCTIONS`], a section
/// of docs/planning.md.
pub(crate) static SKILL: Skill = Skill {
    name: "planning-board",
    description: "How to keep a planning board true while you work: the goal, small tasks, \
statuses as you go, what only the operator may ask for, and where to look after a context reset.",
    body: docs_section(include_str!("../../../docs/planning.md")),
    source: "docs/planning.md",
};

/// The registry entry of toolset `planning`.
pub(crate) struct PlanningKind;

/// The registry entry of toolset `planning`.
pub(crate) static KIND: PlanningKind = PlanningKind;

impl ToolsetKind for PlanningKind {
    fn name(&self) -> &'static str {
        "planning"
    }

    fn about(&self) -> &'static str {
        "the board"
    }

    fn instructions(&self) -> &'static str {
        INSTRUCTIONS
    }

    fn skill(&self) -> Option<&'static Skill> {
        Some(&SKILL)
    }

    fn instructions_budget(&self) -> usize {
        400
    }

    fn tables(&self) -> &'static [&'static str] {
        &["planning", "storage", "sync"]
    }

    fn flags(&self) -> &'static [Flag] {
        FLAGS
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn commands(&self) -> &'static [CliCommand] {
        #[cfg(feature = "postgres")]
        return &[SYNC, super::cli::IMPORT, super::cli::EXPORT];
        #[cfg(not(feature = "postgres"))]
        return &[SYNC];
    }

    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>> {
        let settings = BoardSettings::read(settings)?;
        Ok(Arc::new(Planning {
            replies: settings.planning.replies,
            boards: Arc::new(Boards::new(settings)),
            skipped: Arc::default(),
            planner: OnceLock::new(),
            desk: OnceLock::new(),
        }))
    }
}

/// Toolset `planning`, configured: the server's boards, each opened on
/// first use, how their changes reply, the log of skipped duplicates, and
/// the planner a toolset on top gave `add_tasks`, if any.
#[derive(Debug)]
pub(crate) struct Planning {
    boards: Arc<Boards>,
    replies: Replies,
    skipped: Arc<SkippedLog>,
    planner: OnceLock<Arc<dyn Planner>>,
    desk: OnceLock<Arc<dyn PersonDesk>>,
}

impl Planning {
    /// The server's boards.
    pub(crate) fn boards(&self) -> &Arc<Boards> {
        &self.boards
    }

    /// Lets `add_tasks` take links and touches, decided by `planner`: what
    /// an enabled toolset on top (team) calls while it is configured,
    /// before any board is opened. The first planner given stays.
    pub(crate) fn plan_with(&self, planner: Arc<dyn Planner>) {
        let _ = self.planner.set(planner);
    }

    /// Gives a person's channels (the web board's writes) the desk where
    /// they approve, reject and leave notes: what toolset team calls while
    /// it is configured. The first desk given stays.
    pub(crate) fn desk_with(&self, desk: Arc<dyn PersonDesk>) {
        let _ = self.desk.set(desk);
    }

    /// The person's desk, when a toolset on top (team) gave one: where the
    /// web board approves or rejects a review and leaves a note.
    pub(crate) fn person_desk(&self) -> Option<Arc<dyn PersonDesk>> {
        self.desk.get().cloned()
    }
}

impl Toolset for Planning {
    fn kind(&self) -> &'static dyn ToolsetKind {
        &KIND
    }

    fn open(&self, board: &BoardName) -> Result<Arc<dyn Tools>, OpenError> {
        let shared = self.boards.for_tools(board)?;
        Ok(Arc::new(PlanningTools::new(
            board.clone(),
            shared,
            self.replies,
            self.skipped.clone(),
            self.planner.get().cloned(),
        )))
    }

    /// With boards kept in git and `[sync] interval` set: their syncs.
    fn background(&self) -> Option<BackgroundTask> {
        background_syncs(self.boards.settings())
    }

    /// The directory, repository or database of its boards.
    fn storage(&self) -> Option<String> {
        let settings = self.boards.settings();
        if settings.storage.backend == super::config::Backend::Memory {
            // Only the repository's own refs: no network at start-up.
            let timeout = std::time::Duration::from_secs(settings.sync.git_timeout);
            let found = super::store::repository_dir(&settings.storage)
                .ok()
                .and_then(|dir| super::store::git_log::detect::boards_in_git(&dir, None, timeout));
            if let Some(found) = found {
                tracing::warn!(
                    "boards are kept in memory, not read from git: {}",
                    super::store::git_log::detect::advice(&found)
                );
            }
        }
        Some(super::store::where_boards_live(&settings.storage))
    }

    /// Whether its boards' store answers (a database: a query through the pool).
    fn reachable(&self, limit: Duration) -> Result<(), String> {
        self.boards.reachable(limit)
    }

    /// The web board, announced as `board: <url>/` at start-up.
    fn routes(&self, http: &HttpContext) -> Option<Routes> {
        let web = Web::new(
            self.boards.clone(),
            self.person_desk(),
            http.max_streams,
            http.closed.clone(),
        );
        Some(Routes::new(web::routes(web)).with_page("board", "/"))
    }
}
