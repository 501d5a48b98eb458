// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The web board in a real browser (headless Chromium): cards appear and
//! move column live, without a reload, when agents change the board over
//! MCP; user text stays text; the page reconnects after a server restart;
//! with toolset `team`, holders, lease ends, links and evidence show live;
//! the pages load their icon and log nothing to the console.
//! Skipped with a message where Chromium is not installed, unless
//! `PLANNING_REQUIRE_BROWSER=1`.
//!
//! How long a change takes to show is printed (`--nocapture`), not
//! asserted: the web board aims at 2 s (docs/web.md), and a loaded machine
//! may be slower without anything being wrong; the waits only catch hangs.
//!
//! `cargo test --test e2e -- --ignored browser::screenshot` writes
//! `docs/web-board.png`.

use crate::common;

use std::time::Duration;

use common::postgres::Cluster;
use common::webdriver::{Browser, decode_base64};
use common::{HttpServer, id, ok};
use planning_mcp_server::api::planning::TaskId;
use serde_json::{Value, json};

const TOKEN: &str = "browser-token";
const SCRIPT: &str = "<script>alert(1)</script>";

/// Returns the status of the column that holds card `arguments[0]`, or null.
const COLUMN_OF: &str = "const card = document.getElementById('task-' + arguments[0]); \
                         return card ? card.closest('.column').dataset.status : null;";

/// Returns the connection state the page shows.
const LIVE_STATE: &str = "return document.getElementById('live').dataset.state || null;";

async fn wait_live(browser: &Browser, what: &str) {
    browser
        .wait_for(what, LIVE_STATE, json!([]), json!("live"))
        .await;
}

/// Waits until the page shows a change (`script` returns `expected`) and
/// prints how long that took.
async fn shows(browser: &Browser, what: &str, script: &str, args: Value, expected: Value) {
    let took = browser.wait_for(what, script, args, expected).await;
    println!("web board: {what} shown after {} ms", took.as_millis());
}

async fn card_in(browser: &Browser, title: &str, status: &str) {
    let what = format!("card {title:?} in column {status}");
    shows(browser, &what, COLUMN_OF, json!([id(title)]), json!(status)).await;
}

/// The text of the title of the card of [`SCRIPT`], how many `<script>`
/// elements the page has (its own one), and how many elements are inside
/// card titles (none: titles are text).
async fn shown_title(browser: &Browser) -> Value {
    let script = "const card = document.getElementById('task-' + arguments[0]); \
                  return [card.querySelector('.title').textContent, \
                          document.querySelectorAll('script').length, \
                          document.querySelectorAll('#board h3 *').length];";
    browser.run(script, json!([id(SCRIPT)])).await
}

#[test]
fn screenshots_decode() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}

#[tokio::test]
async fn cards_appear_and_move_live_and_user_text_stays_text() {
    let Some(browser) = Browser::start("cards_appear_and_move_live", 1280, 900).await else {
        return;
    };
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_AUTH_TOKEN", TOKEN)]).await;
    let base = server.base();
    // An agent's session creates the board (a page never does).
    let agent = common::client_with_token(&server.board_url("live"), TOKEN).await;

    // Sign in once with the token; the page comes back without it.
    browser
        .goto(&format!("{base}/boards/live?token={TOKEN}"))
        .await;
    assert_eq!(browser.url().await, format!("{base}/boards/live"));
    wait_live(&browser, "the page connects").await;
    browser.run("window.notReloaded = true;", json!([])).await;

    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "Appears live"}]}),
    )
    .await;
    card_in(&browser, "Appears live", "pending").await;
    ok(
        &agent,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("Appears live"), "status": "in_progress"}]}),
    )
    .await;
    card_in(&browser, "Appears live", "in_progress").await;

    // A title that is markup arrives through the script's rendering...
    ok(&agent, "add_tasks", json!({"tasks": [{"title": SCRIPT}]})).await;
    card_in(&browser, SCRIPT, "pending").await;
    assert_eq!(
        shown_title(&browser).await,
        json!([SCRIPT, 1, 0]),
        "shown as text, not run"
    );
    assert_eq!(
        browser
            .run("return window.notReloaded === true;", json!([]))
            .await,
        json!(true),
        "all of it without a reload"
    );

    // The keyboard: arrow keys move between cards, and the focus stays on
    // its card when an update re-renders the columns.
    let focused = "return document.activeElement.id;";
    let key = "document.activeElement.dispatchEvent(new KeyboardEvent('keydown', \
               {key: arguments[0], bubbles: true}));";
    browser
        .run(
            "document.getElementById('task-' + arguments[0]).focus();",
            json!([id(SCRIPT)]),
        )
        .await;
    browser.run(key, json!(["ArrowRight"])).await;
    let on_right = json!(format!("task-{}", id("Appears live")));
    assert_eq!(browser.run(focused, json!([])).await, on_right);
    browser.run(key, json!(["ArrowLeft"])).await;
    assert_eq!(
        browser.run(focused, json!([])).await,
        json!(format!("task-{}", id(SCRIPT)))
    );
    ok(&agent, "add_tasks", json!({"tasks": [{"title": "Third"}]})).await;
    card_in(&browser, "Third", "pending").await;
    assert_eq!(
        browser.run(focused, json!([])).await,
        json!(format!("task-{}", id(SCRIPT))),
        "the focus survives the update"
    );

    // ...and through the server's page (the cookie signs the browser in).
    browser.goto(&format!("{base}/boards/live")).await;
    assert_eq!(browser.url().await, format!("{base}/boards/live"));
    assert_eq!(shown_title(&browser).await, json!([SCRIPT, 1, 0]));
    let title = browser.run("return document.title;", json!([])).await;
    assert_eq!(title, json!("live · planning board"));
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn the_pages_load_their_icon_and_log_no_error() {
    let Some(browser) = Browser::start("the_pages_load_their_icon", 1024, 768).await else {
        return;
    };
    let server = HttpServer::start(&[], &[]).await;
    let base = server.base();
    let agent = common::client_at(&server.board_url("icon")).await;
    ok(&agent, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;

    let mut responses = Vec::new();
    for page in ["/", "/boards/icon"] {
        browser.goto(&format!("{base}{page}")).await;
        // The browser asks for the page's icon (or, without one named, for
        // /favicon.ico) after the page: wait until it has its answer.
        let icon = |(_, url): &(u64, String)| {
            url.ends_with("/assets/icon.svg") || url.ends_with("/favicon.ico")
        };
        common::within_hang("the page's icon asked for", async {
            loop {
                // The server's answers (not the browser's own pages).
                let ours = browser.responses().await.into_iter();
                responses.extend(ours.filter(|(_, url)| url.starts_with(base)));
                if responses.iter().any(icon) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        })
        .await;
    }
    wait_live(&browser, "the page connects").await;
    assert!(
        responses
            .iter()
            .any(|r| *r == (200, format!("{base}/assets/icon.svg"))),
        "{responses:?}"
    );
    let failed: Vec<_> = responses
        .iter()
        .filter(|(status, _)| *status >= 400)
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    // Nothing failed to load and the policy blocked nothing.
    assert_eq!(browser.console().await, Vec::<Value>::new());
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn the_page_reconnects_after_a_server_restart() {
    let Some(browser) = Browser::start("the_page_reconnects", 1024, 768).await else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let flags = common::file_storage(&home.path().join("store"));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let port = common::free_port();
    let mut server = HttpServer::start_on(&home, port, &args, &[]).await;
    // The board exists once an agent saved something on it.
    let first = common::client_with_token(&server.board_url("restart"), "unused").await;
    ok(
        &first,
        "set_goal",
        json!({"title": "Survive a restart", "description": ""}),
    )
    .await;
    first.cancel().await.unwrap();
    let page = format!("{}/boards/restart", server.base());
    browser.goto(&page).await;
    wait_live(&browser, "the page connects").await;
    browser.run("window.notReloaded = true;", json!([])).await;

    common::signal(server.pid(), "TERM");
    assert!(server.wait().await.success());
    shows(
        &browser,
        "the notice that the server is gone",
        "return document.getElementById('live').dataset.state !== 'live';",
        json!([]),
        json!(true),
    )
    .await;

    let server = HttpServer::start_on(&home, port, &args, &[]).await;
    let took = browser
        .wait_for("the page reconnects", LIVE_STATE, json!([]), json!("live"))
        .await;
    println!("web board: reconnected after {} ms", took.as_millis());
    let agent = common::client_with_token(&server.board_url("restart"), "unused").await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "After the restart"}]}),
    )
    .await;
    card_in(&browser, "After the restart", "pending").await;
    assert_eq!(
        browser
            .run("return window.notReloaded === true;", json!([]))
            .await,
        json!(true)
    );
    agent.cancel().await.unwrap();
}

/// The text of a part (`.claim`, `.blocked`, `.evidence`) of card
/// `arguments[0]`, or null.
const CARD_PART: &str = "const card = document.getElementById('task-' + arguments[0]); \
                         const part = card && card.querySelector(arguments[1]); \
                         return part ? part.textContent : null;";

#[tokio::test]
async fn team_fields_show_on_the_cards_live() {
    let Some(browser) = Browser::start("team_fields_show_live", 1280, 900).await else {
        return;
    };
    let server = HttpServer::start(&["--toolsets", "planning,team"], &[]).await;
    let agent = server.client().await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Team", "description": ""}),
    )
    .await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "First"}, {"title": "Second"}]}),
    )
    .await;
    browser
        .goto(&format!("{}/boards/default", server.base()))
        .await;
    wait_live(&browser, "the page connects").await;
    browser.run("window.notReloaded = true;", json!([])).await;

    let part = |title: &str, selector: &str, expected: Value| {
        let (browser, title, selector) = (&browser, id(title), selector.to_owned());
        async move {
            let what = format!("{selector} of {title} as {expected}");
            shows(
                browser,
                &what,
                CARD_PART,
                json!([title, selector]),
                expected,
            )
            .await;
        }
    };
    ok(
        &agent,
        "link_tasks",
        json!({"task_id": id("Second"), "blocked_by": [id("First")]}),
    )
    .await;
    part(
        "Second",
        ".blocked",
        json!(format!("Waits for ☐{}", id("First"))),
    )
    .await;
    ok(
        &agent,
        "claim_task",
        json!({"agent": "<worker-1>", "lease_minutes": 30}),
    )
    .await;
    card_in(&browser, "First", "in_progress").await;
    let claim = browser.run(CARD_PART, json!([id("First"), ".claim"])).await;
    assert!(
        claim
            .as_str()
            .unwrap()
            .starts_with("Held by <worker-1> until "),
        "{claim}"
    );
    ok(
        &agent,
        "set_done_when",
        json!({"condition": "make check passes"}),
    )
    .await;
    shows(
        &browser,
        "the done-when condition",
        "const p = document.getElementById('done-when'); return p && !p.hidden ? p.textContent : null;",
        json!([]),
        json!("Done when: make check passes"),
    )
    .await;
    ok(
        &agent,
        "release_task",
        json!({"agent": "<worker-1>", "task_id": id("First"), "status": "completed",
               "command": "make check", "exit_code": 0, "url": "https://ci.example/1"}),
    )
    .await;
    card_in(&browser, "First", "completed").await;
    part(
        "First",
        ".evidence",
        json!("Evidence: make check → exit 0 · https://ci.example/1 (<worker-1>)"),
    )
    .await;
    part(
        "Second",
        ".blocked",
        json!(format!("Waits for ☑{}", id("First"))),
    )
    .await;
    assert_eq!(
        browser.run(CARD_PART, json!([id("First"), ".claim"])).await,
        Value::Null,
        "the claim ended"
    );
    let link =
        "const a = document.querySelector('.evidence a'); return a && a.getAttribute('href');";
    assert_eq!(
        browser.run(link, json!([])).await,
        json!("https://ci.example/1")
    );
    assert_eq!(
        browser
            .run("return window.notReloaded === true;", json!([]))
            .await,
        json!(true),
        "all of it without a reload"
    );
    agent.cancel().await.unwrap();
}

/// The board of the README's screenshot: a goal that changed once, and 20
/// tasks in every status.
const SCREENSHOT_TASKS: [(&str, &str, &str); 20] = [
    ("Read the issue and the architecture notes", "", "completed"),
    (
        "Sketch the routes",
        "/, /boards/{name}, .json, .md and /events",
        "completed",
    ),
    (
        "JSON view of a board",
        "A stable, documented shape with a version",
        "completed",
    ),
    (
        "Escape all user text",
        "<script>alert(1)</script> shows as text",
        "completed",
    ),
    (
        "Server-rendered board page",
        "Goal, history, progress bar, Kanban columns",
        "completed",
    ),
    (
        "Embedded stylesheet",
        "Light and dark; phone and wide screen",
        "completed",
    ),
    ("Board list with counts", "", "completed"),
    (
        "List the stored boards",
        "Opened lazily, within max_boards",
        "completed",
    ),
    (
        "Live updates over SSE",
        "One event per change with the full state",
        "in_progress",
    ),
    (
        "Browser sign-in with a cookie",
        "?token= sets an HttpOnly, SameSite=Strict cookie",
        "in_progress",
    ),
    (
        "Keyboard navigation between cards",
        "Arrow keys, Home and End",
        "pending",
    ),
    (
        "Headless Chromium test",
        "Cards appear and move within 2 seconds",
        "pending",
    ),
    ("Screenshot for the README", "", "pending"),
    (
        "docs/web.md",
        "Routes, JSON shape, events, sign-in, CSP",
        "pending",
    ),
    ("Install Chromium in CI", "", "pending"),
    (
        "Measure the page weight",
        "Under 50 KB with its assets",
        "pending",
    ),
    (
        "Announce the connection state",
        "A polite live region for screen readers",
        "pending",
    ),
    (
        "Render Markdown in descriptions",
        "Needs a parser; plain text is safer",
        "failed",
    ),
    (
        "Try a WebSocket transport",
        "SSE is simpler and reconnects by itself",
        "cancelled",
    ),
    (
        "Bundle a web font",
        "No network fonts: system fonts only",
        "cancelled",
    ),
];

#[tokio::test]
#[ignore = "writes docs/web-board.png; run with --ignored"]
async fn screenshot_of_a_twenty_task_board() {
    let Some(browser) = Browser::start("screenshot", 1400, 1000).await else {
        return;
    };
    let server = HttpServer::start(&[], &[]).await;
    let agent = common::client_with_token(&server.board_url("web"), "unused").await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Ship the live web board", "description": "A read-only view of every board"}),
    )
    .await;
    ok(
        &agent,
        "change_goal",
        json!({
            "title": "Ship the live web board for issue 6",
            "description": "A read-only, self-contained view of every board in a browser, \
                            updated live over Server-Sent Events.",
            "reason": "The operator asked to name the issue and the transport",
        }),
    )
    .await;
    let tasks: Vec<Value> = SCREENSHOT_TASKS
        .iter()
        .map(|(title, description, _)| json!({"title": title, "description": description}))
        .collect();
    ok(&agent, "add_tasks", json!({ "tasks": tasks })).await;
    let updates: Vec<Value> = SCREENSHOT_TASKS
        .iter()
        .filter(|(_, _, status)| *status != "pending")
        .map(|(title, description, status)| {
            json!({"task_id": TaskId::from_content(title, description).to_string(), "status": status})
        })
        .collect();
    ok(&agent, "update_task_statuses", json!({ "tasks": updates })).await;

    browser.goto(&format!("{}/boards/web", server.base())).await;
    wait_live(&browser, "the page connects").await;
    // Show the goal's history with its reason, and every card.
    browser
        .run(
            "document.getElementById('goal-history').open = true;",
            json!([]),
        )
        .await;
    browser.fit_page(1400).await;
    let png = browser.screenshot().await;
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let path = std::env::var_os("PLANNING_SCREENSHOT").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/web-board.png"),
        std::path::PathBuf::from,
    );
    std::fs::write(&path, png).unwrap();
    eprintln!("wrote {}", path.display());
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn dispatches_and_touches_show_on_the_cards_and_stall_without_an_event() {
    let Some(browser) = Browser::start("dispatches_show_live", 1280, 900).await else {
        return;
    };
    // The server's clock runs 40 s behind the browser's: a dispatch with a
    // one-minute lease is in flight for the server, and its time runs out
    // for the page twenty seconds later, with no event (twenty seconds in
    // which the page shows it in flight: far more than a busy machine needs).
    let behind = [("PLANNING_TEST_CLOCK_OFFSET", "-40")];
    let server = HttpServer::start(&["--toolsets", "planning,team"], &behind).await;
    let lead = server.client().await;
    ok(
        &lead,
        "set_goal",
        json!({"title": "Team", "description": ""}),
    )
    .await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}, {"title": "Docs"}]}),
    )
    .await;
    browser
        .goto(&format!("{}/boards/default", server.base()))
        .await;
    wait_live(&browser, "the page connects").await;
    browser.run("window.notReloaded = true;", json!([])).await;
    ok(
        &lead,
        "set_touches",
        json!({"task_id": id("Parser"), "touches": ["src/parser/**", "tests/<p>.rs"]}),
    )
    .await;
    shows(
        &browser,
        "the touches",
        CARD_PART,
        json!([id("Parser"), ".touches"]),
        json!("Touches src/parser/** tests/<p>.rs"),
    )
    .await;
    ok(
        &lead,
        "dispatch_task",
        json!({"lead": "lead", "worker": "<w1>", "task_id": id("Docs"), "worktree": "../wt", "lease_minutes": 1}),
    )
    .await;
    let dispatch = "const p = document.querySelector('#task-' + arguments[0] + ' .dispatch'); \
                    const t = p && p.querySelector('time'); \
                    return p ? [p.dataset.state, p.textContent.slice(0, p.textContent.length - t.textContent.length)] : null;";
    shows(
        &browser,
        "the dispatch in flight",
        dispatch,
        json!([id("Docs")]),
        json!([
            "in_flight",
            "<w1> in ../wt (by lead) · Dispatched: claim by "
        ]),
    )
    .await;
    let counts = "const p = document.getElementById('dispatches'); \
                  return p && !p.hidden ? p.textContent : null;";
    shows(
        &browser,
        "one in flight",
        counts,
        json!([]),
        json!("1 in flight · 0 stalled"),
    )
    .await;
    // No change on the board: the page's own clock stalls it.
    shows(
        &browser,
        "the dispatch stalled",
        dispatch,
        json!([id("Docs")]),
        json!([
            "stalled",
            "<w1> in ../wt (by lead) · Stalled: not claimed by "
        ]),
    )
    .await;
    shows(
        &browser,
        "one stalled",
        counts,
        json!([]),
        json!("0 in flight · 1 stalled"),
    )
    .await;
    assert_eq!(
        browser
            .run("return window.notReloaded === true;", json!([]))
            .await,
        json!(true),
        "all of it without a reload"
    );
    lead.cancel().await.unwrap();
}

/// Fills the form `arguments[0]` (a selector) with `arguments[1]` (field
/// names to values) and submits it as a person would.
const FILL_AND_SUBMIT: &str = "const form = document.querySelector(arguments[0]); \
     for (const [name, value] of Object.entries(arguments[1])) form.elements[name].value = value; \
     form.requestSubmit();";

/// Posts `arguments[1]` (JSON) to the write `arguments[0]` from the page,
/// with the header `X-CSRF-Token: arguments[2]` unless null; answers the
/// status.
const POST_FROM_PAGE: &str = "const done = arguments[arguments.length - 1]; \
     const headers = {'Content-Type': 'application/json'}; \
     if (arguments[2] !== null) headers['X-CSRF-Token'] = arguments[2]; \
     fetch(arguments[0], {method: 'POST', headers, body: JSON.stringify(arguments[1])}) \
       .then((r) => done(r.status), (e) => done(String(e)));";

/// The text of the card's title of task `arguments[0]`, or null.
const CARD_TITLE: &str = "const card = document.getElementById('task-' + arguments[0]); \
                          return card ? card.querySelector('.title').textContent : null;";

/// A page of another site (another port: another origin) whose form posts
/// `title=Forged` to `action`; served once per connection, for a while.
async fn foreign_site(action: String) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://127.0.0.1:{}/",
        listener.local_addr().unwrap().port()
    );
    let page = format!(
        "<!doctype html><title>elsewhere</title><form id=\"f\" method=\"post\" \
         action=\"{action}\"><input name=\"title\" value=\"Forged\">\
         <input name=\"csrf\" value=\"0123456789abcdef0123456789abcdef\"></form>"
    );
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut tcp, _)) = listener.accept().await {
            let mut buffer = [0u8; 4096];
            let _ = tcp.read(&mut buffer).await;
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = tcp.write_all(response.as_bytes()).await;
        }
    });
    url
}

#[tokio::test]
async fn a_person_adds_and_edits_tasks_live_in_another_page_and_forgeries_change_nothing() {
    let Some(person) = Browser::start("a_person_writes", 1280, 1000).await else {
        return;
    };
    let Some(watcher) = Browser::start("another_page_watches", 1024, 768).await else {
        return;
    };
    let server = HttpServer::start(&[], &[]).await;
    let base = server.base();
    let agent = common::client_at(&server.board_url("hands")).await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Steer the agents", "description": ""}),
    )
    .await;
    let page = format!("{base}/boards/hands");
    for browser in [&person, &watcher] {
        browser.goto(&page).await;
        wait_live(browser, "the page connects").await;
    }

    // Adds a task from the page; the other page shows it live.
    let add = json!({"title": "Review the plan", "description": "Before the agents start"});
    person
        .run(FILL_AND_SUBMIT, json!(["#add-task form", add]))
        .await;
    let old = TaskId::from_content("Review the plan", "Before the agents start").to_string();
    for browser in [&watcher, &person] {
        let what = "the added card, pending";
        shows(browser, what, COLUMN_OF, json!([old]), json!("pending")).await;
    }

    // Edits it: the card's Edit button fills the form; the ID follows the words.
    person
        .run(
            "document.querySelector('#task-' + arguments[0] + ' button.edit').click();",
            json!([old]),
        )
        .await;
    let filled = "const f = document.getElementById('edit-form'); \
                  return [f.elements.task_id.value, f.elements.title.value];";
    assert_eq!(
        person.run(filled, json!([])).await,
        json!([old, "Review the plan"])
    );
    person
        .run(
            FILL_AND_SUBMIT,
            json!(["#edit-form", {"title": "Review the whole plan"}]),
        )
        .await;
    let new = TaskId::from_content("Review the whole plan", "Before the agents start").to_string();
    shows(
        &watcher,
        "the edited title in the other page",
        CARD_TITLE,
        json!([new]),
        json!("Review the whole plan"),
    )
    .await;
    // The edit forms follow the new ID; the status goes through them too.
    shows(
        &person,
        "the edit form on the new ID",
        "return document.getElementById('status-form').elements.task_id.value;",
        json!([]),
        json!(new),
    )
    .await;
    person
        .run(
            FILL_AND_SUBMIT,
            json!(["#status-form", {"status": "in_progress"}]),
        )
        .await;
    shows(
        &watcher,
        "the card in progress in the other page",
        COLUMN_OF,
        json!([new]),
        json!("in_progress"),
    )
    .await;
    // The goal, from the page, with the reason a change needs.
    person
        .run(
            FILL_AND_SUBMIT,
            json!(["#set-goal form", {"title": "Steer the agents well", "reason": "Say how"}]),
        )
        .await;
    shows(
        &watcher,
        "the new goal in the other page",
        "return document.getElementById('goal-title').textContent;",
        json!([]),
        json!("Steer the agents well"),
    )
    .await;
    // The agents' view is the same board.
    let listed = ok(&agent, "get_tasks", json!({})).await;
    assert!(
        listed.contains(&format!("[{new}] Review the whole plan")),
        "{listed}"
    );
    if std::env::var_os("PLANNING_UPDATE_SCREENSHOTS").is_some() {
        person.fit_page(1280).await;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/web-writes.png");
        std::fs::write(&path, person.screenshot().await).unwrap();
        eprintln!("wrote {}", path.display());
    }

    // Without the CSRF token, or with a wrong one: 403, nothing changed.
    let action = format!("{base}/boards/hands/actions/add");
    let token = person
        .run(
            "return document.getElementById('writes').dataset.csrf;",
            json!([]),
        )
        .await;
    for given in [Value::Null, json!("fedcba9876543210fedcba9876543210")] {
        let status = person
            .run_async(
                POST_FROM_PAGE,
                json!([action, {"title": "Without the token"}, given]),
            )
            .await;
        assert_eq!(status, json!(403), "token {given}");
    }
    let status = person
        .run_async(POST_FROM_PAGE, json!([action, {"title": "With it"}, token]))
        .await;
    assert_eq!(status, json!(200), "the page's own token");
    card_in(&watcher, "With it", "pending").await;

    // From another site's page, a form that posts to the board: 403.
    let elsewhere = foreign_site(action.clone()).await;
    watcher.goto(&elsewhere).await;
    watcher
        .run("document.getElementById('f').submit();", json!([]))
        .await;
    shows(
        &watcher,
        "the refusal of a foreign origin",
        "return document.body ? document.body.textContent : '';",
        json!([]),
        json!(
            "Nothing changed: refused: the request came from another site (Sec-Fetch-Site: \
             same-site)\n"
        ),
    )
    .await;
    let listed = ok(&agent, "get_tasks", json!({})).await;
    for refused in ["Forged", "Without the token"] {
        assert!(!listed.contains(refused), "{listed}");
    }
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn with_a_token_a_write_needs_sign_in_first() {
    let Some(browser) = Browser::start("writes_need_sign_in", 1024, 768).await else {
        return;
    };
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_AUTH_TOKEN", TOKEN)]).await;
    let base = server.base();
    let agent = common::client_with_token(&server.board_url("guarded"), TOKEN).await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Guarded", "description": ""}),
    )
    .await;
    let action = format!("{base}/boards/guarded/actions/add");

    // Not signed in: 401 before any other check (no token, no origin).
    browser.goto(&format!("{base}/boards/guarded")).await;
    let status = browser
        .run_async(
            POST_FROM_PAGE,
            json!([action, {"title": "Anonymous"}, null]),
        )
        .await;
    assert_eq!(status, json!(401));

    // Signed in, the page's form works; a fetch without the token is 403.
    browser
        .goto(&format!("{base}/boards/guarded?token={TOKEN}"))
        .await;
    wait_live(&browser, "the page connects").await;
    let status = browser
        .run_async(POST_FROM_PAGE, json!([action, {"title": "No token"}, null]))
        .await;
    assert_eq!(status, json!(403));
    browser
        .run(
            FILL_AND_SUBMIT,
            json!(["#add-task form", {"title": "Signed in"}]),
        )
        .await;
    card_in(&browser, "Signed in", "pending").await;
    let listed = ok(&agent, "get_tasks", json!({})).await;
    assert!(listed.contains("Signed in"), "{listed}");
    for refused in ["Anonymous", "No token"] {
        assert!(!listed.contains(refused), "{listed}");
    }
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn the_page_is_not_live_while_its_store_cannot_be_read() {
    let Some(browser) = Browser::start("the_page_tells_the_store", 1024, 768).await else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&home, &args, &[]).await;
    let agent = common::client_at(&server.board_url("fragile")).await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Tell the truth", "description": ""}),
    )
    .await;
    browser
        .goto(&format!("{}/boards/fragile", server.base()))
        .await;
    wait_live(&browser, "the page connects").await;

    // Another process leaves a board the server cannot read: nothing
    // changes through this server, yet the page stops saying "Live".
    let file = store.join("fragile.json");
    let good = std::fs::read(&file).unwrap();
    std::fs::write(&file, b"{ not a board").unwrap();
    shows(
        &browser,
        "the store's problem",
        LIVE_STATE,
        json!([]),
        json!("problem"),
    )
    .await;
    let said = browser
        .run(
            "return document.getElementById('live').textContent;",
            json!([]),
        )
        .await;
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("The board cannot be read: "),
        "{said}"
    );
    // Readable again: live again, with the board as stored.
    std::fs::write(&file, good).unwrap();
    wait_live(&browser, "the page is live again").await;
    agent.cancel().await.unwrap();
}

/// Returns what the page's status line says.
const LIVE_TEXT: &str = "return document.getElementById('live').textContent;";

#[tokio::test]
async fn the_page_is_not_live_while_its_database_is_down() {
    let Some(cluster) = Cluster::start_or_skip("browser: a database that stops") else {
        return;
    };
    let Some(browser) = Browser::start("the_page_tells_the_database", 1024, 640).await else {
        return;
    };
    let url = cluster.database("webpage");
    let pairs = crate::postgres::on(&url);
    let server = HttpServer::start(&[], &crate::postgres::env(&pairs)).await;
    let agent = common::client_at(&server.board_url("ops")).await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Tell the truth", "description": "even with the database down"}),
    )
    .await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "Before the outage"}]}),
    )
    .await;
    browser.goto(&format!("{}/boards/ops", server.base())).await;
    wait_live(&browser, "the page connects").await;

    cluster.stop_immediate();
    shows(
        &browser,
        "the database down",
        LIVE_STATE,
        json!([]),
        json!("problem"),
    )
    .await;
    let said = browser.run(LIVE_TEXT, json!([])).await;
    let said = said.as_str().unwrap();
    assert!(said.starts_with("The store cannot be reached: "), "{said}");
    let boxed = browser
        .run(
            "const s = document.getElementById('store'); \
             return [s.hidden, document.getElementById('store-problem').textContent];",
            json!([]),
        )
        .await;
    assert_eq!(boxed, json!([false, said]));
    if std::env::var_os("PLANNING_UPDATE_SCREENSHOTS").is_some() {
        browser.fit_page(1024).await;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/web-store-down.png");
        std::fs::write(&path, browser.screenshot().await).unwrap();
        eprintln!("wrote {}", path.display());
    }

    cluster.start_again();
    wait_live(&browser, "the page is live again").await;
    shows(
        &browser,
        "the store's box gone",
        "return document.getElementById('store').hidden;",
        json!([]),
        json!(true),
    )
    .await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "After the outage"}]}),
    )
    .await;
    card_in(&browser, "After the outage", "pending").await;
}

/// Opens task `arguments[0]`'s edit panel from its card.
const OPEN_EDIT: &str = "document.querySelector('#task-' + arguments[0] + ' button.edit').click();";

#[tokio::test]
async fn a_person_reviews_and_notes_from_the_page() {
    let Some(person) = Browser::start("a_person_reviews", 1280, 1000).await else {
        return;
    };
    let server = HttpServer::start(
        &["--toolsets", "planning,team"],
        &[("PLANNING_TEAM_REQUIRE_REVIEW", "true")],
    )
    .await;
    let agent = server.client().await;
    ok(&agent, "add_tasks", json!({"tasks": [{"title": "Parser"}]})).await;
    let task = id("Parser");
    let claim = json!({"agent": "w1", "task_id": task});
    let release =
        json!({"agent": "w1", "task_id": task, "status": "completed", "note": "all green"});
    ok(&agent, "claim_task", claim.clone()).await;
    ok(&agent, "release_task", release.clone()).await;
    person
        .goto(&format!("{}/boards/default", server.base()))
        .await;
    wait_live(&person, "the page connects").await;
    shows(
        &person,
        "the card awaiting review",
        COLUMN_OF,
        json!([task]),
        json!("awaiting_review"),
    )
    .await;

    // Rejected with a reason from the page: pending again, and the next
    // claimant reads why.
    person.run(OPEN_EDIT, json!([task])).await;
    person
        .run(
            FILL_AND_SUBMIT,
            json!(["#reject-form", {"reason": "Test the empty input"}]),
        )
        .await;
    shows(
        &person,
        "the rejected card, pending",
        COLUMN_OF,
        json!([task]),
        json!("pending"),
    )
    .await;
    let claimed = ok(&agent, "claim_task", claim).await;
    assert!(claimed.contains("Test the empty input"), "{claimed}");

    // A note on the task reaches its holder's next reply, once.
    person.run(OPEN_EDIT, json!([task])).await;
    person
        .run(
            FILL_AND_SUBMIT,
            json!(["#task-note-form", {"text": "Mind the CRLF files"}]),
        )
        .await;
    shows(
        &person,
        "the note's answer",
        "return document.getElementById('write-status').textContent;",
        json!([]),
        json!("Done."),
    )
    .await;
    let told = ok(&agent, "release_task", release).await;
    assert!(told.contains("Mind the CRLF files"), "{told}");
    shows(
        &person,
        "the card awaiting review again",
        COLUMN_OF,
        json!([task]),
        json!("awaiting_review"),
    )
    .await;
    shows(
        &person,
        "the live card's glyph",
        "return document.querySelector('#task-' + arguments[0] + ' .glyph').textContent;",
        json!([task]),
        json!("⧗"),
    )
    .await;
    if std::env::var_os("PLANNING_UPDATE_SCREENSHOTS").is_some() {
        person.fit_page(1280).await;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/web-review.png");
        std::fs::write(&path, person.screenshot().await).unwrap();
        eprintln!("wrote {}", path.display());
    }

    // Approved from the page: completed.
    person.run(OPEN_EDIT, json!([task])).await;
    person
        .run(FILL_AND_SUBMIT, json!(["#approve-form", {}]))
        .await;
    shows(
        &person,
        "the approved card, completed",
        COLUMN_OF,
        json!([task]),
        json!("completed"),
    )
    .await;
    let listed = ok(&agent, "get_tasks", json!({})).await;
    assert!(listed.contains(&format!("[{task}] Parser")), "{listed}");
    let history = ok(&agent, "team_board", json!({})).await;
    assert!(!history.contains("awaiting review"), "{history}");
}
