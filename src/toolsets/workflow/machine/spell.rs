// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The six spells, in the order options list them.

/// A spell the user types; the agent calls the tool of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spell {
    /// Advance one step.
    Accio,
    /// Enrich the plan from Jira/Confluence links (Gather only).
    Expecto,
    /// Start (or restart) a PR review.
    Reparo,
    /// Leave the PR review, back to where it started.
    Reverto,
    /// Back to Gather Acceptance Criteria.
    Finite,
    /// Show where we are; changes nothing.
    Lumos,
}

impl Spell {
    /// Every spell, in the order options list them.
    #[cfg(test)]
    pub(crate) const ALL: [Spell; 6] = [
        Spell::Accio,
        Spell::Expecto,
        Spell::Reparo,
        Spell::Reverto,
        Spell::Finite,
        Spell::Lumos,
    ];

    /// Its name as the user types it, e.g. `Accio`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Spell::Accio => "Accio",
            Spell::Expecto => "Expecto",
            Spell::Reparo => "Reparo",
            Spell::Reverto => "Reverto",
            Spell::Finite => "Finite",
            Spell::Lumos => "Lumos",
        }
    }
}
