// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `set_overarching_goal`: the header, creating the document when the
//! description is empty; with `start_new`, a new plan (jj: a new change).

use super::preconditions::{finished, valid};
use super::{Edit, GoalInput, Refused};
use crate::toolsets::commit::document::format::format;
use crate::toolsets::commit::document::grammar::{SCOPE_RULE, check_text, is_valid_scope};
use crate::toolsets::commit::document::{Document, Header, Limits, Reading};

/// What `set_overarching_goal` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GoalEdit {
    /// Sets or updates the header of this plan (or changes nothing).
    Here(Edit),
    /// Starts a new plan with only this header (jj: `jj new -m`; git: the
    /// next version of the branch's plan); `notes` follow the action line.
    StartNew {
        /// The new plan's header.
        header: Header,
        /// Its canonical text.
        text: String,
        /// Notes on the arguments (`scope lowercased to "x"`).
        notes: Vec<String>,
    },
}

/// The header a goal describes, with notes on what was normalised.
pub(crate) fn header_of(
    goal: &GoalInput,
    limits: &Limits,
) -> Result<(Header, Vec<String>), Refused> {
    let mut notes = Vec::new();
    let scope = match goal.scope.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(given) => {
            let lower = given.to_lowercase();
            if lower != given {
                notes.push(format!(
                    "Note: scope lowercased to \"{}\".",
                    lower.escape_debug()
                ));
            }
            if !is_valid_scope(&lower) {
                return Err(Refused::because(format!(
                    "goal.scope \"{}\" must be {SCOPE_RULE}, or empty for none. Nothing was changed.",
                    crate::runtime::text::clip(given)
                )));
            }
            Some(lower)
        }
    };
    let title = goal.title.trim();
    check_text("goal.title", title, limits.max_title_length)
        .map_err(|message| Refused::because(format!("{message}. Nothing was changed.")))?;
    let header = Header {
        kind: goal.kind,
        scope,
        breaking: goal.breaking,
        title: title.to_owned(),
    };
    Ok((header, notes))
}

/// `set_overarching_goal(goal, start_new)` on the plan as read.
pub(crate) fn set_goal(
    reading: &Reading,
    goal: &GoalInput,
    start_new: bool,
    limits: &Limits,
) -> Result<GoalEdit, Refused> {
    let current = match reading {
        Reading::Unknown(_) | Reading::Halted(_) if start_new => None,
        _ => valid(reading)?,
    };
    let abandons = matches!(reading, Reading::Unknown(_) | Reading::Halted(_))
        || current.is_some_and(Document::is_finished);
    match current {
        Some(document) if document.is_finished() && !start_new => {
            return Err(finished(
                "set the next goal with start_new: true (a new change), or reopen this job with unfinish_job",
            ));
        }
        Some(_) if start_new && !abandons => {
            return Err(Refused::because(
                "start_new: true would abandon this change's unfinished plan; finish it with finish_job first, or reshape it with the setters. Nothing was changed.",
            ));
        }
        _ => {}
    }
    let (header, notes) = header_of(goal, limits)?;
    if start_new && abandons {
        let text = format(&Document::new(header.clone()));
        return Ok(GoalEdit::StartNew {
            header,
            text,
            notes,
        });
    }
    let (document, action) = match current {
        None => (Document::new(header), "Goal set"),
        Some(document) => {
            let mut document = document.clone();
            document.header = header;
            (document, "Goal updated")
        }
    };
    let mut actions = vec![format!("{action}: {}", document.header)];
    actions.extend(notes);
    Edit::write(current, document, actions, "Goal unchanged.", limits).map(GoalEdit::Here)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::commit::edit::fixtures::*;

    fn here(edit: Result<GoalEdit, Refused>) -> Edit {
        match edit {
            Ok(GoalEdit::Here(edit)) => edit,
            other => panic!("expected an edit here, got {other:?}"),
        }
    }

    #[test]
    fn sets_updates_or_leaves_the_header() {
        let set = here(set_goal(
            &Reading::Empty,
            &goal("api", "Add x"),
            false,
            &limits(),
        ));
        assert_eq!(set.actions, ["Goal set: feat(api): Add x"]);
        assert_eq!(set.text.as_deref(), Some("feat(api): Add x\n"));
        let plan = reading(STAGE_4);
        let updated = here(set_goal(&plan, &goal("", "  Add y "), false, &limits()));
        assert_eq!(updated.actions, ["Goal updated: feat: Add y"]);
        assert!(updated.text.unwrap().starts_with("feat: Add y\n\nWhy.\n"));
        let same = here(set_goal(&plan, &goal("api", "Add x"), false, &limits()));
        assert_eq!(same.actions, ["Goal unchanged."]);
        assert_eq!(same.text, None);
    }

    #[test]
    fn the_scope_is_lowercased_then_checked() {
        let edit = here(set_goal(
            &Reading::Empty,
            &goal(" API ", "t"),
            false,
            &limits(),
        ));
        assert_eq!(
            edit.actions,
            [
                "Goal set: feat(api): t",
                "Note: scope lowercased to \"api\"."
            ]
        );
        for (scope, message) in [
            (
                "a b",
                "goal.scope \"a b\" must be a lowercase word: a letter a-z, then letters, digits or hyphens, or empty for none. Nothing was changed.",
            ),
            (
                "1x",
                "goal.scope \"1x\" must be a lowercase word: a letter a-z, then letters, digits or hyphens, or empty for none. Nothing was changed.",
            ),
        ] {
            assert_eq!(
                set_goal(&Reading::Empty, &goal(scope, "t"), false, &limits()),
                Err(Refused::because(message))
            );
        }
    }

    #[test]
    fn titles_are_checked() {
        for (title, message) in [
            ("  ", "goal.title is empty. Nothing was changed."),
            ("a\nb", "goal.title must be one line. Nothing was changed."),
            (
                "a\u{7}",
                "goal.title contains the control character U+0007. Nothing was changed.",
            ),
            (
                &"x".repeat(31),
                "goal.title is 31 characters; the limit is 30. Nothing was changed.",
            ),
        ] {
            assert_eq!(
                set_goal(&Reading::Empty, &goal("", title), false, &limits()),
                Err(Refused::because(message)),
                "{title:?}"
            );
        }
    }

    #[test]
    fn preconditions() {
        let finished = reading(STAGE_5);
        assert_eq!(
            set_goal(&finished, &goal("api", "Add x"), false, &limits()),
            Err(Refused::because(
                "The job is finished; set the next goal with start_new: true (a new change), or reopen this job with unfinish_job. Nothing was changed."
            ))
        );
        for stage in [STAGE_1, STAGE_2, STAGE_3, STAGE_4] {
            assert_eq!(
                set_goal(&reading(stage), &goal("api", "Add x"), true, &limits()),
                Err(Refused::because(
                    "start_new: true would abandon this change's unfinished plan; finish it with finish_job first, or reshape it with the setters. Nothing was changed."
                ))
            );
        }
        assert_eq!(
            set_goal(&reading("notes"), &goal("", "t"), false, &limits()),
            Err(Refused::NotAPlan)
        );
    }

    #[test]
    fn start_new_after_a_finished_job_or_on_a_text_that_is_not_a_plan() {
        for text in [STAGE_5, "notes", "Feat: x"] {
            assert_eq!(
                set_goal(&reading(text), &goal("Cli", "Next"), true, &limits()),
                Ok(GoalEdit::StartNew {
                    header: header("feat(cli): Next"),
                    text: "feat(cli): Next\n".into(),
                    notes: vec!["Note: scope lowercased to \"cli\".".into()],
                })
            );
        }
        // On an empty description it only sets the goal.
        let edit = here(set_goal(&Reading::Empty, &goal("", "t"), true, &limits()));
        assert_eq!(edit.actions, ["Goal set: feat: t"]);
    }
}
