// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `set_constraints`: replaces the constraints; `[]` removes the section.

use super::preconditions::open_plan;
use super::{Edit, Refused};
use crate::toolsets::commit::document::grammar::{self, check_text};
use crate::toolsets::commit::document::{Constraint, Limits, Prefix, Reading};

/// The most constraints one call sets.
pub(crate) const MAX_CONSTRAINTS: usize = 50;

/// One constraint as given: trimmed, one leading `- ` removed, then
/// `^(Do not|Never|...): (\S.*)$`.
fn constraint(number: usize, given: &str, limits: &Limits) -> Result<Constraint, Refused> {
    let trimmed = given.trim();
    let line = format!("- {}", trimmed.strip_prefix("- ").unwrap_or(trimmed));
    let wrong = |why: String| {
        Refused::because(format!(
            "constraint {number} (\"{}\"): {why}. Nothing was changed.",
            crate::runtime::text::clip(given)
        ))
    };
    let Some(prefix) = grammar::constraint_prefix(&line) else {
        return Err(wrong(format!(
            "start it with one of the prefixes {} and \": \", e.g. \"Do not: touch the API\"",
            Prefix::list()
        )));
    };
    let after = &line[2 + prefix.as_str().len() + 1..];
    let text = match after.strip_prefix(' ') {
        Some(text) if !text.is_empty() && !text.starts_with(char::is_whitespace) => text,
        _ => {
            return Err(wrong(format!(
                "put one space after \"{}:\", then the text",
                prefix.as_str()
            )));
        }
    };
    check_text("its text", text, limits.max_item_length).map_err(wrong)?;
    Ok(Constraint {
        prefix,
        text: text.to_owned(),
    })
}

/// `set_constraints(constraints)` on the plan as read.
pub(crate) fn set_constraints(
    reading: &Reading,
    given: &[String],
    limits: &Limits,
) -> Result<Edit, Refused> {
    let before = open_plan(reading)?;
    if given.len() > MAX_CONSTRAINTS {
        return Err(Refused::because(format!(
            "at most {MAX_CONSTRAINTS} constraints; {} were given. Nothing was changed.",
            given.len()
        )));
    }
    let constraints = given
        .iter()
        .enumerate()
        .map(|(index, c)| constraint(index + 1, c, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let action = match constraints.len() {
        0 => "Constraints removed.".to_owned(),
        n => format!("Constraints set ({n})."),
    };
    let mut document = before.clone();
    document.constraints = constraints;
    Edit::write(
        Some(before),
        document,
        vec![action],
        "Constraints unchanged.",
        limits,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn sets_keeps_order_and_duplicates_or_removes() {
        let edit = set_constraints(
            &reading(STAGE_2),
            &strings(&[" - Never: x ", "Do not: API calls", "Never: x"]),
            &limits(),
        )
        .unwrap();
        assert_eq!(edit.actions, ["Constraints set (3)."]);
        assert_eq!(
            edit.text.as_deref(),
            Some("feat(api): Add x\n\nWhy.\n\n- Never: x\n- Do not: API calls\n- Never: x\n")
        );
        let removed = set_constraints(&reading(STAGE_3), &[], &limits()).unwrap();
        assert_eq!(removed.actions, ["Constraints removed."]);
        assert_eq!(removed.text.as_deref(), Some(STAGE_2));
        let none = set_constraints(&reading(STAGE_2), &[], &limits()).unwrap();
        assert_eq!(
            (none.actions, none.text),
            (vec!["Constraints unchanged.".to_owned()], None)
        );
        let same =
            set_constraints(&reading(STAGE_3), &strings(&["Do not: break y"]), &limits()).unwrap();
        assert_eq!(same.actions, ["Constraints unchanged."]);
    }

    #[test]
    fn refusals() {
        let cases = [
            (
                "Should: x",
                "constraint 1 (\"Should: x\"): start it with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden and \": \", e.g. \"Do not: touch the API\". Nothing was changed.",
            ),
            (
                "do not: x",
                "constraint 1 (\"do not: x\"): start it with one of the prefixes Do not, Never, Avoid, Decide against, Must not, Cannot, Forbidden and \": \", e.g. \"Do not: touch the API\". Nothing was changed.",
            ),
            (
                "Never:x",
                "constraint 1 (\"Never:x\"): put one space after \"Never:\", then the text. Nothing was changed.",
            ),
            (
                "Never:",
                "constraint 1 (\"Never:\"): put one space after \"Never:\", then the text. Nothing was changed.",
            ),
            (
                "Never:  x",
                "constraint 1 (\"Never:  x\"): put one space after \"Never:\", then the text. Nothing was changed.",
            ),
            (
                "Never: a\nb",
                "constraint 1 (\"Never: a\\nb\"): its text must be one line. Nothing was changed.",
            ),
            (
                "Never: a\tb",
                "constraint 1 (\"Never: a\\tb\"): its text contains a tab; a tab is allowed only in description lines. Nothing was changed.",
            ),
            (
                "Never: 123456789012345678901",
                "constraint 1 (\"Never: 123456789012345678901\"): its text is 21 characters; the limit is 20. Nothing was changed.",
            ),
        ];
        for (given, message) in cases {
            assert_eq!(
                set_constraints(&reading(STAGE_2), &strings(&[given]), &limits()),
                Err(Refused::because(message)),
                "{given:?}"
            );
        }
        let many = vec!["Never: x".to_owned(); 51];
        assert_eq!(
            set_constraints(&reading(STAGE_2), &many, &limits()),
            Err(Refused::because(
                "at most 50 constraints; 51 were given. Nothing was changed."
            ))
        );
        assert_eq!(
            set_constraints(&Reading::Empty, &[], &limits()),
            Err(crate::toolsets::commit::edit::preconditions::no_goal())
        );
        assert_eq!(
            set_constraints(&reading("x"), &[], &limits()),
            Err(Refused::NotAPlan)
        );
    }
}
