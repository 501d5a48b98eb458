// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The DNS-rebinding guard: a request's `Host` must be one of ours, and a
//! browser's `Origin` must be loopback or explicitly allowed; otherwise 403.
//! (Checked here once per request, rather than by rmcp's service, whose
//! per-request copies of long allow-lists cost more than the check.)

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::config::ServerSettings;

/// Host names always accepted in `Host` and as browser origins.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The accepted hosts and origins.
#[derive(Debug, Clone)]
pub(crate) struct Guard(Arc<Lists>);

#[derive(Debug)]
struct Lists {
    /// Lower-case host names (with an optional port) accepted in `Host`.
    hosts: Vec<(String, Option<u16>)>,
    /// Origins accepted besides loopback ones.
    origins: Vec<OriginRule>,
}

/// An allowed origin: `null`, or a scheme and host with a port (`None`: any port).
#[derive(Debug, PartialEq, Eq)]
enum OriginRule {
    Null,
    Site {
        scheme: String,
        host: String,
        port: Option<u16>,
    },
}

impl Guard {
    /// The guard for `[server]`: loopback names, the bound host, and the
    /// configured extra hosts and origins.
    pub(crate) fn new(settings: &ServerSettings) -> Self {
        let configured = std::iter::once(settings.host.as_str())
            .chain(settings.allowed_hosts.iter().map(String::as_str));
        let hosts = LOOPBACK
            .into_iter()
            .map(|h| (h.to_owned(), None))
            .chain(configured.filter_map(split_authority))
            .collect();
        let origins = settings
            .allowed_origins
            .iter()
            .filter_map(|o| OriginRule::parse(o))
            .collect();
        Self(Arc::new(Lists { hosts, origins }))
    }

    /// Whether a `Host` header value names this server.
    pub(crate) fn allows_host(&self, value: &str) -> bool {
        split_authority(value).is_some_and(|(host, port)| {
            self.0.hosts.iter().any(|(allowed, allowed_port)| {
                *allowed == host && allowed_port.is_none_or(|p| Some(p) == port)
            })
        })
    }

    /// Whether an `Origin` header value may call this server.
    pub(crate) fn allows_origin(&self, value: &str) -> bool {
        let Some(origin) = OriginRule::parse(value) else {
            return false;
        };
        let OriginRule::Site { scheme, host, port } = &origin else {
            return self.0.origins.contains(&OriginRule::Null);
        };
        let port = port.or_else(|| default_port(scheme));
        let loopback = (scheme == "http" || scheme == "https") && LOOPBACK.contains(&host.as_str());
        loopback
            || self.0.origins.iter().any(|rule| match rule {
                OriginRule::Site {
                    scheme: s,
                    host: h,
                    port: p,
                } => s == scheme && h == host && p.is_none_or(|p| Some(p) == port),
                OriginRule::Null => false,
            })
    }
}

impl OriginRule {
    /// Parses `null`, `scheme://host`, `scheme://host:port` or
    /// `scheme://host:*` (any port). A rule without a port means the
    /// scheme's default port.
    fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("null") {
            return Some(OriginRule::Null);
        }
        let (scheme, rest) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.strip_suffix(":*") {
            Some(host) => (
                host.to_ascii_lowercase()
                    .trim_matches(['[', ']'])
                    .to_owned(),
                None,
            ),
            None => {
                let (host, port) = split_authority(rest)?;
                (host, port.or_else(|| default_port(&scheme)))
            }
        };
        (!host.is_empty()).then_some(OriginRule::Site { scheme, host, port })
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

/// Splits `host[:port]` or `[v6][:port]` into a lower-case host and a port.
fn split_authority(value: &str) -> Option<(String, Option<u16>)> {
    let value = value.trim();
    let (host, port) = if let Some(rest) = value.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        (host, after.strip_prefix(':'))
    } else if value.matches(':').count() > 1 {
        (value, None) // a bare IPv6 address
    } else {
        match value.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (value, None),
        }
    };
    let port = match port {
        Some(port) => Some(port.parse().ok()?),
        None => None,
    };
    (!host.is_empty()).then(|| (host.to_ascii_lowercase(), port))
}

fn forbidden(what: &str) -> Response {
    (
        StatusCode::FORBIDDEN,
        format!("Forbidden: {what} is not allowed\n"),
    )
        .into_response()
}

impl Guard {
    /// A 403 for a request whose `Host` or `Origin` is not allowed, or `None`.
    /// A request in absolute form (`GET http://name/...`, as clients send
    /// to a proxy) or authority form (`CONNECT name:443`) names a host in
    /// its target too, which HTTP/1.1 has a server use instead of `Host`
    /// (RFC 9112, 3.2.2): that host must be allowed as well.
    pub(crate) fn refusal(&self, request: &Request) -> Option<Response> {
        if let Some(target) = request.uri().authority()
            && !self.allows_host(target.as_str())
        {
            tracing::warn!(request_target = %target, "refused a request whose target names a foreign host (DNS rebinding?)");
            return Some(forbidden("the host in the request target"));
        }
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| request.uri().authority().map(|a| a.as_str()));
        if !host.is_some_and(|h| self.allows_host(h)) {
            tracing::warn!(host = ?host, "refused a request with a foreign Host header (DNS rebinding?)");
            return Some(forbidden("Host header"));
        }
        if let Some(origin) = request.headers().get(header::ORIGIN)
            && !origin.to_str().is_ok_and(|o| self.allows_origin(o))
        {
            tracing::warn!(origin = ?origin, "refused a request from a foreign Origin");
            return Some(forbidden("Origin header"));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(host: &str, hosts: &[&str], origins: &[&str]) -> Guard {
        Guard::new(&ServerSettings {
            host: host.into(),
            allowed_hosts: hosts.iter().map(|h| (*h).to_owned()).collect(),
            allowed_origins: origins.iter().map(|o| (*o).to_owned()).collect(),
            ..ServerSettings::default()
        })
    }

    #[test]
    fn hosts() {
        let g = guard(
            "localhost",
            &["plan.example.com", "other.example:8443"],
            &[],
        );
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:8080",
            "::1",
            "LOCALHOST",
            "plan.example.com:80",
            "other.example:8443",
        ] {
            assert!(g.allows_host(ok), "{ok}");
        }
        for bad in [
            "",
            "evil.example",
            "evil.example:8080",
            "other.example:8444",
            "localhost.evil.example",
            "127.0.0.1:notaport",
            "[::1",
        ] {
            assert!(!g.allows_host(bad), "{bad}");
        }
        assert!(guard("0.0.0.0", &[], &[]).allows_host("0.0.0.0:9"));
    }

    /// A request for `target` with `Host: host`.
    fn request(target: &str, host: &str) -> Request {
        Request::builder()
            .uri(target)
            .header(header::HOST, host)
            .body(axum::body::Body::empty())
            .unwrap()
    }

    #[test]
    fn a_host_in_the_request_target_is_checked_like_the_host_header() {
        let g = guard("localhost", &["plan.example.com"], &[]);
        for allowed in [
            request("/mcp", "localhost:8080"),
            request("http://localhost:8080/mcp", "localhost:8080"),
            request("http://plan.example.com/", "plan.example.com"),
        ] {
            assert!(g.refusal(&allowed).is_none(), "{:?}", allowed.uri());
        }
        for refused in [
            request("http://evil.example/mcp", "localhost:8080"),
            request("http://evil.example:8080/", "localhost"),
            request("http://user@localhost/", "localhost"),
            request("evil.example:443", "localhost"),
            request("http://localhost/mcp", "evil.example"),
        ] {
            let refusal = g.refusal(&refused).map(|r| r.status());
            assert_eq!(refusal, Some(StatusCode::FORBIDDEN), "{:?}", refused.uri());
        }
    }

    #[test]
    fn origins() {
        let g = guard(
            "localhost",
            &[],
            &["https://plan.example.com", "http://dev.example:*", "null"],
        );
        for ok in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:8080",
            "https://plan.example.com",
            "https://plan.example.com:443",
            "http://dev.example:5173",
            "null",
        ] {
            assert!(g.allows_origin(ok), "{ok}");
        }
        for bad in [
            "http://evil.example",
            "https://plan.example.com:8443",
            "http://plan.example.com",
            "file://localhost",
            "garbage",
            "",
        ] {
            assert!(!g.allows_origin(bad), "{bad}");
        }
        assert!(!guard("localhost", &[], &[]).allows_origin("null"));
    }
}
