// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The end-to-end tests, one binary: each module starts the real binaries
//! (`planning-mcp-server`, `long-term-plan`, `long-term-plan-mcp`) and talks
//! to them as a client would, mostly through the official rmcp client over
//! stdio and Streamable HTTP. One binary links and builds the client once
//! instead of once per file.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test fails by panicking; helpers outside #[test] functions do too"
)]

mod common;

mod board_cli;
mod browser;
mod budget;
mod cli;
mod commit_concurrency;
mod commit_critical;
mod commit_git_habits;
mod commit_jj_habits;
mod commit_job;
mod commit_processes;
mod commit_tools;
mod crash;
mod doc_blocks;
mod hardening;
mod http;
mod load;
mod lock_waits;
mod multiprocess;
mod notify;
mod own_files;
mod packages;
mod persistence;
mod plans_cli;
mod plans_mcp;
mod plans_props;
mod postgres;
mod postgres_hardening;
mod postgres_proxy;
mod postgres_proxy_failover;
mod postgres_replicas;
mod replies;
mod review;
mod scenario;
mod sessions;
mod setup;
mod shared_http;
mod skills;
mod statusline;
mod stdio;
mod sync;
mod team;
mod team_dispatch;
mod team_plan;
mod team_races;
mod team_summary;
mod team_touches;
mod team_wait;
mod team_worktrees;
mod toolsets;
mod web;
mod web_store;
mod workflow;
mod worktrees;
