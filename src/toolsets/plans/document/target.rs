// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Default targeting when no task id is given: the task in progress, else
//! the first unfinished one, in document order.

use crate::toolsets::plans::document::parse::{Plan, Task};
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::status::Status;

/// Whether the default target is for a read or a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `task get` without an id, `task next`: never ambiguous.
    Read,
    /// `task update` without an id: two tasks in progress are ambiguous.
    Write,
}

/// The default task.
pub(crate) fn default_task<'p, 'a>(
    plan: &'p Plan<'a>,
    mode: Mode,
) -> Result<&'p Task<'a>, PlanError> {
    let mut doing = plan.tasks.iter().filter(|t| t.status == Status::Doing);
    if let Some(first) = doing.next() {
        if mode == Mode::Write && doing.next().is_some() {
            return Err("AMBIGUOUS: multiple doing tasks; provide taskId".into());
        }
        return Ok(first);
    }
    plan.tasks
        .iter()
        .find(|t| t.status != Status::Done)
        .ok_or_else(|| "No unfinished tasks in plan".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::plans::document::parse::parse;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn target(body: &str, mode: Mode) -> Result<String, String> {
        let text = format!("{H}\n{body}");
        let plan = parse(&text).plan.unwrap();
        default_task(&plan, mode)
            .map(|t| t.id.to_string())
            .map_err(|e| e.0)
    }

    #[test]
    fn doing_first_then_unfinished() {
        let body = "- [√] a <!-- long-term-plan:id=a -->\n  - [ ] b <!-- long-term-plan:id=b -->\n- [*] c <!-- long-term-plan:id=c -->\n";
        assert_eq!(target(body, Mode::Write).unwrap(), "c");
        let body = "- [√] a <!-- long-term-plan:id=a -->\n  - [ ] b <!-- long-term-plan:id=b -->\n- [ ] c <!-- long-term-plan:id=c -->\n";
        assert_eq!(
            target(body, Mode::Read).unwrap(),
            "b",
            "a child of a done parent counts"
        );
    }

    #[test]
    fn ambiguity_only_for_writes() {
        let body = "- [*] a <!-- long-term-plan:id=a -->\n- [*] b <!-- long-term-plan:id=b -->\n";
        assert_eq!(target(body, Mode::Read).unwrap(), "a");
        assert_eq!(
            target(body, Mode::Write).unwrap_err(),
            "AMBIGUOUS: multiple doing tasks; provide taskId"
        );
    }

    #[test]
    fn nothing_left() {
        assert_eq!(
            target("", Mode::Read).unwrap_err(),
            "No unfinished tasks in plan"
        );
        assert_eq!(
            target("- [√] a <!-- long-term-plan:id=a -->\n", Mode::Write).unwrap_err(),
            "No unfinished tasks in plan"
        );
    }
}
