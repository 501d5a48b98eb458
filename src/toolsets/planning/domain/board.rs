// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board: a goal and tasks in creation order, with every rule of the
//! contract. Pure data and functions: no locks, no I/O, no MCP.
//!
//! Every mutation validates the whole request first and changes nothing when
//! it fails. A mutation that succeeds returns an [`Undo`], so that a caller
//! whose snapshot could not be saved can put the board back as it was.

use std::collections::{BTreeMap, HashMap};
use std::time::SystemTime;

use super::super::coordination::plan::Attach;
use super::action::{Action, Done};
use super::error::{BoardError, Field, Position};
use super::history::{ClaimEnd, DispatchEnd, Event, Goal, History, Recorded};
use super::id_hash::IdMap;
use super::task::{Status, Task, TaskId};
use crate::runtime::clock::Clock;
use crate::toolsets::planning::coordination::data::{Change, Coordination, Edit, Step};

/// The size limits from config `[planning]`, in Unicode characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most tasks the board holds.
    pub max_tasks: usize,
    /// The longest goal title, goal description (and change reason).
    pub max_goal_length: usize,
    /// The longest task title and task description.
    pub max_task_length: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tasks: 100,
            max_goal_length: 1000,
            max_task_length: 500,
        }
    }
}

/// A task as a request asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTask {
    /// Must not be blank.
    pub title: String,
    /// May be empty.
    pub description: String,
}

impl NewTask {
    /// A task with this title and description.
    pub fn new(title: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            description: description.into(),
        }
    }
}

/// What `add_tasks` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// IDs of the tasks added, in request order.
    pub(crate) added: Vec<TaskId>,
    /// IDs of the tasks skipped because the board or the batch already had
    /// the very same task.
    pub(crate) skipped: Vec<TaskId>,
    /// Whether the board had no tasks before the call.
    pub(crate) was_empty: bool,
}

/// What a successful mutation did ([`Undo::change`]: the action, as a
/// store that records operations appends it) and how to take it back, so
/// that a caller whose change could not be saved can put the board back
/// as it was.
#[derive(Debug)]
#[must_use = "keep the undo until the change is saved"]
pub struct Undo {
    step: UndoStep,
    history: Option<Recorded>,
    /// What takes back the change's effect on the coordination data, in
    /// the order it was made.
    journal: Vec<Change>,
    /// The change made, with the board's time when it was made.
    made: Done,
}

impl Undo {
    /// The action this mutation applied, with its time: what the shared
    /// board hands to the store with the board after it.
    pub(crate) fn change(&self) -> &Done {
        &self.made
    }
}

#[derive(Debug)]
enum UndoStep {
    Goal(Option<Goal>),
    Added { ids: Vec<TaskId>, next_seq: u64 },
    Statuses(Vec<(TaskId, Status)>),
    Modified { new_id: TaskId, before: Task },
    Deleted(Vec<(u64, Task)>),
}

/// The planning board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    limits: Limits,
    goal: Option<Goal>,
    /// Tasks keyed by a creation sequence number: iteration is creation order.
    tasks: BTreeMap<u64, Task>,
    /// Task ID to sequence number, for O(log n) single-task operations.
    index: IdMap<u64>,
    next_seq: u64,
    /// `None` when history is disabled.
    history: Option<History>,
    /// Claims, links, evidence and done-when (toolset `team`).
    coordination: Coordination,
    /// Where the times of new tasks and history entries come from: the
    /// board never reads the system clock itself.
    clock: Clock,
}

impl Board {
    /// An empty board.
    pub fn new(limits: Limits, history_enabled: bool) -> Self {
        Self {
            limits,
            goal: None,
            tasks: BTreeMap::new(),
            index: IdMap::default(),
            next_seq: 0,
            history: history_enabled.then(History::default),
            coordination: Coordination::default(),
            clock: Clock::system(),
        }
    }

    /// This board, timing its changes by `clock` (the system clock unless
    /// given).
    pub(crate) fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The clock this board times its changes by.
    pub(crate) fn clock(&self) -> Clock {
        self.clock
    }

    /// Times the board's changes from now on by `clock` (a replay sets
    /// each operation's own time).
    pub(crate) fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// This board with the given coordination data, as loaded from a
    /// snapshot (which checked that it names only tasks of the board).
    pub(crate) fn with_coordination(mut self, coordination: Coordination) -> Self {
        self.coordination = coordination;
        self
    }

    /// The board with `history` in place of its own (`None`: disabled).
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "the postgres backend's")
    )]
    pub(crate) fn with_history(mut self, history: Option<History>) -> Self {
        self.history = history;
        self
    }

    /// Claims, links, evidence and the goal's done-when condition.
    pub fn coordination(&self) -> &Coordination {
        &self.coordination
    }

    /// A board holding the given state, as loaded from a snapshot. Tasks keep
    /// the order given; a task whose ID repeats an earlier one is dropped.
    /// Limits are not applied: what was saved stays readable.
    pub fn restore(
        limits: Limits,
        goal: Option<Goal>,
        tasks: impl IntoIterator<Item = Task>,
        history: Option<History>,
    ) -> Self {
        let mut board = Self {
            history,
            goal,
            ..Self::new(limits, false)
        };
        for task in tasks {
            if !board.index.contains_key(&task.id) {
                board.push(task);
            }
        }
        board
    }

    /// The limits this board enforces.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// The goal, if one is set.
    pub fn goal(&self) -> Option<&Goal> {
        self.goal.as_ref()
    }

    /// All tasks, oldest first.
    pub(crate) fn tasks(&self) -> impl DoubleEndedIterator<Item = &Task> + ExactSizeIterator {
        self.tasks.values()
    }

    /// The task with this ID.
    pub(crate) fn task(&self, id: TaskId) -> Option<&Task> {
        self.index.get(&id).and_then(|seq| self.tasks.get(seq))
    }

    /// Where task `id` stands in creation order (larger is newer).
    pub(crate) fn position(&self, id: TaskId) -> Option<u64> {
        self.index.get(&id).copied()
    }

    /// How many tasks the board holds.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the board holds no tasks.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The history, when it is enabled.
    pub(crate) fn history(&self) -> Option<&History> {
        self.history.as_ref()
    }

    /// Sets the first goal. Refused when a goal exists.
    pub fn set_goal(&mut self, title: &str, description: &str) -> Result<Undo, BoardError> {
        if self.goal.is_some() {
            return Err(BoardError::GoalAlreadySet);
        }
        let goal = self.checked_goal(title, description)?;
        let now = self.clock.now();
        let history = self.record(vec![Event::GoalSet { goal: goal.clone() }], now);
        let made = Done {
            at: now,
            action: Action::SetGoal(goal.clone()),
        };
        let previous = self.goal.replace(goal);
        Ok(Undo {
            step: UndoStep::Goal(previous),
            history,
            journal: Vec::new(),
            made,
        })
    }

    /// Replaces the goal, keeping the tasks; the reason goes to the history.
    pub(crate) fn change_goal(
        &mut self,
        title: &str,
        description: &str,
        reason: &str,
    ) -> Result<Undo, BoardError> {
        let Some(current) = &self.goal else {
            return Err(BoardError::NoGoal);
        };
        let goal = self.checked_goal(title, description)?;
        let max = self.limits.max_goal_length;
        check_required(reason, Field::Reason, Position(None), max)?;
        let event = Event::GoalChanged {
            from: current.clone(),
            to: goal.clone(),
            reason: reason.to_owned(),
        };
        let now = self.clock.now();
        let history = self.record(vec![event], now);
        let action = Action::ChangeGoal {
            goal: goal.clone(),
            reason: reason.to_owned(),
        };
        let made = Done { at: now, action };
        let previous = self.goal.replace(goal);
        Ok(Undo {
            step: UndoStep::Goal(previous),
            history,
            journal: Vec::new(),
            made,
        })
    }

    /// Adds tasks in order, skipping any task the board (or an earlier task
    /// of the same batch) already has with the same title and description.
    /// A different task whose ID is taken is refused. All or nothing.
    pub fn add_tasks(&mut self, new_tasks: &[NewTask]) -> Result<(Added, Undo), BoardError> {
        if new_tasks.is_empty() {
            return Err(BoardError::EmptyRequest("tasks"));
        }
        let max = self.limits.max_task_length;
        let mut fresh = Vec::with_capacity(new_tasks.len());
        let mut skipped = Vec::new();
        let mut seen: HashMap<TaskId, &NewTask> = HashMap::with_capacity(new_tasks.len());
        for (n, new) in new_tasks.iter().enumerate() {
            let position = Position(Some(n + 1));
            check_required(&new.title, Field::TaskTitle, position, max)?;
            check_text(&new.description, Field::TaskDescription, position, max)?;
            let id = TaskId::from_content(&new.title, &new.description);
            // Four bytes of a hash collide now and then: only the very same
            // task is a duplicate; a different one with its ID is refused.
            let holder = match (self.task(id), seen.get(&id)) {
                (Some(task), _) => Some((task.title.as_str(), task.description.as_str())),
                (None, Some(earlier)) => {
                    Some((earlier.title.as_str(), earlier.description.as_str()))
                }
                (None, None) => None,
            };
            match holder {
                None => {
                    seen.insert(id, new);
                    fresh.push(new);
                }
                Some(same) if same == (new.title.as_str(), new.description.as_str()) => {
                    skipped.push(id);
                }
                Some((title, _)) => {
                    return Err(BoardError::IdCollision {
                        id: id.to_string(),
                        number: n + 1,
                        title: new.title.clone(),
                        holder: title.to_owned(),
                    });
                }
            }
        }
        let room = self.limits.max_tasks.saturating_sub(self.len());
        if fresh.len() > room {
            return Err(BoardError::TooManyTasks {
                adding: fresh.len(),
                current: self.len(),
                max: self.limits.max_tasks,
                room,
            });
        }
        let was_empty = self.is_empty();
        let next_seq = self.next_seq;
        let now = self.clock.now();
        let recorded: Vec<NewTask> = fresh.iter().map(|new| (*new).clone()).collect();
        let added: Vec<TaskId> = fresh
            .into_iter()
            .map(|new| self.push(Task::created(&new.title, &new.description, now)))
            .collect();
        let made = Done {
            at: now,
            action: Action::AddTasks(recorded),
        };
        let undo = Undo {
            step: UndoStep::Added {
                ids: added.clone(),
                next_seq,
            },
            history: None,
            journal: Vec::new(),
            made,
        };
        Ok((
            Added {
                added,
                skipped,
                was_empty,
            },
            undo,
        ))
    }

    /// Adds tasks as [`Board::add_tasks`] does, then what `attach` decides
    /// on the board with them (toolset `team`'s links and touches, which may
    /// name the tasks just added), as one change: one undo, one action
    /// ([`Action::Plan`], or [`Action::AddTasks`] when nothing is
    /// attached). All or nothing: when `attach` refuses, or names a task
    /// that is not on the board, the tasks are taken back.
    pub(crate) fn add_tasks_with<E: From<BoardError>>(
        &mut self,
        new_tasks: &[NewTask],
        attach: impl FnOnce(&Board, &Added) -> Result<Vec<Attach>, E>,
    ) -> Result<(Added, Vec<Attach>, Undo), E> {
        let (added, mut undo) = self.add_tasks(new_tasks)?;
        let attached = match attach(self, &added) {
            Ok(attached) => attached,
            Err(refused) => {
                self.undo(undo);
                return Err(refused);
            }
        };
        if attached.is_empty() {
            return Ok((added, attached, undo));
        }
        let edits: Vec<Edit> = attached.iter().cloned().map(Edit::from).collect();
        // Links and touches change only the coordination data: the edit's
        // undo is its journal (no status, no history entry).
        let edited = match self.edit(undo.made.at, edits.clone()) {
            Ok(edited) => edited,
            Err(refused) => {
                self.undo(undo);
                return Err(refused.into());
            }
        };
        undo.journal = edited.journal;
        let Action::AddTasks(tasks) = &mut undo.made.action else {
            unreachable!("add_tasks returns the action AddTasks")
        };
        let tasks = std::mem::take(tasks);
        undo.made.action = Action::Plan { tasks, edits };
        Ok((added, attached, undo))
    }

    /// Sets statuses, all or nothing: every ID must exist and every status be
    /// valid. When an ID repeats, its last status wins.
    pub fn update_statuses(&mut self, updates: &[(&str, &str)]) -> Result<Undo, BoardError> {
        self.update_statuses_reviewed(updates, false)
    }

    /// Sets statuses as [`Board::update_statuses`] does, the way a planning
    /// tool may: never to `awaiting_review`, never on a task that awaits a
    /// person's review (only the person's approval or rejection changes
    /// it), and, when `review_required`, never to `completed` (an agent's
    /// completion must wait for the person). Refused, nothing changes.
    pub(crate) fn update_statuses_reviewed(
        &mut self,
        updates: &[(&str, &str)],
        review_required: bool,
    ) -> Result<Undo, BoardError> {
        if updates.is_empty() {
            return Err(BoardError::EmptyRequest("tasks"));
        }
        let statuses = updates
            .iter()
            .map(|(_, status)| status.parse::<Status>())
            .collect::<Result<Vec<_>, _>>()?;
        if statuses.contains(&Status::AwaitingReview) {
            return Err(BoardError::ReviewStatusByHand);
        }
        let seqs = self.resolve(updates.iter().map(|(id, _)| *id))?;
        let resolved: Vec<(TaskId, Status)> = seqs
            .iter()
            .zip(statuses)
            .map(|(seq, status)| (self.tasks[seq].id, status))
            .collect();
        for &(id, status) in &resolved {
            let current = self.task(id).map(|task| task.status);
            if current == Some(Status::AwaitingReview) {
                return Err(BoardError::AwaitsReview { id: id.to_string() });
            }
            if review_required && status == Status::Completed && current != Some(status) {
                return Err(BoardError::ReviewRequired);
            }
        }
        Ok(self.set_statuses(&resolved))
    }

    /// Sets the statuses of tasks on the board, as `update_statuses` does
    /// once it has checked the request (a replay gives IDs it checked).
    /// IDs not on the board are passed over.
    pub(crate) fn set_statuses(&mut self, updates: &[(TaskId, Status)]) -> Undo {
        let mut previous = Vec::with_capacity(updates.len());
        let mut events = Vec::new();
        let mut journal = Vec::new();
        let mut done = Vec::with_capacity(updates.len());
        for &(id, status) in updates {
            if let Some(&seq) = self.index.get(&id) {
                self.set_status(seq, status, &mut previous, &mut events, &mut journal);
                done.push((id, status));
            }
        }
        let now = self.clock.now();
        let history = self.record(events, now);
        let made = Done {
            at: now,
            action: Action::SetStatuses(done),
        };
        Undo {
            step: UndoStep::Statuses(previous),
            history,
            journal,
            made,
        }
    }

    /// Applies coordination edits (toolset `team`'s decisions) as one
    /// change, recording history entries at `at`. All or nothing: every
    /// task named must be on the board.
    pub fn edit(&mut self, at: SystemTime, edits: Vec<Edit>) -> Result<Undo, BoardError> {
        let unknown: Vec<String> = edits
            .iter()
            .flat_map(Edit::tasks)
            .filter(|id| !self.index.contains_key(id))
            .map(|id| id.to_string())
            .collect();
        if !unknown.is_empty() {
            return Err(BoardError::UnknownTasks(unknown));
        }
        let (mut previous, mut events, mut journal) = (Vec::new(), Vec::new(), Vec::new());
        let made = Done {
            at,
            action: Action::Edit(edits.clone()),
        };
        for edit in edits {
            match edit.into_step() {
                Step::Status(id, status) => {
                    let seq = self.index[&id];
                    self.set_status_only(seq, status, &mut previous, &mut events, &mut journal);
                }
                Step::Record(event) => events.push(event),
                Step::Change(change) => journal.push(self.coordination.apply(change)),
            }
        }
        let history = self
            .history
            .as_mut()
            .map(|history| history.record_at(events, at));
        Ok(Undo {
            step: UndoStep::Statuses(previous),
            history,
            journal,
            made,
        })
    }

    /// Sets task `seq`'s status as a planning tool does: a claim ends when
    /// the task leaves `in_progress`, and so does a dispatch record when the
    /// status changes to anything but `in_progress` (the planning tools
    /// are the operator's override; see docs/team.md).
    fn set_status(
        &mut self,
        seq: u64,
        status: Status,
        previous: &mut Vec<(TaskId, Status)>,
        events: &mut Vec<Event>,
        journal: &mut Vec<Change>,
    ) {
        let task = &self.tasks[&seq];
        if status != Status::InProgress
            && let Some(claim) = self.coordination.claim(task.id)
        {
            events.push(Event::ClaimEnded {
                task_id: task.id,
                title: task.title.clone(),
                holder: claim.holder.clone(),
                until: claim.until,
                reason: ClaimEnd::StatusChanged,
            });
            journal.push(self.coordination.apply(Change::Claim(task.id, None)));
        }
        if status != Status::InProgress
            && status != task.status
            && let Some(dispatch) = self.coordination.dispatch(task.id)
        {
            events.push(Event::DispatchEnded {
                task_id: task.id,
                title: task.title.clone(),
                worker: dispatch.worker.clone(),
                reason: DispatchEnd::StatusChanged,
            });
            journal.push(self.coordination.apply(Change::Dispatch(task.id, None)));
        }
        self.set_status_only(seq, status, previous, events, journal);
    }

    /// Sets task `seq`'s status, recording the change; evidence (and who
    /// completed the task without it) belongs to an outcome, so a change of
    /// status drops it.
    fn set_status_only(
        &mut self,
        seq: u64,
        status: Status,
        previous: &mut Vec<(TaskId, Status)>,
        events: &mut Vec<Event>,
        journal: &mut Vec<Change>,
    ) {
        #[allow(
            clippy::expect_used,
            reason = "callers pass sequence numbers of tasks on the board"
        )]
        let task = self.tasks.get_mut(&seq).expect("the task exists");
        if task.status == status {
            return;
        }
        previous.push((task.id, task.status));
        events.push(Event::StatusChanged {
            task_id: task.id,
            title: task.title.clone(),
            from: task.status,
            to: status,
        });
        task.status = status;
        if self.coordination.evidence(task.id).is_some() {
            journal.push(self.coordination.apply(Change::Evidence(task.id, None)));
        }
        if self.coordination.completed_by(task.id).is_some() {
            journal.push(self.coordination.apply(Change::CompletedBy(task.id, None)));
        }
    }

    /// Changes a task's title and/or description (an omitted one is kept).
    /// The task keeps its status and place; its ID is derived anew, and the
    /// change is refused when that ID belongs to another task.
    pub fn modify_task(
        &mut self,
        task_id: &str,
        title: Option<&str>,
        description: Option<&str>,
    ) -> Result<(TaskId, Undo), BoardError> {
        if title.is_none() && description.is_none() {
            return Err(BoardError::NothingToModify);
        }
        let [seq] = self.resolve([task_id])?[..] else {
            unreachable!("one ID resolves to one task")
        };
        self.modify_at(seq, title, description)
    }

    /// Rewords task `id`, which must be on the board, as `modify_task` does
    /// (a replay gives IDs it checked).
    pub(crate) fn modify_id(
        &mut self,
        id: TaskId,
        title: Option<&str>,
        description: Option<&str>,
    ) -> Result<(TaskId, Undo), BoardError> {
        if title.is_none() && description.is_none() {
            return Err(BoardError::NothingToModify);
        }
        match self.index.get(&id) {
            Some(&seq) => self.modify_at(seq, title, description),
            None => Err(BoardError::UnknownTasks(vec![id.to_string()])),
        }
    }

    /// Rewords the task with sequence number `seq`, on the board.
    fn modify_at(
        &mut self,
        seq: u64,
        title: Option<&str>,
        description: Option<&str>,
    ) -> Result<(TaskId, Undo), BoardError> {
        let max = self.limits.max_task_length;
        if let Some(title) = title {
            check_required(title, Field::TaskTitle, Position(None), max)?;
        }
        if let Some(description) = description {
            check_text(description, Field::TaskDescription, Position(None), max)?;
        }
        let action = Action::Modify {
            id: self.tasks[&seq].id,
            title: title.map(str::to_owned),
            description: description.map(str::to_owned),
        };
        let task = &self.tasks[&seq];
        let title = title.unwrap_or(&task.title);
        let description = description.unwrap_or(&task.description);
        let new_id = TaskId::from_content(title, description);
        if new_id != task.id && self.index.contains_key(&new_id) {
            return Err(BoardError::IdTaken {
                id: new_id.to_string(),
            });
        }
        let (title, description) = (title.to_owned(), description.to_owned());
        #[allow(
            clippy::expect_used,
            reason = "resolve() returned only tasks on the board"
        )]
        let task = self.tasks.get_mut(&seq).expect("resolved IDs exist");
        let before = task.clone();
        task.id = new_id;
        task.title = title;
        task.description = description;
        self.index.remove(&before.id);
        self.index.insert(new_id, seq);
        // Claims, links and evidence follow the task to its new ID.
        let mut journal = match new_id == before.id {
            true => Vec::new(),
            false => vec![self.coordination.apply(Change::Rekey {
                from: before.id,
                to: new_id,
            })],
        };
        // Its holder still calls it by the old ID: remember the new one.
        if new_id != before.id && self.coordination.claim(new_id).is_some() {
            journal.push(
                self.coordination
                    .apply(Change::Renamed(before.id, Some(new_id))),
            );
        }
        let made = Done {
            at: self.clock.now(),
            action,
        };
        Ok((
            new_id,
            Undo {
                step: UndoStep::Modified { new_id, before },
                history: None,
                journal,
                made,
            },
        ))
    }

    /// Deletes tasks, all or nothing: every ID must exist.
    pub fn delete_tasks(&mut self, task_ids: &[&str]) -> Result<Undo, BoardError> {
        if task_ids.is_empty() {
            return Err(BoardError::EmptyRequest("task IDs"));
        }
        let seqs = self.resolve(task_ids.iter().copied())?;
        let ids: Vec<TaskId> = seqs.iter().map(|seq| self.tasks[seq].id).collect();
        Ok(self.delete_ids(&ids))
    }

    /// Deletes the tasks `ids` names, as `delete_tasks` does once it has
    /// checked the request (a replay gives IDs it checked). IDs not on the
    /// board, or given twice, are passed over.
    pub(crate) fn delete_ids(&mut self, ids: &[TaskId]) -> Undo {
        let mut removed = Vec::with_capacity(ids.len());
        let (mut events, mut journal) = (Vec::new(), Vec::new());
        let mut deleted = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(seq) = self.index.remove(id) else {
                continue;
            };
            if let Some(task) = self.tasks.remove(&seq) {
                events.extend(self.detach_events(&task));
                journal.extend(self.coordination.detach(task.id));
                deleted.push(task.id);
                removed.push((seq, task));
            }
        }
        let now = self.clock.now();
        let history = match events.is_empty() {
            true => None,
            false => self.record(events, now),
        };
        let made = Done {
            at: now,
            action: Action::Delete(deleted),
        };
        Undo {
            step: UndoStep::Deleted(removed),
            history,
            journal,
            made,
        }
    }

    /// What the history says when `task`, about to be deleted, holds a
    /// claim or is a blocker of other tasks: no link may dangle.
    fn detach_events(&self, task: &Task) -> Vec<Event> {
        let mut events = Vec::new();
        if let Some(claim) = self.coordination.claim(task.id) {
            events.push(Event::ClaimEnded {
                task_id: task.id,
                title: task.title.clone(),
                holder: claim.holder.clone(),
                until: claim.until,
                reason: ClaimEnd::Deleted,
            });
        }
        if let Some(dispatch) = self.coordination.dispatch(task.id) {
            events.push(Event::DispatchEnded {
                task_id: task.id,
                title: task.title.clone(),
                worker: dispatch.worker.clone(),
                reason: DispatchEnd::Deleted,
            });
        }
        let dependents = self.coordination.dependents(task.id);
        if !dependents.is_empty() {
            events.push(Event::LinksRemoved {
                task_id: task.id,
                title: task.title.clone(),
                dependents: dependents.iter().copied().collect(),
            });
        }
        events
    }

    /// Takes back a mutation. Only valid for the most recent mutation that has
    /// not been undone, which is how the shared board uses it.
    pub fn undo(&mut self, undo: Undo) {
        for change in undo.journal.into_iter().rev() {
            let _ = self.coordination.apply(change);
        }
        match undo.step {
            UndoStep::Goal(previous) => self.goal = previous,
            UndoStep::Added { ids, next_seq } => {
                for id in ids {
                    if let Some(seq) = self.index.remove(&id) {
                        self.tasks.remove(&seq);
                    }
                }
                self.next_seq = next_seq;
            }
            UndoStep::Statuses(previous) => {
                // Reversed, so that an ID that changed twice ends at its first status.
                for (id, status) in previous.into_iter().rev() {
                    if let Some(task) = self.index.get(&id).and_then(|seq| self.tasks.get_mut(seq))
                    {
                        task.status = status;
                    }
                }
            }
            UndoStep::Modified { new_id, before } => {
                if let Some(seq) = self.index.remove(&new_id) {
                    self.index.insert(before.id, seq);
                    self.tasks.insert(seq, before);
                }
            }
            UndoStep::Deleted(removed) => {
                for (seq, task) in removed {
                    self.index.insert(task.id, seq);
                    self.tasks.insert(seq, task);
                }
            }
        }
        if let (Some(history), Some(recorded)) = (&mut self.history, undo.history) {
            history.unrecord(recorded);
        }
    }

    fn push(&mut self, task: Task) -> TaskId {
        let (id, seq) = (task.id, self.next_seq);
        self.next_seq += 1;
        self.index.insert(id, seq);
        self.tasks.insert(seq, task);
        id
    }

    /// Maps request IDs to sequence numbers, or names every ID that matches no task.
    fn resolve<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> Result<Vec<u64>, BoardError> {
        let mut seqs = Vec::new();
        let mut unknown: Vec<String> = Vec::new();
        for text in ids {
            match TaskId::parse(text).and_then(|id| self.index.get(&id)) {
                Some(&seq) => seqs.push(seq),
                None if !unknown.iter().any(|u| u == text) => unknown.push(text.to_owned()),
                None => {}
            }
        }
        if unknown.is_empty() {
            return Ok(seqs);
        }
        // A held task that a person reworded: name its new ID.
        if let [text] = unknown.as_slice()
            && let Some(new) = TaskId::parse(text)
                .and_then(|old| self.coordination.renamed_to(old))
                .filter(|new| self.index.contains_key(new))
        {
            return Err(BoardError::Reworded {
                old: text.clone(),
                new: new.to_string(),
            });
        }
        Err(BoardError::UnknownTasks(unknown))
    }

    fn checked_goal(&self, title: &str, description: &str) -> Result<Goal, BoardError> {
        let max = self.limits.max_goal_length;
        check_required(title, Field::GoalTitle, Position(None), max)?;
        check_text(description, Field::GoalDescription, Position(None), max)?;
        Ok(Goal {
            title: title.to_owned(),
            description: description.to_owned(),
        })
    }

    /// Records `events` in the history (when enabled) at `now`.
    fn record(&mut self, events: Vec<Event>, now: SystemTime) -> Option<Recorded> {
        self.history
            .as_mut()
            .map(|history| history.record_at(events, now))
    }
}

/// Checks a text that must not be blank (titles, the reason) and its length.
fn check_required(
    text: &str,
    field: Field,
    position: Position,
    max: usize,
) -> Result<(), BoardError> {
    if text.trim().is_empty() {
        return Err(BoardError::Blank { field, position });
    }
    check_text(text, field, position, max)
}

/// Checks a text's length in characters.
fn check_text(text: &str, field: Field, position: Position, max: usize) -> Result<(), BoardError> {
    // A string has at least as many bytes as characters: skip the count when short.
    if text.len() > max {
        let actual = text.chars().count();
        if actual > max {
            return Err(BoardError::TooLong {
                field,
                position,
                actual,
                max,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::history::HISTORY_CAP;

    fn new(title: &str, description: &str) -> NewTask {
        NewTask::new(title, description)
    }

    fn id(title: &str, description: &str) -> String {
        TaskId::from_content(title, description).to_string()
    }

    fn board() -> Board {
        Board::new(Limits::default(), true)
    }

    fn board_with(titles: &[&str]) -> Board {
        let mut board = board();
        let tasks: Vec<NewTask> = titles.iter().map(|t| new(t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        board
    }

    fn titles(board: &Board) -> Vec<&str> {
        board.tasks().map(|t| t.title.as_str()).collect()
    }

    fn small_limits() -> Limits {
        Limits {
            max_tasks: 3,
            max_goal_length: 5,
            max_task_length: 4,
        }
    }

    #[test]
    fn tasks_and_history_are_timed_by_the_boards_clock() {
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000);
        let mut board = board().with_clock(Clock::fixed(at));
        assert_eq!(board.clock(), Clock::fixed(at));
        let _ = board.set_goal("Ship", "").unwrap();
        let _ = board.add_tasks(&[new("a", "")]).unwrap();
        let _ = board
            .update_statuses(&[(&id("a", ""), "completed")])
            .unwrap();
        assert_eq!(board.tasks().next().unwrap().created_at, at);
        let times: Vec<SystemTime> = board.history().unwrap().entries().map(|e| e.at).collect();
        assert_eq!(times, [at, at]);
    }

    #[test]
    fn set_goal_once_then_refuse() {
        let mut board = board();
        let _ = board.set_goal("Ship", "the release").unwrap();
        assert_eq!(board.goal().unwrap().title, "Ship");
        assert_eq!(
            board.set_goal("Other", "x").unwrap_err(),
            BoardError::GoalAlreadySet
        );
        assert_eq!(board.goal().unwrap().title, "Ship");
    }

    #[test]
    fn change_goal_needs_a_goal_and_a_reason() {
        let mut board = board_with(&["a"]);
        assert_eq!(
            board.change_goal("New", "d", "why").unwrap_err(),
            BoardError::NoGoal
        );
        let _ = board.set_goal("Old", "d").unwrap();
        for reason in ["", "  \n\t"] {
            assert_eq!(
                board.change_goal("New", "d", reason).unwrap_err(),
                BoardError::Blank {
                    field: Field::Reason,
                    position: Position(None)
                }
            );
        }
        let _ = board.change_goal("New", "d2", "scope changed").unwrap();
        assert_eq!(board.goal().unwrap().title, "New");
        assert_eq!(titles(&board), ["a"], "tasks are kept");
        let last = board.history().unwrap().entries().last().unwrap();
        assert!(
            matches!(&last.event, Event::GoalChanged { reason, from, .. }
            if reason == "scope changed" && from.title == "Old")
        );
    }

    #[test]
    fn blank_titles_are_refused_everywhere() {
        let mut board = board();
        assert!(matches!(
            board.set_goal(" ", "d"),
            Err(BoardError::Blank {
                field: Field::GoalTitle,
                ..
            })
        ));
        let _ = board.set_goal("g", "").unwrap();
        assert!(matches!(
            board.change_goal("\n", "d", "r"),
            Err(BoardError::Blank {
                field: Field::GoalTitle,
                ..
            })
        ));
        assert_eq!(
            board
                .add_tasks(&[new("ok", ""), new("\t", "")])
                .unwrap_err(),
            BoardError::Blank {
                field: Field::TaskTitle,
                position: Position(Some(2))
            }
        );
        assert!(board.is_empty(), "all or nothing");
        let _ = board.add_tasks(&[new("ok", "")]).unwrap();
        assert!(matches!(
            board.modify_task(&id("ok", ""), Some(""), None),
            Err(BoardError::Blank {
                field: Field::TaskTitle,
                ..
            })
        ));
    }

    #[test]
    fn goal_limits_at_n_and_n_plus_one_in_characters() {
        let mut board = Board::new(small_limits(), true);
        let five = "ééééé"; // 5 characters, 10 bytes
        let six = "éééééé";
        assert!(matches!(
            board.set_goal(six, ""),
            Err(BoardError::TooLong {
                field: Field::GoalTitle,
                actual: 6,
                max: 5,
                ..
            })
        ));
        assert!(matches!(
            board.set_goal("t", six),
            Err(BoardError::TooLong {
                field: Field::GoalDescription,
                actual: 6,
                ..
            })
        ));
        let _ = board.set_goal(five, five).unwrap();
        assert!(matches!(
            board.change_goal("t", "d", six),
            Err(BoardError::TooLong {
                field: Field::Reason,
                ..
            })
        ));
        let _ = board.change_goal(five, five, five).unwrap();
    }

    #[test]
    fn task_limits_at_n_and_n_plus_one_in_characters() {
        let mut board = Board::new(small_limits(), true);
        let four = "✓✓✓✓";
        let five = "✓✓✓✓✓";
        assert_eq!(
            board.add_tasks(&[new(five, "")]).unwrap_err(),
            BoardError::TooLong {
                field: Field::TaskTitle,
                position: Position(Some(1)),
                actual: 5,
                max: 4
            }
        );
        assert!(matches!(
            board.add_tasks(&[new("a", five)]),
            Err(BoardError::TooLong {
                field: Field::TaskDescription,
                ..
            })
        ));
        let _ = board.add_tasks(&[new(four, four)]).unwrap();
        let task_id = id(four, four);
        assert!(matches!(
            board.modify_task(&task_id, Some(five), None),
            Err(BoardError::TooLong {
                field: Field::TaskTitle,
                position: Position(None),
                ..
            })
        ));
        assert!(matches!(
            board.modify_task(&task_id, None, Some(five)),
            Err(BoardError::TooLong {
                field: Field::TaskDescription,
                ..
            })
        ));
    }

    #[test]
    fn max_tasks_at_n_and_n_plus_one() {
        let mut board = Board::new(small_limits(), true);
        let _ = board.add_tasks(&[new("a", ""), new("b", "")]).unwrap();
        assert_eq!(
            board.add_tasks(&[new("c", ""), new("d", "")]).unwrap_err(),
            BoardError::TooManyTasks {
                adding: 2,
                current: 2,
                max: 3,
                room: 1
            }
        );
        assert_eq!(board.len(), 2, "refused whole");
        // Duplicates that would be skipped do not count against the limit.
        let (added, _) = board
            .add_tasks(&[new("a", ""), new("c", ""), new("c", "")])
            .unwrap();
        assert_eq!(added.added.len(), 1);
        assert_eq!(added.skipped.len(), 2);
        assert_eq!(board.len(), 3);
        assert!(matches!(
            board.add_tasks(&[new("z", "")]),
            Err(BoardError::TooManyTasks { room: 0, .. })
        ));
    }

    #[test]
    fn a_different_task_with_a_taken_id_is_refused_naming_both() {
        // Two titles whose IDs collide (the first four bytes of SHA-256).
        let (one, other) = ("task 39268", "task 82102");
        assert_eq!(id(one, ""), "187c9cb2");
        assert_eq!(id(other, ""), "187c9cb2");
        let mut full = board_with(&[one]);
        let before = full.clone();
        let refused = full
            .add_tasks(&[new("fresh", ""), new(other, "")])
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Task 2 of the request, 'task 82102', gets the ID 187c9cb2, which the different task 'task 39268' already has (the IDs collide); word it a little differently."
        );
        assert_eq!(full, before, "nothing was added");
        // Within one batch too.
        let mut empty = board();
        let refused = empty
            .add_tasks(&[new(other, ""), new(one, "")])
            .unwrap_err();
        assert!(matches!(refused, BoardError::IdCollision { number: 2, .. }));
        assert!(empty.is_empty());
    }

    #[test]
    fn duplicates_are_skipped_and_order_is_creation_order() {
        let mut board = board_with(&["first", "second"]);
        let (added, _) = board
            .add_tasks(&[new("third", ""), new("first", ""), new("third", "")])
            .unwrap();
        assert_eq!(added.added, [TaskId::from_content("third", "")]);
        assert_eq!(
            added.skipped,
            [
                TaskId::from_content("first", ""),
                TaskId::from_content("third", "")
            ]
        );
        assert!(!added.was_empty);
        assert_eq!(titles(&board), ["first", "second", "third"]);
    }

    #[test]
    fn add_reports_an_empty_board_and_refuses_an_empty_batch() {
        let mut board = board();
        assert_eq!(
            board.add_tasks(&[]).unwrap_err(),
            BoardError::EmptyRequest("tasks")
        );
        let (added, _) = board.add_tasks(&[new("a", "")]).unwrap();
        assert!(added.was_empty);
    }

    #[test]
    fn update_is_all_or_nothing() {
        let mut board = board_with(&["a", "b"]);
        let (a, b) = (id("a", ""), id("b", ""));
        assert_eq!(
            board
                .update_statuses(&[
                    (&a, "completed"),
                    ("ffffffff", "failed"),
                    ("nope", "failed")
                ])
                .unwrap_err(),
            BoardError::UnknownTasks(vec!["ffffffff".into(), "nope".into()])
        );
        assert!(matches!(
            board.update_statuses(&[(&a, "completed"), (&b, "done")]),
            Err(BoardError::UnknownStatus(_))
        ));
        assert!(board.tasks().all(|t| t.status == Status::Pending));
        let _ = board
            .update_statuses(&[(&a, "completed"), (&b, "in_progress")])
            .unwrap();
        let statuses: Vec<Status> = board.tasks().map(|t| t.status).collect();
        assert_eq!(statuses, [Status::Completed, Status::InProgress]);
    }

    #[test]
    fn ids_match_exactly() {
        let mut board = board_with(&["Write tests"]);
        for bad in ["A46F8D35", " a46f8d35", "a46f8d3"] {
            assert_eq!(
                board.update_statuses(&[(bad, "completed")]).unwrap_err(),
                BoardError::UnknownTasks(vec![bad.into()])
            );
        }
        let _ = board.update_statuses(&[("a46f8d35", "completed")]).unwrap();
    }

    #[test]
    fn any_status_moves_to_any_other_and_changes_are_recorded() {
        let mut board = board_with(&["a"]);
        let a = id("a", "");
        for from in Status::ALL {
            for to in Status::ALL {
                let _ = board.update_statuses(&[(&a, from.as_str())]).unwrap();
                let _ = board.update_statuses(&[(&a, to.as_str())]).unwrap();
                assert_eq!(board.tasks().next().unwrap().status, to);
            }
        }
        let changes = board
            .history()
            .unwrap()
            .entries()
            .filter(|e| matches!(e.event, Event::StatusChanged { .. }))
            .count();
        assert!(changes > 0);
        // Setting the status a task already has records nothing.
        let before = board.history().unwrap().entries().len();
        let _ = board.update_statuses(&[(&a, "cancelled")]).unwrap();
        assert_eq!(board.history().unwrap().entries().len(), before);
    }

    #[test]
    fn modify_regenerates_the_id_and_keeps_status_and_place() {
        let mut board = board_with(&["a", "b", "c"]);
        let _ = board
            .update_statuses(&[(&id("b", ""), "in_progress")])
            .unwrap();
        let (new_id, _) = board.modify_task(&id("b", ""), None, Some("more")).unwrap();
        assert_eq!(new_id, TaskId::from_content("b", "more"));
        assert_eq!(titles(&board), ["a", "b", "c"]);
        let task = board.task(new_id).unwrap();
        assert_eq!(
            (task.status, task.description.as_str()),
            (Status::InProgress, "more")
        );
        assert!(board.task(TaskId::from_content("b", "")).is_none());
        let (renamed, _) = board
            .modify_task(&new_id.to_string(), Some("B"), None)
            .unwrap();
        assert_eq!(renamed, TaskId::from_content("B", "more"));
    }

    #[test]
    fn modify_refuses_a_taken_id_and_needs_a_field() {
        let mut board = board_with(&["a", "b"]);
        let before = board.clone();
        assert_eq!(
            board
                .modify_task(&id("a", ""), Some("b"), None)
                .unwrap_err(),
            BoardError::IdTaken { id: id("b", "") }
        );
        assert_eq!(
            board.modify_task(&id("a", ""), None, None).unwrap_err(),
            BoardError::NothingToModify
        );
        assert_eq!(
            board.modify_task("12345678", Some("x"), None).unwrap_err(),
            BoardError::UnknownTasks(vec!["12345678".into()])
        );
        assert_eq!(board, before);
        // The same content again is not a collision with itself.
        let (same, _) = board.modify_task(&id("a", ""), Some("a"), None).unwrap();
        assert_eq!(same.to_string(), id("a", ""));
    }

    #[test]
    fn delete_is_all_or_nothing() {
        let mut board = board_with(&["a", "b", "c"]);
        assert_eq!(
            board.delete_tasks(&[&id("a", ""), "00000000"]).unwrap_err(),
            BoardError::UnknownTasks(vec!["00000000".into()])
        );
        assert_eq!(board.len(), 3);
        assert_eq!(
            board.delete_tasks(&[]).unwrap_err(),
            BoardError::EmptyRequest("task IDs")
        );
        let _ = board
            .delete_tasks(&[&id("a", ""), &id("c", ""), &id("a", "")])
            .unwrap();
        assert_eq!(titles(&board), ["b"]);
        // A deleted task can be added again, at the end.
        let _ = board.add_tasks(&[new("a", "")]).unwrap();
        assert_eq!(titles(&board), ["b", "a"]);
    }

    #[test]
    fn tasks_and_what_is_attached_to_them_are_one_change() {
        let mut board = board_with(&["old"]);
        let before = board.clone();
        let (a, old) = (
            TaskId::from_content("a", ""),
            TaskId::from_content("old", ""),
        );
        let attach = |_: &Board, _: &Added| {
            Ok::<_, BoardError>(vec![
                Attach::Link {
                    task: a,
                    blocker: old,
                },
                Attach::Touches(a, vec!["src/**".into()]),
            ])
        };
        let (added, attached, undo) = board.add_tasks_with(&[new("a", "")], attach).unwrap();
        assert_eq!((added.added, attached.len()), (vec![a], 2));
        assert_eq!(board.coordination().link_count(), 1);
        assert_eq!(
            undo.change().action,
            Action::Plan {
                tasks: vec![new("a", "")],
                edits: vec![
                    Edit::Link {
                        task: a,
                        blocker: old
                    },
                    Edit::Touches(a, vec!["src/**".into()]),
                ],
            }
        );
        board.undo(undo);
        assert_eq!(
            board, before,
            "one undo takes back the tasks and their links"
        );
        // A refusal, or a task that is not on the board, takes the tasks back.
        let refused = board.add_tasks_with(&[new("a", "")], |_, _| Err(BoardError::NoGoal));
        assert_eq!(refused.unwrap_err(), BoardError::NoGoal);
        let ghost = TaskId::from_content("ghost", "");
        let unknown = board.add_tasks_with(&[new("a", "")], |_, _| {
            Ok::<_, BoardError>(vec![Attach::Link {
                task: a,
                blocker: ghost,
            }])
        });
        assert_eq!(
            unknown.unwrap_err(),
            BoardError::UnknownTasks(vec![ghost.to_string()])
        );
        assert_eq!(board, before);
        // Nothing attached: the add as it always was.
        let (_, _, undo) = board
            .add_tasks_with(&[new("a", "")], |_, _| Ok::<_, BoardError>(Vec::new()))
            .unwrap();
        assert_eq!(undo.change().action, Action::AddTasks(vec![new("a", "")]));
    }

    #[test]
    fn every_mutation_can_be_undone() {
        let mut board = board_with(&["a", "b", "c"]);
        let _ = board.set_goal("g", "d").unwrap();
        let _ = board
            .update_statuses(&[(&id("a", ""), "completed")])
            .unwrap();
        let original = board.clone();
        type Mutation = Box<dyn Fn(&mut Board) -> Undo>;
        let mutations: Vec<Mutation> = vec![
            Box::new(|b| b.change_goal("h", "e", "why").unwrap()),
            Box::new(|b| b.add_tasks(&[new("d", ""), new("a", "")]).unwrap().1),
            Box::new(|b| {
                b.update_statuses(&[(&id("b", ""), "failed"), (&id("b", ""), "cancelled")])
                    .unwrap()
            }),
            Box::new(|b| b.modify_task(&id("b", ""), Some("B"), Some("x")).unwrap().1),
            Box::new(|b| b.delete_tasks(&[&id("c", ""), &id("a", "")]).unwrap()),
        ];
        for mutate in mutations {
            let undo = mutate(&mut board);
            assert_ne!(board, original);
            board.undo(undo);
            assert_eq!(board, original);
        }
        let mut fresh = Board::new(Limits::default(), true);
        let undo = fresh.set_goal("g", "d").unwrap();
        fresh.undo(undo);
        assert_eq!(fresh, Board::new(Limits::default(), true));
    }

    #[test]
    fn history_is_capped_and_undo_restores_evicted_entries() {
        let limits = Limits {
            max_tasks: HISTORY_CAP + 10,
            ..Limits::default()
        };
        let mut board = Board::new(limits, true);
        let tasks: Vec<NewTask> = (0..HISTORY_CAP + 5)
            .map(|n| new(&n.to_string(), ""))
            .collect();
        let _ = board.add_tasks(&tasks).unwrap();
        let ids: Vec<String> = (0..HISTORY_CAP + 5)
            .map(|n| id(&n.to_string(), ""))
            .collect();
        let half: Vec<(&str, &str)> = ids[..700]
            .iter()
            .map(|i| (i.as_str(), "completed"))
            .collect();
        let _ = board.update_statuses(&half).unwrap();
        let before = board.clone();
        let all: Vec<(&str, &str)> = ids.iter().map(|i| (i.as_str(), "failed")).collect();
        let undo = board.update_statuses(&all).unwrap();
        assert_eq!(board.history().unwrap().entries().len(), HISTORY_CAP);
        board.undo(undo);
        assert_eq!(board, before);
    }

    #[test]
    fn history_can_be_disabled() {
        let mut board = Board::new(Limits::default(), false);
        let _ = board.set_goal("g", "d").unwrap();
        assert!(board.history().is_none());
    }

    #[test]
    fn restore_keeps_order_and_drops_repeated_ids() {
        let a = Task::new("a".into(), String::new());
        let b = Task::new("b".into(), String::new());
        let board = Board::restore(Limits::default(), None, [b.clone(), a.clone(), b], None);
        assert_eq!(titles(&board), ["b", "a"]);
        assert!(board.task(a.id).is_some());
    }

    /// A board of a, b, c where c waits for b and b for a, b is claimed by
    /// `worker` and a carries evidence.
    fn coordinated() -> Board {
        use crate::toolsets::planning::coordination::{Claim, Evidence};
        let mut board = board_with(&["a", "b", "c"]);
        let [a, b, c] = ["a", "b", "c"].map(|t| TaskId::from_content(t, ""));
        let at = SystemTime::UNIX_EPOCH;
        let edits = vec![
            Edit::Link {
                task: b,
                blocker: a,
            },
            Edit::Link {
                task: c,
                blocker: b,
            },
            Edit::Status(a, Status::Completed),
            Edit::Evidence(
                a,
                Some(Evidence {
                    command: Some("make".into()),
                    exit_code: Some(0),
                    commit: None,
                    url: None,
                    note: None,
                    by: "worker".into(),
                    at,
                    review: None,
                }),
            ),
            Edit::Status(b, Status::InProgress),
            Edit::Claim(
                b,
                Some(Claim {
                    holder: "worker".into(),
                    since: at,
                    until: at,
                }),
            ),
        ];
        let _ = board.edit(at, edits).unwrap();
        board
    }

    fn last_event(board: &Board) -> Event {
        board
            .history()
            .unwrap()
            .entries()
            .last()
            .unwrap()
            .event
            .clone()
    }

    #[test]
    fn edits_name_only_tasks_on_the_board() {
        let mut board = board_with(&["a"]);
        let before = board.clone();
        let ghost = TaskId::from_content("ghost", "");
        let error = board
            .edit(
                SystemTime::UNIX_EPOCH,
                vec![Edit::Status(ghost, Status::Completed)],
            )
            .unwrap_err();
        assert_eq!(error, BoardError::UnknownTasks(vec![ghost.to_string()]));
        assert_eq!(board, before);
    }

    #[test]
    fn a_status_change_through_the_planning_tools_ends_a_claim_and_drops_evidence() {
        let mut board = coordinated();
        let original = board.clone();
        let [a, b] = ["a", "b"].map(|t| TaskId::from_content(t, ""));
        // Staying in progress keeps the claim.
        let _ = board
            .update_statuses(&[(&b.to_string(), "in_progress")])
            .unwrap();
        assert!(board.coordination().claim(b).is_some());
        let undo = board
            .update_statuses(&[(&b.to_string(), "completed"), (&a.to_string(), "pending")])
            .unwrap();
        assert!(board.coordination().claim(b).is_none());
        assert!(board.coordination().evidence(a).is_none());
        let ended = board.history().unwrap().entries().any(|e| {
            matches!(&e.event, Event::ClaimEnded { task_id, reason: ClaimEnd::StatusChanged, holder, .. }
                if *task_id == b && holder == "worker")
        });
        assert!(ended);
        board.undo(undo);
        assert_eq!(board, original);
    }

    /// Task `id` dispatched to `worker` (and touching `src/**`).
    fn dispatched(board: &mut Board, id: TaskId, worker: &str) {
        use crate::toolsets::planning::coordination::Dispatch;
        let at = SystemTime::UNIX_EPOCH;
        let dispatch = Dispatch {
            worker: worker.into(),
            by: "lead".into(),
            place: None,
            note: None,
            at,
            until: at,
            claimed: false,
        };
        let edits = vec![
            Edit::Dispatch(id, Some(dispatch)),
            Edit::Touches(id, vec!["src/**".into()]),
        ];
        let _ = board.edit(at, edits).unwrap();
    }

    #[test]
    fn a_planning_status_change_ends_a_dispatch_unless_it_is_in_progress() {
        let mut board = board_with(&["a"]);
        let a = TaskId::from_content("a", "");
        dispatched(&mut board, a, "w1");
        for same in ["pending", "in_progress"] {
            let _ = board.update_statuses(&[(&a.to_string(), same)]).unwrap();
            assert!(board.coordination().dispatch(a).is_some(), "{same}");
        }
        let original = board.clone();
        let undo = board
            .update_statuses(&[(&a.to_string(), "completed")])
            .unwrap();
        assert!(board.coordination().dispatch(a).is_none());
        assert_eq!(board.coordination().touches(a), ["src/**"], "touches stay");
        assert_eq!(
            last_event(&board),
            Event::StatusChanged {
                task_id: a,
                title: "a".into(),
                from: Status::InProgress,
                to: Status::Completed
            }
        );
        let ended = board.history().unwrap().entries().any(|e| {
            matches!(&e.event, Event::DispatchEnded { reason: DispatchEnd::StatusChanged, worker, .. } if worker == "w1")
        });
        assert!(ended);
        board.undo(undo);
        assert_eq!(board, original);
    }

    #[test]
    fn deleting_a_dispatched_task_says_so_and_rewording_keeps_the_record() {
        let mut board = board_with(&["a", "b"]);
        let [a, b] = ["a", "b"].map(|t| TaskId::from_content(t, ""));
        dispatched(&mut board, a, "w1");
        dispatched(&mut board, b, "w2");
        let (new_a, _) = board.modify_task(&a.to_string(), Some("A"), None).unwrap();
        assert_eq!(board.coordination().dispatch(new_a).unwrap().worker, "w1");
        assert_eq!(board.coordination().touches(new_a), ["src/**"]);
        let original = board.clone();
        let undo = board.delete_tasks(&[&b.to_string()]).unwrap();
        assert!(board.coordination().dispatch(b).is_none());
        assert!(board.coordination().touches(b).is_empty());
        assert_eq!(
            last_event(&board),
            Event::DispatchEnded {
                task_id: b,
                title: "b".into(),
                worker: "w2".into(),
                reason: DispatchEnd::Deleted
            }
        );
        board.undo(undo);
        assert_eq!(board, original);
    }

    #[test]
    fn a_status_change_forgets_who_completed_a_task_without_evidence() {
        let mut board = board_with(&["a"]);
        let a = TaskId::from_content("a", "");
        let edits = vec![
            Edit::Status(a, Status::Completed),
            Edit::CompletedBy(a, Some("worker".into())),
        ];
        let _ = board.edit(SystemTime::UNIX_EPOCH, edits).unwrap();
        assert_eq!(board.coordination().completed_by(a), Some("worker"));
        let original = board.clone();
        let undo = board
            .update_statuses(&[(&a.to_string(), "pending")])
            .unwrap();
        assert!(board.coordination().completed_by(a).is_none());
        assert!(board.coordination().is_empty());
        board.undo(undo);
        assert_eq!(board, original);
        let (new_a, _) = board.modify_task(&a.to_string(), Some("A"), None).unwrap();
        assert_eq!(board.coordination().completed_by(new_a), Some("worker"));
    }

    #[test]
    fn rewording_carries_claims_links_and_evidence_to_the_new_id() {
        let mut board = coordinated();
        let original = board.clone();
        let [a, b, c] = ["a", "b", "c"].map(|t| TaskId::from_content(t, ""));
        let (new_b, undo) = board.modify_task(&b.to_string(), Some("B"), None).unwrap();
        let coordination = board.coordination();
        assert_eq!(coordination.claim(new_b).unwrap().holder, "worker");
        assert!(coordination.blockers(new_b).contains(&a));
        assert!(coordination.blockers(c).contains(&new_b));
        assert!(!coordination.blockers(c).contains(&b));
        assert_eq!(coordination.link_count(), 2);
        let (new_a, _) = board.modify_task(&a.to_string(), None, Some("x")).unwrap();
        assert!(board.coordination().evidence(new_a).is_some());
        assert!(board.coordination().dependents(new_a).contains(&new_b));
        let mut back = original.clone();
        let (_, undo_b) = back.modify_task(&b.to_string(), Some("B"), None).unwrap();
        back.undo(undo_b);
        assert_eq!(back, original);
        drop(undo);
    }

    #[test]
    fn deleting_a_task_removes_its_links_and_claim_and_says_so() {
        let mut board = coordinated();
        let original = board.clone();
        let [a, b, c] = ["a", "b", "c"].map(|t| TaskId::from_content(t, ""));
        let undo = board.delete_tasks(&[&b.to_string()]).unwrap();
        let coordination = board.coordination();
        assert_eq!(coordination.link_count(), 0, "no link dangles");
        assert!(coordination.blockers(c).is_empty());
        assert!(coordination.dependents(a).is_empty());
        assert!(coordination.claim(b).is_none());
        assert_eq!(
            last_event(&board),
            Event::LinksRemoved {
                task_id: b,
                title: "b".into(),
                dependents: vec![c],
            }
        );
        board.undo(undo);
        assert_eq!(board, original);
        // A task nobody links to or claims is deleted without a word.
        let mut plain = board_with(&["x"]);
        let entries = plain.history().unwrap().entries().len();
        let _ = plain.delete_tasks(&[&id("x", "")]).unwrap();
        assert_eq!(plain.history().unwrap().entries().len(), entries);
    }
}
