// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `state.json`: read (corrupt, newer, or the state with its context,
//! history and any keys we do not know) and rendered (`version`,
//! `current_state`, `context`, `history`, then the unknown keys as they
//! were; two-space indents; a final newline).

use std::borrow::Cow;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::context::Context;
use super::state::State;
use crate::runtime::text::clip;
use crate::toolsets::workflow::files::ordered_json::{Checked, Entries, Json};

/// The version this server writes.
pub(crate) const VERSION: u64 = 1;

/// `state.json` as read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Read {
    /// A state the server can work with.
    Doc(StateDoc),
    /// Not JSON, not an object, or no known `current_state`: why.
    Corrupt(String),
    /// Written by a newer server (`version` > 1): left alone.
    Newer,
    /// A `version` below 1 (0, negative, a fraction), which no server
    /// wrote: left alone, as boards are. The version as written.
    Unknown(String),
}

/// The content of `state.json`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StateDoc {
    /// The current state.
    pub(crate) state: State,
    /// Its context.
    pub(crate) context: Context,
    /// The context's keys we do not know, in their order.
    context_extra: Vec<(String, Json)>,
    /// The history, oldest first, entries kept as they were.
    history: History,
    /// The top-level keys we do not know, in their order.
    extra: Vec<(String, Json)>,
}

/// The history of a [`StateDoc`]. A read-only spell never needs it, and
/// building 200 entries was most of its time, so a file's history is only
/// checked when it is read and built when a change needs it.
#[derive(Debug, Clone)]
enum History {
    /// In the file that was read (checked: parsing it again cannot fail).
    InFile(Arc<[u8]>),
    /// The entries, oldest first.
    Entries(Vec<Json>),
}

impl History {
    /// The entries, oldest first.
    fn entries(&self) -> Cow<'_, [Json]> {
        match self {
            History::Entries(entries) => Cow::Borrowed(entries),
            History::InFile(bytes) => Cow::Owned(history_in(bytes)),
        }
    }
}

/// The history entries of a `state.json` that [`read`] accepted: only
/// objects count, and a history that is not an array has none.
fn history_in(bytes: &[u8]) -> Vec<Json> {
    // `read` parsed these bytes with the same checks, so this cannot fail;
    // were it to, the history would be dropped (never a panic).
    let Ok(Json::Object(top)) = serde_json::from_slice(bytes) else {
        return Vec::new();
    };
    match top.into_iter().find(|(key, _)| key == "history") {
        Some((_, Json::Array(items))) => items
            .into_iter()
            .filter(|item| matches!(item, Json::Object(_)))
            .collect(),
        _ => Vec::new(),
    }
}

impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.entries() == other.entries()
    }
}

/// One history entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// When: RFC 3339, UTC, whole seconds.
    pub(crate) timestamp: String,
    /// The spell, e.g. `Accio`.
    pub(crate) trigger: &'static str,
    /// The row of the transition table, e.g. `G1`.
    pub(crate) rule: &'static str,
    /// `FROM → TO`.
    pub(crate) transition: String,
    /// The user's note, if one was given.
    pub(crate) note: Option<String>,
}

impl Entry {
    fn to_json(&self) -> Json {
        let text = |s: &str| Json::String(s.to_owned());
        let mut fields = vec![
            ("timestamp".to_owned(), text(&self.timestamp)),
            ("trigger".to_owned(), text(self.trigger)),
            ("rule".to_owned(), text(self.rule)),
            ("transition".to_owned(), text(&self.transition)),
        ];
        if let Some(note) = &self.note {
            fields.push(("note".to_owned(), text(note)));
        }
        Json::Object(fields)
    }
}

const KNOWN: [&str; 4] = ["version", "current_state", "context", "history"];

/// Reads `state.json`'s bytes.
pub(crate) fn read(bytes: &[u8]) -> Read {
    let starts_an_object = bytes.iter().find(|b| !b" \t\n\r".contains(b)) == Some(&b'{');
    if !starts_an_object {
        return match serde_json::from_slice::<Json>(bytes) {
            Ok(_) => Read::Corrupt("not a JSON object".into()),
            Err(error) => Read::Corrupt(format!("not JSON: {error}")),
        };
    }
    let Top { entries, history } = match serde_json::from_slice(bytes) {
        Ok(top) => top,
        Err(error) => return Read::Corrupt(format!("not JSON: {error}")),
    };
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    if let Some(Json::Number(version)) = get("version")
        && let Some(value) = version.as_f64()
    {
        if value > VERSION as f64 {
            return Read::Newer;
        }
        if value < VERSION as f64 {
            return Read::Unknown(clip(&version.to_string()));
        }
    }
    let state = match get("current_state") {
        None => return Read::Corrupt("current_state is missing".into()),
        Some(Json::String(name)) => match State::parse(name) {
            Some(state) => state,
            None => return Read::Corrupt(format!("current_state \"{}\" is unknown", clip(name))),
        },
        Some(_) => return Read::Corrupt("current_state is not a string".into()),
    };
    let (context, context_extra) = match get("context") {
        Some(Json::Object(fields)) => read_context(fields),
        _ => (Context::default(), Vec::new()),
    };
    let extra = entries
        .into_iter()
        .filter(|(key, _)| !KNOWN.contains(&key.as_str()))
        .collect();
    let history = match history {
        true => History::InFile(Arc::from(bytes)),
        false => History::Entries(Vec::new()),
    };
    Read::Doc(StateDoc {
        state,
        context,
        context_extra,
        history,
        extra,
    })
}

/// The top-level object of `state.json`: every key but `history` with its
/// value, and whether `history` is there (checked, not built).
struct Top {
    entries: Vec<(String, Json)>,
    history: bool,
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Top, D::Error> {
        deserializer.deserialize_map(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut entries = Entries::default();
        let mut history = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "history" {
                map.next_value::<Checked>()?;
                history = true;
            } else {
                entries.insert(key, map.next_value::<Json>()?);
            }
        }
        Ok(Top {
            entries: entries.into_vec(),
            history,
        })
    }
}

/// The known fields of `context` (wrong ones dropped) and the unknown ones.
fn read_context(fields: &[(String, Json)]) -> (Context, Vec<(String, Json)>) {
    let state = |key: &str| {
        let value = fields.iter().find(|(k, _)| k == key)?;
        State::parse(value.1.as_str()?)
    };
    let context = Context {
        pr_return_state: state("pr_return_state"),
        error_original_state: state("error_original_state"),
    }
    .checked();
    let extra = fields
        .iter()
        .filter(|(key, _)| key != "pr_return_state" && key != "error_original_state")
        .cloned()
        .collect();
    (context, extra)
}

impl StateDoc {
    /// A fresh state: no history, no unknown keys.
    pub(crate) fn new(state: State, context: Context) -> Self {
        Self {
            state,
            context,
            context_extra: Vec::new(),
            history: History::Entries(Vec::new()),
            extra: Vec::new(),
        }
    }

    /// How many history entries it holds.
    #[cfg(test)]
    pub(crate) fn history_len(&self) -> usize {
        self.history.entries().len()
    }

    /// This document moved to `state` with `context`, `entry` appended to
    /// its history, which keeps at most `max_history` entries (the oldest
    /// are dropped).
    pub(crate) fn advanced(
        &self,
        state: State,
        context: Context,
        entry: &Entry,
        max_history: usize,
    ) -> Self {
        let mut history = self.history.entries().into_owned();
        history.push(entry.to_json());
        let excess = history.len().saturating_sub(max_history);
        history.drain(..excess);
        Self {
            state,
            context,
            context_extra: self.context_extra.clone(),
            history: History::Entries(history),
            extra: self.extra.clone(),
        }
    }

    /// The file's text.
    pub(crate) fn render(&self) -> String {
        let text = |s: &str| Json::String(s.to_owned());
        let mut context = Vec::new();
        if let Some(state) = self.context.pr_return_state {
            context.push(("pr_return_state".to_owned(), text(state.name())));
        }
        if let Some(state) = self.context.error_original_state {
            context.push(("error_original_state".to_owned(), text(state.name())));
        }
        context.extend(self.context_extra.iter().cloned());
        let top = Rendered {
            doc: self,
            context: Json::Object(context),
            history: &self.history.entries(),
        };
        let mut out = serde_json::to_string_pretty(&top).unwrap_or_default();
        out.push('\n');
        out
    }
}

/// The top level of the file as it is written, borrowing the history
/// (200 entries are not copied to be written).
struct Rendered<'a> {
    doc: &'a StateDoc,
    context: Json,
    history: &'a [Json],
}

impl Serialize for Rendered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut top = serializer.serialize_map(Some(KNOWN.len() + self.doc.extra.len()))?;
        top.serialize_entry("version", &VERSION)?;
        top.serialize_entry("current_state", self.doc.state.name())?;
        top.serialize_entry("context", &self.context)?;
        top.serialize_entry("history", self.history)?;
        for (key, value) in &self.doc.extra {
            top.serialize_entry(key, value)?;
        }
        top.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(rule: &'static str, note: Option<&str>) -> Entry {
        Entry {
            timestamp: "2025-08-20T15:30:00Z".into(),
            trigger: "Reparo",
            rule,
            transition: "ACHIEVE_TASK_DRAFTING → PR_GATHERING_COMMENTS".into(),
            note: note.map(str::to_owned),
        }
    }

    #[test]
    fn the_spec_example_renders_exactly() {
        let doc = StateDoc::new(State::AchieveTaskDrafting, Context::default()).advanced(
            State::PrGatheringComments,
            Context {
                pr_return_state: Some(State::AchieveTaskDrafting),
                error_original_state: None,
            },
            &entry("S1", Some("https://github.com/acme/app/pull/7")),
            200,
        );
        let expected = r#"{
  "version": 1,
  "current_state": "PR_GATHERING_COMMENTS",
  "context": {
    "pr_return_state": "ACHIEVE_TASK_DRAFTING"
  },
  "history": [
    {
      "timestamp": "2025-08-20T15:30:00Z",
      "trigger": "Reparo",
      "rule": "S1",
      "transition": "ACHIEVE_TASK_DRAFTING → PR_GATHERING_COMMENTS",
      "note": "https://github.com/acme/app/pull/7"
    }
  ]
}
"#;
        assert_eq!(doc.render(), expected);
        assert_eq!(read(expected.as_bytes()), Read::Doc(doc));
        let empty = StateDoc::new(State::GatherNeedsPlan, Context::default()).render();
        assert_eq!(
            empty,
            "{\n  \"version\": 1,\n  \"current_state\": \"GATHER_NEEDS_PLAN\",\n  \"context\": {},\n  \"history\": []\n}\n"
        );
    }

    #[test]
    fn unknown_keys_are_kept_in_order_and_wrong_types_dropped() {
        let text = r#"{"zeta": {"b": 1, "a": 2}, "history": [{"x": 1, "a": 0}, 7, "s"],
            "current_state": "GATHER_READY", "context": {"pr_return_state": 3, "mine": true,
            "error_original_state": "ERROR_PLAN_MISSING"}, "alpha": [1]}"#;
        let Read::Doc(doc) = read(text.as_bytes()) else {
            panic!("readable")
        };
        assert_eq!(doc.state, State::GatherEditing);
        assert_eq!(doc.context, Context::default());
        assert_eq!(
            doc.render(),
            "{\n  \"version\": 1,\n  \"current_state\": \"GATHER_EDITING\",\n  \"context\": {\n    \"mine\": true\n  },\n  \"history\": [\n    {\n      \"x\": 1,\n      \"a\": 0\n    }\n  ],\n  \"zeta\": {\n    \"b\": 1,\n    \"a\": 2\n  },\n  \"alpha\": [\n    1\n  ]\n}\n"
        );
    }

    #[test]
    fn corrupt_and_newer_files_are_told_apart() {
        let corrupt = |text: &str| match read(text.as_bytes()) {
            Read::Corrupt(reason) => reason,
            other => panic!("{text}: {other:?}"),
        };
        assert!(corrupt("").starts_with("not JSON: EOF while parsing"));
        assert!(corrupt("{\"current_state\": ").starts_with("not JSON"));
        assert_eq!(corrupt("[1]"), "not a JSON object");
        assert_eq!(corrupt("{}"), "current_state is missing");
        assert_eq!(
            corrupt("{\"current_state\": 3}"),
            "current_state is not a string"
        );
        assert_eq!(
            corrupt("{\"current_state\": \"NOPE\\n\"}"),
            "current_state \"NOPE\\n\" is unknown"
        );
        assert!(corrupt("\u{feff}{}").starts_with("not JSON"));
        assert_eq!(read(br#"{"version": 2}"#), Read::Newer);
        for (version, shown) in [("0", "0"), ("-1", "-1"), ("0.5", "0.5"), ("-0.0", "-0.0")] {
            let text = format!(r#"{{"version": {version}, "current_state": "GATHER_EDITING"}}"#);
            assert_eq!(
                read(text.as_bytes()),
                Read::Unknown(shown.into()),
                "{version}"
            );
        }
        let one = read(br#"{"version": 1.0, "current_state": "GATHER_EDITING"}"#);
        assert!(matches!(one, Read::Doc(_)), "1.0 is version 1");
        assert_eq!(
            read(br#"{"version": 1.5, "current_state": "X"}"#),
            Read::Newer
        );
        let old = read(br#"{"version": "2", "current_state": "GATHER_NEEDS_PLAN"}"#);
        assert!(
            matches!(old, Read::Doc(_)),
            "a version of the wrong type is ignored"
        );
        let deep = "[".repeat(10_000);
        assert!(corrupt(&deep).starts_with("not JSON"), "no stack overflow");
    }

    #[test]
    fn a_history_that_would_not_parse_makes_the_file_corrupt() {
        let with_history = |history: &str| {
            format!(r#"{{"current_state": "GATHER_READY", "history": [{history}]}}"#)
        };
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for history in [deep.as_str(), r#""\ud800""#, "1,", "{\"a\" 1}"] {
            let read = read(with_history(history).as_bytes());
            assert!(
                matches!(&read, Read::Corrupt(reason) if reason.starts_with("not JSON")),
                "{history}: {read:?}"
            );
        }
    }

    #[test]
    fn a_history_read_from_a_file_goes_on_through_a_change() {
        let text = r#"{"current_state": "GATHER_READY", "history": [{"n": 1}, 2, {"n": 3}], "history": [{"n": 4}, "x", {"n": 5}, {"n": 6}]}"#;
        let Read::Doc(doc) = read(text.as_bytes()) else {
            panic!("readable")
        };
        assert_eq!(doc.history_len(), 3, "the last history, objects only");
        let next = doc.advanced(
            State::GatherEditing,
            Context::default(),
            &entry("F0", None),
            3,
        );
        let rendered = next.render();
        let Read::Doc(again) = read(rendered.as_bytes()) else {
            panic!("readable")
        };
        assert_eq!(again, next);
        let kept: Vec<&str> = rendered
            .lines()
            .filter(|l| l.contains("\"n\"") || l.contains("\"rule\""))
            .collect();
        assert_eq!(
            kept,
            [
                "      \"n\": 5",
                "      \"n\": 6",
                "      \"rule\": \"F0\","
            ]
        );
    }

    #[test]
    fn an_object_of_100000_keys_is_read() {
        let keys: Vec<String> = (0..100_000).map(|n| format!("\"k{n}\":0")).collect();
        let text = format!(
            r#"{{"current_state": "GATHER_READY", "x": {{{}}}}}"#,
            keys.join(",")
        );
        let Read::Doc(doc) = read(text.as_bytes()) else {
            panic!("readable")
        };
        let Some((_, Json::Object(x))) = doc.extra.first() else {
            panic!("x is kept")
        };
        assert_eq!(x.len(), 100_000);
    }

    #[test]
    fn history_keeps_the_newest_entries() {
        let mut doc = StateDoc::new(State::GatherEditing, Context::default());
        for _ in 0..5 {
            doc = doc.advanced(
                State::GatherEditing,
                Context::default(),
                &entry("F0", None),
                3,
            );
        }
        assert_eq!(doc.history_len(), 3);
        let none = doc.advanced(
            State::GatherEditing,
            Context::default(),
            &entry("F0", None),
            0,
        );
        assert_eq!(none.history_len(), 0);
    }
}
