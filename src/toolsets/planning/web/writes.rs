// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's hand on the board: `POST /boards/{name}/actions/{action}`,
//! from the board page (a `fetch` with JSON, or a plain form without
//! JavaScript) or from a script. Each write takes the agents' path: the
//! board's [`SharedBoard::mutate`] (the same locks, limits and store as an
//! MCP call), and every open page and `wait_for` hears of it like any
//! change.
//!
//! The order of the checks: sign-in (the HTTP layer: 401), then the origin
//! and the CSRF token ([`super::csrf`]: 403), then the request (400), then
//! the board (404 when it does not exist, 409 when it refuses the change,
//! 503 when it is busy or cannot be saved). A refused write changes nothing.
//!
//! The body is a JSON object of strings or form fields; the answer to JSON
//! is JSON (`{"ok": true, "action": "add", "task_id": "…", "revision": 7,
//! "text": "…", "outcome": {…}}`, the last two the reply the terminal's
//! `board` command prints, or `{"error": "…", "kind": "no_task"}`), to a
//! form a `303` back to the board page (or the error as text).
//!
//! The planning writes are [`person_tasks`]'s, as the terminal's `board`
//! commands are, so both channels refuse and reply alike.
//!
//! [`ACTIONS`] are the planning board's own writes; [`PERSON_ACTIONS`]
//! (approve, reject, note) go to the person's desk that toolset `team`
//! gives ([`PersonDesk`]), and are refused (404) without it. Everything but
//! the change itself (sign-in, origin, token, parsing, answers) is shared.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::Web;
use super::csrf;
use crate::server::BoardName;
use crate::toolsets::planning::coordination::person::{PersonDesk, PersonError, PersonReply};
use crate::toolsets::planning::domain::{Status, TaskId};
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::person_tasks;
use crate::toolsets::planning::shared_board::SharedBoard;

/// The largest body a write takes: far more than any title and description.
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// The planning board's writes, as `{action}` names them.
pub(crate) const ACTIONS: [&str; 5] = ["add", "edit", "status", "cancel", "goal"];

/// A person's own writes, on the desk toolset `team` gives (docs/review.md).
pub(crate) const PERSON_ACTIONS: [&str; 3] = ["approve", "reject", "note"];

/// Who a person's write names when the form gives no `by`: the web board.
const WEB_PERSON: &str = "a person on the web board";

/// The fields of a write: a JSON object of strings, or the form's fields.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Fields(HashMap<String, String>);

impl Fields {
    /// A field that must be given.
    pub(crate) fn required(&self, name: &str) -> Result<&str, WriteError> {
        self.optional(name)
            .ok_or_else(|| WriteError::Invalid(format!("the field {name:?} is missing")))
    }

    /// A field that may be left out.
    pub(crate) fn optional(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Reads a JSON object whose values are strings.
    fn from_json(body: &[u8]) -> Result<Self, WriteError> {
        let value: Value = serde_json::from_slice(body)
            .map_err(|error| WriteError::Invalid(format!("the body is not JSON: {error}")))?;
        let Value::Object(object) = value else {
            return Err(WriteError::Invalid("the body is not a JSON object".into()));
        };
        let mut fields = HashMap::with_capacity(object.len());
        for (name, value) in object {
            let Value::String(text) = value else {
                return Err(WriteError::Invalid(format!(
                    "the field {name:?} is not a string"
                )));
            };
            fields.insert(name, text);
        }
        Ok(Self(fields))
    }

    /// Reads `application/x-www-form-urlencoded` fields (the last of a
    /// repeated name wins).
    fn from_form(body: &[u8]) -> Result<Self, WriteError> {
        let body = std::str::from_utf8(body)
            .map_err(|_| WriteError::Invalid("the form is not UTF-8".into()))?;
        let mut fields = HashMap::new();
        for pair in body.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            fields.insert(form_decode(name)?, form_decode(value)?);
        }
        Ok(Self(fields))
    }
}

/// Decodes one form-encoded name or value: `+` is a space, `%XX` a byte.
fn form_decode(text: &str) -> Result<String, WriteError> {
    let bad = || WriteError::Invalid("the form has a malformed %-escape".into());
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| WriteError::Invalid("the form is not UTF-8".into()))
}

/// What a write did: the task it made or changed, if any, and the reply a
/// person reads of it (the terminal's, [`PersonReply`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Written {
    /// The task (for an edit, its new ID).
    pub(crate) task_id: Option<TaskId>,
    /// The reply.
    pub(crate) reply: PersonReply,
}

/// Why a write was not done. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    /// The request is malformed (400).
    #[error("{0}")]
    Invalid(String),
    /// Another site or no token (403).
    #[error(transparent)]
    CrossSite(#[from] csrf::CrossSite),
    /// No such action (404).
    #[error("no action {0:?} here; the actions are {actions}", actions = ACTIONS.join(", "))]
    NoAction(String),
    /// A person's action without toolset team, which owns review and notes (404).
    #[error(
        "no action {0:?} here: review and notes come with toolset team (--toolsets planning,team)"
    )]
    NoDesk(String),
    /// The board refused the action (409: no such task, a blank title, …)
    /// or could not do it (503).
    #[error(transparent)]
    Person(#[from] PersonError),
    /// No such board (404).
    #[error("no board {0} yet: a board is created by an MCP session at /boards/{0}/mcp")]
    NoBoard(BoardName),
    /// The body's type is neither JSON nor a form (415).
    #[error("send application/json or application/x-www-form-urlencoded")]
    MediaType,
    /// The board could not be opened (503).
    #[error("the board cannot be opened: {0}")]
    NotOpened(String),
}

impl WriteError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Invalid(_) => StatusCode::BAD_REQUEST,
            Self::CrossSite(_) => StatusCode::FORBIDDEN,
            Self::NoAction(_) | Self::NoDesk(_) | Self::NoBoard(_) => StatusCode::NOT_FOUND,
            Self::Person(PersonError::Refused(_) | PersonError::NoTask(_)) => StatusCode::CONFLICT,
            Self::Person(PersonError::Failed(_)) | Self::NotOpened(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::MediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// The error answer's `kind`, for a program that tells refusals apart
    /// (the terminal's `board --url` and its exit statuses): the status
    /// alone does not (409 is a blank title and an unknown ID alike).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Invalid(_) => "invalid",
            Self::CrossSite(_) => "cross_site",
            Self::NoAction(_) | Self::NoDesk(_) => "no_action",
            Self::NoBoard(_) => "no_board",
            Self::Person(PersonError::NoTask(_)) => "no_task",
            Self::Person(PersonError::Refused(_)) => "refused",
            Self::Person(PersonError::Failed(_)) | Self::NotOpened(_) => "failed",
            Self::MediaType => "media_type",
        }
    }
}

/// A write's change: validates `fields` and changes the board through
/// [`SharedBoard::mutate`] (or `mutate_with`, or the person's desk). Runs
/// off the async workers.
pub(crate) type Apply =
    Box<dyn FnOnce(&SharedBoard, &Fields) -> Result<Written, WriteError> + Send + 'static>;

/// A planning write, as a plain function.
type PlanningApply = fn(&SharedBoard, &Fields) -> Result<Written, WriteError>;

/// The change of one of [`ACTIONS`].
fn planning_action(action: &str) -> Option<PlanningApply> {
    Some(match action {
        "add" => add,
        "edit" => edit,
        "status" => status,
        "cancel" => cancel,
        "goal" => goal,
        _ => return None,
    })
}

/// `POST /boards/{name}/actions/{action}`: one of the planning board's writes.
pub(crate) async fn action(
    State(web): State<Web>,
    Path((name, action)): Path<(String, String)>,
    request: Request,
) -> Response {
    let form = is_form(request.headers());
    let apply: Apply = match (planning_action(&action), &web.desk) {
        (Some(apply), _) => Box::new(apply),
        (None, Some(desk)) if PERSON_ACTIONS.contains(&action.as_str()) => {
            person_action(desk.clone(), action.clone())
        }
        (None, None) if PERSON_ACTIONS.contains(&action.as_str()) => {
            return answer(form, &action, Err(WriteError::NoDesk(action.clone())));
        }
        (None, _) => return answer(form, &action, Err(WriteError::NoAction(action.clone()))),
    };
    handle(web.boards.clone(), &name, &action, request, apply).await
}

/// The change of one of [`PERSON_ACTIONS`] on `desk`: `task_id` (optional
/// for a board note), `by` (else [`WEB_PERSON`]), and `reason` (reject) or
/// `text` (note).
fn person_action(desk: Arc<dyn PersonDesk>, action: String) -> Apply {
    Box::new(move |board, fields| {
        let by = fields
            .optional("by")
            .map(str::trim)
            .filter(|by| !by.is_empty())
            .unwrap_or(WEB_PERSON);
        let task = fields
            .optional("task_id")
            .map(str::trim)
            .filter(|id| !id.is_empty());
        let reply = match action.as_str() {
            "approve" => desk.approve(board, fields.required("task_id")?, by)?,
            "reject" => desk.reject(
                board,
                fields.required("task_id")?,
                by,
                fields.required("reason")?,
            )?,
            _ => desk.note(board, task, by, fields.required("text")?)?,
        };
        Ok(Written {
            task_id: task.and_then(TaskId::parse),
            reply,
        })
    })
}

/// Runs write `action` on board `name` with `apply`, after the checks every
/// write shares (see the module's documentation), and answers.
pub(crate) async fn handle(
    boards: Arc<Boards>,
    name: &str,
    action: &str,
    request: Request,
    apply: Apply,
) -> Response {
    let form = is_form(request.headers());
    let outcome = run(boards, name, request, apply).await;
    let outcome = outcome.map(|(board, written)| (board, written, action));
    match outcome {
        Ok((board, written, action)) => match form {
            // Back to the board page: /boards/{name}/actions/{action} -> ../../{name}.
            true => (
                StatusCode::SEE_OTHER,
                [(header::LOCATION, format!("../../{name}"))],
            )
                .into_response(),
            false => {
                let mut body = json!({
                    "ok": true,
                    "action": action,
                    "revision": board.revision(),
                    "text": written.reply.text,
                    "outcome": written.reply.json,
                });
                if let Some(id) = written.task_id {
                    body["task_id"] = json!(id.to_string());
                }
                json_response(StatusCode::OK, &body)
            }
        },
        Err(error) => answer(form, action, Err(error)),
    }
}

async fn run(
    boards: Arc<Boards>,
    name: &str,
    request: Request,
    apply: Apply,
) -> Result<(SharedBoard, Written), WriteError> {
    let headers = request.headers().clone();
    csrf::same_origin(&headers)?;
    let body = axum::body::to_bytes(request.into_body(), MAX_BODY)
        .await
        .map_err(|_| WriteError::Invalid(format!("the body is over {MAX_BODY} bytes")))?;
    let fields = parse(&headers, &body);
    // The token before the request's own errors: another site learns nothing.
    let given = fields.as_ref().ok().and_then(|f| f.optional(csrf::FIELD));
    csrf::token(&headers, given)?;
    let fields = fields?;
    let name = BoardName::parse(name).ok_or_else(|| {
        WriteError::Invalid("no such board: names match ^[a-z0-9][a-z0-9_-]{0,63}$".into())
    })?;
    crate::runtime::blocking::run(move || {
        let board = match boards.get_stored(&name) {
            Ok(Some(board)) => board,
            Ok(None) => return Err(WriteError::NoBoard(name)),
            Err(error) => return Err(WriteError::NotOpened(error.public())),
        };
        let written = apply(&board, &fields)?;
        Ok((board, written))
    })
    .await
}

/// A write as its route carries it out once the body is read: the origin
/// and token checks of `headers`, the JSON `body` of `action`, the change
/// on `board`; answers the task's ID, if the write names one, or why
/// nothing changed (`benches/storage.rs` measures it on the file backend).
pub fn write_json(
    board: &SharedBoard,
    action: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Option<String>, String> {
    let checked = || -> Result<Written, WriteError> {
        csrf::same_origin(headers)?;
        let fields = Fields::from_json(body)?;
        csrf::token(headers, fields.optional(csrf::FIELD))?;
        let apply = planning_action(action).ok_or_else(|| WriteError::NoAction(action.into()))?;
        apply(board, &fields)
    };
    checked()
        .map(|written| written.task_id.map(|id| id.to_string()))
        .map_err(|error| error.to_string())
}

fn parse(headers: &HeaderMap, body: &Bytes) -> Result<Fields, WriteError> {
    match content_type(headers).as_str() {
        "application/json" => Fields::from_json(body),
        "application/x-www-form-urlencoded" => Fields::from_form(body),
        _ => Err(WriteError::MediaType),
    }
}

/// The media type, lower case, without parameters.
fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn is_form(headers: &HeaderMap) -> bool {
    content_type(headers) == "application/x-www-form-urlencoded"
}

fn answer(form: bool, action: &str, outcome: Result<(), WriteError>) -> Response {
    let Err(error) = outcome else {
        return StatusCode::NO_CONTENT.into_response();
    };
    let status = error.status();
    if status.is_server_error() {
        tracing::warn!(action, %error, "a write from the web was not done");
    }
    match form {
        true => (status, format!("Nothing changed: {error}\n")).into_response(),
        false => json_response(
            status,
            &json!({"error": error.to_string(), "kind": error.kind()}),
        ),
    }
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The task named by field `task_id`.
fn task_id(fields: &Fields) -> Result<&str, WriteError> {
    fields.required("task_id")
}

/// What a planning write did: `reply`, naming the task `task_id`.
fn written(reply: PersonReply, task_id: Option<TaskId>) -> Written {
    Written { task_id, reply }
}

/// The task a reply's JSON names (`task_id`).
fn named(reply: &PersonReply) -> Option<TaskId> {
    reply.json["task_id"].as_str().and_then(TaskId::parse)
}

/// `add`: `title`, `description` (may be left out). A task identical to
/// one on the board is skipped, as `add_tasks` does: the answer names it.
fn add(board: &SharedBoard, fields: &Fields) -> Result<Written, WriteError> {
    let title = fields.required("title")?;
    let description = fields.optional("description").unwrap_or_default();
    let reply = person_tasks::add(board, title, description)?;
    Ok(written(reply.clone(), named(&reply)))
}

/// `edit`: `task_id`, and `title` and/or `description`. The ID follows the
/// words (the answer gives the new one).
fn edit(board: &SharedBoard, fields: &Fields) -> Result<Written, WriteError> {
    let (id, title, description) = (
        task_id(fields)?,
        fields.optional("title"),
        fields.optional("description"),
    );
    let reply = person_tasks::edit(board, id, title, description)?;
    Ok(written(reply.clone(), named(&reply)))
}

/// `status`: `task_id` and `status` (`pending`, `in_progress`,
/// `completed`, `failed`, `cancelled`).
fn status(board: &SharedBoard, fields: &Fields) -> Result<Written, WriteError> {
    set_status(board, task_id(fields)?, fields.required("status")?)
}

/// `cancel`: `task_id`; the same as `status` with `cancelled`.
fn cancel(board: &SharedBoard, fields: &Fields) -> Result<Written, WriteError> {
    set_status(board, task_id(fields)?, Status::Cancelled.as_str())
}

fn set_status(board: &SharedBoard, id: &str, status: &str) -> Result<Written, WriteError> {
    let reply = person_tasks::status(board, id, status)?;
    Ok(written(reply, TaskId::parse(id)))
}

/// `goal`: `title`, `description` (may be left out), and, to replace a
/// goal that is set, `reason`. Sets the goal when there is none, else
/// changes it (recording the reason).
fn goal(board: &SharedBoard, fields: &Fields) -> Result<Written, WriteError> {
    let title = fields.required("title")?;
    let description = fields.optional("description").unwrap_or_default();
    let reply = person_tasks::goal(board, title, description, fields.optional("reason"))?;
    Ok(written(reply, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Board, Limits};
    use crate::toolsets::planning::store::MemoryStore;
    use std::time::Duration;

    fn board() -> SharedBoard {
        SharedBoard::open(
            "w",
            Box::new(MemoryStore),
            Board::new(Limits::default(), true),
            Duration::from_secs(1),
        )
        .unwrap()
    }

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        Fields(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn json_and_forms_give_the_same_fields() {
        let json = Fields::from_json(br#"{"title":"a b","description":"c&d"}"#).unwrap();
        let form = Fields::from_form(b"title=a+b&description=c%26d").unwrap();
        assert!(Fields::from_form(b"title=%zz").is_err());
        assert!(Fields::from_form(b"title=%ff").is_err());
        assert_eq!(json, form);
        assert_eq!(json, fields(&[("title", "a b"), ("description", "c&d")]));
        for bad in [&b"[1]"[..], b"{\"title\":1}", b"{"] {
            assert!(matches!(
                Fields::from_json(bad),
                Err(WriteError::Invalid(_))
            ));
        }
    }

    #[test]
    fn a_person_adds_edits_moves_and_cancels_a_task_and_sets_the_goal() {
        let board = board();
        let added = add(&board, &fields(&[("title", "Write docs")])).unwrap();
        let id = added.task_id.unwrap().to_string();
        let again = add(&board, &fields(&[("title", "Write docs")])).unwrap();
        assert_eq!(again.task_id, added.task_id, "identical: skipped, named");
        let edited = edit(
            &board,
            &fields(&[("task_id", &id), ("title", "Write the docs")]),
        )
        .unwrap();
        let id = edited.task_id.unwrap().to_string();
        status(
            &board,
            &fields(&[("task_id", &id), ("status", "in_progress")]),
        )
        .unwrap();
        cancel(&board, &fields(&[("task_id", &id)])).unwrap();
        let state = board
            .read(|b| {
                let task = b.tasks().next().unwrap();
                (b.len(), task.title.clone(), task.status)
            })
            .unwrap();
        assert_eq!(state, (1, "Write the docs".to_owned(), Status::Cancelled));

        goal(&board, &fields(&[("title", "Ship")])).unwrap();
        let refused = goal(&board, &fields(&[("title", "Ship more")])).unwrap_err();
        assert_eq!(
            refused.status(),
            StatusCode::CONFLICT,
            "a change needs a reason"
        );
        goal(
            &board,
            &fields(&[("title", "Ship more"), ("reason", "asked")]),
        )
        .unwrap();
        let title = board.read(|b| b.goal().unwrap().title.clone()).unwrap();
        assert_eq!(title, "Ship more");
    }

    #[test]
    fn bad_requests_change_nothing() {
        let board = board();
        let revision = board.revision();
        let missing = add(&board, &fields(&[])).unwrap_err();
        assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
        let unknown = status(
            &board,
            &fields(&[("task_id", "00000000"), ("status", "completed")]),
        )
        .unwrap_err();
        assert_eq!(unknown.status(), StatusCode::CONFLICT);
        let blank = add(&board, &fields(&[("title", "  ")])).unwrap_err();
        assert_eq!(blank.status(), StatusCode::CONFLICT);
        assert_eq!(board.revision(), revision);
        assert_eq!(board.read(Board::len).unwrap(), 0);
    }
}
