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
//! **Goal:** Ship v1
//!   the release
//! **Done when:** cargo test passes on main
//! Goal met: no
//! Tasks: 12 (7 pending, 2 in progress, 3 completed, 0 failed, 0 cancelled); 2 of 3 completed with evidence
//!
//! Claimed (2):
//! - ⟳ [4e21ad16] worker-1 until 2026-11-22T10:30:00Z: Write tests
//! Ready (4):
//! - ☐ [48dd0523] unblocks 5: Implement feature X
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

use super::render::{PLACE_CHARS, counts_line, flight_head, met_line};
use super::text::{cut, flat, time};
use super::unblocks;
use super::view::View;
use crate::toolsets::planning::domain::{Status, Task, TaskId};

/// The most characters a digest has.
pub(crate) const DIGEST_MAX_CHARS: usize = 1500;

const GOAL_CHARS: usize = 120;
const DONE_WHEN_CHARS: usize = 80;
/// The shortest the goal's description and the done-when condition get.
const DESCRIPTION_MIN_CHARS: usize = 30;
const DONE_WHEN_MIN_CHARS: usize = 40;
/// The shortest a dispatch's worktree gets.
const PLACE_MIN_CHARS: usize = 12;
/// The longest title a line shows.
pub(crate) const TITLE_MAX_CHARS: usize = 64;
/// The shortest the titles get, evenly, before whole lines go.
pub(crate) const TITLE_MIN_CHARS: usize = 32;
/// A set-aside line is at most twice this.
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

/// One line of a section: what comes before the title (`- ☐ [id] `, with
/// `before: ` when the line says more), as the fitting shortens it or not,
/// and the title, flattened and cut to [`TITLE_MAX_CHARS`].
struct Line {
    head: String,
    /// The head with the descriptions shortened (a dispatch's worktree).
    short_head: String,
    title: String,
}

/// One section: its heading, how many tasks it counts, and the lines it
/// would show (at most its cap).
struct Section {
    heading: &'static str,
    count: usize,
    lines: Vec<Line>,
}

/// How much of each part the digest shows. [`bounded`] lowers them in
/// turn until the text fits its bound: the descriptions first (the
/// goal's, the done-when condition, a dispatch's worktree), then the
/// counts (how many lines a section lists, the last sections first, down
/// to one each), then the titles last, all to one length (not below
/// [`TITLE_MIN_CHARS`]); only then lines go, the last sections' first.
#[derive(Debug, Clone, Copy)]
struct Room {
    description: usize,
    done_when: usize,
    short_heads: bool,
    shown: [usize; 5],
    title: usize,
}

impl Room {
    /// Everything the digest shows at most.
    const FULL: Room = Room {
        description: GOAL_CHARS,
        done_when: DONE_WHEN_CHARS,
        short_heads: false,
        shown: [
            IN_FLIGHT_SHOWN,
            STALLED_SHOWN,
            CLAIMED_SHOWN,
            READY_SHOWN,
            BLOCKED_SHOWN,
        ],
        title: TITLE_MAX_CHARS,
    };
}

/// What the digest says, before it is fitted to its bound.
struct Parts {
    /// `# Board name`, `**Goal:** title`.
    top: String,
    /// The goal's description, flattened.
    description: String,
    /// The done-when condition, flattened.
    done_when: Option<String>,
    /// Whether the goal is met and the counts.
    status: String,
    sections: [Section; 5],
    /// The set-aside section, as it is.
    aside: String,
    /// A person's part: reviews awaited, rejections, unread notes, as it is.
    people: String,
}

impl Parts {
    fn of(name: &str, view: View<'_>) -> Self {
        let board = view.board;
        let mut top = format!("# Board {}\n\n", cut(&flat(name), 64));
        let mut description = String::new();
        match board.goal() {
            None => top.push_str("**Goal:** not set"),
            // The title, and the description on the next line, indented:
            // as the team's replies write a goal (never joined by ": ").
            Some(goal) => {
                let _ = write!(top, "**Goal:** {}", cut(&flat(&goal.title), GOAL_CHARS));
                description = flat(&goal.description);
            }
        }
        let mut aside = String::new();
        set_aside(&mut aside, view);
        Self {
            top,
            description,
            done_when: board.coordination().done_when().map(flat),
            status: format!("{}\n{}", met_line(view), counts_line(view)),
            sections: sections(view),
            aside,
            people: super::digest_people::sections(view),
        }
    }

    /// The text with `room`.
    fn render(&self, room: &Room) -> String {
        let mut out = self.top.clone();
        if !self.description.is_empty() {
            let _ = write!(out, "\n  {}", cut(&self.description, room.description));
        }
        if let Some(condition) = &self.done_when {
            let _ = write!(out, "\n**Done when:** {}", cut(condition, room.done_when));
        }
        let _ = write!(out, "\n{}", self.status);
        out.push_str(&self.people);
        // Every section with tasks shows its heading and count.
        let mut first = true;
        for (section, shown) in self.sections.iter().zip(room.shown) {
            if section.count == 0 {
                continue;
            }
            out.push_str(if first { "\n\n" } else { "\n" });
            first = false;
            let _ = write!(out, "{} ({}):", section.heading, section.count);
            let lines = &section.lines[..shown.min(section.lines.len())];
            for line in lines {
                let head = match room.short_heads {
                    true => &line.short_head,
                    false => &line.head,
                };
                let _ = write!(out, "\n{head}{}", cut(&line.title, room.title));
            }
            if section.count > lines.len() {
                let _ = write!(out, "\n- … and {} more", section.count - lines.len());
            }
        }
        out.push_str(&self.aside);
        out
    }
}

/// The digest in at most `max` characters: everything, or as much as
/// fits, shortened as [`Room`] says.
fn bounded(name: &str, view: View<'_>, max: usize) -> String {
    let parts = Parts::of(name, view);
    let fits = |room: &Room| parts.render(room).chars().count() <= max;
    let mut room = Room::FULL;
    // The descriptions first.
    for (description, done_when) in [(60, 60), (DESCRIPTION_MIN_CHARS, DONE_WHEN_MIN_CHARS)] {
        if fits(&room) {
            break;
        }
        room.description = description;
        room.done_when = done_when;
        room.short_heads = true;
    }
    // Then the counts, the last sections' first, down to a line each.
    while !fits(&room) {
        match room.shown.iter().rposition(|n| *n > 1) {
            Some(last) => room.shown[last] -= 1,
            None => break,
        }
    }
    // Then the titles, all to one length.
    while !fits(&room) && room.title > TITLE_MIN_CHARS {
        room.title -= 1;
    }
    // Only then whole lines, the dispatches last.
    while !fits(&room) {
        match room.shown.iter().rposition(|n| *n > 0) {
            Some(last) => room.shown[last] = 0,
            None => break,
        }
    }
    cut(&parts.render(&room), max)
}

/// The digest's sections, in the order they keep room: dispatched work in
/// flight and stalled, then other claims, the next ready tasks (ranked as
/// `ready_tasks` ranks them) and what is blocked.
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
            .map(|(task, d, state)| Line {
                head: flight_head(view, task, d, *state, true, PLACE_CHARS),
                short_head: flight_head(view, task, d, *state, true, PLACE_MIN_CHARS),
                title: title(task),
            })
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
    // One pass over the pending tasks finds the blocked ones; only the
    // lines shown are written, the rest are counted.
    let mut blocked = Vec::new();
    let mut blocked_count = 0;
    for task in board.tasks().filter(|t| view.status(t) == Status::Pending) {
        if view.waiting_for(task.id).next().is_some() {
            blocked_count += 1;
            if blocked.len() < BLOCKED_SHOWN {
                blocked.push(line(view, task, &waits_for(view, task.id)));
            }
        }
    }
    // The ready queue in its ranked order, as ready_tasks lists it.
    let (queue, unblocks) = unblocks::ranked(view);
    let ready = queue
        .iter()
        .take(READY_SHOWN)
        .map(|task| match unblocks.of(task.id) {
            0 => line(view, task, ""),
            n => line(view, task, &format!("unblocks {n}")),
        })
        .collect();
    let ready_count = queue.len();
    [
        section("In flight", in_flight, in_flight_lines),
        section("Stalled", stalled, stalled_lines),
        section("Claimed", claims.len(), claimed_lines),
        section("Ready", ready_count, ready),
        section("Blocked", blocked_count, blocked),
    ]
}

/// A task's title as a digest line starts from: flattened, at most
/// [`TITLE_MAX_CHARS`].
fn title(task: &Task) -> String {
    cut(&flat(&task.title), TITLE_MAX_CHARS)
}

/// `- ☐ [id] before: title`.
fn line(view: View<'_>, task: &Task, before_title: &str) -> Line {
    let mut head = format!("- {} [{}] ", view.status(task).glyph(), task.id);
    if !before_title.is_empty() {
        let _ = write!(head, "{before_title}: ");
    }
    Line {
        short_head: head.clone(),
        head,
        title: title(task),
    }
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

    /// Many long titles, long worktrees and a long goal: the digest gives
    /// up the descriptions, then lines, then title length, evenly, and
    /// every title it shows keeps at least [`TITLE_MIN_CHARS`] characters
    /// (an in-flight title is never cut to a few).
    #[test]
    fn a_digest_keeps_titles_readable_within_its_bound() {
        let titles: Vec<String> = (0..30)
            .map(|n| format!("{n:02} {}", "implement the long-named part ".repeat(6)))
            .collect();
        let mut board = Board::new(Limits::default(), true);
        let _ = board
            .set_goal(&"Ship ".repeat(40), &"the whole release ".repeat(20))
            .unwrap();
        let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(t, "")).collect();
        let _ = board.add_tasks(&tasks).unwrap();
        for n in 20..30 {
            link(&mut board, &titles[n], &[&titles[n - 10]]);
        }
        let mut edits = vec![Edit::DoneWhen(Some("cargo test passes ".repeat(10)))];
        for (n, title) in titles.iter().enumerate().take(8) {
            edits.push(Edit::Dispatch(
                crate::toolsets::team::domain::fixture::id(title),
                Some(Dispatch {
                    worker: format!("worker-{n}-with-a-rather-long-name"),
                    by: "lead".into(),
                    place: Some(format!("../worktrees/{n}/of-the-long-release-branch")),
                    note: None,
                    at: at(0),
                    until: at(if n < 5 { 60 } else { 1 }),
                    claimed: false,
                }),
            ));
        }
        let _ = board.edit(at(0), edits).unwrap();
        for (n, title) in titles.iter().enumerate().take(11).skip(8) {
            claim(&mut board, 0, &format!("worker-{n}"), title);
        }
        let text = digest_at("default", View::new(&board, at(5)), 42);
        assert!(text.chars().count() <= DIGEST_MAX_CHARS, "{text}");
        assert!(text.ends_with("Revision 42: pass it as revision to wait_for what comes next."));
        let tasks: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("- ") && !l.contains(" more"))
            .collect();
        for heading in [
            "In flight (5):",
            "Stalled (3):",
            "Claimed (3):",
            "Ready (",
            "Blocked (",
        ] {
            let listed = text.split(heading).nth(1).and_then(|s| s.lines().nth(1));
            assert!(
                listed.is_some_and(|l| l.starts_with("- ") && !l.contains(" more")),
                "{heading}: {text}"
            );
        }
        // Titles are cut evenly: every one shown has the same length, at
        // least the minimum.
        let lengths: Vec<usize> = tasks
            .iter()
            .map(|l| l.rsplit_once(": ").unwrap().1.chars().count())
            .collect();
        assert!(lengths.iter().all(|n| *n >= TITLE_MIN_CHARS), "{text}");
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "{lengths:?}: {text}"
        );
        insta::assert_snapshot!("digest_long_titles", text);
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
            text.lines()
                .all(|line| line.chars().count() <= LINE_CHARS * 2),
            "{text}"
        );
        // Every title shown is readable: its lines gave up details first.
        for line in text
            .lines()
            .filter(|l| l.starts_with("- ") && !l.contains(" more"))
        {
            let (_, title) = line.split_once(": ").unwrap();
            assert!(title.chars().count() >= TITLE_MIN_CHARS, "{line}");
        }
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
