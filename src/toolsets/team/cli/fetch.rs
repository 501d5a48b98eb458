// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The digest (or the reservations, or the board) from a running server:
//! one plain `GET` over HTTP/1.0 (the server then sends the body whole and
//! closes), all of it (name lookup, connect, request, response) within 5
//! seconds, so that a hook never hangs on a server that stalls or trickles
//! its answer; and a person's write, one `POST` of the web board's
//! (`board … --url`). Only `http://`: behind a TLS proxy, use curl on
//! `/boards/{name}/digest` instead (docs/team.md).

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::server::BoardName;
use crate::toolsets::planning::web::csrf;

/// The longest the whole exchange may take.
const TIMEOUT: Duration = Duration::from_secs(5);
/// The most bytes of a digest read: a digest is far smaller.
const MAX_DIGEST: usize = 64 * 1024;
/// The most bytes of a board's reservations read.
const MAX_RESERVATIONS: usize = 8 * 1024 * 1024;
/// The most bytes of a board's JSON read (its history included).
const MAX_BOARD: usize = 64 * 1024 * 1024;

/// The most bytes of a write's answer read: one reply.
const MAX_ANSWER: usize = 1024 * 1024;

/// Why a server gave no answer to use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FetchError {
    /// It could not be asked: nothing listens, it did not answer in time,
    /// or not in HTTP.
    #[error("{0}")]
    Unreached(String),
    /// It wants a token, or another one (401, or 403: refused this client).
    #[error("{0}")]
    SignIn(String),
    /// The URL is not one to ask, or the answer is not one to use.
    #[error("{0}")]
    Other(String),
}

impl From<FetchError> for String {
    fn from(error: FetchError) -> Self {
        error.to_string()
    }
}

/// The digest of board `name` from the server at `url`.
pub(crate) fn digest(url: &str, name: &BoardName, token: Option<&str>) -> Result<String, String> {
    let body = get(url, name, "digest", "text/markdown", MAX_DIGEST, token)?;
    Ok(body.trim_end_matches('\n').to_owned())
}

/// A person's write `action` on board `name` of the server at `url`
/// (`POST /boards/{name}/actions/{action}`, docs/web.md), with the JSON
/// object `fields`: the status and the JSON answer. With `token`, it signs
/// in as a script does (a bearer token, which no browser adds to another
/// site's request, so the server asks no CSRF token of it); without one, it
/// sends a fresh value as both the CSRF cookie and header, as any script
/// may (the pair only tells a browser's page from another site's form).
pub(crate) fn write(
    url: &str,
    name: &BoardName,
    action: &str,
    fields: &str,
    token: Option<&str>,
) -> Result<(u16, String), FetchError> {
    let tail = format!("/boards/{name}/actions/{action}");
    let mut headers = String::from("Content-Type: application/json\r\n");
    if token.is_none() {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|error| FetchError::Other(format!("no random CSRF value: {error}")))?;
        let value = hex::encode(bytes);
        headers.push_str(&format!(
            "Cookie: {}={value}\r\n{}: {value}\r\n",
            csrf::COOKIE,
            csrf::HEADER
        ));
    }
    let ask = Ask {
        method: "POST",
        tail: &tail,
        accept: "application/json",
        headers: &headers,
        body: fields,
    };
    match request(url, &ask, MAX_ANSWER, token)? {
        (status @ (401 | 403), body) => Err(signin(url, token, status, &body)),
        answer => Ok(answer),
    }
}

/// The live reservations of board `name` from the server at `url`, as JSON.
pub(crate) fn reservations(
    url: &str,
    name: &BoardName,
    token: Option<&str>,
) -> Result<String, String> {
    Ok(get(
        url,
        name,
        "reservations",
        "application/json",
        MAX_RESERVATIONS,
        token,
    )?)
}

/// Board `name` as the web board's `GET {url}/boards/{name}.json` shows
/// it (docs/web.md), or `None` when the server holds no such board.
pub(crate) fn board_json(
    url: &str,
    name: &BoardName,
    token: Option<&str>,
) -> Result<Option<String>, FetchError> {
    let tail = format!("/boards/{name}.json");
    match request(url, &Ask::get(&tail, "application/json"), MAX_BOARD, token)? {
        (200, body) => Ok(Some(body)),
        (404, _) => Ok(None),
        (status, body) => Err(refusal(url, status, &body, token)),
    }
}

/// The body of `GET {url}/boards/{name}/{what}` (toolset team's routes),
/// at most `max` bytes.
fn get(
    url: &str,
    name: &BoardName,
    what: &str,
    accept: &str,
    max: usize,
    token: Option<&str>,
) -> Result<String, FetchError> {
    let tail = format!("/boards/{name}/{what}");
    match request(url, &Ask::get(&tail, accept), max, token)? {
        (200, body) => Ok(body),
        (404, _) => Err(FetchError::Other(format!(
            "{url} serves no {what} of board {name}: is toolset team enabled there \
             (--toolsets planning,team)?"
        ))),
        (status, body) => Err(refusal(url, status, &body, token)),
    }
}

/// What an answer other than 200 or 404 means to the person.
fn refusal(url: &str, status: u16, body: &str, token: Option<&str>) -> FetchError {
    match status {
        401 | 403 => signin(url, token, status, body),
        other => FetchError::Other(format!(
            "{url} answered {other}: {}",
            crate::runtime::text::clip(body.trim())
        )),
    }
}

/// What a 401 (or a 403) means to the person: no token given, or not the
/// server's (the token itself is never shown); a 403 says why.
fn signin(url: &str, token: Option<&str>, status: u16, body: &str) -> FetchError {
    if status == 403 {
        let body = crate::runtime::text::clip(body.trim());
        return FetchError::SignIn(format!("{url} refused the request (403): {body}"));
    }
    let why = match token {
        None => "wants a token",
        Some(_) => "refused the token",
    };
    FetchError::SignIn(format!(
        "{url} {why}: set PLANNING_SERVER_AUTH_TOKEN (or server.auth_token) to the server's"
    ))
}

/// One request: its method, path after the URL's prefix (from `/boards/`
/// on), `Accept`, further header lines and body.
struct Ask<'a> {
    method: &'a str,
    tail: &'a str,
    accept: &'a str,
    /// Header lines, each ending with CRLF.
    headers: &'a str,
    body: &'a str,
}

impl<'a> Ask<'a> {
    /// A `GET` of `tail`.
    fn get(tail: &'a str, accept: &'a str) -> Self {
        Self {
            method: "GET",
            tail,
            accept,
            headers: "",
            body: "",
        }
    }
}

/// The status and body of `ask` to the server at `url`, at most `max`
/// bytes, within [`TIMEOUT`].
fn request(
    url: &str,
    ask: &Ask<'_>,
    max: usize,
    token: Option<&str>,
) -> Result<(u16, String), FetchError> {
    let (authority, base) = split(url).map_err(FetchError::Other)?;
    let Ask {
        method,
        tail,
        accept,
        headers,
        body,
    } = ask;
    let mut request = format!(
        "{method} {base}{tail} HTTP/1.0\r\nHost: {authority}\r\nAccept: {accept}\r\n\
         User-Agent: planning-mcp-server-cli\r\n{headers}"
    );
    if let Some(token) = token {
        request.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    if *method != "GET" {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let deadline = Instant::now() + TIMEOUT;
    let response = exchange(&authority, request.as_bytes(), deadline, max).map_err(|error| {
        FetchError::Unreached(match error.kind() {
            io::ErrorKind::TimedOut => {
                format!("{url} did not answer within {} s", TIMEOUT.as_secs())
            }
            _ => format!("cannot reach {url}: {error}"),
        })
    })?;
    parse(&response).ok_or_else(|| FetchError::Unreached(format!("{url} did not answer HTTP")))
}

/// `http://host:port/prefix[/mcp]` -> (`host:port`, `/prefix`).
fn split(url: &str) -> Result<(String, String), String> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        format!(
            "'{}' is not an http:// URL (for https, use curl on /boards/NAME/digest)",
            crate::runtime::text::clip(url)
        )
    })?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let valid = !authority.is_empty()
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:[]".contains(c));
    if !valid {
        return Err(format!(
            "'{}' names no host",
            crate::runtime::text::clip(url)
        ));
    }
    let authority = match authority.rsplit_once(':') {
        Some((_, port)) if !port.contains(']') => authority.to_owned(),
        _ => format!("{authority}:80"),
    };
    let base = path.trim_end_matches('/');
    let base = base.strip_suffix("/mcp").unwrap_or(base);
    if base.contains(|c: char| c.is_whitespace() || c.is_control() || c == '?' || c == '#') {
        return Err(format!(
            "'{}' has a path that is not a plain prefix",
            crate::runtime::text::clip(url)
        ));
    }
    Ok((authority, base.to_owned()))
}

/// Sends `request` to `authority` and reads the whole response (at most
/// `max` bytes), all before `deadline`; past it, an error of kind
/// `TimedOut`.
fn exchange(authority: &str, request: &[u8], deadline: Instant, max: usize) -> io::Result<Vec<u8>> {
    let mut last = io::Error::other("the name resolves to no address");
    for address in resolve(authority, deadline)? {
        match TcpStream::connect_timeout(&address, left(deadline)?) {
            Ok(stream) => return talk(stream, request, deadline, max),
            Err(error) if error.kind() == io::ErrorKind::TimedOut => return Err(error),
            Err(error) => last = error,
        }
    }
    Err(last)
}

/// The addresses of `authority`, looked up before `deadline`. The system's
/// resolver has no timeout of its own: it runs on a thread of its own,
/// left behind (the program ends soon after) if it is too slow.
fn resolve(authority: &str, deadline: Instant) -> io::Result<Vec<SocketAddr>> {
    let (sender, receiver) = mpsc::channel();
    let name = authority.to_owned();
    std::thread::Builder::new()
        .name("resolve".into())
        .spawn(move || {
            let _ = sender.send(name.to_socket_addrs().map(Vec::from_iter));
        })?;
    receiver
        .recv_timeout(left(deadline)?)
        .unwrap_or_else(|_| Err(timed_out()))
}

/// Writes `request` on `stream` and reads the response, each read and
/// write bounded by what is left until `deadline`: a server that trickles
/// its answer a byte at a time is cut off at the deadline.
fn talk(
    mut stream: TcpStream,
    request: &[u8],
    deadline: Instant,
    max: usize,
) -> io::Result<Vec<u8>> {
    let mut written = 0;
    while written < request.len() {
        stream.set_write_timeout(Some(left(deadline)?))?;
        match stream.write(&request[written..]) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => written += n,
            Err(error) => return Err(in_time(error)),
        }
    }
    let mut response = Vec::new();
    let mut chunk = [0; 4096];
    while response.len() < max {
        stream.set_read_timeout(Some(left(deadline)?))?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => response.extend_from_slice(&chunk[..n]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(in_time(error)),
        }
    }
    response.truncate(max);
    Ok(response)
}

/// What is left until `deadline`, or a `TimedOut` error when nothing is.
fn left(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    match left.is_zero() {
        true => Err(timed_out()),
        false => Ok(left),
    }
}

/// `error`, as `TimedOut` when it is a socket timeout (which Linux reports
/// as `WouldBlock`).
fn in_time(error: io::Error) -> io::Error {
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => timed_out(),
        _ => error,
    }
}

fn timed_out() -> io::Error {
    io::ErrorKind::TimedOut.into()
}

/// The status and the body of an HTTP/1.x response.
fn parse(response: &[u8]) -> Option<(u16, String)> {
    let text = std::str::from_utf8(response).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status_line = head.lines().next()?;
    let mut parts = status_line.split_whitespace();
    parts.next().filter(|v| v.starts_with("HTTP/1."))?;
    let status = parts.next()?.parse().ok()?;
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    let body = match length {
        Some(length) if length <= body.len() => body.get(..length)?,
        _ => body,
    };
    Some((status, body.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_authority_and_prefix() {
        let split = |url: &str| split(url).map(|(a, b)| format!("{a} {b}"));
        assert_eq!(split("http://localhost:8080").unwrap(), "localhost:8080 ");
        assert_eq!(
            split("http://localhost:8080/mcp").unwrap(),
            "localhost:8080 "
        );
        assert_eq!(split("http://h/plan/mcp/").unwrap(), "h:80 /plan");
        assert_eq!(split("http://[::1]:9/").unwrap(), "[::1]:9 ");
        assert_eq!(split("http://[::1]").unwrap(), "[::1]:80 ");
        assert!(
            split("https://h")
                .unwrap_err()
                .contains("not an http:// URL")
        );
        assert!(split("http://").is_err());
        assert!(split("http://h/x?y").is_err());
        assert!(split("http://a b").is_err());
    }

    /// A server on a loopback port that reads a request, then answers with
    /// `answer` and, if `trickle`, one more byte every 10 ms until the
    /// client is gone.
    fn server(answer: &'static [u8], trickle: bool) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = [0; 1024];
            let _ = stream.read(&mut request).unwrap();
            stream.write_all(answer).unwrap();
            while trickle && stream.write_all(b"x").is_ok() {
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        address
    }

    #[test]
    fn a_whole_answer_is_read_and_a_trickled_one_cut_off_at_the_deadline() {
        let deadline = || Instant::now() + Duration::from_secs(60);
        let whole = b"HTTP/1.0 200 OK\r\n\r\ndigest";
        let address = server(whole, false);
        assert_eq!(exchange(&address, b"GET", deadline(), 1024).unwrap(), whole);

        // Each byte comes well within any per-read timeout; the whole
        // answer never ends.
        let address = server(b"HTTP/1.0 200 OK\r\n\r\n", true);
        let soon = Instant::now() + Duration::from_millis(300);
        let error = exchange(&address, b"GET", soon, 1024).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        // A deadline already past: not even a name lookup.
        let past = Instant::now();
        let error = exchange("localhost:1", b"GET", past, 1024).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[test]
    fn responses_parse() {
        let ok = b"HTTP/1.0 200 OK\r\ncontent-length: 5\r\n\r\nhello world";
        assert_eq!(parse(ok), Some((200, "hello".into())));
        let closed = b"HTTP/1.1 404 Not Found\r\n\r\nno such board\n";
        assert_eq!(parse(closed), Some((404, "no such board\n".into())));
        assert_eq!(parse(b"SSH-2.0-OpenSSH\r\n\r\n"), None);
        assert_eq!(parse(b""), None);
    }
}
