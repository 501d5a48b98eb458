// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The digest from a running server: one plain `GET` over HTTP/1.0 (the
//! server then sends the body whole and closes), with short timeouts so a
//! hook never hangs. Only `http://`: behind a TLS proxy, use curl on
//! `/boards/{name}/digest` instead (docs/team.md).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use crate::server::BoardName;

/// How long to wait to connect, and for each read or write.
const TIMEOUT: Duration = Duration::from_secs(5);
/// The most bytes read: a digest is far smaller.
const MAX_RESPONSE: u64 = 64 * 1024;

/// The digest of board `name` from the server at `url`.
pub fn digest(url: &str, name: &BoardName, token: Option<&str>) -> Result<String, String> {
    let (authority, base) = split(url)?;
    let path = format!("{base}/boards/{name}/digest");
    let mut request = format!(
        "GET {path} HTTP/1.0\r\nHost: {authority}\r\nAccept: text/markdown\r\nUser-Agent: planning-mcp-server-summary\r\n"
    );
    if let Some(token) = token {
        request.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    request.push_str("\r\n");
    let response = exchange(&authority, request.as_bytes())
        .map_err(|error| format!("cannot reach {url}: {error}"))?;
    let (status, body) = parse(&response).ok_or_else(|| format!("{url} did not answer HTTP"))?;
    match status {
        200 => Ok(body.trim_end_matches('\n').to_owned()),
        401 => Err(format!(
            "{url} wants a token: set PLANNING_SERVER_AUTH_TOKEN (or server.auth_token)"
        )),
        404 => Err(format!(
            "{url} serves no digest of board {name}: is toolset team enabled there \
             (--toolsets planning,team)?"
        )),
        other => Err(format!(
            "{url} answered {other}: {}",
            crate::runtime::text::clip(body.trim())
        )),
    }
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

/// Sends `request` to `authority` and reads the whole response.
fn exchange(authority: &str, request: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut last = std::io::Error::other("the name resolves to no address");
    for address in authority.to_socket_addrs()? {
        match TcpStream::connect_timeout(&address, TIMEOUT) {
            Ok(mut stream) => {
                stream.set_read_timeout(Some(TIMEOUT))?;
                stream.set_write_timeout(Some(TIMEOUT))?;
                stream.write_all(request)?;
                let mut response = Vec::new();
                stream.take(MAX_RESPONSE).read_to_end(&mut response)?;
                return Ok(response);
            }
            Err(error) => last = error,
        }
    }
    Err(last)
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
