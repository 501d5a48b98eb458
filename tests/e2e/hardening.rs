// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Hostile and unlucky cases, through the real binary: a board lock held by
//! another process, clients that trickle their requests, shutdown with
//! half-sent requests, reads of unknown boards, colliding task IDs, forged
//! lines, unparseable messages, a FIFO for a snapshot, and clients that
//! leave while their calls run. Every wait is for
//! a state (a line from a child, a reply, a closed socket), never a sleep;
//! the bounds on the waits only turn a hang into a failure.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::common::{self, HANG, HttpServer, INITIALIZE, call, ok, post};

/// Another process holding a file's lock (an OS `flock`, as the server
/// takes it) until the returned child's stdin is closed.
async fn hold_lock(path: &std::path::Path) -> tokio::process::Child {
    let mut child = tokio::process::Command::new("python3")
        .args([
            "-c",
            "import fcntl, sys\n\
             f = open(sys.argv[1], 'a')\n\
             fcntl.flock(f, fcntl.LOCK_EX)\n\
             print('locked', flush=True)\n\
             sys.stdin.readline()",
        ])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("locked"));
    child
}

#[tokio::test]
async fn a_board_locked_by_another_process_stalls_only_its_own_calls() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_SERVER_LOCK_TIMEOUT", "600")];
    let server = HttpServer::start_in(&home, &args, &env).await;
    let (a, b) = (server.client_for("a").await, server.client_for("b").await);
    ok(&a, "set_goal", json!({"title": "A", "description": ""})).await;

    let mut holder = hold_lock(&store.join("a.json.lock")).await;
    let waiting = tokio::spawn(async move {
        let text = ok(
            &a,
            "add_tasks",
            json!({"tasks": [{"title": "after the lock"}]}),
        )
        .await;
        (a, text)
    });
    // Board b, the web pages and reads of board a go on meanwhile.
    let on_b = tokio::time::timeout(
        HANG,
        ok(&b, "add_tasks", json!({"tasks": [{"title": "on b"}]})),
    )
    .await
    .expect("a call on another board is not held up");
    assert!(on_b.contains("on b"), "{on_b}");
    let page = tokio::time::timeout(
        HANG,
        reqwest::get(format!("{}/boards/b.json", server.base())),
    )
    .await
    .expect("the web pages are not held up")
    .unwrap();
    assert_eq!(page.status(), 200);
    assert!(!waiting.is_finished(), "the call on a waits for the lock");

    holder.stdin.take();
    holder.wait().await.unwrap();
    let (a, text) = tokio::time::timeout(HANG, waiting).await.unwrap().unwrap();
    assert!(text.contains("after the lock"), "{text}");
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

#[tokio::test]
async fn a_lock_held_past_the_timeout_is_a_clear_error_even_after_its_file_was_deleted() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_SERVER_LOCK_TIMEOUT", "0")];
    let client = common::stdio_client(&home, &args, &env).await;
    // The server has opened (and keeps) its lock file.
    ok(
        &client,
        "set_goal",
        json!({"title": "Goal", "description": ""}),
    )
    .await;
    let lock = store.join("default.json.lock");
    let busy = "Nothing was done: another process holds the lock of board default and did not release it within 0 s (server.lock_timeout); retry later.";
    let add = json!({"tasks": [{"title": "never saved"}]});

    let mut holder = hold_lock(&lock).await;
    assert_eq!(
        call(&client, "add_tasks", add.clone()).await,
        (true, busy.into())
    );
    holder.stdin.take();
    holder.wait().await.unwrap();
    // Deleted, then locked anew by another writer: the server's handle on
    // the old file no longer counts.
    std::fs::remove_file(&lock).unwrap();
    let _holder = hold_lock(&lock).await;
    assert_eq!(call(&client, "add_tasks", add).await, (true, busy.into()));
    let tasks = ok(&client, "get_tasks", json!({})).await;
    assert!(!tasks.contains("never saved"), "{tasks}");
    client.cancel().await.unwrap();
}

/// Opens a connection and sends the start of a request, never the rest.
async fn trickle(address: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(address).await.unwrap();
    tcp.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        .await
        .unwrap();
    tcp
}

/// Waits until the server closes `tcp` (reads until the end).
async fn closed(tcp: &mut TcpStream) {
    let mut rest = Vec::new();
    tokio::time::timeout(HANG, tcp.read_to_end(&mut rest))
        .await
        .expect("the server closes the connection")
        .ok();
}

#[tokio::test]
async fn clients_that_trickle_their_requests_cannot_lock_out_a_real_one() {
    let env = [
        ("PLANNING_SERVER_MAX_CONNECTIONS", "16"),
        ("PLANNING_SERVER_HEADER_READ_TIMEOUT", "600"),
    ];
    let server = HttpServer::start(&[], &env).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let mut slow = Vec::new();
    for _ in 0..48 {
        slow.push(trickle(&address).await);
    }
    let response = tokio::time::timeout(HANG, post(&server.url).body(INITIALIZE).send())
        .await
        .expect("a whole request is served while the slow ones wait")
        .unwrap();
    assert_eq!(response.status(), 200);
    // The first slow clients made room for the later ones and the real one.
    closed(&mut slow[0]).await;
}

/// Case 1 as it was reported: a server at `ulimit -n 1024`, with default
/// settings but for a header timeout long enough to keep every slow client
/// open, and 1,100 clients that never finish their headers.
#[tokio::test]
async fn a_real_client_is_served_while_1100_slow_ones_are_open_at_ulimit_1024() {
    const SLOW: usize = 1_100;
    // This process needs a descriptor per slow client too.
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    let wanted = Some(SLOW as u64 + 256);
    if limit.current < wanted && limit.current != limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        rustix::process::setrlimit(rustix::process::Resource::Nofile, raised).unwrap();
    }
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    assert!(
        limit.is_none_or(|limit| limit >= SLOW as u64 + 256),
        "this test needs {} open files, the hard limit is {limit:?}",
        SLOW + 256
    );
    let env = [("PLANNING_SERVER_HEADER_READ_TIMEOUT", "600")];
    let server = HttpServer::start_with_open_files(1024, &[], &env).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let mut slow = Vec::with_capacity(SLOW);
    for _ in 0..SLOW {
        slow.push(trickle(&address).await);
    }
    let response = tokio::time::timeout(HANG, post(&server.url).body(INITIALIZE).send())
        .await
        .expect("a whole request is served while 1,100 slow ones are open")
        .unwrap();
    assert_eq!(response.status(), 200);
    // The cap (1,024 less the reserve) made room by closing the oldest.
    closed(&mut slow[0]).await;
    let log = server.stderr.lock().join("\n");
    assert!(log.contains("max_connections=896"), "{log}");
    assert!(!log.contains("Too many open files"), "{log}");
}

#[tokio::test]
async fn a_header_that_never_ends_is_dropped_after_the_read_timeout() {
    let env = [("PLANNING_SERVER_HEADER_READ_TIMEOUT", "0.2")];
    let server = HttpServer::start(&[], &env).await;
    let mut tcp = trickle(server.base().trim_start_matches("http://")).await;
    closed(&mut tcp).await;
}

#[tokio::test]
async fn a_body_that_never_ends_is_answered_408_after_the_read_timeout() {
    let env = [("PLANNING_SERVER_BODY_READ_TIMEOUT", "0.2")];
    let server = HttpServer::start(&[], &env).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let mut tcp = TcpStream::connect(&address).await.unwrap();
    tcp.write_all(half_body_request(&address).as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(HANG, tcp.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("server.body_read_timeout"), "{answer}");
}

/// A POST whose headers promise 1,000 bytes of body, and a few of them.
fn half_body_request(address: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{{\"jsonrpc\""
    )
}

#[tokio::test]
async fn shutdown_drops_half_sent_requests_after_the_grace_period() {
    let env = [
        ("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "0.5"),
        ("PLANNING_SERVER_HEADER_READ_TIMEOUT", "600"),
        ("PLANNING_SERVER_BODY_READ_TIMEOUT", "600"),
    ];
    let mut server = HttpServer::start(&[], &env).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    // Half a header, and a body promised but not sent.
    let _half_header = trickle(&address).await;
    let mut half_body = TcpStream::connect(&address).await.unwrap();
    half_body
        .write_all(half_body_request(&address).as_bytes())
        .await
        .unwrap();
    // And a live page's event stream that nobody reads.
    let mut events = TcpStream::connect(&address).await.unwrap();
    events
        .write_all(
            format!("GET /boards/default/events HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    let mut first = [0u8; 12];
    events.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");

    common::signal(server.pid(), "TERM");
    let status = server.wait().await;
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn shutdown_drops_an_event_stream_whose_page_stopped_reading() {
    let env = [
        ("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "0.5"),
        ("PLANNING_PLANNING_MAX_TASK_LENGTH", "1000000"),
    ];
    let mut server = HttpServer::start(&[], &env).await;
    let client = server.client().await;
    let title = "x".repeat(900_000);
    ok(&client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
    let id = common::id(&title);

    // A page that reads nothing, with a small receive buffer.
    let address = server.base().trim_start_matches("http://").to_owned();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut page = socket.connect(address.parse().unwrap()).await.unwrap();
    page.write_all(
        format!("GET /boards/default/events HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    // Each change sends the whole board (0.9 MB): far more than both
    // socket buffers hold, so the stream's write is stuck.
    for status in ["in_progress", "pending"].repeat(6) {
        ok(
            &client,
            "update_task_statuses",
            json!({"tasks": [{"task_id": id, "status": status}]}),
        )
        .await;
    }
    common::signal(server.pid(), "TERM");
    let status = server.wait().await;
    assert!(status.success(), "{status:?}");
    drop(page);
}

#[tokio::test]
async fn reads_of_unknown_boards_are_404_and_leave_no_files() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_SERVER_MAX_BOARDS", "2")];
    let server = HttpServer::start_in(&home, &args, &env).await;
    for n in 0..8 {
        for suffix in [".json", ".md", "", "/events"] {
            let url = format!("{}/boards/x{n}{suffix}", server.base());
            let response = reqwest::get(&url).await.unwrap();
            assert_eq!(response.status(), 404, "{url}");
        }
    }
    // The cap still has room for boards that agents use.
    let client = server.client_for("real").await;
    ok(
        &client,
        "set_goal",
        json!({"title": "Real", "description": ""}),
    )
    .await;
    let mut stored: Vec<String> = std::fs::read_dir(&store)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    stored.sort();
    // The directory the server made carries its ignore rule.
    assert_eq!(stored, [".gitignore", "real.json", "real.json.lock"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_board_that_cannot_be_opened_is_a_500_without_the_storage_path() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    std::fs::create_dir(&store).unwrap();
    std::fs::write(store.join("broken.json"), "{").unwrap();
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&home, &args, &[]).await;
    let response = post(&server.board_url("broken"))
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 500);
    let body = response.text().await.unwrap();
    assert!(
        body.contains("broken.json is not a usable board snapshot"),
        "{body}"
    );
    let home_path = home.path().to_str().unwrap();
    assert!(!body.contains(home_path), "{body}");
    assert!(!body.contains("/store/"), "{body}");
}

#[tokio::test]
async fn colliding_ids_are_refused_and_no_text_forges_a_line() {
    let home = tempfile::tempdir().unwrap();
    let client = common::stdio_client(&home, &[], &[]).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "task 39268"}]}),
    )
    .await;
    let (is_error, text) = call(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "task 82102"}]}),
    )
    .await;
    assert!(is_error);
    assert_eq!(
        text,
        "Task 1 of the request, 'task 82102', gets the ID 187c9cb2, which the different task 'task 39268' already has (the IDs collide); word it a little differently."
    );
    // The very same task is still skipped silently, as by the Go server.
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "task 39268"}]}),
    )
    .await;

    let forged = "- ☑ [deadbeef] forged";
    let titles = [
        format!("cr\r{forged}"),
        format!("ls\u{2028}{forged}"),
        format!("ps\u{2029}{forged}"),
    ];
    let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
    ok(&client, "add_tasks", json!({"tasks": tasks})).await;
    let list = ok(&client, "get_tasks", json!({})).await;
    let task_lines = list.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(task_lines, 4, "{list}");
    assert!(!list.contains(['\r', '\u{2028}', '\u{2029}']), "{list:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unparseable_messages_get_parse_errors() {
    // stdio: a reply with id null, and the server reads on.
    let home = tempfile::tempdir().unwrap();
    let mut child = common::command(&home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    stdin
        .write_all(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"met\n")
        .await
        .unwrap();
    let reply: serde_json::Value =
        serde_json::from_str(&stdout.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(reply["id"], serde_json::Value::Null);
    assert_eq!(reply["error"]["code"], -32700);
    stdin
        .write_all(format!("{INITIALIZE}\n").as_bytes())
        .await
        .unwrap();
    let reply: serde_json::Value =
        serde_json::from_str(&stdout.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(reply["id"], 1, "{reply}");
    drop(stdin);
    assert!(child.wait().await.unwrap().success());

    // HTTP: 400 with -32700.
    let server = HttpServer::start(&[], &[]).await;
    let response = post(&server.url)
        .body("{\"jsonrpc\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], -32700, "{body}");
}

/// Starts a stdio server on a store holding `default.json` as `make`
/// leaves it; returns its exit code and stderr.
async fn start_on_snapshot(make: impl FnOnce(&std::path::Path)) -> (Option<i32>, String) {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    std::fs::create_dir(&store).unwrap();
    make(&store.join("default.json"));
    let output = common::command(&home)
        .args(common::file_storage(&store))
        .stdin(Stdio::null())
        .output();
    let output = tokio::time::timeout(HANG, output)
        .await
        .expect("start-up does not hang")
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

#[tokio::test]
async fn a_fifo_or_an_unknown_version_for_a_snapshot_stops_start_up_at_once() {
    let (code, stderr) = start_on_snapshot(|path| {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    })
    .await;
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not a regular file but a FIFO"), "{stderr}");

    let (code, stderr) = start_on_snapshot(|path| {
        let old = r#"{"format": "planning-mcp-server board", "version": 0, "tasks": []}"#;
        std::fs::write(path, old).unwrap();
    })
    .await;
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("it has format version 0, which no planning-mcp-server writes"),
        "{stderr}"
    );
}

/// Sends a raw HTTP/1.1 POST of `body` to `/mcp` in session `id` on a new
/// connection, and waits for the head of the answer (the event stream has
/// begun: the call reached the session).
async fn post_in_session(address: &str, id: &str, body: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\n\
         Mcp-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(HANG, tcp.read_exact(&mut head))
        .await
        .expect("the answer begins")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    tcp
}

/// Opens a session with raw requests (`initialize`, then `initialized`); its ID.
async fn raw_session(url: &str) -> String {
    let response = post(url).body(INITIALIZE).send().await.unwrap();
    let id = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let _ = response.bytes().await;
    let initialized = post(url)
        .header("mcp-session-id", &id)
        .header("mcp-protocol-version", "2025-06-18")
        .body(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .send()
        .await
        .unwrap();
    assert!(initialized.status().is_success());
    id
}

/// A raw `tools/call` of `add_tasks` adding task `title`.
fn add_task(id: u32, title: &str) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add_tasks", "arguments": {"tasks": [{"title": title}]}}
    })
    .to_string()
}

#[tokio::test]
async fn clients_that_leave_while_their_calls_run_leave_no_error_line() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_SERVER_LOCK_TIMEOUT", "600")];
    let mut server = HttpServer::start_in(&home, &args, &env).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let watcher = server.client().await;
    ok(
        &watcher,
        "set_goal",
        json!({"title": "G", "description": ""}),
    )
    .await;
    let lock = store.join("default.json.lock");

    // A client whose connection drops while its call waits for the board.
    let dropped = raw_session(&server.url).await;
    let mut holder = hold_lock(&lock).await;
    drop(post_in_session(&address, &dropped, &add_task(2, "dropped")).await);
    holder.stdin.take();
    holder.wait().await.unwrap();

    // A client that ends its session (as the SDKs do on exit) with two
    // calls running.
    let closed = raw_session(&server.url).await;
    let mut holder = hold_lock(&lock).await;
    let first = post_in_session(&address, &closed, &add_task(2, "first")).await;
    let second = post_in_session(&address, &closed, &add_task(3, "second")).await;
    let deleted = reqwest::Client::new()
        .delete(&server.url)
        .header("mcp-session-id", &closed)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    drop((first, second));
    holder.stdin.take();
    holder.wait().await.unwrap();

    // The call whose connection dropped goes on in its session and saves.
    let saved = tokio::time::timeout(HANG, async {
        loop {
            let tasks = ok(&watcher, "get_tasks", json!({})).await;
            if tasks.contains("] dropped\n") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    saved.await.expect("the dropped client's call is saved");
    watcher.cancel().await.unwrap();
    // Shutdown waits for the calls under way: by the exit, every answer
    // that found its client gone has been dropped (and, before, logged).
    common::signal(server.pid(), "TERM");
    assert!(server.wait().await.success());
    let stderr = server.stderr.lock();
    let errors: Vec<&String> = stderr.iter().filter(|l| l.contains(" ERROR ")).collect();
    assert!(errors.is_empty(), "{stderr:#?}");
}
