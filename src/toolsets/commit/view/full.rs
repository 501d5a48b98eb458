// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The full view: the whole plan, the files changed, and for
//! `gather_requirements` the stage guidance.

use super::status::{Standing, push_status};
use super::{
    Around, Committed, Place, actions, direction_line, goal_line, task_listing, tasks_line,
};
use crate::toolsets::commit::document::stage::Stage;
use crate::toolsets::commit::document::{Document, Limits};
use crate::toolsets::commit::place::relative;

/// The most changed paths listed.
const MAX_CHANGES: usize = 20;

/// The check that ends `verify_plan` on a valid plan.
pub(crate) const VERIFY_CHECK: &str = "Check: confirm that the work of every ticked task is in this change and that every open task is still needed; fix the plan with mark_task or set_plan.";

/// What a full view shows besides the plan.
pub(crate) struct Full<'a> {
    /// The action lines.
    pub(crate) actions: &'a [String],
    /// Where the plan lives.
    pub(crate) place: &'a Place,
    /// What else to say about the repository.
    pub(crate) around: &'a Around,
    /// The changed paths, as the VCS prints them.
    pub(crate) changes: &'a [String],
    /// The stage guidance (`gather_requirements` only).
    pub(crate) guide: Option<&'a Limits>,
    /// The closing check (`verify_plan` only).
    pub(crate) check: Option<&'a str>,
}

/// The full view of a valid plan (`None`: an empty description).
pub(crate) fn full(view: &Full<'_>, document: Option<&Document>) -> String {
    let mut out = String::new();
    actions(&mut out, view.actions);
    let stage = Stage::of(document);
    out.push_str(&format!("Commit: {}\n", view.place.commit()));
    push_around(&mut out, view.place, view.around);
    out.push_str(&format!("Stage: {}/5 {}\n", stage.number(), stage.name()));
    goal_line(&mut out, document);
    match document.and_then(|d| d.description.as_deref()) {
        None => out.push_str("Description: (none)\n"),
        Some(description) => {
            out.push_str("Description:\n");
            for line in description.split('\n') {
                if !line.is_empty() {
                    out.push_str("  ");
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
    }
    match document.filter(|d| !d.constraints.is_empty()) {
        None => out.push_str("Constraints: (none)\n"),
        Some(document) => {
            out.push_str("Constraints:\n");
            for constraint in &document.constraints {
                out.push_str(&format!("  - {constraint}\n"));
            }
        }
    }
    tasks_line(&mut out, document);
    if let Some(document) = document {
        task_listing(&mut out, document);
    }
    direction_line(&mut out, document);
    push_changes(&mut out, view.changes);
    if let Some(limits) = view.guide {
        out.push_str("Guide:\n");
        let changed = !view.changes.is_empty();
        for line in super::guide::guide(document, view.place, view.around, limits, changed) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push('\n');
    push_status(&mut out, Standing::Plan(document), view.place, view.around);
    if let Some(check) = view.check {
        out.push_str(check);
        out.push('\n');
    }
    out.pop();
    out
}

/// Pushes what a reply says about the repository around the plan: an
/// operation git is in the middle of, a plan already committed, a
/// divergent or conflicted change.
fn push_around(out: &mut String, place: &Place, around: &Around) {
    if let (Some(operation), Place::Git { branch }) = (around.operation, place) {
        out.push_str(&format!(
            "In progress: {} (branch {branch}); {}.\n",
            operation.name(),
            operation.way_out()
        ));
    }
    match &around.committed {
        Some(Committed::Git(commit)) => {
            out.push_str(&format!("Committed: as {commit}, with the plan as message.\n"));
        }
        Some(Committed::Jj {
            change_id,
            distance,
            header,
        }) => out.push_str(&format!(
            "Committed: the finished plan {header} is on jj change {change_id} ({}); @ starts the next piece of work.\n",
            relative(*distance)
        )),
        None => {}
    }
    if around.divergent {
        out.push_str("Divergent: the change holding the plan has several visible commits (jj log -r 'divergent()' shows them); keep one with jj abandon <commit id> of each other, then call gather_requirements. The commit tools write nothing until then.\n");
    }
    if around.conflicted {
        out.push_str("Conflicts: @ holds unresolved conflicts (jj resolve --list names the files); resolve them before the job is finished.\n");
    }
}

/// Pushes `Changes: {n} files` and at most 20 paths, or `Changes: none`.
fn push_changes(out: &mut String, changes: &[String]) {
    match changes.len() {
        0 => out.push_str("Changes: none\n"),
        1 => out.push_str("Changes: 1 file\n"),
        n => out.push_str(&format!("Changes: {n} files\n")),
    }
    for path in changes.iter().take(MAX_CHANGES) {
        // Each line as the VCS printed it, with any control character or
        // line break shown as a picture: no file name can forge a line.
        let shown: String = path
            .chars()
            .map(|c| match crate::runtime::text::is_line_break(c) {
                true => '\u{fffd}',
                false => crate::runtime::text::shown(c),
            })
            .collect();
        out.push_str(&format!("  {shown}\n"));
    }
    if changes.len() > MAX_CHANGES {
        out.push_str(&format!("  ... and {} more\n", changes.len() - MAX_CHANGES));
    }
}
