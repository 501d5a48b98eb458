// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The notifier's tasks: one watcher per open board, the coalescing loop,
//! and the delivery, joined by bounded queues.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc;

use super::batch::{Batch, Coalescer};
use super::command;
use super::config::NotifySettings;
use super::detect::Detector;
use super::notice::Notice;
use super::webhook::{Backoff, Outcome, Sender, message_id};
use crate::runtime::clock::Clock;
use crate::server::BoardName;
use crate::server::toolset::BackgroundTask;
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::team::domain::View;

/// How often the notifier looks for boards opened since (a board is opened
/// by the first call on it).
const SCAN_EVERY: Duration = Duration::from_secs(1);

/// The longest a watcher sleeps without looking: a safety net for a stall
/// whose time the board's clock moved (a test offset).
const LOOK_AT_LEAST_EVERY: Duration = Duration::from_secs(60);

/// How many looks' notices may wait for the coalescing loop.
const NOTICE_QUEUE: usize = 256;

/// How many batches may wait for delivery (a receiver that is down holds
/// one in its retries).
const BATCH_QUEUE: usize = 16;

/// The notifier of `boards` as `settings` say, timed by `clock`: the work
/// to run for as long as the server runs.
pub(crate) fn notifier(
    settings: NotifySettings,
    boards: Arc<Boards>,
    clock: Clock,
) -> BackgroundTask {
    Box::pin(async move {
        let since = clock.now();
        let sender = match &settings.webhook {
            None => None,
            Some(webhook) => match Sender::new(webhook.clone(), Backoff::default()) {
                Ok(sender) => Some(sender),
                Err(error) => {
                    tracing::error!(%error, "notify: the webhook is off");
                    None
                }
            },
        };
        let (notices, mut incoming) = mpsc::channel::<Vec<Notice>>(NOTICE_QUEUE);
        let (batches, outgoing) = mpsc::channel::<Batch>(BATCH_QUEUE);
        let settings = Arc::new(settings);
        tokio::spawn(deliver(settings.clone(), sender, clock, outgoing));
        let mut coalescer = Coalescer::new(settings.window);
        let mut watched = HashSet::<BoardName>::new();
        let mut scan = tokio::time::interval(SCAN_EVERY);
        loop {
            let due = coalescer.due();
            tokio::select! {
                Some(mut came) = incoming.recv() => {
                    came.retain(|notice| settings.events.contains(&notice.kind));
                    coalescer.add(came, Instant::now());
                }
                () = sleep_until(due), if due.is_some() => {}
                _ = scan.tick() => {
                    for (name, board) in boards.list() {
                        if watched.insert(name.clone()) {
                            tokio::spawn(watch(name, board, clock, since, notices.clone()));
                        }
                    }
                }
            }
            if let Some(batch) = coalescer.take(Instant::now())
                && batches.try_send(batch).is_err()
            {
                tracing::warn!("notify: deliveries are behind; a batch of notices was dropped");
            }
        }
    })
}

/// Sleeps until `due` (forever without one).
async fn sleep_until(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due.into()).await,
        None => std::future::pending().await,
    }
}

/// Watches board `name` until it is dropped: looks at each change, and
/// when the next lease or dispatch runs out.
async fn watch(
    name: BoardName,
    board: SharedBoard,
    clock: Clock,
    since: SystemTime,
    notices: mpsc::Sender<Vec<Notice>>,
) {
    let mut changes = board.watch();
    let mut detector = Detector::new(name.as_str(), since);
    loop {
        let looked = board
            .run(move |shared| {
                shared.read(|board| {
                    let view = View::new(board, shared.now(clock));
                    let found = detector.look(view);
                    (detector, found, Detector::next_stall(view), view.now)
                })
            })
            .await;
        let next_stall;
        match looked {
            Ok((kept, found, next, now)) => {
                detector = kept;
                next_stall = next.and_then(|at| at.duration_since(now).ok());
                if !found.is_empty() && notices.try_send(found).is_err() {
                    tracing::warn!(board = %name, "notify: notices are behind; some were dropped");
                }
            }
            Err(error) => {
                tracing::warn!(board = %name, %error, "notify: cannot read the board");
                // The detector went with the failed read: start again from now.
                detector = Detector::new(name.as_str(), clock.now());
                next_stall = None;
            }
        }
        let sleep = next_stall.map_or(LOOK_AT_LEAST_EVERY, |d| {
            // Just past the end, so the view sees it ended.
            (d + Duration::from_millis(1)).min(LOOK_AT_LEAST_EVERY)
        });
        tokio::select! {
            changed = changes.changed() => if changed.is_err() { return },
            () = tokio::time::sleep(sleep) => {}
        }
    }
}

/// Delivers each batch: the webhook, then the command; a failure is
/// logged, never retried past the webhook's own retries.
async fn deliver(
    settings: Arc<NotifySettings>,
    sender: Option<Sender>,
    clock: Clock,
    mut batches: mpsc::Receiver<Batch>,
) {
    while let Some(batch) = batches.recv().await {
        let body = batch.body(&settings.board_url, clock.now());
        let json = body.to_string();
        if let Some(sender) = &sender {
            let id = message_id();
            match sender.send(&id, json.as_bytes(), || clock.now()).await {
                Outcome::Delivered(attempts) => {
                    tracing::debug!(%id, attempts, "notify: the webhook took a message");
                }
                Outcome::Failed(attempts, why) => {
                    tracing::warn!(%id, attempts, %why, "notify: the webhook did not take a message");
                }
            }
        }
        if let Some(program) = &settings.command
            && let Err(error) = command::run(program, &batch.summary(), &json).await
        {
            tracing::warn!(%error, "notify: the command failed");
        }
    }
}
