// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[notify]`: a person is told when the board needs them (docs/notify.md).
//! A background task of toolset team, for as long as the server runs:
//! it watches every board the server has open (the shared board's change
//! notice, and a timer for the next lease or dispatch that can run out),
//! asks the [`Detector`](detect::Detector) what each change or stall brings
//! (from the board's history and team's view: pure), gathers the notices of
//! one window ([`batch`]) and hands each batch to a delivery task through a
//! bounded queue, which posts the signed webhook (with retries) and runs
//! the command. No tool call waits for any of it: the watchers read the
//! board after the call has answered, and a full queue drops a batch (with
//! a warning in the log) rather than wait.
//!
//! It lives in team because its events are team's: who finished or failed
//! a task comes from the claim a release ended, a stall is a lease or a
//! dispatch that ran out (team's [`View`](super::domain::View)), and the
//! events are those a lead's `wait_for` waits for, pushed to a person.

mod batch;
mod command;
mod config;
mod detect;
mod notice;
mod run;
mod signature;
mod target;
mod webhook;

pub(crate) use config::{EXAMPLE, NotifySettings};
pub(crate) use run::notifier;
