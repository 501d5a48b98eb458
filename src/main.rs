// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server`: CLI -> Config -> logging -> serve; or one of its
//! subcommands (`planning_mcp_server::api::subcommands`: the server's own `setup`
//! and `doctor`, and those the toolsets bring), each handed the
//! configuration of the keys it reads.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::ExitCode;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use planning_mcp_server::api::config::{self, ConfigFlags, Mode};
use planning_mcp_server::api::subcommands::{CliCommand, commands};
use planning_mcp_server::api::transport as serve;
use planning_mcp_server::api::{allocator, logging, output, stack, toolsets};

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
    // The commit too (build.rs), so that a binary names what it was built from.
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("PLANNING_COMMIT"), ")"),
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    config: ConfigFlags,
    /// Write the example config to ./planning-mcp-server.toml (never over an existing file) and exit
    #[arg(long)]
    generate_config: bool,
    /// Print the toolsets this build offers, one a line, and exit
    #[arg(long)]
    list_toolsets: bool,
}

/// What the command line asks for.
#[derive(Debug)]
enum Parsed {
    /// Serve (or write the example config).
    Serve(Cli),
    /// Run a toolset's subcommand on its arguments.
    Command(&'static CliCommand, ArgMatches),
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    // Clients usually start the server without arguments, and building the
    // parser for every toolset's flags is a tenth of the start-up's own
    // work: without arguments the defaults are what it would return.
    let cli = if std::env::args_os().len() > 1 {
        match parse(std::env::args_os()) {
            Ok(Parsed::Serve(cli)) => cli,
            Ok(Parsed::Command(command, matches)) => return run(command, &matches),
            // --help, --version, or a usage error.
            Err(stop) => return output::clap_stop(PROGRAM, &stop),
        }
    } else {
        Cli::default()
    };
    if cli.list_toolsets {
        let names: String = toolsets::names().map(|name| format!("{name}\n")).collect();
        return output::print_or_fail(PROGRAM, &names);
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

/// The parser: the server's flags, and the toolsets' subcommands.
fn cli() -> clap::Command {
    commands().fold(Cli::command(), |cli, command| {
        cli.subcommand(config::subcommand::define(command))
    })
}

/// Parses `args` (with the program's name first).
fn parse<I>(args: I) -> Result<Parsed, clap::Error>
where
    I: IntoIterator,
    I::Item: Into<std::ffi::OsString> + Clone,
{
    let mut cli = cli();
    let matches = cli.try_get_matches_from_mut(args)?;
    if let Some((name, matches)) = matches.subcommand() {
        // clap accepts only the subcommands it was given: one of these.
        if let Some(command) = commands().find(|c| c.name == name) {
            return Ok(Parsed::Command(command, matches.clone()));
        }
    }
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => Ok(Parsed::Serve(cli)),
        Err(error) => Err(error.format(&mut cli)),
    }
}

/// Runs a toolset's subcommand and prints what it answers.
fn run(command: &CliCommand, matches: &ArgMatches) -> ExitCode {
    match config::subcommand::run(command, matches) {
        Ok(text) => output::print_or_fail(PROGRAM, &text),
        Err(error) => {
            fail(&error);
            ExitCode::from(error.code())
        }
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
        let Parsed::Serve(parsed) = parse(["planning-mcp-server"]).unwrap() else {
            panic!("no arguments ask for a subcommand");
        };
        assert_eq!(format!("{parsed:?}"), format!("{:?}", Cli::default()));
    }

    /// The toolsets' subcommands fit the parser: names unique (and not
    /// `help`), no argument defined twice (clap's own checks).
    #[test]
    fn every_toolsets_subcommand_fits_the_parser() {
        let names: Vec<&str> = commands().map(|c| c.name).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(name), "{name} twice");
            assert_ne!(*name, "help");
        }
        cli().debug_assert();
    }

    #[test]
    fn a_subcommand_gets_its_own_arguments() {
        let Parsed::Command(command, matches) =
            parse(["planning-mcp-server", "summary", "--board", "b"]).unwrap()
        else {
            panic!("summary is a subcommand");
        };
        assert_eq!(command.name, "summary");
        assert_eq!(
            matches.get_one::<String>("board").map(String::as_str),
            Some("b")
        );
        // The server's flags belong to no subcommand.
        let refused = parse(["planning-mcp-server", "--port", "1", "summary"]).unwrap_err();
        assert_eq!(refused.kind(), clap::error::ErrorKind::ArgumentConflict);
    }
}
