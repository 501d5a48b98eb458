// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Edits of a JSON text that touch only what they change. A member or an
//! element is added after the last one, in the indentation of its
//! neighbours (or one level deeper than its container when it is the
//! first); removing it again takes out exactly the bytes adding it put in,
//! so a file goes back to what it was. Containers that an edit leaves
//! empty can be pruned, which undoes adding them.

use super::parse::{Item, Kind, Node, ParseError, parse};
use super::value::{Json, Style, quote};

/// A JSON (or JSONC) text being edited.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    text: String,
    comments: bool,
    root: Node,
    style: Style,
}

/// Why an edit cannot be made: the file holds something else where the
/// edit goes. The message names the path, e.g. `"mcpServers" is an array`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Misfit(pub(crate) String);

impl Document {
    /// `text`, read as JSON (JSONC with `comments`); its root must be an
    /// object.
    pub(crate) fn parse(text: &str, comments: bool) -> Result<Self, ParseError> {
        let root = parse(text, comments)?;
        if !root.is_object() {
            return Err(ParseError {
                what: format!("the file holds {}, not an object", root.what()),
                line: 1,
                column: 1,
            });
        }
        let style = style_of(text, &root);
        Ok(Self {
            text: text.to_owned(),
            comments,
            root,
            style,
        })
    }

    /// The text as it is now.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Whether the text is an empty object and nothing else (but a final
    /// line ending): what is left of a file `setup` made once its entries
    /// are removed.
    pub(crate) fn is_empty_object(&self) -> bool {
        self.text.trim_end_matches(['\n', '\r']) == "{}"
    }

    /// The value at `path` (object members by key).
    pub(crate) fn get(&self, path: &[&str]) -> Option<&Node> {
        path.iter()
            .try_fold(&self.root, |node, key| node.member(key).map(|i| &i.value))
    }

    /// The value of `node` as data, or `None` if it holds comments.
    pub(crate) fn data(&self, node: &Node) -> Option<serde_json::Value> {
        serde_json::from_str(&self.text[node.start..node.end]).ok()
    }

    /// Sets member `key` of the object at `path` to `value`, making the
    /// objects of `path` that are missing. Returns whether the text changed.
    pub(crate) fn set_member(
        &mut self,
        path: &[&str],
        key: &str,
        value: &Json,
    ) -> Result<bool, Misfit> {
        let (found, container) = self.walk(path)?;
        if found < path.len() {
            let value = nest(&path[found + 1..], key, value.clone());
            self.insert_item(&container, Some(path[found]), &value);
            return Ok(true);
        }
        match container.member(key) {
            Some(item) if self.data(&item.value) == Some(value.to_serde()) => Ok(false),
            Some(item) => {
                let item = item.clone();
                self.replace_value(&item, value);
                Ok(true)
            }
            None => {
                self.insert_item(&container, Some(key), value);
                Ok(true)
            }
        }
    }

    /// Appends `value` to the array at `path` (`path` is at least one key),
    /// making it and the objects before it if they are missing.
    pub(crate) fn push_element(&mut self, path: &[&str], value: &Json) -> Result<(), Misfit> {
        let Some((last, parents)) = path.split_last() else {
            return Err(Misfit("no array named".into()));
        };
        let (found, container) = self.walk(parents)?;
        if found < parents.len() {
            let array = Json::Array(vec![value.clone()]);
            let nested = nest(&parents[found + 1..], last, array);
            self.insert_item(&container, Some(parents[found]), &nested);
            return Ok(());
        }
        match container.member(last) {
            None => self.insert_item(&container, Some(last), &Json::Array(vec![value.clone()])),
            Some(item) if matches!(item.value.kind, Kind::Array(_)) => {
                let array = item.value.clone();
                self.insert_item(&array, None, value);
            }
            Some(item) => return Err(misfit(path, &item.value, "an array")),
        }
        Ok(())
    }

    /// Replaces element `index` of the array at `path` with `value`.
    pub(crate) fn replace_element(&mut self, path: &[&str], index: usize, value: &Json) -> bool {
        let item = self
            .get(path)
            .and_then(|n| n.items())
            .and_then(|i| i.get(index))
            .cloned();
        match item {
            Some(item) if self.data(&item.value) != Some(value.to_serde()) => {
                self.replace_value(&item, value);
                true
            }
            _ => false,
        }
    }

    /// Removes member `key` from the object at `path`, then every
    /// container of `path` left empty. Returns whether it was there.
    pub(crate) fn remove_member(&mut self, path: &[&str], key: &str) -> bool {
        let index = self
            .get(path)
            .and_then(|n| n.items())
            .and_then(|items| items.iter().position(|i| i.key.as_deref() == Some(key)));
        self.remove_at(path, index)
    }

    /// Removes element `index` of the array at `path`, then every container
    /// of `path` left empty.
    pub(crate) fn remove_element(&mut self, path: &[&str], index: usize) -> bool {
        self.remove_at(path, Some(index))
    }

    fn remove_at(&mut self, path: &[&str], index: Option<usize>) -> bool {
        let Some(container) = self.get(path).cloned() else {
            return false;
        };
        let Some(index) = index.filter(|i| container.items().is_some_and(|items| *i < items.len()))
        else {
            return false;
        };
        self.remove_item(&container, index);
        // Prune the containers the removal left empty, innermost first.
        for depth in (1..=path.len()).rev() {
            let (parents, key) = (&path[..depth - 1], path[depth - 1]);
            let empty = self
                .get(&path[..depth])
                .and_then(|n| n.items())
                .is_some_and(<[Item]>::is_empty);
            if !empty {
                break;
            }
            let index = self
                .get(parents)
                .and_then(|n| n.items())
                .and_then(|items| items.iter().position(|i| i.key.as_deref() == Some(key)));
            if let (Some(parent), Some(index)) = (self.get(parents).cloned(), index) {
                self.remove_item(&parent, index);
            }
        }
        true
    }

    /// How far `path` exists: the number of its keys found, and the
    /// deepest object reached. A key whose value is not an object is a
    /// misfit.
    fn walk(&self, path: &[&str]) -> Result<(usize, Node), Misfit> {
        let mut node = &self.root;
        for (n, key) in path.iter().enumerate() {
            match node.member(key) {
                None => return Ok((n, node.clone())),
                Some(item) if item.value.is_object() => node = &item.value,
                Some(item) => return Err(misfit(&path[..=n], &item.value, "an object")),
            }
        }
        Ok((path.len(), node.clone()))
    }

    /// Adds an item (a member with `key`, or an element) at the end of
    /// `container`.
    fn insert_item(&mut self, container: &Node, key: Option<&str>, value: &Json) {
        let head = |value_text: String| match key {
            Some(key) => format!("{}: {value_text}", quote(key)),
            None => value_text,
        };
        let items = container.items().unwrap_or(&[]);
        let (at, to, text) = match items.last() {
            Some(last) if self.own_line(last.start) => {
                let indent = self.indent_of(last.start);
                let text = format!(
                    ",{}{indent}{}",
                    self.style.newline,
                    head(value.pretty(&indent, &self.style))
                );
                (last.value.end, last.value.end, text)
            }
            Some(last) => (
                last.value.end,
                last.value.end,
                format!(", {}", head(value.inline())),
            ),
            None => {
                let outer = self.indent_of(container.start);
                let indent = format!("{outer}{}", self.style.unit);
                let close = container.end - 1;
                let from = close - trailing_blank(&self.text[container.start + 1..close]);
                let newline = self.style.newline;
                let text = format!(
                    "{newline}{indent}{}{newline}{outer}",
                    head(value.pretty(&indent, &self.style))
                );
                (from, close, text)
            }
        };
        self.splice(at, to, &text);
    }

    /// Removes item `index` of `container` and the separator that came
    /// with it.
    fn remove_item(&mut self, container: &Node, index: usize) {
        let items = container.items().unwrap_or(&[]);
        let item = &items[index];
        let (from, to) = if index > 0 {
            // From the comma after the previous item: what adding it put in.
            let previous_end = items[index - 1].value.end;
            let comma = self.text[previous_end..item.start]
                .find(',')
                .map_or(previous_end, |n| previous_end + n);
            (comma, item.value.end)
        } else if items.len() > 1 {
            (item.start, items[1].start)
        } else {
            // The only one: back to an empty container, comments kept.
            let close = container.end - 1;
            let before = &self.text[container.start + 1..item.start];
            let from = container.start + 1 + before.trim_end().len();
            let after = &self.text[item.value.end..close];
            let to = match after.trim().trim_start_matches(',').trim().is_empty() {
                true => close,
                false => item.value.end,
            };
            (from, to)
        };
        self.splice(from, to, "");
    }

    /// Replaces the value of `item`, in the layout of its place.
    fn replace_value(&mut self, item: &Item, value: &Json) {
        let text = match self.own_line(item.start) {
            true => value.pretty(&self.indent_of(item.start), &self.style),
            false => value.inline(),
        };
        self.splice(item.value.start, item.value.end, &text);
    }

    /// Replaces `text[from..to]` with `with` and reads the text again.
    fn splice(&mut self, from: usize, to: usize, with: &str) {
        self.text.replace_range(from..to, with);
        // An edit of a parsed text with well-formed values parses; were it
        // not to, the old tree would point at the wrong bytes, so keep the
        // tree only when it is the new text's.
        if let Ok(root) = parse(&self.text, self.comments) {
            self.root = root;
        }
    }

    /// Whether only blanks come before `at` on its line.
    fn own_line(&self, at: usize) -> bool {
        let line_start = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        self.text[line_start..at].trim().is_empty()
    }

    /// The indentation of the line `at` is on.
    fn indent_of(&self, at: usize) -> String {
        let line_start = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        let line = &self.text[line_start..];
        let blank = line.len() - line.trim_start_matches([' ', '\t']).len();
        line[..blank].to_owned()
    }
}

/// `{"a": {"b": {key: value}}}` for `path` `["a", "b"]`, as the value of
/// the first missing key.
fn nest(path: &[&str], key: &str, value: Json) -> Json {
    let inner = Json::Object(vec![(key.to_owned(), value)]);
    path.iter().rev().fold(inner, |inner, k| {
        Json::Object(vec![((*k).to_owned(), inner)])
    })
}

/// The file holds `node` at `path` where `expected` belongs.
fn misfit(path: &[&str], node: &Node, expected: &str) -> Misfit {
    let path: Vec<String> = path.iter().map(|k| quote(k)).collect();
    Misfit(format!(
        "{} is {}, not {expected}",
        path.join("."),
        node.what()
    ))
}

/// The number of blank bytes at the end of `text`.
fn trailing_blank(text: &str) -> usize {
    text.len() - text.trim_end().len()
}

/// The layout of `text`: the indentation of its root's first member (two
/// spaces when it has none on a line of its own) and its line ending.
fn style_of(text: &str, root: &Node) -> Style {
    let newline = match text.contains("\r\n") {
        true => "\r\n",
        false => "\n",
    };
    let unit = root
        .items()
        .and_then(|items| items.first())
        .and_then(|first| {
            let line_start = text[..first.start].rfind('\n')? + 1;
            let indent = &text[line_start..first.start];
            let only_blanks = !indent.is_empty() && indent.chars().all(|c| c == ' ' || c == '\t');
            only_blanks.then(|| indent.to_owned())
        })
        .unwrap_or_else(|| "  ".to_owned());
    Style { unit, newline }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> Json {
        Json::object([
            ("command", Json::string("planning-mcp-server")),
            ("args", Json::strings(&["--storage", "file"])),
        ])
    }

    fn doc(text: &str) -> Document {
        Document::parse(text, true).unwrap()
    }

    /// Adds the server, checks the text, removes it, checks the original
    /// bytes are back.
    fn round_trip(original: &str, expected: &str) {
        let mut d = doc(original);
        assert!(
            d.set_member(&["mcpServers"], "planning", &server())
                .unwrap()
        );
        assert_eq!(d.text(), expected);
        assert!(
            !d.set_member(&["mcpServers"], "planning", &server())
                .unwrap(),
            "twice"
        );
        assert!(d.remove_member(&["mcpServers"], "planning"));
        assert_eq!(d.text(), original);
    }

    #[test]
    fn into_an_empty_file() {
        round_trip(
            "{}\n",
            "{\n  \"mcpServers\": {\n    \"planning\": {\n      \"command\": \"planning-mcp-server\",\n      \"args\": [\"--storage\", \"file\"]\n    }\n  }\n}\n",
        );
        assert!(doc("{}\n").is_empty_object());
    }

    #[test]
    fn beside_other_servers_in_their_indentation() {
        round_trip(
            "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"}\n    },\n    \"theme\": 1\n}",
            "{\n    \"mcpServers\": {\n        \"other\": {\"command\": \"x\"},\n        \"planning\": {\n            \"command\": \"planning-mcp-server\",\n            \"args\": [\"--storage\", \"file\"]\n        }\n    },\n    \"theme\": 1\n}",
        );
    }

    #[test]
    fn tabs_crlf_comments_and_trailing_commas() {
        round_trip(
            "{\r\n\t// mine\r\n\t\"mcpServers\": {\r\n\t\t\"other\": {},\r\n\t},\r\n}\r\n",
            "{\r\n\t// mine\r\n\t\"mcpServers\": {\r\n\t\t\"other\": {},\r\n\t\t\"planning\": {\r\n\t\t\t\"command\": \"planning-mcp-server\",\r\n\t\t\t\"args\": [\"--storage\", \"file\"]\r\n\t\t},\r\n\t},\r\n}\r\n",
        );
    }

    #[test]
    fn on_one_line_stays_on_one_line() {
        round_trip(
            "{\"mcpServers\": {\"other\": {}}}",
            "{\"mcpServers\": {\"other\": {}, \"planning\": {\"command\": \"planning-mcp-server\", \"args\": [\"--storage\", \"file\"]}}}",
        );
    }

    #[test]
    fn a_changed_entry_is_replaced_in_place() {
        let mut d =
            doc("{\"mcpServers\": {\n  \"planning\": {\"command\": \"old\"},\n  \"z\": 1\n}}");
        assert!(
            d.set_member(&["mcpServers"], "planning", &server())
                .unwrap()
        );
        assert!(
            d.text()
                .contains("  \"planning\": {\n    \"command\": \"planning-mcp-server\"")
        );
        assert!(d.text().ends_with("},\n  \"z\": 1\n}}"), "{}", d.text());
    }

    #[test]
    fn removing_the_first_of_several_keeps_the_rest() {
        let mut d = doc("{\"s\": {\n  \"planning\": 1,\n  \"b\": 2\n}}");
        assert!(d.remove_member(&["s"], "planning"));
        assert_eq!(d.text(), "{\"s\": {\n  \"b\": 2\n}}");
        assert!(!d.remove_member(&["s"], "planning"));
    }

    #[test]
    fn arrays_grow_and_shrink_back() {
        let original = "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"matcher\": \"x\"}\n    ]\n  }\n}\n";
        let mut d = doc(original);
        let hook = Json::object([("matcher", Json::string("startup"))]);
        d.push_element(&["hooks", "SessionStart"], &hook).unwrap();
        d.push_element(&["hooks", "PreCompact"], &hook).unwrap();
        assert_eq!(
            d.text(),
            "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"matcher\": \"x\"},\n      {\n        \"matcher\": \"startup\"\n      }\n    ],\n    \"PreCompact\": [\n      {\n        \"matcher\": \"startup\"\n      }\n    ]\n  }\n}\n"
        );
        assert!(d.remove_element(&["hooks", "PreCompact"], 0));
        assert!(d.remove_element(&["hooks", "SessionStart"], 1));
        assert_eq!(d.text(), original);
    }

    #[test]
    fn pruning_removes_what_adding_made() {
        let original = "{\n  \"theme\": 1\n}\n";
        let mut d = doc(original);
        d.push_element(&["hooks", "SessionStart"], &Json::Number(1))
            .unwrap();
        assert!(d.remove_element(&["hooks", "SessionStart"], 0));
        assert_eq!(d.text(), original);
    }

    #[test]
    fn misfits_are_refused_and_change_nothing() {
        let original = "{\"mcpServers\": [], \"hooks\": {\"SessionStart\": {}}}";
        let mut d = doc(original);
        let error = d
            .set_member(&["mcpServers"], "planning", &server())
            .unwrap_err();
        assert_eq!(error.0, "\"mcpServers\" is an array, not an object");
        let error = d
            .push_element(&["hooks", "SessionStart"], &server())
            .unwrap_err();
        assert_eq!(
            error.0,
            "\"hooks\".\"SessionStart\" is an object, not an array"
        );
        assert_eq!(d.text(), original);
        assert!(Document::parse("[]", false).is_err());
    }
}
