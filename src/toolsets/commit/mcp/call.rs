// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One tool call: find the repository, take its locks, read the plan,
//! apply the pure operation, write when the text changes, answer the view.
//! No state is kept between calls.

use rmcp::model::{CallToolResult, ContentBlock};

use crate::toolsets::commit::config::CommitSettings;
use crate::toolsets::commit::document::{Document, Limits, Reading, read};
use crate::toolsets::commit::edit::goal::{GoalEdit, set_goal};
use crate::toolsets::commit::edit::verify::{Verified, diagnose, verify_plan};
use crate::toolsets::commit::edit::{
    Edit, GoalInput, Refused, TaskInput, constraints, description, job, mark, plan,
};
use crate::toolsets::commit::vcs::failure::{Critical, Subject};
use crate::toolsets::commit::vcs::git::Git;
use crate::toolsets::commit::vcs::jj::Jj;
use crate::toolsets::commit::vcs::locate::{Kind, locate};
use crate::toolsets::commit::vcs::locks::{JJ_LOCK_FILE, RepoLocks, lock_file};
use crate::toolsets::commit::vcs::process::Runner;
use crate::toolsets::commit::vcs::{CONFLICT, Failure, Snapshot, Vcs};
use crate::toolsets::commit::view::full::{Full, VERIFY_CHECK, full};
use crate::toolsets::commit::view::short::{Ending, marked, short};
use crate::toolsets::commit::view::status::{Standing, push_status};
use crate::toolsets::commit::view::{Place, invalid};

/// A tool call with its arguments.
#[derive(Debug, Clone)]
pub enum Call {
    /// `gather_requirements`
    Gather,
    /// `set_overarching_goal`
    SetGoal(GoalInput, bool),
    /// `set_detailed_goal`
    SetDescription(String),
    /// `set_constraints`
    SetConstraints(Vec<String>),
    /// `set_plan`
    SetPlan(Vec<TaskInput>),
    /// `mark_task`
    Mark(String, bool),
    /// `finish_job`
    Finish,
    /// `unfinish_job`
    Unfinish,
    /// `verify_plan`
    Verify(bool, Option<GoalInput>),
}

impl Call {
    /// The tool's name.
    pub fn name(&self) -> &'static str {
        match self {
            Call::Gather => "gather_requirements",
            Call::SetGoal(..) => "set_overarching_goal",
            Call::SetDescription(_) => "set_detailed_goal",
            Call::SetConstraints(_) => "set_constraints",
            Call::SetPlan(_) => "set_plan",
            Call::Mark(..) => "mark_task",
            Call::Finish => "finish_job",
            Call::Unfinish => "unfinish_job",
            Call::Verify(..) => "verify_plan",
        }
    }
}

/// The toolset's process-wide state: its settings and the repository locks.
#[derive(Debug)]
pub struct Planner {
    settings: CommitSettings,
    locks: RepoLocks,
}

/// A reply: its text, and whether it is an error.
type Reply = Result<String, String>;

impl Planner {
    /// A planner with `settings`.
    pub fn new(settings: CommitSettings) -> Self {
        Self {
            settings,
            locks: RepoLocks::default(),
        }
    }

    /// Runs `call` and answers its MCP result.
    pub async fn call(&self, call: Call) -> CallToolResult {
        let reply = self.reply(&call).await;
        match reply {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(text) => {
                tracing::debug!(tool = call.name(), "tool call refused");
                CallToolResult::error(vec![ContentBlock::text(text)])
            }
        }
    }

    async fn reply(&self, call: &Call) -> Reply {
        let settings = &self.settings;
        let repository = locate(settings.vcs, &settings.root).map_err(|c| c.to_string())?;
        let key = repository
            .top
            .clone()
            .unwrap_or_else(|| repository.dir.clone());
        let _in_process = self.locks.lock(&key).await;
        let runner = Runner {
            dir: repository.dir.clone(),
            timeout: settings.timeout(),
        };
        let limits = settings.limits();
        match repository.kind {
            Kind::Jj => {
                let _across_processes = match &repository.top {
                    Some(top) => Some(jj_lock(top.join(".jj").join(JJ_LOCK_FILE), settings).await?),
                    None => None,
                };
                let jj = Jj {
                    program: settings.jj_bin.clone(),
                    runner,
                };
                run(&jj, call, &limits).await
            }
            Kind::Git => {
                let git = Git {
                    program: settings.git_bin.clone(),
                    runner,
                    top: repository.top.clone(),
                };
                run(&git, call, &limits).await
            }
        }
    }
}

/// The lock shared with other server processes on this jj repository.
async fn jj_lock(
    path: std::path::PathBuf,
    settings: &CommitSettings,
) -> Result<crate::runtime::file_lock::FileLock, String> {
    let shown = path.display().to_string();
    lock_file(path, settings.lock_timeout()).await.map_err(|status| {
        Critical {
            subject: Subject::Jj,
            command: Some(format!("lock {shown}")),
            status,
            stderr: Vec::new(),
            fix: "another planning-mcp-server may be stuck on this repository: stop it; or make .jj/ writable; or raise [commit] lock_timeout_ms.".into(),
        }
        .to_string()
    })
}

/// A VCS failure as the text of an error result.
fn failed(failure: Failure) -> String {
    match failure {
        Failure::Critical(critical) => critical.to_string(),
        Failure::Conflict => CONFLICT.to_owned(),
        Failure::State(text) => format!("{text} Nothing was changed."),
        Failure::Unkept(text) => text,
    }
}

/// A refusal as the text of an error result.
fn refused(refusal: Refused, reading: &Reading, snapshot: &Snapshot, limits: &Limits) -> String {
    match refusal {
        Refused::NotAPlan => invalid::refusal(
            reading.problem(),
            &snapshot.text,
            &snapshot.place,
            &diagnose(&snapshot.text, None, limits),
        ),
        Refused::Because(why) => why,
    }
}

/// The refusal of every write while the change holding the plan is
/// divergent: a write would pick one copy and leave the others.
const DIVERGENT: &str = "The change holding the plan is divergent: it has several visible commits (jj log -r 'divergent()' shows them), so this call would write to one copy and leave the others. Keep one with jj abandon <commit id> of each other copy, then call gather_requirements. Nothing was changed.";

/// Writes `edit` when its text changed.
async fn apply<V: Vcs>(
    vcs: &V,
    snapshot: &Snapshot,
    edit: &Edit,
    tool: &str,
) -> Result<(), String> {
    match &edit.text {
        Some(text) => vcs.write(snapshot, text, tool).await.map_err(failed),
        None => Ok(()),
    }
}

/// Runs `call` on `vcs`.
async fn run<V: Vcs>(vcs: &V, call: &Call, limits: &Limits) -> Reply {
    let read_only = matches!(call, Call::Gather | Call::Verify(false, _));
    let snapshot = match vcs.read(limits).await {
        // A routine state with no plan (a detached HEAD) is what a read
        // reports; a write is refused with it.
        Err(Failure::State(text)) if read_only => return Ok(text),
        other => other.map_err(failed)?,
    };
    if snapshot.around.divergent && !read_only {
        return Err(DIVERGENT.to_owned());
    }
    let reading = read(&snapshot.text, limits);
    let place = &snapshot.place;
    let tool = call.name();
    let refuse = |refusal: Refused| refused(refusal, &reading, &snapshot, limits);
    let edit = match call {
        Call::Gather => return gather(vcs, &snapshot, &reading, limits).await,
        Call::Verify(migrate, goal) => {
            return verify(vcs, &snapshot, &reading, *migrate, goal.as_ref(), limits).await;
        }
        Call::SetGoal(goal, start_new) => {
            match set_goal(&reading, goal, *start_new, limits).map_err(refuse)? {
                GoalEdit::Here(edit) => edit,
                GoalEdit::StartNew {
                    header,
                    text,
                    notes,
                } => {
                    let new_place = vcs
                        .start_new(&snapshot, &text, tool)
                        .await
                        .map_err(failed)?;
                    let mut actions = vec![match &new_place {
                        Place::Jj { change_id, .. } => {
                            format!("Started a new change {change_id}: {header}")
                        }
                        Place::Git { branch, .. } => {
                            format!("Started a new plan on branch {branch}: {header}")
                        }
                    }];
                    actions.extend(notes);
                    let document = Document::new(header);
                    return Ok(short(&actions, &document, &new_place, Ending::Plain));
                }
            }
        }
        Call::SetDescription(text) => {
            description::set_description(&reading, text, limits).map_err(refuse)?
        }
        Call::SetConstraints(given) => {
            constraints::set_constraints(&reading, given, limits).map_err(refuse)?
        }
        Call::SetPlan(given) => plan::set_plan(&reading, given, limits).map_err(refuse)?,
        Call::Mark(id, completed) => {
            let edit = mark::mark_task(&reading, id, *completed, limits).map_err(refuse)?;
            apply(vcs, &snapshot, &edit, tool).await?;
            return Ok(marked(&edit.actions, &edit.document, place));
        }
        Call::Finish => job::finish_job(&reading, limits).map_err(refuse)?,
        Call::Unfinish => job::unfinish_job(&reading, limits).map_err(refuse)?,
    };
    apply(vcs, &snapshot, &edit, tool).await?;
    let ending = match call {
        Call::SetPlan(_) => Ending::Line(plan::CHECK),
        Call::Finish => Ending::FinalText,
        _ => Ending::Plain,
    };
    Ok(short(&edit.actions, &edit.document, place, ending))
}

/// `gather_requirements`: the full view with guidance, or the answer for a
/// description that is not a valid plan.
async fn gather<V: Vcs>(vcs: &V, snapshot: &Snapshot, reading: &Reading, limits: &Limits) -> Reply {
    let document = match reading {
        Reading::Empty => None,
        Reading::Parsed(document) => Some(document),
        Reading::Unknown(_) | Reading::Halted(_) => {
            return Ok(invalid::answer(
                reading,
                &snapshot.text,
                &snapshot.place,
                &diagnose(&snapshot.text, None, limits),
            ));
        }
    };
    let changes = vcs.changes(snapshot).await.map_err(failed)?;
    let view = Full {
        actions: &["Read the plan.".into()],
        place: &snapshot.place,
        around: &snapshot.around,
        changes: &changes,
        guide: Some(limits),
        check: None,
    };
    Ok(full(&view, document))
}

/// `verify_plan`.
async fn verify<V: Vcs>(
    vcs: &V,
    snapshot: &Snapshot,
    reading: &Reading,
    migrate: bool,
    goal: Option<&GoalInput>,
    limits: &Limits,
) -> Reply {
    let verified = verify_plan(reading, &snapshot.text, migrate, goal, limits)
        .map_err(|refusal| refused(refusal, reading, snapshot, limits))?;
    match verified {
        Verified::NothingYet => {
            let mut out = "Nothing to verify: no plan yet.\n\n".to_owned();
            push_status(
                &mut out,
                Standing::Plan(None),
                &snapshot.place,
                &snapshot.around,
            );
            out.pop();
            Ok(out)
        }
        Verified::Valid(document) => {
            let changes = vcs.changes(snapshot).await.map_err(failed)?;
            let view = Full {
                actions: &["Plan verified.".into()],
                place: &snapshot.place,
                around: &snapshot.around,
                changes: &changes,
                guide: None,
                check: Some(VERIFY_CHECK),
            };
            Ok(full(&view, Some(&document)))
        }
        Verified::Invalid(diagnosis) => Ok(invalid::answer(
            reading,
            &snapshot.text,
            &snapshot.place,
            &diagnosis,
        )),
        Verified::Migrated(edit) => {
            apply(vcs, snapshot, &edit, "verify_plan").await?;
            Ok(short(
                &edit.actions,
                &edit.document,
                &snapshot.place,
                Ending::Plain,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use parking_lot::Mutex;
    use proptest::prelude::*;

    use super::*;
    use crate::toolsets::commit::document::CommitType;
    use crate::toolsets::commit::document::format::format;
    use crate::toolsets::commit::document::props::document;
    use crate::toolsets::commit::view::Around;

    /// A VCS in memory that counts its writes.
    struct Memory {
        text: Mutex<String>,
        writes: Mutex<usize>,
    }

    impl Vcs for Memory {
        async fn read(&self, _limits: &Limits) -> Result<Snapshot, Failure> {
            Ok(Snapshot {
                text: self.text.lock().clone(),
                place: Place::Git {
                    branch: "main".into(),
                },
                base: None,
                legacy: false,
                history: None,
                around: Around::default(),
            })
        }

        async fn changes(&self, _base: &Snapshot) -> Result<Vec<String>, Failure> {
            Ok(vec!["M src/lib.rs".into()])
        }

        async fn write(&self, _base: &Snapshot, text: &str, _tool: &str) -> Result<(), Failure> {
            *self.text.lock() = text.to_owned();
            *self.writes.lock() += 1;
            Ok(())
        }

        async fn start_new(
            &self,
            base: &Snapshot,
            text: &str,
            tool: &str,
        ) -> Result<Place, Failure> {
            self.write(base, text, tool).await?;
            Ok(base.place.clone())
        }
    }

    fn goal() -> impl Strategy<Value = GoalInput> {
        (
            prop::sample::select(CommitType::ALL.to_vec()),
            prop::option::of("[A-Za-z -]{0,6}"),
            any::<bool>(),
            "[a-z \n\t]{0,12}",
        )
            .prop_map(|(kind, scope, breaking, title)| GoalInput {
                kind,
                scope,
                breaking,
                title,
            })
    }

    fn task() -> impl Strategy<Value = TaskInput> {
        let leaf = ("[a-z \n]{0,8}", any::<bool>()).prop_map(|(text, done)| TaskInput {
            text,
            done,
            subtasks: vec![],
        });
        leaf.prop_recursive(5, 16, 3, |inner| {
            (
                "[a-z ]{0,8}",
                any::<bool>(),
                prop::collection::vec(inner, 0..3),
            )
                .prop_map(|(text, done, subtasks)| TaskInput {
                    text,
                    done,
                    subtasks,
                })
        })
    }

    fn call() -> impl Strategy<Value = Call> {
        prop_oneof![
            Just(Call::Gather),
            (goal(), any::<bool>()).prop_map(|(g, s)| Call::SetGoal(g, s)),
            "[a-z \n\t~\\[\\]:-]{0,30}".prop_map(Call::SetDescription),
            prop::collection::vec("(- )?(Never|Do not|Should): ?[a-z]{0,5}", 0..4)
                .prop_map(Call::SetConstraints),
            prop::collection::vec(task(), 0..4).prop_map(Call::SetPlan),
            ("[0-9.a-z ]{0,4}", any::<bool>()).prop_map(|(id, done)| Call::Mark(id, done)),
            Just(Call::Finish),
            Just(Call::Unfinish),
            (any::<bool>(), prop::option::of(goal())).prop_map(|(m, g)| Call::Verify(m, g)),
        ]
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            document().prop_map(|d| format(&d)),
            "[a-zA-Z:() \n\\[\\]x~-]{0,60}",
        ]
    }

    fn run_on(text: &str, call: &Call) -> (Reply, String, usize) {
        let memory = Memory {
            text: Mutex::new(text.to_owned()),
            writes: Mutex::new(0),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let reply = runtime.block_on(run(&memory, call, &Limits::default()));
        let after = memory.text.lock().clone();
        let writes = *memory.writes.lock();
        (reply, after, writes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        /// A refused call leaves the text byte-identical and writes
        /// nothing; a call that succeeds writes at most once, and only a
        /// canonical plan that differs from what was there.
        #[test]
        fn refused_calls_leave_the_text_byte_identical(text in text(), call in call()) {
            let (reply, after, writes) = run_on(&text, &call);
            match reply {
                Err(_) => {
                    prop_assert_eq!(&after, &text);
                    prop_assert_eq!(writes, 0);
                }
                Ok(_) => {
                    prop_assert!(writes <= 1);
                    if writes == 1 {
                        prop_assert_ne!(&after, &text);
                        let Reading::Parsed(document) = read(&after, &Limits::default()) else {
                            panic!("wrote a text that is not a plan: {after:?}");
                        };
                        prop_assert_eq!(format(&document), after);
                    } else {
                        prop_assert_eq!(&after, &text);
                    }
                }
            }
        }
    }
}
