// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server`: CLI -> Config -> logging -> serve; or, with the
//! `summary` subcommand, the digest of a board (toolset `team`'s) for hooks.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use planning_mcp_server::config::{self, CommandFlags, ConfigFlags, Mode};
use planning_mcp_server::runtime::{allocator, logging, output, stack};
use planning_mcp_server::toolsets::team::cli::{self as team, Source, SummaryKeys};
use planning_mcp_server::transport as serve;

/// The name in front of every message.
const PROGRAM: &str = "planning-mcp-server";

#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

/// A planning board for AI coding agents over MCP: a goal and a task list
/// with statuses. Configuration: defaults < planning-mcp-server.toml <
/// PLANNING_* environment variables < these flags.
#[derive(Debug, Default, Parser)]
// The server's flags are not the subcommands' (each lists its own): given
// before a subcommand they are refused, not silently ignored.
#[command(
    name = "planning-mcp-server",
    version,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    config: ConfigFlags,
    /// Write the example config to ./planning-mcp-server.toml (never over an existing file) and exit
    #[arg(long)]
    generate_config: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the digest of a board (at most 1,500 characters: goal, counts,
    /// claimed tasks, the next ready tasks, what is blocked) from the stored
    /// board or a running HTTP server, e.g. for a SessionStart hook
    Summary(SummaryArgs),
}

#[derive(Debug, Args)]
struct SummaryArgs {
    #[command(flatten)]
    config: CommandFlags<SummaryKeys>,
    /// Ask the HTTP server at this URL (e.g. http://localhost:8080) instead
    /// of reading the stored board, waiting 5 s at most; its token comes from
    /// server.auth_token (PLANNING_SERVER_AUTH_TOKEN)
    #[arg(long, value_name = "URL")]
    url: Option<String>,
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    // Clients usually start the server without arguments, and building the
    // parser for every toolset's flags is a tenth of the start-up's own
    // work: without arguments the defaults are what it would return.
    let cli = if std::env::args_os().len() > 1 {
        match Cli::try_parse() {
            Ok(cli) => cli,
            // --help, --version, or a usage error.
            Err(stop) => return output::clap_stop(PROGRAM, &stop),
        }
    } else {
        Cli::default()
    };
    if let Some(Command::Summary(args)) = &cli.command {
        return summary(args);
    }
    if cli.generate_config {
        return match config::generate(Path::new(".")) {
            Ok(path) => output::print_or_fail(PROGRAM, &format!("wrote {}\n", path.display())),
            Err(error) => fail(&error),
        };
    }
    let loaded = match config::load(&cli.config) {
        Ok(loaded) => loaded,
        Err(error) => return fail(&error),
    };
    logging::init(&loaded.config.logging);
    // Deeply nested plans need deep stacks (see `stack`). In stdio mode the
    // work runs on this thread, so it moves to a large-stack one, but only
    // when a toolset says it needs one: the thread (and the malloc arena it
    // brings) cost the board's stdio start-up a third of a millisecond.
    // HTTP mode's workers get large stacks below.
    let deep_work_on_this_thread =
        loaded.config.server.mode == Mode::Stdio && loaded.config.toolsets.need_large_stack();
    if deep_work_on_this_thread {
        stack::run_with_large_stack(move || serve_with(loaded, true))
    } else {
        serve_with(loaded, false)
    }
}

fn serve_with(loaded: config::Loaded, deep_work: bool) -> ExitCode {
    // stdio serves one client: a single-threaded runtime starts faster and
    // is smaller. Its blocking threads, which run the tools, get large
    // stacks when the work is deep.
    let runtime = match loaded.config.server.mode {
        Mode::Stdio if deep_work => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_stack_size(stack::LARGE_STACK)
            .build(),
        Mode::Stdio => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Mode::Http => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_stack_size(stack::LARGE_STACK)
            .build(),
    };
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(error) => return fail(&error),
    };
    let served = runtime.block_on(serve::run(&loaded.config, loaded.file.as_deref()));
    // Do not wait for the thread that may still be blocked reading stdin.
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

/// Prints the digest of the configured board (`--board`).
fn summary(args: &SummaryArgs) -> ExitCode {
    let loaded = match config::load(args.config.config()) {
        Ok(loaded) => loaded,
        Err(error) => return fail(&error),
    };
    let config = &loaded.config;
    let name = &config.server.board;
    let source = match &args.url {
        Some(url) => Source::Server {
            url,
            token: config.server.auth_token.as_ref().map(|t| t.expose()),
        },
        None => Source::Stored,
    };
    match team::summary(&config.toolsets, name, source) {
        Ok(digest) => output::print_or_fail(PROGRAM, &format!("{digest}\n")),
        Err(error) => fail(&error),
    }
}

fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    output::eprint(&format!("{PROGRAM}: {error}\n"));
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `main` skips the parser when there are no arguments: that is only
    /// right while the parser's answer to no arguments is the default.
    #[test]
    fn no_arguments_parse_to_the_default() {
        let parsed = Cli::try_parse_from(["planning-mcp-server"]).unwrap();
        assert_eq!(format!("{parsed:?}"), format!("{:?}", Cli::default()));
    }
}
