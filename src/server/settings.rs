// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a toolset sees of the configuration: its tables, read from the
//! merged tiers (defaults < file < `PLANNING_*` env < flags), and a way to
//! say what is wrong with a value, naming the key and where it came from.
//! A toolset's flags are declared as [`Flag`]s: each sets one key.

use std::sync::Arc;
use std::time::Duration;

use figment::{Figment, Metadata, Source};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::toolset::Toolset;

/// The name of the figment provider that holds the flags, so that errors
/// can name the flag.
pub(crate) const FLAGS_PROVIDER: &str = "command-line flags";

/// A command-line flag that sets one config key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Flag {
    /// The flag without its dashes, e.g. `plans-root`.
    pub(crate) long: &'static str,
    /// The key it sets, `table.key`, e.g. `plans.root`.
    pub(crate) key: &'static str,
    /// The value's placeholder in `--help`, e.g. `PATH`.
    pub(crate) value_name: &'static str,
    /// One line for `--help`; the key is added to it.
    pub(crate) help: &'static str,
    /// What the value is.
    pub(crate) kind: FlagKind,
}

/// What a flag's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlagKind {
    /// Any text (a name, a path).
    Text,
    /// A whole number; the key's own type checks its range.
    Number,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A comma-separated list.
    List,
}

/// A toolset's or the server's view of the configuration while it loads.
#[derive(Clone, Copy)]
pub(crate) struct Settings<'a> {
    figment: &'a Figment,
    flags: &'a [&'static Flag],
    max_boards: usize,
    configured: &'a [Arc<dyn Toolset>],
    lock_timeout: Duration,
    offered: &'a [String],
}

impl<'a> Settings<'a> {
    /// The tiers merged in `figment`, set by `flags` where given, with the
    /// server's cap on open boards.
    pub(crate) fn new(figment: &'a Figment, flags: &'a [&'static Flag], max_boards: usize) -> Self {
        Self {
            figment,
            flags,
            max_boards,
            configured: &[],
            lock_timeout: Duration::from_secs(10),
            offered: &[],
        }
    }

    /// The same, with the toolsets `[server] toolsets` offers (whether or
    /// not they are configured yet), for defaults that depend on them.
    pub(crate) fn with_offered(self, offered: &'a [String]) -> Self {
        Self { offered, ..self }
    }

    /// Whether `[server] toolsets` offers toolset `name`.
    pub(crate) fn offers(&self, name: &str) -> bool {
        self.offered.iter().any(|offered| offered == name)
    }

    /// These settings, with the toolsets configured so far (earlier in
    /// the registry), for toolsets that require them.
    pub(crate) fn with_configured(self, configured: &'a [Arc<dyn Toolset>]) -> Self {
        Self { configured, ..self }
    }

    /// The configured toolset whose state is a `T`, if it was configured
    /// before this one (see `ToolsetKind::requires`).
    pub(crate) fn configured<T: 'static>(&self) -> Option<&'a T> {
        self.configured
            .iter()
            .find_map(|toolset| toolset.as_any().downcast_ref::<T>())
    }

    /// The same, with `[server] lock_timeout`.
    pub(crate) fn with_lock_timeout(self, lock_timeout: Duration) -> Self {
        Self {
            lock_timeout,
            ..self
        }
    }

    /// `[server] lock_timeout`: the longest a call waits for a file lock
    /// that another process holds, for the toolsets that lock files.
    pub(crate) fn lock_timeout(&self) -> Duration {
        self.lock_timeout
    }

    /// `[server] max_boards`: the most boards one server holds, for the
    /// toolsets that keep boards.
    pub(crate) fn max_boards(&self) -> usize {
        self.max_boards
    }

    /// Table `name` as `T` (a missing table is `T`'s defaults), or one
    /// line per wrong value.
    pub(crate) fn table<T: DeserializeOwned>(&self, name: &str) -> Result<T, Vec<String>> {
        self.figment.focus(name).extract().map_err(|errors| {
            errors
                .into_iter()
                .map(|e| self.describe(name, &e))
                .collect()
        })
    }

    /// The line that says `key`'s value is wrong: `key (from SOURCE): what`.
    pub(crate) fn problem(&self, key: &str, what: &str) -> String {
        format!("{key} (from {}): {what}", self.source_of(key))
    }

    /// Adds [`Self::problem`] to `problems` unless `ok`.
    pub(crate) fn require(&self, problems: &mut Vec<String>, ok: bool, key: &str, what: &str) {
        if !ok {
            problems.push(self.problem(key, what));
        }
    }

    /// Where the value of `key` came from.
    fn source_of(&self, key: &str) -> String {
        self.source(key, self.figment.find_metadata(key))
    }

    fn source(&self, key: &str, metadata: Option<&Metadata>) -> String {
        match metadata {
            Some(md) if md.name == FLAGS_PROVIDER => {
                let flag = self.flags.iter().find(|f| f.key == key);
                flag.map_or_else(|| "a flag".into(), |f| format!("the --{} flag", f.long))
            }
            Some(md) => match &md.source {
                Some(Source::File(path)) => format!("the config file {}", path.display()),
                _ if md.name.contains("environment") => format!(
                    "the environment variable PLANNING_{}",
                    key.replace('.', "_").to_ascii_uppercase()
                ),
                _ => md.name.to_string(),
            },
            None => "the built-in defaults".into(),
        }
    }

    /// One line for one extraction error in `table` (`""` for errors
    /// outside any table): the key, where it came from, what is wrong.
    pub(crate) fn describe(&self, table: &str, error: &figment::Error) -> String {
        let key = std::iter::once(table)
            .chain(error.path.iter().map(String::as_str))
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(".");
        let source = self.source(&key, error.metadata.as_ref());
        let what = match &error.kind {
            figment::error::Kind::Message(message) => without_quoted_lines(message),
            kind => kind.to_string(),
        };
        match key.is_empty() {
            true => format!("{source}: {what}"),
            false => format!("{key} (from {source}): {what}"),
        }
    }
}

/// A parser's message without the lines of the file it quotes (`3 | url =
/// "postgres://user:password@..."` and the `|` lines around it): the line
/// may hold a secret, and the message names its line and column already.
/// What is left is joined on one line.
fn without_quoted_lines(message: &str) -> String {
    let quoted = |line: &&str| {
        line.trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
            .starts_with('|')
    };
    let kept: Vec<&str> = message
        .lines()
        .filter(|line| !quoted(line) && !line.trim().is_empty())
        .map(str::trim)
        .collect();
    kept.join(": ")
}

/// Reads a text setting. Environment values are typed by their look, so
/// `PLANNING_SERVER_BOARD=2024` arrives as a number: take it as its text.
pub(crate) fn lenient<'de, D: serde::Deserializer<'de>, T: From<String>>(
    d: D,
) -> Result<T, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_u64<E>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_i64<E>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_f64<E>(self, v: f64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_bool<E>(self, v: bool) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    d.deserialize_any(Text).map(T::from)
}

/// [`lenient`] for an optional setting.
pub(crate) fn lenient_option<'de, D: serde::Deserializer<'de>, T: From<String>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    lenient(d).map(Some)
}

/// Reads a list setting given as a list or, as environment variables give
/// it, as comma-separated text (`planning,plans`).
pub(crate) fn list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Text(String),
        List(Vec<String>),
    }
    Ok(match Either::deserialize(d)? {
        Either::Text(text) => text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        Either::List(list) => list,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_never_quotes_the_line() {
        let text = "[storage]\nurl = \"postgres://u:s3cret@h/db\nbackend = \"postgres\"\n";
        let error = toml::from_str::<toml::Table>(text).unwrap_err().to_string();
        assert!(error.contains("s3cret"), "toml quotes the line: {error}");
        let shown = without_quoted_lines(&error);
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(
            shown.starts_with("TOML parse error at line 2, column "),
            "{shown}"
        );
        assert!(!shown.contains('\n'), "{shown}");
    }
}
