// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The stage guidance `gather_requirements` gives: how to write the part
//! that comes next.

use super::{Around, Place};
use crate::toolsets::commit::document::stage::Stage;
use crate::toolsets::commit::document::{Document, Limits, Prefix};
use crate::toolsets::commit::place::relative;

/// The guidance for a valid plan (`None`: empty) at `place`; `changed` is
/// whether the change already has modifications.
pub(crate) fn guide(
    document: Option<&Document>,
    place: &Place,
    around: &Around,
    limits: &Limits,
    changed: bool,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Place::Jj {
        change_id,
        below: Some(below),
    } = place
    {
        lines.push(format!(
            "The plan is on jj change {change_id} ({}), below @ ({}), which has no description: work done now lands in @. Bring it into the plan's change with jj squash --into {change_id}, or continue on that change with jj edit {change_id}; the commit tools update the plan on {change_id} either way.",
            relative(below.distance),
            below.working_copy
        ));
    }
    match Stage::of(document) {
        Stage::Empty => {
            lines.extend([
                "Header: type(scope)!: title.".to_owned(),
                "Types: feat (a feature users see), fix (behaviour back to what was promised), refactor (new structure, same behaviour), ci (CI files), infra (infrastructure), build (the build), docs (documentation), spec (specifications), chore (configuration, upkeep), lint (formatting).".into(),
                "Pick the first that fits: feat > fix > refactor > ci/infra > build > docs/spec > chore > lint; when the work does not fit one type or one scope, split it into several plans.".into(),
                "Scope: one lowercase noun for the part of the program (optional). Add ! for a breaking change.".into(),
                format!(
                    "Title: an imperative instruction someone else could follow, at most {} characters.",
                    limits.max_title_length
                ),
            ]);
            if changed {
                let move_out = match place {
                    Place::Jj { .. } => "jj split",
                    Place::Git { .. } => "commit or stash them",
                };
                lines.push(format!(
                    "This change already has modifications but no plan: choose a goal that covers them, or move them to their own change first ({move_out})."
                ));
            }
        }
        Stage::Goal => lines.push(
            "The description is for readers of the history: why the change is needed, what has to change, how it is done, and the context a reviewer needs.".into(),
        ),
        Stage::Requirements | Stage::Constraints => lines.extend([
            format!(
                "Constraints are absolute prohibitions, each starting with one of: {}.",
                Prefix::list()
            ),
            format!(
                "Tasks are small sequential steps, at most {} levels deep; only leaves carry work, a parent's box follows its subtasks. Write each as \"summary: details\".",
                limits.max_depth
            ),
            "Tick (done: true) what is already done.".into(),
        ]),
        Stage::Plan => {
            lines.push("Work on one leaf task at a time, in order; tick it with mark_task only when its work is really done.".into());
            lines.push(match place {
                Place::Jj { below: Some(_), .. } => "Before the job is finished, the work must be in the plan's change (jj squash).".into(),
                Place::Jj { .. } => "The work accumulates in @: do not run jj new before the job is finished.".into(),
                Place::Git { branch } => format!(
                    "Commit as usual; the plan stays on {} and no commit of yours changes it.",
                    Place::git_ref(branch)
                ),
            });
            if document.is_some_and(|d| d.description.is_none()) {
                lines.push("The plan has no description: add why, what and how with set_detailed_goal.".into());
            }
        }
        Stage::Complete => lines.push(format!("The job is finished; {}", place.complete_next(around))),
    }
    lines
}
