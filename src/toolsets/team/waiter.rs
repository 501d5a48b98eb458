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
//! the session's cancellation ends it too. The MCP face (`mcp::tools`)
//! turns the reply into a tool result; benches drive [`Waiters`] directly.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio_util::sync::CancellationToken;

use crate::runtime::clock::Clock;
use crate::runtime::stopping;
use crate::toolsets::planning::domain::TaskId;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::team::domain::waiting::{Condition, Event, Tracker};
use crate::toolsets::team::domain::{TeamError, View, wait_reply};

/// The reply of a wait: its text, or why the call is refused (an error).
pub(crate) type Reply = Result<String, String>;

/// The most `wait_for` calls of one session that wait at once. Over HTTP
/// each waits on a connection of its own, and the server holds at most
/// `server.max_connections` (1,024 by default): without a cap one client's
/// waits could take them all and lock every other client out.
pub(crate) const MAX_WAITS_PER_SESSION: usize = 32;

/// How many calls wait, per session (its `Mcp-Session-Id`; `""` over
/// stdio, where the process has one client).
#[derive(Debug, Default)]
struct Sessions(parking_lot::Mutex<HashMap<String, usize>>);

/// One session's place among the waiters, given back when dropped (the
/// call answered, failed or was dropped).
struct Place {
    sessions: Arc<Sessions>,
    session: String,
}

impl Sessions {
    /// A place for one more of `session`'s waits, unless it has the most.
    fn take(self: &Arc<Self>, session: &str) -> Option<Place> {
        let mut waiting = self.0.lock();
        let count = waiting.entry(session.to_owned()).or_default();
        if *count >= MAX_WAITS_PER_SESSION {
            return None;
        }
        *count += 1;
        Some(Place {
            sessions: self.clone(),
            session: session.to_owned(),
        })
    }

    /// How many of `session`'s calls wait now.
    #[cfg(test)]
    fn waiting(&self, session: &str) -> usize {
        self.0.lock().get(session).copied().unwrap_or(0)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut waiting = self.sessions.0.lock();
        if let Some(count) = waiting.get_mut(&self.session) {
            *count -= 1;
            if *count == 0 {
                waiting.remove(&self.session);
            }
        }
    }
}

/// What a caller asks to wait for (`wait_for`'s arguments).
#[derive(Debug, Clone, Default)]
pub struct WaitRequest {
    /// The events' names.
    pub events: Vec<String>,
    /// For `finished`: only these tasks.
    pub task_ids: Option<Vec<String>>,
    /// What changed after this revision counts (default: from now).
    pub revision: Option<i64>,
    /// Seconds to wait at most (default: the most).
    pub timeout_seconds: Option<i64>,
}

/// The waiters of one board: its board, the tracker they share, the clock
/// and the longest wait.
#[derive(Debug, Clone)]
pub struct Waiters {
    /// The board's name, for the digest and the log.
    name: String,
    board: SharedBoard,
    tracker: SharedTracker,
    clock: Clock,
    max_wait: Duration,
    /// The calls waiting, per session.
    sessions: Arc<Sessions>,
}

/// What one look at the board found.
enum Look {
    /// A reply: what happened, or why the call is refused.
    Done(Reply),
    /// Nothing yet: the board's revision, the condition (its baseline set
    /// on the first look) and when the next dispatch stalls.
    Wait {
        revision: u64,
        condition: Condition,
        next_stall: Option<SystemTime>,
    },
}

impl Waiters {
    /// The waiters of board `name`, timed by `clock`, none waiting longer
    /// than `max_wait`.
    pub fn new(name: String, board: SharedBoard, clock: Clock, max_wait: Duration) -> Self {
        Self {
            name,
            board,
            tracker: SharedTracker::default(),
            clock,
            max_wait,
            sessions: Arc::default(),
        }
    }

    /// Waits as `p` asks, until `cancelled` (the client's cancellation).
    /// `session` names the caller's session (`""` for the one client of
    /// stdio): it may have [`MAX_WAITS_PER_SESSION`] calls waiting at once,
    /// and one more is refused.
    pub async fn wait(
        &self,
        session: &str,
        p: &WaitRequest,
        cancelled: CancellationToken,
    ) -> Result<String, String> {
        let (condition, task_ids, timeout) = match self.wait_request(p) {
            Ok(request) => request,
            Err(refused) => return Err(refused.to_string()),
        };
        let Some(_place) = self.sessions.take(session) else {
            return Err(format!(
                "This session has {MAX_WAITS_PER_SESSION} wait_for calls waiting already, the \
                 most one session may have at once (so that other clients keep their share of \
                 the server's connections): let one of them return, or cancel it, then wait \
                 again. One wait_for can wait for several events and tasks at once."
            ));
        };
        let deadline = tokio::time::Instant::now() + timeout;
        let mut changes = self.board.watch();
        let mut condition = Some((condition, task_ids));
        let mut known: Option<Condition> = None;
        let mut first = true;
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
            if std::mem::take(&mut first) {
                tracing::debug!(board = %self.name, revision, "wait_for waits");
            }
            let mut wake_at = deadline;
            if let Some(stall) = next_stall {
                let wait = stall
                    .duration_since(self.board.now(self.clock))
                    .unwrap_or(Duration::ZERO);
                wake_at = wake_at.min(tokio::time::Instant::now() + wait);
            }
            tokio::select! {
                biased;
                () = stopping::begun() => return Ok(wait_reply::shutting_down(revision)),
                () = cancelled.cancelled() => return Err("The wait was cancelled.".into()),
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
        p: &WaitRequest,
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
                    let now = shared.now(clock);
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
                                Err(refused) => return Look::Done(Err(refused.to_string())),
                            }
                            if condition.since == u64::MAX {
                                condition.since = revision;
                            }
                            condition
                        }
                        (None, None) => return Look::Done(Err("Nothing to wait for.".into())),
                    };
                    match tracker.check(&condition, now) {
                        Some(woke) => {
                            let since = tracker.baseline(condition.since);
                            let text = wait_reply::woke(view, &woke, since, revision);
                            Look::Done(Ok(text))
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
            Err(error) => Look::Done(Err(error.to_string())),
        }
    }

    /// The reply at the deadline: the digest as the board is now.
    async fn timed_out(&self, timeout: Duration) -> Reply {
        let (clock, name) = (self.clock, self.name.clone());
        let revisions = self.board.watch();
        let read = self
            .board
            .run(move |shared| {
                shared.read(|board| {
                    let revision = *revisions.borrow();
                    let set_aside = shared.set_aside();
                    let view = View::new(board, shared.now(clock)).with_set_aside(&set_aside);
                    wait_reply::timed_out(&name, view, timeout.as_secs(), revision)
                })
            })
            .await;
        read.map_err(|error| error.to_string())
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
type SharedTracker = std::sync::Arc<parking_lot::Mutex<Tracker>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Board, Limits, NewTask};
    use crate::toolsets::planning::store::MemoryStore;
    use crate::toolsets::team::domain::fixture::at;

    fn waiters() -> (Waiters, SharedBoard) {
        let empty = Board::new(Limits::default(), true).with_clock(Clock::fixed(at(0)));
        let board = SharedBoard::open(
            "default",
            Box::new(MemoryStore),
            empty,
            Duration::from_secs(5),
        )
        .unwrap();
        let name = "default".to_owned();
        let waiters = Waiters::new(
            name,
            board.clone(),
            Clock::fixed(at(0)),
            Duration::from_secs(60),
        );
        (waiters, board)
    }

    fn add(board: &SharedBoard, title: &str) {
        let task = NewTask::new(title, "");
        board
            .mutate(|b| b.add_tasks(std::slice::from_ref(&task)), |_, _| ())
            .unwrap();
    }

    fn request(events: &[&str], revision: Option<i64>) -> WaitRequest {
        WaitRequest {
            events: events.iter().map(|e| e.to_string()).collect(),
            revision,
            ..WaitRequest::default()
        }
    }

    /// The revision now: a wait for a change since a revision not reached
    /// answers at once, naming the current one.
    async fn revision(waiters: &Waiters) -> i64 {
        let reply = waiters
            .wait(
                "",
                &request(&["changed"], Some(i64::MAX)),
                CancellationToken::new(),
            )
            .await
            .unwrap();
        let line = reply.lines().last().unwrap();
        line.strip_prefix("Revision ")
            .and_then(|rest| rest.split(':').next())
            .unwrap()
            .parse()
            .unwrap()
    }

    #[tokio::test]
    async fn a_hundred_waiters_wake_on_one_change() {
        let (waiters, board) = waiters();
        let waiters = Arc::new(waiters);
        let since = revision(&waiters).await;
        let handles: Vec<_> = (0..100)
            .map(|_| {
                let waiters = waiters.clone();
                tokio::spawn(async move {
                    let ask = request(&["changed"], Some(since));
                    waiters.wait("", &ask, CancellationToken::new()).await
                })
            })
            .collect();
        add(&board, "a");
        for handle in handles {
            let reply = handle.await.unwrap().unwrap();
            assert!(
                reply.starts_with(&format!("The board changed since revision {since}.")),
                "{reply}"
            );
        }
    }

    #[tokio::test]
    async fn one_session_s_waits_are_capped_and_leave_room_for_others() {
        let (waiters, board) = waiters();
        let waiters = Arc::new(waiters);
        let since = revision(&waiters).await;
        let wait = |session: &'static str| {
            let waiters = waiters.clone();
            tokio::spawn(async move {
                let ask = request(&["changed"], Some(since));
                waiters.wait(session, &ask, CancellationToken::new()).await
            })
        };
        let greedy: Vec<_> = (0..MAX_WAITS_PER_SESSION).map(|_| wait("greedy")).collect();
        // Until every one of them holds its place (counted, not timed).
        while waiters.sessions.waiting("greedy") < MAX_WAITS_PER_SESSION {
            tokio::task::yield_now().await;
        }
        let refused = wait("greedy").await.unwrap().unwrap_err();
        assert!(
            refused.starts_with(&format!(
                "This session has {MAX_WAITS_PER_SESSION} wait_for calls waiting already"
            )),
            "{refused}"
        );
        // Another session waits as ever.
        let other = wait("other");
        while waiters.sessions.waiting("other") < 1 {
            tokio::task::yield_now().await;
        }
        add(&board, "a");
        for handle in greedy.into_iter().chain([other]) {
            assert!(handle.await.unwrap().is_ok());
        }
        // Every place was given back: the session may wait again.
        assert_eq!(waiters.sessions.waiting("greedy"), 0);
        assert!(waiters.sessions.0.lock().is_empty());
        let cancelled = CancellationToken::new();
        cancelled.cancel();
        let ask = request(&["changed"], None);
        let again = waiters.wait("greedy", &ask, cancelled).await;
        assert_eq!(again, Err("The wait was cancelled.".into()));
    }

    /// One real second: the shortest timeout there is.
    #[tokio::test]
    async fn a_wait_ends_at_its_timeout_with_the_digest() {
        let (waiters, board) = waiters();
        add(&board, "a");
        let mut ask = request(&["finished"], None);
        ask.timeout_seconds = Some(1);
        let reply = waiters
            .wait("", &ask, CancellationToken::new())
            .await
            .unwrap();
        assert!(
            reply.starts_with("Nothing you wait for happened within 1 s.\nRevision "),
            "{reply}"
        );
        assert!(reply.contains("# Board default"), "{reply}");
    }

    #[tokio::test]
    async fn a_cancelled_wait_ends() {
        let (waiters, _board) = waiters();
        let cancelled = CancellationToken::new();
        cancelled.cancel();
        let reply = waiters
            .wait("", &request(&["changed"], None), cancelled)
            .await;
        assert_eq!(reply, Err("The wait was cancelled.".into()));
    }

    #[tokio::test]
    async fn bad_requests_are_refused_with_the_reason() {
        let (waiters, board) = waiters();
        add(&board, "a");
        let refused = |ask: WaitRequest| {
            let waiters = waiters.clone();
            async move {
                waiters
                    .wait("", &ask, CancellationToken::new())
                    .await
                    .unwrap_err()
            }
        };
        assert_eq!(
            refused(request(&[], None)).await,
            "The events must name at least one event."
        );
        assert_eq!(
            refused(request(&["soon"], None)).await,
            "The event 'soon' is none of finished, ready, stalled, goal_met, changed, review, reviewed."
        );
        let mut ask = request(&["ready"], None);
        ask.task_ids = Some(vec!["x".into()]);
        assert_eq!(
            refused(ask).await,
            "The task_ids apply to the event finished only."
        );
        let mut ask = request(&["finished"], None);
        ask.task_ids = Some(vec!["ffffffff".into()]);
        assert!(
            refused(ask)
                .await
                .starts_with("No task has the ID 'ffffffff'")
        );
        for seconds in [0, 61] {
            let mut ask = request(&["changed"], None);
            ask.timeout_seconds = Some(seconds);
            assert_eq!(
                refused(ask).await,
                format!(
                    "The timeout is 1 to 60 seconds (team.max_wait_seconds); {seconds} is not."
                )
            );
        }
        assert_eq!(
            refused(request(&["changed"], Some(-1))).await,
            "The revision -1 is below 0."
        );
    }

    #[tokio::test]
    async fn a_named_task_that_is_finished_already_answers_at_once() {
        let (waiters, board) = waiters();
        add(&board, "a");
        let a = TaskId::from_content("a", "").to_string();
        board
            .mutate(
                |b| Ok(((), b.update_statuses(&[(&a, "failed")])?)),
                |_, ()| (),
            )
            .unwrap();
        let mut ask = request(&["finished"], None);
        ask.task_ids = Some(vec![a.clone()]);
        let reply = waiters
            .wait("", &ask, CancellationToken::new())
            .await
            .unwrap();
        assert!(
            reply.starts_with(&format!("Finished (1):\n- ☒ [{a}] a")),
            "{reply}"
        );
    }
}
