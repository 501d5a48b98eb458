// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `verify_plan`: the final alignment check of a valid plan; the diagnosis,
//! preview and (with `migrate`) rewriting of a description that is not one.

use super::goal::header_of;
use super::{Edit, GoalInput, Refused, check_size};
use crate::toolsets::commit::document::joined;
use crate::toolsets::commit::document::migrate::{Impossible, migrate};
use crate::toolsets::commit::document::{Document, Limits, Reading, read};

/// What `verify_plan` answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verified {
    /// An empty description: nothing to verify.
    NothingYet,
    /// A valid plan, to check against the change.
    Valid(Document),
    /// Not a valid plan: what a migration would write, or why none can.
    Invalid(Diagnosis),
    /// Migrated: the edit to write.
    Migrated(Edit),
}

/// What a description that is not a valid plan allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diagnosis {
    /// The text a migration would write, or why none can.
    pub(crate) migration: Result<String, Impossible>,
    /// The plans it joins one after another (`feat: a (finished)`), when it
    /// does (`jj squash`); empty otherwise.
    pub(crate) joined: Vec<String>,
}

/// The diagnosis of `raw`, the migration with the goal, if any.
pub(crate) fn diagnose(raw: &str, goal: Option<&GoalInput>, limits: &Limits) -> Diagnosis {
    let joined = joined::split(raw, limits)
        .map(|plans| plans.iter().map(joined::summary).collect())
        .unwrap_or_default();
    Diagnosis {
        migration: preview(raw, goal, limits),
        joined,
    }
}

/// The migration of `raw` with the goal, if any, as a preview.
pub(crate) fn preview(
    raw: &str,
    goal: Option<&GoalInput>,
    limits: &Limits,
) -> Result<String, Impossible> {
    let header = match goal.map(|g| header_of(g, limits)).transpose() {
        Ok(header) => header.map(|(header, _)| header),
        Err(Refused::Because(why)) => return Err(Impossible(vec![why])),
        Err(Refused::NotAPlan) => None,
    };
    migrate(raw, header.as_ref(), limits)
}

/// `verify_plan(migrate, goal)` on the description `raw`, read as `reading`.
pub(crate) fn verify_plan(
    reading: &Reading,
    raw: &str,
    migrate: bool,
    goal: Option<&GoalInput>,
    limits: &Limits,
) -> Result<Verified, Refused> {
    match (reading, migrate) {
        (Reading::Empty, false) => Ok(Verified::NothingYet),
        (Reading::Empty, true) => Err(Refused::because(
            "Nothing to migrate: the description is empty. Start with set_overarching_goal.",
        )),
        (Reading::Parsed(document), false) => Ok(Verified::Valid(document.clone())),
        (Reading::Parsed(_), true) => Err(Refused::because(
            "Already a valid plan; nothing to migrate. Call verify_plan without migrate to check it.",
        )),
        (Reading::Unknown(_) | Reading::Halted(_), false) => {
            Ok(Verified::Invalid(diagnose(raw, goal, limits)))
        }
        (Reading::Unknown(_) | Reading::Halted(_), true) => {
            let text = preview(raw, goal, limits).map_err(|why| {
                Refused::because(format!(
                    "The description cannot be migrated: {why}. Nothing was changed; fix it by hand, or give a goal when it has no header."
                ))
            })?;
            check_size(&text, limits)?;
            let Reading::Parsed(document) = read(&text, limits) else {
                return Err(Refused::because("the migration did not produce a plan"));
            };
            Ok(Verified::Migrated(Edit {
                document,
                actions: vec!["Description migrated to the plan format.".into()],
                text: Some(text),
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    fn verify(text: &str, migrate: bool, goal: Option<&GoalInput>) -> Result<Verified, Refused> {
        verify_plan(&reading(text), text, migrate, goal, &limits())
    }

    fn invalid(migration: Result<String, Impossible>) -> Result<Verified, Refused> {
        Ok(Verified::Invalid(Diagnosis {
            migration,
            joined: vec![],
        }))
    }

    #[test]
    fn each_state_without_migrate_writes_nothing() {
        assert_eq!(verify("", false, None), Ok(Verified::NothingYet));
        assert!(matches!(
            verify(STAGE_4, false, None),
            Ok(Verified::Valid(_))
        ));
        assert_eq!(
            verify("notes", false, None),
            invalid(Err(Impossible(vec![
                "needs goal: the old text has no header".into()
            ])))
        );
        assert_eq!(
            verify("notes", false, Some(&goal("", "t"))),
            invalid(Ok("feat: t\n\nnotes\n".into()))
        );
        assert_eq!(
            verify("notes", false, Some(&goal("A B", "t"))),
            invalid(Err(Impossible(vec!["goal.scope \"A B\" must be a lowercase word: a letter a-z, then letters, digits or hyphens, or empty for none. Nothing was changed.".into()])))
        );
    }

    #[test]
    fn migrate_writes_a_valid_candidate_or_refuses() {
        let Ok(Verified::Migrated(edit)) = verify("fix(A):  x\nbody", true, None) else {
            panic!("expected a migration");
        };
        assert_eq!(edit.actions, ["Description migrated to the plan format."]);
        assert_eq!(edit.text.as_deref(), Some("fix(a): x\n\nbody\n"));
        assert_eq!(
            verify("notes", true, None),
            Err(Refused::because(
                "The description cannot be migrated: needs goal: the old text has no header. Nothing was changed; fix it by hand, or give a goal when it has no header."
            ))
        );
        assert_eq!(
            verify("", true, None),
            Err(Refused::because(
                "Nothing to migrate: the description is empty. Start with set_overarching_goal."
            ))
        );
        assert_eq!(
            verify(STAGE_1, true, None),
            Err(Refused::because(
                "Already a valid plan; nothing to migrate. Call verify_plan without migrate to check it."
            ))
        );
    }
}
