// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `scratch`, for tests only: a sixth toolset made by the recipe of
//! docs/architecture.md ("Adding a toolset"), to show that a toolset needs
//! its folder and one line in the registry, nothing else. It has one table,
//! `[scratch_pad]` (a name with `_`, reached by `PLANNING_SCRATCH_PAD_*`),
//! one flag and one tool, `scratch_greet`. No production code knows it: the
//! registry's tests (`super::registry_tests`) serve it beside the others.

mod config;
mod toolset;

pub(crate) use config::EXAMPLE;
pub(crate) use toolset::{KIND, Scratch};
