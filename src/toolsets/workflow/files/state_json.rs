// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `state.json`: read (corrupt, newer, or the state with its context,
//! history and any keys we do not know) and rendered (`version`,
//! `current_state`, `context`, `history`, then the unknown keys as they
//! were; two-space indents; a final newline).

use super::ordered_json::Json;
use crate::runtime::text::clip;
use crate::toolsets::workflow::machine::context::Context;
use crate::toolsets::workflow::machine::state::State;

/// The version this server writes.
pub const VERSION: u64 = 1;

/// `state.json` as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// A state the server can work with.
    Doc(StateDoc),
    /// Not JSON, not an object, or no known `current_state`: why.
    Corrupt(String),
    /// Written by a newer server (`version` > 1): left alone.
    Newer,
}

/// The content of `state.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct StateDoc {
    /// The current state.
    pub state: State,
    /// Its context.
    pub context: Context,
    /// The context's keys we do not know, in their order.
    context_extra: Vec<(String, Json)>,
    /// The history, oldest first, entries kept as they were.
    history: Vec<Json>,
    /// The top-level keys we do not know, in their order.
    extra: Vec<(String, Json)>,
}

/// One history entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// When: RFC 3339, UTC, whole seconds.
    pub timestamp: String,
    /// The spell, e.g. `Accio`.
    pub trigger: &'static str,
    /// The row of the transition table, e.g. `G1`.
    pub rule: &'static str,
    /// `FROM → TO`.
    pub transition: String,
    /// The user's note, if one was given.
    pub note: Option<String>,
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
pub fn read(bytes: &[u8]) -> Read {
    let json: Json = match serde_json::from_slice(bytes) {
        Ok(json) => json,
        Err(error) => return Read::Corrupt(format!("not JSON: {error}")),
    };
    let Json::Object(entries) = json else {
        return Read::Corrupt("not a JSON object".into());
    };
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    if let Some(Json::Number(version)) = get("version")
        && version.as_f64().is_some_and(|v| v > VERSION as f64)
    {
        return Read::Newer;
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
    // Taken by value: cloning 200 history entries would double the work.
    let mut history = Vec::new();
    let mut extra = Vec::new();
    for (key, value) in entries {
        match (key.as_str(), value) {
            ("history", Json::Array(items)) => {
                history = items
                    .into_iter()
                    .filter(|item| matches!(item, Json::Object(_)))
                    .collect();
            }
            (known, _) if KNOWN.contains(&known) => {}
            (_, value) => extra.push((key, value)),
        }
    }
    Read::Doc(StateDoc {
        state,
        context,
        context_extra,
        history,
        extra,
    })
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
    pub fn new(state: State, context: Context) -> Self {
        Self {
            state,
            context,
            context_extra: Vec::new(),
            history: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// How many history entries it holds.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// This document moved to `state` with `context`, `entry` appended to
    /// its history, which keeps at most `max_history` entries (the oldest
    /// are dropped).
    pub fn advanced(
        &self,
        state: State,
        context: Context,
        entry: &Entry,
        max_history: usize,
    ) -> Self {
        let mut next = self.clone();
        next.state = state;
        next.context = context;
        next.history.push(entry.to_json());
        let excess = next.history.len().saturating_sub(max_history);
        next.history.drain(..excess);
        next
    }

    /// The file's text.
    pub fn render(&self) -> String {
        let text = |s: &str| Json::String(s.to_owned());
        let mut context = Vec::new();
        if let Some(state) = self.context.pr_return_state {
            context.push(("pr_return_state".to_owned(), text(state.name())));
        }
        if let Some(state) = self.context.error_original_state {
            context.push(("error_original_state".to_owned(), text(state.name())));
        }
        context.extend(self.context_extra.iter().cloned());
        let mut top = vec![
            ("version".to_owned(), Json::Number(VERSION.into())),
            ("current_state".to_owned(), text(self.state.name())),
            ("context".to_owned(), Json::Object(context)),
            ("history".to_owned(), Json::Array(self.history.clone())),
        ];
        top.extend(self.extra.iter().cloned());
        let mut out = serde_json::to_string_pretty(&Json::Object(top)).unwrap_or_default();
        out.push('\n');
        out
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
