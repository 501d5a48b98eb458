// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server`: CLI -> Config -> logging -> serve.

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use planning_mcp_server::config::{self, ConfigFlags, Mode};
use planning_mcp_server::runtime::{allocator, logging, stack};
use planning_mcp_server::transport as serve;

#[global_allocator]
static ALLOCATOR: allocator::Server = allocator::Server;

/// A planning board for AI coding agents over MCP: a goal and a task list
/// with statuses. Configuration: defaults < planning-mcp-server.toml <
/// PLANNING_* environment variables < these flags.
#[derive(Debug, Parser)]
#[command(name = "planning-mcp-server", version)]
struct Cli {
    #[command(flatten)]
    config: ConfigFlags,
    /// Write the example config to ./planning-mcp-server.toml (never over an existing file) and exit
    #[arg(long)]
    generate_config: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.generate_config {
        return match config::generate(Path::new(".")) {
            Ok(path) => {
                println!("wrote {}", path.display());
                ExitCode::SUCCESS
            }
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

fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("planning-mcp-server: {error}");
    ExitCode::FAILURE
}
