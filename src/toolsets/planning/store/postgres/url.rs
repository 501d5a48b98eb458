// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `storage.url`: a libpq connection string, as a URL
//! (`postgres://user:pass@host:port/db?sslmode=require`) or as key=value
//! pairs (`host=/run/postgresql dbname=planning`), a Unix socket directory
//! as the host. tokio-postgres parses it, except for the TLS keys it does
//! not know in libpq's full sense: `sslmode` (libpq's six modes;
//! tokio-postgres has three), `sslrootcert` (the certificates that
//! authenticate the server) and `sslcert`/`sslkey` (this client's
//! certificate), which are taken out first.
//!
//! The password must never reach a log line, an error or a reply: only
//! [`ConnectionString::display`] (user, hosts, port, database, no password)
//! is ever shown, and no error quotes the string.

use std::path::PathBuf;
use std::str::FromStr;

use tokio_postgres::config::{Host, SslMode};

/// How TLS is used, as libpq's `sslmode` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TlsMode {
    /// Never.
    Disable,
    /// Plain first, TLS if the server insists (libpq's `allow`; here: like
    /// `prefer`, whose attempt comes first, the one difference).
    Allow,
    /// TLS if the server offers it, else plain; the certificate is not
    /// checked (libpq's default).
    Prefer,
    /// TLS or nothing; the certificate is checked only against an
    /// `sslrootcert` that is given (then as `verify-ca`), as libpq does.
    Require,
    /// TLS, and the server's certificate chains to `sslrootcert`.
    VerifyCa,
    /// `VerifyCa`, and the certificate names the host connected to.
    VerifyFull,
}

impl TlsMode {
    fn parse(text: &str) -> Result<Self, String> {
        Ok(match text {
            "disable" => Self::Disable,
            "allow" => Self::Allow,
            "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            _ => {
                return Err(
                    "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full"
                        .into(),
                );
            }
        })
    }

    /// The mode tokio-postgres negotiates with: whether TLS is tried, and
    /// whether it is required.
    fn negotiated(self) -> SslMode {
        match self {
            Self::Disable => SslMode::Disable,
            Self::Allow | Self::Prefer => SslMode::Prefer,
            Self::Require | Self::VerifyCa | Self::VerifyFull => SslMode::Require,
        }
    }
}

/// A parsed `storage.url`.
#[derive(Clone)]
pub(crate) struct ConnectionString {
    /// What tokio-postgres connects with (holds the password).
    pub config: tokio_postgres::Config,
    /// How TLS is used.
    pub tls: TlsMode,
    /// The certificates that authenticate the server (`sslrootcert`).
    pub root_cert: Option<PathBuf>,
    /// This client's certificate chain and private key (`sslcert` and
    /// `sslkey`, PEM), for a server that authenticates clients by
    /// certificate; both or neither.
    pub client_cert: Option<ClientCert>,
}

/// The PEM files of a client certificate (`sslcert`, `sslkey`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClientCert {
    /// The certificate chain, this client's first.
    pub cert: PathBuf,
    /// Its private key.
    pub key: PathBuf,
}

/// The TLS keys of a connection string, which tokio-postgres does not take.
#[derive(Debug, Default)]
struct TlsKeys {
    mode: Option<TlsMode>,
    root: Option<PathBuf>,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
}

impl std::fmt::Debug for ConnectionString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ConnectionString({})", self.display())
    }
}

impl ConnectionString {
    /// Parses a connection string; the error never quotes it.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let (rest, keys) = take_tls_keys(text.trim())?;
        let (tls, root_cert) = (keys.mode, keys.root);
        let client_cert = match (keys.cert, keys.key) {
            (Some(cert), Some(key)) => Some(ClientCert { cert, key }),
            (None, None) => None,
            _ => {
                return Err(
                    "sslcert and sslkey go together: the client's certificate and its private key"
                        .into(),
                );
            }
        };
        let mut config = tokio_postgres::Config::from_str(&rest).map_err(|error| {
            format!(
                "is not a PostgreSQL connection string ({error}); write postgres://USER:PASSWORD@HOST:PORT/DATABASE or host=... dbname=..."
            )
        })?;
        if config.get_hosts().is_empty() {
            return Err("names no host: write postgres://USER@HOST/DATABASE, or host=/run/postgresql for a Unix socket".into());
        }
        let tls = tls.unwrap_or(TlsMode::Prefer);
        let needs_roots = matches!(tls, TlsMode::VerifyCa | TlsMode::VerifyFull);
        if needs_roots && root_cert.is_none() {
            return Err("sslmode=verify-ca and verify-full need sslrootcert=FILE, the PEM certificates that sign the server's".into());
        }
        if client_cert.is_some() && tls == TlsMode::Disable {
            return Err("sslcert and sslkey need TLS: sslmode=disable sends no certificate".into());
        }
        config.ssl_mode(tls.negotiated());
        if config.get_application_name().is_none() {
            config.application_name("planning-mcp-server");
        }
        Ok(Self {
            config,
            tls,
            root_cert,
            client_cert,
        })
    }

    /// The database as logs and messages show it:
    /// `postgres://user@host:port/db`, never the password.
    pub(crate) fn display(&self) -> String {
        let config = &self.config;
        let user = config
            .get_user()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let ports = config.get_ports();
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .enumerate()
            .map(|(n, host)| {
                let host = match host {
                    Host::Tcp(name) => name.clone(),
                    Host::Unix(dir) => dir.display().to_string(),
                };
                match ports.get(n).or(ports.first()) {
                    Some(port) => format!("{host}:{port}"),
                    None => host,
                }
            })
            .collect();
        let db = config.get_dbname().unwrap_or("");
        format!("postgres://{user}{}/{db}", hosts.join(","))
    }
}

/// Takes `sslmode`, `sslrootcert`, `sslcert` and `sslkey` out of a URL's
/// query or a key=value string, returning the rest for tokio-postgres.
fn take_tls_keys(text: &str) -> Result<(String, TlsKeys), String> {
    let mut keys = TlsKeys::default();
    let mut take = |key: &str, value: &str| -> Result<bool, String> {
        match key {
            "sslmode" => keys.mode = Some(TlsMode::parse(value)?),
            "sslrootcert" => keys.root = Some(PathBuf::from(value)),
            "sslcert" => keys.cert = Some(PathBuf::from(value)),
            "sslkey" => keys.key = Some(PathBuf::from(value)),
            _ => return Ok(false),
        }
        Ok(true)
    };
    let is_url = text.starts_with("postgres://") || text.starts_with("postgresql://");
    let rest = if is_url {
        match text.split_once('?') {
            None => text.to_owned(),
            Some((base, query)) => {
                let mut kept = Vec::new();
                for pair in query.split('&').filter(|p| !p.is_empty()) {
                    let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                    if !take(key, &percent_decode(value))? {
                        kept.push(pair);
                    }
                }
                match kept.is_empty() {
                    true => base.to_owned(),
                    false => format!("{base}?{}", kept.join("&")),
                }
            }
        }
    } else {
        let mut kept = Vec::new();
        for word in text.split_whitespace() {
            let taken = match word.split_once('=') {
                Some((key, value)) => take(key.trim(), value.trim_matches('\''))?,
                None => false,
            };
            if !taken {
                kept.push(word);
            }
        }
        kept.join(" ")
    };
    Ok((rest, keys))
}

/// Decodes `%XX` escapes (a path in a URL's query, e.g. `%2Fetc%2Fca.pem`).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_key_values_parse_and_show_no_password() {
        let url = ConnectionString::parse(
            "postgres://planner:s3cret-pw@db.example:6543/boards?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=3",
        )
        .unwrap();
        assert_eq!(url.tls, TlsMode::VerifyFull);
        assert_eq!(url.root_cert, Some(PathBuf::from("/etc/ca.pem")));
        assert_eq!(url.client_cert, None);
        let client = ConnectionString::parse(
            "host=db.example user=planner sslmode=verify-full sslrootcert=/ca.pem sslcert=/c.pem sslkey='/k.pem'",
        )
        .unwrap();
        assert_eq!(
            client.client_cert,
            Some(ClientCert {
                cert: PathBuf::from("/c.pem"),
                key: PathBuf::from("/k.pem"),
            })
        );
        assert_eq!(url.config.get_ssl_mode(), SslMode::Require);
        assert_eq!(url.config.get_password(), Some(&b"s3cret-pw"[..]));
        assert_eq!(url.display(), "postgres://planner@db.example:6543/boards");
        assert!(!format!("{url:?}").contains("s3cret"));

        let socket =
            ConnectionString::parse("host=/run/postgresql dbname=planning sslmode=disable")
                .unwrap();
        assert_eq!(socket.tls, TlsMode::Disable);
        assert_eq!(socket.display(), "postgres:///run/postgresql/planning");
        let plain = ConnectionString::parse("postgresql://localhost/planning").unwrap();
        assert_eq!(plain.tls, TlsMode::Prefer);
        assert_eq!(
            plain.config.get_application_name(),
            Some("planning-mcp-server")
        );
    }

    #[test]
    fn bad_strings_are_refused_without_being_quoted() {
        for (text, expected) in [
            (
                "postgres://u:hunter2@h/db?sslmode=maybe",
                "sslmode must be one of",
            ),
            (
                "postgres://u:hunter2@h/db?sslmode=verify-full",
                "need sslrootcert",
            ),
            (
                "postgres://u:hunter2@h/db?colour=blue",
                "is not a PostgreSQL connection string",
            ),
            (
                "postgres://u:hunter2@h:port/db",
                "is not a PostgreSQL connection string",
            ),
            ("dbname=x password=hunter2", "names no host"),
            (
                "postgres://u:hunter2@h/db?sslcert=%2Fc.pem",
                "sslcert and sslkey go together",
            ),
            (
                "host=h password=hunter2 sslkey=/k.pem",
                "sslcert and sslkey go together",
            ),
            (
                "postgres://u:hunter2@h/db?sslmode=disable&sslcert=c&sslkey=k",
                "sslcert and sslkey need TLS",
            ),
            ("hunter2", "is not a PostgreSQL connection string"),
        ] {
            let error = ConnectionString::parse(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
            assert!(!error.contains("hunter2"), "{text}: {error}");
        }
    }
}
