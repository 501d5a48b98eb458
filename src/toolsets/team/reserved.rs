// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The live reservations of a board as `check-touches` reads them: from
//! the stored board, or as JSON from a running server
//! (`GET /boards/{name}/reservations`, [`super::routes`]).

use serde::{Deserialize, Serialize};

use super::domain::View;
use super::domain::text::time;
use super::domain::touches::reservations;

/// One reservation: a task's touches, held by an agent until a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Reserved {
    /// The task's ID.
    pub(crate) task_id: String,
    /// Its title.
    pub(crate) title: String,
    /// Who holds it (or the worker it is dispatched to).
    pub(crate) holder: String,
    /// Until when (RFC 3339, UTC).
    pub(crate) until: String,
    /// Whether it is dispatched and not claimed yet.
    pub(crate) dispatched: bool,
    /// The glob patterns it reserves.
    pub(crate) touches: Vec<String>,
}

/// What the route answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Reservations {
    /// Every live reservation of the board, in board order.
    pub(crate) reservations: Vec<Reserved>,
}

/// The live reservations of the board `view` shows.
pub(crate) fn of(view: View<'_>) -> Reservations {
    let reservations = reservations(view)
        .into_iter()
        .map(|r| Reserved {
            task_id: r.task.to_string(),
            title: view
                .board
                .task(r.task)
                .map_or_else(String::new, |t| t.title.clone()),
            holder: r.holder,
            until: time(r.until),
            dispatched: r.dispatched,
            touches: r.touches.texts(),
        })
        .collect();
    Reservations { reservations }
}
