// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Plans joined one after another in one description, as `jj squash` of a
//! planned change into another planned change leaves them (jj puts the
//! source's description after the destination's). Such a text is not a
//! plan (nothing may follow the direction); this module tells it apart,
//! names the plans, and merges them into one for the migration.

use super::format::format;
use super::grammar;
use super::tasks::counts;
use super::{Document, Limits, Reading, read};

/// The plans `text` joins, in order, when it is two or more valid plans one
/// after another (each after the first starting, after an empty line, right
/// below the previous one's direction line); `None` otherwise.
pub(crate) fn split(text: &str, limits: &Limits) -> Option<Vec<Document>> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut starts = vec![0];
    let mut last_direction: Option<usize> = None;
    for (index, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches(['\r', ' ', '\t']);
        if grammar::is_direction_line(line) {
            last_direction = Some(index);
        } else if line.is_empty() {
            continue;
        } else if let Some(direction) = last_direction.take() {
            let only_blank_between = lines[direction + 1..index]
                .iter()
                .all(|l| l.trim().is_empty());
            if only_blank_between && index > direction + 1 && grammar::loose_header(line).is_some()
            {
                starts.push(index);
            }
        }
    }
    if starts.len() < 2 {
        return None;
    }
    starts.push(lines.len());
    starts
        .windows(2)
        .map(
            |pair| match read(&lines[pair[0]..pair[1]].join("\n"), limits) {
                Reading::Parsed(document) => Some(document),
                _ => None,
            },
        )
        .collect()
}

/// One plan from several: the first one's header; a description of the
/// first's, then each other plan's header line and description; every
/// constraint once, in order; every task in order; COMPLETE only when every
/// plan was.
pub(crate) fn merge(plans: &[Document]) -> Option<Document> {
    let (first, rest) = plans.split_first()?;
    let mut merged = first.clone();
    let mut paragraphs: Vec<String> = first.description.iter().cloned().collect();
    for plan in rest {
        paragraphs.push(plan.header.to_string());
        paragraphs.extend(plan.description.iter().cloned());
        for constraint in &plan.constraints {
            if !merged.constraints.contains(constraint) {
                merged.constraints.push(constraint.clone());
            }
        }
        merged.tasks.extend(plan.tasks.iter().cloned());
    }
    merged.description = (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"));
    merged.complete = !merged.tasks.is_empty() && plans.iter().all(Document::is_finished);
    Some(merged)
}

/// The merged plan's canonical text, when it is within the limits.
pub(crate) fn merged_text(plans: &[Document], limits: &Limits) -> Result<String, String> {
    let merged = merge(plans).ok_or_else(|| "no plan to merge".to_owned())?;
    let text = format(&merged);
    match read(&text, limits) {
        Reading::Parsed(_) if text.len() <= limits.max_input_bytes => Ok(text),
        Reading::Parsed(_) => Err(format!(
            "the merged plan would be {} bytes; the limit is {} ([commit] max_input_bytes)",
            text.len(),
            limits.max_input_bytes
        )),
        other => Err(match other.problem() {
            Some(problem) => format!("the merged plan would not be valid: {problem}"),
            None => "the merged plan would not be valid".to_owned(),
        }),
    }
}

/// `feat: one (finished)` or `fix: two (0/1 done)`, for a reply.
pub(crate) fn summary(plan: &Document) -> String {
    let (done, total) = counts(&plan.tasks);
    match (plan.is_finished(), total) {
        (true, _) => format!("{} (finished)", plan.header),
        (false, 0) => format!("{} (no tasks)", plan.header),
        (false, _) => format!("{} ({done}/{total} done)", plan.header),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = "feat: one\n\nWhy one.\n\n- Never: x\n\n- [x]: a\n\n~~~ COMPLETE ~~~\n";
    const SECOND: &str = "fix: two\n\n- Never: x\n- Avoid: y\n\n- [ ]: b\n\n~~~ EXECUTE ~~~\n";

    #[test]
    fn two_plans_one_after_another_are_split_and_merged() {
        let joined = format!("{FIRST}\n{SECOND}");
        let plans = split(&joined, &Limits::default()).expect("two plans");
        assert_eq!(plans.len(), 2);
        assert_eq!(summary(&plans[0]), "feat: one (finished)");
        assert_eq!(summary(&plans[1]), "fix: two (0/1 done)");
        assert_eq!(
            merged_text(&plans, &Limits::default()).unwrap(),
            "feat: one\n\nWhy one.\n\nfix: two\n\n- Never: x\n- Avoid: y\n\n- [x]: a\n- [ ]: b\n\n~~~ EXECUTE ~~~\n"
        );
    }

    #[test]
    fn a_single_plan_or_text_after_a_direction_is_not_a_join() {
        assert_eq!(split(FIRST, &Limits::default()), None);
        let trailing = format!("{FIRST}\nsome notes\n");
        assert_eq!(split(&trailing, &Limits::default()), None);
        let broken_second = format!("{FIRST}\nfix: two\n- [ ]: b\n");
        assert_eq!(split(&broken_second, &Limits::default()), None);
    }

    #[test]
    fn a_merge_over_the_limits_says_so() {
        let joined = format!("{FIRST}\n{SECOND}");
        let plans = split(&joined, &Limits::default()).unwrap();
        let small = Limits {
            max_tasks: 1,
            ..Limits::default()
        };
        assert!(
            merged_text(&plans, &small)
                .unwrap_err()
                .starts_with("the merged plan would not be valid: ")
        );
    }
}
