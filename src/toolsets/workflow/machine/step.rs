// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One transition being worked out: what the row reads (the files as
//! found), what it decides (the next state, the effects) and what it says
//! (the message and the instructions). The rows in `rows/` act on it.

use std::cell::OnceCell;

use chrono::{DateTime, Utc};

use super::context::{Context, main_line};
use super::effect::Effect;
use super::facts::Facts;
use super::reply::quote;
use super::spell::Spell;
use super::state::{Phase, State};
use crate::toolsets::workflow::files::archive::Place;
use crate::toolsets::workflow::files::criteria::{self, Ticking};
use crate::toolsets::workflow::files::names::{File, PR_REVIEWS, TASKS};
use crate::toolsets::workflow::machine::state_json::StateDoc;

/// What a transition needs besides the files; fixed per server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// D as paths in replies show it, relative to the root (e.g. `.ai/task`).
    pub dir: String,
    /// The most bytes of a file quoted to the agent.
    pub max_inline_bytes: usize,
    /// The most history entries kept.
    pub max_history: usize,
    /// Extra Atlassian hosts, lowercase.
    pub atlassian_hosts: Vec<String>,
}

/// How the state was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Start {
    /// Read from `state.json`.
    Stored,
    /// `state.json` is missing: inferred from the files.
    Missing,
    /// `state.json` is unreadable (why): inferred from the files.
    Corrupt(String),
}

/// Everything a transition is computed from.
#[derive(Debug, Clone)]
pub(crate) struct Input<'a> {
    /// The spell cast.
    pub(crate) spell: Spell,
    /// How the state was found.
    pub(crate) start: Start,
    /// The state and its context, history and unknown keys (inferred ones
    /// when `state.json` is missing or corrupt).
    pub(crate) doc: StateDoc,
    /// `state.json`'s bytes as read, to undo with.
    pub(crate) state_file: Option<Vec<u8>>,
    /// The files.
    pub(crate) facts: Facts,
    /// The user's note, cleaned.
    pub(crate) note: Option<String>,
    /// The call's time.
    pub(crate) now: DateTime<Utc>,
    /// The server's limits.
    pub(crate) limits: &'a Limits,
}

/// A transition being worked out.
pub(crate) struct Step<'a> {
    input: &'a Input<'a>,
    /// The state before.
    pub(crate) from: State,
    /// The state after.
    pub(crate) to: State,
    pub(super) effects: Vec<Effect>,
    pub(super) message: String,
    pub(super) lines: Vec<String>,
    /// `plan.md` after the call, if it exists then.
    pub(super) plan_after: Option<Vec<u8>>,
    ticking: OnceCell<Ticking>,
}

impl<'a> Step<'a> {
    /// A step from the state of `input`.
    pub(crate) fn new(input: &'a Input<'a>) -> Self {
        let plan = &input.facts;
        Self {
            input,
            from: input.doc.state,
            to: input.doc.state,
            effects: Vec::new(),
            message: String::new(),
            lines: Vec::new(),
            plan_after: plan
                .exists(File::Plan)
                .then(|| plan.bytes(File::Plan).to_vec()),
            ticking: OnceCell::new(),
        }
    }

    /// The call's input.
    pub(crate) fn input(&self) -> &Input<'a> {
        self.input
    }

    /// The context before the call.
    pub(crate) fn context(&self) -> Context {
        self.input.doc.context
    }

    /// `rel` (relative to D) as replies show it, in backticks.
    pub(crate) fn at(&self, rel: &str) -> String {
        format!("`{}`", self.shown(rel))
    }

    /// `rel` (relative to D) as replies show it, relative to the root.
    pub(crate) fn shown(&self, rel: &str) -> String {
        match self.input.limits.dir.as_str() {
            "" | "." => rel.to_owned(),
            dir => format!("{dir}/{rel}"),
        }
    }

    /// `file` as replies show it, in backticks.
    pub(crate) fn file(&self, file: File) -> String {
        self.at(file.name())
    }

    /// Whether `file` existed when the call started.
    pub(crate) fn has(&self, file: File) -> bool {
        self.input.facts.exists(file)
    }

    /// The bytes of `file` when the call started (empty if absent or unread).
    pub(crate) fn bytes(&self, file: File) -> &[u8] {
        self.input.facts.bytes(file)
    }

    /// The unchecked criteria of `plan.md` when the call started.
    pub(crate) fn unchecked(&self) -> Vec<String> {
        self.input.facts.unchecked()
    }

    /// `plan.md` ticked with `task-results.md` (worked out once).
    pub(crate) fn ticking(&self) -> &Ticking {
        self.ticking
            .get_or_init(|| criteria::tick(self.bytes(File::Plan), self.bytes(File::Results)))
    }

    /// The main-line inference from the files.
    pub(crate) fn main_line(&self) -> State {
        main_line(&self.input.facts)
    }

    /// The state a PR review returns to: `pr_return_state` (or the main
    /// line when it is missing) in Gather → `GATHER_EDITING` if `plan.md`
    /// exists, else `GATHER_NEEDS_PLAN`; any other → itself.
    pub(crate) fn return_state(&self) -> State {
        let state = self
            .context()
            .pr_return_state
            .unwrap_or_else(|| self.main_line());
        match state.phase() {
            Phase::Gather => self.gather_state(),
            _ => state,
        }
    }

    /// `GATHER_EDITING` if `plan.md` exists, else `GATHER_NEEDS_PLAN`.
    pub(crate) fn gather_state(&self) -> State {
        match self.has(File::Plan) {
            true => State::GatherEditing,
            false => State::GatherNeedsPlan,
        }
    }

    /// Sets the message for the user.
    pub(crate) fn say(&mut self, message: impl Into<String>) {
        self.message = message.into();
    }

    /// Adds a line (or paragraph) to the agent's instructions.
    pub(crate) fn tell(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }

    /// Adds `title` and `items` as a list to the instructions.
    pub(crate) fn list(&mut self, title: &str, items: &[String]) {
        let mut text = format!("{title}:");
        for item in items {
            text.push_str("\n- ");
            text.push_str(item);
        }
        self.tell(text);
    }

    /// Quotes `file` as it was when the call started.
    pub(crate) fn quote(&mut self, file: File) {
        let text = String::from_utf8_lossy(self.bytes(file)).into_owned();
        self.quote_as(file.name(), &text);
    }

    /// Quotes `text` as the content of `rel` (relative to D).
    pub(crate) fn quote_as(&mut self, rel: &str, text: &str) {
        let quoted = quote(&self.at(rel), text, self.input.limits.max_inline_bytes);
        self.tell(quoted);
    }

    /// Creates directory `rel` (relative to D; `""` is D) if it is missing.
    pub(crate) fn create_dir(&mut self, rel: &str) {
        self.effects.push(Effect::CreateDir(rel.to_owned()));
    }

    /// Creates `file` with `content`.
    pub(crate) fn create(&mut self, file: File, content: &str) {
        if let Some((dir, _)) = file.name().rsplit_once('/') {
            self.create_dir(dir);
        }
        self.effects.push(Effect::Create {
            path: file.name().to_owned(),
            bytes: content.as_bytes().to_vec(),
        });
        if file == File::Plan {
            self.plan_after = Some(content.as_bytes().to_vec());
        }
    }

    /// Creates `file` with `content` unless it exists; whether it did.
    pub(crate) fn create_missing(&mut self, file: File, content: &str) -> bool {
        let missing = !self.has(file);
        if missing {
            self.create(file, content);
        }
        missing
    }

    /// Replaces `plan.md` with `bytes`.
    pub(crate) fn replace_plan(&mut self, bytes: Vec<u8>) {
        self.effects.push(Effect::Replace {
            path: File::Plan.name().to_owned(),
            bytes: bytes.clone(),
            old: Some(self.bytes(File::Plan).to_vec()),
        });
        self.plan_after = Some(bytes);
    }

    /// Moves the present ones of `files` into a new folder at `place`;
    /// returns the folder (relative to D), or `None` when none is present
    /// (then nothing is created).
    pub(crate) fn archive(&mut self, place: Place, files: &[File]) -> Option<String> {
        let present: Vec<File> = files.iter().copied().filter(|f| self.has(*f)).collect();
        if present.is_empty() {
            return None;
        }
        let dir = self.input.facts.slots.of(place).to_owned();
        let parent = match place {
            Place::Task | Place::IncompleteTask => TASKS,
            _ => PR_REVIEWS,
        };
        self.create_dir(parent);
        self.create_dir(&dir);
        for file in present {
            self.effects.push(Effect::Move {
                from: file.name().to_owned(),
                to: format!("{dir}/{}", file.name()),
            });
        }
        Some(dir)
    }

    /// Whether `plan.md` has an unchecked criterion after the call.
    pub(crate) fn unchecked_after(&self) -> bool {
        self.plan_after
            .as_deref()
            .is_some_and(|plan| !criteria::unchecked(plan).is_empty())
    }
}
