// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The templates the server writes. Guidance sits in HTML comments; the
//! plan template holds no checkbox line and no URL, so an untouched plan has
//! no acceptance criterion and gives Expecto nothing. A file is an
//! "untouched template" when its bytes equal the template's exactly.

/// `plan.md` as the server creates it.
pub(crate) const PLAN: &str = "# Plan

## Context

<!-- Why this work is needed and what exists today. -->

## Goals / Non-Goals

<!-- What this work will do, and what it will deliberately not do. -->

## Acceptance Criteria

<!-- One testable criterion per line, as an unchecked Markdown checkbox
(a dash, a space, [ ], a space, the criterion). The server ticks a criterion
when a task's results list it as satisfied. -->

## Constraints & Risks

<!-- Limits, dependencies, and what could go wrong. -->

## References

<!-- Links to tickets, pages and documents; Expecto fetches the Jira and
Confluence ones. -->
";

/// `task.md` as the server creates it: `task_name` empty in the front matter.
pub(crate) const TASK: &str = "---
task_name:
---

# Task

## Intent

<!-- What this task achieves, and which acceptance criteria it moves forward.
Set task_name above to a short kebab-case name, e.g. implement-sum-function. -->

## Steps

<!-- The concrete steps, each small and safe. -->

## Validation

<!-- How we will know it worked: tests, commands, checks. -->
";

/// `review-task.md` as the server creates it.
pub(crate) const REVIEW_TASK: &str = "# Review Task

## Items

<!-- One item per actionable review comment or thread, with its permalink. -->

## Steps

<!-- The concrete changes that address the items. -->

## Validation

<!-- How we will check that each item is resolved. -->
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::workflow::files::{atlassian, criteria, task_name};

    #[test]
    fn the_plan_template_has_the_sections_and_no_criterion_or_url() {
        for heading in [
            "# Plan\n",
            "\n## Context\n",
            "\n## Goals / Non-Goals\n",
            "\n## Acceptance Criteria\n",
            "\n## Constraints & Risks\n",
            "\n## References\n",
        ] {
            assert!(PLAN.contains(heading), "{heading}");
        }
        assert!(criteria::criteria(PLAN.as_bytes()).is_empty());
        assert!(!PLAN.contains("http"), "no URL");
        assert!(atlassian::urls(PLAN, &[]).is_empty());
    }

    #[test]
    fn the_task_template_has_front_matter_with_an_empty_name_first() {
        assert!(TASK.starts_with("---\ntask_name:\n---\n"));
        assert_eq!(task_name::task_name(TASK.as_bytes()), "");
        for heading in [
            "\n# Task\n",
            "\n## Intent\n",
            "\n## Steps\n",
            "\n## Validation\n",
        ] {
            assert!(TASK.contains(heading), "{heading}");
        }
    }

    #[test]
    fn the_review_task_template_has_its_sections() {
        assert!(REVIEW_TASK.starts_with("# Review Task\n"));
        for heading in ["\n## Items\n", "\n## Steps\n", "\n## Validation\n"] {
            assert!(REVIEW_TASK.contains(heading), "{heading}");
        }
    }
}
