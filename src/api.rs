// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The library's public surface, and all of it: what the code outside the
//! library needs, each module saying who uses it. The library itself is
//! private by default (`pub(crate)`; `unreachable_pub` warns of a `pub` that
//! nothing outside reaches), so the compiler reports dead code; an item
//! becomes public only by a line here, for one of these consumers:
//!
//! - the binaries: `src/main.rs` (`planning-mcp-server`) and `src/bin/`
//!   (`long-term-plan`, `long-term-plan-mcp`);
//! - the benches (`benches/*.rs`);
//! - the fuzz targets (`fuzz/fuzz_targets/*.rs`, a crate of their own);
//! - the end-to-end tests (`tests/e2e/`), which otherwise talk to the real
//!   binaries only.
//!
//! The library's own modules keep their paths; this module re-exports what
//! the consumers use, flat, one module per area.

/// What `planning-mcp-server` (`src/main.rs`) loads and serves with.
pub mod config {
    pub use crate::config::{ConfigFlags, Loaded, Mode, generate, load, subcommand};
}

/// How the binaries serve: `planning-mcp-server` runs the configured
/// transport; `long-term-plan-mcp` answers JSON-RPC lines on stdio.
pub mod transport {
    pub use crate::transport::lines::Lines;
    pub use crate::transport::run;
}

/// The subcommands of `planning-mcp-server` (`src/main.rs`): the server's
/// own (`setup`, `doctor`), then those the toolsets bring.
pub mod subcommands {
    pub use crate::server::command::{CliCommand, Failure};

    /// Every subcommand of `planning-mcp-server`: the server's own
    /// (`setup`, `doctor`), then those the toolsets bring, in registry order.
    pub fn commands() -> impl Iterator<Item = &'static CliCommand> {
        crate::setup::COMMANDS
            .iter()
            .chain(crate::toolsets::commands())
    }
}

/// The names of the registered toolsets (`tests/e2e/budget.rs`).
pub mod toolsets {
    pub use crate::toolsets::names;
}

/// The allocators of the binaries and the benches (which measure on the
/// allocator of the code they run).
pub mod allocator {
    pub use crate::runtime::allocator::{LargeResults, Sessions, keep_freed_memory};
}

/// The binaries' output: a failed write is exit status 1, never a panic.
pub mod output {
    pub use crate::runtime::output::{clap_stop, eprint, print, print_or_fail, unwritten};
}

/// Large stacks for deep plans (the binaries).
pub mod stack {
    pub use crate::runtime::stack::{LARGE_STACK, run_with_large_stack};
}

/// Logging, as configured (`src/main.rs`).
pub mod logging {
    pub use crate::runtime::logging::init;
}

/// The clock handed to the domains (`benches/workflow.rs`).
pub mod clock {
    pub use crate::runtime::clock::Clock;
}

/// Toolset `planning`'s board, stores and web views: the benches
/// (`board`, `storage`, `team`, `e2e`) and the end-to-end tests (task ids,
/// boards written for a `summary`, the web board's golden pages).
pub mod planning {
    pub use crate::server::board_name::BoardName;
    pub use crate::toolsets::planning::coordination::data::{Claim, Edit};
    pub use crate::toolsets::planning::domain::board::{Board, Limits, NewTask};
    pub use crate::toolsets::planning::domain::history::{Entry, Event, Goal, History};
    pub use crate::toolsets::planning::domain::render::{Filter, task_list};
    pub use crate::toolsets::planning::domain::task::{Status, Task, TaskId};
    pub use crate::toolsets::planning::shared_board::SharedBoard;
    pub use crate::toolsets::planning::store::snapshot::to_json as snapshot_json;
    pub use crate::toolsets::planning::store::{
        SnapshotStore, file::FileStore, memory::MemoryStore,
    };

    /// The web board's views and pages (`tests/e2e/web.rs`, golden pages).
    pub mod web {
        pub use crate::toolsets::planning::web::index::{Row, Summary, index_page};
        pub use crate::toolsets::planning::web::page::board_page;
        pub use crate::toolsets::planning::web::view::{BoardView, Counts};
        pub use crate::toolsets::planning::web::writes::write_json;
    }
}

/// A board kept as a git log of operations (docs/sync.md): the log, its
/// replay, and the store with its sync settings (`benches/sync.rs`).
pub mod sync {
    pub use crate::toolsets::planning::domain::action::{Action, Done};
    pub use crate::toolsets::planning::domain::history::ClaimEnd;
    pub use crate::toolsets::planning::domain::replay::log::Log;
    pub use crate::toolsets::planning::domain::replay::op::{ClaimMode, Op, OpId, Replica};
    pub use crate::toolsets::planning::domain::replay::state::State;
    pub use crate::toolsets::planning::store::git_log::settings::SyncSettings;
    pub use crate::toolsets::planning::store::git_log::store::GitLogStore;
}

/// Toolset `plans`: the binaries `long-term-plan` (its CLI) and
/// `long-term-plan-mcp` (its stdio server), `benches/plans.rs`, the fuzz
/// target `plans` and the properties in `tests/e2e/plans_props.rs` (the
/// parser, the validator, the views and every edit).
pub mod plans {
    pub use crate::toolsets::plans::api::PlanFiles;
    pub use crate::toolsets::plans::cli::run as run_cli;
    pub use crate::toolsets::plans::document::parse::parse;
    pub use crate::toolsets::plans::document::search::search;
    pub use crate::toolsets::plans::document::validate::{first_error, validate};
    pub use crate::toolsets::plans::document::view::{Stats, View, plan_detail};
    pub use crate::toolsets::plans::edit::add::{NewTask, add_task_with_id};
    pub use crate::toolsets::plans::edit::body::{
        encode as encode_body, set_plan_body, set_task_body,
    };
    pub use crate::toolsets::plans::edit::lines::{delete, rename, set_plan_title, set_status};
    pub use crate::toolsets::plans::edit::repair::{Action, repair_with};
    pub use crate::toolsets::plans::edit::update::{
        PlanChanges, TaskChanges, one_by_one, plan_one_by_one, update_plan, update_task,
    };
    pub use crate::toolsets::plans::mcp::stdio::{NAME, PlansServer, VERSION, serve};
    pub use crate::toolsets::plans::mcp::tools::call;
    pub use crate::toolsets::plans::store::{DEFAULT_PLANS_DIR, resolve};
    pub use crate::toolsets::plans::syntax::status::Status;
    pub use crate::toolsets::plans::syntax::text::split_content_lines;
}

/// Toolset `team`'s domain and `wait_for`'s waiters (`benches/team.rs`).
pub mod team {
    pub use crate::toolsets::team::domain::claims::Target;
    pub use crate::toolsets::team::domain::claims::{claim, expiries, release};
    pub use crate::toolsets::team::domain::digest::digest;
    pub use crate::toolsets::team::domain::error::TeamError;
    pub use crate::toolsets::team::domain::evidence::EvidenceRule;
    pub use crate::toolsets::team::domain::links::link;
    pub use crate::toolsets::team::domain::review::ReviewRule;
    pub use crate::toolsets::team::domain::view::View;
    pub use crate::toolsets::team::domain::wave::{Stalled, wave};
    pub use crate::toolsets::team::waiter::{WaitRequest, Waiters};
}

/// Toolset `workflow`'s spells on one directory (`benches/workflow.rs`).
pub mod workflow {
    pub use crate::toolsets::workflow::cast::{Caster, Setup};
    pub use crate::toolsets::workflow::machine::spell::Spell;
    pub use crate::toolsets::workflow::machine::step::Limits;
}

/// Toolset `commit`: its document (`benches/commit.rs`, the fuzz target
/// `commit`) and its calls through a real jj or git (`benches/commit.rs`).
pub mod commit {
    pub use crate::toolsets::commit::config::CommitSettings;
    pub use crate::toolsets::commit::document::format::format;
    pub use crate::toolsets::commit::document::limits::Limits;
    pub use crate::toolsets::commit::document::migrate::migrate;
    pub use crate::toolsets::commit::document::read::{Reading, read};
    pub use crate::toolsets::commit::document::{CommitType, Document, Header, Task};
    pub use crate::toolsets::commit::edit::{GoalInput, TaskInput};
    pub use crate::toolsets::commit::mcp::call::{Call, Planner};
    pub use crate::toolsets::commit::vcs::locate::VcsChoice;
}
