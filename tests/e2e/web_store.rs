// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The web board tells the truth about its store, against real engines,
//! read as a person reads it (the page's HTML text, its JSON, its events):
//! a PostgreSQL database stopped under a running server (the page, its
//! JSON and open event streams say the store cannot be reached, with the
//! board as last read; they recover once it is back); and a git board with
//! sync on whose remote goes away (the page shows the last sync, the
//! remote offline, the change not pushed yet, and once the remote is back
//! the operation the merge set aside, in words).

use crate::common;
use crate::common::postgres::{Cluster, PASSWORD};
use crate::sync::{Clones, call, delete_then_complete};
use crate::web::{board_data, next_event};

use common::{HttpServer, id, ok};
use serde_json::{Value, json};

/// One element of a page: whether it is hidden, its opening tag and its
/// text (tags dropped, entities decoded).
#[derive(Debug)]
struct Element {
    hidden: bool,
    open: String,
    text: String,
}

/// The element with `id="{id}"` in `html`; panics when there is none. Good
/// enough for our own pages: the element holds no element of its own tag.
fn element(html: &str, id: &str) -> Element {
    let at = html
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in {html}"));
    let start = html[..at].rfind('<').unwrap();
    let open_end = at + html[at..].find('>').unwrap() + 1;
    let open = html[start..open_end].to_owned();
    let tag: String = open[1..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let close = open_end + html[open_end..].find(&format!("</{tag}>")).unwrap();
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[open_end..close].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    Element {
        hidden: open.contains(" hidden"),
        open,
        text: text.trim().to_owned(),
    }
}

/// `GET /boards/{board}`: the page, which must be served.
async fn page(base: &str, board: &str) -> String {
    let response = reqwest::get(format!("{base}/boards/{board}"))
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{text}");
    text
}

/// `GET /boards/{board}.json`, which must be served.
async fn board_json(base: &str, board: &str) -> Value {
    let response = reqwest::get(format!("{base}/boards/{board}.json"))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// An open event stream of board `board`.
struct Events {
    stream: reqwest::Response,
    buffer: String,
}

impl Events {
    async fn open(base: &str, board: &str) -> Self {
        let stream = reqwest::get(format!("{base}/boards/{board}/events"))
            .await
            .unwrap();
        assert_eq!(stream.status(), 200);
        Self {
            stream,
            buffer: String::new(),
        }
    }

    /// The data of the next event, a `board` event.
    async fn next(&mut self) -> Value {
        board_data(&next_event(&mut self.stream, &mut self.buffer).await)
    }

    /// The data of the first event whose state `until` accepts.
    async fn until(&mut self, what: &str, until: impl Fn(&Value) -> bool) -> Value {
        common::within_hang(what, async {
            loop {
                let data = self.next().await;
                if until(&data) {
                    return data;
                }
            }
        })
        .await
    }
}

/// Whether the store's state in a board's JSON is `unreachable`.
fn unreachable(data: &Value) -> bool {
    data["store"]["state"] == "unreachable"
}

#[tokio::test]
async fn a_page_over_a_database_that_stops_says_so_and_recovers() {
    let Some(cluster) = Cluster::start_or_skip("web store: a database that stops") else {
        return;
    };
    let url = cluster.database("webstore");
    let pairs = crate::postgres::on(&url);
    let server = HttpServer::start(&[], &crate::postgres::env(&pairs)).await;
    let base = server.base().to_owned();
    let agent = server.client_for("ops").await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "Before the outage"}]}),
    )
    .await;

    // All is well: the page says nothing of its store.
    let html = page(&base, "ops").await;
    assert!(element(&html, "store").hidden, "{html}");
    assert!(board_json(&base, "ops").await.get("store").is_none());
    let mut events = Events::open(&base, "ops").await;
    let first = events.next().await;
    assert!(first.get("store").is_none(), "{first}");

    cluster.stop_immediate();

    // A reload shows the page, the board as last read, and why it may be
    // stale; never the password.
    let html = page(&base, "ops").await;
    let store = element(&html, "store");
    assert!(!store.hidden, "{store:?}");
    assert!(
        store.open.contains("data-state=\"unreachable\""),
        "{store:?}"
    );
    let problem = element(&html, "store-problem");
    assert!(!problem.hidden, "{problem:?}");
    assert!(
        problem.text.starts_with("The store cannot be reached: "),
        "{problem:?}"
    );
    let stale = element(&html, "store-stale");
    assert!(!stale.hidden, "{stale:?}");
    assert_eq!(
        stale.text,
        "The board below is as this server last read it."
    );
    assert_ne!(element(&html, "live").text, "Live");
    assert!(element(&html, "columns").text.contains("Before the outage"));
    assert!(!html.contains(PASSWORD), "{html}");
    let json = board_json(&base, "ops").await;
    assert!(unreachable(&json), "{json}");
    // (The driver's words may differ from one check to the next: a pooled
    // connection found closed, then a connection refused.)
    let said = json["store"]["problem"].as_str().unwrap_or_default();
    assert!(said.starts_with("The store cannot be reached: "), "{json}");
    assert_eq!(json["tasks"][0]["title"], "Before the outage");
    // The open stream tells within a check; a stream opened now starts
    // with it.
    let down = events
        .until("the stream tells the outage", unreachable)
        .await;
    assert_eq!(down["tasks"][0]["title"], "Before the outage");
    let mut late = Events::open(&base, "ops").await;
    let told = late.next().await;
    assert!(unreachable(&told), "{told}");
    let said = told["store"]["problem"].as_str().unwrap_or_default();
    assert!(said.starts_with("The store cannot be reached: "), "{told}");
    assert!(!told.to_string().contains(PASSWORD), "{told}");
    // A write is refused, and says why.
    let (refused, text) = common::call(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "During the outage"}]}),
    )
    .await;
    assert!(refused, "{text}");

    cluster.start_again();

    // Both streams say the store is back; so does a reload; and a write
    // reaches the open pages.
    for stream in [&mut events, &mut late] {
        let back = stream
            .until("the stream tells the store is back", |d| {
                d.get("store").is_none()
            })
            .await;
        assert_eq!(back["tasks"][0]["title"], "Before the outage");
    }
    let html = page(&base, "ops").await;
    assert!(element(&html, "store").hidden, "{html}");
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "After the outage"}]}),
    )
    .await;
    let after = events
        .until("the stream carries the write", |d| {
            d["tasks"].as_array().is_some_and(|t| t.len() == 2)
        })
        .await;
    assert!(after.get("store").is_none(), "{after}");
    assert!(after.to_string().contains("After the outage"), "{after}");
    assert!(!after.to_string().contains("During the outage"), "{after}");
}

#[tokio::test]
async fn a_git_boards_page_shows_its_sync_an_unreachable_remote_and_what_was_set_aside() {
    let clones = Clones::new(&["alice", "bob"], "on_change = true\n");
    let web = HttpServer::start_command(clones.command("alice"), 0, &[], &[]).await;
    let base = web.base().to_owned();
    let alice = web.client().await;
    let bob = clones.server("bob").await;
    let task = id("Write the parser");
    ok(
        &alice,
        "add_tasks",
        json!({"tasks": [{"title": "Write the parser"}, {"title": "Write the docs"}]}),
    )
    .await;
    ok(
        &alice,
        "claim_task",
        json!({"agent": "alice-agent", "task_id": task}),
    )
    .await;

    // Pushed: the page tells when, and nothing else.
    let html = page(&base, "default").await;
    let store = element(&html, "store");
    assert!(
        !store.hidden && store.open.contains("data-state=\"ok\""),
        "{store:?}"
    );
    let last = element(&html, "sync-last");
    assert!(!last.hidden && last.text.ends_with(" UTC"), "{last:?}");
    for quiet in [
        "store-problem",
        "sync-offline",
        "sync-unpushed",
        "set-aside",
    ] {
        assert!(element(&html, quiet).hidden, "#{quiet}: {html}");
    }
    let before = board_json(&base, "default").await;
    let synced = before["store"]["sync"]["last_sync"]
        .as_str()
        .unwrap()
        .to_owned();
    common::eventually("bob's board has the task", || async {
        let (_, tasks) = call(&bob, "get_tasks", json!({})).await;
        tasks.contains("Write the parser").then_some(())
    })
    .await;
    let mut events = Events::open(&base, "default").await;

    // The remote goes away. Offline, bob deletes the task; then alice's
    // agent completes it, with evidence: kept on alice's clone.
    let away = clones.remote.with_extension("away");
    std::fs::rename(&clones.remote, &away).unwrap();
    delete_then_complete(&bob, &alice, &task).await;
    let html = common::eventually("the page shows the remote offline", || async {
        let html = page(&base, "default").await;
        (!element(&html, "sync-offline").hidden).then_some(html)
    })
    .await;
    // In git's words, not the command line it ran.
    let gone = "does not appear to be a git repository";
    let offline = element(&html, "sync-offline");
    assert!(
        offline.text.starts_with("Sync offline: ") && offline.text.contains(gone),
        "{offline:?}"
    );
    assert!(!offline.text.contains("--no-tags"), "{offline:?}");
    let unpushed = element(&html, "sync-unpushed");
    assert!(!unpushed.hidden, "{html}");
    assert!(
        unpushed.text.starts_with("Not pushed yet: ") && unpushed.text.contains(gone),
        "{unpushed:?}"
    );
    assert!(element(&html, "set-aside").hidden, "{html}");
    // Not a store that is down: the board reads, as this clone has it.
    assert!(element(&html, "store-problem").hidden, "{html}");
    assert!(element(&html, "columns").text.contains("Write the parser"));

    // The remote is back: bob's sync pushes the delete; alice's server,
    // while its page is open, syncs on its own, and the merge sets her
    // completion aside (delete wins).
    std::fs::rename(&away, &clones.remote).unwrap();
    let (synced_bob, out) = clones.sync("bob").await;
    assert!(synced_bob, "{out}");
    let html = common::eventually("the page shows the set-aside completion", || async {
        let html = page(&base, "default").await;
        let done = !element(&html, "set-aside").hidden
            && element(&html, "sync-unpushed").hidden
            && element(&html, "sync-offline").hidden;
        done.then_some(html)
    })
    .await;
    let aside = element(&html, "set-aside");
    assert!(aside.text.starts_with("Set aside (1)"), "{aside:?}");
    let words = format!(
        "alice-agent's release_task of [{task}] 'Write the parser' as completed, with evidence, \
         set aside: the task had been deleted on another clone; delete wins"
    );
    assert!(aside.text.contains(&words), "{aside:?}");
    assert!(!element(&html, "columns").text.contains("Write the parser"));
    let after = board_json(&base, "default").await;
    let sync = &after["store"]["sync"];
    assert_eq!(
        sync["set_aside"].as_array().map(Vec::len),
        Some(1),
        "{sync}"
    );
    assert!(
        sync["offline"].is_null() && sync["unpushed"].is_null(),
        "{sync}"
    );
    assert!(
        sync["last_sync"].as_str().unwrap() > synced.as_str(),
        "{sync} after {synced}"
    );
    // The open stream told it too.
    let told = events
        .until("the stream tells the set-aside", |d| {
            d["store"]["sync"]["set_aside"].as_array().map(Vec::len) == Some(1)
        })
        .await;
    assert!(told.to_string().contains(&words), "{told}");
    // Alice's server pushed what waited: the remote holds her evidence.
    let log = common::git(
        &clones.remote,
        &["log", "-p", "refs/planning/boards/default"],
    );
    assert!(log.contains("all parser tests pass"), "{log}");
}
