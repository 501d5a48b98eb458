// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A board's history as rows of `planning_history`, one per entry, numbered
//! by the count of entries the board ever recorded: what a save writes
//! ([`HistoryWrite`]) and how a load puts the history together again from
//! the entries this process kept and those added since ([`merge`]).

use std::sync::Arc;

use deadpool_postgres::Object;
use tokio_postgres::types::ToSql;

use super::Head;
use crate::toolsets::planning::domain::History;
use crate::toolsets::planning::domain::history::{Entry, HISTORY_CAP};
use crate::toolsets::planning::store::snapshot;

/// Writes a snapshot under the lock, with where its history now stands.
const WRITE: &str = "UPDATE planning_boards SET revision = $2, snapshot = $3, \
                     history_generation = $4, history_last = $5, saved_at = now() \
                     WHERE name = $1";
/// Adds history entries (`$2` their numbers, `$3` their JSON).
const APPEND: &str = "INSERT INTO planning_history (board, seq, entry) \
                      SELECT $1, seq, entry FROM unnest($2::bigint[], $3::text[]) AS e(seq, entry)";
/// Drops the history entries numbered up to `$2`.
const TRIM: &str = "DELETE FROM planning_history WHERE board = $1 AND seq <= $2";
/// Drops the board's whole history, before it is written anew.
const CLEAR: &str = "DELETE FROM planning_history WHERE board = $1";

/// Entries beyond the cap are dropped from the table once every this many
/// new entries, rather than one by one with each change.
const TRIM_EVERY: i64 = 100;

/// How a save writes the history: the entries the board added after the
/// stored ones or, when the stored history is not one the board extends,
/// all of them as a new generation.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct HistoryWrite {
    /// The generation the history is of after the save (0: inside the snapshot).
    pub(super) generation: i64,
    /// Whether the stored rows are dropped first (a new generation).
    rewrite: bool,
    /// The numbers of the entries to add.
    seqs: Vec<i64>,
    /// The entries to add, as JSON.
    entries: Vec<String>,
    /// The number of the newest entry after the save.
    last: i64,
    /// Entries numbered up to this are dropped (beyond the cap), if any.
    trim: Option<i64>,
}

impl HistoryWrite {
    /// The write of `history` by the save of `revision` over a row at `head`.
    pub(super) fn of(head: Head, revision: i64, history: &History) -> Self {
        let last = count(history.recorded());
        let extended = u64::try_from(head.last)
            .ok()
            .filter(|_| head.generation > 0)
            .and_then(|stored| history.recorded_after(stored));
        let (generation, rewrite, added): (i64, bool, Vec<_>) = match extended {
            Some(added) => (head.generation, false, added.collect()),
            None => (revision, true, history.entries().collect()),
        };
        let first = last - count(added.len() as u64) + 1;
        let crossed = head.last.div_euclid(TRIM_EVERY) != last.div_euclid(TRIM_EVERY);
        Self {
            generation,
            rewrite,
            seqs: (first..=last).collect(),
            entries: added.into_iter().map(snapshot::entry_to_json).collect(),
            last,
            trim: (!rewrite && crossed).then_some(last - count(HISTORY_CAP as u64)),
        }
    }

    /// The write of a snapshot that holds its history itself (an import):
    /// the rows dropped, the numbering kept.
    pub(super) fn inline(head: Head) -> Self {
        Self {
            generation: 0,
            rewrite: true,
            seqs: Vec::new(),
            entries: Vec::new(),
            last: head.last,
            trim: None,
        }
    }

    /// Writes `snapshot` as `revision` and the history under the held lock,
    /// and commits: one round trip.
    pub(super) async fn run(
        &self,
        client: &Object,
        name: &str,
        revision: i64,
        snapshot: &str,
    ) -> Result<(), tokio_postgres::Error> {
        let (write, append, trim, clear) = futures_util::future::try_join4(
            client.prepare_cached(WRITE),
            client.prepare_cached(APPEND),
            client.prepare_cached(TRIM),
            client.prepare_cached(CLEAR),
        )
        .await?;
        let cleared = async {
            match self.rewrite {
                true => client.execute(&clear, &[&name]).await.map(drop),
                false => Ok(()),
            }
        };
        let appended = async {
            match self.seqs.is_empty() {
                true => Ok(()),
                false => client
                    .execute(&append, &[&name, &self.seqs, &self.entries])
                    .await
                    .map(drop),
            }
        };
        let trimmed = async {
            match self.trim {
                Some(upto) => client.execute(&trim, &[&name, &upto]).await.map(drop),
                None => Ok(()),
            }
        };
        let params: [&(dyn ToSql + Sync); 5] =
            [&name, &revision, &snapshot, &self.generation, &self.last];
        // All sent at once, in this order: one round trip.
        let (cleared, appended, trimmed, updated, commit) = futures_util::future::join5(
            cleared,
            appended,
            trimmed,
            client.execute(&write, &params),
            client.batch_execute("COMMIT"),
        )
        .await;
        cleared?;
        appended?;
        trimmed?;
        updated?;
        commit
    }
}

/// The history of a row whose newest entry is number `last`: the entries
/// `kept` of its generation (if any), then those of `rows` that come after
/// them (rows this process had already are skipped).
pub(super) fn merge(kept: Option<History>, rows: Vec<(i64, Entry)>, last: i64) -> History {
    let after = kept.as_ref().map_or(0, History::recorded);
    let mut entries: Vec<Arc<Entry>> = kept
        .map(|history| history.shared().cloned().collect())
        .unwrap_or_default();
    entries.extend(
        rows.into_iter()
            .filter(|(seq, _)| u64::try_from(*seq).is_ok_and(|seq| seq > after))
            .map(|(_, entry)| Arc::new(entry)),
    );
    History::restored(entries, u64::try_from(last).unwrap_or(0))
}

/// A count as a row's number.
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::toolsets::planning::domain::Goal;
    use crate::toolsets::planning::domain::history::Event;

    fn entry(title: &str) -> Entry {
        Entry {
            at: SystemTime::UNIX_EPOCH,
            event: Event::GoalSet {
                goal: Goal {
                    title: title.into(),
                    description: String::new(),
                },
            },
        }
    }

    fn titles(history: &History) -> Vec<String> {
        history
            .entries()
            .map(|entry| match &entry.event {
                Event::GoalSet { goal } => goal.title.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    /// A history of `titles` whose newest is number `last`.
    fn history(titles: &[&str], last: u64) -> History {
        History::restored(titles.iter().map(|t| Arc::new(entry(t))), last)
    }

    fn head(generation: i64, last: i64) -> Head {
        Head {
            revision: 7,
            generation,
            last,
        }
    }

    #[test]
    fn a_save_adds_the_entries_recorded_since_the_stored_ones() {
        let mut board = history(&["a", "b"], 41);
        board.record_at(vec![entry("c").event], SystemTime::UNIX_EPOCH);
        let write = HistoryWrite::of(head(3, 41), 8, &board);
        assert_eq!(write.generation, 3);
        assert!(!write.rewrite);
        assert_eq!(write.seqs, [42]);
        assert_eq!(write.entries.len(), 1);
        assert!(write.entries[0].contains("\"c\""), "{:?}", write.entries);
        assert_eq!(write.last, 42);
        assert_eq!(write.trim, None);
    }

    #[test]
    fn a_history_the_rows_do_not_hold_is_written_whole_as_a_new_generation() {
        let board = history(&["a", "b", "c"], 3);
        // Inside the snapshot (0), or rows this board does not extend.
        for stored in [head(0, 0), head(3, 9), head(3, 1)] {
            let write = HistoryWrite::of(stored, 8, &board);
            if stored.last == 1 {
                // Two entries after the stored first: they extend it.
                assert_eq!((write.rewrite, write.seqs.clone()), (false, vec![2, 3]));
                continue;
            }
            assert_eq!(write.generation, 8, "{stored:?}");
            assert!(write.rewrite);
            assert_eq!(write.seqs, [1, 2, 3]);
            assert_eq!(write.last, 3);
            assert_eq!(write.trim, None);
        }
    }

    #[test]
    fn rows_beyond_the_cap_are_dropped_every_hundred_entries() {
        let cap = HISTORY_CAP as u64;
        let mut board = history(&["a"], 1199);
        board.record_at(vec![entry("b").event], SystemTime::UNIX_EPOCH);
        let write = HistoryWrite::of(head(2, 1199), 9, &board);
        assert_eq!(write.trim, Some(1200 - cap as i64));
        board.record_at(vec![entry("c").event], SystemTime::UNIX_EPOCH);
        let write = HistoryWrite::of(head(2, 1200), 10, &board);
        assert_eq!(write.trim, None);
    }

    #[test]
    fn a_load_appends_the_new_rows_to_the_kept_entries_once() {
        let kept = history(&["a", "b"], 5);
        // Rows 5 and 6: 5 was kept already (the kept copy moved on since
        // the read was asked for), 6 is new.
        let rows = vec![(5, entry("b")), (6, entry("c"))];
        let merged = merge(Some(kept), rows, 6);
        assert_eq!(titles(&merged), ["a", "b", "c"]);
        assert_eq!(merged.recorded(), 6);
        // Without a kept copy, the rows are the history.
        let merged = merge(None, vec![(4, entry("x")), (5, entry("y"))], 5);
        assert_eq!(titles(&merged), ["x", "y"]);
        assert_eq!(merged.recorded(), 5);
    }

    #[test]
    fn a_load_keeps_the_newest_entries_up_to_the_cap() {
        let kept: Vec<&str> = vec!["old"; HISTORY_CAP];
        let merged = merge(Some(history(&kept, 1000)), vec![(1001, entry("new"))], 1001);
        assert_eq!(merged.entries().len(), HISTORY_CAP);
        assert_eq!(titles(&merged).last().map(String::as_str), Some("new"));
    }
}
