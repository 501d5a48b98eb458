// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The reply of every call that is not an error, in one layout:
//!
//! ```text
//! state: {STATE}
//! transition: {ID} {FROM} → {TO}
//! message_to_user: {one line}
//! options: {Spell}, {Spell}, ...
//! instructions_to_coding_agent:
//! {one or more lines, ending with the standing rule}
//! ```
//!
//! and files quoted into the instructions.

use super::spell::Spell;

/// The last line of every reply's instructions.
pub(crate) const STANDING_RULE: &str = "Call a spell tool only when the user types its name (Accio, \
Expecto, Reparo, Reverto, Finite, Lumos, optionally with \": note\"); words like \"continue\" \
never advance the workflow.";

/// A reply, before it is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    /// The state after the call, as shown.
    pub(crate) state: &'static str,
    /// `{ID} {FROM} → {TO}`, `blocked ({ID})` or `none`.
    pub(crate) transition: String,
    /// One line for the user.
    pub(crate) message: String,
    /// The spells valid now.
    pub(crate) options: Vec<Spell>,
    /// The lines for the agent, before the standing rule.
    pub(crate) instructions: Vec<String>,
}

impl Reply {
    /// The reply's text.
    pub(crate) fn render(&self) -> String {
        let options: Vec<&str> = self.options.iter().map(|s| s.name()).collect();
        let message = self.message.replace(['\r', '\n'], " ");
        let mut out = format!(
            "state: {}\ntransition: {}\nmessage_to_user: {message}\noptions: {}\ninstructions_to_coding_agent:\n",
            self.state,
            self.transition,
            options.join(", "),
        );
        for line in &self.instructions {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(STANDING_RULE);
        out
    }
}

/// `text`, the content of the file shown as `path`, in a fenced block
/// (longer than any backtick run inside), cut at `max_bytes` on a UTF-8
/// boundary with a note saying how much is left out.
pub(crate) fn quote(path: &str, text: &str, max_bytes: usize) -> String {
    let mut cut = text.len().min(max_bytes);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let shown = &text[..cut];
    let longest = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let mut out = format!("Contents of {path}:\n{fence}\n{shown}");
    if !shown.is_empty() && !shown.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&fence);
    if cut < text.len() {
        let more = text.len() - cut;
        out.push_str(&format!(
            "\n[... truncated: {more} more bytes; read {path}]"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_ends_with_the_standing_rule() {
        let reply = Reply {
            state: "GATHER_READY",
            transition: "G1 GATHER_NEEDS_PLAN → GATHER_EDITING".into(),
            message: "two\nlines".into(),
            options: vec![Spell::Accio, Spell::Lumos],
            instructions: vec!["Do this.".into()],
        };
        assert_eq!(
            reply.render(),
            format!(
                "state: GATHER_READY\ntransition: G1 GATHER_NEEDS_PLAN → GATHER_EDITING\n\
                 message_to_user: two lines\noptions: Accio, Lumos\n\
                 instructions_to_coding_agent:\nDo this.\n{STANDING_RULE}"
            )
        );
    }

    #[test]
    fn quotes_fence_longer_than_any_backtick_run_and_cut_on_a_char_boundary() {
        assert_eq!(quote("`f`", "a\n", 100), "Contents of `f`:\n```\na\n```");
        assert_eq!(quote("f", "", 100), "Contents of f:\n```\n```");
        assert_eq!(
            quote("f", "x ```` y", 100),
            "Contents of f:\n`````\nx ```` y\n`````"
        );
        assert_eq!(
            quote("f", "aé", 2),
            "Contents of f:\n```\na\n```\n[... truncated: 2 more bytes; read f]"
        );
    }
}
