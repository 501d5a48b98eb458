// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The state machine, pure: states and spells, the options per state, the
//! transition table (`table`, with what each row does in `rows`), and a
//! transition computed from the state, the spell and the files as found
//! (`transition`), returning the next state, the file effects and the
//! reply; `state.json`, the record of the state (`state_json`). No I/O.
//! It uses the files' formats (`files`), which know nothing of it.

pub(crate) mod context;
pub(crate) mod effect;
pub(crate) mod facts;
pub(crate) mod options;
pub(crate) mod reply;
pub(crate) mod rows;
pub(crate) mod spell;
pub(crate) mod state;
pub(crate) mod state_json;
pub(crate) mod step;
pub(crate) mod table;
pub(crate) mod transition;
