// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The files of the workflow directory as text, without I/O: their names,
//! the templates, acceptance criteria and ticking, `task_name`, Atlassian
//! links, archive names, and the ordered JSON `state.json` is written in.
//! Knows nothing of the state machine (which uses these): `state.json`
//! itself, a record of the machine's state, is `machine::state_json`.

pub(crate) mod archive;
pub(crate) mod atlassian;
pub(crate) mod criteria;
pub(crate) mod markdown;
pub(crate) mod names;
pub(crate) mod ordered_json;
pub(crate) mod task_name;
pub(crate) mod templates;
