// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What the command-line programs print. `println!` panics (exit 101, a
//! backtrace) when stdout is a closed pipe or a full disk; here a failed
//! write to stdout is an error the program turns into exit status 1, and a
//! message to stderr is written as far as it can be: when stderr is gone
//! too, there is no one left to tell.

use std::io::{self, Write};
use std::process::ExitCode;

/// Writes `text` to stdout, whole, and flushes it.
pub fn print(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes `text` to stderr, if stderr takes it.
pub fn eprint(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// Prints `text` on stdout for `program`: success, or exit status 1 with
/// the reason on stderr when stdout cannot be written.
pub fn print_or_fail(program: &str, text: &str) -> ExitCode {
    match print(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => unwritten(program, &error),
    }
}

/// Exit status 1 for `program`, saying on stderr that stdout failed.
pub fn unwritten(program: &str, error: &io::Error) -> ExitCode {
    eprint(&format!(
        "{program}: cannot write to standard output: {error}\n"
    ));
    ExitCode::FAILURE
}

/// Shows what clap stopped at (`--help` and `--version` on stdout, a usage
/// error on stderr) and returns clap's exit status; exit status 1 when
/// `--help` or `--version` cannot be written.
pub fn clap_stop(program: &str, stop: &clap::Error) -> ExitCode {
    let printed = stop.print().and_then(|()| match stop.use_stderr() {
        true => io::stderr().flush(),
        false => io::stdout().flush(),
    });
    match printed {
        Err(error) if !stop.use_stderr() => unwritten(program, &error),
        // A usage error keeps its status even if stderr is gone.
        _ => ExitCode::from(u8::try_from(stop.exit_code()).unwrap_or(1)),
    }
}
