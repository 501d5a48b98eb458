// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `long-term-plan-mcp`: the drop-in stdio MCP server for long-term-plan's
//! Markdown plans. Its command line is the reference's, parsed here
//! (`--root`, `--plans`, `--legacy-doc-tools`, `--help`, `--version`); the
//! server is `planning_mcp_server::api::plans::PlansServer`.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use planning_mcp_server::api::plans::{
    self, DEFAULT_PLANS_DIR, NAME, PlanFiles, PlansServer, VERSION,
};
use planning_mcp_server::api::transport::Lines;
use planning_mcp_server::api::{allocator, output, stack};
use sha2::{Digest, Sha256};

/// The name in front of a message about the output.
const PROGRAM: &str = "long-term-plan-mcp";

/// The help text of `long-term-plan-mcp --help`.
const HELP: &str = "long-term-plan-mcp (stdio MCP server)

Usage:
  long-term-plan-mcp [--root <dir>] [--plans <dir>]

Options:
  --root   Root directory (default: cwd)
  --plans  Plans directory relative to root (default: .long-term-plan)
  --legacy-doc-tools  Also register legacy `doc.*` tool names
  --help   Show help
";

#[global_allocator]
static ALLOCATOR: allocator::LargeResults = allocator::LargeResults;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Command {
    /// Print the help.
    Help,
    /// Print the version.
    Version,
    /// Serve on stdio.
    Serve {
        /// The root, resolved against the working directory.
        root: PathBuf,
        /// The plans directory, relative to the root.
        plans: String,
        /// Whether `doc.validate` and `doc.repair` are offered.
        legacy_doc_tools: bool,
    },
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    let (root, plans, legacy) = match parse_args(&args, &cwd) {
        Ok(Command::Help) => return output::print_or_fail(PROGRAM, HELP),
        Ok(Command::Version) => return output::print_or_fail(PROGRAM, &version_line()),
        Ok(Command::Serve {
            root,
            plans,
            legacy_doc_tools,
        }) => (root, plans, legacy_doc_tools),
        Err(message) => {
            output::eprint(&format!("Error: {message}\n"));
            return ExitCode::FAILURE;
        }
    };
    let server = PlansServer::new(PlanFiles::new(&root, &plans), legacy);
    // Deeply nested plans need deep stacks (see `stack`).
    stack::run_with_large_stack(move || serve(server))
}

/// Parses the arguments (without the program name) as the reference does:
/// `--help`/`-h` anywhere wins, then `--version`/`-v`, then strict flags
/// left to right (a value-taking flag takes the next argument, whatever it is).
fn parse_args(args: &[String], cwd: &Path) -> Result<Command, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    if args.iter().any(|a| a == "--version" || a == "-v") {
        return Ok(Command::Version);
    }
    let mut root = cwd.to_path_buf();
    let mut plans = DEFAULT_PLANS_DIR.to_owned();
    let mut legacy_doc_tools = false;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--root" => match rest.next().filter(|v| !v.is_empty()) {
                Some(value) => root = plans::resolve(cwd, Path::new(value)),
                None => return Err("Missing value for --root".into()),
            },
            "--plans" => match rest.next().filter(|v| !v.is_empty()) {
                Some(value) => plans = value.clone(),
                None => return Err("Missing value for --plans".into()),
            },
            "--legacy-doc-tools" => legacy_doc_tools = true,
            other => return Err(format!("Unknown argument: {other}")),
        }
    }
    Ok(Command::Serve {
        root,
        plans,
        legacy_doc_tools,
    })
}

/// `long-term-plan-mcp 0.1.0+<first 8 hex of sha256("long-term-plan-mcp")>`.
fn version_line() -> String {
    let hint = hex::encode(Sha256::digest(NAME.as_bytes()));
    format!("{NAME} {VERSION}+{}\n", &hint[..8])
}

fn serve(server: PlansServer) -> ExitCode {
    // The blocking threads that run the tools need deep stacks too.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .thread_stack_size(stack::LARGE_STACK)
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            output::eprint(&format!("Error: {error}\n"));
            return ExitCode::FAILURE;
        }
    };
    // Lines that are not JSON-RPC get an error answer instead of silence.
    let transport = Lines::new(tokio::io::stdin(), tokio::io::stdout());
    let served = runtime.block_on(plans::serve(server, transport));
    // Do not wait for the thread that may still be blocked reading stdin.
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            output::eprint(&format!("Error: {error}\n"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        parse_args(&args, Path::new("/cwd"))
    }

    #[test]
    fn flags() {
        assert_eq!(parse(&["--root", "x", "-h"]), Ok(Command::Help));
        assert_eq!(parse(&["--bogus", "-v"]), Ok(Command::Version));
        assert_eq!(
            parse(&["--root", "sub/..", "--plans", "--legacy-doc-tools"]),
            Ok(Command::Serve {
                root: "/cwd".into(),
                plans: "--legacy-doc-tools".into(),
                legacy_doc_tools: false
            })
        );
        assert_eq!(
            parse(&["--legacy-doc-tools"]),
            Ok(Command::Serve {
                root: "/cwd".into(),
                plans: ".long-term-plan".into(),
                legacy_doc_tools: true
            })
        );
        assert_eq!(parse(&["--root"]), Err("Missing value for --root".into()));
        assert_eq!(
            parse(&["--plans", ""]),
            Err("Missing value for --plans".into())
        );
        assert_eq!(
            parse(&["--root=x"]),
            Err("Unknown argument: --root=x".into())
        );
    }

    #[test]
    fn version_and_help() {
        assert_eq!(version_line(), "long-term-plan-mcp 0.1.0+0361d983\n");
        assert!(HELP.ends_with("  --help   Show help\n"));
    }
}
