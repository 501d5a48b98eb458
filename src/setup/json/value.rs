// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The values `setup` writes into JSON files: members in the order the
//! agents' docs show them (serde_json's map would sort them), printed in
//! the style of the file they go into.

use std::fmt::Write as _;

/// A JSON value with its members in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    /// An object.
    Object(Vec<(String, Json)>),
    /// An array.
    Array(Vec<Json>),
    /// A string.
    String(String),
    /// A whole number.
    Number(i64),
}

/// How a file lays out its values: the indentation of one level and the
/// line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Style {
    /// One level, e.g. two spaces or a tab.
    pub(crate) unit: String,
    /// `\n` or `\r\n`.
    pub(crate) newline: &'static str,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            unit: "  ".into(),
            newline: "\n",
        }
    }
}

impl Json {
    /// An object of `members`.
    pub(crate) fn object<const N: usize>(members: [(&str, Json); N]) -> Self {
        Self::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        )
    }

    /// A string.
    pub(crate) fn string(text: impl Into<String>) -> Self {
        Self::String(text.into())
    }

    /// An array of strings.
    pub(crate) fn strings<S: AsRef<str>>(items: &[S]) -> Self {
        Self::Array(items.iter().map(|s| Self::string(s.as_ref())).collect())
    }

    /// The same value in serde_json's terms, to compare with what a file
    /// holds whatever its layout.
    pub(crate) fn to_serde(&self) -> serde_json::Value {
        match self {
            Self::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_serde()))
                    .collect(),
            ),
            Self::Array(items) => {
                serde_json::Value::Array(items.iter().map(Self::to_serde).collect())
            }
            Self::String(text) => serde_json::Value::String(text.clone()),
            Self::Number(n) => serde_json::Value::from(*n),
        }
    }

    /// The value printed over several lines, its first line where the
    /// caller puts it and the others at `indent` (the indentation of the
    /// line it starts on). Arrays of scalars stay on one line.
    pub(crate) fn pretty(&self, indent: &str, style: &Style) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, indent, style);
        out
    }

    fn write_pretty(&self, out: &mut String, indent: &str, style: &Style) {
        let inner = format!("{indent}{}", style.unit);
        match self {
            Self::Object(members) if !members.is_empty() => {
                out.push('{');
                for (n, (key, value)) in members.iter().enumerate() {
                    out.push_str(style.newline);
                    out.push_str(&inner);
                    out.push_str(&quote(key));
                    out.push_str(": ");
                    value.write_pretty(out, &inner, style);
                    if n + 1 < members.len() {
                        out.push(',');
                    }
                }
                out.push_str(style.newline);
                out.push_str(indent);
                out.push('}');
            }
            Self::Array(items)
                if items
                    .iter()
                    .any(|i| matches!(i, Self::Object(_) | Self::Array(_))) =>
            {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    out.push_str(style.newline);
                    out.push_str(&inner);
                    item.write_pretty(out, &inner, style);
                    if n + 1 < items.len() {
                        out.push(',');
                    }
                }
                out.push_str(style.newline);
                out.push_str(indent);
                out.push(']');
            }
            _ => out.push_str(&self.inline()),
        }
    }

    /// The value on one line, `{"a": 1, "b": [2]}`.
    pub(crate) fn inline(&self) -> String {
        let mut out = String::new();
        match self {
            Self::Object(members) => {
                out.push('{');
                for (n, (key, value)) in members.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{}: {}", quote(key), value.inline());
                }
                out.push('}');
            }
            Self::Array(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&item.inline());
                }
                out.push(']');
            }
            Self::String(text) => out.push_str(&quote(text)),
            Self::Number(n) => {
                let _ = write!(out, "{n}");
            }
        }
        out
    }
}

/// `text` as a JSON string.
pub(crate) fn quote(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Json {
        Json::object([
            ("command", Json::string("planning-mcp-server")),
            ("args", Json::strings(&["--storage", "file"])),
            (
                "hooks",
                Json::Array(vec![Json::object([("timeout", Json::Number(10))])]),
            ),
        ])
    }

    #[test]
    fn printed_in_order_over_lines_in_the_files_style() {
        let printed = sample().pretty("  ", &Style::default());
        assert_eq!(
            printed,
            "{\n    \"command\": \"planning-mcp-server\",\n    \"args\": [\"--storage\", \"file\"],\n    \"hooks\": [\n      {\n        \"timeout\": 10\n      }\n    ]\n  }"
        );
        let tabs = Style {
            unit: "\t".into(),
            newline: "\r\n",
        };
        let printed = Json::object([("a", Json::Number(1))]).pretty("", &tabs);
        assert_eq!(printed, "{\r\n\t\"a\": 1\r\n}");
    }

    #[test]
    fn printed_on_one_line_and_compared_as_data() {
        assert_eq!(
            sample().inline(),
            r#"{"command": "planning-mcp-server", "args": ["--storage", "file"], "hooks": [{"timeout": 10}]}"#
        );
        let parsed: serde_json::Value =
            serde_json::from_str(&sample().pretty("", &Style::default())).unwrap();
        assert_eq!(parsed, sample().to_serde());
        assert_eq!(quote("a\"\n"), r#""a\"\n""#);
    }
}
