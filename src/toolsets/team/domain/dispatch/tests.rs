// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Dispatch records and stall detection, on a board whose time the tests
//! set (minute by minute): nothing here waits.

use std::time::Duration;

use super::*;
use crate::toolsets::planning::domain::{Board, ClaimEnd, DispatchEnd, Event};
use crate::toolsets::team::domain::claims::{self, Target};
use crate::toolsets::team::domain::fixture::{apply, at, board, id, link};
use crate::toolsets::team::domain::wave::{Stalled, wave};
use crate::toolsets::team::domain::{EvidenceRule, ReviewRule, render};

const LEASE: Duration = Duration::from_secs(15 * 60);

fn request<'a>(worker: &'a str, task: &'a str) -> Request<'a> {
    Request {
        lead: "lead",
        worker,
        task_id: Some(task),
        place: Some("../wt-1"),
        note: None,
        lease: LEASE,
        accept_overlap: false,
    }
}

fn send(
    board: &mut Board,
    minute: u64,
    worker: &str,
    title: &str,
) -> Result<Dispatched, TeamError> {
    let task = id(title).to_string();
    apply(board, at(minute), |v| dispatch(v, &request(worker, &task)))
}

fn claim(board: &mut Board, minute: u64, agent: &str, title: &str) -> Result<(), TeamError> {
    let task = id(title).to_string();
    apply(board, at(minute), |v| {
        claims::claim(v, agent, Target::Task(&task), LEASE, false)
    })
    .map(|_| ())
}

fn state(board: &Board, minute: u64, title: &str) -> Option<&'static str> {
    let view = View::new(board, at(minute));
    view.dispatch(id(title)).map(|(_, state)| match state {
        DispatchState::Working(_) => "working",
        DispatchState::Waiting => "waiting",
        DispatchState::Stalled => "stalled",
    })
}

fn ready(board: &Board, minute: u64, stalled: Stalled) -> Vec<String> {
    let view = View::new(board, at(minute));
    let wave = wave(view, 100, stalled, None);
    wave.members.iter().map(|t| t.title.clone()).collect()
}

fn events(board: &Board) -> Vec<Event> {
    board
        .history()
        .unwrap()
        .entries()
        .map(|e| e.event.clone())
        .collect()
}

#[test]
fn a_worker_that_never_claims_stalls_when_its_time_runs_out() {
    let mut board = board(&["a", "b"]);
    let sent = send(&mut board, 0, "w1", "a").unwrap();
    assert_eq!(
        (sent.until, sent.renewed, sent.claimed),
        (at(15), false, false)
    );
    assert_eq!(state(&board, 14, "a"), Some("waiting"));
    assert_eq!(ready(&board, 14, Stalled::Include), ["b"], "a is in flight");
    // At the end of its time, exactly: stalled, and ready again.
    assert_eq!(state(&board, 15, "a"), Some("stalled"));
    assert_eq!(ready(&board, 15, Stalled::Include), ["a", "b"]);
    assert_eq!(ready(&board, 15, Stalled::Exclude), ["b"]);
    assert_eq!(ready(&board, 15, Stalled::Only), ["a"]);
    let dispatched = events(&board).into_iter().any(|e| {
        matches!(e, Event::Dispatched { worker, by, until, .. } if worker == "w1" && by == "lead" && until == at(15))
    });
    assert!(dispatched);
}

#[test]
fn the_workers_claim_links_and_its_lease_decides_the_stall() {
    let mut board = board(&["a"]);
    send(&mut board, 0, "w1", "a").unwrap();
    claim(&mut board, 5, "w1", "a").unwrap();
    let record = board.coordination().dispatch(id("a")).unwrap().clone();
    assert_eq!(
        (record.claimed, record.until, record.at),
        (true, at(20), at(0))
    );
    assert_eq!(state(&board, 19, "a"), Some("working"));
    // A renewal moves the record's time with the lease.
    claim(&mut board, 18, "w1", "a").unwrap();
    assert_eq!(
        board.coordination().dispatch(id("a")).unwrap().until,
        at(33)
    );
    assert_eq!(state(&board, 32, "a"), Some("working"));
    // No renewal, no release: at the lease's end the record is stalled,
    // before and after the expiry is recorded.
    assert_eq!(state(&board, 33, "a"), Some("stalled"));
    apply(&mut board, at(34), |_| Ok((Vec::new(), ()))).unwrap();
    assert!(
        board.coordination().claim(id("a")).is_none(),
        "expiry recorded"
    );
    assert_eq!(state(&board, 34, "a"), Some("stalled"));
    let view = View::new(&board, at(34));
    let line = render::task_line(view, board.task(id("a")).unwrap());
    assert_eq!(
        line,
        format!(
            "- ☐ [{}] a · stalled: w1 (in ../wt-1) let its lease end at 2027-01-15T08:33:00Z",
            id("a")
        )
    );
}

#[test]
fn a_release_ends_the_record() {
    let mut board = board(&["a"]);
    send(&mut board, 0, "w1", "a").unwrap();
    claim(&mut board, 1, "w1", "a").unwrap();
    let task = id("a").to_string();
    apply(&mut board, at(2), |v| {
        claims::release(
            v,
            "w1",
            &task,
            "completed",
            None,
            EvidenceRule::Optional,
            ReviewRule::Off,
        )
    })
    .unwrap();
    assert!(board.coordination().dispatch(id("a")).is_none());
    assert!(events(&board).iter().any(|e| matches!(e,
        Event::DispatchEnded { reason: DispatchEnd::Released, worker, .. } if worker == "w1")));
}

#[test]
fn others_wait_while_it_is_in_flight_and_take_over_once_it_stalled() {
    let mut board = board(&["a"]);
    send(&mut board, 0, "w1", "a").unwrap();
    let before = board.clone();
    assert_eq!(
        claim(&mut board, 1, "w2", "a").unwrap_err(),
        TeamError::Dispatched {
            id: id("a"),
            worker: "w1".into(),
            until: at(15),
            claimed: false
        }
    );
    assert_eq!(
        send(&mut board, 1, "w2", "a").unwrap_err().to_string(),
        format!(
            "[{}] is dispatched to w1, who has until 2027-01-15T08:15:00Z to claim it; pick \
             another task (ready_tasks), or wait_for it to stall if w1 misses that time.",
            id("a")
        )
    );
    assert_eq!(board, before, "refusals change nothing");
    // Stalled: another agent's claim ends the record.
    claim(&mut board, 16, "w2", "a").unwrap();
    assert!(board.coordination().dispatch(id("a")).is_none());
    assert!(events(&board).iter().any(|e| matches!(e,
        Event::DispatchEnded { reason: DispatchEnd::Taken, worker, .. } if worker == "w1")));
}

#[test]
fn the_lead_dispatches_a_stalled_task_again_and_a_late_worker_revives_its_own() {
    let mut board = board(&["a", "b"]);
    send(&mut board, 0, "w1", "a").unwrap();
    let again = send(&mut board, 16, "w2", "a").unwrap();
    assert_eq!(again.replaced.as_deref(), Some("w1"));
    assert_eq!(board.coordination().dispatch(id("a")).unwrap().worker, "w2");
    assert!(events(&board).iter().any(|e| matches!(e,
        Event::DispatchEnded { reason: DispatchEnd::Replaced, worker, .. } if worker == "w1")));
    // The same worker again renews: its time starts anew, `at` stays.
    let renewed = send(&mut board, 20, "w2", "a").unwrap();
    assert!(renewed.renewed);
    let record = board.coordination().dispatch(id("a")).unwrap();
    assert_eq!((record.at, record.until), (at(16), at(35)));
    // A worker that comes back after its dispatch stalled may still claim it.
    send(&mut board, 0, "w3", "b").unwrap();
    claim(&mut board, 40, "w3", "b").unwrap();
    assert_eq!(state(&board, 41, "b"), Some("working"));
    assert_eq!(
        board.coordination().dispatch(id("b")).unwrap().until,
        at(55)
    );
}

#[test]
fn what_cannot_be_dispatched_is_refused_with_the_reason() {
    let mut board = board(&["a", "b", "c", "d"]);
    link(&mut board, "b", &["a"]);
    claim(&mut board, 0, "w1", "a").unwrap();
    assert!(matches!(
        send(&mut board, 1, "w2", "a"),
        Err(TeamError::Held { .. })
    ));
    assert!(matches!(
        send(&mut board, 1, "w2", "b"),
        Err(TeamError::Blocked { .. })
    ));
    let c = id("c").to_string();
    let _ = board.update_statuses(&[(&c, "cancelled")]).unwrap();
    assert_eq!(
        send(&mut board, 1, "w2", "c").unwrap_err(),
        TeamError::NotDispatchable {
            id: id("c"),
            status: Status::Cancelled
        }
    );
    for bad in ["", "a\nb", "w\u{202e}"] {
        assert!(
            matches!(send(&mut board, 1, bad, "d"), Err(TeamError::Text { .. })),
            "{bad:?}"
        );
    }
    let task = id("d").to_string();
    let mut long = request("w2", &task);
    let place = "p".repeat(MAX_PLACE_CHARS + 1);
    long.place = Some(&place);
    assert!(matches!(
        apply(&mut board, at(1), |v| dispatch(v, &long)),
        Err(TeamError::Text { .. })
    ));
    // A worker that holds the task already: the record takes its lease.
    let linked = send(&mut board, 3, "w1", "a").unwrap();
    assert_eq!((linked.claimed, linked.until), (true, at(15)));
    assert_eq!(state(&board, 3, "a"), Some("working"));
    // A planning status change away from in progress ends the claim and
    // the record (the operator's override).
    let a = id("a").to_string();
    let _ = board.update_statuses(&[(&a, "pending")]).unwrap();
    assert!(board.coordination().dispatch(id("a")).is_none());
    assert!(events(&board).iter().any(|e| matches!(
        e,
        Event::ClaimEnded {
            reason: ClaimEnd::StatusChanged,
            ..
        }
    )));
}

#[test]
fn touches_of_held_work_refuse_an_overlapping_dispatch_unless_accepted() {
    let mut board = board(&["a", "b"]);
    let touches = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for (title, patterns) in [("a", ["src/**"]), ("b", ["src/parser/*.rs"])] {
        let task = id(title).to_string();
        apply(&mut board, at(0), |v| {
            crate::toolsets::team::domain::touches::set(v, &task, &touches(&patterns), false)
        })
        .unwrap();
    }
    send(&mut board, 0, "w1", "a").unwrap();
    let refused = send(&mut board, 1, "w2", "b").unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "[{}] touches src/parser/*.rs, which overlaps src/** of [{}], dispatched to w1 until \
             2027-01-15T08:15:00Z (both match src/parser/.rs); dispatch another task \
             (ready_tasks lists a wave that overlaps nothing), or pass accept_overlap true to \
             dispatch it anyway.",
            id("b"),
            id("a")
        )
    );
    // The same worker may take both; another with accept_overlap too.
    let task = id("b").to_string();
    let mut accepted = request("w2", &task);
    accepted.accept_overlap = true;
    let sent = apply(&mut board, at(1), |v| dispatch(v, &accepted)).unwrap();
    assert_eq!(sent.overlap.unwrap().other, id("a"));
}

/// The lead names no task: each dispatch takes the top of the ranked ready
/// queue that overlaps no held work, three dispatches three tasks; with
/// nothing left the refusal says why and changes nothing.
#[test]
fn a_dispatch_without_a_task_takes_the_next_task_of_the_ready_wave() {
    let mut board = board(&["a", "b", "c", "d", "e"]);
    link(&mut board, "e", &["d"]);
    let patterns = |p: &str| vec![p.to_owned()];
    for (title, pattern) in [("a", "src/**"), ("b", "src/cli.rs"), ("c", "docs/**")] {
        let task = id(title).to_string();
        apply(&mut board, at(0), |v| {
            crate::toolsets::team::domain::touches::set(v, &task, &patterns(pattern), false)
        })
        .unwrap();
    }
    let next = |board: &mut Board, worker: &str| {
        let request = Request {
            task_id: None,
            ..request(worker, "")
        };
        apply(board, at(1), |v| dispatch(v, &request))
    };
    let taken: Vec<(TaskId, Option<usize>)> = ["w1", "w2", "w3"]
        .iter()
        .map(|worker| next(&mut board, worker).map(|d| (d.id, d.next)).unwrap())
        .collect();
    // d unblocks e, so it goes first; b overlaps a (dispatched to w1).
    assert_eq!(
        taken,
        [(id("d"), Some(1)), (id("a"), Some(0)), (id("c"), Some(0))]
    );
    let view = View::new(&board, at(1));
    let text = render::dispatched(
        view,
        &[],
        &Dispatched {
            id: id("d"),
            until: at(16),
            renewed: false,
            claimed: false,
            replaced: None,
            overlap: None,
            next: Some(1),
        },
        "w1",
    );
    assert!(
        text.starts_with(&format!(
            "Dispatched [{}] (the next ready task; it unblocks 1) to w1; it must claim_task it \
             (agent w1) by 2027-01-15T08:16:00Z, or it stalls.\n",
            id("d")
        )),
        "{text}"
    );
    let before = events(&board).len();
    let refused = next(&mut board, "w4").unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "No ready task can start without overlapping held work: the 1 ready task overlaps \
             the touches of a claimed or dispatched task (e.g. [{}] touches src/cli.rs, which \
             overlaps src/** of [{}], dispatched to w2 until 2027-01-15T08:16:00Z (both match \
             src/cli.rs)); dispatch one by task_id with accept_overlap true, or wait_for a task \
             to finish.",
            id("b"),
            id("a")
        )
    );
    // The worker that holds a may take b, which overlaps only its own work.
    assert_eq!(next(&mut board, "w2").unwrap().id, id("b"));
    assert!(matches!(
        next(&mut board, "w5").unwrap_err(),
        TeamError::NothingReady {
            pending: 1,
            held: 0,
            dispatched: 4
        }
    ));
    assert_eq!(events(&board).len(), before + 1, "refusals change nothing");
}
