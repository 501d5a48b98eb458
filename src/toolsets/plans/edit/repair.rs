// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Explicit repairs: add the format header, give task lines without an id a
//! generated one (outside ``` fences). The result always ends with an EOL
//! and must validate.

use std::borrow::Cow;

use serde::Serialize;

use crate::runtime::entropy::Entropy;
use crate::toolsets::plans::document::validate;
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::text::{Lines, trim_start};

/// A repair action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Prepend the header and a blank line when it is missing.
    AddFormatHeader,
    /// Append an id trailer to task lines that lack one.
    AddMissingIds,
}

impl Action {
    /// Parses `addFormatHeader` or `addMissingIds`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        match name {
            "addFormatHeader" => Some(Self::AddFormatHeader),
            "addMissingIds" => Some(Self::AddMissingIds),
            _ => None,
        }
    }
}

/// What a repair did: `{addFormatHeader, addMissingIds}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Applied {
    /// Whether the header was added.
    pub(crate) add_format_header: bool,
    /// How many ids were added.
    pub(crate) add_missing_ids: usize,
}

/// A repaired document and what was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    /// The new text (always ending with an EOL).
    pub(crate) text: String,
    /// The summary.
    pub(crate) applied: Applied,
}

/// Applies the actions in the order given, then validates:
/// `Repair failed: <CODE> <message>` for the first remaining error.
/// New ids are made from `entropy`.
pub(crate) fn repair(
    text: &str,
    actions: &[Action],
    entropy: &dyn Entropy,
) -> Result<Repaired, PlanError> {
    repair_with(text, actions, || id::generate(entropy))
}

/// [`repair`] with a given id generator (tests pin ids through this).
pub fn repair_with(
    text: &str,
    actions: &[Action],
    mut new_id: impl FnMut() -> String,
) -> Result<Repaired, PlanError> {
    let mut lines = Lines::split(text);
    let mut applied = Applied::default();
    for action in actions {
        match action {
            Action::AddFormatHeader => {
                applied.add_format_header |= lines.ensure_format_header();
            }
            Action::AddMissingIds => {
                applied.add_missing_ids += add_missing_ids(&mut lines, &mut new_id);
            }
        }
    }
    let text = lines.join_with_final_eol(true);
    if let Some(error) = validate::first_error(&text) {
        return Err(PlanError(format!(
            "Repair failed: {} {}",
            error.code, error.message
        )));
    }
    Ok(Repaired { text, applied })
}

fn add_missing_ids(lines: &mut Lines<'_>, new_id: &mut impl FnMut() -> String) -> usize {
    let mut added = 0;
    let mut in_fence = false;
    for line in &mut lines.lines {
        if trim_start(line).starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || !line::is_repair_candidate(line) || line::id_trailer(line).is_some() {
            continue;
        }
        // Appended to the line as it is, trailing spaces included.
        *line = Cow::Owned(format!("{line} <!-- long-term-plan:id={} -->", new_id()));
        added += 1;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("t_{n}")
        }
    }

    #[test]
    fn header_and_ids() {
        let text = "# P\n- [ ] a\n- [*] b  \n- [ ] c <!-- long-term-plan:id=c -->\n```\n- [ ] fenced\n```\n  > - [ ] quoted";
        let all = [Action::AddFormatHeader, Action::AddMissingIds];
        let err = repair_with(text, &all, ids()).unwrap_err();
        assert_eq!(
            err.message(),
            "Repair failed: MISSING_TASK_ID Task line is missing required trailing id: <!-- long-term-plan:id=... -->"
        );
        let text =
            "# P\n- [ ] a\n- [*] b  \n- [ ] c <!-- long-term-plan:id=c -->\n  > - [ ] quoted";
        let repaired = repair_with(text, &all, ids()).unwrap();
        assert_eq!(
            repaired.text,
            format!(
                "{H}\n\n# P\n- [ ] a <!-- long-term-plan:id=t_1 -->\n- [*] b   <!-- long-term-plan:id=t_2 -->\n- [ ] c <!-- long-term-plan:id=c -->\n  > - [ ] quoted\n"
            )
        );
        assert_eq!(
            repaired.applied,
            Applied {
                add_format_header: true,
                add_missing_ids: 2
            }
        );
        assert_eq!(
            serde_json::to_string(&repaired.applied).unwrap(),
            r#"{"addFormatHeader":true,"addMissingIds":2}"#
        );
    }

    #[test]
    fn always_ends_with_an_eol_and_keeps_crlf() {
        let text = format!("{H}\r\n- [ ] a <!-- long-term-plan:id=a -->");
        let repaired = repair_with(&text, &[], ids()).unwrap();
        assert_eq!(repaired.text, format!("{text}\r\n"));
        assert_eq!(repaired.applied, Applied::default());
    }

    #[test]
    fn leftover_errors_fail() {
        for (text, code) in [
            ("- [x] a\n", "INVALID_STATUS_SYMBOL"),
            ("- [*] \n", "MALFORMED_TASK_LINE"),
            (
                "- [ ] a <!-- long-term-plan:id=d -->\n- [ ] b <!-- long-term-plan:id=d -->\n",
                "DUPLICATE_TASK_ID",
            ),
        ] {
            let err =
                repair_with(&format!("{H}\n{text}"), &[Action::AddMissingIds], ids()).unwrap_err();
            assert!(
                err.message()
                    .starts_with(&format!("Repair failed: {code} ")),
                "{err}"
            );
        }
        assert_eq!(
            Action::parse("addFormatHeader"),
            Some(Action::AddFormatHeader)
        );
        assert_eq!(Action::parse("normalizeIndent"), None);
    }

    #[test]
    fn fences_toggle() {
        let text = format!("{H}\n  ```ts\n- [ ] in\n```\n- [ ] out\n");
        let repaired = repair_with(&text, &[Action::AddMissingIds], ids());
        assert!(repaired.is_err(), "the fenced line still fails validation");
        let text = format!("{H}\n~~~\n- [ ] in\n~~~\n");
        let repaired = repair_with(&text, &[Action::AddMissingIds], ids()).unwrap();
        assert_eq!(repaired.applied.add_missing_ids, 1, "~~~ is not a fence");
    }
}
