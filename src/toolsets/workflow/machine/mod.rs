// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The state machine, pure: states and spells, the options per state, the
//! transition table (`table`, with what each row does in `rows`), and a
//! transition computed from the state, the spell and the files as found
//! (`transition`), returning the next state, the file effects and the
//! reply; `state.json`, the record of the state (`state_json`). No I/O.
//! It uses the files' formats (`files`), which know nothing of it.

pub mod context;
pub mod effect;
pub mod facts;
pub mod options;
pub mod reply;
pub mod rows;
pub mod spell;
pub mod state;
pub mod state_json;
pub mod step;
pub mod table;
pub mod transition;
