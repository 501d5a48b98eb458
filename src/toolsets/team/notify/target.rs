// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where a webhook may go: `https://` anywhere, plain `http://` only to a
//! loopback address (a local tool on the same machine), since a board's
//! events sent in clear over a network could be read and forged on the way.

use std::net::IpAddr;

use hyper::Uri;

/// A webhook URL that passed the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WebhookUrl(Uri);

impl WebhookUrl {
    /// `text` as a webhook URL, or what is wrong with it.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let url: Uri = text.parse().map_err(|error| {
            format!("is not a URL ({error}), e.g. https://hooks.example.com/in")
        })?;
        let (Some(scheme), Some(authority)) = (url.scheme_str(), url.authority()) else {
            return Err("is not an absolute URL, e.g. https://hooks.example.com/in".into());
        };
        if authority.as_str().contains('@') {
            return Err("must not hold a user or password: the signature authenticates".into());
        }
        let host = authority.host();
        match scheme {
            "https" => Ok(Self(url)),
            "http" if is_loopback(host) => Ok(Self(url)),
            "http" => Err(format!(
                "is http:// to {host}, which is not a loopback address: use https:// (plain \
                 http is accepted only for localhost, 127.0.0.1 or ::1)"
            )),
            other => Err(format!(
                "is {other}://; a webhook is https:// (or http:// on loopback)"
            )),
        }
    }

    /// The URL.
    pub(crate) fn uri(&self) -> &Uri {
        &self.0
    }
}

/// Whether `host` names this machine: `localhost` or a loopback address.
fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_and_http_only_on_loopback() {
        for ok in [
            "https://hooks.example.com/x",
            "http://localhost:9000/hook",
            "http://127.0.0.1:1/",
            "http://127.8.0.1/",
            "http://[::1]:8080/in",
        ] {
            assert!(WebhookUrl::parse(ok).is_ok(), "{ok}");
        }
        for (bad, says) in [
            (
                "http://hooks.example.com/x",
                "not a loopback address: use https://",
            ),
            ("http://10.0.0.1/x", "not a loopback address"),
            ("ftp://localhost/x", "is ftp://"),
            ("localhost:9000", "is not an absolute URL"),
            ("not a url", "is not a URL"),
            ("https://user:pw@example.com/", "must not hold a user"),
        ] {
            let error = WebhookUrl::parse(bad).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }
}
