// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Input schemas as few bytes as they can be: every byte of `tools/list` is
//! paid for in tokens at the start of every session.
//!
//! schemars writes `"$schema"` (the 2020-12 dialect, which MCP assumes when
//! it is absent) and puts every nested struct under `$defs` behind a
//! `$ref`. [`compact`] drops the first and inlines the second, keeping
//! only definitions that refer to themselves (a recursive tree has to stay
//! a reference).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

/// `tool` with its input schema [`compact`]ed.
pub(crate) fn compact_tool(mut tool: Tool) -> Tool {
    let mut schema = JsonObject::clone(&tool.input_schema);
    compact(&mut schema);
    tool.input_schema = Arc::new(schema);
    tool
}

/// Removes `$schema` and inlines every non-recursive `$defs` entry.
pub(crate) fn compact(schema: &mut JsonObject) {
    schema.remove("$schema");
    let Some(Value::Object(mut defs)) = schema.remove("$defs") else {
        return;
    };
    let recursive: Vec<String> = defs
        .iter()
        .filter(|(name, def)| refers_to(def, name))
        .map(|(name, _)| name.clone())
        .collect();
    // Definitions may use each other: inline them into each other first
    // (as many rounds as definitions, so any acyclic chain resolves).
    for _ in 0..defs.len() {
        let snapshot = defs.clone();
        for def in defs.values_mut() {
            inline(def, &snapshot, &recursive);
        }
    }
    for (_, value) in schema.iter_mut() {
        inline(value, &defs, &recursive);
    }
    defs.retain(|name, _| recursive.contains(name));
    if !defs.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(defs));
    }
}

/// The definition name a `{"$ref": "#/$defs/Name"}` object points to.
fn reference(value: &JsonObject) -> Option<&str> {
    value.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// Whether `value` contains a reference to definition `name`.
fn refers_to(value: &Value, name: &str) -> bool {
    match value {
        Value::Object(object) => {
            reference(object) == Some(name) || object.values().any(|v| refers_to(v, name))
        }
        Value::Array(items) => items.iter().any(|v| refers_to(v, name)),
        _ => false,
    }
}

/// Replaces references to non-recursive definitions with the definitions;
/// the referring object's own keys (e.g. its description) win.
fn inline(value: &mut Value, defs: &JsonObject, recursive: &[String]) {
    match value {
        Value::Object(object) => {
            let target = reference(object)
                .filter(|name| !recursive.iter().any(|r| r == name))
                .and_then(|name| defs.get(name));
            if let Some(Value::Object(def)) = target {
                let own = std::mem::take(object);
                *object = def.clone();
                for (key, v) in own {
                    if key != "$ref" {
                        object.insert(key, v);
                    }
                }
            }
            for v in object.values_mut() {
                inline(v, defs, recursive);
            }
        }
        Value::Array(items) => {
            for v in items {
                inline(v, defs, recursive);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => unreachable!("an object literal"),
        }
    }

    #[test]
    fn drops_the_dialect_and_inlines_definitions() {
        let mut schema = object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {
                "Task": {"description": "One task.", "type": "object",
                         "properties": {"when": {"$ref": "#/$defs/When"}}},
                "When": {"type": "string"}
            },
            "properties": {"tasks": {"items": {"$ref": "#/$defs/Task"}, "type": "array"},
                           "first": {"$ref": "#/$defs/Task", "description": "The first."}},
            "type": "object"
        }));
        compact(&mut schema);
        assert_eq!(
            Value::Object(schema),
            json!({
                "properties": {
                    "tasks": {"items": {"description": "One task.", "type": "object",
                              "properties": {"when": {"type": "string"}}}, "type": "array"},
                    "first": {"description": "The first.", "type": "object",
                              "properties": {"when": {"type": "string"}}}
                },
                "type": "object"
            })
        );
    }

    #[test]
    fn recursive_definitions_stay_references() {
        let tree = json!({
            "$defs": {"Node": {"type": "object",
                               "properties": {"children": {"items": {"$ref": "#/$defs/Node"}}}}},
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "type": "object"
        });
        let mut schema = object(tree.clone());
        compact(&mut schema);
        assert_eq!(Value::Object(schema), tree);
    }
}
