// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Logs: tracing to stderr only (stdout belongs to the protocol in stdio mode).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::{LogFormat, LogLevel, LoggingSettings};

/// Installs the global subscriber: our events at the configured level,
/// other crates' at `warn` (or `debug` when debugging), text or JSON.
pub fn init(settings: &LoggingSettings) {
    let level = match settings.level {
        LogLevel::Debug => "debug",
        LogLevel::Info => "info",
        LogLevel::Warn => "warn",
        LogLevel::Error => "error",
    };
    let others = match settings.level {
        LogLevel::Debug => "debug",
        LogLevel::Error => "error",
        LogLevel::Info | LogLevel::Warn => "warn",
    };
    let filter = EnvFilter::new(format!("{others},planning_mcp_server={level}"));
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal());
    let installed = match settings.format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
    if let Err(error) = installed {
        eprintln!("planning-mcp-server: logging is already set up: {error}");
    }
}
