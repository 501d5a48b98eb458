// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Logs: tracing to stderr only (stdout belongs to the protocol in stdio mode).
//! A client that leaves while its call runs is not an error ([`ClientGone`]).

use std::io::IsTerminal;

use tracing::field::{Field, Visit};
use tracing::level_filters::LevelFilter;
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

use serde::{Deserialize, Serialize};

/// The least severe log events that are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum LogLevel {
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
pub(crate) enum LogFormat {
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
    pub(crate) level: LogLevel,
    /// Text or JSON.
    pub(crate) format: LogFormat,
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
/// other crates' at `warn` (or `debug` when debugging), text or JSON; a
/// client that leaves while a call runs is not an error ([`ClientGone`]).
pub fn init(settings: &LoggingSettings) {
    let writer = std::io::stderr;
    let ansi = std::io::stderr().is_terminal();
    if let Err(error) = tracing::subscriber::set_global_default(subscriber(settings, writer, ansi))
    {
        super::output::eprint(&format!(
            "planning-mcp-server: logging is already set up: {error}\n"
        ));
    }
}

/// The subscriber [`init`] installs, writing to `writer`.
fn subscriber<W>(
    settings: &LoggingSettings,
    writer: W,
    ansi: bool,
) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
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
    let client_gone = (settings.level != LogLevel::Debug).then_some(ClientGone);
    let builder = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_max_level(level.max(others))
        .with_ansi(ansi);
    match settings.format {
        LogFormat::Text => Box::new(builder.finish().with(filter).with(client_gone)),
        LogFormat::Json => Box::new(builder.json().finish().with(filter).with(client_gone)),
    }
}

/// The target of rmcp's events about a session's messages.
const RMCP_SERVICE: &str = "rmcp::service";

/// rmcp's errors for a message it could not send because its client is
/// gone: the connection dropped, or the session was closed (`DELETE`),
/// while a call was running; the call's work is done all the same.
const CLIENT_GONE: [&str; 4] = [
    "fail to response message",
    "fail to send rejection error",
    "failed to send pending response during drain",
    "fail to close sink",
];

/// Hides rmcp's [`CLIENT_GONE`] errors: a client that leaves is a normal
/// event, not an error. Left out at `debug`, where they show (with rmcp's
/// level, ERROR). Matched on rmcp's words: should a new rmcp word them
/// differently, they show again (a test says so), rather than hiding
/// anything else.
struct ClientGone;

impl<S: Subscriber> Layer<S> for ClientGone {
    fn event_enabled(&self, event: &Event<'_>, _: Context<'_, S>) -> bool {
        let metadata = event.metadata();
        if metadata.target() != RMCP_SERVICE || *metadata.level() != Level::ERROR {
            return true;
        }
        let mut message = Message(None);
        event.record(&mut message);
        !message
            .0
            .is_some_and(|text| CLIENT_GONE.contains(&text.as_str()))
    }
}

/// An event's message, read from its fields.
struct Message(Option<String>);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parking_lot::Mutex;

    use super::*;

    /// What a subscriber wrote.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines written at `level` for rmcp's events of a client that left,
    /// and for another rmcp error.
    fn logged(level: LogLevel) -> String {
        let written = Written::default();
        let sink = written.clone();
        let settings = LoggingSettings {
            level,
            format: LogFormat::Text,
        };
        let subscriber = subscriber(&settings, move || sink.clone(), false);
        tracing::subscriber::with_default(subscriber, || {
            for gone in CLIENT_GONE {
                tracing::error!(target: "rmcp::service", error = %"Transport closed", "{gone}");
            }
            tracing::error!(target: "rmcp::service", "response send task failed");
            tracing::error!(target: "rmcp::transport", "fail to response message");
        });
        String::from_utf8(written.0.lock().clone()).unwrap()
    }

    #[test]
    fn a_client_that_left_is_not_an_error_except_when_debugging() {
        let info = logged(LogLevel::Info);
        assert_eq!(info.lines().count(), 2, "{info}");
        assert!(info.contains("response send task failed"), "{info}");
        assert!(
            info.contains("rmcp::transport: fail to response message"),
            "{info}"
        );
        let debug = logged(LogLevel::Debug);
        assert_eq!(debug.lines().count(), 6, "{debug}");
        for gone in CLIENT_GONE {
            assert!(
                debug.contains(&format!("rmcp::service: {gone} error=Transport closed")),
                "{debug}"
            );
        }
    }
}
