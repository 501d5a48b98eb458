// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The JSON shapes of reads, field for field and in the reference's key
//! order: statistics, the tree and flat views of a plan, a single task.
//! Optional keys are left out, never `null`.

use serde::Serialize;

use super::line;
use super::parse::{Plan, Task};
use super::status::Status;
use super::text::split_lines;

/// Task counts by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// All task lines.
    pub total: usize,
    /// `[ ]`
    pub todo: usize,
    /// `[*]`
    pub doing: usize,
    /// `[√]`
    pub done: usize,
}

impl Stats {
    /// Counts every strict task line of the raw text, parsed or not (so
    /// duplicate ids count twice, as in the reference).
    pub fn of_text(text: &str) -> Self {
        let mut stats = Self::default();
        for task in split_lines(text).into_iter().filter_map(line::task_line) {
            stats.total += 1;
            match task.status {
                Status::Todo => stats.todo += 1,
                Status::Doing => stats.doing += 1,
                Status::Done => stats.done += 1,
            }
        }
        stats
    }
}

/// `{name: "long-term-plan-md", version: "v1"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Format {
    /// Always `long-term-plan-md`.
    pub name: &'static str,
    /// Always `v1`.
    pub version: &'static str,
}

/// The format every plan declares.
pub const FORMAT: Format = Format {
    name: "long-term-plan-md",
    version: "v1",
};

/// A task in the tree view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeTask {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Status.
    pub status: Status,
    /// Section path (headings below the H1).
    pub section_path: Vec<String>,
    /// Parent id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// Whether it has a body.
    pub has_body: bool,
    /// Children.
    pub children: Vec<TreeTask>,
    /// The body, when asked for and present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_markdown: Option<String>,
}

/// A task in the flat view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlatTask {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Status.
    pub status: Status,
    /// Section path.
    pub section_path: Vec<String>,
    /// Parent id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// Whether it has a body.
    pub has_body: bool,
    /// The body, when asked for and present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_markdown: Option<String>,
}

/// A single task, as `task get` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskDetail {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Status.
    pub status: Status,
    /// Section path.
    pub section_path: Vec<String>,
    /// Parent id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// Direct children.
    pub children_count: usize,
    /// Whether it has a body.
    pub has_body: bool,
    /// The body, when asked for and present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_markdown: Option<String>,
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
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "tree" => Some(Self::Tree),
            "flat" => Some(Self::Flat),
            _ => None,
        }
    }
}

/// The tasks of a plan in one of the views.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Tasks {
    /// Top-level tasks with nested children.
    Tree(Vec<TreeTask>),
    /// Every task, in document order.
    Flat(Vec<FlatTask>),
}

/// A plan as `plan get` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanDetail {
    /// The plan id.
    pub plan_id: String,
    /// The parser's title.
    pub title: String,
    /// The format.
    pub format: Format,
    /// Counts from the raw text.
    pub stats: Stats,
    /// The view.
    pub view: View,
    /// Whether the plan has a body.
    pub has_body: bool,
    /// The tasks.
    pub tasks: Tasks,
    /// The plan body, when asked for and present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_markdown: Option<String>,
}

fn body_if(task: &Task, include: bool) -> Option<String> {
    task.body
        .as_ref()
        .filter(|_| include)
        .map(|b| b.markdown.clone())
}

/// The tree view, built bottom-up without recursion (plans may nest deeply).
pub fn tree(plan: &Plan, include_bodies: bool) -> Vec<TreeTask> {
    let mut built: Vec<Option<TreeTask>> = vec![None; plan.tasks.len()];
    for (index, task) in plan.tasks.iter().enumerate().rev() {
        let children = task
            .children
            .iter()
            .filter_map(|&c| built[c].take())
            .collect();
        built[index] = Some(TreeTask {
            id: task.id.clone(),
            title: task.title.clone(),
            status: task.status,
            section_path: plan.section_path(task).to_vec(),
            parent_id: plan.parent_id(task).map(str::to_owned),
            has_body: task.body.is_some(),
            children,
            body_markdown: body_if(task, include_bodies),
        });
    }
    plan.roots.iter().filter_map(|&r| built[r].take()).collect()
}

/// The flat view: every task in document order.
pub fn flat(plan: &Plan, include_bodies: bool) -> Vec<FlatTask> {
    plan.tasks
        .iter()
        .map(|task| FlatTask {
            id: task.id.clone(),
            title: task.title.clone(),
            status: task.status,
            section_path: plan.section_path(task).to_vec(),
            parent_id: plan.parent_id(task).map(str::to_owned),
            has_body: task.body.is_some(),
            body_markdown: body_if(task, include_bodies),
        })
        .collect()
}

/// One task in detail.
pub fn detail(plan: &Plan, task: &Task, include_body: bool) -> TaskDetail {
    TaskDetail {
        id: task.id.clone(),
        title: task.title.clone(),
        status: task.status,
        section_path: plan.section_path(task).to_vec(),
        parent_id: plan.parent_id(task).map(str::to_owned),
        children_count: task.children.len(),
        has_body: task.body.is_some(),
        body_markdown: body_if(task, include_body),
    }
}

/// A plan in detail, in the given view.
pub fn plan_detail(
    plan_id: &str,
    text: &str,
    plan: &Plan,
    view: View,
    include_task_bodies: bool,
    include_plan_body: bool,
) -> PlanDetail {
    PlanDetail {
        plan_id: plan_id.to_owned(),
        title: plan.title.clone(),
        format: FORMAT,
        stats: Stats::of_text(text),
        view,
        has_body: plan.body.is_some(),
        tasks: match view {
            View::Tree => Tasks::Tree(tree(plan, include_task_bodies)),
            View::Flat => Tasks::Flat(flat(plan, include_task_bodies)),
        },
        body_markdown: plan
            .body
            .as_ref()
            .filter(|_| include_plan_body)
            .map(|b| b.markdown.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plans::parse::parse;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    #[test]
    fn tree_and_flat_json() {
        let text = format!(
            "{H}\n# P\n> why\n## S\n- [*] a <!-- long-term-plan:id=a -->\n  > body\n  - [√] b <!-- long-term-plan:id=b -->\n- [ ] c <!-- long-term-plan:id=c -->\n"
        );
        let plan = parse(&text).plan.unwrap();
        let detail = plan_detail("p", &text, &plan, View::Tree, true, true);
        insta::assert_snapshot!(serde_json::to_string_pretty(&detail).unwrap());
        let detail = plan_detail("p", &text, &plan, View::Flat, false, false);
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

    #[test]
    fn deep_trees_build_without_recursion() {
        let mut text = format!("{H}\n");
        for depth in 0..3000 {
            text.push_str(&format!(
                "{}- [ ] t <!-- long-term-plan:id=t{depth} -->\n",
                " ".repeat(depth)
            ));
        }
        let plan = parse(&text).plan.unwrap();
        assert_eq!(plan.depth(), 3000);
        let mut tree = tree(&plan, false);
        assert_eq!(tree.len(), 1);
        // Dismantle iteratively: dropping 3000 nested levels recursively is
        // what the stack guard in the API is for.
        while let Some(mut node) = tree.pop() {
            tree.append(&mut node.children);
        }
    }
}
