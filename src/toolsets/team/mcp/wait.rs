// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `wait_for`: a long poll that costs nothing while it waits. The call
//! awaits the board's change notice (the shared board's watch channel, the
//! one resource subscriptions use), a timer for the next dispatch that
//! stalls, its own deadline, the client's cancellation and the notice that
//! shutdown began; nothing runs between them. On each wake it asks the
//! board's [`Tracker`] (shared by every waiter of the board, so the board
//! is read once per revision however many wait) whether what it waits for
//! happened.
//!
//! Over HTTP the call ends at shutdown as soon as the signal comes
//! (`runtime::stopping`), so that shutdown does not wait for it; over stdio
//! the session's cancellation ends it too.

use std::time::{Duration, SystemTime};

use rmcp::model::CallToolResult;
use tokio_util::sync::CancellationToken;

use super::TeamTools;
use super::tools::{WaitParams, failure, success};
use crate::runtime::stopping;
use crate::toolsets::planning::domain::TaskId;
use crate::toolsets::team::domain::waiting::{Condition, Event, Tracker};
use crate::toolsets::team::domain::{TeamError, View, wait_reply};

/// What one look at the board found.
enum Look {
    /// A reply: what happened, or why the call is refused.
    Done(CallToolResult),
    /// Nothing yet: the board's revision, the condition (its baseline set
    /// on the first look) and when the next dispatch stalls.
    Wait {
        revision: u64,
        condition: Condition,
        next_stall: Option<SystemTime>,
    },
}

impl TeamTools {
    /// Waits as `p` asks, until `cancelled` (the client's cancellation).
    pub(super) async fn wait(&self, p: WaitParams, cancelled: CancellationToken) -> CallToolResult {
        let (condition, task_ids, timeout) = match self.wait_request(&p) {
            Ok(request) => request,
            Err(refused) => return failure(&refused),
        };
        let deadline = tokio::time::Instant::now() + timeout;
        let mut changes = self.board.watch();
        let mut condition = Some((condition, task_ids));
        let mut known: Option<Condition> = None;
        loop {
            changes.borrow_and_update();
            let look = self.look_once(known.clone(), condition.take()).await;
            let (revision, next_stall) = match look {
                Look::Done(reply) => return reply,
                Look::Wait {
                    revision,
                    condition,
                    next_stall,
                } => {
                    known = Some(condition);
                    (revision, next_stall)
                }
            };
            let mut wake_at = deadline;
            if let Some(stall) = next_stall {
                let wait = stall
                    .duration_since(self.clock.now())
                    .unwrap_or(Duration::ZERO);
                wake_at = wake_at.min(tokio::time::Instant::now() + wait);
            }
            tokio::select! {
                biased;
                () = stopping::begun() => return success(wait_reply::shutting_down(revision)),
                () = cancelled.cancelled() => {
                    return failure(&"The wait was cancelled.");
                }
                changed = changes.changed() => {
                    if changed.is_err() {
                        // The board is closed: answer as at the deadline.
                        return self.timed_out(timeout).await;
                    }
                }
                () = tokio::time::sleep_until(wake_at) => {
                    if wake_at >= deadline {
                        return self.timed_out(timeout).await;
                    }
                }
            }
        }
    }

    /// The condition `p` names (its baseline still to be set), the task IDs
    /// it names, and the timeout; or why it is refused.
    fn wait_request(
        &self,
        p: &WaitParams,
    ) -> Result<(Condition, Vec<String>, Duration), TeamError> {
        let mut events = p
            .events
            .iter()
            .map(|name| Event::parse(name))
            .collect::<Result<Vec<_>, _>>()?;
        events.sort_unstable();
        events.dedup();
        if events.is_empty() {
            return Err(bad("events", "must name at least one event"));
        }
        let task_ids = p.task_ids.clone().unwrap_or_default();
        if !task_ids.is_empty() && !events.contains(&Event::Finished) {
            return Err(bad("task_ids", "apply to the event finished only"));
        }
        let max = self.max_wait.as_secs();
        let seconds = p
            .timeout_seconds
            .unwrap_or(i64::try_from(max).unwrap_or(60));
        let seconds = u64::try_from(seconds)
            .ok()
            .filter(|s| (1..=max).contains(s))
            .ok_or_else(|| {
                bad(
                    "timeout",
                    &format!("is 1 to {max} seconds (team.max_wait_seconds); {seconds} is not"),
                )
            })?;
        let since = match p.revision {
            Some(revision) => Some(
                u64::try_from(revision)
                    .map_err(|_| bad("revision", &format!("{revision} is below 0")))?,
            ),
            None => None,
        };
        let condition = Condition {
            events,
            tasks: Vec::new(),
            // Set on the first look when not given: what changes from now.
            since: since.unwrap_or(u64::MAX),
        };
        Ok((condition, task_ids, Duration::from_secs(seconds)))
    }

    /// Looks at the board once: on the first look (`first` is the condition
    /// and its task IDs) resolves the IDs and sets the baseline; then
    /// whether the condition (`known` after the first look) happened.
    async fn look_once(
        &self,
        known: Option<Condition>,
        first: Option<(Condition, Vec<String>)>,
    ) -> Look {
        let (clock, tracker) = (self.clock, self.tracker.clone());
        let revisions = self.board.watch();
        let read = self
            .board
            .run(move |shared| {
                shared.read(|board| {
                    let now = clock.now();
                    // The change count is raised under the board's write
                    // lock, so under the read lock it is this board's.
                    let revision = *revisions.borrow();
                    let view = View::new(board, now);
                    let mut tracker = tracker.lock();
                    tracker.look(view, revision);
                    let condition = match (known, first) {
                        (Some(condition), _) => condition,
                        (None, Some((mut condition, ids))) => {
                            match resolve(view, &ids) {
                                Ok(tasks) => condition.tasks = tasks,
                                Err(refused) => return Look::Done(failure(&refused)),
                            }
                            if condition.since == u64::MAX {
                                condition.since = revision;
                            }
                            condition
                        }
                        (None, None) => return Look::Done(failure(&"Nothing to wait for.")),
                    };
                    match tracker.check(&condition, now) {
                        Some(woke) => {
                            let since = tracker.baseline(condition.since);
                            let text = wait_reply::woke(view, &woke, since, revision);
                            Look::Done(success(text))
                        }
                        None => Look::Wait {
                            revision,
                            next_stall: tracker.next_stall(&condition, now),
                            condition,
                        },
                    }
                })
            })
            .await;
        match read {
            Ok(look) => look,
            Err(error) => Look::Done(failure(&error)),
        }
    }

    /// The reply at the deadline: the digest as the board is now.
    async fn timed_out(&self, timeout: Duration) -> CallToolResult {
        let (clock, name) = (self.clock, self.name.clone());
        let revisions = self.board.watch();
        let read = self
            .board
            .run(move |shared| {
                shared.read(|board| {
                    let revision = *revisions.borrow();
                    let view = View::new(board, clock.now());
                    wait_reply::timed_out(name.as_str(), view, timeout.as_secs(), revision)
                })
            })
            .await;
        match read {
            Ok(text) => success(text),
            Err(error) => failure(&error),
        }
    }
}

/// The tasks `ids` name, or the board's "no task has the ID".
fn resolve(view: View<'_>, ids: &[String]) -> Result<Vec<TaskId>, TeamError> {
    let unknown: Vec<String> = ids
        .iter()
        .filter(|id| {
            TaskId::parse(id)
                .and_then(|id| view.board.task(id))
                .is_none()
        })
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(crate::toolsets::planning::domain::BoardError::UnknownTasks(unknown).into());
    }
    let mut tasks: Vec<TaskId> = ids.iter().filter_map(|id| TaskId::parse(id)).collect();
    tasks.sort_unstable();
    tasks.dedup();
    Ok(tasks)
}

/// A refused argument.
fn bad(field: &'static str, problem: &str) -> TeamError {
    TeamError::Text {
        field,
        problem: problem.to_owned(),
    }
}

/// The tracker of one board, shared by its waiters.
pub type SharedTracker = std::sync::Arc<parking_lot::Mutex<Tracker>>;
