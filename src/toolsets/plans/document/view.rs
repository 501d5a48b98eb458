// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The JSON shapes of reads, field for field and in the reference's key
//! order: statistics, the tree and flat views of a plan, a single task.
//! Optional keys are left out, never `null`.

use serde::Serialize;
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};

use crate::toolsets::plans::document::parse::{Body, Plan, Task};
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::lines_of;

/// Task counts by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// All task lines.
    pub(crate) total: usize,
    /// `[ ]`
    pub(crate) todo: usize,
    /// `[*]`
    pub(crate) doing: usize,
    /// `[√]`
    pub(crate) done: usize,
}

impl Stats {
    /// Counts the tasks of a parsed plan (which has no duplicate ids, so this
    /// equals [`Stats::of_text`] of its text).
    pub(crate) fn of_plan(plan: &Plan<'_>) -> Self {
        let mut stats = Self::default();
        for task in &plan.tasks {
            stats.count(task.status);
        }
        stats
    }

    fn count(&mut self, status: Status) {
        self.total += 1;
        match status {
            Status::Todo => self.todo += 1,
            Status::Doing => self.doing += 1,
            Status::Done => self.done += 1,
        }
    }

    /// Counts every strict task line of the raw text, parsed or not (so
    /// duplicate ids count twice, as in the reference).
    pub fn of_text(text: &str) -> Self {
        let mut stats = Self::default();
        for task in lines_of(text).filter_map(line::task_line) {
            stats.count(task.status);
        }
        stats
    }
}

/// `{name: "long-term-plan-md", version: "v1"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Format {
    /// Always `long-term-plan-md`.
    pub(crate) name: &'static str,
    /// Always `v1`.
    pub(crate) version: &'static str,
}

/// The format every plan declares.
pub(crate) const FORMAT: Format = Format {
    name: "long-term-plan-md",
    version: "v1",
};

/// A single task, as `task get` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskDetail {
    /// Id.
    pub(crate) id: String,
    /// Title.
    pub(crate) title: String,
    /// Status.
    pub(crate) status: Status,
    /// Section path.
    pub(crate) section_path: Vec<String>,
    /// Parent id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parent_id: Option<String>,
    /// Direct children.
    pub(crate) children_count: usize,
    /// Whether it has a body.
    pub(crate) has_body: bool,
    /// The body, when asked for and present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) body_markdown: Option<String>,
}

/// `tree` or `flat`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// Nested children.
    #[default]
    Tree,
    /// Pre-order rows.
    Flat,
}

impl View {
    /// Parses `tree` or `flat`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        match name {
            "tree" => Some(Self::Tree),
            "flat" => Some(Self::Flat),
            _ => None,
        }
    }
}

/// A plan as `plan get` shows it. It owns the parsed plan and writes the
/// tree or flat view straight from it while serialising, so that no copy of
/// 2,000 tasks is built just to be turned into JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanDetail<'a> {
    /// The plan id.
    pub(crate) plan_id: String,
    /// The parsed plan.
    pub(crate) plan: Plan<'a>,
    /// Counts of the raw text.
    pub(crate) stats: Stats,
    /// The view.
    pub(crate) view: View,
    /// Whether task bodies are included.
    pub(crate) include_task_bodies: bool,
    /// Whether the plan body is included.
    pub(crate) include_plan_body: bool,
}

impl PlanDetail<'_> {
    /// A generous guess of the size of this detail as pretty JSON, so that
    /// writing it does not copy it over and over as it grows.
    pub(crate) fn json_size_hint(&self) -> usize {
        let body_len = |body: Option<&Body<'_>>| body.map_or(0, |b| b.markdown.len());
        let task_bodies: usize = if self.include_task_bodies {
            self.plan
                .tasks
                .iter()
                .map(|t| body_len(t.body.as_ref()))
                .sum()
        } else {
            0
        };
        let plan_body = if self.include_plan_body {
            body_len(self.plan.body.as_ref())
        } else {
            0
        };
        // About 230 bytes per task in a shallow tree; escapes may double a body.
        1024 + 320 * self.plan.tasks.len() + 2 * (task_bodies + plan_body)
    }
}

impl Serialize for PlanDetail<'_> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let plan = &self.plan;
        let mut out = serializer.serialize_struct("PlanDetail", 8)?;
        out.serialize_field("planId", &self.plan_id)?;
        out.serialize_field("title", &*plan.title)?;
        out.serialize_field("format", &FORMAT)?;
        out.serialize_field("stats", &self.stats)?;
        out.serialize_field("view", &self.view)?;
        out.serialize_field("hasBody", &plan.body.is_some())?;
        let bodies = self.include_task_bodies;
        match self.view {
            View::Tree => out.serialize_field(
                "tasks",
                &Nodes {
                    plan,
                    indexes: &plan.roots,
                    bodies,
                },
            )?,
            View::Flat => out.serialize_field("tasks", &Rows { plan, bodies })?,
        }
        if let Some(body) = plan.body.as_ref().filter(|_| self.include_plan_body) {
            out.serialize_field("bodyMarkdown", &*body.markdown)?;
        }
        out.end()
    }
}

/// Tasks of the tree view: these tasks, each with its children.
struct Nodes<'a> {
    plan: &'a Plan<'a>,
    indexes: &'a [usize],
    bodies: bool,
}

impl Serialize for Nodes<'_> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut seq = serializer.serialize_seq(Some(self.indexes.len()))?;
        for &index in self.indexes {
            seq.serialize_element(&Row {
                plan: self.plan,
                task: &self.plan.tasks[index],
                bodies: self.bodies,
                children: true,
            })?;
        }
        seq.end()
    }
}

/// Tasks of the flat view: every task in document order.
struct Rows<'a> {
    plan: &'a Plan<'a>,
    bodies: bool,
}

impl Serialize for Rows<'_> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut seq = serializer.serialize_seq(Some(self.plan.tasks.len()))?;
        for task in &self.plan.tasks {
            seq.serialize_element(&Row {
                plan: self.plan,
                task,
                bodies: self.bodies,
                children: false,
            })?;
        }
        seq.end()
    }
}

/// One task: `{id, title, status, sectionPath, parentId?, hasBody, children?, bodyMarkdown?}`.
struct Row<'a> {
    plan: &'a Plan<'a>,
    task: &'a Task<'a>,
    bodies: bool,
    children: bool,
}

impl Serialize for Row<'_> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let (plan, task) = (self.plan, self.task);
        let mut out = serializer.serialize_struct("Task", 8)?;
        out.serialize_field("id", &*task.id)?;
        out.serialize_field("title", &*task.title)?;
        out.serialize_field("status", &task.status)?;
        out.serialize_field("sectionPath", plan.section_path(task))?;
        if let Some(parent) = plan.parent_id(task) {
            out.serialize_field("parentId", parent)?;
        }
        out.serialize_field("hasBody", &task.body.is_some())?;
        if self.children {
            out.serialize_field(
                "children",
                &Nodes {
                    plan,
                    indexes: &task.children,
                    bodies: self.bodies,
                },
            )?;
        }
        if let Some(body) = task.body.as_ref().filter(|_| self.bodies) {
            out.serialize_field("bodyMarkdown", &*body.markdown)?;
        }
        out.end()
    }
}

fn body_if(task: &Task<'_>, include: bool) -> Option<String> {
    task.body
        .as_ref()
        .filter(|_| include)
        .map(|b| b.markdown.to_string())
}

/// One task in detail.
pub(crate) fn detail<'a>(plan: &Plan<'a>, task: &Task<'a>, include_body: bool) -> TaskDetail {
    TaskDetail {
        id: task.id.to_string(),
        title: task.title.to_string(),
        status: task.status,
        section_path: plan
            .section_path(task)
            .iter()
            .map(|s| s.to_string())
            .collect(),
        parent_id: plan.parent_id(task).map(str::to_owned),
        children_count: task.children.len(),
        has_body: task.body.is_some(),
        body_markdown: body_if(task, include_body),
    }
}

/// A plan in detail, in the given view. Its statistics come from the
/// parsed tasks: for a plan that parses they equal the raw-text count.
pub fn plan_detail<'a>(
    plan_id: &str,
    plan: Plan<'a>,
    view: View,
    include_task_bodies: bool,
    include_plan_body: bool,
) -> PlanDetail<'a> {
    PlanDetail {
        plan_id: plan_id.to_owned(),
        stats: Stats::of_plan(&plan),
        plan,
        view,
        include_task_bodies,
        include_plan_body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::plans::document::parse::parse;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    #[test]
    fn tree_and_flat_json() {
        let text = format!(
            "{H}\n# P\n> why\n## S\n- [*] a <!-- long-term-plan:id=a -->\n  > body\n  - [√] b <!-- long-term-plan:id=b -->\n- [ ] c <!-- long-term-plan:id=c -->\n"
        );
        let plan = parse(&text).plan.unwrap();
        assert_eq!(Stats::of_plan(&plan), Stats::of_text(&text));
        let detail = plan_detail("p", plan.clone(), View::Tree, true, true);
        insta::assert_snapshot!(serde_json::to_string_pretty(&detail).unwrap());
        let detail = plan_detail("p", plan.clone(), View::Flat, false, false);
        insta::assert_snapshot!(serde_json::to_string_pretty(&detail).unwrap());
        let task = detail_json(&plan, "b");
        assert_eq!(
            task,
            r#"{"id":"b","title":"b","status":"done","sectionPath":["S"],"parentId":"a","childrenCount":0,"hasBody":false}"#
        );
    }

    fn detail_json(plan: &Plan, id: &str) -> String {
        serde_json::to_string(&detail(plan, plan.task(id).unwrap(), true)).unwrap()
    }

    #[test]
    fn stats_count_raw_lines() {
        let text = format!(
            "{H}\n- [ ] a <!-- long-term-plan:id=d -->\n- [√] b <!-- long-term-plan:id=d -->\n- [x] c\n- [*] e <!-- long-term-plan:id=e -->"
        );
        assert_eq!(
            Stats::of_text(&text),
            Stats {
                total: 3,
                todo: 1,
                doing: 1,
                done: 1
            }
        );
    }
}
