// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where the plan lives, as the replies name it.

/// The change or ref that holds the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// jj's working-copy change `@`.
    Jj {
        /// Its change id, 12 characters.
        change_id: String,
    },
    /// git: the plan of a branch, on `refs/commit-plan/{branch}`.
    Git {
        /// The branch HEAD is on.
        branch: String,
    },
}

impl Place {
    /// The ref of a git plan.
    pub fn git_ref(branch: &str) -> String {
        format!("refs/commit-plan/{branch}")
    }

    /// The `Commit:` line's value.
    pub fn commit(&self) -> String {
        match self {
            Place::Jj { change_id } => format!("jj change {change_id} (@)"),
            Place::Git { branch } => {
                format!("git branch {branch}, plan in {}", Self::git_ref(branch))
            }
        }
    }

    /// What holds the description, in refusals.
    pub fn holder(&self) -> String {
        match self {
            Place::Jj { change_id } => format!("jj change {change_id} (@)"),
            Place::Git { branch } => Self::git_ref(branch),
        }
    }

    /// The stage-5 next step.
    pub fn complete_next(&self) -> String {
        match self {
            Place::Jj { .. } => {
                "start the next change with set_overarching_goal and start_new: true (runs jj new)."
                    .into()
            }
            Place::Git { branch } => format!(
                "commit with the plan as message: git log -1 --format=%B {} | git commit --file=-; then start the next plan with set_overarching_goal and start_new: true.",
                Self::git_ref(branch)
            ),
        }
    }
}
