// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A JSON reader that keeps where every value is in the text, so that an
//! edit can change a few bytes and leave the rest of the file as it was
//! (its indentation, its order, its comments). With `comments` on it reads
//! JSONC as VS Code and Gemini CLI do: `//` and `/* */` comments, and a
//! comma after the last member of an object or array.

/// The deepest nesting read: far beyond any agent's config, and a bound on
/// the recursion.
const MAX_DEPTH: usize = 128;

/// A value and where it is: `text[start..end]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    /// Its first byte.
    pub(crate) start: usize,
    /// One past its last byte.
    pub(crate) end: usize,
    /// What it is.
    pub(crate) kind: Kind,
}

/// What a value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An object and its members, in order.
    Object(Vec<Item>),
    /// An array and its elements, in order.
    Array(Vec<Item>),
    /// A string.
    String,
    /// A number, `true`, `false` or `null`.
    Other,
}

/// A member of an object (with its key) or an element of an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// Where it starts: its key's opening quote, or its value.
    pub(crate) start: usize,
    /// Its key, decoded; `None` in an array.
    pub(crate) key: Option<String>,
    /// Its value.
    pub(crate) value: Node,
}

impl Node {
    /// Its members or elements, if it is an object or an array.
    pub(crate) fn items(&self) -> Option<&[Item]> {
        match &self.kind {
            Kind::Object(items) | Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The member `key` of this object.
    pub(crate) fn member(&self, key: &str) -> Option<&Item> {
        match &self.kind {
            Kind::Object(items) => items.iter().find(|i| i.key.as_deref() == Some(key)),
            _ => None,
        }
    }

    /// Whether it is an object.
    pub(crate) fn is_object(&self) -> bool {
        matches!(self.kind, Kind::Object(_))
    }

    /// What it is, in a word, for messages.
    pub(crate) fn what(&self) -> &'static str {
        match self.kind {
            Kind::Object(_) => "an object",
            Kind::Array(_) => "an array",
            Kind::String => "a string",
            Kind::Other => "a number, true, false or null",
        }
    }
}

/// Why a text is not JSON: what and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// What was wrong.
    pub(crate) what: String,
    /// Its line.
    pub(crate) line: usize,
    /// Its column, in characters.
    pub(crate) column: usize,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.what
        )
    }
}

/// Reads `text` (after a byte-order mark, if any): one value, then nothing
/// but blanks (and comments, with `comments`).
pub(crate) fn parse(text: &str, comments: bool) -> Result<Node, ParseError> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: start,
        comments,
    };
    parser.blank()?;
    let node = parser.value(0)?;
    parser.blank()?;
    if parser.at < parser.bytes.len() {
        return Err(parser.error("more text after the value"));
    }
    Ok(node)
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    comments: bool,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> ParseError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        ParseError {
            what: what.to_owned(),
            line,
            column: before[line_start..].chars().count() + 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips blanks, and comments when they are allowed.
    fn blank(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if self.comments => match self.bytes.get(self.at + 1) {
                    Some(b'/') => {
                        let rest = &self.bytes[self.at..];
                        self.at += rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
                    }
                    Some(b'*') => {
                        let rest = &self.text[self.at + 2..];
                        match rest.find("*/") {
                            Some(n) => self.at += 2 + n + 2,
                            None => return Err(self.error("a comment that never ends")),
                        }
                    }
                    _ => return Err(self.error("unexpected '/'")),
                },
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let start = self.at;
        let kind = match self.peek() {
            Some(b'{') => Kind::Object(self.items(b'}', true, depth)?),
            Some(b'[') => Kind::Array(self.items(b']', false, depth)?),
            Some(b'"') => {
                self.string()?;
                Kind::String
            }
            Some(b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
                self.scalar()?;
                Kind::Other
            }
            Some(_) => return Err(self.error("expected a value")),
            None => return Err(self.error("the text ends where a value should be")),
        };
        Ok(Node {
            start,
            end: self.at,
            kind,
        })
    }

    /// The members (`keyed`) or elements of the object or array at the
    /// cursor, up to its `close`.
    fn items(&mut self, close: u8, keyed: bool, depth: usize) -> Result<Vec<Item>, ParseError> {
        self.at += 1;
        let mut items = Vec::new();
        let mut seen = std::collections::HashSet::new();
        loop {
            self.blank()?;
            if self.peek() == Some(close) && (items.is_empty() || self.comments) {
                self.at += 1;
                return Ok(items);
            }
            let start = self.at;
            let key = match keyed {
                true => {
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a member name in double quotes"));
                    }
                    let key = self.string()?;
                    // Agents read the last of two members of one name, an
                    // editor would change the first: neither is safe.
                    if !seen.insert(key.clone()) {
                        self.at = start;
                        return Err(self.error(&format!(
                            "the member name \"{}\" appears twice in one object (agents read \
                             the last): keep one of them",
                            crate::runtime::text::escaped(&key)
                        )));
                    }
                    self.blank()?;
                    if self.peek() != Some(b':') {
                        return Err(self.error("expected ':' after the member name"));
                    }
                    self.at += 1;
                    self.blank()?;
                    Some(key)
                }
                false => None,
            };
            let value = self.value(depth + 1)?;
            items.push(Item { start, key, value });
            self.blank()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(items);
                }
                _ => {
                    let what = match close {
                        b'}' => "expected ',' or '}'",
                        _ => "expected ',' or ']'",
                    };
                    return Err(self.error(what));
                }
            }
        }
    }

    /// The string at the cursor, decoded.
    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek() {
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(c) if c < 0x20 => {
                    return Err(self.error("a control character inside a string"));
                }
                Some(_) => self.at += 1,
                None => return Err(self.error("a string that never ends")),
            }
        }
        self.at += 1;
        let raw = self.text.get(start..self.at).unwrap_or("");
        serde_json::from_str(raw).map_err(|_| {
            self.at = start;
            self.error("a string with a bad escape")
        })
    }

    /// A number, `true`, `false` or `null`, checked by serde_json.
    fn scalar(&mut self) -> Result<(), ParseError> {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.') {
                self.at += 1;
            } else {
                break;
            }
        }
        let raw = self.text.get(start..self.at).unwrap_or("");
        match serde_json::from_str::<serde_json::Value>(raw) {
            Ok(_) => Ok(()),
            Err(_) => {
                self.at = start;
                Err(self.error(&format!(
                    "'{}' is not a value",
                    crate::runtime::text::clip(raw)
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_know_where_they_are() {
        let text = "{\n  \"a\": [1, \"x\"],\n  \"b\": {}\n}\n";
        let root = parse(text, false).unwrap();
        assert_eq!((root.start, root.end), (0, text.len() - 1));
        let a = root.member("a").unwrap();
        assert_eq!(&text[a.start..a.value.end], "\"a\": [1, \"x\"]");
        let items = a.value.items().unwrap();
        assert_eq!(&text[items[1].value.start..items[1].value.end], "\"x\"");
        assert!(root.member("b").unwrap().value.is_object());
        assert!(root.member("c").is_none());
    }

    #[test]
    fn keys_are_decoded() {
        let root = parse(r#"{"a\u0062": 1}"#, false).unwrap();
        assert!(root.member("ab").is_some());
    }

    #[test]
    fn comments_and_trailing_commas_only_in_jsonc() {
        let text = "// servers\n{ /* x */ \"a\": [1,], }\n";
        assert!(parse(text, true).is_ok());
        let error = parse(text, false).unwrap_err();
        assert_eq!(error.to_string(), "line 1, column 1: expected a value");
        let error = parse("{\"a\": [1,]}", false).unwrap_err();
        assert_eq!(error.to_string(), "line 1, column 10: expected a value");
    }

    #[test]
    fn errors_say_where() {
        let cases = [
            (
                "{\"a\": 1,\n \"b\" 2}",
                "line 2, column 6: expected ':' after the member name",
            ),
            ("{\"a\": 1", "line 1, column 8: expected ',' or '}'"),
            (
                "",
                "line 1, column 1: the text ends where a value should be",
            ),
            ("{} x", "line 1, column 4: more text after the value"),
            ("{\"a\": tru}", "line 1, column 7: 'tru' is not a value"),
            (
                "{\"a\": \"\\q\"}",
                "line 1, column 7: a string with a bad escape",
            ),
            (
                "{\"a\": \"x\ny\"}",
                "line 1, column 9: a control character inside a string",
            ),
            ("/* x", "line 1, column 1: a comment that never ends"),
            (
                "{\"a\": {\"b\": 1},\n \"x\": 2, \"a\": {}}",
                "line 2, column 10: the member name \"a\" appears twice in one object (agents \
                 read the last): keep one of them",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse(text, true).unwrap_err().to_string(),
                expected,
                "{text}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let text = "[".repeat(100_000);
        assert!(parse(&text, false).unwrap_err().what.contains("too deeply"));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let root = parse("\u{feff}{}", false).unwrap();
        assert_eq!(root.start, 3);
    }
}
