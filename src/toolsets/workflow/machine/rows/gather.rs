// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Gather Acceptance Criteria: the plan, its criteria, Expecto's links.

use super::{RELAY, draft_task, help_with_plan};
use crate::toolsets::workflow::files::atlassian;
use crate::toolsets::workflow::files::names::{ATLASSIAN, File};
use crate::toolsets::workflow::files::templates;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::step::Step;

/// G1: creates D and `plan.md` from the template.
pub(crate) fn g1(step: &mut Step<'_>) {
    step.create_dir("");
    step.create(File::Plan, templates::PLAN);
    let plan = step.file(File::Plan);
    step.say(format!(
        "Created {plan}. Fill in the plan in chat or by editing the file, with each acceptance \
         criterion as `- [ ] …` under Acceptance Criteria; type Accio when it is ready to move \
         to Achieve Acceptance Criteria."
    ));
    help_with_plan(step);
}

/// G1b: `plan.md` exists already.
pub(crate) fn g1b(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    step.say(format!(
        "{plan} already exists: review and expand it, then type Accio when it is ready."
    ));
    step.tell(format!(
        "Read {plan} and help the user review it and expand what is thin or unclear."
    ));
    help_with_plan(step);
}

/// G2b, X1b, A1c, A2c, A4c, E1c, E2c: `plan.md` is missing.
pub(crate) fn plan_missing(step: &mut Step<'_>) {
    step.say("Plan file is missing. Use Accio to reset and create a new plan.");
    step.tell(
        "Tell the user message_to_user. Do not recreate plan.md yourself: the next Accio creates \
         it from the template, or resumes where we were if the user restores it.",
    );
}

/// G3: no unchecked criterion yet.
pub(crate) fn g3(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    let ticked =
        !crate::toolsets::workflow::files::criteria::criteria(step.bytes(File::Plan)).is_empty();
    step.say(match ticked {
        true => format!(
            "Every acceptance criterion in {plan} is ticked. Add at least one unchecked \
             criterion (`- [ ] …`) under Acceptance Criteria and type Accio, or type Reparo to \
             start a PR review."
        ),
        false => format!(
            "{plan} has no unchecked acceptance criterion yet. Add at least one (`- [ ] …`) \
             under Acceptance Criteria, then type Accio."
        ),
    });
    help_with_plan(step);
}

/// G4 (and E1r, A4 with a task): an unfinished task exists.
pub(crate) fn g4(step: &mut Step<'_>) {
    resume_task(step, "");
}

/// Quotes the unfinished `task.md` and asks to keep drafting it.
pub(crate) fn resume_task(step: &mut Step<'_>, lead: &str) {
    let task = step.file(File::Task);
    step.say(format!(
        "{lead}An unfinished task is waiting in {task}: the agent sums it up; finish drafting it \
         together, then type Accio to execute it."
    ));
    step.tell(
        "Sum up the unfinished task below for the user and continue drafting it with them: \
         intent, steps, validation, and a kebab-case `task_name` in the front matter. Edit only \
         task.md; do not execute it yet.",
    );
    step.quote(File::Task);
}

/// G2 (and E1, A4 without a task): creates `task.md` for the next task.
pub(crate) fn g2(step: &mut Step<'_>) {
    new_task(step, "");
}

/// Creates `task.md` from the template and asks for the next task.
pub(crate) fn new_task(step: &mut Step<'_>, lead: &str) {
    step.create(File::Task, templates::TASK);
    let task = step.file(File::Task);
    step.say(format!(
        "{lead}Created {task}. The agent proposes the next small task toward the unchecked \
         criteria; refine it together, then type Accio to execute it."
    ));
    let unchecked = step.unchecked();
    draft_task(step, &unchecked);
}

/// X0: Expecto before there is a plan.
pub(crate) fn x0(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    step.say(format!(
        "There is no plan yet: type Accio to create {plan}, then Expecto."
    ));
    step.tell(RELAY);
}

/// Creates `atlassian/refs` (empty) if it is absent.
fn ensure_refs(step: &mut Step<'_>) {
    step.create_missing(File::Refs, "");
}

/// X2: no new Atlassian link.
pub(crate) fn x2(step: &mut Step<'_>) {
    ensure_refs(step);
    step.say(
        "No new Atlassian links found in `plan.md`. Add Jira/Confluence URLs under References \
         or inline, then run Expecto again.",
    );
    step.tell(
        "Tell the user message_to_user and stay in Gather Acceptance Criteria. Change no file.",
    );
}

/// X1: hands the new Atlassian links to the agent.
pub(crate) fn x1(step: &mut Step<'_>) {
    ensure_refs(step);
    let input = step.input();
    let links = atlassian::new_urls(
        &input.facts.text(File::Plan),
        &input.facts.text(File::Refs),
        &input.limits.atlassian_hosts,
    );
    step.say(format!(
        "Found {} new Atlassian links. I've handed them to the Agent to fetch and link into \
         `plan.md` (References section).",
        links.len()
    ));
    let dir = step.shown(ATLASSIAN);
    let refs = step.file(File::Refs);
    let plan = step.file(File::Plan);
    let mut block = format!(
        "Do the following as one operation.\n\
         1. Check the Atlassian MCP with its user-info call (in Claude Code: \
         `mcp__atlassian__atlassianUserInfo`, no parameters). If it is not installed, tell the \
         user how to install and configure the Atlassian MCP server and stop. If it answers \
         with an authentication error, ask the user to authenticate and stop.\n\
         2. For each new link below: fetch its content through the Atlassian MCP, save it to \
         `{dir}/{{SAFE_ID}}.md` (its SAFE_ID is given in parentheses), and append the URL, \
         exactly as given, as a new line to {refs}.\n\
         3. In {plan}: make sure a `## References` section exists and add \
         `- [{{SAFE_ID}}](atlassian/{{SAFE_ID}}.md)` under it for each link. Where the content \
         implies new acceptance criteria, propose them under `## Acceptance Criteria` as \
         `- [ ] … (source: {{SAFE_ID}})`.\n\
         4. Tell the user how many links were processed and what changed, and stay in Gather \
         Acceptance Criteria.\n\
         NEW LINKS:"
    );
    for link in &links {
        block.push_str(&format!("\n- {link} ({})", atlassian::safe_id(link)));
    }
    step.tell(block);
}

/// X3: Expecto outside Gather.
pub(crate) fn x3(step: &mut Step<'_>) {
    let state = step.from;
    let finite_blocked = matches!(
        state,
        State::AchieveTaskExecuted
            | State::PrAppliedPendingArchive
            | State::ErrorPlanMissing
            | State::ErrorReviewTaskMissing
    );
    let how = match finite_blocked {
        true => "finish the current step with Accio first.",
        false => "type Finite to switch back to the Gathering phase, then run Expecto again.",
    };
    step.say(format!(
        "We are currently in {}, which is used to {}. Because Expecto expands the plan and is \
         only allowed during Gather Acceptance Criteria, {how}",
        state.name(),
        state.purpose()
    ));
    step.tell(RELAY);
}

/// F0: Finite in Gather.
pub(crate) fn f0(step: &mut Step<'_>) {
    let plan = step.file(File::Plan);
    step.say(match step.from {
        State::GatherNeedsPlan => format!(
            "We're already in Gather Acceptance Criteria. There is no plan yet: type Accio to \
             create {plan}."
        ),
        _ => format!(
            "We're already in Gather Acceptance Criteria: keep refining {plan}, then type Accio."
        ),
    });
    step.tell(RELAY);
}
