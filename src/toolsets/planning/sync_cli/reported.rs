// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `sync` already told a person on this clone: each set-aside
//! operation and each entry of the log that is not one is printed by the
//! first `sync` that finds it, not again by every run. Kept per board in
//! the git directory every worktree shares, beside the board's lock file
//! (`planning-mcp-server/boards/{board}.reported`, a JSON list of what the
//! last sync found); what is gone from the log is forgotten, so that it is
//! told again if it comes back.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::runtime::whole_file::Write;
use crate::toolsets::planning::store::git_log::place::Place;
use crate::toolsets::planning::store::git_log::sync::Report;

/// The file that remembers what was reported of `board`.
fn path(place: &Place, board: &str) -> PathBuf {
    place.lock_path(board).with_extension("reported")
}

/// `report` with only what no earlier sync of this clone printed; the
/// memory then holds everything the log has set aside now. A memory that
/// cannot be read counts as empty (everything is printed once more); one
/// that cannot be written is retried at the next sync.
pub(crate) fn only_new(place: &Place, report: &mut Report) {
    let file = path(place, &report.board);
    let told: HashSet<String> = std::fs::read(&file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Vec<String>>(&bytes).ok())
        .unwrap_or_default()
        .into_iter()
        .collect();
    let now: Vec<String> = report
        .set_aside
        .iter()
        .map(|aside| aside.key())
        .chain(report.corrupt.iter().cloned())
        .collect();
    report
        .set_aside
        .retain(|aside| !told.contains(&aside.key()));
    report.corrupt.retain(|entry| !told.contains(entry));
    if now.iter().collect::<HashSet<_>>() == told.iter().collect::<HashSet<_>>() {
        return;
    }
    let Ok(json) = serde_json::to_vec(&now) else {
        return;
    };
    if let Err(error) = Write::new().synced(false).to(&file, &json) {
        tracing::warn!(file = %file.display(), %error, "cannot remember what sync reported");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::replay::{OpId, Reason, Replica, SetAside};

    fn aside(counter: u64) -> SetAside {
        SetAside {
            op: OpId {
                stamp: counter,
                replica: Replica(7),
                counter,
            },
            agent: None,
            reason: Reason::NoGoal,
            intent: None,
        }
    }

    #[test]
    fn each_is_reported_by_the_first_sync_that_finds_it_and_again_if_it_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let place = Place::new(dir.path());
        std::fs::create_dir_all(dir.path().join("planning-mcp-server/boards")).unwrap();
        let report = |asides: &[u64], corrupt: &[&str]| Report {
            board: "default".into(),
            set_aside: asides.iter().map(|n| aside(*n)).collect(),
            corrupt: corrupt.iter().map(|c| (*c).to_owned()).collect(),
            ..Report::default()
        };
        let mut first = report(&[1, 2], &["README: not the name of an operation"]);
        only_new(&place, &mut first);
        assert_eq!((first.set_aside.len(), first.corrupt.len()), (2, 1));
        let mut again = report(&[1, 2], &["README: not the name of an operation"]);
        only_new(&place, &mut again);
        assert_eq!((again.set_aside.len(), again.corrupt.len()), (0, 0));
        // Only the new one; README is gone from the log, and forgotten.
        let mut third = report(&[1, 2, 3], &[]);
        only_new(&place, &mut third);
        assert_eq!(third.set_aside, [aside(3)]);
        let mut back = report(&[1, 2, 3], &["README: not the name of an operation"]);
        only_new(&place, &mut back);
        assert_eq!((back.set_aside.len(), back.corrupt.len()), (0, 1));
    }
}
