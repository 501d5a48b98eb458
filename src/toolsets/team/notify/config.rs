// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[notify]`: where a person hears that the board needs them (a webhook,
//! a local command), which events, and how long a burst is gathered.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::notice::Kind;
use super::signature::SigningKey;
use super::target::WebhookUrl;
use crate::server::seconds::Seconds;
use crate::server::secret::Secret;
use crate::server::settings::{Settings, lenient, list};

/// The part of the example config file that belongs to `[notify]`.
pub(crate) const EXAMPLE: &str = r#"
[notify]
# Tell a person when an agent finished or failed a task, asks for a review,
# stalled (its lease or dispatch ran out), or when the goal is met
# (docs/notify.md). Needs toolset team. Off while neither a webhook nor a
# command is set.
# A URL that receives a JSON POST signed as Standard Webhooks say: https://,
# or http:// on a loopback address (localhost, 127.0.0.1, ::1).
webhook_url = ''
# The signing secret, `whsec_` and base64 (PLANNING_NOTIFY_WEBHOOK_SECRET).
webhook_secret = ''
# A program and its arguments, run with the JSON on stdin (no shell);
# `{summary}` in an argument becomes the one-line summary, e.g.
# ['notify-send', 'Planning board', '{summary}'].
command = []
# The events to send: finished, failed, review_requested, stalled, goal_met.
events = ['finished', 'failed', 'review_requested', 'stalled', 'goal_met']
# Seconds during which events are gathered into one message (0: each
# board change is a message of its own).
window_seconds = 5
# The web board's address for the links (default: http://localhost and
# server.port).
board_url = ''
"#;

/// `[notify]` as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct NotifyTable {
    /// The webhook's URL; empty for none.
    #[serde(deserialize_with = "lenient")]
    pub(crate) webhook_url: String,
    /// The webhook's signing secret.
    #[serde(deserialize_with = "lenient")]
    pub(crate) webhook_secret: Secret,
    /// The command and its arguments; empty for none.
    #[serde(deserialize_with = "list")]
    pub(crate) command: Vec<String>,
    /// The events sent.
    #[serde(deserialize_with = "list")]
    pub(crate) events: Vec<String>,
    /// How long events are gathered.
    pub(crate) window_seconds: Seconds,
    /// The web board's base URL; empty for the default.
    #[serde(deserialize_with = "lenient")]
    pub(crate) board_url: String,
}

impl Default for NotifyTable {
    fn default() -> Self {
        Self {
            webhook_url: String::new(),
            webhook_secret: Secret::from(String::new()),
            command: Vec::new(),
            events: Kind::ALL.iter().map(|k| k.as_str().to_owned()).collect(),
            window_seconds: Seconds::new(5),
            board_url: String::new(),
        }
    }
}

/// The port the links default to, from `[server]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ServerPort {
    port: Option<u16>,
}

/// A webhook, checked: where to, and the key it is signed with.
#[derive(Debug, Clone)]
pub(crate) struct Webhook {
    /// Where the POST goes.
    pub(crate) url: WebhookUrl,
    /// The signing key.
    pub(crate) key: SigningKey,
}

/// `[notify]`, checked: what to send, where, gathered how long.
#[derive(Debug, Clone)]
pub(crate) struct NotifySettings {
    /// The webhook, if any.
    pub(crate) webhook: Option<Webhook>,
    /// The command and its arguments, if any.
    pub(crate) command: Option<Vec<String>>,
    /// The events sent.
    pub(crate) events: Vec<Kind>,
    /// How long a burst is gathered.
    pub(crate) window: Duration,
    /// The web board's base URL, without a trailing `/`.
    pub(crate) board_url: String,
}

impl NotifySettings {
    /// Reads `[notify]` and checks it: `None` when nothing is to be sent.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Option<Self>, Vec<String>> {
        let table = settings.table::<NotifyTable>("notify")?;
        let port = settings
            .table::<ServerPort>("server")
            .ok()
            .and_then(|s| s.port)
            .unwrap_or(8080);
        let mut problems = Vec::new();
        let webhook = match table.webhook_url.trim() {
            "" => None,
            url => match (
                WebhookUrl::parse(url),
                SigningKey::parse(table.webhook_secret.expose()),
            ) {
                (Ok(url), Ok(key)) => Some(Webhook { url, key }),
                (url, key) => {
                    if let Err(what) = url {
                        problems.push(settings.problem("notify.webhook_url", &what));
                    }
                    if let Err(what) = key {
                        problems.push(settings.problem("notify.webhook_secret", &what));
                    }
                    None
                }
            },
        };
        let command = match table.command.first() {
            None => None,
            Some(program) if program.trim().is_empty() => {
                problems.push(settings.problem(
                    "notify.command",
                    "its first item is the program to run and must not be empty",
                ));
                None
            }
            Some(_) => Some(table.command.clone()),
        };
        let mut events = Vec::new();
        for name in &table.events {
            match Kind::parse(name) {
                Some(kind) if !events.contains(&kind) => events.push(kind),
                Some(_) => {}
                None => problems.push(settings.problem(
                    "notify.events",
                    &format!(
                        "'{}' is none of finished, failed, review_requested, stalled, goal_met",
                        crate::runtime::text::clip(name)
                    ),
                )),
            }
        }
        let window = table.window_seconds.duration();
        settings.require(
            &mut problems,
            window <= MAX_WINDOW,
            "notify.window_seconds",
            "must be 0 to 3600 (seconds)",
        );
        let board_url = match table.board_url.trim() {
            "" => format!("http://localhost:{port}"),
            url => url.trim_end_matches('/').to_owned(),
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok((webhook.is_some() || command.is_some()).then_some(Self {
            webhook,
            command,
            events,
            window,
            board_url,
        }))
    }
}

/// The longest window: an hour (a person waits no longer to hear).
const MAX_WINDOW: Duration = Duration::from_secs(3600);
