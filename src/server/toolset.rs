// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolset interface: all the server and the configuration know of a
//! toolset. Three steps, three traits:
//!
//! 1. [`ToolsetKind`], one line of the registry (`crate::toolsets::REGISTRY`):
//!    its name and what it offers, config tables, flags and example, its
//!    instructions' budget, its subcommands of `planning-mcp-server`
//!    ([`CliCommand`]), and how to configure it;
//! 2. [`Toolset`], configured once per process: its instructions and the
//!    skill they point to ([`Skill`]), process-wide state and HTTP routes
//!    ([`Routes`]);
//! 3. [`Tools`], opened once per endpoint (the board a session works on):
//!    its MCP tools and resources.

use std::any::Any;
use std::fmt::Debug;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, CallToolResponse, ReadResourceResult, Resource, Tool};
use rmcp::service::{RequestContext, RoleServer};
use tokio::sync::watch;

use super::BoardName;
use super::command::CliCommand;
use super::routes::{HttpContext, Routes};
use super::settings::{Flag, Settings};
use super::skill::Skill;

/// What a tool call answers, once it is done.
pub(crate) type ToolFuture =
    Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send>>;

/// Work a toolset runs for as long as the server runs.
pub(crate) type BackgroundTask = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The characters a toolset's instructions may take unless its registry
/// entry says otherwise (the registry's tests check that a sixth toolset
/// at this budget fits with every combination of the others).
pub(crate) const DEFAULT_INSTRUCTIONS_BUDGET: usize = 300;

/// A toolset the server can offer: one line of the registry.
pub(crate) trait ToolsetKind: Sync {
    /// Its name in `[server] toolsets` and `--toolsets`.
    fn name(&self) -> &'static str;

    /// What it offers, in a few words (the example config's list of
    /// toolsets), e.g. `Markdown plan files`.
    fn about(&self) -> &'static str;

    /// What a model reads first about it: what must not go wrong first.
    fn instructions(&self) -> &'static str;

    /// Its skill (the Skills extension): what an agent needs to know to
    /// use it well, more than its instructions hold, which then point to
    /// it (`skill://{name}/SKILL.md`). Its text is a section of the
    /// toolset's docs page. None by default.
    fn skill(&self) -> Option<&'static Skill> {
        None
    }

    /// The config tables it owns; `PLANNING_<TABLE>_<KEY>` reaches them too.
    /// A name is lowercase ASCII letters and digits, words joined by `_`,
    /// and never another table's name followed by `_` (the registry's tests
    /// check both), so that each variable names one table.
    fn tables(&self) -> &'static [&'static str];

    /// The most characters its instructions take ([`ToolsetKind::instructions`]).
    /// The budgets of every combination of the registry's toolsets fit the
    /// 2,048 characters a client shows (the registry's tests check each),
    /// and start-up refuses a combination whose instructions do not.
    #[allow(
        dead_code,
        reason = "a contract the registry's tests hold every toolset to; the server need not read it"
    )]
    fn instructions_budget(&self) -> usize {
        DEFAULT_INSTRUCTIONS_BUDGET
    }

    /// The toolsets it works on top of, by name: enabling it without them
    /// stops start-up, and its `configure` finds them configured (they come
    /// earlier in the registry) through `Settings::configured`. None by
    /// default.
    fn requires(&self) -> &'static [&'static str] {
        &[]
    }

    /// Its flags, each setting a key of its tables.
    fn flags(&self) -> &'static [Flag] {
        &[]
    }

    /// Its tables in the example config file, every key with its default
    /// and a comment.
    fn example(&self) -> &'static str;

    /// Its subcommands of `planning-mcp-server` (e.g. team's `summary`),
    /// offered whether the toolset is enabled or not; none by default.
    fn commands(&self) -> &'static [CliCommand] {
        &[]
    }

    /// Reads and checks its tables: the toolset ready to serve, or one line
    /// per wrong value. Runs for every registered toolset (a wrong value
    /// stops start-up even when the toolset is off) and does no I/O.
    fn configure(&self, settings: &Settings<'_>) -> Result<Arc<dyn Toolset>, Vec<String>>;
}

/// A configured toolset: one per process, shared by every endpoint. Its
/// name, instructions and skill are its registry entry's; it is its own
/// process-wide state ([`AsAny`]).
pub(crate) trait Toolset: AsAny + Send + Sync + Debug + 'static {
    /// Its registry entry.
    fn kind(&self) -> &'static dyn ToolsetKind;

    /// Its name in `[server] toolsets`.
    fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// What a model reads first about it ([`ToolsetKind::instructions`]).
    fn instructions(&self) -> &'static str {
        self.kind().instructions()
    }

    /// Its skill ([`ToolsetKind::skill`]).
    fn skill(&self) -> Option<&'static Skill> {
        self.kind().skill()
    }

    /// Whether its work recurses deeply (deep plans): the stdio server then
    /// runs on a thread with a large stack.
    fn needs_large_stack(&self) -> bool {
        false
    }

    /// Work to run for as long as the server runs (started by the
    /// transport, dropped at shutdown); none by default.
    fn background(&self) -> Option<BackgroundTask> {
        None
    }

    /// Where it keeps boards, for the start-up log (e.g.
    /// `file:/home/you/project/.planning-mcp-server`); none by default.
    fn storage(&self) -> Option<String> {
        None
    }

    /// Whether the store it serves from can be used now, answered within
    /// `limit`; blocking (the HTTP health check runs it on a blocking
    /// thread). The error says why, for the log only. Toolsets without a
    /// store of their own are always reachable.
    fn reachable(&self, _limit: Duration) -> Result<(), String> {
        Ok(())
    }

    /// Its tools and resources on board `board`; an HTTP endpoint opens
    /// them on first use (on a blocking thread), the stdio server at start-up.
    fn open(&self, board: &BoardName) -> Result<Arc<dyn Tools>, OpenError>;

    /// Its HTTP routes besides the MCP endpoints (e.g. toolset `planning`'s
    /// web board), built once when HTTP mode starts and served behind the
    /// same gate; none by default. Their paths must be no other toolset's.
    fn routes(&self, _http: &HttpContext) -> Option<Routes> {
        None
    }
}

/// A configured toolset as its process-wide state, for the toolsets that
/// work on top of it (they find it with `Settings::configured` or
/// `Enabled::state`); every toolset has it.
pub(crate) trait AsAny {
    /// Itself, to be downcast to its type.
    fn as_any(&self) -> &dyn Any;
}

// Only for toolsets: an `Arc<dyn Toolset>` is no `T` here, so calling
// `as_any` on one reaches the toolset inside, never the `Arc`.
impl<T: Toolset> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A toolset's MCP face on one board.
pub(crate) trait Tools: Send + Sync + 'static {
    /// Its tool definitions.
    fn tools(&self) -> Vec<Tool>;

    /// Calls tool `request.name`, or `None` if it is not one of its tools.
    /// The future must not block: work that waits for files or locks runs
    /// through `crate::runtime::blocking::run`.
    fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture>;

    /// Its resources; none by default.
    fn resources(&self) -> Vec<Resource> {
        Vec::new()
    }

    /// Reads resource `uri`, or `None` if it is not one of its resources.
    /// May block: the server calls it on a blocking thread.
    fn read_resource(&self, _uri: &str) -> Option<Result<ReadResourceResult, ErrorData>> {
        None
    }

    /// A receiver that wakes whenever resource `uri` changes, or `None` if
    /// it is not one of its resources. Needs a Tokio runtime.
    fn watch(&self, _uri: &str) -> Option<watch::Receiver<u64>> {
        None
    }
}

/// Why a toolset could not be opened on a board.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A cap is reached (e.g. `max_boards`): retry later or elsewhere.
    #[error("{0}")]
    Full(String),
    /// The board's state could not be opened (e.g. a corrupt snapshot).
    /// The message may be shown to clients: no absolute paths (log those).
    #[error("{0}")]
    Failed(String),
    /// The board's stored state is there but cannot be used (a corrupt or
    /// oversized database row), while its store answers: this board is
    /// refused until a person mends it, the other boards serve.
    #[error("{0}")]
    Unusable(String),
}
