// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP face of toolset `plans`: the reference's dotted tool names,
//! titles, descriptions and argument names; results as pretty JSON text
//! plus `structuredContent`, failures as `isError` results with the
//! reference's message. `planning-mcp-server` (through `toolset`) and
//! `long-term-plan-mcp` (`stdio`) both list and call them here.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::toolsets::plans::api::{PlanFiles, PlanUpdate, Repair, TaskAdd, TaskUpdate, Template};
use crate::toolsets::plans::document::view::View;
use crate::toolsets::plans::edit::add::NewTask;
use crate::toolsets::plans::edit::repair::Action;
use crate::toolsets::plans::mcp::schema::{Field, Kind, Rule, check_arguments, input_schema};
use crate::toolsets::plans::syntax::json;
use crate::toolsets::plans::syntax::status::Status;

const STATUSES: &[&str] = &["todo", "doing", "done"];
const PLAN_ID: Field = Field {
    name: "planId",
    kind: Kind::Id("Invalid planId"),
    required: true,
};
const fn optional(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: false,
    }
}
const fn required(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: true,
    }
}
const TASK_ID: Kind = Kind::Id("Invalid taskId");

fn has(m: &Map<String, Value>, key: &str) -> bool {
    m.contains_key(key)
}

fn truthy(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
        _ => false,
    }
}

const BODY_OR_CLEAR: Rule = Rule {
    message: "bodyMarkdown cannot be combined with clearBody",
    holds: |m| !(has(m, "bodyMarkdown") && truthy(m, "clearBody")),
};

/// One tool: its face and its arguments.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    fields: &'static [Field],
    rules: &'static [Rule],
    output: fn() -> Value,
    legacy: bool,
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
        "$schema": "http://json-schema.org/draft-07/schema#"
    })
}

const SPECS: &[Spec] = &[
    Spec {
        name: "plan.list",
        title: "List plan files",
        description: "List todo plan markdown files under the plans directory.",
        fields: &[optional("query", Kind::Str)],
        rules: &[],
        output: || {
            let stats = json!({"type": "object", "properties": {"total": {"type": "number"}, "todo": {"type": "number"}, "doing": {"type": "number"}, "done": {"type": "number"}}, "required": ["total", "todo", "doing", "done"], "additionalProperties": false});
            object(
                json!({"plans": {"type": "array", "items": {"type": "object", "properties": {"planId": {"type": "string"}, "title": {"type": "string"}, "path": {"type": "string"}, "stats": stats}, "required": ["planId", "title", "path", "stats"], "additionalProperties": false}}}),
                &["plans"],
            )
        },
        legacy: false,
    },
    Spec {
        name: "plan.get",
        title: "Get a plan",
        description: "Read and parse a plan markdown file. Returns tasks in tree or flat view; optional flags can include plan/task blockquote bodies.",
        fields: &[
            PLAN_ID,
            optional("view", Kind::Enum(&["tree", "flat"])),
            optional("includeTaskBodies", Kind::Bool),
            optional("includePlanBody", Kind::Bool),
        ],
        rules: &[],
        output: || object(json!({"plan": {}, "etag": {"type": "string"}}), &["etag"]),
        legacy: false,
    },
    Spec {
        name: "plan.create",
        title: "Create a new plan file",
        description: "Create a new plan markdown file in the plans directory (optionally with a plan body).",
        fields: &[
            PLAN_ID,
            required("title", Kind::Str),
            optional("template", Kind::Enum(&["empty", "basic"])),
            optional("bodyMarkdown", Kind::Str),
        ],
        rules: &[],
        output: || {
            object(
                json!({"planId": {"type": "string"}, "path": {"type": "string"}}),
                &["planId", "path"],
            )
        },
        legacy: false,
    },
    Spec {
        name: "plan.update",
        title: "Update a plan",
        description: "Update a plan title and/or plan-level blockquote body. For safe writes in concurrent environments, pass ifMatch (etag).",
        fields: &[
            PLAN_ID,
            optional("title", Kind::Str),
            optional("bodyMarkdown", Kind::Str),
            optional("clearBody", Kind::Bool),
            optional("ifMatch", Kind::Str),
        ],
        rules: &[
            BODY_OR_CLEAR,
            Rule {
                message: "At least one of title, bodyMarkdown, or clearBody is required",
                holds: |m| has(m, "title") || has(m, "bodyMarkdown") || truthy(m, "clearBody"),
            },
        ],
        output: || object(json!({"etag": {"type": "string"}}), &["etag"]),
        legacy: false,
    },
    Spec {
        name: "task.get",
        title: "Get a task",
        description: "Get a task from a plan (optionally including its decoded blockquote body). If taskId is omitted, defaults to the first \"doing\" task; otherwise the first unfinished task.",
        fields: &[
            PLAN_ID,
            optional("taskId", TASK_ID),
            optional("includeBody", Kind::Bool),
        ],
        rules: &[],
        output: || object(json!({"task": {}, "etag": {"type": "string"}}), &["etag"]),
        legacy: false,
    },
    Spec {
        name: "task.add",
        title: "Add a task",
        description: "Add a task to a plan (optionally under a section, under a parent task, or before another task). Can also write a blockquote body.",
        fields: &[
            PLAN_ID,
            required("title", Kind::Str),
            optional("bodyMarkdown", Kind::Str),
            optional("status", Kind::Enum(STATUSES)),
            optional("sectionPath", Kind::StrArray),
            optional("parentTaskId", TASK_ID),
            optional("beforeTaskId", TASK_ID),
            optional("ifMatch", Kind::Str),
        ],
        rules: &[Rule {
            message: "beforeTaskId cannot be combined with parentTaskId or sectionPath",
            holds: |m| {
                let sections = m
                    .get("sectionPath")
                    .and_then(Value::as_array)
                    .is_some_and(|a| !a.is_empty());
                !(truthy(m, "beforeTaskId") && (truthy(m, "parentTaskId") || sections))
            },
        }],
        output: || {
            object(
                json!({"taskId": {"type": "string"}, "etag": {"type": "string"}}),
                &["taskId", "etag"],
            )
        },
        legacy: false,
    },
    Spec {
        name: "task.update",
        title: "Update a task",
        description: "Update a task in-place (minimal diff). You can update status/title and/or its decoded bodyMarkdown (stored on disk as an indented blockquote). If taskId is omitted, you must set allowDefaultTarget=true and provide ifMatch; the server will target the current doing task, else the first unfinished task.",
        fields: &[
            PLAN_ID,
            optional("taskId", TASK_ID),
            optional("status", Kind::Enum(STATUSES)),
            optional("title", Kind::Str),
            optional("bodyMarkdown", Kind::Str),
            optional("clearBody", Kind::Bool),
            optional("allowDefaultTarget", Kind::Bool),
            optional("ifMatch", Kind::Str),
        ],
        rules: &[
            BODY_OR_CLEAR,
            Rule {
                message: "At least one of status, title, bodyMarkdown, or clearBody is required",
                holds: |m| {
                    has(m, "status")
                        || has(m, "title")
                        || has(m, "bodyMarkdown")
                        || truthy(m, "clearBody")
                },
            },
        ],
        output: || {
            object(
                json!({"etag": {"type": "string"}, "taskId": {"type": "string"}}),
                &["etag", "taskId"],
            )
        },
        legacy: false,
    },
    Spec {
        name: "task.delete",
        title: "Delete a task",
        description: "Delete a task (and its indented block) from a plan.",
        fields: &[
            PLAN_ID,
            required("taskId", TASK_ID),
            optional("ifMatch", Kind::Str),
        ],
        rules: &[],
        output: || object(json!({"etag": {"type": "string"}}), &["etag"]),
        legacy: false,
    },
    Spec {
        name: "task.search",
        title: "Search tasks",
        description: "Search tasks by title substring (case-insensitive) within a plan.",
        fields: &[
            PLAN_ID,
            required("query", Kind::Str),
            optional("status", Kind::Enum(STATUSES)),
            optional("limit", Kind::Int(1, 500)),
        ],
        rules: &[],
        output: || {
            object(
                json!({"hits": {"type": "array", "items": {"type": "object", "properties": {"planId": {"type": "string"}, "taskId": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "string", "enum": STATUSES}, "sectionPath": {"type": "array", "items": {"type": "string"}}}, "required": ["planId", "taskId", "title", "status", "sectionPath"], "additionalProperties": false}}}),
                &["hits"],
            )
        },
        legacy: false,
    },
    Spec {
        name: "doc.validate",
        title: "Validate plan docs",
        description: "Validate a plan markdown file against long-term-plan-md v1 format.",
        fields: &[PLAN_ID],
        rules: &[],
        output: || {
            let diagnostic = json!({"type": "array", "items": {"type": "object", "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "line": {"type": "integer", "minimum": 0}}, "required": ["code", "message"], "additionalProperties": false}});
            object(
                json!({"errors": diagnostic, "warnings": diagnostic}),
                &["errors", "warnings"],
            )
        },
        legacy: true,
    },
    Spec {
        name: "doc.repair",
        title: "Repair plan docs",
        description: "Attempt a safe, explicit repair of a plan markdown file (e.g., add header, add missing ids).",
        fields: &[
            PLAN_ID,
            required(
                "actions",
                Kind::EnumArray(&["addFormatHeader", "addMissingIds"]),
            ),
            optional("dryRun", Kind::Bool),
            optional("ifMatch", Kind::Str),
        ],
        rules: &[],
        output: || {
            object(
                json!({"etag": {"type": "string"}, "applied": {"type": "object", "properties": {"addFormatHeader": {"type": "boolean"}, "addMissingIds": {"type": "number"}}, "required": ["addFormatHeader", "addMissingIds"], "additionalProperties": false}}),
                &["etag", "applied"],
            )
        },
        legacy: true,
    },
];

fn to_object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

impl Spec {
    fn tool(&self) -> Tool {
        Tool::new(
            self.name,
            self.description,
            Arc::new(input_schema(self.fields)),
        )
        .with_title(self.title)
        .with_raw_output_schema(to_object((self.output)()))
    }
}

/// The names of the plans tools, in the reference's order.
pub(crate) fn tool_names(legacy_doc_tools: bool) -> Vec<&'static str> {
    SPECS
        .iter()
        .filter(|s| legacy_doc_tools || !s.legacy)
        .map(|s| s.name)
        .collect()
}

/// The tool definitions (for servers that list tools themselves).
pub(crate) fn tools(legacy_doc_tools: bool) -> Vec<Tool> {
    SPECS
        .iter()
        .filter(|s| legacy_doc_tools || !s.legacy)
        .map(Spec::tool)
        .collect()
}

/// Calls tool `name` with raw arguments.
/// `None` if there is no such tool.
pub fn call(
    name: &str,
    plans: &PlanFiles,
    arguments: Option<&JsonObject>,
    legacy_doc_tools: bool,
) -> Option<CallToolResult> {
    SPECS
        .iter()
        .filter(|s| legacy_doc_tools || !s.legacy)
        .find(|s| s.name == name)
        .map(|spec| call_spec(spec, plans, arguments))
}

fn call_spec(spec: &Spec, plans: &PlanFiles, arguments: Option<&JsonObject>) -> CallToolResult {
    match check_arguments(spec.name, spec.fields, spec.rules, arguments) {
        Ok(args) => match run(spec.name, plans, &Args(args)) {
            Ok(result) => result,
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        },
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

/// Checked arguments.
struct Args(Map<String, Value>);

impl Args {
    fn str(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }
    fn plan_id(&self) -> &str {
        self.str("planId").unwrap_or_default()
    }
    fn flag(&self, key: &str) -> bool {
        self.0.get(key).and_then(Value::as_bool).unwrap_or(false)
    }
    fn status(&self) -> Option<Status> {
        self.str("status").and_then(Status::parse)
    }
    fn strings(&self, key: &str) -> Option<Vec<String>> {
        self.0.get(key).and_then(Value::as_array).map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect()
        })
    }
}

/// The success result: pretty JSON text and the same object as structured content.
fn success<T: Serialize>(value: &T) -> Result<CallToolResult, String> {
    success_sized(value, 1024)
}

/// [`success`] for a large value whose pretty JSON takes about `capacity` bytes.
fn success_sized<T: Serialize>(value: &T, capacity: usize) -> Result<CallToolResult, String> {
    let text = json::to_string_pretty(value, capacity).map_err(|e| e.to_string())?;
    let structured = serde_json::to_value(value).map_err(|e| e.to_string())?;
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    Ok(result)
}

fn run(name: &str, plans: &PlanFiles, a: &Args) -> Result<CallToolResult, String> {
    let plan_id = a.plan_id();
    match name {
        "plan.list" => success(&plans.list_plans(a.str("query")).map_err(|e| e.0)?),
        "plan.get" => plans
            .get_plan(
                plan_id,
                a.str("view").and_then(View::parse),
                a.flag("includeTaskBodies"),
                a.flag("includePlanBody"),
                |got| success_sized(got, got.plan.json_size_hint()),
            )
            .map_err(|e| e.0)?,
        "plan.create" => success(
            &plans
                .create_plan(
                    plan_id,
                    a.str("title").unwrap_or_default(),
                    a.str("template").and_then(Template::parse),
                    a.str("bodyMarkdown"),
                )
                .map_err(|e| e.0)?,
        ),
        "plan.update" => success(
            &plans
                .update_plan(&PlanUpdate {
                    plan_id,
                    title: a.str("title"),
                    body: a.str("bodyMarkdown"),
                    clear_body: a.flag("clearBody"),
                    if_match: a.str("ifMatch"),
                })
                .map_err(|e| e.0)?,
        ),
        "task.get" => success(
            &plans
                .get_task(
                    plan_id,
                    a.str("taskId"),
                    a.0.get("includeBody").and_then(Value::as_bool),
                )
                .map_err(|e| e.0)?,
        ),
        "task.add" => {
            let sections = a.strings("sectionPath");
            let add = TaskAdd {
                plan_id,
                task: NewTask {
                    title: a.str("title").unwrap_or_default(),
                    status: a.status(),
                    body: a.str("bodyMarkdown"),
                    section_path: sections.as_deref(),
                    parent_task_id: a.str("parentTaskId"),
                    before_task_id: a.str("beforeTaskId"),
                },
                if_match: a.str("ifMatch"),
            };
            success(&plans.add_task(&add).map_err(|e| e.0)?)
        }
        "task.update" => success(
            &plans
                .update_task(&TaskUpdate {
                    plan_id,
                    task_id: a.str("taskId"),
                    status: a.status(),
                    title: a.str("title"),
                    body: a.str("bodyMarkdown"),
                    clear_body: a.flag("clearBody"),
                    allow_default_target: a.flag("allowDefaultTarget"),
                    if_match: a.str("ifMatch"),
                })
                .map_err(|e| e.0)?,
        ),
        "task.delete" => success(
            &plans
                .delete_task(
                    plan_id,
                    a.str("taskId").unwrap_or_default(),
                    a.str("ifMatch"),
                )
                .map_err(|e| e.0)?,
        ),
        "task.search" => success(
            &plans
                .search_tasks(
                    plan_id,
                    a.str("query").unwrap_or_default(),
                    a.status(),
                    a.0.get("limit").and_then(Value::as_f64),
                )
                .map_err(|e| e.0)?,
        ),
        "doc.validate" => success(&plans.validate_doc(plan_id).map_err(|e| e.0)?),
        "doc.repair" => {
            let actions = a
                .strings("actions")
                .unwrap_or_default()
                .iter()
                .filter_map(|s| Action::parse(s))
                .collect();
            success(
                &plans
                    .repair_doc(&Repair {
                        plan_id,
                        actions,
                        dry_run: a.flag("dryRun"),
                        if_match: a.str("ifMatch"),
                    })
                    .map_err(|e| e.0)?,
            )
        }
        other => Err(format!("MCP error -32602: Tool {other} not found")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_legacy_tools() {
        assert_eq!(
            tool_names(false),
            [
                "plan.list",
                "plan.get",
                "plan.create",
                "plan.update",
                "task.get",
                "task.add",
                "task.update",
                "task.delete",
                "task.search"
            ]
        );
        assert_eq!(tool_names(true).len(), 11);
    }

    #[test]
    fn calls_through_the_api() {
        let dir = tempfile::tempdir().unwrap();
        let plans = PlanFiles::new(dir.path(), ".long-term-plan");
        let args = |v: Value| v.as_object().cloned();
        let created = call(
            "plan.create",
            &plans,
            args(json!({"planId": "p", "title": "P"})).as_ref(),
            false,
        )
        .unwrap();
        assert_eq!(created.is_error, Some(false));
        assert_eq!(
            created.structured_content,
            Some(json!({"planId": "p", "path": ".long-term-plan/p.md"}))
        );
        let added = call(
            "task.add",
            &plans,
            args(json!({"planId": "p", "title": "T", "sectionPath": ["Inbox"]})).as_ref(),
            false,
        )
        .unwrap();
        let id = added.structured_content.unwrap()["taskId"]
            .as_str()
            .unwrap()
            .to_owned();
        let refused = call(
            "task.add",
            &plans,
            args(json!({"planId": "p", "title": "T", "beforeTaskId": id, "parentTaskId": id}))
                .as_ref(),
            false,
        )
        .unwrap();
        assert_eq!(refused.is_error, Some(true));
        assert!(
            call(
                "doc.validate",
                &plans,
                args(json!({"planId": "p"})).as_ref(),
                false
            )
            .is_none()
        );
        let validated = call(
            "doc.validate",
            &plans,
            args(json!({"planId": "p"})).as_ref(),
            true,
        )
        .unwrap();
        assert_eq!(
            validated.structured_content,
            Some(json!({"errors": [], "warnings": []}))
        );
        let missing = call(
            "task.get",
            &plans,
            args(json!({"planId": "p", "taskId": "nope"})).as_ref(),
            false,
        )
        .unwrap();
        assert_eq!(missing.is_error, Some(true));
        let text = missing.content[0].as_text().unwrap().text.clone();
        assert_eq!(text, "Task not found: nope");
    }
}
