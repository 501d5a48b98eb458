// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `long-term-plan`: the drop-in CLI for long-term-plan's Markdown plans.
//! All the work is in `planning_mcp_server::toolsets::plans::cli`.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use planning_mcp_server::api::plans::run_cli;
use planning_mcp_server::api::{output, stack};

fn main() -> ExitCode {
    let args = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    // Deeply nested plans need deep stacks (see `stack`).
    let outcome =
        stack::run_with_large_stack(move || run_cli(args, &cwd, &mut std::io::stdin().lock()));
    let printed = output::print(&outcome.stdout);
    output::eprint(&outcome.stderr);
    match printed {
        // The work is done (a change is saved), but its answer is lost.
        Err(error) => output::unwritten("long-term-plan", &error),
        Ok(()) if outcome.code == 0 => ExitCode::SUCCESS,
        Ok(()) => ExitCode::FAILURE,
    }
}
