// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Touches: the paths a task will touch, as glob patterns relative to the
//! repository, and the reservations they make. A live claim (or a dispatch
//! in flight) reserves its task's touches for the holder; another agent's
//! task whose touches *overlap* them conflicts with it.
//!
//! Two patterns overlap when some path could match both, decided on the
//! patterns alone (the repository is never listed): each pattern becomes
//! an automaton over bytes read off globset's own translation of it, and
//! the two overlap exactly when their product automaton accepts a string,
//! which is then the example shown ([`nfa::common_string`]). Two touch sets
//! overlap when a pattern of one overlaps a pattern of the other. A task
//! that declares no touches reserves nothing and conflicts with nothing.

pub(crate) mod nfa;
pub(crate) mod pattern;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::SystemTime;

use super::error::TeamError;
use super::text::time;
use super::view::View;
use crate::runtime::text::escaped;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::TaskId;
pub(crate) use pattern::Pattern;

/// The most patterns one task may declare.
pub(crate) const MAX_PATTERNS: usize = 32;

/// A task's touches, compiled.
#[derive(Debug, Clone, Default)]
pub(crate) struct Touches {
    patterns: Vec<Arc<Pattern>>,
}

/// The pairs of automata states one overlap test of two touch sets may
/// visit, all their pattern pairs together, so that no pair of sets,
/// however intricate, holds the board for long (a pair of 32 patterns of
/// 120 wildcards each needed 30 million unbounded). Typical patterns need
/// tens to hundreds of pairs, most none (their literal prefixes or
/// suffixes tell them apart). Past the budget the remaining pairs count as
/// overlapping: a wave never holds two tasks it could not tell apart.
pub(crate) const SEARCH_BUDGET: usize = 100_000;

/// Two patterns that overlap, and a path both match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Overlap {
    /// The pattern of the first set.
    pub(crate) ours: String,
    /// The pattern of the second set.
    pub(crate) theirs: String,
    /// A path both match (lossy UTF-8 if the patterns name bytes), or
    /// `None` when the search gave up ([`SEARCH_BUDGET`]): counted as
    /// overlapping without one.
    pub(crate) example: Option<String>,
}

impl Touches {
    /// The patterns a request gives, checked (all of them, or the first
    /// that breaks a rule), without repeats, in the order given.
    pub(crate) fn parse(patterns: &[String]) -> Result<Self, TeamError> {
        if patterns.len() > MAX_PATTERNS {
            return Err(TeamError::TooManyTouches {
                count: patterns.len(),
                max: MAX_PATTERNS,
            });
        }
        let mut seen = HashSet::new();
        let mut compiled = Vec::with_capacity(patterns.len());
        for text in patterns {
            if seen.insert(text.as_str()) {
                compiled.push(Arc::new(Pattern::new(text)?));
            }
        }
        Ok(Self { patterns: compiled })
    }

    /// A task's stored touches (see [`Pattern::stored`]).
    pub(crate) fn stored(patterns: &[String]) -> Self {
        Self {
            patterns: patterns.iter().map(|p| Pattern::stored(p)).collect(),
        }
    }

    /// Whether it declares nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The patterns as written.
    pub(crate) fn texts(&self) -> Vec<String> {
        self.patterns.iter().map(|p| p.text().to_owned()).collect()
    }

    /// The first pair of overlapping patterns (in the order of `self`,
    /// then of `other`), if any.
    pub(crate) fn overlap(&self, other: &Touches) -> Option<Overlap> {
        let mut budget = SEARCH_BUDGET;
        self.patterns.iter().find_map(|ours| {
            other.patterns.iter().find_map(|theirs| {
                let example = match nfa::search(ours.nfa(), theirs.nfa(), &mut budget) {
                    nfa::Shared::Disjoint => return None,
                    nfa::Shared::Example(bytes) => {
                        Some(String::from_utf8_lossy(&bytes).into_owned())
                    }
                    nfa::Shared::GaveUp => None,
                };
                Some(Overlap {
                    ours: ours.text().to_owned(),
                    theirs: theirs.text().to_owned(),
                    example,
                })
            })
        })
    }
}

/// Work that reserves its task's touches: a live claim, or a dispatch
/// whose worker has not claimed it yet and whose time has not run out.
#[derive(Debug, Clone)]
pub(crate) struct Reservation {
    /// The task.
    pub(crate) task: TaskId,
    /// Who holds it, or the worker it is dispatched to.
    pub(crate) holder: String,
    /// Until when.
    pub(crate) until: SystemTime,
    /// Whether it is dispatched and not claimed yet.
    pub(crate) dispatched: bool,
    /// Its touches.
    pub(crate) touches: Touches,
}

/// What a task's touches overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The task asked about.
    pub(crate) task: TaskId,
    /// The task it conflicts with.
    pub(crate) other: TaskId,
    /// Who holds that task (or the worker it is dispatched to), or `None`
    /// for a task of the same wave.
    pub(crate) holder: Option<(String, SystemTime, bool)>,
    /// The overlapping patterns and a path both match.
    pub(crate) overlap: Overlap,
}

impl Conflict {
    /// `touches a/**, which overlaps a/b of [id], held by w until T (both
    /// match a/b)`.
    pub(crate) fn describe(&self) -> String {
        let Overlap {
            ours,
            theirs,
            example,
        } = &self.overlap;
        let whose = match &self.holder {
            Some((holder, until, false)) => {
                format!(", held by {} until {}", escaped(holder), time(*until))
            }
            Some((worker, until, true)) => {
                format!(", dispatched to {} until {}", escaped(worker), time(*until))
            }
            None => " of the same wave".to_owned(),
        };
        let why = match example {
            Some(example) => format!("both match {example}"),
            None => {
                "too intricate to tell apart within the search's bound, so counted as overlapping"
                    .to_owned()
            }
        };
        format!(
            "touches {ours}, which overlaps {theirs} of [{}]{whose} ({why})",
            self.other
        )
    }

    /// `conflicts with [id] held by w` (a ready task's mark).
    pub(crate) fn mark(&self) -> String {
        match &self.holder {
            Some((holder, _, false)) => {
                format!(
                    "conflicts with [{}] held by {}",
                    self.other,
                    escaped(holder)
                )
            }
            Some((worker, _, true)) => {
                format!(
                    "conflicts with [{}] dispatched to {}",
                    self.other,
                    escaped(worker)
                )
            }
            None => format!("overlaps [{}], listed above", self.other),
        }
    }
}

/// Every reservation of the board at `view.now` whose task touches
/// something, in board order.
pub(crate) fn reservations(view: View<'_>) -> Vec<Reservation> {
    let board = view.board;
    let coordination = board.coordination();
    let mut found: Vec<Reservation> = Vec::new();
    for (task, claim) in view.claimed() {
        let touches = coordination.touches(task.id);
        if !touches.is_empty() {
            found.push(Reservation {
                task: task.id,
                holder: claim.holder.clone(),
                until: claim.until,
                dispatched: false,
                touches: Touches::stored(touches),
            });
        }
    }
    for (id, dispatch) in coordination.dispatches() {
        let touches = coordination.touches(id);
        let waiting = dispatch.until > view.now && view.claim(id).is_none();
        if waiting && !touches.is_empty() && board.task(id).is_some() {
            found.push(Reservation {
                task: id,
                holder: dispatch.worker.clone(),
                until: dispatch.until,
                dispatched: true,
                touches: Touches::stored(touches),
            });
        }
    }
    found.sort_by_key(|r| board.position(r.task));
    found
}

/// The first reservation that task `task` (touching `touches`) conflicts
/// with: of another task, held by someone other than `agent`.
pub(crate) fn conflict(
    reservations: &[Reservation],
    task: TaskId,
    touches: &Touches,
    agent: &str,
) -> Option<Conflict> {
    if touches.is_empty() {
        return None;
    }
    reservations
        .iter()
        .filter(|r| r.task != task && r.holder != agent)
        .find_map(|r| {
            let overlap = touches.overlap(&r.touches)?;
            Some(Conflict {
                task,
                other: r.task,
                holder: Some((r.holder.clone(), r.until, r.dispatched)),
                overlap,
            })
        })
}

/// What `set_touches` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TouchesSet {
    /// The task.
    pub(crate) id: TaskId,
    /// The overlap accepted, if the task is held and overlaps another's.
    pub(crate) accepted: Option<Conflict>,
}

/// Sets the paths task `id` touches (`patterns` empty: none). A task that
/// is held or dispatched reserves them at once, so they must not overlap
/// another agent's reservation unless `accept_overlap`.
pub(crate) fn set(
    view: View<'_>,
    id: &str,
    patterns: &[String],
    accept_overlap: bool,
) -> Result<(Vec<Edit>, TouchesSet), TeamError> {
    let task = super::claims::task(view.board, id)?;
    let touches = Touches::parse(patterns)?;
    let coordination = view.board.coordination();
    let holder = view.claim(task.id).map(|c| c.holder.as_str()).or_else(|| {
        let dispatch = coordination.dispatch(task.id)?;
        (dispatch.until > view.now).then_some(dispatch.worker.as_str())
    });
    let mut accepted = None;
    if let Some(holder) = holder
        && let Some(found) = conflict(&reservations(view), task.id, &touches, holder)
    {
        if !accept_overlap {
            return Err(TeamError::Overlap {
                id: task.id,
                conflict: Box::new(found),
                hint: super::error::TOUCH_INSTEAD,
            });
        }
        accepted = Some(found);
    }
    let edits = vec![Edit::Touches(task.id, touches.texts())];
    Ok((
        edits,
        TouchesSet {
            id: task.id,
            accepted,
        },
    ))
}

#[cfg(test)]
mod tests;
