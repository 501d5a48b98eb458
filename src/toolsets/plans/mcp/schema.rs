// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Tool arguments: their JSON Schemas for `tools/list`, and their checking
//! on call with the reference's exact failure text, which is the zod issue
//! list its SDK prints:
//! `MCP error -32602: Input validation error: Invalid arguments for tool
//! <name>: <issues as pretty JSON>`. Unknown keys are dropped, not refused.

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value, json};

use crate::toolsets::plans::syntax::id;

/// The pattern of plan and task ids.
pub(crate) const SAFE_ID_PATTERN: &str = "^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$";

/// What an argument may hold.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// Any string.
    Str,
    /// A safe id; the message names which (`Invalid planId`).
    Id(&'static str),
    /// A boolean.
    Bool,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// An array of strings.
    StrArray,
    /// An array of these strings.
    EnumArray(&'static [&'static str]),
    /// An integer in `min..=max`.
    Int(i64, i64),
}

/// One argument.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    /// Its name.
    pub(crate) name: &'static str,
    /// What it holds.
    pub(crate) kind: Kind,
    /// Whether it must be given.
    pub(crate) required: bool,
}

/// A rule over the whole object, checked when every field is well typed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// The refusal message.
    pub(crate) message: &'static str,
    /// Whether the arguments pass.
    pub(crate) holds: fn(&Map<String, Value>) -> bool,
}

/// One zod issue, with its keys in zod's order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Issue(Vec<(&'static str, Value)>);

impl Serialize for Issue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// zod's name for a value's type.
fn type_name(value: Option<&Value>) -> &'static str {
    match value {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

/// `'a' | 'b'`
fn join_options(options: &[&str]) -> String {
    options
        .iter()
        .map(|o| format!("'{o}'"))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn invalid_type(expected: &str, value: Option<&Value>, path: Value) -> Issue {
    let received = type_name(value);
    let message = if received == "undefined" {
        "Required".to_owned()
    } else {
        format!("Expected {expected}, received {received}")
    };
    Issue(vec![
        ("code", json!("invalid_type")),
        ("expected", json!(expected)),
        ("received", json!(received)),
        ("path", path),
        ("message", json!(message)),
    ])
}

/// Checks a string against an enum; `None` if it is one of the options.
fn enum_issue(options: &[&str], value: &Value, path: Value) -> Option<Issue> {
    match value.as_str() {
        Some(s) if options.contains(&s) => None,
        Some(s) => Some(Issue(vec![
            ("received", json!(s)),
            ("code", json!("invalid_enum_value")),
            ("options", json!(options)),
            ("path", path),
            (
                "message",
                json!(format!(
                    "Invalid enum value. Expected {}, received '{s}'",
                    join_options(options)
                )),
            ),
        ])),
        None => {
            let expected = join_options(options);
            let received = type_name(Some(value));
            Some(Issue(vec![
                ("expected", json!(expected)),
                ("received", json!(received)),
                ("code", json!("invalid_type")),
                ("path", path),
                (
                    "message",
                    json!(format!("Expected {expected}, received {received}")),
                ),
            ]))
        }
    }
}

/// Checks one present value; issues, and whether any of them aborts zod's
/// parse (a wrong type does; a failed regex or bound only dirties it).
fn check(field: &Field, value: &Value, issues: &mut Vec<Issue>) -> bool {
    let path = || json!([field.name]);
    match field.kind {
        Kind::Str | Kind::Id(_) => {
            let Some(s) = value.as_str() else {
                issues.push(invalid_type("string", Some(value), path()));
                return true;
            };
            if let Kind::Id(message) = field.kind
                && !id::is_safe(s)
            {
                issues.push(Issue(vec![
                    ("validation", json!("regex")),
                    ("code", json!("invalid_string")),
                    ("message", json!(message)),
                    ("path", path()),
                ]));
            }
            false
        }
        Kind::Bool => {
            if value.is_boolean() {
                return false;
            }
            issues.push(invalid_type("boolean", Some(value), path()));
            true
        }
        Kind::Enum(options) => match enum_issue(options, value, path()) {
            Some(issue) => {
                issues.push(issue);
                true
            }
            None => false,
        },
        Kind::StrArray | Kind::EnumArray(_) => {
            let Some(items) = value.as_array() else {
                issues.push(invalid_type("array", Some(value), path()));
                return true;
            };
            let mut aborted = false;
            for (i, item) in items.iter().enumerate() {
                let item_path = json!([field.name, i]);
                let issue = match field.kind {
                    Kind::EnumArray(options) => enum_issue(options, item, item_path),
                    _ => (!item.is_string()).then(|| invalid_type("string", Some(item), item_path)),
                };
                if let Some(issue) = issue {
                    issues.push(issue);
                    aborted = true;
                }
            }
            aborted
        }
        Kind::Int(min, max) => {
            let Some(n) = value.as_f64() else {
                issues.push(invalid_type("number", Some(value), path()));
                return true;
            };
            if n.fract() != 0.0 {
                issues.push(Issue(vec![
                    ("code", json!("invalid_type")),
                    ("expected", json!("integer")),
                    ("received", json!("float")),
                    ("message", json!("Expected integer, received float")),
                    ("path", path()),
                ]));
            }
            if n < min as f64 {
                issues.push(Issue(vec![
                    ("code", json!("too_small")),
                    ("minimum", json!(min)),
                    ("type", json!("number")),
                    ("inclusive", json!(true)),
                    ("exact", json!(false)),
                    (
                        "message",
                        json!(format!("Number must be greater than or equal to {min}")),
                    ),
                    ("path", path()),
                ]));
            }
            if n > max as f64 {
                issues.push(Issue(vec![
                    ("code", json!("too_big")),
                    ("maximum", json!(max)),
                    ("type", json!("number")),
                    ("inclusive", json!(true)),
                    ("exact", json!(false)),
                    (
                        "message",
                        json!(format!("Number must be less than or equal to {max}")),
                    ),
                    ("path", path()),
                ]));
            }
            false
        }
    }
}

/// Checks the arguments of a tool: the known keys (others dropped), or the
/// failure text.
pub(crate) fn check_arguments(
    tool: &str,
    fields: &[Field],
    rules: &[Rule],
    arguments: Option<&Map<String, Value>>,
) -> Result<Map<String, Value>, String> {
    let fail = |issues: Vec<Issue>| {
        let json = serde_json::to_string_pretty(&issues).unwrap_or_default();
        Err(format!(
            "MCP error -32602: Input validation error: Invalid arguments for tool {tool}: {json}"
        ))
    };
    let Some(arguments) = arguments else {
        return fail(vec![invalid_type("object", None, json!([]))]);
    };
    let mut issues = Vec::new();
    let mut aborted = false;
    let mut known = Map::new();
    for field in fields {
        match arguments.get(field.name) {
            None if field.required => {
                let expected = match field.kind {
                    Kind::Bool => "boolean",
                    Kind::StrArray | Kind::EnumArray(_) => "array",
                    Kind::Int(..) => "number",
                    Kind::Enum(options) => {
                        issues.push(Issue(vec![
                            ("expected", json!(join_options(options))),
                            ("received", json!("undefined")),
                            ("code", json!("invalid_type")),
                            ("path", json!([field.name])),
                            ("message", json!("Required")),
                        ]));
                        aborted = true;
                        continue;
                    }
                    Kind::Str | Kind::Id(_) => "string",
                };
                issues.push(invalid_type(expected, None, json!([field.name])));
                aborted = true;
            }
            None => {}
            Some(value) => {
                aborted |= check(field, value, &mut issues);
                known.insert(field.name.to_owned(), value.clone());
            }
        }
    }
    if !aborted {
        for rule in rules {
            if !(rule.holds)(&known) {
                issues.push(Issue(vec![
                    ("code", json!("custom")),
                    ("message", json!(rule.message)),
                    ("path", json!([])),
                ]));
            }
        }
    }
    if issues.is_empty() {
        Ok(known)
    } else {
        fail(issues)
    }
}

/// The JSON Schema of one argument.
fn field_schema(kind: Kind) -> Value {
    match kind {
        Kind::Str => json!({"type": "string"}),
        Kind::Id(_) => json!({"type": "string", "pattern": SAFE_ID_PATTERN}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Enum(options) => json!({"type": "string", "enum": options}),
        Kind::StrArray => json!({"type": "array", "items": {"type": "string"}}),
        Kind::EnumArray(options) => {
            json!({"type": "array", "items": {"type": "string", "enum": options}})
        }
        Kind::Int(min, max) => json!({"type": "integer", "minimum": min, "maximum": max}),
    }
}

/// The input schema of a tool (draft-07, like the reference's).
pub(crate) fn input_schema(fields: &[Field]) -> Map<String, Value> {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|f| (f.name.to_owned(), field_schema(f.kind)))
        .collect();
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    schema.insert(
        "$schema".into(),
        json!("http://json-schema.org/draft-07/schema#"),
    );
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &[&str] = &["todo", "doing", "done"];
    const FIELDS: &[Field] = &[
        Field {
            name: "planId",
            kind: Kind::Id("Invalid planId"),
            required: true,
        },
        Field {
            name: "status",
            kind: Kind::Enum(STATUS),
            required: false,
        },
        Field {
            name: "limit",
            kind: Kind::Int(1, 500),
            required: false,
        },
        Field {
            name: "sectionPath",
            kind: Kind::StrArray,
            required: false,
        },
        Field {
            name: "flag",
            kind: Kind::Bool,
            required: false,
        },
    ];
    const RULES: &[Rule] = &[Rule {
        message: "flag needs status",
        holds: |m| !m.contains_key("flag") || m.contains_key("status"),
    }];

    fn fails(arguments: Value) -> String {
        check_arguments("t.x", FIELDS, RULES, arguments.as_object()).unwrap_err()
    }

    #[test]
    fn accepts_and_strips() {
        let ok = check_arguments(
            "t.x",
            FIELDS,
            RULES,
            json!({"planId": "p", "extra": 1}).as_object(),
        )
        .unwrap();
        assert_eq!(Value::Object(ok), json!({"planId": "p"}));
    }

    #[test]
    fn zod_issue_texts() {
        insta::assert_snapshot!(fails(json!({})));
        insta::assert_snapshot!(fails(
            json!({"planId": "_bad", "status": "later", "limit": 0.5, "flag": true})
        ));
        insta::assert_snapshot!(fails(
            json!({"planId": 3, "status": 1, "sectionPath": ["a", 2], "limit": 501, "flag": "y"})
        ));
        insta::assert_snapshot!(fails(json!({"planId": "p", "flag": true})));
        assert_eq!(
            check_arguments("t.x", FIELDS, RULES, None).unwrap_err(),
            "MCP error -32602: Input validation error: Invalid arguments for tool t.x: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"object\",\n    \"received\": \"undefined\",\n    \"path\": [],\n    \"message\": \"Required\"\n  }\n]"
        );
    }

    #[test]
    fn schemas() {
        let schema = Value::Object(input_schema(FIELDS));
        assert_eq!(schema["required"], json!(["planId"]));
        assert_eq!(
            schema["properties"]["limit"],
            json!({"type": "integer", "minimum": 1, "maximum": 500})
        );
        assert_eq!(schema["additionalProperties"], json!(false));
    }
}
