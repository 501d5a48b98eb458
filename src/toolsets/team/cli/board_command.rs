// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server board`, a person's hand on the board from a
//! terminal: `board list`, `add`, `edit`, `status`, `goal` (planning's
//! rules, [`crate::toolsets::planning::person_tasks`]), `board review
//! approve <task-id>`, `board review reject <task-id> --reason TEXT` and
//! `board note [<task-id>] TEXT` (team's, with `--by NAME`, the OS account
//! by default), each with `--json` (docs/review.md). It takes the
//! configuration's board and storage flags, as `summary` does, and writes
//! the board its server uses, through the same lock and the same rules as
//! an MCP call; or, with `--url`, it asks a running HTTP server, each write
//! as the web board's write of a person ([`super::board_write`]), signed in
//! with the server's token. Exit status 0 when done, else one that says
//! why, nothing changed ([`exit`]).

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};

use serde_json::Value;

use super::board_write::Write;
use super::fetch::{self, FetchError};
use super::{BOARD_KEYS, board_tasks};
use crate::runtime::clock::Clock;
use crate::server::BoardName;
use crate::server::Enabled;
use crate::server::command::{CliCommand, Configuration, Failure, Run};
use crate::server::settings::Flag;
use crate::toolsets::planning::Planning;
use crate::toolsets::planning::coordination::person::{PersonError, PersonReply};
use crate::toolsets::planning::domain::render::Filter;
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::team::people::TeamDesk;

/// `board`'s exit statuses (docs/review.md, "Exit statuses"), the same
/// against the stored board and a server; 2 is clap's (a wrong command
/// line). Each means nothing changed.
pub(crate) mod exit {
    /// Refused by the board's rules, or failed (a lock, a store, a URL).
    pub(crate) const REFUSED: u8 = 1;
    /// No such board: none is stored, or the server holds none.
    pub(crate) const NO_BOARD: u8 = 3;
    /// No such task: the ID names none (or one reworded since).
    pub(crate) const NO_TASK: u8 = 4;
    /// The server could not be asked: nothing listens at the URL, no
    /// answer within 5 s, or not HTTP.
    pub(crate) const UNREACHED: u8 = 5;
    /// The server refused the sign-in: no token or not its token.
    pub(crate) const SIGN_IN: u8 = 6;
}

/// The subcommand, for the registry entry's `commands`.
pub(crate) const BOARD: CliCommand = CliCommand {
    name: "board",
    define,
    run: Run::Configured {
        reads: BOARD_KEYS,
        flag_help,
        run,
    },
};

/// What its `--help` says of the flags of the keys it reads.
fn flag_help(flag: &Flag) -> &str {
    match flag.key {
        "server.board" => "Board to work on",
        _ => flag.help,
    }
}

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "A person's hand on the stored board (or a running server's, with --url): \
list, add, edit and set the status of tasks, set the goal, approve or reject an agent's \
completion that awaits review, leave a note for the agents (docs/review.md)";

// Its arguments. (Not doc comments on the structs: clap would make them
// the subcommands' about.)
#[derive(Debug, Args)]
struct BoardArgs {
    #[command(subcommand)]
    action: Action,
    /// Work on the board of the HTTP server at this URL (e.g. http://localhost:8080) instead
    /// of the stored board, waiting 5 s at most; its token comes from server.auth_token
    /// (PLANNING_SERVER_AUTH_TOKEN)
    #[arg(long, value_name = "URL", global = true)]
    url: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// List the goal and the tasks (oldest first) with their glyphs, IDs and statuses
    List {
        /// Only the tasks with this status (pending, in_progress, completed, failed, cancelled, awaiting_review)
        #[arg(long, value_name = "STATUS")]
        status: Option<String>,
        /// Print the goal and the tasks as one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// Add a task; prints its ID
    Add {
        /// The task's title (one line)
        #[arg(value_name = "TITLE")]
        title: String,
        /// What done looks like
        #[arg(long, value_name = "TEXT", default_value = "")]
        description: String,
        /// Print the outcome as one JSON object instead of the ID
        #[arg(long)]
        json: bool,
    },
    /// Reword a task; prints its new ID (an ID follows the title and description)
    Edit {
        /// The task's ID (eight hex digits, as list shows it)
        #[arg(value_name = "TASK-ID")]
        task_id: String,
        /// Its new title
        #[arg(long, value_name = "TEXT")]
        title: Option<String>,
        /// Its new description
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// Print the outcome as one JSON object instead of the ID
        #[arg(long)]
        json: bool,
    },
    /// Set a task's status: pending, in_progress, completed, failed or cancelled
    Status {
        /// The task's ID (eight hex digits, as list shows it)
        #[arg(value_name = "TASK-ID")]
        task_id: String,
        /// The status to set
        #[arg(value_name = "STATUS")]
        status: String,
        /// Print the outcome as one JSON object instead of the task's line
        #[arg(long)]
        json: bool,
    },
    /// Set the goal, or replace it (then with --reason)
    Goal {
        /// The goal's title
        #[arg(value_name = "TITLE")]
        title: String,
        /// What done looks like
        #[arg(long, value_name = "TEXT", default_value = "")]
        description: String,
        /// Why it changes (required when a goal is set; kept in the history)
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
        /// Print the outcome as one JSON object instead of the goal's line
        #[arg(long)]
        json: bool,
    },
    /// Approve or reject a task that awaits a person's review
    Review {
        #[command(subcommand)]
        verdict: Verdict,
    },
    /// Leave a note for the agents: on a task (its holder's next reply carries it) or on the board
    Note {
        /// [TASK-ID] TEXT: the task's ID (omit it for a note on the board), then the note
        #[arg(value_name = "WORDS", num_args = 1..=2, required = true)]
        words: Vec<String>,
        /// Who leaves it (default: the OS account, $USER or $USERNAME)
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
        /// Print the outcome as one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum Verdict {
    /// Approve it: it is completed, the reviewer and time kept on its evidence
    Approve {
        #[command(flatten)]
        common: Common,
    },
    /// Reject it with a reason: it is pending again, and its next claimant reads the reason
    Reject {
        #[command(flatten)]
        common: Common,
        /// Why (one line): what the next claimant must fix
        #[arg(long, value_name = "TEXT")]
        reason: String,
    },
}

#[derive(Debug, Args)]
struct Common {
    /// The task's ID (eight hex digits, as get_tasks shows it)
    #[arg(value_name = "TASK-ID")]
    task_id: String,
    /// Who reviews (default: the OS account, $USER or $USERNAME)
    #[arg(long, value_name = "NAME")]
    by: Option<String>,
    /// Print the outcome as one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// `board`'s help and arguments; the configuration's flags are given to
/// every nested subcommand too (`board review approve X --storage file`).
fn define(command: Command) -> Command {
    let command = command.mut_args(|arg| arg.global(true));
    BoardArgs::augment_args(command.about(ABOUT).subcommand_required(true))
}

/// Runs the action on the configured board, stored or served.
fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = BoardArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let config = configuration.load()?;
    let token = config.auth_token.as_ref().map(|t| t.expose());
    let url = args.url.as_deref();
    if let Action::List { status, json } = &args.action {
        let filter =
            Filter::parse(status.as_deref().unwrap_or("all")).map_err(|error| error.to_string())?;
        let stored = match url {
            Some(url) => board_tasks::served(url, &config.board, token).map_err(unasked)?,
            None => super::stored_board(&config.toolsets, &config.board, "board list")?,
        };
        return Ok(shown(&board_tasks::list(&stored, filter), *json));
    }
    let (write, json) = write_of(&args.action)?;
    let reply = match url {
        Some(url) => served(url, &config.board, &write, token)?,
        None => {
            let board = open(&config.toolsets, &config.board, write.creates())?;
            let desk = TeamDesk {
                clock: Clock::from_env()?,
            };
            write.apply(&board, &desk).map_err(refused)?
        }
    };
    Ok(shown(&reply, json))
}

/// The write an action asks for, and whether it asks for `--json`.
fn write_of(action: &Action) -> Result<(Write, bool), Failure> {
    Ok(match action {
        Action::List { .. } => unreachable!("a list is no write; run answers it"),
        Action::Add {
            title,
            description,
            json,
        } => (
            Write::Add {
                title: title.clone(),
                description: description.clone(),
            },
            *json,
        ),
        Action::Edit {
            task_id,
            title,
            description,
            json,
        } => (
            Write::Edit {
                task_id: task_id.clone(),
                title: title.clone(),
                description: description.clone(),
            },
            *json,
        ),
        Action::Status {
            task_id,
            status,
            json,
        } => (
            Write::Status {
                task_id: task_id.clone(),
                status: status.clone(),
            },
            *json,
        ),
        Action::Goal {
            title,
            description,
            reason,
            json,
        } => (
            Write::Goal {
                title: title.clone(),
                description: description.clone(),
                reason: reason.clone(),
            },
            *json,
        ),
        Action::Review { verdict } => match verdict {
            Verdict::Approve { common } => (
                Write::Approve {
                    task_id: common.task_id.clone(),
                    by: person(common.by.as_deref())?,
                },
                common.json,
            ),
            Verdict::Reject { common, reason } => (
                Write::Reject {
                    task_id: common.task_id.clone(),
                    by: person(common.by.as_deref())?,
                    reason: reason.clone(),
                },
                common.json,
            ),
        },
        Action::Note { words, by, json } => {
            let (task_id, text) = match words.as_slice() {
                [task, text] => (Some(task.clone()), text.clone()),
                [text] => (None, text.clone()),
                _ => return Err("give the note's text, after the task's ID if any".to_owned())?,
            };
            let by = person(by.as_deref())?;
            (Write::Note { task_id, by, text }, *json)
        }
    })
}

/// `write` done by the server at `url` on its board `name`: the reply its
/// answer carries (the one the stored board gives), or its refusal with
/// the exit status of its `kind`.
fn served(
    url: &str,
    name: &BoardName,
    write: &Write,
    token: Option<&str>,
) -> Result<PersonReply, Failure> {
    let (action, fields) = write.action();
    let (status, body) =
        fetch::write(url, name, action, &fields.to_string(), token).map_err(unasked)?;
    let answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if let (200, Some(text)) = (status, answer["text"].as_str()) {
        return Ok(PersonReply {
            text: text.to_owned(),
            json: answer["outcome"].clone(),
        });
    }
    let Some(error) = answer["error"].as_str() else {
        let body = crate::runtime::text::clip(body.trim());
        return Err(Failure::with_code(
            exit::REFUSED,
            format!("{url} answered {status}, not a write's answer (docs/web.md): {body}"),
        ));
    };
    let code = match answer["kind"].as_str() {
        Some("no_board") => exit::NO_BOARD,
        Some("no_task") => exit::NO_TASK,
        _ => exit::REFUSED,
    };
    Err(Failure::with_code(code, error))
}

/// A server that gave no answer to use, with its exit status.
fn unasked(error: FetchError) -> Failure {
    let code = match &error {
        FetchError::Unreached(_) => exit::UNREACHED,
        FetchError::SignIn(_) => exit::SIGN_IN,
        FetchError::Other(_) => exit::REFUSED,
    };
    Failure::with_code(code, error.to_string())
}

/// A refusal of the stored board, with its exit status.
fn refused(error: PersonError) -> Failure {
    let code = match &error {
        PersonError::NoTask(_) => exit::NO_TASK,
        PersonError::Refused(_) | PersonError::Failed(_) => exit::REFUSED,
    };
    Failure::with_code(code, error.to_string())
}

/// The reply as the person asked for it, ending with a newline.
fn shown(reply: &PersonReply, json: bool) -> String {
    match json {
        true => format!("{}\n", reply.json),
        false => format!("{}\n", reply.text),
    }
}

/// The person: `--by`, else the OS account.
fn person(by: Option<&str>) -> Result<String, String> {
    if let Some(by) = by {
        return Ok(by.to_owned());
    }
    ["USER", "USERNAME", "LOGNAME"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
        .ok_or_else(|| {
            "who are you? The OS account is not known ($USER, $USERNAME); give --by NAME".into()
        })
}

/// Board `name` as its server stores it, for a write: the repository's one
/// board by default, as `summary` reads it. A board that is not stored has
/// nothing to review, note, edit or set, unless the write `creates` it (as
/// an MCP call does).
fn open(toolsets: &Enabled, name: &BoardName, creates: bool) -> Result<SharedBoard, Failure> {
    // `stored_board` says why a board cannot be read (memory, git) in the
    // words `summary` uses; it reads, and the write below opens it again.
    let stored = super::stored_board(toolsets, name, "board")?;
    let missing = || {
        Failure::with_code(
            exit::NO_BOARD,
            format!(
                "board {name}: none is stored at {}; nothing to review, note or change",
                crate::runtime::text::escaped(&stored.location)
            ),
        )
    };
    if !stored.exists && !creates {
        return Err(missing());
    }
    let Some(planning) = toolsets.state::<Planning>() else {
        return Err("board works on toolset planning's boards: enable it".to_owned())?;
    };
    let mut settings = planning.boards().settings().clone();
    settings.storage.share_by_default = true;
    let boards = Boards::new(settings);
    if creates {
        return Ok(boards.get(name).map_err(|error| error.to_string())?);
    }
    match boards.get_stored(name) {
        Ok(Some(board)) => Ok(board),
        Ok(None) => Err(missing()),
        Err(error) => Err(error.to_string())?,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::subcommand;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        subcommand::define(&BOARD)
            .no_binary_name(true)
            .try_get_matches_from(args)
    }

    #[test]
    fn it_reads_a_verdict_with_the_configuration_flags_anywhere() {
        let matches = parse(&[
            "review",
            "reject",
            "a46f8d35",
            "--reason",
            "no tests",
            "--by",
            "ada",
            "--storage",
            "file",
            "--json",
        ])
        .unwrap();
        let args = BoardArgs::from_arg_matches(&matches).unwrap();
        let Action::Review {
            verdict: Verdict::Reject { common, reason },
        } = args.action
        else {
            panic!("a rejection: {args:?}");
        };
        assert_eq!(
            (
                common.task_id.as_str(),
                reason.as_str(),
                common.by.as_deref()
            ),
            ("a46f8d35", "no tests", Some("ada"))
        );
        assert!(common.json);
        assert!(
            parse(&["review", "reject", "a46f8d35"]).is_err(),
            "a reason is required"
        );
        assert!(parse(&["review"]).is_err());
        assert!(parse(&["review", "approve", "a46f8d35", "--port", "1"]).is_err());
    }

    #[test]
    fn the_reviewer_is_the_flag_first() {
        assert_eq!(person(Some("ada")).unwrap(), "ada");
        let matches = parse(&["note", "a46f8d35", "use the v2 lexer"]).unwrap();
        let args = BoardArgs::from_arg_matches(&matches).unwrap();
        assert!(matches!(&args.action, Action::Note { words, .. } if words.len() == 2));
        assert!(parse(&["note"]).is_err(), "a note has words");
        assert!(parse(&["note", "a", "b", "c"]).is_err());
    }

    #[test]
    fn the_task_actions_take_their_arguments() {
        let matches = parse(&["edit", "a46f8d35", "--title", "Parser v2", "--json"]).unwrap();
        let args = BoardArgs::from_arg_matches(&matches).unwrap();
        let Action::Edit {
            task_id,
            title,
            description,
            json,
        } = args.action
        else {
            panic!("an edit: {args:?}");
        };
        assert_eq!(
            (task_id.as_str(), title.as_deref(), description, json),
            ("a46f8d35", Some("Parser v2"), None, true)
        );
        let matches = parse(&["list", "--status", "pending", "--url", "http://h:1"]).unwrap();
        let args = BoardArgs::from_arg_matches(&matches).unwrap();
        assert!(matches!(
            &args.action,
            Action::List { status: Some(s), json: false } if s == "pending"
        ));
        assert_eq!(args.url.as_deref(), Some("http://h:1"));
        let matches = parse(&["add", "Parser"]).unwrap();
        let args = BoardArgs::from_arg_matches(&matches).unwrap();
        assert!(matches!(&args.action, Action::Add { description, .. } if description.is_empty()));
        assert!(
            parse(&["status", "a46f8d35"]).is_err(),
            "a status is required"
        );
        assert!(parse(&["add"]).is_err(), "a title is required");
        // Every action takes --url, wherever it stands.
        for args in [
            &["add", "x", "--url", "http://h:1"][..],
            &["--url", "http://h:1", "status", "a46f8d35", "completed"],
            &["review", "approve", "a46f8d35", "--url", "http://h:1"],
            &["note", "a46f8d35", "hi", "--url", "http://h:1"],
        ] {
            let matches = parse(args).unwrap();
            let parsed = BoardArgs::from_arg_matches(&matches).unwrap();
            assert_eq!(parsed.url.as_deref(), Some("http://h:1"), "{args:?}");
        }
    }
}
