// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Title search within a plan: case-insensitive substring (JavaScript's
//! `toLowerCase`, no normalisation), optional status filter, a limit.

use serde::Serialize;

use crate::toolsets::plans::document::parse::Plan;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::trim;

/// One hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    /// The plan searched.
    pub(crate) plan_id: String,
    /// The task.
    pub(crate) task_id: String,
    /// Its title.
    pub(crate) title: String,
    /// Its status.
    pub(crate) status: Status,
    /// Its section path.
    pub(crate) section_path: Vec<String>,
}

/// The normalised query: trimmed and lowercased; `None` when blank.
pub(crate) fn normalize_query(query: &str) -> Option<String> {
    let q = trim(query);
    (!q.is_empty()).then(|| q.to_lowercase())
}

/// `max(1, min(500, limit))`, default 50. The limit may be fractional
/// (from the CLI): hits stop once their count reaches it, so 1.5 gives 2.
pub(crate) fn clamp_limit(limit: Option<f64>) -> f64 {
    limit.unwrap_or(50.0).clamp(1.0, 500.0)
}

/// Searches the plan's tasks (first occurrences, document order).
pub fn search(
    plan: &Plan<'_>,
    plan_id: &str,
    query: &str,
    status: Option<Status>,
    limit: f64,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    for task in plan.unique_tasks() {
        if hits.len() as f64 >= limit {
            break;
        }
        if status.is_some_and(|s| s != task.status) {
            continue;
        }
        if !task.title.to_lowercase().contains(query) {
            continue;
        }
        hits.push(Hit {
            plan_id: plan_id.to_owned(),
            task_id: task.id.to_string(),
            title: task.title.to_string(),
            status: task.status,
            section_path: plan
                .section_path(task)
                .iter()
                .map(|s| s.to_string())
                .collect(),
        });
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::plans::document::parse::parse;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn titles(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.title.as_str()).collect()
    }

    #[test]
    fn case_folding_status_and_limit() {
        let text = format!(
            "{H}\n## S\n- [ ] ÄPFEL <!-- long-term-plan:id=a -->\n- [*] äpfel pie <!-- long-term-plan:id=b -->\n- [√] STRASSE <!-- long-term-plan:id=c -->\n- [ ] other <!-- long-term-plan:id=d -->\n"
        );
        let plan = parse(&text).plan.unwrap();
        let q = normalize_query("  äPfel ").unwrap();
        assert_eq!(
            titles(&search(&plan, "p", &q, None, 50.0)),
            ["ÄPFEL", "äpfel pie"]
        );
        assert_eq!(
            titles(&search(&plan, "p", &q, Some(Status::Doing), 50.0)),
            ["äpfel pie"]
        );
        assert_eq!(titles(&search(&plan, "p", &q, None, 1.0)), ["ÄPFEL"]);
        assert_eq!(
            search(&plan, "p", &q, None, clamp_limit(Some(1.5))).len(),
            2
        );
        assert!(search(&plan, "p", &normalize_query("straße").unwrap(), None, 50.0).is_empty());
        let hit = &search(&plan, "p", "other", None, 50.0)[0];
        assert_eq!(
            serde_json::to_string(hit).unwrap(),
            r#"{"planId":"p","taskId":"d","title":"other","status":"todo","sectionPath":["S"]}"#
        );
    }

    #[test]
    fn blank_queries_and_limits() {
        assert_eq!(normalize_query(" \t"), None);
        assert_eq!(clamp_limit(None), 50.0);
        assert_eq!(clamp_limit(Some(0.0)), 1.0);
        assert_eq!(clamp_limit(Some(9999.0)), 500.0);
    }
}
