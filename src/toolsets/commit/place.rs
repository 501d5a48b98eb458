// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where the plan lives, as the replies name it, and what else a reply
//! says about the repository around it: an operation git is in the middle
//! of, a finished plan already in history, a divergent or conflicted `@`.

/// The change or ref that holds the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// A jj change: `@`, or an ancestor of `@` when `@` has no description.
    Jj {
        /// Its change id, 12 characters.
        change_id: String,
        /// Set when the plan is below `@` (after `jj new` or `jj commit`).
        below: Option<Below>,
    },
    /// git: the plan of a branch, on `refs/commit-plan/{branch}`.
    Git {
        /// The branch HEAD is on (or that a rebase or bisect started from).
        branch: String,
    },
}

/// A plan on an ancestor of jj's `@`: `@` has no description, and the
/// changes between hold none either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Below {
    /// `@`'s change id, 12 characters.
    pub(crate) working_copy: String,
    /// How many changes down from `@` (1: the parent).
    pub(crate) distance: usize,
}

/// An operation git has started and not finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    /// `git rebase`: HEAD is detached until it ends.
    Rebase,
    /// `git bisect`: HEAD is detached at the commit under test.
    Bisect,
    /// `git merge` stopped before its commit.
    Merge,
    /// `git cherry-pick` stopped.
    CherryPick,
    /// `git revert` stopped.
    Revert,
}

impl Operation {
    /// What it is, for a reply: `a rebase`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Operation::Rebase => "a rebase",
            Operation::Bisect => "a bisect",
            Operation::Merge => "a merge",
            Operation::CherryPick => "a cherry-pick",
            Operation::Revert => "a revert",
        }
    }

    /// How a person ends it.
    pub(crate) fn way_out(self) -> &'static str {
        match self {
            Operation::Rebase => {
                "finish it with git rebase --continue, or undo it with git rebase --abort"
            }
            Operation::Bisect => "end it with git bisect reset",
            Operation::Merge => "conclude it with git commit, or undo it with git merge --abort",
            Operation::CherryPick => {
                "finish it with git cherry-pick --continue, or undo it with git cherry-pick --abort"
            }
            Operation::Revert => {
                "finish it with git revert --continue, or undo it with git revert --abort"
            }
        }
    }
}

/// What a reply says about the repository besides the plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Around {
    /// git: the operation in progress.
    pub(crate) operation: Option<Operation>,
    /// The finished plan is already in history: git, the commit whose
    /// message it is (`1a2b3c4 (HEAD)`); jj, the change below `@` that
    /// holds it, with its header.
    pub(crate) committed: Option<Committed>,
    /// jj: `@`'s change has several visible commits.
    pub(crate) divergent: bool,
    /// jj: `@` holds unresolved conflicts.
    pub(crate) conflicted: bool,
}

/// Where a finished plan went into history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Committed {
    /// git: the commit with the plan as message, e.g. `1a2b3c4 (HEAD)`.
    Git(String),
    /// jj: the change below `@` that holds it, and its header.
    Jj {
        /// Its change id, 12 characters.
        change_id: String,
        /// How many changes down from `@`.
        distance: usize,
        /// The plan's header line.
        header: String,
    },
}

/// `@-`, `@--` or `N changes below @`.
pub(crate) fn relative(distance: usize) -> String {
    match distance {
        0 => "@".into(),
        1..=3 => format!("@{}", "-".repeat(distance)),
        n => format!("{n} changes below @"),
    }
}

impl Place {
    /// The ref of a git plan.
    pub(crate) fn git_ref(branch: &str) -> String {
        format!("refs/commit-plan/{branch}")
    }

    /// The `Commit:` line's value.
    pub(crate) fn commit(&self) -> String {
        match self {
            Place::Jj {
                below: Some(below), ..
            } => format!(
                "{}, below @ ({}, no description)",
                self.holder(),
                below.working_copy
            ),
            Place::Jj { .. } => self.holder(),
            Place::Git { branch } => {
                format!("git branch {branch}, plan in {}", Self::git_ref(branch))
            }
        }
    }

    /// What holds the description, in refusals: `jj change {id} (@-)`.
    pub(crate) fn holder(&self) -> String {
        match self {
            Place::Jj { change_id, below } => {
                let distance = below.as_ref().map_or(0, |below| below.distance);
                format!("jj change {change_id} ({})", relative(distance))
            }
            Place::Git { branch } => Self::git_ref(branch),
        }
    }

    /// The stage-5 next step.
    pub(crate) fn complete_next(&self, around: &Around) -> String {
        if around.committed.is_some() {
            return "the plan is committed: start the next plan with set_overarching_goal and start_new: true.".into();
        }
        match self {
            Place::Jj { below: None, .. } => {
                "start the next change with set_overarching_goal and start_new: true (runs jj new)."
                    .into()
            }
            Place::Jj {
                change_id,
                below: Some(_),
            } => format!(
                "bring the work still in @ into the plan's change with jj squash --into {change_id}; then set the next goal with set_overarching_goal and start_new: true (it goes on @)."
            ),
            Place::Git { branch } => format!(
                "stage the work (git add -A, or git add each path under Changes), then commit with the plan as message: {}; then start the next plan with set_overarching_goal and start_new: true.",
                commit_command(branch)
            ),
        }
    }
}

/// The command that commits the staged work with the plan of `branch` as
/// its message, byte for byte.
pub(crate) fn commit_command(branch: &str) -> String {
    format!(
        "git cat-file blob {}:plan | git commit --cleanup=verbatim --file=-",
        Place::git_ref(branch)
    )
}
