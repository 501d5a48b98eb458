// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Codex's `config.toml`, edited with `toml_edit`, which keeps every
//! comment, blank line and key order it does not touch. A server is the
//! table `[mcp_servers.NAME]`, added at the end of the file after a blank
//! line; removing it takes out the same bytes.

use toml_edit::{Array, DocumentMut, Item, Table, Value};

use super::json::{Json, Misfit};

/// The table that holds the servers.
const SERVERS: &str = "mcp_servers";

/// A TOML file being edited.
#[derive(Debug, Clone)]
pub(crate) struct TomlDocument {
    doc: DocumentMut,
    /// The file starts with a byte-order mark, which it keeps.
    bom: bool,
    /// Its lines end with CRLF, and so do those added.
    crlf: bool,
}

impl TomlDocument {
    /// `text` read as TOML; the error says where it is wrong.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let crlf = text.contains("\r\n");
        text.parse::<DocumentMut>()
            .map(|doc| Self { doc, bom, crlf })
            .map_err(|error| {
                let line = error
                    .span()
                    .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
                let message = error.message().trim_end().to_owned();
                match line {
                    Some(line) => format!("line {line}: {message}"),
                    None => message,
                }
            })
    }

    /// The text as it is now: with the byte-order mark and the line
    /// endings the file had (`toml_edit` writes LF, and no mark).
    pub(crate) fn text(&self) -> String {
        let text = self.doc.to_string();
        let mut out = String::with_capacity(text.len() + 3);
        if self.bom {
            out.push('\u{feff}');
        }
        match self.crlf {
            true => {
                let mut previous = '\0';
                for c in text.chars() {
                    if c == '\n' && previous != '\r' {
                        out.push('\r');
                    }
                    out.push(c);
                    previous = c;
                }
            }
            false => out.push_str(&text),
        }
        out
    }

    /// Server `name` as data (its keys and values), if there is one.
    pub(crate) fn server(&self, name: &str) -> Option<serde_json::Value> {
        let table = self.doc.get(SERVERS)?.as_table_like()?.get(name)?;
        Some(data(table))
    }

    /// Sets server `name` to `entry` (an object of strings and arrays of
    /// strings). Returns whether the text changed.
    pub(crate) fn set_server(&mut self, name: &str, entry: &Json) -> Result<bool, Misfit> {
        if self.server(name) == Some(entry.to_serde()) {
            return Ok(false);
        }
        let non_empty = !self.doc.to_string().trim().is_empty();
        let servers = self
            .doc
            .entry(SERVERS)
            .or_insert_with(|| {
                let mut table = Table::new();
                table.set_implicit(true);
                Item::Table(table)
            })
            .as_table_mut()
            .ok_or_else(|| Misfit(format!("{SERVERS} is not a table")))?;
        let mut table = Table::new();
        if let Json::Object(members) = entry {
            for (key, value) in members {
                table.insert(key, Item::Value(to_toml(value)));
            }
        }
        match servers.get_mut(name) {
            Some(Item::Table(old)) => {
                // In place: its header, position and comments stay.
                old.clear();
                for (key, item) in table.iter() {
                    old.insert(key, item.clone());
                }
            }
            Some(_) => return Err(Misfit(format!("{SERVERS}.{name} is not a table"))),
            None => {
                if non_empty {
                    table.decor_mut().set_prefix("\n");
                }
                servers.insert(name, Item::Table(table));
            }
        }
        Ok(true)
    }

    /// Removes server `name`, and the `[mcp_servers]` table if it was only
    /// implied by it. Returns whether it was there.
    pub(crate) fn remove_server(&mut self, name: &str) -> bool {
        let Some(servers) = self.doc.get_mut(SERVERS).and_then(Item::as_table_mut) else {
            return false;
        };
        let removed = servers.remove(name).is_some();
        if removed && servers.is_empty() && servers.is_implicit() {
            self.doc.remove(SERVERS);
        }
        removed
    }
}

/// A string, or an array of strings, as a TOML value.
fn to_toml(value: &Json) -> Value {
    match value {
        Json::Array(items) => {
            let mut array = Array::new();
            for item in items {
                array.push(to_toml(item));
            }
            Value::Array(array)
        }
        Json::String(text) => Value::from(text.as_str()),
        Json::Number(n) => Value::from(*n),
        Json::Object(members) => {
            let mut table = toml_edit::InlineTable::new();
            for (key, value) in members {
                table.insert(key, to_toml(value));
            }
            Value::InlineTable(table)
        }
    }
}

/// A TOML item as data, to compare with what `setup` would write.
fn data(item: &Item) -> serde_json::Value {
    match item {
        Item::Value(value) => value_data(value),
        Item::Table(table) => table_data(table.iter()),
        Item::ArrayOfTables(tables) => {
            serde_json::Value::Array(tables.iter().map(|t| table_data(t.iter())).collect())
        }
        Item::None => serde_json::Value::Null,
    }
}

fn table_data<'a>(items: impl Iterator<Item = (&'a str, &'a Item)>) -> serde_json::Value {
    serde_json::Value::Object(items.map(|(k, v)| (k.to_owned(), data(v))).collect())
}

fn value_data(value: &Value) -> serde_json::Value {
    match value {
        Value::String(s) => serde_json::Value::String(s.value().clone()),
        Value::Integer(n) => serde_json::Value::from(*n.value()),
        Value::Float(f) => serde_json::Value::from(*f.value()),
        Value::Boolean(b) => serde_json::Value::Bool(*b.value()),
        Value::Datetime(d) => serde_json::Value::String(d.value().to_string()),
        Value::Array(items) => serde_json::Value::Array(items.iter().map(value_data).collect()),
        Value::InlineTable(table) => serde_json::Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_owned(), value_data(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Json {
        Json::object([
            ("command", Json::string("planning-mcp-server")),
            ("args", Json::strings(&["--storage", "file"])),
        ])
    }

    fn round_trip(original: &str, expected: &str) {
        let mut doc = TomlDocument::parse(original).unwrap();
        assert!(doc.set_server("planning", &entry()).unwrap());
        assert_eq!(doc.text(), expected);
        let mut again = TomlDocument::parse(&doc.text()).unwrap();
        assert!(!again.set_server("planning", &entry()).unwrap(), "twice");
        assert!(again.remove_server("planning"));
        assert_eq!(again.text(), original);
    }

    #[test]
    fn into_an_empty_file() {
        round_trip(
            "",
            "[mcp_servers.planning]\ncommand = \"planning-mcp-server\"\nargs = [\"--storage\", \"file\"]\n",
        );
    }

    #[test]
    fn after_other_settings_and_servers_with_their_comments() {
        round_trip(
            "# mine\nmodel = \"o3\"\n\n[mcp_servers.docs]   # docs\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n",
            "# mine\nmodel = \"o3\"\n\n[mcp_servers.docs]   # docs\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n\n[mcp_servers.planning]\ncommand = \"planning-mcp-server\"\nargs = [\"--storage\", \"file\"]\n",
        );
    }

    #[test]
    fn line_endings_and_a_byte_order_mark_are_kept() {
        round_trip(
            "# mine\r\nmodel = \"o3\"\r\n",
            "# mine\r\nmodel = \"o3\"\r\n\r\n[mcp_servers.planning]\r\ncommand = \"planning-mcp-server\"\r\nargs = [\"--storage\", \"file\"]\r\n",
        );
        round_trip(
            "\u{feff}model = \"o3\"\n",
            "\u{feff}model = \"o3\"\n\n[mcp_servers.planning]\ncommand = \"planning-mcp-server\"\nargs = [\"--storage\", \"file\"]\n",
        );
        round_trip(
            "\u{feff}[mcp_servers.docs]\r\ncommand = \"npx\"\r\n",
            "\u{feff}[mcp_servers.docs]\r\ncommand = \"npx\"\r\n\r\n[mcp_servers.planning]\r\ncommand = \"planning-mcp-server\"\r\nargs = [\"--storage\", \"file\"]\r\n",
        );
    }

    #[test]
    fn a_changed_server_is_rewritten_in_place() {
        let mut doc = TomlDocument::parse(
            "[mcp_servers.planning] # ours\ncommand = \"old\"\n\n[other]\nx = 1\n",
        )
        .unwrap();
        assert!(doc.set_server("planning", &entry()).unwrap());
        assert_eq!(
            doc.text(),
            "[mcp_servers.planning] # ours\ncommand = \"planning-mcp-server\"\nargs = [\"--storage\", \"file\"]\n\n[other]\nx = 1\n"
        );
    }

    #[test]
    fn bad_toml_and_misfits_say_what_and_where() {
        let error = TomlDocument::parse("a = 1\n[b\n").unwrap_err();
        assert!(error.starts_with("line 2: "), "{error}");
        let mut doc = TomlDocument::parse("mcp_servers = 3\n").unwrap();
        assert_eq!(
            doc.set_server("planning", &entry()).unwrap_err().0,
            "mcp_servers is not a table"
        );
        assert_eq!(doc.text(), "mcp_servers = 3\n");
    }
}
