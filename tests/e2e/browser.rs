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
