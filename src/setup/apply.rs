// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The edits of one agent's files: the server's entry in its servers file,
//! and for Claude Code the hooks in its settings, each computed from the
//! file's text without writing anything. Only entries `setup` could have
//! written are replaced or removed: a server of the same name that runs
//! something else is refused, and so are hooks that are not ours.

use super::agent::{Agent, ConfigFile, Format, Launch, PROGRAM};
use super::json::{Document, Json};
use super::toml_file::TomlDocument;

/// The hook events `setup` writes for Claude Code, with their matchers:
/// `SessionStart` re-injects the digest (its output enters the context)
/// on every way a context starts empty, `PreCompact` records the board
/// in the transcript just before a compaction.
pub(crate) const HOOK_EVENTS: [(&str, &str); 2] = [
    ("SessionStart", "startup|resume|clear|compact"),
    ("PreCompact", ""),
];

/// The seconds Claude Code gives a hook (the digest takes milliseconds;
/// `summary --url` gives up after 5 s).
const HOOK_TIMEOUT: i64 = 10;

/// A file's text before and after; `after` is `None` when the file goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// Its text now (`None`: there is no file).
    pub(crate) before: Option<String>,
    /// Its text after the edit (`None`: delete it).
    pub(crate) after: Option<String>,
    /// What changes, for the user: `added server 'planning', which ...`.
    pub(crate) what: String,
}

/// The edit of `file`'s (its text `before`) servers: server `name` set to
/// `launch`, or removed (`None`).
pub(crate) fn servers(
    agent: Agent,
    file: &ConfigFile,
    before: Option<&str>,
    name: &str,
    launch: Option<&Launch>,
) -> Result<Edit, String> {
    let key = agent.servers_key();
    let shown = &file.shown;
    let mut doc = Doc::read(file, before)?;
    let existing = doc.server(key, name);
    let ours = existing.as_ref().map(Launch::of_entry);
    if let Some(None) = ours {
        let how = existing
            .as_ref()
            .and_then(|e| e.get("command").or_else(|| e.get("url")))
            .map_or_else(|| "something else".to_owned(), |v| v.to_string());
        return Err(format!(
            "{shown} has a server named '{name}' that setup did not write ({how}): pass --name \
             with another name, or remove it there; nothing was changed"
        ));
    }
    let (changed, what) = match launch {
        Some(launch) => {
            let entry = agent.entry(launch);
            let changed = doc
                .set_server(key, name, &entry)
                .map_err(|m| misfit(shown, &m.0))?;
            let what = match (changed, existing.is_some()) {
                (false, _) => format!(
                    "server '{name}' is set up already: it {}",
                    launch.describe()
                ),
                (true, true) => format!("updated server '{name}', which now {}", launch.describe()),
                (true, false) => format!("added server '{name}', which {}", launch.describe()),
            };
            (changed, what)
        }
        None if doc.remove_server(key, name) => (true, format!("removed server '{name}'")),
        None => (false, format!("no server '{name}' to remove")),
    };
    Ok(doc.finish(before, changed, what))
}

/// The edit of Claude Code's settings (`file`, its text `before`): the
/// hooks run `hook`, or are removed (`None`).
pub(crate) fn hooks(
    file: &ConfigFile,
    before: Option<&str>,
    hook: Option<&str>,
) -> Result<Edit, String> {
    let shown = &file.shown;
    let mut doc = match Doc::read(file, before)? {
        Doc::Json(doc) => doc,
        Doc::Toml(_) => return Err(format!("{shown} is not JSON")),
    };
    let mut changed = Vec::new();
    for (event, matcher) in HOOK_EVENTS {
        let path = ["hooks", event];
        let index = doc
            .get(&path)
            .and_then(|node| node.items())
            .and_then(|items| {
                items
                    .iter()
                    .position(|item| doc.data(&item.value).is_some_and(|data| is_our_hook(&data)))
            });
        let did = match (hook, index) {
            (Some(command), Some(index)) => {
                doc.replace_element(&path, index, &hook_group(matcher, command))
            }
            (Some(command), None) => {
                doc.push_element(&path, &hook_group(matcher, command))
                    .map_err(|m| misfit(shown, &m.0))?;
                true
            }
            (None, Some(index)) => doc.remove_element(&path, index),
            (None, None) => false,
        };
        if did {
            changed.push(event);
        }
    }
    let events = HOOK_EVENTS.map(|(event, _)| event).join(" and ");
    let what = match (hook, changed.is_empty()) {
        (Some(command), true) => format!("hooks {events} are set up already: they run `{command}`"),
        (Some(command), false) => {
            format!("set hooks {}, which run `{command}`", changed.join(" and "))
        }
        (None, true) => "no hooks of setup to remove".to_owned(),
        (None, false) => format!("removed hooks {}", changed.join(" and ")),
    };
    Ok(Doc::Json(doc).finish(before, !changed.is_empty(), what))
}

/// The edit of Claude Code's settings (`file`, its text `before`): the
/// `statusLine` runs `command`, or is removed (`None`). A status line that
/// `setup` did not write is refused, never replaced.
pub(crate) fn statusline(
    file: &ConfigFile,
    before: Option<&str>,
    command: Option<&str>,
) -> Result<Edit, String> {
    let shown = &file.shown;
    let mut doc = match Doc::read(file, before)? {
        Doc::Json(doc) => doc,
        Doc::Toml(_) => return Err(format!("{shown} is not JSON")),
    };
    let existing = doc.get(&["statusLine"]).map(|node| doc.data(node));
    let ours = existing
        .as_ref()
        .map(|data| data.as_ref().is_some_and(is_our_statusline));
    let (changed, what) = match (command, ours) {
        (Some(_), Some(false)) => {
            let how = existing
                .flatten()
                .and_then(|data| data.get("command").cloned())
                .map_or_else(|| "something else".to_owned(), |v| v.to_string());
            return Err(format!(
                "{shown} has a statusLine that setup did not write ({how}): remove it there, or                  leave out --statusline; nothing was changed"
            ));
        }
        (Some(command), _) => {
            let entry = Json::object([
                ("type", Json::string("command")),
                ("command", Json::string(command)),
                ("padding", Json::Number(0)),
            ]);
            let changed = doc
                .set_member(&[], "statusLine", &entry)
                .map_err(|m| misfit(shown, &m.0))?;
            let what = match changed {
                true => format!("set statusLine, which runs `{command}`"),
                false => format!("statusLine is set up already: it runs `{command}`"),
            };
            (changed, what)
        }
        (None, Some(true)) => {
            let removed = doc.remove_member(&[], "statusLine");
            (removed, "removed statusLine".to_owned())
        }
        (None, _) => (false, "no statusLine of setup to remove".to_owned()),
    };
    Ok(Doc::Json(doc).finish(before, changed, what))
}

/// Whether a `statusLine` is one `setup` wrote: a command that runs
/// `planning-mcp-server statusline`.
pub(crate) fn is_our_statusline(line: &serde_json::Value) -> bool {
    line.get("command")
        .and_then(|c| c.as_str())
        .is_some_and(|command| runs(command, "statusline"))
}

/// A matcher group of Claude Code's hooks running `command`.
fn hook_group(matcher: &str, command: &str) -> Json {
    Json::object([
        ("matcher", Json::string(matcher)),
        (
            "hooks",
            Json::Array(vec![Json::object([
                ("type", Json::string("command")),
                ("command", Json::string(command)),
                ("timeout", Json::Number(HOOK_TIMEOUT)),
            ])]),
        ),
    ])
}

/// Whether a matcher group is one `setup` wrote: one command hook that
/// runs `planning-mcp-server summary`.
pub(crate) fn is_our_hook(group: &serde_json::Value) -> bool {
    let hooks = group.get("hooks").and_then(|h| h.as_array());
    let Some([hook]) = hooks.map(Vec::as_slice) else {
        return false;
    };
    hook.get("command")
        .and_then(|c| c.as_str())
        .is_some_and(runs_summary)
}

/// Whether `command` runs `planning-mcp-server summary` (by name or path,
/// the path possibly in single quotes).
pub(crate) fn runs_summary(command: &str) -> bool {
    runs(command, "summary")
}

/// Whether `command` runs `planning-mcp-server SUBCOMMAND`.
fn runs(command: &str, subcommand: &str) -> bool {
    let command = command.trim_start();
    let (program, rest) = match command.strip_prefix('\'') {
        Some(quoted) => match quoted.split_once('\'') {
            Some((program, rest)) => (program, rest),
            None => return false,
        },
        None => command.split_once(' ').unwrap_or((command, "")),
    };
    let ours = std::path::Path::new(program)
        .file_name()
        .is_some_and(|n| n == PROGRAM);
    ours && rest.split_whitespace().next() == Some(subcommand)
}

fn misfit(shown: &str, what: &str) -> String {
    format!("{shown}: {what}, so setup cannot add to it; nothing was changed")
}

/// A file read as its format.
enum Doc {
    Json(Document),
    Toml(TomlDocument),
}

impl Doc {
    /// `before` (or an empty file) read as `file`'s format; a text that
    /// does not parse is refused.
    fn read(file: &ConfigFile, before: Option<&str>) -> Result<Self, String> {
        let refuse = |why: String| {
            format!(
                "{} cannot be read ({why}); fix it or move it away, setup changed nothing",
                file.shown
            )
        };
        match file.format {
            Format::Toml => TomlDocument::parse(before.unwrap_or(""))
                .map(Self::Toml)
                .map_err(refuse),
            Format::Json | Format::Jsonc => {
                let text = before.unwrap_or("{}\n");
                Document::parse(text, file.format == Format::Jsonc)
                    .map(Self::Json)
                    .map_err(|e| refuse(e.to_string()))
            }
        }
    }

    fn server(&self, key: &str, name: &str) -> Option<serde_json::Value> {
        match self {
            Self::Json(doc) => {
                let node = doc.get(&[key, name])?;
                // An entry with comments cannot be read as data: it is not
                // one setup wrote.
                Some(doc.data(node).unwrap_or(serde_json::Value::Null))
            }
            Self::Toml(doc) => doc.server(name),
        }
    }

    fn set_server(
        &mut self,
        key: &str,
        name: &str,
        entry: &Json,
    ) -> Result<bool, super::json::Misfit> {
        match self {
            Self::Json(doc) => doc.set_member(&[key], name, entry),
            Self::Toml(doc) => doc.set_server(name, entry),
        }
    }

    fn remove_server(&mut self, key: &str, name: &str) -> bool {
        match self {
            Self::Json(doc) => doc.remove_member(&[key], name),
            Self::Toml(doc) => doc.remove_server(name),
        }
    }

    /// The edit from `before` to this text: the file as it was when
    /// nothing `changed`, and no file when nothing is left of what `setup`
    /// made (an empty object, an empty TOML file).
    fn finish(self, before: Option<&str>, changed: bool, what: String) -> Edit {
        let after = match (&self, changed) {
            (_, false) => before.map(str::to_owned),
            (Self::Json(doc), true) if doc.is_empty_object() => None,
            (Self::Json(doc), true) => Some(doc.text().to_owned()),
            (Self::Toml(doc), true) => Some(doc.text()).filter(|t| !t.trim().is_empty()),
        };
        Edit {
            before: before.map(str::to_owned),
            after,
            what,
        }
    }
}
