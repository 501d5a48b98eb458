// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board page, `GET /boards/{name}`: the goal and its history, the
//! progress bar, and a Kanban column per status; with toolset `team`, the
//! goal's done-when condition, how many dispatched tasks are in flight and
//! stalled, and, on each card, its holder and lease, its dispatch (in
//! flight or stalled), the tasks it waits for, the paths it touches and
//! the evidence of its outcome. It is complete
//! without JavaScript; `web.js` then keeps the same elements up to date
//! from the live events (so the element IDs and classes here are its
//! contract).

use std::collections::HashMap;
use std::fmt::Write;

use super::html::{self, escape};
use super::view::{BoardView, DispatchView, EntryView, EventView, EvidenceView, TaskView};
use crate::toolsets::planning::domain::Status;

/// How many status changes the page lists under "Recent activity".
pub(crate) const ACTIVITY_SHOWN: usize = 20;

/// The column heading of each status.
pub(crate) fn column_title(status: Status) -> &'static str {
    match status {
        Status::Pending => "Pending",
        Status::InProgress => "In progress",
        Status::Completed => "Completed",
        Status::Failed => "Failed",
        Status::Cancelled => "Cancelled",
        Status::AwaitingReview => "Awaiting review",
    }
}

/// The whole board page, read-only.
pub fn board_page(view: &BoardView<'_>) -> String {
    board_page_with(view, None)
}

/// The forms a board page offers a person.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Writes<'a> {
    /// The page's CSRF token ([`super::csrf`]).
    pub(crate) csrf: &'a str,
    /// Whether the board takes a person's approve, reject and note (toolset
    /// team's desk).
    pub(crate) people: bool,
}

/// The whole board page; with `writes` also the forms of a person's writes
/// ([`super::writes`]) and an "Edit" button on each card.
pub(crate) fn board_page_with(view: &BoardView<'_>, writes: Option<Writes<'_>>) -> String {
    let csrf = writes.map(|w| w.csrf);
    let name = escape(view.board);
    let mut body = format!(
        "<a class=\"skip\" href=\"#columns\">Skip to the tasks</a>\n\
         <header class=\"bar\">\n<nav aria-label=\"Breadcrumb\"><a href=\"../\">Boards</a> \
         <span aria-hidden=\"true\">/</span> <span aria-current=\"page\">{name}</span></nav>\n\
         <p id=\"live\" class=\"live\" role=\"status\" aria-live=\"polite\">Not live: \
         reload for changes</p>\n</header>\n\
         <main id=\"board\" data-events=\"{name}/events\">\n"
    );
    push_store(&mut body, view);
    push_goal(&mut body, view);
    let _ = write!(
        body,
        "<section class=\"progress\" aria-label=\"Progress\">\n{}\n{}\n</section>\n",
        html::progress("progress", view.progress.completed, view.progress.total),
        html::counts(&view.counts)
    );
    if let Some(writes) = writes {
        push_writes(&mut body, &name, writes);
    }
    let _ = write!(
        body,
        "<p id=\"no-tasks\" class=\"empty\"{}>No tasks yet.</p>\n\
         <div id=\"columns\" class=\"columns\">\n",
        hidden(!view.tasks.is_empty())
    );
    let statuses: HashMap<&str, Status> = view
        .tasks
        .iter()
        .map(|t| (t.id.as_str(), t.status))
        .collect();
    for status in Status::ALL {
        push_column(&mut body, status, &view.tasks, &statuses, csrf.is_some());
    }
    // Only a board that uses review has its column.
    if view.counts.awaiting_review > 0 {
        push_column(
            &mut body,
            Status::AwaitingReview,
            &view.tasks,
            &statuses,
            csrf.is_some(),
        );
    }
    body.push_str("</div>\n");
    push_activity(&mut body, view.history.as_deref());
    let changed = view
        .changed_at
        .as_deref()
        .map_or_else(|| "never".to_owned(), html::time);
    let _ = write!(
        body,
        "<footer class=\"foot\"><p>Last change: <span id=\"changed-at\">{changed}</span> · \
         <a href=\"{name}.json\">JSON</a> · <a href=\"{name}.md\">Markdown</a></p></footer>\n\
         </main>\n"
    );
    html::page(
        &format!("{} · planning board", view.board),
        "../assets/",
        &body,
    )
}

fn hidden(hide: bool) -> &'static str {
    if hide { " hidden" } else { "" }
}

fn push_goal(out: &mut String, view: &BoardView<'_>) {
    let (title, description, unset) = match &view.goal {
        Some(goal) => (goal.title, goal.description, ""),
        None => ("No goal set yet", "", " class=\"unset\""),
    };
    let _ = write!(
        out,
        "<section class=\"goal\" aria-labelledby=\"goal-title\">\n<p class=\"eyebrow\">Goal</p>\n\
         <h1 id=\"goal-title\"{unset}>{}</h1>\n<p id=\"goal-description\" class=\"text\"{}>{}</p>\n",
        escape(title),
        hidden(description.is_empty()),
        escape(description)
    );
    if let Some(team) = &view.team {
        let done_when = team.done_when.unwrap_or_default();
        let met = if team.goal_met { "met" } else { "not met" };
        let _ = write!(
            out,
            "<p id=\"done-when\" class=\"text done-when\"{}>Done when: \
             <span class=\"condition\">{}</span></p>\n\
             <p id=\"goal-met\" class=\"met\" data-met=\"{}\">Goal {met} · \
             <span class=\"n\">{}</span> completed with evidence</p>\n\
             <p id=\"dispatches\" class=\"dispatches\"{}>\
             <span class=\"in-flight\">{}</span> in flight · \
             <span class=\"stalled\" data-n=\"{}\">{}</span> stalled</p>\n",
            hidden(done_when.is_empty()),
            escape(done_when),
            team.goal_met,
            team.completed_with_evidence,
            hidden(team.in_flight + team.stalled == 0),
            team.in_flight,
            team.stalled,
            team.stalled
        );
    }
    let goal_changes: Vec<&EntryView<'_>> = view
        .history
        .iter()
        .flatten()
        .filter(|e| {
            matches!(
                e.event,
                EventView::GoalSet { .. } | EventView::GoalChanged { .. }
            )
        })
        .collect();
    let _ = write!(
        out,
        "<details id=\"goal-history\" class=\"history\"{}><summary>Goal history \
         (<span class=\"n\">{}</span>)</summary>\n<ol>",
        hidden(goal_changes.is_empty()),
        goal_changes.len()
    );
    for entry in goal_changes.iter().rev() {
        push_goal_entry(out, entry);
    }
    out.push_str("</ol>\n</details>\n</section>\n");
}

fn push_goal_entry(out: &mut String, entry: &EntryView<'_>) {
    let _ = write!(out, "<li>{} ", html::time(&entry.at));
    match &entry.event {
        EventView::GoalSet { goal } => {
            let _ = write!(out, "Goal set: <q>{}</q>", escape(goal.title));
        }
        EventView::GoalChanged { from, to, reason } => {
            let _ = write!(
                out,
                "Changed from <q>{}</q> to <q>{}</q>. <span class=\"reason\">Reason: {}</span>",
                escape(from.title),
                escape(to.title),
                escape(reason)
            );
        }
        _ => {}
    }
    out.push_str("</li>");
}

fn push_column(
    out: &mut String,
    status: Status,
    tasks: &[TaskView<'_>],
    statuses: &HashMap<&str, Status>,
    editable: bool,
) {
    let cards: Vec<&TaskView<'_>> = tasks.iter().filter(|t| t.status == status).collect();
    let key = status.as_str();
    let _ = write!(
        out,
        "<section class=\"column\" data-status=\"{key}\" aria-labelledby=\"col-{key}\"{}>\n\
         <h2 id=\"col-{key}\"><span class=\"glyph\" aria-hidden=\"true\">{}</span> {} \
         <span class=\"n\">{}</span></h2>\n<ol class=\"cards\">",
        hidden(cards.is_empty()),
        status.glyph(),
        column_title(status),
        cards.len()
    );
    for task in cards {
        push_card(out, task, statuses, editable);
    }
    out.push_str("</ol>\n</section>\n");
}

/// One card. `web.js` builds the same markup in `card()`.
fn push_card(
    out: &mut String,
    task: &TaskView<'_>,
    statuses: &HashMap<&str, Status>,
    editable: bool,
) {
    let _ = write!(
        out,
        "\n<li id=\"task-{id}\" class=\"card\" data-task-id=\"{id}\" tabindex=\"0\">\
         <p class=\"meta\">{} <code class=\"id\">{id}</code></p>\
         <h3 class=\"title\">{}</h3>",
        html::glyph(task.status),
        escape(task.title),
        id = escape(&task.id),
    );
    if !task.description.is_empty() {
        let _ = write!(out, "<p class=\"text\">{}</p>", escape(task.description));
    }
    if let Some(claim) = &task.claim {
        let _ = write!(
            out,
            "<p class=\"claim\">Held by <b class=\"holder\">{}</b> until {}</p>",
            escape(claim.holder),
            html::time(&claim.until)
        );
    }
    if let Some(dispatch) = &task.dispatch {
        push_dispatch(out, dispatch);
    }
    if !task.touches.is_empty() {
        out.push_str("<p class=\"touches\">Touches");
        for touch in task.touches {
            let _ = write!(out, " <code>{}</code>", escape(touch));
        }
        out.push_str("</p>");
    }
    if !task.blocked_by.is_empty() {
        out.push_str("<p class=\"blocked\">Waits for");
        for blocker in &task.blocked_by {
            let glyph = statuses
                .get(blocker.as_str())
                .map_or_else(String::new, |status| html::glyph(*status));
            let _ = write!(
                out,
                " <span class=\"dep\">{glyph}<code class=\"id\">{}</code></span>",
                escape(blocker)
            );
        }
        out.push_str("</p>");
    }
    if let Some(evidence) = &task.evidence {
        push_evidence(out, evidence);
    }
    if editable {
        let _ = write!(
            out,
            "<button type=\"button\" class=\"edit\" data-task-id=\"{}\">Edit</button>",
            escape(&task.id)
        );
    }
    out.push_str("</li>");
}

/// The state of the board's store, when there is something to tell: the
/// store cannot be reached (the board below is as this server last held
/// it), or (a git board) when it last synced, whether the sync is
/// offline, changes wait to be pushed, or operations were set aside.
/// `web.js` builds the same in `renderStore()`.
fn push_store(out: &mut String, view: &BoardView<'_>) {
    let store = &view.store;
    let _ = write!(
        out,
        "<section id=\"store\" class=\"store\" aria-label=\"Store\" data-state=\"{}\"{}>\n\
         <p id=\"store-problem\" class=\"problem\"{}>{}</p>\n\
         <p id=\"store-stale\" class=\"stale\"{}>The board below is as this server last \
         read it.</p>\n",
        store.state(),
        hidden(store.is_fine()),
        hidden(store.problem.is_none()),
        escape(store.problem.as_deref().unwrap_or_default()),
        hidden(store.problem.is_none())
    );
    let sync = store.sync.as_ref();
    let offline = sync.and_then(|s| s.offline.as_deref());
    let unpushed = sync.and_then(|s| s.unpushed.as_deref());
    let last_sync = sync
        .and_then(|s| s.last_sync.as_deref())
        .map_or_else(|| "not since the server started".to_owned(), html::time);
    let _ = write!(
        out,
        "<p id=\"sync-last\" class=\"last-sync\"{}>Last sync: <span class=\"at\">{last_sync}</span></p>\n\
         <p id=\"sync-offline\" class=\"offline\"{}>Sync offline: {}</p>\n\
         <p id=\"sync-unpushed\" class=\"unpushed\"{}>Not pushed yet: {}</p>\n",
        hidden(!sync.is_some_and(|s| s.on)),
        hidden(offline.is_none()),
        escape(offline.unwrap_or_default()),
        hidden(unpushed.is_none()),
        escape(unpushed.unwrap_or_default())
    );
    let aside = sync.map(|s| s.set_aside.as_slice()).unwrap_or_default();
    let _ = write!(
        out,
        "<details id=\"set-aside\" class=\"set-aside\"{}><summary>Set aside \
         (<span class=\"n\">{}</span>)</summary>\n<ol>",
        hidden(aside.is_empty()),
        aside.len()
    );
    for line in aside {
        let _ = write!(out, "<li>{}</li>", escape(line));
    }
    out.push_str("</ol>\n</details>\n</section>\n");
}

/// The forms of a person's writes. Each posts to
/// `{board}/actions/{action}` with the CSRF token, and works without
/// JavaScript (the answer sends the browser back to the page); `web.js`
/// sends them as JSON instead, and fills the edit form from a card's
/// "Edit" button.
fn push_writes(out: &mut String, name: &str, writes: Writes<'_>) {
    let csrf = writes.csrf;
    let token = format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        escape(csrf)
    );
    let task = "<input type=\"hidden\" name=\"task_id\" class=\"task-id\" value=\"\">";
    let statuses: String = Status::ALL
        .iter()
        .map(|s| {
            format!(
                "<option value=\"{}\">{}</option>",
                s.as_str(),
                column_title(*s)
            )
        })
        .collect();
    let (people_task, people_board) = person_forms(name, &token, task, writes.people);
    let _ = write!(
        out,
        "<section id=\"writes\" class=\"writes\" aria-label=\"Change the board\" \
         data-csrf=\"{csrf}\">\n\
         <details id=\"add-task\"><summary>Add a task</summary>\n\
         <form class=\"write\" method=\"post\" action=\"{name}/actions/add\">{token}\
         <label>Title <input name=\"title\" required></label>\
         <label>Description <textarea name=\"description\" rows=\"3\"></textarea></label>\
         <button type=\"submit\">Add</button></form>\n</details>\n\
         <details id=\"edit-task\" hidden><summary>Edit task \
         <code class=\"id\"></code></summary>\n\
         <form id=\"edit-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/edit\">{token}{task}\
         <label>Title <input name=\"title\" required></label>\
         <label>Description <textarea name=\"description\" rows=\"3\"></textarea></label>\
         <button type=\"submit\">Save</button></form>\n\
         <form id=\"status-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/status\">{token}{task}\
         <label>Status <select name=\"status\">{statuses}</select></label>\
         <button type=\"submit\">Set status</button></form>\n\
         <form id=\"cancel-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/cancel\">{token}{task}\
         <button type=\"submit\">Cancel the task</button></form>\n{people_task}</details>\n\
         <details id=\"set-goal\"><summary>Set the goal</summary>\n\
         <form class=\"write\" method=\"post\" action=\"{name}/actions/goal\">{token}\
         <label>Title <input name=\"title\" required></label>\
         <label>Description <textarea name=\"description\" rows=\"3\"></textarea></label>\
         <label>Reason (to replace a goal) <input name=\"reason\"></label>\
         <button type=\"submit\">Set the goal</button></form>\n</details>\n\
         {people_board}<p id=\"write-status\" class=\"write-status\" role=\"status\" aria-live=\"polite\"></p>\n\
         </section>\n",
        csrf = escape(csrf)
    );
}

/// The review and note forms of the edit panel (for the task being
/// edited) and of the board, when the board takes them (toolset team).
fn person_forms(name: &str, token: &str, task: &str, people: bool) -> (String, String) {
    if !people {
        return (String::new(), String::new());
    }
    let on_task = format!(
        "<form id=\"approve-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/approve\">{token}{task}\
         <button type=\"submit\">Approve</button></form>\n\
         <form id=\"reject-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/reject\">{token}{task}\
         <label>Reason <input name=\"reason\" required></label>\
         <button type=\"submit\">Reject</button></form>\n\
         <form id=\"task-note-form\" class=\"write\" method=\"post\" \
         action=\"{name}/actions/note\">{token}{task}\
         <label>Note to its holder <input name=\"text\" required></label>\
         <button type=\"submit\">Leave the note</button></form>\n"
    );
    let on_board = format!(
        "<details id=\"board-note\"><summary>Leave a note for the agents</summary>\n\
         <form class=\"write\" method=\"post\" action=\"{name}/actions/note\">{token}\
         <label>Note <input name=\"text\" required></label>\
         <button type=\"submit\">Leave the note</button></form>\n</details>\n"
    );
    (on_task, on_board)
}

/// The dispatch line of a card: in flight (the worker, where, until when)
/// or stalled (whose time ran out, and when). `web.js` builds the same in
/// `dispatch()` and turns it stalled when `until` passes.
fn push_dispatch(out: &mut String, dispatch: &DispatchView<'_>) {
    let place = dispatch.place.map_or_else(String::new, |place| {
        format!(" in <code>{}</code>", escape(place))
    });
    let what = match (dispatch.state, dispatch.claimed) {
        ("stalled", true) => "Stalled: lease ended",
        ("stalled", false) => "Stalled: not claimed by",
        (_, true) => "In flight: lease to",
        (_, false) => "Dispatched: claim by",
    };
    let _ = write!(
        out,
        "<p class=\"dispatch\" data-state=\"{}\" data-until=\"{}\">\
         <b class=\"worker\">{}</b>{place} (by {}) · <span class=\"what\">{what}</span> {}</p>",
        dispatch.state,
        escape(&dispatch.until),
        escape(dispatch.worker),
        escape(dispatch.by),
        html::time(&dispatch.until)
    );
}

/// The evidence line of a card: its parts, separated by `·`. A URL is a
/// link only when it is http(s); anything else stays text.
fn push_evidence(out: &mut String, evidence: &EvidenceView<'_>) {
    let mut parts = Vec::new();
    if let Some(command) = evidence.command {
        let exit = evidence
            .exit_code
            .map_or_else(String::new, |code| format!(" → exit {code}"));
        parts.push(format!("<code>{}</code>{exit}", escape(command)));
    }
    if let Some(commit) = evidence.commit {
        parts.push(format!("commit <code>{}</code>", escape(commit)));
    }
    if let Some(url) = evidence.url {
        let link = url.starts_with("https://") || url.starts_with("http://");
        parts.push(match link {
            true => format!(
                "<a href=\"{0}\" rel=\"noopener noreferrer\">{0}</a>",
                escape(url)
            ),
            false => escape(url).into_owned(),
        });
    }
    if let Some(note) = evidence.note {
        parts.push(escape(note).into_owned());
    }
    let _ = write!(
        out,
        "<p class=\"evidence\">Evidence: {} <span class=\"by\">({})</span></p>",
        parts.join(" · "),
        escape(evidence.by)
    );
}

fn push_activity(out: &mut String, history: Option<&[EntryView<'_>]>) {
    let changes: Vec<&EntryView<'_>> = history
        .unwrap_or_default()
        .iter()
        .filter(|e| {
            !matches!(
                e.event,
                EventView::GoalSet { .. } | EventView::GoalChanged { .. }
            )
        })
        .rev()
        .take(ACTIVITY_SHOWN)
        .collect();
    let _ = write!(
        out,
        "<details id=\"activity\" class=\"history\"{}><summary>Recent activity</summary>\n<ol>",
        hidden(changes.is_empty())
    );
    for entry in changes {
        let at = html::time(&entry.at);
        let _ = match &entry.event {
            EventView::StatusChanged {
                task_id,
                title,
                from,
                to,
            } => write!(
                out,
                "<li>{at} {} <code class=\"id\">{}</code> {}: {} → {}</li>",
                html::glyph(*to),
                escape(task_id),
                escape(title),
                from.label(),
                to.label()
            ),
            EventView::Claimed {
                task_id,
                title,
                holder,
                until,
            } => write!(
                out,
                "<li>{at} <code class=\"id\">{}</code> {}: claimed by {} until {}</li>",
                escape(task_id),
                escape(title),
                escape(holder),
                html::time(until)
            ),
            EventView::ClaimEnded {
                task_id,
                title,
                holder,
                reason,
                ..
            } => write!(
                out,
                "<li>{at} <code class=\"id\">{}</code> {}: claim of {} ended ({})</li>",
                escape(task_id),
                escape(title),
                escape(holder),
                reason.replace('_', " ")
            ),
            EventView::LinksRemoved {
                task_id,
                title,
                dependents,
            } => write!(
                out,
                "<li>{at} <code class=\"id\">{}</code> {}: deleted; {} task(s) no longer wait for it</li>",
                escape(task_id),
                escape(title),
                dependents.len()
            ),
            EventView::Dispatched {
                task_id,
                title,
                worker,
                by,
                until,
            } => write!(
                out,
                "<li>{at} <code class=\"id\">{}</code> {}: dispatched to {} by {}, to claim by {}</li>",
                escape(task_id),
                escape(title),
                escape(worker),
                escape(by),
                html::time(until)
            ),
            EventView::DispatchEnded {
                task_id,
                title,
                worker,
                reason,
            } => write!(
                out,
                "<li>{at} <code class=\"id\">{}</code> {}: dispatch to {} ended ({})</li>",
                escape(task_id),
                escape(title),
                escape(worker),
                reason.replace('_', " ")
            ),
            EventView::Reviewed {
                task_id,
                title,
                evidence,
            } => {
                let (verdict, reason) = evidence
                    .review
                    .as_ref()
                    .map_or(("reviewed", None), |r| (r.verdict, r.reason));
                let by = evidence.review.as_ref().map_or("", |r| r.by);
                write!(
                    out,
                    "<li>{at} <code class=\"id\">{}</code> {}: {verdict} by {}{}</li>",
                    escape(task_id),
                    escape(title),
                    escape(by),
                    reason.map_or_else(String::new, |r| format!(": {}", escape(r)))
                )
            }
            EventView::GoalSet { .. } | EventView::GoalChanged { .. } => Ok(()),
        };
    }
    out.push_str("</ol>\n</details>\n");
}
