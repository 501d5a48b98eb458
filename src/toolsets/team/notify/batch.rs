// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Coalescing: the notices that come within one window are one message, so
//! that a burst of twenty completions in a second is one POST and one
//! desktop notification, not twenty. The first notice opens the window;
//! when it ends, everything gathered goes as one [`Batch`]. Pure: the caller
//! hands it the instant, so tests decide time by counts.

use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use super::notice::{Notice, summary};

/// The most notices one window gathers; beyond them a burst is counted,
/// not kept, so that memory stays bounded whatever an agent does.
pub(crate) const MAX_GATHERED: usize = 200;

/// Notices gathered until their window ends.
#[derive(Debug)]
pub(crate) struct Coalescer {
    window: Duration,
    gathered: Vec<Notice>,
    /// How many more came than [`MAX_GATHERED`].
    dropped: usize,
    /// When the window opened (its first notice).
    opened: Option<Instant>,
}

/// One message: the notices of one window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Batch {
    /// The notices, in the order they came.
    pub(crate) notices: Vec<Notice>,
    /// How many more the window had and left out.
    pub(crate) dropped: usize,
}

impl Coalescer {
    /// Nothing gathered; each window lasts `window`.
    pub(crate) fn new(window: Duration) -> Self {
        Self {
            window,
            gathered: Vec::new(),
            dropped: 0,
            opened: None,
        }
    }

    /// Gathers `notices`, which came at `now`.
    pub(crate) fn add(&mut self, notices: Vec<Notice>, now: Instant) {
        if notices.is_empty() {
            return;
        }
        self.opened.get_or_insert(now);
        for notice in notices {
            match self.gathered.len() < MAX_GATHERED {
                true => self.gathered.push(notice),
                false => self.dropped += 1,
            }
        }
    }

    /// When the open window ends, if one is open.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.opened.map(|opened| opened + self.window)
    }

    /// The batch of the window, if it has ended by `now`.
    pub(crate) fn take(&mut self, now: Instant) -> Option<Batch> {
        if self.due()? > now {
            return None;
        }
        self.opened = None;
        Some(Batch {
            notices: std::mem::take(&mut self.gathered),
            dropped: std::mem::take(&mut self.dropped),
        })
    }
}

impl Batch {
    /// Its one-line summary.
    pub(crate) fn summary(&self) -> String {
        let line = summary(&self.notices);
        match self.dropped {
            0 => line,
            n => format!("{line} (and {n} more)"),
        }
    }

    /// The JSON body sent, in the shape Standard Webhooks suggest
    /// (`type`, `timestamp`, `data`); each event links to its board's page
    /// under `board_url`.
    pub(crate) fn body(&self, board_url: &str, sent: SystemTime) -> Value {
        let events: Vec<Value> = self
            .notices
            .iter()
            .map(|notice| {
                json!({
                    "type": notice.kind.as_str(),
                    "board": notice.board,
                    "task": notice.task.map(|id| json!({"id": id.to_string(), "title": notice.title})),
                    "title": notice.title,
                    "agent": notice.agent,
                    "at": time(notice.at),
                    "link": format!("{board_url}/boards/{}", notice.board),
                })
            })
            .collect();
        json!({
            "type": "planning.board.events",
            "timestamp": time(sent),
            "data": {
                "summary": self.summary(),
                "events": events,
                "more": self.dropped,
            },
        })
    }
}

/// `2026-11-24T21:14:03Z`.
fn time(at: SystemTime) -> String {
    DateTime::<Utc>::from(at).to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::team::notify::notice::Kind;

    fn finished(n: usize) -> Notice {
        Notice {
            kind: Kind::Finished,
            board: "default".into(),
            task: None,
            title: format!("task {n}"),
            agent: Some("worker-1".into()),
            at: SystemTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn a_burst_within_the_window_is_one_batch() {
        let start = Instant::now();
        let mut coalescer = Coalescer::new(Duration::from_secs(2));
        assert_eq!(coalescer.due(), None);
        for n in 0..20 {
            let at = start + Duration::from_millis(50 * n as u64);
            coalescer.add(vec![finished(n)], at);
            assert_eq!(coalescer.take(at), None, "the window is still open");
        }
        assert_eq!(coalescer.due(), Some(start + Duration::from_secs(2)));
        let batch = coalescer.take(start + Duration::from_secs(2)).unwrap();
        assert_eq!(batch.notices.len(), 20);
        assert_eq!(batch.summary(), "20 finished on board default");
        assert_eq!(coalescer.take(start + Duration::from_secs(60)), None);
        // The next notice opens a window of its own.
        let later = start + Duration::from_secs(61);
        coalescer.add(vec![finished(21)], later);
        assert_eq!(coalescer.due(), Some(later + Duration::from_secs(2)));
    }

    #[test]
    fn a_zero_window_sends_each_change_at_once_and_memory_is_bounded() {
        let now = Instant::now();
        let mut coalescer = Coalescer::new(Duration::ZERO);
        coalescer.add((0..MAX_GATHERED + 5).map(finished).collect(), now);
        let batch = coalescer.take(now).unwrap();
        assert_eq!((batch.notices.len(), batch.dropped), (MAX_GATHERED, 5));
        assert!(batch.summary().ends_with("(and 5 more)"));
    }

    #[test]
    fn the_body_names_each_event_with_its_link() {
        let batch = Batch {
            notices: vec![finished(1)],
            dropped: 0,
        };
        let body = batch.body("http://localhost:8080", SystemTime::UNIX_EPOCH);
        insta::assert_json_snapshot!(body);
    }
}
