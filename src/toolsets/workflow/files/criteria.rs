// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Acceptance criteria: the checkboxes of `plan.md`'s `Acceptance Criteria`
//! sections, the items of `task-results.md`'s `Satisfied Acceptance
//! Criteria` sections, and ticking (the space between the brackets becomes
//! `x`; no other byte of `plan.md` changes).

use super::markdown::{section_lines, trim_blank_start};

/// The heading of the criteria sections in `plan.md`.
pub(crate) const CRITERIA_HEADING: &str = "Acceptance Criteria";

/// The heading of the satisfied criteria in `task-results.md`.
pub(crate) const SATISFIED_HEADING: &str = "Satisfied Acceptance Criteria";

/// One acceptance criterion of `plan.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Criterion {
    /// Whether its box is ticked (`[x]` or `[X]`).
    pub(crate) checked: bool,
    /// Its text, as written after the box.
    pub(crate) text: String,
    /// The offset in `plan.md` of the byte between its brackets.
    pub(crate) mark: usize,
}

/// `bytes` after a list marker (`-`, `*` or `+`, then blanks), if it starts
/// with one after optional blanks.
fn after_bullet(bytes: &[u8]) -> Option<&[u8]> {
    let text = trim_blank_start(bytes);
    let rest = text.strip_prefix(b"-").or_else(|| text.strip_prefix(b"*"));
    let rest = rest.or_else(|| text.strip_prefix(b"+"))?;
    let item = trim_blank_start(rest);
    (item.len() < rest.len()).then_some(item)
}

/// The box of `item` (`[ ]`, `[x]`, `[X]`, then blanks): whether it is
/// ticked and the text after it, if `item` starts with one.
fn checkbox(item: &[u8]) -> Option<(bool, &[u8])> {
    let (checked, rest) = match item {
        [b'[', b' ', b']', rest @ ..] => (false, rest),
        [b'[', b'x' | b'X', b']', rest @ ..] => (true, rest),
        _ => return None,
    };
    let text = trim_blank_start(rest);
    (text.len() < rest.len()).then_some((checked, text))
}

/// The criteria of `plan`: in every `Acceptance Criteria` section, each line
/// `^[ \t]*[-*+][ \t]+\[([ xX])\][ \t]+(\S.*)$`, nested ones included.
pub(crate) fn criteria(plan: &[u8]) -> Vec<Criterion> {
    section_lines(plan, CRITERIA_HEADING)
        .into_iter()
        .filter_map(|line| {
            let item = after_bullet(line.bytes)?;
            let (checked, text) = checkbox(item)?;
            let text = String::from_utf8_lossy(text);
            if !text.starts_with(|c: char| !c.is_whitespace()) {
                return None;
            }
            let mark = line.start + (item.as_ptr() as usize - line.bytes.as_ptr() as usize) + 1;
            Some(Criterion {
                checked,
                text: text.into_owned(),
                mark,
            })
        })
        .collect()
}

/// The unchecked criteria of `plan`, their text only.
pub(crate) fn unchecked(plan: &[u8]) -> Vec<String> {
    criteria(plan)
        .into_iter()
        .filter(|c| !c.checked)
        .map(|c| c.text)
        .collect()
}

/// The items of `results`' `Satisfied Acceptance Criteria` sections:
/// `- text` or `- [x] text`; `- [ ] text` is skipped.
pub(crate) fn satisfied(results: &[u8]) -> Vec<String> {
    section_lines(results, SATISFIED_HEADING)
        .into_iter()
        .filter_map(|line| {
            let item = after_bullet(line.bytes)?;
            let text = match checkbox(item) {
                Some((false, _)) => return None,
                Some((true, text)) => text,
                None => item,
            };
            let text = String::from_utf8_lossy(text).trim().to_owned();
            (!text.is_empty()).then_some(text)
        })
        .collect()
}

/// What two criteria are compared by: trimmed, whitespace runs collapsed,
/// case ignored.
pub(crate) fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The outcome of ticking `plan.md` with a task's results.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Ticking {
    /// The new `plan.md`, if a box was ticked.
    pub(crate) plan: Option<Vec<u8>>,
    /// The criteria ticked, in plan order.
    pub(crate) ticked: Vec<String>,
    /// The results' items that equal no criterion of the plan, in order.
    pub(crate) unmatched: Vec<String>,
    /// The criteria still unchecked afterwards, in plan order.
    pub(crate) remaining: Vec<String>,
}

/// Ticks every unchecked criterion of `plan` that an item of `results`'
/// satisfied criteria names (equal after [`normalized`]). An item equal to
/// a criterion that is already ticked matches it and is not reported.
pub(crate) fn tick(plan: &[u8], results: &[u8]) -> Ticking {
    let all = criteria(plan);
    let keys: Vec<String> = all.iter().map(|c| normalized(&c.text)).collect();
    let mut wanted = std::collections::HashSet::new();
    let mut outcome = Ticking::default();
    for item in satisfied(results) {
        let key = normalized(&item);
        if !keys.contains(&key) {
            if !outcome.unmatched.contains(&item) {
                outcome.unmatched.push(item);
            }
            continue;
        }
        wanted.insert(key);
    }
    let mut edited = plan.to_vec();
    for (criterion, key) in all.iter().zip(&keys) {
        if criterion.checked {
            continue;
        }
        if wanted.contains(key) {
            edited[criterion.mark] = b'x';
            outcome.ticked.push(criterion.text.clone());
        } else {
            outcome.remaining.push(criterion.text.clone());
        }
    }
    if !outcome.ticked.is_empty() {
        outcome.plan = Some(edited);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "# Plan\n\
        - [ ] outside the section\n\
        ## Acceptance Criteria\n\
        - [ ] Sum two numbers\n\
        * [x] Already done\n\
        \t+ [X] nested and done\n\
        \x20 - [ ]   Handle   overflow  \n\
        - [ ]\n\
        - [ ]  \n\
        -[ ] no blank after the bullet\n\
        - [ ]no blank after the box\n\
        - [y] not a box\n\
        ```\n\
        - [ ] in code\n\
        ```\n\
        <!-- - [ ] in a comment -->\n\
        ## Context\n\
        - [ ] after the section\n";

    #[test]
    fn criteria_are_the_boxes_of_the_section() {
        let found: Vec<(bool, String)> = criteria(PLAN.as_bytes())
            .into_iter()
            .map(|c| (c.checked, c.text))
            .collect();
        let expected = [
            (false, "Sum two numbers"),
            (true, "Already done"),
            (true, "nested and done"),
            (false, "Handle   overflow  "),
        ];
        assert_eq!(
            found,
            expected.map(|(checked, text)| (checked, text.to_owned()))
        );
        for c in criteria(PLAN.as_bytes()) {
            assert!(matches!(PLAN.as_bytes()[c.mark], b' ' | b'x' | b'X'));
            assert_eq!(PLAN.as_bytes()[c.mark - 1], b'[');
        }
    }

    #[test]
    fn satisfied_items_skip_unchecked_boxes() {
        let results = "## Achieved\n- not this\n## Satisfied Acceptance Criteria\n\
                       - Sum two numbers\n- [x] handle overflow\n- [ ] Already done\n-\n\
                       * starred\n## Learned\n- no\n";
        assert_eq!(
            satisfied(results.as_bytes()),
            ["Sum two numbers", "handle overflow", "starred"]
        );
    }

    #[test]
    fn ticking_changes_only_the_boxes_it_ticks() {
        let results = "## Satisfied Acceptance Criteria\n\
                       - sum TWO   numbers\n- [x] Handle overflow\n- Already done\n- Something else\n- Something else\n";
        let ticking = tick(PLAN.as_bytes(), results.as_bytes());
        assert_eq!(ticking.ticked, ["Sum two numbers", "Handle   overflow  "]);
        assert_eq!(ticking.unmatched, ["Something else"]);
        assert!(ticking.remaining.is_empty());
        let plan = ticking.plan.unwrap();
        let changed: Vec<usize> = (0..plan.len())
            .filter(|&i| plan[i] != PLAN.as_bytes()[i])
            .collect();
        assert_eq!(changed.len(), 2);
        assert!(changed.iter().all(|&i| plan[i] == b'x'));
    }

    #[test]
    fn ticking_keeps_crlf_and_invalid_utf8_and_reports_nothing_to_do() {
        let plan = b"## Acceptance Criteria\r\n- [ ] caf\xe9\r\n- [ ] two\r\n";
        let ticking = tick(plan, b"## Satisfied Acceptance Criteria\r\n- two\r\n");
        assert_eq!(
            ticking.plan.as_deref(),
            Some(&b"## Acceptance Criteria\r\n- [ ] caf\xe9\r\n- [x] two\r\n"[..])
        );
        assert_eq!(ticking.remaining, ["caf\u{fffd}"]);
        let none = tick(plan, b"# nothing satisfied\n");
        assert_eq!(none.plan, None);
        assert_eq!(none.remaining.len(), 2);
    }

    #[test]
    fn normalized_trims_collapses_and_lowers() {
        assert_eq!(normalized("  A\t b \n C "), "a b c");
        assert_eq!(normalized("ÄRGER"), "ärger");
    }
}
