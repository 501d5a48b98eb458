// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The plan document, pure: its parts (this file), the grammar of its
//! lines (`grammar`), the limits (`limits`), the tolerant reader (`read`)
//! and its problems (`problem`), the canonical formatter (`format`), how a
//! description is shown in a reply (`fence`), the
//! task tree (`tasks`), the stages (`stage`), the migration of old or
//! damaged descriptions (`migrate`) and plans joined by `jj squash`
//! (`joined`).

pub(crate) mod fence;
pub(crate) mod format;
pub(crate) mod grammar;
pub(crate) mod joined;
pub(crate) mod limits;
pub(crate) mod migrate;
pub(crate) mod problem;
pub(crate) mod read;
pub(crate) mod stage;
pub(crate) mod tasks;

#[cfg(test)]
pub(crate) mod props;

use schemars::JsonSchema;
use serde::Deserialize;

pub(crate) use limits::Limits;
pub(crate) use problem::Problem;
pub(crate) use read::{Reading, read};

/// A Conventional-Commits type: the kind of change the plan is for. The
/// tools take it as parameter `type`, so the variants' docs are what an
/// agent reads in the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CommitType {
    /// A feature users see.
    Feat,
    /// Behaviour back to what was promised.
    Fix,
    /// New structure, same behaviour.
    Refactor,
    /// The build.
    Build,
    /// Configuration, upkeep.
    Chore,
    /// Documentation.
    Docs,
    /// Formatting.
    Lint,
    /// CI files.
    Ci,
    /// Infrastructure.
    Infra,
    /// Specifications.
    Spec,
}

impl CommitType {
    /// Every type, in the order of the grammar.
    pub(crate) const ALL: [CommitType; 10] = [
        CommitType::Feat,
        CommitType::Fix,
        CommitType::Refactor,
        CommitType::Build,
        CommitType::Chore,
        CommitType::Docs,
        CommitType::Lint,
        CommitType::Ci,
        CommitType::Infra,
        CommitType::Spec,
    ];

    /// Its word in a header, e.g. `feat`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CommitType::Feat => "feat",
            CommitType::Fix => "fix",
            CommitType::Refactor => "refactor",
            CommitType::Build => "build",
            CommitType::Chore => "chore",
            CommitType::Docs => "docs",
            CommitType::Lint => "lint",
            CommitType::Ci => "ci",
            CommitType::Infra => "infra",
            CommitType::Spec => "spec",
        }
    }

    /// The type whose word is `word`, if any.
    pub(crate) fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == word)
    }

    /// The types as a list for messages: `feat, fix, ..., spec`.
    pub(crate) fn list() -> String {
        let words: Vec<&str> = Self::ALL.iter().map(|t| t.as_str()).collect();
        words.join(", ")
    }
}

/// The first line: `type(scope)!: title`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The kind of change.
    pub kind: CommitType,
    /// The part of the program, lowercase (`^[a-z][a-z0-9-]*$`), if any.
    pub scope: Option<String>,
    /// Whether the change breaks compatibility (`!`).
    pub breaking: bool,
    /// What the change does, as an instruction.
    pub title: String,
}

impl std::fmt::Display for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.as_str())?;
        if let Some(scope) = &self.scope {
            write!(f, "({scope})")?;
        }
        if self.breaking {
            f.write_str("!")?;
        }
        write!(f, ": {}", self.title)
    }
}

/// The prefix of a constraint: an absolute prohibition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Prefix {
    /// `Do not`
    DoNot,
    /// `Never`
    Never,
    /// `Avoid`
    Avoid,
    /// `Decide against`
    DecideAgainst,
    /// `Must not`
    MustNot,
    /// `Cannot`
    Cannot,
    /// `Forbidden`
    Forbidden,
}

impl Prefix {
    /// Every prefix, in the order of the grammar.
    pub(crate) const ALL: [Prefix; 7] = [
        Prefix::DoNot,
        Prefix::Never,
        Prefix::Avoid,
        Prefix::DecideAgainst,
        Prefix::MustNot,
        Prefix::Cannot,
        Prefix::Forbidden,
    ];

    /// Its words, e.g. `Do not`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Prefix::DoNot => "Do not",
            Prefix::Never => "Never",
            Prefix::Avoid => "Avoid",
            Prefix::DecideAgainst => "Decide against",
            Prefix::MustNot => "Must not",
            Prefix::Cannot => "Cannot",
            Prefix::Forbidden => "Forbidden",
        }
    }

    /// The prefixes as a list for messages: `Do not, Never, ..., Forbidden`.
    pub(crate) fn list() -> String {
        let words: Vec<&str> = Self::ALL.iter().map(|p| p.as_str()).collect();
        words.join(", ")
    }
}

/// One constraint: `- {prefix}: {text}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// The kind of prohibition.
    pub(crate) prefix: Prefix,
    /// What is prohibited.
    pub(crate) text: String,
}

impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.prefix.as_str(), self.text)
    }
}

/// One task; a parent's box follows its subtasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// What to do, one line.
    pub text: String,
    /// Whether it is done (derived for a parent).
    pub done: bool,
    /// Its subtasks, in order.
    pub subtasks: Vec<Task>,
}

/// The direction marker after the tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// The work goes on: `~~~ EXECUTE ~~~`.
    Execute,
    /// The job is finished: `~~~ COMPLETE ~~~`.
    Complete,
}

impl Direction {
    /// Its word, e.g. `EXECUTE`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Direction::Execute => "EXECUTE",
            Direction::Complete => "COMPLETE",
        }
    }

    /// Its line, e.g. `~~~ EXECUTE ~~~`.
    pub(crate) fn line(self) -> &'static str {
        match self {
            Direction::Execute => "~~~ EXECUTE ~~~",
            Direction::Complete => "~~~ COMPLETE ~~~",
        }
    }
}

/// A valid plan. A document with tasks always has a direction; one without
/// tasks never has one ([`Document::direction`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The header line.
    pub header: Header,
    /// The description's lines joined with `\n`, if any.
    pub description: Option<String>,
    /// The constraints, in order; empty when the section is absent.
    pub constraints: Vec<Constraint>,
    /// The tasks; empty when the section is absent.
    pub tasks: Vec<Task>,
    /// Whether the job is finished (only meaningful with tasks).
    pub complete: bool,
}

impl Document {
    /// A document with only a header.
    pub(crate) fn new(header: Header) -> Self {
        Self {
            header,
            description: None,
            constraints: Vec::new(),
            tasks: Vec::new(),
            complete: false,
        }
    }

    /// The direction: present exactly when there are tasks.
    pub(crate) fn direction(&self) -> Option<Direction> {
        match (self.tasks.is_empty(), self.complete) {
            (true, _) => None,
            (false, false) => Some(Direction::Execute),
            (false, true) => Some(Direction::Complete),
        }
    }

    /// Whether the job is finished (tasks, all done, marked COMPLETE).
    pub(crate) fn is_finished(&self) -> bool {
        self.direction() == Some(Direction::Complete)
    }
}
