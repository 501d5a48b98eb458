// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a person is told: one [`Notice`] per thing that happened on a
//! board and needs them (pure data).

use std::time::SystemTime;

use crate::toolsets::planning::domain::TaskId;

/// The kinds of notice, as `[notify] events` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    /// An agent completed a task.
    Finished,
    /// An agent released a task as failed (or a task was set failed).
    Failed,
    /// An agent's completion waits for a person's review.
    ReviewRequested,
    /// A worker's time ran out: its lease ended, or it did not claim a
    /// task dispatched to it in time.
    Stalled,
    /// Every task is completed (or cancelled).
    GoalMet,
}

impl Kind {
    /// Every kind, in the order summaries name them.
    pub(crate) const ALL: [Kind; 5] = [
        Kind::Finished,
        Kind::Failed,
        Kind::ReviewRequested,
        Kind::Stalled,
        Kind::GoalMet,
    ];

    /// Its name in `[notify] events` and in the JSON.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Finished => "finished",
            Kind::Failed => "failed",
            Kind::ReviewRequested => "review_requested",
            Kind::Stalled => "stalled",
            Kind::GoalMet => "goal_met",
        }
    }

    /// The kind named `name`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name.trim())
    }

    /// How a summary counts it: `3 finished`, `1 to review`.
    fn counted(self) -> &'static str {
        match self {
            Kind::Finished => "finished",
            Kind::Failed => "failed",
            Kind::ReviewRequested => "to review",
            Kind::Stalled => "stalled",
            Kind::GoalMet => "goal met",
        }
    }
}

/// One thing that happened on a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    /// What happened.
    pub(crate) kind: Kind,
    /// On which board.
    pub(crate) board: String,
    /// The task, if it is about one (the goal met is about the board).
    pub(crate) task: Option<TaskId>,
    /// The task's title, or the goal's.
    pub(crate) title: String,
    /// The agent it concerns (who finished, failed, stalled), if known.
    pub(crate) agent: Option<String>,
    /// When it happened.
    pub(crate) at: SystemTime,
}

/// One line for a batch of notices, by kind and board: `3 finished, 1
/// stalled on board default`, for the command's `{summary}` and the JSON.
pub(crate) fn summary(notices: &[Notice]) -> String {
    let counts: Vec<String> = Kind::ALL
        .into_iter()
        .filter_map(|kind| {
            let n = notices.iter().filter(|n| n.kind == kind).count();
            (n > 0).then(|| match (kind, n) {
                (Kind::GoalMet, 1) => kind.counted().to_owned(),
                _ => format!("{n} {}", kind.counted()),
            })
        })
        .collect();
    let mut boards: Vec<&str> = notices.iter().map(|n| n.board.as_str()).collect();
    boards.sort_unstable();
    boards.dedup();
    let single = match (notices, counts.len()) {
        ([one], 1) => {
            let who = one
                .agent
                .as_deref()
                .map(|a| format!(" by {a}"))
                .unwrap_or_default();
            let task = one.task.map(|t| format!(" [{t}]")).unwrap_or_default();
            Some(format!("{}{task} {}{who}", one.kind.as_str(), one.title))
        }
        _ => None,
    };
    let what = single.unwrap_or_else(|| counts.join(", "));
    match boards.as_slice() {
        [board] => format!("{what} on board {board}"),
        many => format!("{what} on boards {}", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(kind: Kind, board: &str) -> Notice {
        Notice {
            kind,
            board: board.into(),
            task: TaskId::parse("a46f8d35"),
            title: "Write the parser".into(),
            agent: Some("worker-1".into()),
            at: SystemTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn every_kind_reads_back_from_its_name() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("done"), None);
    }

    #[test]
    fn a_summary_counts_by_kind_or_names_the_one_task() {
        let one = [notice(Kind::Finished, "default")];
        assert_eq!(
            summary(&one),
            "finished [a46f8d35] Write the parser by worker-1 on board default"
        );
        let many = [
            notice(Kind::Finished, "default"),
            notice(Kind::Finished, "default"),
            notice(Kind::Stalled, "web"),
            notice(Kind::GoalMet, "default"),
        ];
        assert_eq!(
            summary(&many),
            "2 finished, 1 stalled, goal met on boards default, web"
        );
    }
}
