// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `postgres` backend against a real PostgreSQL (a cluster of the
//! test's own, `common::postgres`): boards and team's data over stdio and
//! HTTP, the schema created once and refused when newer, start-up faults
//! each with a clear message and never the password, and boards moved
//! between a file and the database byte for byte.

use crate::common;
use crate::common::postgres::{Cluster, PASSWORD, USER};

use common::{HttpServer, id, ok, stdio_client};
use serde_json::json;

/// The environment that puts a server on `url` (the URL, and with it the
/// password, stays off the command line, where `ps` would show it).
pub(crate) fn on(url: &str) -> Vec<(&'static str, String)> {
    vec![
        ("PLANNING_STORAGE_BACKEND", "postgres".to_owned()),
        ("PLANNING_STORAGE_URL", url.to_owned()),
    ]
}

/// `on(url)` as the `&[(&str, &str)]` the helpers take.
pub(crate) fn env<'a>(pairs: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    pairs.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[tokio::test]
async fn boards_and_team_data_live_in_the_database_over_stdio_and_http() {
    let Some(cluster) = Cluster::start_or_skip("postgres boards") else {
        return;
    };
    let url = cluster.database("boards");
    let pairs = on(&url);
    let envs = env(&pairs);
    let dir = tempfile::tempdir().unwrap();
    // A stdio server writes; its reply comes after the commit.
    let stdio = stdio_client(&dir, &crate::team::TEAM, &envs).await;
    ok(
        &stdio,
        "set_goal",
        json!({"title": "Ship", "description": "on Postgres"}),
    )
    .await;
    ok(
        &stdio,
        "add_tasks",
        json!({"tasks": [{"title": "write"}, {"title": "test"}]}),
    )
    .await;
    ok(
        &stdio,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("write")}),
    )
    .await;
    let revision = cluster.psql(
        "boards",
        "SELECT revision FROM planning_boards WHERE name = 'default'",
    );
    assert_eq!(revision, "3", "one committed revision per change");
    let tables = cluster.psql("boards", "SELECT version FROM planning_schema");
    assert_eq!(tables, "2");
    // The history is a row per entry: the goal, two status changes of the
    // claim (its start and the claim), numbered from 1.
    let history = cluster.psql(
        "boards",
        "SELECT string_agg(seq::text, ',' ORDER BY seq) FROM planning_history WHERE board = 'default'",
    );
    assert_eq!(history, "1,2,3");
    // An HTTP server on the same database sees it all, team's claim too.
    let http = HttpServer::start_in(&dir, &crate::team::TEAM, &envs).await;
    let client = http.client().await;
    let board = ok(&client, "get_tasks", json!({})).await;
    assert!(board.starts_with("**Goal:** Ship: on Postgres"), "{board}");
    assert!(board.contains("⟳ [") && board.contains("write"), "{board}");
    let team = ok(&client, "team_board", json!({})).await;
    assert!(team.contains("held by worker-1 until"), "{team}");
    // A named board is a row of its own; the stdio server reads the HTTP
    // server's change at its next call.
    let named = http.client_for("side").await;
    ok(
        &named,
        "add_tasks",
        json!({"tasks": [{"title": "elsewhere"}]}),
    )
    .await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "from http"}]}),
    )
    .await;
    let seen = ok(&stdio, "get_tasks", json!({})).await;
    assert!(
        seen.contains("from http") && !seen.contains("elsewhere"),
        "{seen}"
    );
    let names = cluster.psql(
        "boards",
        "SELECT string_agg(name, ',' ORDER BY name) FROM planning_boards",
    );
    assert_eq!(names, "default,side");
    // The web board lists the boards of the database.
    let index = reqwest::get(format!("{}/", http.base()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(index.contains("href=\"boards/side\""), "{index}");
    for client in [stdio, client, named] {
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_refused_first_change_leaves_no_row() {
    let Some(cluster) = Cluster::start_or_skip("postgres refused first change") else {
        return;
    };
    let url = cluster.database("refused");
    let pairs = on(&url);
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--board", "fresh"], &env(&pairs)).await;
    let (refused, text) =
        common::call(&client, "delete_tasks", json!({"task_ids": ["00000000"]})).await;
    assert!(refused, "{text}");
    assert_eq!(
        cluster.psql("refused", "SELECT count(*) FROM planning_boards"),
        "0"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn start_up_faults_are_clear_and_never_show_the_password() {
    let Some(cluster) = Cluster::start_or_skip("postgres start-up faults") else {
        return;
    };
    let good = cluster.database("faults");
    let port = cluster.port;
    let dir = tempfile::tempdir().unwrap();
    // A database whose owner is not our user: no right to create tables.
    cluster.psql("postgres", "CREATE DATABASE locked");
    let locked = cluster.url("locked");
    let wrong_password = good.replace(PASSWORD, "not-the-pw-Zq8s");
    let cases = [
        (
            wrong_password.clone(),
            format!(
                "cannot connect to the board database (postgres://{USER}@127.0.0.1:{port}/faults): password authentication failed for user \"{USER}\""
            ),
        ),
        (
            format!("postgres://{USER}:{PASSWORD}@no-such-host.invalid:{port}/faults"),
            format!(
                "cannot connect to the board database (postgres://{USER}@no-such-host.invalid:{port}/faults): error connecting to server: failed to lookup address information"
            ),
        ),
        (
            locked,
            "cannot use the planning tables of the board database".to_owned(),
        ),
    ];
    for (url, expected) in cases {
        let pairs = on(&url);
        let (code, out, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
        assert_eq!(code, 1, "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(&expected), "expected {expected:?} in {err}");
        assert!(!err.contains(PASSWORD), "the password leaked: {err}");
        assert!(!err.contains("not-the-pw"), "the password leaked: {err}");
    }
    let pairs = on(&cluster.url("locked"));
    let (_, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
    assert!(
        err.contains("permission denied for schema public; grant the user CREATE on the schema"),
        "{err}"
    );
    // A schema from the future is refused and left as it is.
    let pairs = on(&good);
    let client = stdio_client(&dir, &[], &env(&pairs)).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "kept"}]})).await;
    client.cancel().await.unwrap();
    cluster.psql("faults", "UPDATE planning_schema SET version = 7");
    let (code, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("they are schema version 7, made by a newer planning-mcp-server; this one knows version 2 and changes nothing"),
        "{err}"
    );
    assert_eq!(
        cluster.psql("faults", "SELECT version FROM planning_schema"),
        "7"
    );
    assert_eq!(
        cluster.psql("faults", "SELECT revision FROM planning_boards"),
        "1"
    );
    // A URL that does not parse is a configuration error that quotes none of it.
    let bad = format!("postgres://{USER}:{PASSWORD}@127.0.0.1:notaport/faults");
    let (code, _, err) =
        common::run_binary(&dir, &["--storage", "postgres", "--storage-url", &bad], &[]).await;
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "storage.url (from the --storage-url flag): is not a PostgreSQL connection string"
        ),
        "{err}"
    );
    assert!(!err.contains(PASSWORD), "{err}");
    // Nor does the example config, whatever the environment holds.
    let (code, _, err) = common::run_binary(&dir, &["--generate-config"], &env(&on(&good))).await;
    assert_eq!(code, 0, "{err}");
    let example = std::fs::read_to_string(dir.path().join("planning-mcp-server.toml")).unwrap();
    assert!(!example.contains(PASSWORD));
    assert!(example.contains("# url = 'postgres://planning@localhost/planning'"));
}

#[tokio::test]
async fn boards_move_between_a_file_and_the_database_byte_for_byte() {
    let Some(cluster) = Cluster::start_or_skip("postgres import and export") else {
        return;
    };
    let url = cluster.database("moves");
    let pairs = on(&url);
    let envs = env(&pairs);
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("boards");
    let flags = common::file_storage(&store);
    let mut args: Vec<&str> = flags.iter().map(String::as_str).collect();
    args.extend(crate::team::TEAM);
    // A board made by a file-backend server, with team's data in it.
    let file_server = stdio_client(&dir, &args, &[]).await;
    ok(
        &file_server,
        "set_goal",
        json!({"title": "Move", "description": "it"}),
    )
    .await;
    ok(
        &file_server,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}]}),
    )
    .await;
    ok(
        &file_server,
        "claim_task",
        json!({"agent": "w", "task_id": id("a")}),
    )
    .await;
    let on_file = ok(&file_server, "get_tasks", json!({})).await;
    file_server.cancel().await.unwrap();
    let file = store.join("default.json");
    let original = std::fs::read(&file).unwrap();

    let file_arg = file.display().to_string();
    let (code, out, err) =
        common::run_binary(&dir, &["import", "--board", "moved", &file_arg], &envs).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "imported {file_arg} as board moved into postgres://{USER}@127.0.0.1:{}/moves (revision 1)\n",
            cluster.port
        )
    );
    let (code, out, _) = common::run_binary(&dir, &["export", "--board", "moved"], &envs).await;
    assert_eq!(code, 0);
    assert_eq!(
        out.as_bytes(),
        original,
        "the export is the file, byte for byte"
    );
    // A second import is refused unless --replace, and changes nothing.
    let (code, _, err) =
        common::run_binary(&dir, &["import", "--board", "moved", &file_arg], &envs).await;
    assert_eq!(code, 1);
    assert!(
        err.contains("the database holds it already (revision 1); pass --replace"),
        "{err}"
    );
    let (code, _, err) = common::run_binary(
        &dir,
        &["import", "--board", "moved", "--replace", &file_arg],
        &envs,
    )
    .await;
    assert_eq!(code, 0, "{err}");
    // A server on the database reads the board as the file server did.
    let db_server = stdio_client(
        &dir,
        &["--board", "moved", "--toolsets", "planning,team"],
        &envs,
    )
    .await;
    assert_eq!(ok(&db_server, "get_tasks", json!({})).await, on_file);
    ok(&db_server, "add_tasks", json!({"tasks": [{"title": "c"}]})).await;
    let on_db = ok(&db_server, "get_tasks", json!({})).await;
    db_server.cancel().await.unwrap();
    // And back to a file, which a file-backend server serves as it was.
    let back = dir.path().join("back");
    std::fs::create_dir(&back).unwrap();
    let output = back.join("default.json").display().to_string();
    let (code, out, err) = common::run_binary(
        &dir,
        &["export", "--board", "moved", "--output", &output],
        &envs,
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("exported board moved (revision 3) from postgres://"),
        "{out}"
    );
    // Changed by a server, the board's history is in rows of its own; the
    // export puts it back into the snapshot, the same bytes each time.
    let exported = std::fs::read(&output).unwrap();
    let snapshot: serde_json::Value = serde_json::from_slice(&exported).unwrap();
    let entries = cluster.psql(
        "moves",
        "SELECT count(*) FROM planning_history WHERE board = 'moved'",
    );
    assert_eq!(
        snapshot["history"].as_array().unwrap().len().to_string(),
        entries
    );
    let (code, again, _) = common::run_binary(&dir, &["export", "--board", "moved"], &envs).await;
    assert_eq!(code, 0);
    assert_eq!(
        again.as_bytes(),
        exported,
        "an export is the same bytes each time"
    );
    let (code, _, err) = common::run_binary(
        &dir,
        &["export", "--board", "moved", "--output", &output],
        &envs,
    )
    .await;
    assert_eq!(code, 1);
    assert!(
        err.ends_with("it exists (pass --force to replace it)\n"),
        "{err}"
    );
    let back_flags = common::file_storage(&back);
    let back_args: Vec<&str> = back_flags.iter().map(String::as_str).collect();
    let file_again = stdio_client(&dir, &back_args, &[]).await;
    assert_eq!(ok(&file_again, "get_tasks", json!({})).await, on_db);
    file_again.cancel().await.unwrap();
    // Bad input changes nothing: not a board, a missing board, a file backend.
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"format\": \"something else\"}").unwrap();
    let junk_arg = junk.display().to_string();
    let (code, _, err) =
        common::run_binary(&dir, &["import", "--board", "junk", &junk_arg], &envs).await;
    assert_eq!(code, 1);
    assert!(err.contains("its snapshot is not usable"), "{err}");
    let (code, _, err) = common::run_binary(&dir, &["export", "--board", "nothing"], &envs).await;
    assert_eq!(code, 1);
    assert!(err.contains("board nothing is not in postgres://"), "{err}");
    let (code, _, err) = common::run_binary(&dir, &["export", "--storage", "file"], &envs).await;
    assert_eq!(code, 1);
    assert!(err.contains("pass --storage postgres"), "{err}");
    let rows = cluster.psql("moves", "SELECT string_agg(name, ',') FROM planning_boards");
    assert_eq!(rows, "moved");
}

#[tokio::test]
async fn the_history_rows_keep_the_newest_thousand_entries() {
    let Some(cluster) = Cluster::start_or_skip("postgres history cap") else {
        return;
    };
    let url = cluster.database("capped");
    let pairs = on(&url);
    let envs = env(&pairs);
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &[], &envs).await;
    let titles: Vec<String> = (0..100).map(|n| format!("t{n}")).collect();
    let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
    ok(&client, "add_tasks", json!({ "tasks": tasks })).await;
    // Eleven calls of 100 status changes each: 1,100 entries.
    for round in 0..11 {
        let status = if round % 2 == 0 {
            "completed"
        } else {
            "pending"
        };
        let updates: Vec<_> = titles
            .iter()
            .map(|t| json!({"task_id": id(t), "status": status}))
            .collect();
        ok(&client, "update_task_statuses", json!({ "tasks": updates })).await;
    }
    client.cancel().await.unwrap();
    // The table is trimmed every 100 entries: the newest 1,000 are left.
    let rows = cluster.psql(
        "capped",
        "SELECT count(*) || ' ' || min(seq) || ' ' || max(seq) FROM planning_history",
    );
    assert_eq!(rows, "1000 101 1100");
    let (code, exported, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    let snapshot: serde_json::Value = serde_json::from_str(&exported).unwrap();
    let history = snapshot["history"].as_array().unwrap();
    assert_eq!(history.len(), 1000);
    let last = &history[999];
    assert_eq!(
        (last["title"].as_str(), last["to"].as_str()),
        (Some("t99"), Some("completed"))
    );
    // A row that is not an entry is refused clearly, and left as it is.
    cluster.psql(
        "capped",
        "UPDATE planning_history SET entry = 'junk' WHERE seq = 1100",
    );
    let (code, _, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 1);
    let told = "its history entry 1100 is not usable: it is not valid JSON";
    assert!(err.contains(told), "{err}");
    let (code, _, err) = common::run_binary(&dir, &[], &envs).await;
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(told), "{err}");
    let kept = cluster.psql(
        "capped",
        "SELECT entry FROM planning_history WHERE seq = 1100",
    );
    assert_eq!(kept, "junk");
    // What the message says to do, done as written, mends it.
    let delete = "DELETE FROM planning_history WHERE board = 'default' AND seq = 1100";
    assert!(err.contains(delete), "{err}");
    cluster.psql("capped", delete);
    let (code, exported, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    let snapshot: serde_json::Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(snapshot["history"].as_array().unwrap().len(), 999);
    // A snapshot edited into one this build cannot read: the server says
    // "export it, fix it, import it", and that, done, mends it.
    cluster.psql(
        "capped",
        "UPDATE planning_boards SET snapshot = replace(snapshot, '\"tasks\"', '\"taskz\"')",
    );
    let (code, _, err) = common::run_binary(&dir, &[], &envs).await;
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("(export it, fix it, import it)"), "{err}");
    let (code, broken, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    let fixed = broken.replace("\"taskz\"", "\"tasks\"");
    let file = dir.path().join("fixed.json");
    std::fs::write(&file, &fixed).unwrap();
    let file_arg = file.display().to_string();
    let (code, _, err) = common::run_binary(&dir, &["import", "--replace", &file_arg], &envs).await;
    assert_eq!(code, 0, "{err}");
    let (code, again, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    let snapshot: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(snapshot["tasks"].as_array().unwrap().len(), 100);
    assert_eq!(snapshot["history"].as_array().unwrap().len(), 999);
    let server = stdio_client(&dir, &[], &envs).await;
    let board = ok(&server, "get_tasks", json!({})).await;
    assert!(board.contains("t99"), "{board}");
    server.cancel().await.unwrap();
}

#[tokio::test]
async fn a_unix_socket_directory_serves_as_the_host() {
    let Some(cluster) = Cluster::start_or_skip("postgres over a Unix socket") else {
        return;
    };
    cluster.database("local");
    let dir = tempfile::tempdir().unwrap();
    let socket = cluster.socket_dir().display().to_string();
    let port = cluster.port;
    // libpq's key=value form, then its URL form with the directory
    // percent-encoded as the host; the socket needs no password here.
    let key_values = format!("host={socket} port={port} dbname=local user={USER}");
    let pairs = on(&key_values);
    let writer = stdio_client(&dir, &[], &env(&pairs)).await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "by socket"}]}),
    )
    .await;
    writer.cancel().await.unwrap();
    let encoded = socket.replace('/', "%2F");
    let url = format!("postgres://{USER}@{encoded}:{port}/local");
    let pairs = on(&url);
    let reader = stdio_client(&dir, &[], &env(&pairs)).await;
    let board = ok(&reader, "get_tasks", json!({})).await;
    assert!(board.contains("by socket"), "{board}");
    reader.cancel().await.unwrap();
}

/// The tables as schema version 1 made them, the history inside the snapshot.
const SCHEMA_1: &str = r#"
CREATE TABLE planning_schema (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    version integer NOT NULL
);
CREATE TABLE planning_boards (
    name text PRIMARY KEY,
    revision bigint NOT NULL,
    snapshot text NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION planning_board_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('planning_board_changed', NEW.name);
    RETURN NULL;
END
$$;
CREATE TRIGGER planning_board_changed AFTER INSERT OR UPDATE ON planning_boards
    FOR EACH ROW EXECUTE FUNCTION planning_board_changed();
INSERT INTO planning_schema (version) VALUES (1);
"#;

#[tokio::test]
async fn a_schema_1_database_is_migrated_and_its_boards_keep_their_history() {
    let Some(cluster) = Cluster::start_or_skip("postgres schema migration") else {
        return;
    };
    let url = cluster.database("old");
    let pairs = on(&url);
    let envs = env(&pairs);
    let dir = tempfile::tempdir().unwrap();
    // A board with a history, as a file-backend server writes it.
    let store = dir.path().join("boards");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let file_server = stdio_client(&dir, &args, &[]).await;
    ok(
        &file_server,
        "set_goal",
        json!({"title": "Old", "description": ""}),
    )
    .await;
    ok(
        &file_server,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}]}),
    )
    .await;
    let done = json!({"tasks": [{"task_id": id("a"), "status": "completed"}]});
    ok(&file_server, "update_task_statuses", done).await;
    let on_file = ok(&file_server, "get_tasks", json!({})).await;
    file_server.cancel().await.unwrap();
    let original = std::fs::read_to_string(store.join("default.json")).unwrap();
    // The database as a server of schema 1 left it, holding that board, its
    // tables owned by another user.
    cluster.psql(
        "old",
        &format!(
            "{SCHEMA_1} INSERT INTO planning_boards (name, revision, snapshot) VALUES ('default', 4, $snap${original}$snap$); \
             GRANT SELECT, INSERT, UPDATE, DELETE ON planning_schema, planning_boards TO {USER};"
        ),
    );
    // A user who may use the tables but not alter them cannot migrate them,
    // and says so, changing nothing.
    let (code, _, err) = common::run_binary(&dir, &[], &envs).await;
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("they are schema version 1 and cannot be migrated to version 2: must be owner of table planning_boards; have the tables' owner start planning-mcp-server once"),
        "{err}"
    );
    assert_eq!(
        cluster.psql("old", "SELECT version FROM planning_schema"),
        "1"
    );
    cluster.psql(
        "old",
        &format!("ALTER TABLE planning_schema OWNER TO {USER}; ALTER TABLE planning_boards OWNER TO {USER};"),
    );
    // Their owner's server of this version migrates them, and reads the board.
    let server = stdio_client(&dir, &[], &envs).await;
    assert_eq!(
        cluster.psql("old", "SELECT version FROM planning_schema"),
        "2"
    );
    assert_eq!(ok(&server, "get_tasks", json!({})).await, on_file);
    let (code, exported, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        exported, original,
        "untouched, the board is as schema 1 stored it"
    );
    // Its next change moves the history into rows: the old entries, then the new.
    let done = json!({"tasks": [{"task_id": id("b"), "status": "completed"}]});
    ok(&server, "update_task_statuses", done).await;
    server.cancel().await.unwrap();
    let rows = cluster.psql(
        "old",
        "SELECT string_agg(seq || ':' || (entry::json->>'event'), ',' ORDER BY seq) FROM planning_history",
    );
    assert_eq!(rows, "1:goal_set,2:status_changed,3:status_changed");
    let (code, exported, err) = common::run_binary(&dir, &["export"], &envs).await;
    assert_eq!(code, 0, "{err}");
    let old: serde_json::Value = serde_json::from_str(&original).unwrap();
    let new: serde_json::Value = serde_json::from_str(&exported).unwrap();
    let old_history = old["history"].as_array().unwrap();
    let new_history = new["history"].as_array().unwrap();
    assert_eq!(new_history.len(), old_history.len() + 1);
    assert_eq!(&new_history[..old_history.len()], old_history.as_slice());
    assert_eq!(new_history[old_history.len()]["title"], "b");
}

#[tokio::test]
async fn tls_works_against_a_server_that_requires_it() {
    let Some((cluster, ca)) = Cluster::start_tls_or_skip("postgres TLS") else {
        return;
    };
    cluster.database("secure");
    let dir = tempfile::tempdir().unwrap();
    let ca = ca.display().to_string();
    // Another CA, which did not sign the server's certificate.
    let other = dir.path().join("other-ca.crt");
    let made = std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout"])
        .arg(dir.path().join("other.key"))
        .arg("-out")
        .arg(&other)
        .args(["-days", "2", "-subj", "/CN=someone else"])
        .output()
        .unwrap();
    assert!(made.status.success());
    let other = other.display().to_string();
    for (host, query) in [
        ("127.0.0.1", "sslmode=require".to_owned()),
        ("127.0.0.1", format!("sslmode=verify-full&sslrootcert={ca}")),
        ("localhost", format!("sslmode=verify-full&sslrootcert={ca}")),
        ("127.0.0.1", format!("sslmode=verify-ca&sslrootcert={ca}")),
    ] {
        let pairs = on(&cluster.url_with("secure", host, &query));
        let client = stdio_client(&dir, &[], &env(&pairs)).await;
        ok(
            &client,
            "add_tasks",
            json!({"tasks": [{"title": query.clone()}]}),
        )
        .await;
        client.cancel().await.unwrap();
    }
    let stored = cluster.psql("secure", "SELECT revision FROM planning_boards");
    assert_eq!(stored, "4");
    for (query, expected) in [
        ("sslmode=disable".to_owned(), "no encryption"),
        (
            format!("sslmode=verify-full&sslrootcert={other}"),
            "invalid peer certificate",
        ),
    ] {
        let pairs = on(&cluster.url_with("secure", "127.0.0.1", &query));
        let (code, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
        assert_eq!(code, 1, "{query}: {err}");
        assert!(
            err.contains("cannot connect to the board database"),
            "{err}"
        );
        assert!(err.contains(expected), "{query}: {err}");
        assert!(!err.contains(PASSWORD), "{err}");
    }
}

#[tokio::test]
async fn a_client_certificate_authenticates_where_the_server_asks_for_one() {
    use std::os::unix::fs::PermissionsExt as _;

    let Some((cluster, ca)) = Cluster::start_tls_or_skip("postgres client certificates") else {
        return;
    };
    cluster.database("certs");
    let dir = tempfile::tempdir().unwrap();
    let openssl = |args: &[&str]| {
        let made = std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
    };
    // A certificate for the user, signed by the CA that signed the server's.
    let subject = format!("/CN={USER}");
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "client.key",
        "-out",
        "client.csr",
        "-subj",
        &subject,
    ]);
    // An X.509 v3 certificate (rustls takes no other), for client use.
    std::fs::write(
        dir.path().join("client.ext"),
        "extendedKeyUsage=clientAuth\n",
    )
    .unwrap();
    let ca_key = ca.with_file_name("ca.key");
    let (ca_arg, ca_key_arg) = (ca.display().to_string(), ca_key.display().to_string());
    openssl(&[
        "x509",
        "-req",
        "-in",
        "client.csr",
        "-CA",
        &ca_arg,
        "-CAkey",
        &ca_key_arg,
        "-CAcreateserial",
        "-out",
        "client.crt",
        "-days",
        "2",
        "-extfile",
        "client.ext",
    ]);
    let (cert, key) = (dir.path().join("client.crt"), dir.path().join("client.key"));
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    // From now on the server takes a certificate instead of a password.
    let data = cluster.data();
    std::fs::copy(&ca, data.join("root.crt")).unwrap();
    let conf = data.join("postgresql.conf");
    let all = std::fs::read_to_string(&conf).unwrap() + "ssl_ca_file = 'root.crt'\n";
    std::fs::write(&conf, all).unwrap();
    std::fs::write(
        data.join("pg_hba.conf"),
        "local all all trust\nhostssl all all 127.0.0.1/32 cert\nhostnossl all all 127.0.0.1/32 reject\n",
    )
    .unwrap();
    cluster.psql("postgres", "SELECT pg_reload_conf()");

    let files = format!(
        "sslmode=verify-full&sslrootcert={}&sslcert={}&sslkey={}",
        ca.display(),
        cert.display(),
        key.display()
    );
    let pairs = on(&cluster.url_with("certs", "localhost", &files));
    let client = stdio_client(&dir, &[], &env(&pairs)).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "by certificate"}]}),
    )
    .await;
    client.cancel().await.unwrap();
    assert_eq!(
        cluster.psql("certs", "SELECT revision FROM planning_boards"),
        "1"
    );

    // Without the certificate the server refuses; a key others may read
    // is refused before any connection; neither message shows the password.
    let bare = format!("sslmode=verify-full&sslrootcert={}", ca.display());
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    for (query, expected) in [
        (bare, "cannot connect to the board database"),
        (files, "may be read by its group or others"),
    ] {
        let pairs = on(&cluster.url_with("certs", "localhost", &query));
        let (code, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
        assert_eq!(code, 1, "{query}: {err}");
        assert!(err.contains(expected), "{query}: {err}");
        assert!(!err.contains(PASSWORD), "{err}");
    }
}
