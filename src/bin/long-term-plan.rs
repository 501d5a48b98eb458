// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `long-term-plan`: the drop-in CLI for long-term-plan's Markdown plans.
//! All the work is in `planning_mcp_server::toolsets::plans::cli`.

use std::io::Write;
use std::process::ExitCode;

use planning_mcp_server::runtime::stack;
use planning_mcp_server::toolsets::plans::cli;

fn main() -> ExitCode {
    let args = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    // Deeply nested plans need deep stacks (see `stack`).
    let outcome =
        stack::run_with_large_stack(move || cli::run(args, &cwd, &mut std::io::stdin().lock()));
    // A closed pipe is not worth a panic.
    let _ = std::io::stdout()
        .lock()
        .write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr()
        .lock()
        .write_all(outcome.stderr.as_bytes());
    if outcome.code == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
