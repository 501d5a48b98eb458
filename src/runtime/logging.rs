// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Logs: tracing to stderr only (stdout belongs to the protocol in stdio mode).

use std::io::IsTerminal;

use tracing::level_filters::LevelFilter;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use serde::{Deserialize, Serialize};

/// The least severe log events that are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Everything, including each refused tool call.
    Debug,
    /// Start-up and notable events.
    Info,
    /// Skipped duplicates and other oddities.
    Warn,
    /// Only failures.
    Error,
}

/// How log events are written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line.
    Json,
}

/// `[logging]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoggingSettings {
    /// The least severe events written.
    pub level: LogLevel,
    /// Text or JSON.
    pub format: LogFormat,
}

impl Default for LoggingSettings {
    fn default() -> Self {
        Self {
            level: LogLevel::Info,
            format: LogFormat::Text,
        }
    }
}

/// Installs the global subscriber: our events at the configured level,
/// other crates' at `warn` (or `debug` when debugging), text or JSON.
pub fn init(settings: &LoggingSettings) {
    let level = match settings.level {
        LogLevel::Debug => LevelFilter::DEBUG,
        LogLevel::Info => LevelFilter::INFO,
        LogLevel::Warn => LevelFilter::WARN,
        LogLevel::Error => LevelFilter::ERROR,
    };
    let others = match settings.level {
        LogLevel::Debug => LevelFilter::DEBUG,
        LogLevel::Info | LogLevel::Warn => LevelFilter::WARN,
        LogLevel::Error => LevelFilter::ERROR,
    };
    let filter = Targets::new()
        .with_default(others)
        .with_target(env!("CARGO_CRATE_NAME"), level);
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level.max(others))
        .with_ansi(std::io::stderr().is_terminal());
    let installed = match settings.format {
        LogFormat::Text => builder.finish().with(filter).try_init(),
        LogFormat::Json => builder.json().finish().with(filter).try_init(),
    };
    if let Err(error) = installed {
        super::output::eprint(&format!(
            "planning-mcp-server: logging is already set up: {error}\n"
        ));
    }
}
