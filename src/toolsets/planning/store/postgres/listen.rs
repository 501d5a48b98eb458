// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The connection that listens for changes: `LISTEN planning_board_changed`
//! on a connection of its own (outside the pool), waking the watchers of
//! the board each notification names. When the connection is lost it is
//! made again (after 0.1 s, doubling up to 5 s), and every watcher is woken
//! once it is back, since a change may have gone unheard meanwhile. It ends
//! with the database.

use std::sync::Weak;
use std::time::Duration;

use futures_util::StreamExt;
use tokio_postgres::AsyncMessage;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::db::Database;
use super::{describe, schema};

/// The first pause before connecting again; it doubles up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(100);
const MAX_PAUSE: Duration = Duration::from_secs(5);

/// Listens until the database is dropped.
pub(super) async fn run(
    config: tokio_postgres::Config,
    tls: MakeRustlsConnect,
    shown: String,
    database: Weak<Database>,
) {
    let mut pause = FIRST_PAUSE;
    loop {
        if database.strong_count() == 0 {
            return;
        }
        match listen(&config, tls.clone(), &database).await {
            Ok(()) => pause = FIRST_PAUSE,
            Err(problem) => {
                tracing::warn!(database = %shown, %problem, "not listening for other servers' changes; trying again");
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

/// One listening connection, until it is lost (`Ok` once it had listened).
async fn listen(
    config: &tokio_postgres::Config,
    tls: MakeRustlsConnect,
    database: &Weak<Database>,
) -> Result<(), String> {
    let (client, mut connection) = config.connect(tls).await.map_err(|e| describe(&e))?;
    let (sender, mut names) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(|cx| connection.poll_message(cx));
        while let Some(Ok(message)) = messages.next().await {
            if let AsyncMessage::Notification(notification) = message
                && sender.send(notification.payload().to_owned()).is_err()
            {
                return;
            }
        }
    });
    let listening = client
        .batch_execute(&format!("LISTEN {}", schema::CHANNEL))
        .await;
    if let Err(error) = listening {
        driver.abort();
        return Err(describe(&error));
    }
    // Whatever changed before this connection listened was not heard.
    match database.upgrade() {
        Some(database) => database.wake(None),
        None => return Ok(()),
    }
    while let Some(name) = names.recv().await {
        let Some(database) = database.upgrade() else {
            break;
        };
        database.wake(Some(&name));
    }
    driver.abort();
    Ok(())
}
