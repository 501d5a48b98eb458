// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Replicas: several `--mode http --storage postgres` processes on one
//! database serve the same boards: a claim raced by 32 sessions over three
//! replicas has one winner, 8 writers per replica lose no change, a change
//! through one replica reaches a `board://` subscriber and a web page on
//! another; a replica killed mid-write loses nothing it acknowledged, and
//! the database restarted mid-write makes calls fail clearly, then serve
//! again, without restarting the replicas.

use crate::common;
use crate::common::postgres::Cluster;
use crate::postgres::{env, on};

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use common::{HttpServer, call, id, ok, within_hang};
use rmcp::ServiceExt;
use rmcp::model::{ResourceUpdatedNotificationParam, SubscribeRequestParams};
use rmcp::service::{NotificationContext, RoleClient};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tokio::sync::{Barrier, mpsc};

/// Starts `n` replicas on `url` with the toolsets planning and team, and a
/// board of up to 1,000 tasks.
pub(crate) async fn replicas(n: usize, url: &str) -> Vec<HttpServer> {
    let mut pairs = on(url);
    pairs.push(("PLANNING_PLANNING_MAX_TASKS", "1000".to_owned()));
    let mut servers = Vec::new();
    for _ in 0..n {
        servers.push(HttpServer::start(&crate::team::TEAM, &env(&pairs)).await);
    }
    servers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_replicas_have_one_claim_winner_and_lose_no_write() {
    let Some(cluster) = Cluster::start_or_skip("postgres replicas race") else {
        return;
    };
    let url = cluster.database("race");
    let servers = replicas(3, &url).await;
    let lead = servers[0].client().await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "the one task"}]}),
    )
    .await;

    // 32 sessions spread over the replicas claim one task at once.
    const SESSIONS: usize = 32;
    let mut clients = Vec::new();
    for n in 0..SESSIONS {
        clients.push(servers[n % 3].client().await);
    }
    let start = Arc::new(Barrier::new(SESSIONS));
    let mut racers = Vec::new();
    for (n, client) in clients.into_iter().enumerate() {
        let start = start.clone();
        racers.push(tokio::spawn(async move {
            start.wait().await;
            let args = json!({"agent": format!("agent-{n}"), "task_id": id("the one task")});
            let claimed = call(&client, "claim_task", args).await;
            client.cancel().await.unwrap();
            (format!("agent-{n}"), claimed)
        }));
    }
    let mut winners = Vec::new();
    for racer in racers {
        let (agent, (refused, text)) = racer.await.unwrap();
        match refused {
            false => winners.push(agent),
            true => assert!(text.contains("is held by agent-"), "{text}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one winner: {winners:?}");
    for server in &servers {
        let board = ok(&server.client().await, "team_board", json!({})).await;
        assert!(
            board.contains(&format!("held by {} until", winners[0])),
            "{board}"
        );
    }

    // 8 writers per replica, 10 changes each, on one board: a task added,
    // then completed (a history entry).
    const WRITERS: usize = 8;
    const CHANGES: usize = 10;
    let start = Arc::new(Barrier::new(3 * WRITERS));
    let mut writers = Vec::new();
    for (r, server) in servers.iter().enumerate() {
        for w in 0..WRITERS {
            let client = server.client_for("shared").await;
            let start = start.clone();
            writers.push(tokio::spawn(async move {
                start.wait().await;
                let mut acknowledged = Vec::new();
                for c in 0..CHANGES {
                    let title = format!("r{r}-w{w}-c{c}");
                    let (refused, text) =
                        call(&client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
                    assert!(!refused, "{text}");
                    let done = json!({"tasks": [{"task_id": id(&title), "status": "completed"}]});
                    let (refused, text) = call(&client, "update_task_statuses", done).await;
                    assert!(!refused, "{text}");
                    acknowledged.push(title);
                }
                client.cancel().await.unwrap();
                acknowledged
            }));
        }
    }
    let mut acknowledged = BTreeSet::new();
    for writer in writers {
        acknowledged.extend(writer.await.unwrap());
    }
    assert_eq!(acknowledged.len(), 3 * WRITERS * CHANGES);
    for server in &servers {
        let board = ok(&server.client_for("shared").await, "get_tasks", json!({})).await;
        let titles = titles(&board);
        assert_eq!(
            titles, acknowledged,
            "every acknowledged change, on every replica"
        );
    }
    let revision = cluster.psql(
        "race",
        "SELECT revision FROM planning_boards WHERE name = 'shared'",
    );
    assert_eq!(
        revision,
        (2 * 3 * WRITERS * CHANGES).to_string(),
        "one revision per change"
    );
    // Every replica's history, which each built from the entries the others
    // added, holds each completion once, in the database's order.
    let stored = cluster.psql(
        "race",
        "SELECT string_agg(entry::json->>'title', ',' ORDER BY seq) FROM planning_history WHERE board = 'shared'",
    );
    let stored: Vec<&str> = stored.split(',').collect();
    assert_eq!(
        stored.iter().copied().collect::<BTreeSet<_>>(),
        acknowledged.iter().map(String::as_str).collect()
    );
    assert_eq!(stored.len(), acknowledged.len(), "no entry twice");
    for server in &servers {
        let view: serde_json::Value = reqwest::get(format!("{}/boards/shared.json", server.base()))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let history: Vec<&str> = view["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["title"].as_str().unwrap())
            .collect();
        assert_eq!(history, stored, "{}", server.base());
    }
    lead.cancel().await.unwrap();
}

/// The titles of the tasks `get_tasks` lists (`- ☐ [id] title`).
pub(crate) fn titles(board: &str) -> BTreeSet<String> {
    board
        .lines()
        .filter_map(|line| line.split_once("] "))
        .map(|(_, title)| title.to_owned())
        .collect()
}

/// A client that forwards `notifications/resources/updated` to a channel.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<String>);

impl rmcp::ClientHandler for Watcher {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

/// Reads the web page's stream until an event whose data holds `needle`.
async fn event_holding(stream: &mut reqwest::Response, buffer: &mut String, needle: &str) {
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            if event.contains(needle) {
                return;
            }
            continue;
        }
        let chunk = stream
            .chunk()
            .await
            .unwrap()
            .expect("the stream stays open");
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[allow(deprecated, reason = "resources/subscribe is what 2025 clients use")]
async fn a_change_through_one_replica_reaches_subscribers_and_pages_of_another() {
    let Some(cluster) = Cluster::start_or_skip("postgres notifications") else {
        return;
    };
    let url = cluster.database("news");
    let servers = replicas(2, &url).await;
    let (a, b) = (&servers[0], &servers[1]);
    let writer = a.client().await;
    let reader = b.client().await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "exists"}]}),
    )
    .await;
    let (sender, mut updates) = mpsc::unbounded_channel();
    let watching = Watcher(sender)
        .serve(StreamableHttpClientTransport::from_uri(b.url.clone()))
        .await
        .unwrap();
    watching
        .subscribe(SubscribeRequestParams::new("board://default"))
        .await
        .unwrap();
    let mut page = reqwest::get(format!("{}/boards/default/events", b.base()))
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let mut buffer = String::new();
    within_hang(
        "the page's first state",
        event_holding(&mut page, &mut buffer, "exists"),
    )
    .await;
    for round in 0..3 {
        let title = format!("news {round}");
        let sent = Instant::now();
        ok(&writer, "add_tasks", json!({"tasks": [{"title": title}]})).await;
        let uri = within_hang("the notification on the other replica", updates.recv()).await;
        let heard = sent.elapsed();
        assert_eq!(uri.as_deref(), Some("board://default"));
        within_hang(
            "the page's event",
            event_holding(&mut page, &mut buffer, &title),
        )
        .await;
        // A figure, not an assertion (the bench measures p50/p99).
        eprintln!("round {round}: notification on the other replica after {heard:?}");
        let read = ok(&reader, "get_tasks", json!({})).await;
        assert!(read.contains(&title), "{read}");
    }
    writer.cancel().await.unwrap();
    reader.cancel().await.unwrap();
    watching.cancel().await.unwrap();
}

/// Adds tasks through `client` until `stop`, one per call, counting the
/// acknowledged ones in `acked`; returns the titles acknowledged and the
/// errors answered.
async fn write_until(
    client: common::Client,
    prefix: String,
    stop: Arc<AtomicBool>,
    acked: Arc<AtomicUsize>,
) -> (Vec<String>, Vec<String>) {
    let (mut acknowledged, mut errors) = (Vec::new(), Vec::new());
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        let title = format!("{prefix}-{n}");
        n += 1;
        let args = json!({"tasks": [{"title": title}]});
        match common::try_call(&client, "add_tasks", args).await {
            Ok((false, _)) => {
                acknowledged.push(title);
                acked.fetch_add(1, Ordering::SeqCst);
            }
            Ok((true, text)) => {
                errors.push(text);
                // Pace the retries while the database is away.
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            // The replica is gone (killed): this writer is done.
            Err(error) => {
                errors.push(format!("protocol: {error}"));
                break;
            }
        }
    }
    let _ = client.cancel().await;
    (acknowledged, errors)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replica_killed_mid_write_loses_nothing_it_acknowledged() {
    let Some(cluster) = Cluster::start_or_skip("postgres SIGKILL") else {
        return;
    };
    let url = cluster.database("kill");
    let mut servers = replicas(2, &url).await;
    let stop = Arc::new(AtomicBool::new(false));
    let (acked_a, acked_b) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let titles_a = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let (mut on_a, mut on_b) = (Vec::new(), Vec::new());
    for w in 0..4 {
        let client = servers[0].client().await;
        let (acked, titles) = (acked_a.clone(), titles_a.clone());
        let prefix = format!("a-w{w}");
        let stopped = stop.clone();
        // Records each acknowledged title at once: the task is aborted
        // (its replica is gone, its client may wait for it long).
        on_a.push(tokio::spawn(async move {
            let mut n = 0;
            while !stopped.load(Ordering::SeqCst) {
                let title = format!("{prefix}-{n}");
                n += 1;
                let args = json!({"tasks": [{"title": title}]});
                match common::try_call(&client, "add_tasks", args).await {
                    Ok((false, _)) => {
                        titles.lock().push(title);
                        acked.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok((true, text)) => panic!("refused before the kill: {text}"),
                    Err(_) => break,
                }
            }
        }));
        let client = servers[1].client().await;
        let task = write_until(client, format!("b-w{w}"), stop.clone(), acked_b.clone());
        on_b.push(tokio::spawn(task));
    }
    common::eventually("20 changes through replica A", || async {
        (acked_a.load(Ordering::SeqCst) >= 20).then_some(())
    })
    .await;
    common::signal(servers[0].pid(), "KILL");
    servers[0].wait().await;
    let after_kill = acked_b.load(Ordering::SeqCst);
    common::eventually("20 more changes through replica B", || async {
        (acked_b.load(Ordering::SeqCst) >= after_kill + 20).then_some(())
    })
    .await;
    stop.store(true, Ordering::SeqCst);
    for writer in on_a {
        writer.abort();
    }
    let mut acknowledged: BTreeSet<String> = titles_a.lock().iter().cloned().collect();
    for writer in on_b {
        let (titles, errors) = writer.await.unwrap();
        assert!(errors.is_empty(), "replica B refused: {errors:?}");
        acknowledged.extend(titles);
    }
    let board = ok(&servers[1].client().await, "get_tasks", json!({})).await;
    let stored = titles(&board);
    let lost: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_database_restarted_mid_write_fails_calls_clearly_then_serves_again() {
    let Some(cluster) = Cluster::start_or_skip("postgres restart") else {
        return;
    };
    let url = cluster.database("restart");
    let servers = replicas(2, &url).await;
    let pids: Vec<u32> = servers.iter().map(HttpServer::pid).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(AtomicUsize::new(0));
    let mut writers = Vec::new();
    for w in 0..4 {
        let client = servers[w % 2].client().await;
        writers.push(tokio::spawn(write_until(
            client,
            format!("w{w}"),
            stop.clone(),
            acked.clone(),
        )));
    }
    common::eventually("20 changes", || async {
        (acked.load(Ordering::SeqCst) >= 20).then_some(())
    })
    .await;
    cluster.stop_immediate();
    // While it is away, a call answers an error, and says why.
    let probe = servers[1].client().await;
    let (refused, text) = call(
        &probe,
        "add_tasks",
        json!({"tasks": [{"title": "while away"}]}),
    )
    .await;
    assert!(refused, "{text}");
    assert!(
        text.starts_with(
            "The board could not be loaded (cannot read board default in the database: "
        ) || text.starts_with("Nothing changed: the board could not be saved (cannot "),
        "{text}"
    );
    assert!(!text.contains(crate::common::postgres::PASSWORD), "{text}");
    let (refused, text) = call(&probe, "get_tasks", json!({})).await;
    assert!(refused, "{text}");
    assert!(text.contains("in the database: "), "{text}");
    let before = acked.load(Ordering::SeqCst);
    cluster.start_again();
    common::eventually("20 more changes once it is back", || async {
        (acked.load(Ordering::SeqCst) >= before + 20).then_some(())
    })
    .await;
    stop.store(true, Ordering::SeqCst);
    let mut acknowledged = BTreeSet::new();
    let mut errors = Vec::new();
    for writer in writers {
        let (titles, failed) = writer.await.unwrap();
        acknowledged.extend(titles);
        errors.extend(failed);
    }
    for error in &errors {
        assert!(
            !error.starts_with("protocol:"),
            "a call failed outside MCP: {error}"
        );
        assert!(error.contains("in the database: "), "{error}");
    }
    let board = ok(&probe, "get_tasks", json!({})).await;
    let stored = titles(&board);
    let lost: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    assert!(!stored.contains("while away"));
    assert_eq!(
        servers.iter().map(HttpServer::pid).collect::<Vec<_>>(),
        pids,
        "the same processes"
    );
    eprintln!(
        "{} changes acknowledged, {} calls refused while the database was away",
        acknowledged.len(),
        errors.len()
    );
    probe.cancel().await.unwrap();
}
