// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Why the team refused a request, said so that the caller can act on it.
//! A refused request changed nothing.

use std::time::SystemTime;

use crate::toolsets::planning::domain::{BoardError, Status, TaskId};

use super::text::time;
use super::touches::Conflict;
use crate::runtime::text::escaped;

/// Why a team request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    /// What the board itself refuses (unknown IDs, ...).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A text field that breaks its rule.
    #[error("The {field} {problem}.")]
    Text {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A lease outside its bounds.
    #[error("A lease is 1 to {max} minutes; {minutes} is not.")]
    Lease {
        /// The lease asked for.
        minutes: i64,
        /// The longest lease (`[team] max_lease_minutes`).
        max: i64,
    },
    /// A claim on a task someone else holds.
    #[error(
        "[{id}] is held by {holder} until {}; claim another task (ready_tasks lists them) or wait for the lease to end.",
        time(*.until)
    )]
    Held {
        /// The task.
        id: TaskId,
        /// Who holds it.
        holder: String,
        /// When the lease ends.
        until: SystemTime,
    },
    /// A release or renewal by an agent that does not hold the task.
    #[error("{}", not_yours(.id, .agent, .holder.as_ref()))]
    NotYours {
        /// The task.
        id: TaskId,
        /// Who asked.
        agent: String,
        /// Who holds it and until when, if anyone does.
        holder: Option<(String, SystemTime)>,
    },
    /// The agent's lease ran out before it released the task.
    #[error("{}", expired(.id, *.until, .holder.as_ref()))]
    Expired {
        /// The task.
        id: TaskId,
        /// When the lease ended.
        until: SystemTime,
        /// Who holds the task now and until when, if anyone does.
        holder: Option<(String, SystemTime)>,
    },
    /// A release (or a claim) of a task that awaits a person's review.
    #[error(
        "[{id}] awaits a person's review: no agent can complete, release or claim it until a person approves or rejects it (planning-mcp-server board review approve|reject {id}, or the web board); nothing changed."
    )]
    AwaitsReview {
        /// The task.
        id: TaskId,
    },
    /// A review of a task that does not await one.
    #[error(
        "[{id}] does not await review (it is {status}); only a task an agent completed under review can be approved or rejected."
    )]
    NotAwaitingReview {
        /// The task.
        id: TaskId,
        /// Its status.
        status: Status,
    },
    /// A claim on a task that is done.
    #[error("[{id}] is {status}; only pending tasks can be claimed.")]
    NotClaimable {
        /// The task.
        id: TaskId,
        /// Its status.
        status: Status,
    },
    /// A claim on a task whose blockers are not completed.
    #[error("{}", blocked(.id, .waiting_for))]
    Blocked {
        /// The task.
        id: TaskId,
        /// The blockers not completed yet, with their statuses.
        waiting_for: Vec<(TaskId, Status)>,
    },
    /// "The next ready task" when none is.
    #[error(
        "No task is ready: {}; team_board shows what blocks them.",
        none_ready(*.pending, *.held, *.dispatched)
    )]
    NothingReady {
        /// Pending tasks that wait for others.
        pending: usize,
        /// Tasks held by a claim.
        held: usize,
        /// Tasks dispatched to a worker that has not claimed them yet.
        dispatched: usize,
    },
    /// "The next ready task" when every ready task overlaps held work.
    #[error(
        "No ready task can start without overlapping held work: {} the touches of a claimed or \
         dispatched task (e.g. [{}] {}); {verb} one by task_id with accept_overlap true, or \
         wait_for a task to finish.",
        match *.ready { 1 => "the 1 ready task overlaps".to_owned(), n => format!("all {n} ready tasks overlap") },
        first.task,
        first.describe()
    )]
    NothingReadyWithoutOverlap {
        /// What the caller asked the next ready task for: `claim` or
        /// `dispatch`.
        verb: &'static str,
        /// How many ready tasks there are (all overlap).
        ready: usize,
        /// The first one's conflict.
        first: Box<Conflict>,
    },
    /// A claim or dispatch whose touches overlap another agent's reservation.
    #[error("[{id}] {}; {hint}.", conflict.describe())]
    Overlap {
        /// The task asked for.
        id: TaskId,
        /// What it overlaps.
        conflict: Box<Conflict>,
        /// What the caller can do instead (one of the `*_INSTEAD` hints).
        hint: &'static str,
    },
    /// A claim or dispatch of a task dispatched to another worker, in flight.
    #[error("{}", dispatched(.id, .worker, *.until, *.claimed))]
    Dispatched {
        /// The task.
        id: TaskId,
        /// The worker it was dispatched to.
        worker: String,
        /// When the worker's time runs out.
        until: SystemTime,
        /// Whether the worker claimed it.
        claimed: bool,
    },
    /// A dispatch of a task that is done.
    #[error("[{id}] is {status}; only pending tasks can be dispatched.")]
    NotDispatchable {
        /// The task.
        id: TaskId,
        /// Its status.
        status: Status,
    },
    /// A pattern of touches that breaks a rule.
    #[error("The pattern '{pattern}' {problem}.")]
    Touch {
        /// The pattern as given (clipped).
        pattern: String,
        /// What is wrong with it.
        problem: String,
    },
    /// More patterns than a task may declare.
    #[error("A task touches at most {max} patterns; {count} were given.")]
    TooManyTouches {
        /// How many were given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A link that would close a cycle.
    #[error("{}", cycle(.0))]
    Cycle(Vec<TaskId>),
    /// A task linked to itself.
    #[error("[{0}] cannot wait for itself.")]
    SelfLink(TaskId),
    /// More links on a task than allowed.
    #[error("[{id}] would wait for {count} tasks; the limit is {max}.")]
    TooManyLinks {
        /// The task.
        id: TaskId,
        /// How many it would wait for.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// An unlink of links that are not there.
    #[error("[{id}] does not wait for {}; team_board shows its links.", ids(.missing))]
    NotLinked {
        /// The task.
        id: TaskId,
        /// The blockers it does not wait for.
        missing: Vec<TaskId>,
    },
    /// Evidence that does not make sense.
    #[error("{0}")]
    Evidence(String),
    /// A completion without evidence where `[team] require_evidence` is on.
    #[error(
        "Completing [{id}] needs evidence (team.require_evidence is on): give a command with its \
         exit_code (0), a commit or change ID, an http(s) url, or a one-line note; or release it \
         as failed or pending."
    )]
    EvidenceRequired {
        /// The task.
        id: TaskId,
    },
    /// Evidence for a completed task that has some already.
    #[error("[{id}] has evidence already (given by {by}); evidence is never replaced.")]
    EvidenceKept {
        /// The task.
        id: TaskId,
        /// Who gave the evidence it has.
        by: String,
    },
    /// Evidence for a completed task from an agent that did not complete it.
    #[error("{}", not_completer(.id, .agent, .completer.as_deref()))]
    NotCompleter {
        /// The task.
        id: TaskId,
        /// Who asked.
        agent: String,
        /// Who released it as completed without evidence, if an agent did.
        completer: Option<String>,
    },
    /// A done-when condition without a goal.
    #[error("No goal is set yet; use set_goal first.")]
    NoGoal,
}

/// What a claim refused for an overlap can do instead.
pub(crate) const CLAIM_INSTEAD: &str = "claim another task (ready_tasks lists a wave that overlaps \
nothing), or pass accept_overlap true to work on it anyway";
/// What a dispatch refused for an overlap can do instead.
pub(crate) const DISPATCH_INSTEAD: &str = "dispatch another task (ready_tasks lists a wave that \
overlaps nothing), or pass accept_overlap true to dispatch it anyway";
/// What `set_touches` refused for an overlap can do instead.
pub(crate) const TOUCH_INSTEAD: &str =
    "narrow the patterns, or pass accept_overlap true to keep them anyway";

/// `2 pending tasks wait for others and 1 is held`, and, when there are
/// any, `; 1 is dispatched and not claimed yet`.
pub(crate) fn none_ready(pending: usize, held: usize, dispatched: usize) -> String {
    let waits = match pending {
        1 => "1 pending task waits".to_owned(),
        n => format!("{n} pending tasks wait"),
    };
    let held = match held {
        1 => "1 is held".to_owned(),
        n => format!("{n} are held"),
    };
    let dispatched = match dispatched {
        0 => String::new(),
        1 => "; 1 is dispatched and not claimed yet".to_owned(),
        n => format!("; {n} are dispatched and not claimed yet"),
    };
    format!("{waits} for others and {held}{dispatched}")
}

fn dispatched(id: &TaskId, worker: &str, until: SystemTime, claimed: bool) -> String {
    let what = match claimed {
        true => format!("who holds it until {}", time(until)),
        false => format!("who has until {} to claim it", time(until)),
    };
    let worker = escaped(worker);
    format!(
        "[{id}] is dispatched to {worker}, {what}; pick another task (ready_tasks), or \
         wait_for it to stall if {worker} misses that time."
    )
}

/// `[a], [b]`.
fn ids(ids: &[TaskId]) -> String {
    let listed: Vec<String> = ids.iter().map(|id| format!("[{id}]")).collect();
    listed.join(", ")
}

fn not_yours(id: &TaskId, agent: &str, holder: Option<&(String, SystemTime)>) -> String {
    match holder {
        Some((holder, until)) => format!(
            "[{id}] is held by {} until {}, not by {agent}; only the holder releases it.",
            escaped(holder),
            time(*until)
        ),
        None => format!("[{id}] is not claimed; claim it first (claim_task)."),
    }
}

fn expired(id: &TaskId, until: SystemTime, holder: Option<&(String, SystemTime)>) -> String {
    match holder {
        Some((holder, held_until)) => format!(
            "Your lease on [{id}] ended at {}, and {} holds the task now (until {}); claim \
             another task (ready_tasks lists them).",
            time(until),
            escaped(holder),
            time(*held_until)
        ),
        None => format!(
            "Your lease on [{id}] ended at {}, so the task was freed; claim it again if it is still free.",
            time(until)
        ),
    }
}

fn not_completer(id: &TaskId, agent: &str, completer: Option<&str>) -> String {
    match completer.map(escaped) {
        Some(completer) => format!(
            "[{id}] was completed by {completer}, not by {agent}; only {completer} can add its evidence."
        ),
        None => format!(
            "[{id}] was not completed by an agent's release_task (update_task_statuses completed \
             it), so {agent} cannot add its evidence; reopen and claim it if it needs evidence."
        ),
    }
}

fn blocked(id: &TaskId, waiting_for: &[(TaskId, Status)]) -> String {
    let listed: Vec<String> = waiting_for
        .iter()
        .map(|(blocker, status)| format!("[{blocker}] ({status})"))
        .collect();
    format!(
        "[{id}] waits for {}; claim a ready task instead (ready_tasks).",
        listed.join(", ")
    )
}

fn cycle(path: &[TaskId]) -> String {
    let listed: Vec<String> = path.iter().map(|id| format!("[{id}]")).collect();
    format!(
        "That link would make a cycle: {}; no task of a cycle could ever start.",
        listed.join(" waits for ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> TaskId {
        TaskId::from_content(&n.to_string(), "")
    }

    #[test]
    fn messages_name_what_to_do() {
        let at = SystemTime::UNIX_EPOCH;
        let held = TeamError::Held {
            id: id(1),
            holder: "w2".into(),
            until: at,
        };
        assert_eq!(
            held.to_string(),
            format!(
                "[{}] is held by w2 until 1970-01-01T00:00:00Z; claim another task (ready_tasks lists them) or wait for the lease to end.",
                id(1)
            )
        );
        let lapsed = TeamError::Expired {
            id: id(1),
            until: at,
            holder: Some(("w2".into(), at + std::time::Duration::from_secs(900))),
        };
        assert_eq!(
            lapsed.to_string(),
            format!(
                "Your lease on [{}] ended at 1970-01-01T00:00:00Z, and w2 holds the task now (until 1970-01-01T00:15:00Z); claim another task (ready_tasks lists them).",
                id(1)
            )
        );
        let required = TeamError::EvidenceRequired { id: id(1) };
        assert_eq!(
            required.to_string(),
            format!(
                "Completing [{}] needs evidence (team.require_evidence is on): give a command with its exit_code (0), a commit or change ID, an http(s) url, or a one-line note; or release it as failed or pending.",
                id(1)
            )
        );
        let cycle = TeamError::Cycle(vec![id(1), id(2), id(1)]);
        assert_eq!(
            cycle.to_string(),
            format!(
                "That link would make a cycle: [{0}] waits for [{1}] waits for [{0}]; no task of a cycle could ever start.",
                id(1),
                id(2)
            )
        );
        let blocked = TeamError::Blocked {
            id: id(1),
            waiting_for: vec![(id(2), Status::Pending), (id(3), Status::InProgress)],
        };
        assert!(blocked.to_string().contains(&format!(
            "waits for [{}] (pending), [{}] (in_progress);",
            id(2),
            id(3)
        )));
    }
}
