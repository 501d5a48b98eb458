// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The digest: what an agent must know of a board after a context reset,
//! in at most [`DIGEST_MAX_CHARS`] characters whatever the board's size.
//! Hooks inject it (`planning-mcp-server summary`), so it is deterministic:
//! the same board at the same moment gives the same text.
//!
//! ```text
//! # Board default
//!
//! **Goal:** Ship v1: the release
//! **Done when:** cargo test passes on main
//! Goal met: no
//! Tasks: 12 (7 pending, 2 in progress, 3 completed, 0 failed, 0 cancelled); 2 of 3 completed with evidence
//!
//! Claimed (2):
//! - ⟳ [4e21ad16] worker-1 until 2026-11-22T10:30:00Z: Write tests
//! Ready (4):
//! - ☐ [48dd0523] Implement feature X
//! Blocked (5):
//! - ☐ [0e4bc2e3] waits for [48dd0523]: Document the tools
//!
//! Set aside by sync (1):
//! - worker-2: claim_task of [4e21ad16] 'Write tests': worker-1 holds the task
//! ```
//!
//! (The last section only for a board kept in git whose syncs set an
//! operation aside in the last day: docs/sync.md.)

use std::fmt::Write;

use super::render::{counts_line, flight_line, met_line};
use super::text::{cut, flat, time};
use super::view::View;
use crate::toolsets::planning::domain::{Status, TaskId};

/// The most characters a digest has.
pub(crate) const DIGEST_MAX_CHARS: usize = 1500;

const GOAL_CHARS: usize = 120;
const DONE_WHEN_CHARS: usize = 80;
const LINE_CHARS: usize = 80;
const HOLDER_CHARS: usize = 20;
const IN_FLIGHT_SHOWN: usize = 5;
const STALLED_SHOWN: usize = 3;
const CLAIMED_SHOWN: usize = 3;
const READY_SHOWN: usize = 4;
const BLOCKED_SHOWN: usize = 3;
const BLOCKERS_SHOWN: usize = 3;
const SET_ASIDE_SHOWN: usize = 3;
/// How long an operation set aside by a sync stays in the digest.
const SET_ASIDE_WITHIN: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// One section: its heading, how many tasks it counts, and the lines it
/// would show (at most its cap).
struct Section {
    heading: &'static str,
    count: usize,
    lines: Vec<String>,
}

/// The digest of board `name` as `view` sees it.
pub fn digest(name: &str, view: View<'_>) -> String {
    bounded(name, view, DIGEST_MAX_CHARS)
}

/// The digest of board `name` at `revision`, ending with the line that
/// gives the revision to pass to `wait_for` (a lead that has only the
/// digest after a compaction waits from there); within the same bound.
pub(crate) fn digest_at(name: &str, view: View<'_>, revision: u64) -> String {
    let last = super::wait_reply::revision_line(revision);
    let room = DIGEST_MAX_CHARS.saturating_sub(last.chars().count() + 2);
    format!("{}\n\n{last}", bounded(name, view, room))
}

/// The digest in at most `max` characters.
fn bounded(name: &str, view: View<'_>, max: usize) -> String {
    let board = view.board;
    let mut out = format!("# Board {}\n\n", cut(&flat(name), 64));
    match board.goal() {
        None => out.push_str("**Goal:** not set"),
        Some(goal) => {
            let text = match goal.description.is_empty() {
                true => goal.title.clone(),
                false => format!("{}: {}", goal.title, goal.description),
            };
            let _ = write!(out, "**Goal:** {}", cut(&flat(&text), GOAL_CHARS));
        }
    }
    if let Some(condition) = board.coordination().done_when() {
        let _ = write!(
            out,
            "\n**Done when:** {}",
            cut(&flat(condition), DONE_WHEN_CHARS)
        );
    }
    let _ = write!(out, "\n{}\n{}", met_line(view), counts_line(view));
    let mut aside = String::new();
    set_aside(&mut aside, view);
    let sections = sections(view);
    // Every section with tasks shows its heading and count; its lines come
    // in the sections' order for as long as the bound leaves room, after
    // the room for each section's "… and N more" is kept.
    let fixed: usize = out.chars().count()
        + aside.chars().count()
        + sections
            .iter()
            .filter(|s| s.count > 0)
            .map(|s| 2 + s.heading.len() + 3 + digits(s.count) + more_chars(s.count))
            .sum::<usize>()
        + 1;
    let mut room = max.saturating_sub(fixed);
    let mut first = true;
    for section in sections.into_iter().filter(|s| s.count > 0) {
        out.push_str(if first { "\n\n" } else { "\n" });
        first = false;
        let _ = write!(out, "{} ({}):", section.heading, section.count);
        let mut shown = 0;
        for line in &section.lines {
            let chars = line.chars().count() + 1;
            if chars > room {
                room = 0;
                break;
            }
            room -= chars;
            let _ = write!(out, "\n{line}");
            shown += 1;
        }
        if section.count > shown {
            let _ = write!(out, "\n- … and {} more", section.count - shown);
        }
    }
    out.push_str(&aside);
    cut(&out, max)
}

/// The digest's sections, in the order they get room: dispatched work in
/// flight and stalled, then other claims, the next ready tasks and what is
/// blocked.
fn sections(view: View<'_>) -> [Section; 5] {
    let board = view.board;
    let dispatched = view.dispatched();
    let section = |heading, count, lines| Section {
        heading,
        count,
        lines,
    };
    let flight = |in_flight: bool, cap: usize| {
        let list: Vec<_> = dispatched
            .iter()
            .filter(|(_, _, state)| state.in_flight() == in_flight)
            .collect();
        let lines = list
            .iter()
            .take(cap)
            .map(|(task, d, state)| flight_line(view, task, d, *state, true, LINE_CHARS))
            .collect();
        (list.len(), lines)
    };
    let (in_flight, in_flight_lines) = flight(true, IN_FLIGHT_SHOWN);
    let (stalled, stalled_lines) = flight(false, STALLED_SHOWN);
    // Claims that no dispatch in flight accounts for.
    let claims: Vec<_> = view
        .claimed()
        .filter(|(task, claim)| {
            view.dispatch(task.id)
                .is_none_or(|(d, _)| d.worker != claim.holder)
        })
        .collect();
    let claimed_lines = claims
        .iter()
        .take(CLAIMED_SHOWN)
        .map(|(task, claim)| {
            let holder = cut(&flat(&claim.holder), HOLDER_CHARS);
            line(view, task, &format!("{holder} until {}", time(claim.until)))
        })
        .collect();
    // One pass over the pending tasks sorts them into ready and blocked;
    // only the lines shown are written, the rest are counted.
    let (mut ready, mut blocked) = (Vec::new(), Vec::new());
    let (mut ready_count, mut blocked_count) = (0, 0);
    for task in board.tasks().filter(|t| view.status(t) == Status::Pending) {
        if view.waiting_for(task.id).next().is_some() {
            blocked_count += 1;
            if blocked.len() < BLOCKED_SHOWN {
                blocked.push(line(view, task, &waits_for(view, task.id)));
            }
        } else if !view.dispatch(task.id).is_some_and(|(_, s)| s.in_flight()) {
            ready_count += 1;
            if ready.len() < READY_SHOWN {
                ready.push(line(view, task, ""));
            }
        }
    }
    [
        section("In flight", in_flight, in_flight_lines),
        section("Stalled", stalled, stalled_lines),
        section("Claimed", claims.len(), claimed_lines),
        section("Ready", ready_count, ready),
        section("Blocked", blocked_count, blocked),
    ]
}

/// `- ☐ [id] before: title`, cut to the line length.
fn line(
    view: View<'_>,
    task: &crate::toolsets::planning::domain::Task,
    before_title: &str,
) -> String {
    let mut line = format!("- {} [{}] ", view.status(task).glyph(), task.id);
    if !before_title.is_empty() {
        let _ = write!(line, "{before_title}: ");
    }
    line.push_str(&flat(&task.title));
    cut(&line, LINE_CHARS)
}

/// How many digits `n` has.
fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// The most characters of a section's `\n- … and N more` line.
fn more_chars(count: usize) -> usize {
    "\n- … and  more".chars().count() + digits(count)
}

/// The operations that the last day's syncs set aside (a git board's):
/// the newest few, so that an agent back from a reset learns of them.
fn set_aside(out: &mut String, view: View<'_>) {
    let since = view
        .now
        .checked_sub(SET_ASIDE_WITHIN)
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
    let recent: Vec<_> = view
        .set_aside
        .iter()
        .filter(|aside| aside.op.stamp >= since)
        .collect();
    if recent.is_empty() {
        return;
    }
    let _ = write!(out, "\n\nSet aside by sync ({}):", recent.len());
    for aside in recent.iter().rev().take(SET_ASIDE_SHOWN) {
        let who = aside.agent.as_deref().map_or(String::new(), |a| {
            format!("{}: ", cut(&flat(a), HOLDER_CHARS))
        });
        let line = format!("- {who}{}", flat(&aside.what_happened()));
        let _ = write!(out, "\n{}", cut(&line, LINE_CHARS * 2));
    }
    if recent.len() > SET_ASIDE_SHOWN {
        let _ = write!(out, "\n- … and {} more", recent.len() - SET_ASIDE_SHOWN);
    }
}

/// `waits for [a] [b] [c] +2`: the blockers of `id` not completed yet.
fn waits_for(view: View<'_>, id: TaskId) -> String {
    let waiting: Vec<TaskId> = view.waiting_for(id).collect();
    let mut text = String::from("waits for");
    for blocker in waiting.iter().take(BLOCKERS_SHOWN) {
        let _ = write!(text, " [{blocker}]");
    }
    if waiting.len() > BLOCKERS_SHOWN {
        let _ = write!(text, " +{}", waiting.len() - BLOCKERS_SHOWN);
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::toolsets::planning::coordination::{Claim, Dispatch, Edit};
    use crate::toolsets::planning::domain::{Board, Limits, NewTask};
    use crate::toolsets::team::domain::fixture::{at, board, claim, link};

    #[test]
    fn a_digest_shows_holders_the_next_ready_tasks_and_what_is_blocked() {
        let titles: Vec<String> = (1..=12).map(|n| format!("task {n}")).collect();
        let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
        let mut board = board(&refs);
        link(&mut board, "task 9", &["task 1"]);
        link(
            &mut board,
            "task 10",
            &["task 1", "task 2", "task 3", "task 4", "task 5"],
        );
        link(&mut board, "task 11", &["task 9"]);
        link(&mut board, "task 12", &["task 11"]);
        for (n, agent) in [
            (1, "worker-1"),
            (2, "worker-2"),
            (3, "a-very-long-agent-name-indeed"),
        ] {
            claim(&mut board, 0, agent, &format!("task {n}"));
        }
        claim(&mut board, 0, "worker-4", "task 4");
        let text = digest("default", View::new(&board, at(5)));
        insta::assert_snapshot!("digest", text);
        // Twenty minutes on, every lease has ended: the tasks are ready again.
        let later = digest("default", View::new(&board, at(20)));
        assert!(later.contains("Ready (8):"), "{later}");
        assert!(!later.contains("Claimed"), "{later}");
    }

    #[test]
    fn a_digest_names_what_the_last_days_syncs_set_aside() {
        use crate::toolsets::planning::domain::replay::intent::Intent;
        use crate::toolsets::planning::domain::replay::{OpId, Reason, Replica, SetAside};
        let board = board(&["a"]);
        let micros = |t: std::time::SystemTime| {
            t.duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as u64
        };
        let aside = |hours_ago: u64, agent: Option<&str>, reason: Reason, intent: &str| SetAside {
            op: OpId {
                stamp: micros(at(0)) - hours_ago * 3_600_000_000,
                replica: Replica(1),
                counter: hours_ago,
            },
            agent: agent.map(str::to_owned),
            reason,
            intent: (!intent.is_empty()).then(|| Intent {
                text: intent.into(),
                evidence: intent.contains("evidence"),
            }),
        };
        let id = crate::toolsets::planning::domain::TaskId::from_content("a", "");
        let set_aside = [
            aside(
                30,
                None,
                Reason::TaskGone(id),
                "update_task_statuses of [bfc622d4] 'a' to completed",
            ),
            aside(
                3,
                Some("worker-2"),
                Reason::Held {
                    task: id,
                    holder: "worker-1".into(),
                },
                "claim_task of [bfc622d4] 'a'",
            ),
            aside(
                2,
                Some("worker-3"),
                Reason::TaskGone(id),
                "release_task of [bfc622d4] 'a' as completed, with evidence",
            ),
            aside(
                1,
                None,
                Reason::TooManyTasks {
                    title: "z".into(),
                    max: 100,
                },
                "add_tasks",
            ),
            aside(
                1,
                None,
                Reason::Noted("task [bfc622d4] had been deleted on another clone".into()),
                "",
            ),
        ];
        let text = digest(
            "default",
            View::new(&board, at(0)).with_set_aside(&set_aside),
        );
        let section = text.split_once("\n\nSet aside").map(|(_, s)| s).unwrap();
        // What was lost, in the words the agent was told (shortened).
        insta::assert_snapshot!("digest_set_aside", section);
        assert!(!digest("default", View::new(&board, at(0))).contains("Set aside"));
    }

    /// 10,000 tasks with long titles, globs on every task, 1,000 tasks held,
    /// 1,000 dispatched (half of them stalled), half of the rest blocked.
    #[test]
    fn a_digest_stays_within_its_bound_at_any_size() {
        let limits = Limits {
            max_tasks: 10_000,
            max_goal_length: 5000,
            max_task_length: 5000,
        };
        let mut board = Board::new(limits, false);
        let long = "ü\n".repeat(2000);
        let _ = board.set_goal(&long, &long).unwrap();
        let tasks: Vec<NewTask> = (0..10_000)
            .map(|n| NewTask::new(format!("{n} {long}"), ""))
            .collect();
        let _ = board.add_tasks(&tasks).unwrap();
        let ids: Vec<_> = board.tasks().map(|t| t.id).collect();
        let holder = "h".repeat(64);
        let mut edits = vec![Edit::DoneWhen(Some("d".repeat(5000)))];
        for (n, id) in ids.iter().enumerate() {
            let touches = (0..32)
                .map(|k| format!("src/{n}/{k}/**/*.{{rs,md}}"))
                .collect();
            edits.push(Edit::Touches(*id, touches));
        }
        for (n, id) in ids.iter().enumerate().skip(1) {
            // Half the tasks wait for five others; a tenth are held.
            if n % 2 == 0 {
                for back in 1..=5.min(n) {
                    edits.push(Edit::Link {
                        task: *id,
                        blocker: ids[n - back],
                    });
                }
            } else if n % 10 == 3 {
                // Dispatched; every other one stalled by minute 1.
                let until = match n % 20 {
                    3 => at(0),
                    _ => at(60),
                };
                edits.push(Edit::Dispatch(
                    *id,
                    Some(Dispatch {
                        worker: "w".repeat(64),
                        by: "lead".repeat(16),
                        place: Some("p\n".repeat(250)),
                        note: Some("n".repeat(500)),
                        at: at(0),
                        until,
                        claimed: n % 40 == 3,
                    }),
                ));
            } else if n % 10 == 1 {
                edits.push(Edit::Status(
                    *id,
                    crate::toolsets::planning::domain::Status::InProgress,
                ));
                edits.push(Edit::Claim(
                    *id,
                    Some(Claim {
                        holder: holder.clone(),
                        since: at(0),
                        until: at(0) + Duration::from_secs(u32::MAX.into()),
                    }),
                ));
            }
        }
        let _ = board.edit(at(0), edits).unwrap();
        // Served, it ends with the revision, within the same bound.
        let served = digest_at(&"n".repeat(64), View::new(&board, at(1)), u64::MAX);
        assert!(served.chars().count() <= DIGEST_MAX_CHARS, "{served}");
        assert!(
            served.ends_with(&format!(
                "more\n\nRevision {}: pass it as revision to wait_for what comes next.",
                u64::MAX
            )),
            "{served}"
        );
        let text = digest(&"n".repeat(64), View::new(&board, at(1)));
        let chars = text.chars().count();
        assert!(chars <= DIGEST_MAX_CHARS, "{chars}: {text}");
        for heading in [
            "In flight (500):",
            "Stalled (500):",
            "Claimed (1000):",
            "Ready (",
            "Blocked (4999):",
        ] {
            assert!(text.contains(heading), "{heading}: {text}");
        }
        assert!(text.ends_with("more"), "nothing was cut: {text}");
        assert!(
            text.lines().all(|line| line.chars().count() <= 130),
            "{text}"
        );
        // Every section shows its first task, the dispatches first of all.
        let shown = |heading: &str| {
            let section = text.split(heading).nth(1).unwrap_or_default();
            section
                .lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("- ") && !l.contains(" more"))
        };
        assert!(
            shown("In flight (500):") && shown("Stalled (500):"),
            "{text}"
        );
    }
}
