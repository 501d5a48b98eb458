// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `long-term-plan-mcp`: the drop-in stdio MCP server for long-term-plan's
//! Markdown plans. All the work is in `planning_mcp_server::toolsets::plans::mcp::stdio`.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use planning_mcp_server::runtime::{allocator, output, stack};
use planning_mcp_server::toolsets::plans::Plans;
use planning_mcp_server::toolsets::plans::mcp::stdio::{self, Command, PlansServer};
use planning_mcp_server::transport::lines::Lines;

/// The name in front of a message about the output.
const PROGRAM: &str = "long-term-plan-mcp";

#[global_allocator]
static ALLOCATOR: allocator::LargeResults = allocator::LargeResults;

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    let (root, plans, legacy) = match stdio::parse_args(&args, &cwd) {
        Ok(Command::Help) => return output::print_or_fail(PROGRAM, stdio::HELP),
        Ok(Command::Version) => return output::print_or_fail(PROGRAM, &stdio::version_line()),
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
    let server = PlansServer::new(Plans::new(&root, &plans), legacy);
    // Deeply nested plans need deep stacks (see `stack`).
    stack::run_with_large_stack(move || serve(server))
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
    let served = runtime.block_on(stdio::serve(server, transport));
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
