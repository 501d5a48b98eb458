// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The files of the workflow directory D that the server reads or writes.

/// A file in the workflow directory whose presence or content the rules
/// look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum File {
    /// `plan.md`: the plan and its acceptance criteria.
    Plan,
    /// `task.md`: the task being drafted or executed.
    Task,
    /// `task-results.md`: what the executed task achieved.
    Results,
    /// `comments.md`: the PR review comments.
    Comments,
    /// `review-task.md`: the task that answers the review.
    ReviewTask,
    /// `review-task-results.md`: what the applied review task achieved.
    ReviewResults,
    /// `atlassian/refs`: the Atlassian URLs already fetched, one a line.
    Refs,
}

impl File {
    /// Every file, in a fixed order.
    pub(crate) const ALL: [File; 7] = [
        File::Plan,
        File::Task,
        File::Results,
        File::Comments,
        File::ReviewTask,
        File::ReviewResults,
        File::Refs,
    ];

    /// The review files, in the order they are archived.
    pub(crate) const REVIEW: [File; 3] = [File::Comments, File::ReviewTask, File::ReviewResults];

    /// Its path relative to D.
    pub(crate) fn name(self) -> &'static str {
        match self {
            File::Plan => "plan.md",
            File::Task => "task.md",
            File::Results => "task-results.md",
            File::Comments => "comments.md",
            File::ReviewTask => "review-task.md",
            File::ReviewResults => "review-task-results.md",
            File::Refs => "atlassian/refs",
        }
    }

    /// Its position in [`File::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// `state.json`: the workflow's state, written by the server only.
pub(crate) const STATE: &str = "state.json";

/// `.lock`: the lock file every call locks; never removed.
pub(crate) const LOCK: &str = ".lock";

/// The `.gitignore` the workflow directory is born with when the server
/// makes it (`workflow.gitignore`): the server's own files (the lock, the
/// state, a corrupt state moved aside, temporary files of a write) and this
/// file itself. The plan, the tasks, the reviews and the archives are the
/// user's, to commit or not.
pub(crate) const IGNORE_RULE: &str = "\
# Made by planning-mcp-server with this directory: its own files stay out of
# your commits. plan.md, task.md, the reviews and the archives are yours to
# commit or not; see docs/workflow.md.
/.gitignore
/.lock
/state.json
/state.json.corrupt-*
.*.tmp
";

/// The folder of the Atlassian references.
pub(crate) const ATLASSIAN: &str = "atlassian";

/// The folder of the task archives.
pub(crate) const TASKS: &str = "tasks";

/// The folder of the PR review archives.
pub(crate) const PR_REVIEWS: &str = "pr-reviews";
