// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The local command (`notify-send`, a script): run without a shell
//! through the runtime's runner (its own process group, a timeout, killed
//! at shutdown), the message's JSON on its stdin, `{summary}` in an
//! argument replaced by the one-line summary, and the summary also in
//! `PLANNING_NOTIFY_SUMMARY`.

use std::time::Duration;

use crate::runtime::process::{Invocation, Runner};

/// The most a command may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `command` (the program, then its arguments) for one message:
/// `Ok` when it exited with status 0, else what went wrong.
pub(crate) async fn run(command: &[String], summary: &str, json: &str) -> Result<(), String> {
    let Some((program, args)) = command.split_first() else {
        return Err("no command is set".into());
    };
    let runner = Runner {
        dir: std::env::current_dir().unwrap_or_else(|_| "/".into()),
        timeout: TIMEOUT,
    };
    let invocation = Invocation {
        program,
        args: args
            .iter()
            .map(|arg| arg.replace("{summary}", summary))
            .collect(),
        env: &[("PLANNING_NOTIFY_SUMMARY", summary)],
        stdin: Some(json),
    };
    let shown = invocation.command_line();
    match runner.run(&invocation).await {
        Ok(output) if output.success() => Ok(()),
        Ok(output) => Err(format!(
            "{shown} ended with {}: {}",
            output.status(),
            crate::runtime::text::clip(output.stderr.trim())
        )),
        Err(error) => Err(format!("{shown} {error}")),
    }
}
