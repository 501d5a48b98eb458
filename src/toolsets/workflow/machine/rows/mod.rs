// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What each row of the table does to the files and says, by phase, and
//! the sentences several rows share.

pub(crate) mod achieve;
pub(crate) mod gather;
pub(crate) mod lumos;
pub(crate) mod recovery;
pub(crate) mod review;

use super::state::State;
use super::step::Step;
use crate::toolsets::workflow::files::names::File;

/// The instruction of rows that only inform.
pub(crate) const RELAY: &str = "Tell the user message_to_user. Change no file.";

/// `n` and `noun`, plural when `n` is not 1 (`criterion` → `criteria`).
pub(crate) fn count(n: usize, noun: &str) -> String {
    match (n, noun.strip_suffix("criterion")) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}criteria"),
        (_, None) => format!("{n} {noun}s"),
    }
}

/// The headings an agent writes `task-results.md` with.
pub(crate) const RESULTS_HEADINGS: &str = "`## Achieved`, `## Learned`, `## Unsolved Errors`, \
`## Satisfied Acceptance Criteria` (one `- ` item per criterion the task satisfied, copied \
verbatim from plan.md)";

/// The headings an agent writes `review-task-results.md` with.
pub(crate) const REVIEW_RESULTS_HEADINGS: &str = "`## Achieved` (mapped to comments or threads where \
possible), `## Remaining` (unaddressed items, with reasons), `## Errors` (errors met and \
suggested follow-ups), `## Files Changed` (paths, with a brief diff summary)";

/// The two lines that help write the plan.
pub(crate) fn help_with_plan(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    step.tell(format!(
        "Help the user write {plan}: context, goals and non-goals, constraints and risks, \
         references. Help them write crisp, testable acceptance criteria, one per line as \
         `- [ ] …` under `## Acceptance Criteria`."
    ));
    step.tell(
        "Edit only plan.md; make no other change. The user types Accio when the plan is ready.",
    );
}

/// Asks the agent to draft the next task toward the unchecked criteria.
pub(crate) fn draft_task(step: &mut Step<'_>, unchecked: &[String]) {
    step.list("Unchecked acceptance criteria", unchecked);
    let task = step.file(File::Task);
    step.tell(format!(
        "Propose the next smallest, single-focus task toward them and write it into {task}: \
         intent, steps, validation, and a short kebab-case `task_name` in the front matter \
         (e.g. `task_name: implement-sum-function`). Iterate with the user. Edit only task.md; \
         do not execute it yet."
    ));
}

/// Says where the user stands in `state` and what to do next (after a
/// review ends or is left).
pub(crate) fn guidance(step: &Step<'_>, state: State) -> String {
    let plan = step.file(File::Plan);
    let task = step.file(File::Task);
    match state {
        State::GatherNeedsPlan => format!("type Accio to create {plan}"),
        State::GatherEditing if step.has(File::Task) => format!(
            "refine {plan} or type Accio to move to Achieve Acceptance Criteria; the unfinished \
             task in {task} resumes when Achieve starts"
        ),
        State::GatherEditing => {
            format!("refine {plan} or type Accio to move to Achieve Acceptance Criteria")
        }
        State::AchieveTaskDrafting if step.has(File::Task) => {
            format!("resume the task in {task} and type Accio to execute it when it is ready")
        }
        State::AchieveTaskDrafting => format!(
            "draft the next task in the new {task} with the agent, then type Accio to execute it"
        ),
        State::AchieveTaskExecuted => format!(
            "review {}, then type Accio to integrate the results",
            step.file(File::Results)
        ),
        State::AchieveComplete => {
            "every criterion is met: type Finite to add criteria, or Reparo to start another review"
                .to_owned()
        }
        _ => "type Lumos to see where we are".to_owned(),
    }
}

/// The Reparo instructions: the agent gathers the PR's review comments
/// into `comments.md` through its GitHub MCP.
pub(crate) fn gather_comments(step: &mut Step<'_>) {
    let comments = step.file(File::Comments);
    let pr = step.input().note.as_deref().and_then(pull_request_url);
    let find = match &pr {
        Some(url) => {
            format!("2. Use the pull request {url} (from the user's note) and its repository.")
        }
        None => "2. Find the repository and the pull request of the current branch. If that is \
                 ambiguous, stop and ask the user for the PR URL, then to type Reparo again."
            .to_owned(),
    };
    step.tell(format!(
        "Do the following as one operation, without asking the user questions unless \
         authentication is needed.\n\
         1. Check the GitHub MCP: find its tools and make a trivial call (e.g. get the \
         authenticated user). If its tools are missing, tell the user how to install and \
         configure the GitHub MCP server and stop. If the call fails with an authentication \
         error, ask the user to authenticate and stop.\n\
         {find}\n\
         3. Fetch all open review comments, including unresolved threads.\n\
         4. Write {comments}: a header with the PR, the branch and the time; then the comments \
         grouped by thread, each with its author, file:line, permalink, status, and its body \
         quoted.\n\
         5. Tell the user \"Pulled C comments across T threads from <PR>. Review them in \
         {comments}.\" (with the numbers and the PR), and that typing Accio drafts the review \
         task."
    ));
}

/// The first GitHub pull request URL in `note`:
/// `https://github.com/{owner}/{repo}/pull/{number}`.
pub(crate) fn pull_request_url(note: &str) -> Option<&str> {
    const PREFIX: &str = "https://github.com/";
    note.match_indices(PREFIX).find_map(|(at, _)| {
        let rest = &note[at + PREFIX.len()..];
        let name = |s: &str| {
            s.bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                .count()
        };
        let owner = name(rest);
        let after_owner = rest.get(owner..)?.strip_prefix('/')?;
        let repo = name(after_owner);
        let after_repo = after_owner.get(repo..)?.strip_prefix("/pull/")?;
        let number = after_repo.bytes().take_while(u8::is_ascii_digit).count();
        let len = PREFIX.len() + owner + 1 + repo + "/pull/".len() + number;
        (owner > 0 && repo > 0 && number > 0).then(|| &note[at..at + len])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_request_urls_are_found_in_notes() {
        assert_eq!(
            pull_request_url("see https://github.com/acme/app.rs/pull/7#discussion, thanks"),
            Some("https://github.com/acme/app.rs/pull/7")
        );
        assert_eq!(
            pull_request_url("https://github.com/acme/pull/7 https://github.com/a/b/pull/12"),
            Some("https://github.com/a/b/pull/12")
        );
        assert_eq!(
            pull_request_url("https://github.com/acme/app/issues/7"),
            None
        );
        assert_eq!(pull_request_url("https://github.com/acme/app/pull/"), None);
        assert_eq!(pull_request_url(""), None);
    }

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(1, "criterion"), "1 criterion");
        assert_eq!(count(2, "criterion"), "2 criteria");
        assert_eq!(count(0, "acceptance criterion"), "0 acceptance criteria");
        assert_eq!(count(0, "link"), "0 links");
    }
}
