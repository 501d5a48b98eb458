// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server sync [--remote NAME] [--board NAME]`: syncs the
//! boards kept in git (`storage.backend = 'git'`) with the repository's
//! remote: one fetch, then for each board a merge and, when the remote
//! lacks something, a push (retried when another clone pushed first). The
//! subcommand itself, its arguments and its run, is `command`; the text it
//! prints is `report` (each set-aside operation once per clone:
//! `reported`); the server's syncs every `[sync] interval` seconds are
//! `every`.

mod command;
mod every;
mod report;
mod reported;

pub(crate) use command::SYNC;
pub(crate) use every::background_syncs;

use std::time::{Duration, Instant};

use crate::server::BoardName;
use crate::toolsets::planning::config::{Backend, BoardSettings};
use crate::toolsets::planning::store::git_log::fetched::{self, Fetched};
use crate::toolsets::planning::store::git_log::git::Git;
use crate::toolsets::planning::store::git_log::place::{BOARDS, Place};
use crate::toolsets::planning::store::git_log::settings::check_remote;
use crate::toolsets::planning::store::git_log::stored::Logs;
use crate::toolsets::planning::store::git_log::sync::{self, Plan, Prefetched, Report, SyncError};
use crate::toolsets::planning::store::repository_dir;

/// What `sync` reads of the configuration, and so its only flags (besides
/// `--config`): where boards are stored and how they sync.
pub(crate) const SYNC_KEYS: &[&str] = &["storage.", "sync."];

/// What one `sync` run did: a report per board, or its error.
pub(crate) type Outcome = Vec<(String, Result<Report, SyncError>)>;

/// Syncs `board` (every board of the repository and of the remote when
/// `None`) with `remote` (`[sync] remote` when `None`), as `settings` say.
/// An error before any board is synced (no repository, no such remote,
/// offline) is the whole answer.
pub(crate) fn sync(
    settings: &BoardSettings,
    remote: Option<&str>,
    board: Option<&BoardName>,
) -> Result<Outcome, String> {
    if settings.storage.backend != Backend::Git {
        return Err(
            "boards are not kept in git (storage.backend is not 'git'): set [storage] \
             backend = 'git' (or pass --storage git) to keep them there and sync them"
                .into(),
        );
    }
    let remote = remote.unwrap_or(&settings.sync.remote);
    check_remote(remote).map_err(|problem| format!("--remote: {problem}"))?;
    let dir = repository_dir(&settings.storage).map_err(|e| e.to_string())?;
    let timeout = Duration::from_secs(settings.sync.git_timeout);
    let git = Git::open(&dir, timeout).map_err(|e| format!("no git repository here: {e}"))?;
    let remotes = git.remotes().map_err(|e| e.to_string())?;
    if !remotes.iter().any(|r| r == remote) {
        return Err(format!(
            "this repository has no remote '{remote}' (git remote add {remote} URL, or --remote NAME)"
        ));
    }
    // The remote's logs as the last fetch left them: a log that lost
    // operations since was rewritten on the remote.
    let place = Place::new(git.common_dir());
    let before = fetched::last(&git, &place, remote).map_err(|e| e.to_string())?;
    let now = fetched::fetch(&git, &place, remote)
        .map_err(|e| format!("cannot fetch from {remote}: {e}"))?;
    let boards = match board {
        Some(board) => vec![board.to_string()],
        None => names(&git, &now).map_err(|e| e.to_string())?,
    };
    let planning = &settings.planning;
    let logs = Logs::new(git, planning.limits(), planning.history_enabled);
    let mut outcome = Vec::with_capacity(boards.len());
    for name in boards {
        let plan = Plan {
            remote,
            retries: settings.sync.retries,
            checkpoint_every: settings.sync.checkpoint_every,
            until: Instant::now() + settings.lock_timeout,
        };
        let prefetched = Prefetched {
            before: before.get(&name),
            now: now.get(&name),
        };
        let mut synced = sync::sync_board(&logs, &place, &name, plan, Some(prefetched));
        if let Ok(report) = &mut synced {
            reported::only_new(&place, report);
        }
        outcome.push((name, synced));
    }
    Ok(outcome)
}

/// The boards this clone or the remote (as just `fetched`) has, sorted;
/// refs whose name is not a board's are left out.
fn names(
    git: &Git,
    fetched: &Fetched,
) -> Result<Vec<String>, crate::toolsets::planning::store::git_log::git::GitError> {
    let mut names: Vec<String> = git
        .refs(BOARDS)?
        .into_iter()
        .filter_map(|(name, _)| name.strip_prefix(BOARDS).map(str::to_owned))
        .chain(fetched.boards().map(str::to_owned))
        .filter(|name| BoardName::parse(name).is_some())
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}
