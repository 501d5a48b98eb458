// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The webhook's POST: the JSON body with the three Standard Webhooks
//! headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), over
//! hyper's client (rustls on ring, the system's roots for `https://`). A
//! failed attempt (no connection, a timeout, a 5xx or 429) is retried after
//! a delay that doubles, with the same `webhook-id` (a receiver drops a
//! message it saw already) and a fresh timestamp and signature, as the
//! specification says; any other answer is final.

use std::time::{Duration, SystemTime};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use super::config::Webhook;

/// The most one attempt takes, connection and answer included.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// How attempts are spaced: `first`, then doubling, `retries` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Backoff {
    /// The delay before the first retry.
    pub(crate) first: Duration,
    /// How many retries after the first attempt.
    pub(crate) retries: u32,
}

impl Default for Backoff {
    /// 1, 2, 4, 8 and 16 s: a receiver that restarts within half a minute
    /// misses nothing.
    fn default() -> Self {
        Self {
            first: Duration::from_secs(1),
            retries: 5,
        }
    }
}

/// How a delivery ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The receiver answered 2xx after this many attempts.
    Delivered(u32),
    /// It did not, after this many attempts; the last failure.
    Failed(u32, String),
}

/// The HTTPS client of the webhook: one, for every message.
type HttpsClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// A webhook with its client.
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    webhook: Webhook,
    client: HttpsClient,
    backoff: Backoff,
}

impl Sender {
    /// A sender to `webhook`, retrying as `backoff` says. Fails only when
    /// the system's certificates cannot be read at all.
    pub(crate) fn new(webhook: Webhook, backoff: Backoff) -> Result<Self, String> {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(rustls::crypto::ring::default_provider())
            .map_err(|error| format!("cannot read the system's certificates: {error}"))?
            .https_or_http()
            .enable_http1()
            .build();
        Ok(Self {
            webhook,
            client: Client::builder(TokioExecutor::new()).build(connector),
            backoff,
        })
    }

    /// Sends `body` as message `id`, retrying; `now` gives each attempt's
    /// timestamp.
    pub(crate) async fn send(
        &self,
        id: &str,
        body: &[u8],
        now: impl Fn() -> SystemTime,
    ) -> Outcome {
        let mut delay = self.backoff.first;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let failure = match self.attempt(id, body, now()).await {
                Ok(status) if status.is_success() => return Outcome::Delivered(attempt),
                Ok(status)
                    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS =>
                {
                    format!("answered {status}")
                }
                Ok(status) => return Outcome::Failed(attempt, format!("answered {status}")),
                Err(error) => error,
            };
            if attempt > self.backoff.retries {
                return Outcome::Failed(attempt, failure);
            }
            tracing::debug!(attempt, %failure, "the webhook failed; retrying");
            tokio::time::sleep(delay).await;
            delay = delay.saturating_mul(2);
        }
    }

    /// One POST, signed at `at`: the answer's status, or why none came.
    async fn attempt(&self, id: &str, body: &[u8], at: SystemTime) -> Result<StatusCode, String> {
        let timestamp = at
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
            });
        let request = Request::builder()
            .method(Method::POST)
            .uri(self.webhook.url.uri().clone())
            .header("content-type", "application/json")
            .header(
                "user-agent",
                concat!("planning-mcp-server/", env!("CARGO_PKG_VERSION")),
            )
            .header("webhook-id", id)
            .header("webhook-timestamp", timestamp.to_string())
            .header(
                "webhook-signature",
                self.webhook.key.sign(id, timestamp, body),
            )
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(|error| format!("cannot build the request: {error}"))?;
        let answered = tokio::time::timeout(ATTEMPT_TIMEOUT, async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            // Read the answer through (bounded by the timeout) so that the
            // connection can be used again.
            let _ = response.into_body().collect().await;
            Ok::<_, String>(status)
        })
        .await;
        match answered {
            Ok(Ok(status)) => Ok(status),
            Ok(Err(error)) => Err(format!("could not be reached: {error}")),
            Err(_) => Err(format!(
                "did not answer within {} s",
                ATTEMPT_TIMEOUT.as_secs()
            )),
        }
    }
}

/// A new message ID: `msg_` and 16 random bytes in hex.
pub(crate) fn message_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: the time still makes IDs distinct in practice.
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = nanos.to_le_bytes();
    }
    format!("msg_{}", hex::encode(bytes))
}
