// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The web board over HTTP against the real binary: routes, headers,
//! escaping, the JSON shape, the event stream's framing, the browser sign-in;
//! and golden files of the JSON and the page of a scripted board.

use crate::common;

use std::time::{Duration, SystemTime};

use common::{HttpServer, ok};
use planning_mcp_server::api::planning::web::{self, BoardView, Counts};
use planning_mcp_server::api::planning::{
    Board, BoardName, Entry, Event, Goal, History, Limits, Status, Task,
};
use reqwest::redirect::Policy;
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

const TOKEN: &str = "correct horse battery staple";
const SCRIPT: &str = "<script>alert(1)</script>";

/// An MCP client of the endpoint `url`.
async fn connect(url: &str) -> common::Client {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("initialize")
}

/// A client that does not follow redirects, so that they can be checked.
fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

async fn get(url: &str) -> reqwest::Response {
    http().get(url).send().await.unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no {name} header in {response:?}"))
}

/// Reads one Server-Sent Event (the text up to the blank line that ends it).
pub(crate) async fn next_event(stream: &mut reqwest::Response, buffer: &mut String) -> String {
    common::within_hang("an event", async {
        loop {
            if let Some(end) = buffer.find("\n\n") {
                let event = buffer[..end + 2].to_owned();
                buffer.drain(..end + 2);
                // Keep-alive comments are not events.
                if event.lines().all(|l| l.starts_with(':')) {
                    continue;
                }
                return event;
            }
            let chunk = stream
                .chunk()
                .await
                .unwrap()
                .expect("the stream stays open");
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    })
    .await
}

/// The JSON `data:` of an event named `board`.
pub(crate) fn board_data(event: &str) -> Value {
    assert!(event.contains("event: board\n"), "{event}");
    let data: String = event
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    serde_json::from_str(&data).unwrap()
}

#[tokio::test]
async fn a_board_is_served_as_a_page_json_and_markdown() {
    let server = HttpServer::start(&[], &[]).await;
    let agent = connect(&server.board_url("team")).await;
    ok(
        &agent,
        "set_goal",
        json!({"title": "Ship <it>", "description": "by Friday & not later"}),
    )
    .await;
    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": SCRIPT, "description": "\"quoted\" 'text'"}, {"title": "Second"}]}),
    )
    .await;
    let listed = ok(&agent, "get_tasks", json!({})).await;
    let base = server.base();

    let markdown = get(&format!("{base}/boards/team.md")).await;
    assert_eq!(markdown.status(), 200);
    assert_eq!(
        header(&markdown, "content-type"),
        "text/markdown; charset=utf-8"
    );
    assert_eq!(markdown.text().await.unwrap(), listed, "exactly get_tasks");

    let json = get(&format!("{base}/boards/team.json")).await;
    assert_eq!(json.status(), 200);
    assert_eq!(header(&json, "content-type"), "application/json");
    let json: Value = json.json().await.unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["board"], "team");
    assert_eq!(json["goal"]["title"], "Ship <it>");
    assert_eq!(json["progress"], json!({"completed": 0, "total": 2}));
    assert_eq!(json["tasks"][0]["title"], SCRIPT);
    assert_eq!(json["tasks"][0]["status"], "pending");
    assert_eq!(json["tasks"][0]["glyph"], "☐");
    assert_eq!(json["history"][0]["event"], "goal_set");
    assert!(json["changed_at"].is_string());

    let page = get(&format!("{base}/boards/team")).await;
    assert_eq!(page.status(), 200);
    assert_eq!(header(&page, "content-type"), "text/html; charset=utf-8");
    let csp = header(&page, "content-security-policy");
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{csp}");
    }
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(header(&page, "x-content-type-options"), "nosniff");
    assert_eq!(header(&page, "referrer-policy"), "no-referrer");
    let html = page.text().await.unwrap();
    assert!(!html.contains(SCRIPT), "user text is never markup");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("Ship &lt;it&gt;"));
    assert!(html.contains("&quot;quoted&quot; &#39;text&#39;"));
    assert!(
        !html.contains(" style=") && !html.contains("<style") && !html.contains("<script>"),
        "no inline style or script, which the CSP would block"
    );
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn a_twenty_task_page_and_its_assets_weigh_under_50_kb() {
    let server = HttpServer::start(&[], &[]).await;
    let base = server.base();
    let agent = server.client().await;
    let long = "x".repeat(60);
    let tasks: Vec<Value> = (1..=20)
        .map(|n| json!({"title": format!("Task {n}: {long}"), "description": format!("Why {n}: {long}")}))
        .collect();
    ok(
        &agent,
        "set_goal",
        json!({"title": "Goal", "description": long}),
    )
    .await;
    ok(&agent, "add_tasks", json!({ "tasks": tasks })).await;
    let page = get(&format!("{base}/boards/default"))
        .await
        .text()
        .await
        .unwrap();
    let mut weight = page.len();
    for (path, content_type) in [
        ("/assets/web.css", "text/css; charset=utf-8"),
        ("/assets/web.js", "text/javascript; charset=utf-8"),
    ] {
        let response = get(&format!("{base}{path}")).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "content-type"), content_type);
        assert!(header(&response, "content-security-policy").contains("default-src 'none'"));
        let body = response.text().await.unwrap();
        assert!(body.contains("SPDX-License-Identifier"), "{path}");
        assert!(
            !body.contains("http://") && !body.contains("https://") && !body.contains("@import"),
            "nothing from the network: {path}"
        );
        weight += body.len();
    }
    assert!(
        weight < 50 * 1024,
        "the page and its assets weigh {weight} bytes"
    );
    for other in ["/assets/other.js", "/assets/..%2Fweb.js", "/assets/"] {
        assert_eq!(
            get(&format!("{base}{other}")).await.status(),
            404,
            "{other}"
        );
    }
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn every_page_names_an_embedded_icon_that_its_policy_allows() {
    let server = HttpServer::start(&[], &[]).await;
    let base = server.base();
    let agent = server.client().await;
    ok(&agent, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    // Each page names its icon, relative to itself, so that browsers do not
    // ask for /favicon.ico; the icon is the same file wherever it is asked.
    for (page, href) in [
        ("/", "assets/icon.svg"),
        ("/boards/default", "../assets/icon.svg"),
    ] {
        let response = get(&format!("{base}{page}")).await;
        let policy = header(&response, "content-security-policy").to_owned();
        assert!(policy.contains("img-src 'self'"), "{page}: {policy}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains(&format!(
                "<link rel=\"icon\" href=\"{href}\" type=\"image/svg+xml\">"
            )),
            "{page}: {html}"
        );
    }
    for path in ["/assets/icon.svg", "/favicon.ico"] {
        let response = get(&format!("{base}{path}")).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "content-type"), "image/svg+xml");
        let body = response.text().await.unwrap();
        assert!(
            body.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{path}"
        );
        assert!(
            !body.contains("<script") && !body.contains("href"),
            "{path}: {body}"
        );
        assert!(body.contains("SPDX-License-Identifier"), "{path}");
    }
    agent.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_board_names_are_404_and_never_paths() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("secret.json"), "{}").unwrap();
    let flags = common::file_storage(&home.path().join("store"));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&home, &args, &[]).await;
    let base = server.base();
    for path in [
        "/boards/Team",
        "/boards/a.txt",
        "/boards/a.json.md",
        "/boards/.json",
        "/boards/..%2Fsecret.json",
        "/boards/-a.md",
        "/boards/a%20b",
        "/boards/Team/events",
        "/boards/..%2Fsecret/events",
    ] {
        let response = get(&format!("{base}{path}")).await;
        assert_eq!(response.status(), 404, "{path}");
    }
    let stored: Vec<_> = std::fs::read_dir(home.path().join("store"))
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(stored.is_empty(), "no file was made: {stored:?}");
}

#[tokio::test]
async fn the_list_shows_open_and_stored_boards_within_max_boards() {
    let home = tempfile::tempdir().unwrap();
    let flags = common::file_storage(&home.path().join("store"));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    {
        let mut first = HttpServer::start_in(&home, &args, &[]).await;
        let agent = connect(&first.board_url("stored")).await;
        ok(
            &agent,
            "set_goal",
            json!({"title": "Kept <on disk>", "description": ""}),
        )
        .await;
        ok(
            &agent,
            "add_tasks",
            json!({"tasks": [{"title": "one"}, {"title": "two"}]}),
        )
        .await;
        agent.cancel().await.unwrap();
        common::signal(first.pid(), "TERM");
        assert!(first.wait().await.success());
    }
    std::fs::write(home.path().join("store/Not-A-Name.json"), "{}").unwrap();

    let server = HttpServer::start_in(&home, &args, &[]).await;
    let html = get(&format!("{}/", server.base()))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains(r#"<a href="boards/default">default</a>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<a href="boards/stored">stored</a>"#),
        "{html}"
    );
    assert!(html.contains("Kept &lt;on disk&gt;"), "{html}");
    assert!(html.contains("0 of 2 completed"), "{html}");
    assert!(!html.contains("Not-A-Name"), "{html}");

    // With room for one board only (the default one), a stored board is
    // listed but not opened.
    let capped = HttpServer::start_in(&home, &args, &[("PLANNING_SERVER_MAX_BOARDS", "1")]).await;
    let html = get(&format!("{}/", capped.base()))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains(r#"<a href="boards/stored">stored</a>"#),
        "{html}"
    );
    assert!(html.contains("max_boards"), "{html}");
    let refused = get(&format!("{}/boards/stored", capped.base())).await;
    assert_eq!(refused.status(), 503);
}

#[tokio::test]
async fn events_send_the_state_at_once_then_one_event_per_change() {
    let server = HttpServer::start(&[], &[]).await;
    // A session creates the board; the page then follows it.
    let agent = connect(&server.board_url("live")).await;
    let mut stream = get(&format!("{}/boards/live/events", server.base())).await;
    assert_eq!(stream.status(), 200);
    assert_eq!(header(&stream, "content-type"), "text/event-stream");
    assert_eq!(header(&stream, "cache-control"), "no-cache");
    let mut buffer = String::new();
    let first = next_event(&mut stream, &mut buffer).await;
    assert!(first.contains("retry: 1000\n"), "{first}");
    let state = board_data(&first);
    assert_eq!(state["board"], "live");
    assert_eq!(state["tasks"], json!([]));

    ok(
        &agent,
        "add_tasks",
        json!({"tasks": [{"title": "line one\nline two"}]}),
    )
    .await;
    let added = board_data(&next_event(&mut stream, &mut buffer).await);
    assert_eq!(added["tasks"][0]["title"], "line one\nline two");
    let id = added["tasks"][0]["id"].as_str().unwrap().to_owned();
    ok(
        &agent,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id, "status": "in_progress"}]}),
    )
    .await;
    let moved = board_data(&next_event(&mut stream, &mut buffer).await);
    assert_eq!(moved["tasks"][0]["status"], "in_progress");
    assert_eq!(moved["counts"]["in_progress"], 1);
    assert_eq!(moved["history"][0]["event"], "status_changed");
    agent.cancel().await.unwrap();
}

/// With a grace period far beyond the test's patience, the server can
/// only exit in time by ending the page's stream itself.
#[tokio::test]
async fn shutdown_ends_open_event_streams() {
    let env = [("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "3600")];
    let mut server = HttpServer::start(&[], &env).await;
    let mut stream = get(&format!("{}/boards/default/events", server.base())).await;
    let mut buffer = String::new();
    next_event(&mut stream, &mut buffer).await;
    common::signal(server.pid(), "TERM");
    common::within_hang("the end of the event stream", async {
        while stream.chunk().await.expect("a clean end").is_some() {}
    })
    .await;
    assert!(server.wait().await.success(), "stops with a page open");
}

#[tokio::test]
async fn a_browser_signs_in_with_the_token_once() {
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_AUTH_TOKEN", TOKEN)]).await;
    let base = server.base();
    let missing = get(&format!("{base}/")).await;
    assert_eq!(missing.status(), 401);
    assert_eq!(
        header(&missing, "www-authenticate"),
        r#"Bearer realm="planning-mcp-server""#
    );
    assert!(missing.text().await.unwrap().contains("?token="));
    let wrong = get(&format!("{base}/boards/default?token=guess")).await;
    assert_eq!(wrong.status(), 401);
    assert!(header(&wrong, "www-authenticate").contains("invalid_token"));
    assert!(wrong.headers().get("set-cookie").is_none());

    let encoded = TOKEN.replace(' ', "%20");
    let signed_in = get(&format!("{base}/boards/default?view=1&token={encoded}")).await;
    assert_eq!(signed_in.status(), 303);
    assert_eq!(header(&signed_in, "location"), "./default?view=1");
    let set_cookie = header(&signed_in, "set-cookie").to_owned();
    for attribute in ["planning_auth=", "Path=/", "HttpOnly", "SameSite=Strict"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    assert!(!set_cookie.contains("horse"), "the cookie is not the token");
    let cookie = set_cookie.split(';').next().unwrap().to_owned();

    let with_cookie = |path: &str| {
        http()
            .get(format!("{base}{path}"))
            .header("cookie", &cookie)
    };
    for path in [
        "/",
        "/boards/default",
        "/boards/default.json",
        "/boards/default.md",
        "/assets/web.js",
    ] {
        let response = with_cookie(path).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
    let mut events = with_cookie("/boards/default/events").send().await.unwrap();
    assert_eq!(events.status(), 200);
    next_event(&mut events, &mut String::new()).await;
    drop(events);
    // The cookie reads pages; it never calls tools.
    let post = http()
        .post(&server.url)
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 401);
    let forged = http()
        .get(format!("{base}/"))
        .header("cookie", "planning_auth=0000")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
    // Scripts use the bearer token.
    let bearer = http()
        .get(format!("{base}/boards/default.json"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 200);

    let logs = server.stderr.lock().join("\n");
    assert!(logs.contains("board: http://127.0.0.1:"), "{logs}");
    assert!(
        !logs.contains("horse"),
        "the token is never logged:\n{logs}"
    );
}

#[tokio::test]
async fn the_host_and_origin_guard_covers_the_web_routes() {
    let server = HttpServer::start(&[], &[]).await;
    let base = server.base();
    for path in [
        "/",
        "/boards/default",
        "/boards/default/events",
        "/assets/web.js",
    ] {
        let foreign_host = http()
            .get(format!("{base}{path}"))
            .header("host", "evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(foreign_host.status(), 403, "{path}");
        let foreign_origin = http()
            .get(format!("{base}{path}"))
            .header("origin", "http://evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(foreign_origin.status(), 403, "{path}");
    }
}

/// A board with fixed contents and times, for golden files.
fn scripted_board() -> Board {
    let at =
        |minute: u64| SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000 + minute * 60);
    let task = |title: &str, description: &str, status: Status, minute: u64| Task {
        status,
        created_at: at(minute),
        ..Task::new(title.into(), description.into())
    };
    let first = Goal {
        title: "Ship the web board".into(),
        description: String::new(),
    };
    let goal = Goal {
        title: "Ship the web board for issue 6".into(),
        description: "Read-only, live & <safe>".into(),
    };
    let tasks = vec![
        task("Write the routes", "", Status::Completed, 2),
        task(SCRIPT, "shown as text", Status::InProgress, 3),
        task("Style the page", "light\nand dark", Status::Pending, 4),
        task("Bundle a font", "no network fonts", Status::Cancelled, 5),
    ];
    let history = History::from_entries([
        Entry {
            at: at(1),
            event: Event::GoalSet {
                goal: first.clone(),
            },
        },
        Entry {
            at: at(6),
            event: Event::GoalChanged {
                from: first,
                to: goal.clone(),
                reason: "name the issue".into(),
            },
        },
        Entry {
            at: at(7),
            event: Event::StatusChanged {
                task_id: tasks[0].id,
                title: tasks[0].title.clone(),
                from: Status::Pending,
                to: Status::Completed,
            },
        },
    ]);
    Board::restore(Limits::default(), Some(goal), tasks, Some(history))
}

#[test]
fn the_json_shape_is_stable() {
    let board = scripted_board();
    let changed = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_600);
    let json: Value =
        serde_json::from_str(&BoardView::of("demo", &board, Some(changed)).to_json()).unwrap();
    insta::assert_json_snapshot!("board_json", json);
}

#[test]
fn the_board_page_is_stable() {
    let board = scripted_board();
    let changed = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_600);
    let html = web::board_page(&BoardView::of("demo", &board, Some(changed)));
    insta::assert_snapshot!("board_page", html);
}

#[test]
fn the_board_list_is_stable() {
    let board = scripted_board();
    let rows = [
        web::Row {
            name: BoardName::parse("demo").unwrap(),
            state: Ok(web::Summary {
                goal: board.goal().map(|g| g.title.clone()),
                counts: Counts::of(&board),
                changed_at: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_600)),
            }),
        },
        web::Row {
            name: BoardName::parse("full").unwrap(),
            state: Err("this server holds its maximum of 1 boards <max_boards>".into()),
        },
    ];
    insta::assert_snapshot!("board_list", web::index_page(&rows, 0));
}
