// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A headless Chromium driven through chromedriver with the W3C WebDriver
//! protocol: a few JSON requests over the HTTP client the tests already
//! have, instead of a WebDriver crate and its dependency tree.
//!
//! Without Chromium and chromedriver, [`Browser::start`] prints why the test
//! is skipped and returns `None`; with `PLANNING_REQUIRE_BROWSER=1` (as in
//! CI) a missing browser fails the test instead.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::process::{Child, Command};

/// The flags the browser runs with: headless, no sandbox (CI runs as
/// root), and nothing that reaches the network by itself.
const CHROMIUM_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
];

/// A browser session.
pub(crate) struct Browser {
    http: reqwest::Client,
    /// e.g. `http://127.0.0.1:9515/session/abc`
    session: String,
    driver_port: u16,
    session_id: String,
    driver: Child,
    _profile: TempDir,
}

/// The file that the environment variable `env` names, if it is set;
/// otherwise the first of `names` found at an absolute path or on `PATH`.
fn find(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|name| {
        let name = Path::new(name);
        if name.is_absolute() {
            return name.is_file().then(|| name.to_path_buf());
        }
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile and
    /// a window of `width` × `height`; `None` (after saying why) when they
    /// are not installed and `PLANNING_REQUIRE_BROWSER` is not `1`.
    pub(crate) async fn start(test: &str, width: u32, height: u32) -> Option<Self> {
        let chromium = find(
            "PLANNING_CHROMIUM",
            &[
                "/usr/bin/chromium",
                "chromium",
                "chromium-browser",
                "google-chrome",
            ],
        );
        let driver = find(
            "PLANNING_CHROMEDRIVER",
            &["/usr/bin/chromedriver", "chromedriver"],
        );
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            let why = "Chromium and chromedriver are not installed (Debian: apt-get install \
                       chromium chromium-driver; or name them in PLANNING_CHROMIUM and \
                       PLANNING_CHROMEDRIVER)";
            if std::env::var("PLANNING_REQUIRE_BROWSER").as_deref() == Ok("1") {
                panic!("{test}: {why}, and PLANNING_REQUIRE_BROWSER=1 requires them");
            }
            // Straight to stderr: the test harness would hide a passing test's eprintln!.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: {why}; set PLANNING_REQUIRE_BROWSER=1 to make this a failure"
            );
            return None;
        };
        Some(Self::launch(&chromium, &driver, width, height).await)
    }

    async fn launch(chromium: &Path, driver: &Path, width: u32, height: u32) -> Self {
        let driver_port = super::free_port();
        let driver = Command::new(driver)
            .arg(format!("--port={driver_port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromedriver");
        let http = reqwest::Client::new();
        let root = format!("http://127.0.0.1:{driver_port}");
        super::eventually("chromedriver's readiness", || async {
            let status = http.get(format!("{root}/status")).send().await.ok()?;
            let body = status.json::<Value>().await.ok()?;
            (body["value"]["ready"] == true).then_some(())
        })
        .await;
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| (*f).to_owned()).collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.push(format!("--window-size={width},{height}"));
        // The console and the network as logs, for [`Browser::console`] and
        // [`Browser::responses`].
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
            "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"},
        }}});
        let created = command(
            &http,
            "POST",
            &format!("{root}/session"),
            Some(capabilities),
        )
        .await;
        let session_id = created["sessionId"]
            .as_str()
            .expect("a session ID")
            .to_owned();
        Self {
            http,
            session: format!("{root}/session/{session_id}"),
            driver_port,
            session_id,
            driver,
            _profile: profile,
        }
    }

    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        command(&self.http, method, &format!("{}{path}", self.session), body).await
    }

    /// Opens `url` and waits for it to load.
    pub(crate) async fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url }))).await;
    }

    /// The current URL.
    pub(crate) async fn url(&self) -> String {
        self.call("GET", "/url", None)
            .await
            .as_str()
            .expect("a URL")
            .to_owned()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    pub(crate) async fn run(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
        .await
    }

    /// Runs `script` (a function body) in the page and answers what it
    /// passes to its callback, the last of `arguments` (a promise's result).
    pub(crate) async fn run_async(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
        .await
    }

    /// Runs `script` until it returns `expected` and answers how long that
    /// took (a figure to print, not to judge: a loaded machine is slow);
    /// panics, naming `what`, with the last value after [`super::HANG`].
    pub(crate) async fn wait_for(
        &self,
        what: &str,
        script: &str,
        args: Value,
        expected: Value,
    ) -> Duration {
        let started = Instant::now();
        loop {
            let value = self.run(script, args.clone()).await;
            if value == expected {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < super::HANG,
                "{what}: not within {:?}, a hang (last: {value}, expected: {expected})",
                super::HANG
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Resizes the window so that its viewport is `width` wide and shows
    /// the whole page's height.
    pub(crate) async fn fit_page(&self, width: u32) {
        let measure = "return [document.documentElement.scrollHeight, \
                       window.outerHeight - window.innerHeight];";
        let sizes = self.run(measure, json!([])).await;
        let height = sizes[0].as_u64().unwrap_or(1000) + sizes[1].as_u64().unwrap_or(0);
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .await;
    }

    /// The console's messages since the last call (errors, CSP violations,
    /// failed loads), each `{level, message, source}`.
    pub(crate) async fn console(&self) -> Vec<Value> {
        let entries = self
            .call("POST", "/se/log", Some(json!({"type": "browser"})))
            .await;
        entries.as_array().cloned().unwrap_or_default()
    }

    /// The HTTP responses the pages received since the last call: status
    /// and URL.
    pub(crate) async fn responses(&self) -> Vec<(u64, String)> {
        let entries = self
            .call("POST", "/se/log", Some(json!({"type": "performance"})))
            .await;
        let events = entries.as_array().cloned().unwrap_or_default();
        events
            .iter()
            .filter_map(|entry| serde_json::from_str::<Value>(entry["message"].as_str()?).ok())
            .filter(|event| event["message"]["method"] == "Network.responseReceived")
            .filter_map(|event| {
                let response = &event["message"]["params"]["response"];
                Some((
                    response["status"].as_u64()?,
                    response["url"].as_str()?.to_owned(),
                ))
            })
            .collect()
    }

    /// A PNG of the window.
    pub(crate) async fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", "/screenshot", None).await;
        decode_base64(encoded.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    /// Ends the session (which closes Chromium) even when a test panicked,
    /// with a plain blocking request; chromedriver is then killed.
    fn drop(&mut self) {
        use std::io::Read as _;
        let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", self.driver_port)) else {
            return;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let request = format!(
            "DELETE /session/{} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.session_id, self.driver_port
        );
        // The reply's first bytes mean the session is gone (the connection
        // itself may stay open).
        if stream.write_all(request.as_bytes()).is_ok() {
            let _ = stream.read(&mut [0; 512]);
        }
        let _ = self.driver.start_kill();
    }
}

/// Sends one WebDriver command and returns its `value`; panics on an error.
async fn command(http: &reqwest::Client, method: &str, url: &str, body: Option<Value>) -> Value {
    let request = match method {
        "GET" => http.get(url),
        "DELETE" => http.delete(url),
        _ => http
            .post(url)
            .header("content-type", "application/json")
            .body(body.unwrap_or_else(|| json!({})).to_string()),
    };
    let response = request.send().await.expect("chromedriver answers");
    let status = response.status();
    let reply: Value = response.json().await.expect("a JSON reply");
    assert!(
        status.is_success(),
        "WebDriver {method} {url} failed ({status}): {}",
        reply["value"]
    );
    reply["value"].clone()
}

/// Decodes standard base64 (the encoding of WebDriver screenshots).
pub(crate) fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, d)| acc | (u32::from(*d) << (18 - 6 * i)));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
