// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A transition, computed without I/O from the state, the spell and the
//! files as found: the row that decides, the next state and context, the
//! history entry, the file effects in the spec's order (`state.json` last)
//! and the reply. Rule K1 (a corrupt `state.json`) comes before the table.

use super::context::{self, Context};
use super::effect::Effect;
use super::options::options;
use super::reply::Reply;
use super::spell::Spell;
use super::state::State;
use super::step::{Input, Start, Step};
use super::table::{self, Next, Row, STARTS_REVIEW};
use crate::toolsets::workflow::files::archive::{Place, timestamp};
use crate::toolsets::workflow::files::names::{File, STATE};
use crate::toolsets::workflow::files::templates;
use crate::toolsets::workflow::machine::state_json::{Entry, StateDoc};

/// What kind of row decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A blocked row: nothing changes.
    Blocked,
    /// Lumos: nothing changes, nothing is recorded.
    Read,
    /// A row that records a history entry and rewrites `state.json`.
    Moved,
}

/// A transition, decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decision {
    /// The row's ID (`K1` for a corrupt `state.json`).
    pub(crate) row: &'static str,
    /// What kind of row it is.
    pub(crate) kind: Kind,
    /// The state before.
    pub(crate) from: State,
    /// The state after.
    pub(crate) to: State,
    /// The context after.
    pub(crate) context: Context,
    /// The history entry recorded, if any.
    pub(crate) entry: Option<Entry>,
    /// The changes to the files, in order; `state.json` last.
    pub(crate) effects: Vec<Effect>,
    /// The reply's text.
    pub(crate) reply: String,
}

/// Computes the transition for `input`.
pub(crate) fn decide(input: &Input<'_>) -> Decision {
    if let Start::Corrupt(reason) = &input.start
        && input.spell != Spell::Lumos
    {
        return k1(input, reason);
    }
    let mut step = Step::new(input);
    match table::find(&step, input.spell) {
        Some(row) => {
            step.to = resolve(row.next, &mut step);
            (row.act)(&mut step);
            finish(input, row, step)
        }
        // The table covers every state and spell (a test walks them all).
        None => {
            step.say("This spell does nothing here.");
            reply_only(input, "none", Kind::Blocked, step)
        }
    }
}

/// The next state a row names, with the files that state needs.
fn resolve(next: Next, step: &mut Step<'_>) -> State {
    match next {
        Next::Blocked | Next::Read | Next::Stay => step.from,
        Next::To(state) => state,
        Next::Gather => step.gather_state(),
        Next::Return => {
            let state = step.return_state();
            if state == State::AchieveTaskDrafting {
                step.create_missing(File::Task, templates::TASK);
            }
            state
        }
        Next::ReviewFromFiles => {
            if step.has(File::ReviewResults) {
                State::PrAppliedPendingArchive
            } else if step.has(File::ReviewTask) {
                State::PrReviewTaskDraft
            } else {
                step.create_missing(File::Comments, "");
                State::PrGatheringComments
            }
        }
        Next::ErrorOrigin => step
            .context()
            .error_original_state
            .unwrap_or_else(|| step.main_line()),
    }
}

/// The reply of `step` after the call.
fn reply(step: &Step<'_>, state: State, transition: String) -> String {
    let plan_present = step.plan_after.is_some();
    let unchecked = step.unchecked_after();
    Reply {
        state: state.shown(unchecked),
        transition,
        message: step.message.clone(),
        options: options(state, plan_present, unchecked),
        instructions: step.lines.clone(),
    }
    .render()
}

/// A decision that changes nothing.
fn reply_only(input: &Input<'_>, row: &'static str, kind: Kind, step: Step<'_>) -> Decision {
    let transition = match kind {
        Kind::Blocked => format!("blocked ({row})"),
        _ => "none".to_owned(),
    };
    let reply = reply(&step, step.from, transition);
    Decision {
        row,
        kind,
        from: step.from,
        to: step.from,
        context: input.doc.context,
        entry: None,
        effects: Vec::new(),
        reply,
    }
}

/// The history entry of a row.
fn entry(input: &Input<'_>, rule: &'static str, transition: String) -> Entry {
    Entry {
        timestamp: timestamp(input.now),
        trigger: input.spell.name(),
        rule,
        transition,
        note: input.note.clone(),
    }
}

/// `state.json` rewritten last: `doc`, replacing the file as it was read.
fn write_state(old: Option<Vec<u8>>, doc: &StateDoc) -> Effect {
    Effect::Replace {
        path: STATE.to_owned(),
        bytes: doc.render().into_bytes(),
        old,
    }
}

fn finish(input: &Input<'_>, row: &'static Row, mut step: Step<'_>) -> Decision {
    match row.next {
        Next::Blocked => return reply_only(input, row.id, Kind::Blocked, step),
        Next::Read => return reply_only(input, row.id, Kind::Read, step),
        _ => {}
    }
    let (from, to) = (step.from, step.to);
    let starts_review = STARTS_REVIEW.contains(&row.id);
    let context = context::next(from, step.context(), to, starts_review, &input.facts);
    let entry = entry(input, row.id, format!("{} → {}", from.name(), to.name()));
    let doc = input
        .doc
        .advanced(to, context, &entry, input.limits.max_history);
    let mut effects = std::mem::take(&mut step.effects);
    effects.sort_by_key(Effect::rank);
    effects.dedup();
    effects.push(write_state(input.state_file.clone(), &doc));
    let reply = reply(
        &step,
        to,
        format!("{} {} → {}", row.id, from.name(), to.name()),
    );
    Decision {
        row: row.id,
        kind: Kind::Moved,
        from,
        to,
        context,
        entry: Some(entry),
        effects,
        reply,
    }
}

/// Rule K1: an unreadable `state.json` is moved aside and a fresh one,
/// with the state inferred from the files, is written; nothing else.
fn k1(input: &Input<'_>, reason: &str) -> Decision {
    let mut step = Step::new(input);
    let state = input.doc.state;
    let corrupt = input.facts.slots.of(Place::Corrupt).to_owned();
    let entry = entry(input, "K1", format!("CORRUPT → {}", state.name()));
    let doc = input
        .doc
        .advanced(state, input.doc.context, &entry, input.limits.max_history);
    let effects = vec![
        Effect::Move {
            from: STATE.to_owned(),
            to: corrupt.clone(),
        },
        write_state(None, &doc),
    ];
    step.say(format!(
        "state.json was unreadable ({reason}); it was moved to {} and the state was rebuilt \
         from the files as {}. Nothing else was done: type the spell again if it still applies.",
        step.shown(&corrupt),
        state.name()
    ));
    step.tell(
        "Tell the user message_to_user. The spell they typed was not carried out; they type it \
         again if it still applies. Change no file.",
    );
    let reply = reply(&step, state, format!("K1 CORRUPT → {}", state.name()));
    Decision {
        row: "K1",
        kind: Kind::Moved,
        from: state,
        to: state,
        context: input.doc.context,
        entry: Some(entry),
        effects,
        reply,
    }
}
