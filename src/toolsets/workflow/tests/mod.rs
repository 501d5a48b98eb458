// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Tests of the whole toolset in process, on real directories with a fixed
//! clock: every row of the transition table (`rows`), properties over
//! spell sequences, blocked and failed calls, crashes (`props`), and the
//! safety layer's refusals (`safety`).

mod fixtures;
mod layers;
mod options;
mod props;
mod rows;
mod safety;
