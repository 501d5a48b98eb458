// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The agents' JSON config files, edited in place: a reader that keeps
//! where every value is ([`parse`]), the values `setup` writes
//! ([`value`]), and the edits that touch only their own bytes ([`edit`]).

mod edit;
mod parse;
mod value;

pub(crate) use edit::{Document, Misfit};
pub(crate) use value::Json;
