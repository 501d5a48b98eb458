// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `set_detailed_goal`: the description (why, what, how, context).

use super::preconditions::open_plan;
use super::{Edit, Refused};
use crate::toolsets::commit::document::grammar::{self, Structure};
use crate::toolsets::commit::document::{Limits, Reading};

/// The description as it will be written: `\r\n` as `\n`, no trailing
/// whitespace, no blank lines at either end, blank runs as one; refused
/// when empty, with a control character other than tab, or with a
/// structure line (named with its line in `text`, 1-based).
pub(crate) fn normalise(text: &str) -> Result<String, Refused> {
    let mut kept: Vec<&str> = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let number = index + 1;
        let line = line.strip_suffix('\r').unwrap_or(line).trim_end();
        if let Some(c) = line.chars().find(|&c| grammar::is_forbidden_control(c)) {
            return Err(Refused::because(format!(
                "description line {number} contains the control character {}; only tab is allowed. Nothing was changed.",
                grammar::code(c)
            )));
        }
        if let Some(kind) = grammar::structure(line) {
            let fix = match kind {
                Structure::Task => "use set_plan",
                Structure::Constraint => "use set_constraints",
                Structure::Direction => {
                    "the direction is set by set_plan, finish_job and unfinish_job"
                }
                Structure::OldHeading => {
                    "give constraints to set_constraints and tasks to set_plan"
                }
            };
            return Err(Refused::because(format!(
                "description line {number} is {}; {fix}. Nothing was changed.",
                kind.name()
            )));
        }
        if !(line.is_empty() && kept.last().is_none_or(|l| l.is_empty())) {
            kept.push(line);
        }
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    match kept.is_empty() {
        true => Err(Refused::because(
            "the description is empty; describe why, what and how. Nothing was changed.",
        )),
        false => Ok(kept.join("\n")),
    }
}

/// `set_detailed_goal(description)` on the plan as read.
pub(crate) fn set_description(
    reading: &Reading,
    text: &str,
    limits: &Limits,
) -> Result<Edit, Refused> {
    let before = open_plan(reading)?;
    let description = normalise(text)?;
    let lines = description.split('\n').count();
    let mut document = before.clone();
    document.description = Some(description);
    let action = format!("Description set ({lines} {}).", plural(lines, "line"));
    Edit::write(
        Some(before),
        document,
        vec![action],
        "Description unchanged.",
        limits,
    )
}

/// `1 line`, `2 lines`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    match n {
        1 => word.to_owned(),
        _ => format!("{word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    #[test]
    fn normalises_then_writes() {
        let edit = set_description(
            &reading(STAGE_1),
            "\r\n\n  Why: x.  \r\n\n\n\n\tHow: y.\t\n\n",
            &limits(),
        )
        .unwrap();
        assert_eq!(edit.actions, ["Description set (3 lines)."]);
        assert_eq!(
            edit.text.as_deref(),
            Some("feat(api): Add x\n\n  Why: x.\n\n\tHow: y.\n")
        );
        let one = set_description(&reading(STAGE_1), "Why.", &limits()).unwrap();
        assert_eq!(one.actions, ["Description set (1 line)."]);
        let same = set_description(&reading(STAGE_2), "Why. \n", &limits()).unwrap();
        assert_eq!(
            (same.actions, same.text),
            (vec!["Description unchanged.".to_owned()], None)
        );
        // Keeps the other sections.
        let edit = set_description(&reading(STAGE_4), "New why.", &limits()).unwrap();
        assert_eq!(edit.text.unwrap(), STAGE_4.replace("Why.", "New why."));
    }

    #[test]
    fn refusals() {
        let cases = [
            (
                " \n\t\n",
                "the description is empty; describe why, what and how. Nothing was changed.",
            ),
            (
                "a\n\u{1b}[1m",
                "description line 2 contains the control character U+001B; only tab is allowed. Nothing was changed.",
            ),
            (
                "a\rb",
                "description line 1 contains the control character U+000D; only tab is allowed. Nothing was changed.",
            ),
            (
                "a\n\n- [ ]: t",
                "description line 3 is a task line; use set_plan. Nothing was changed.",
            ),
            (
                "- Never: x",
                "description line 1 is a constraint line; use set_constraints. Nothing was changed.",
            ),
            (
                "~~~ EXECUTE ~~~",
                "description line 1 is a direction line; the direction is set by set_plan, finish_job and unfinish_job. Nothing was changed.",
            ),
            (
                "Tasks [ ]:",
                "description line 1 is an old-format heading; give constraints to set_constraints and tasks to set_plan. Nothing was changed.",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                set_description(&reading(STAGE_1), text, &limits()),
                Err(Refused::because(message)),
                "{text:?}"
            );
        }
        assert_eq!(
            set_description(&reading(STAGE_1), &"x".repeat(400), &limits()),
            Err(Refused::because(
                "the plan would be 419 bytes; the limit is 400 ([commit] max_input_bytes). Shorten it; nothing was changed."
            ))
        );
    }

    #[test]
    fn preconditions() {
        assert_eq!(
            set_description(&Reading::Empty, "x", &limits()),
            Err(Refused::because(
                "There is no goal yet; set it first with set_overarching_goal. Nothing was changed."
            ))
        );
        assert_eq!(
            set_description(&reading(STAGE_5), "x", &limits()),
            Err(Refused::because(
                "The job is finished; start the next change with set_overarching_goal and start_new: true, or reopen this job with unfinish_job. Nothing was changed."
            ))
        );
        assert_eq!(
            set_description(&reading("notes"), "x", &limits()),
            Err(Refused::NotAPlan)
        );
    }
}
