// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `planning`'s subcommands: `import` and `export` move a board
//! between a snapshot file (the file backend's `{name}.json`, or any copy
//! of one) and the database of the `postgres` backend, byte for byte.

mod export;
mod import;

pub(crate) use export::EXPORT;
pub(crate) use import::IMPORT;

use crate::server::command::Configuration;
use crate::server::settings::Flag;
use crate::toolsets::planning::Planning;
use crate::toolsets::planning::config::Backend;
use crate::toolsets::planning::store::postgres::PostgresStore;

/// What `import` and `export` read of the configuration, and so their only
/// flags (besides `--config`): the board's name and where boards are kept.
pub(crate) const MOVE_KEYS: &[&str] = &["server.board", "storage."];

/// What their `--help` says of the flags of the keys they read.
fn flag_help(flag: &Flag) -> &str {
    match flag.key {
        "server.board" => "The board to move (default: default)",
        _ => flag.help,
    }
}

/// The configured board's store in the database, from the flags given.
fn database_board(configuration: &Configuration<'_>) -> Result<(String, PostgresStore), String> {
    let config = configuration.load()?;
    let Some(planning) = config.toolsets.state::<Planning>() else {
        return Err(
            "import and export move toolset planning's boards: enable it (server.toolsets)".into(),
        );
    };
    let settings = planning.boards().settings();
    if settings.storage.backend != Backend::Postgres {
        return Err(
            "import and export move a board between a file and the database of the postgres backend: pass --storage postgres and --storage-url URL (or set storage.backend and storage.url); a board of the file backend is a file already, {storage.dir}/{name}.json".into(),
        );
    }
    let name = config.board.to_string();
    let planning_settings = &settings.planning;
    let store = PostgresStore::open(
        &settings.storage,
        &name,
        planning_settings.limits(),
        planning_settings.history_enabled,
    )
    .map_err(|error| error.to_string())?;
    Ok((name, store))
}
