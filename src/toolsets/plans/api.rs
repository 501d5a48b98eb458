// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The operations shared by the CLI and the MCP tools, with the reference's
//! order of checks (which decides which error wins) and its JSON outputs.
//! Reads take no lock (a rename is atomic); writes read, check `ifMatch`,
//! edit and write under the plan's lock.

use std::path::Path;

use serde::Serialize;

use crate::runtime::clock::Clock;
use crate::runtime::entropy::SystemEntropy;
use crate::toolsets::plans::document::diagnostic::DiagnosticOut;
use crate::toolsets::plans::document::parse;
use crate::toolsets::plans::document::search::{self, Hit};
use crate::toolsets::plans::document::target::{self, Mode};
use crate::toolsets::plans::document::validate;
use crate::toolsets::plans::document::view::{self, PlanDetail, Stats, TaskDetail, View};
use crate::toolsets::plans::edit::add::{self, NewTask};
use crate::toolsets::plans::edit::body;
use crate::toolsets::plans::edit::lines::{self, Edited};
use crate::toolsets::plans::edit::repair::{self, Action, Applied};
use crate::toolsets::plans::edit::update::{self, PlanChanges, TaskChanges};
use crate::toolsets::plans::error::{PlanError, task_not_found};
use crate::toolsets::plans::store::{self, Snapshot, Store};
use crate::toolsets::plans::syntax::collate;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::line;
use crate::toolsets::plans::syntax::status::Status;
use crate::toolsets::plans::syntax::text::{self, FORMAT_HEADER, json_quote};

/// One plan in `plan list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanSummary {
    /// The file name without `.md`.
    pub(crate) plan_id: String,
    /// The first `# ` heading's text, or the plan id.
    pub(crate) title: String,
    /// The path relative to the root.
    pub(crate) path: String,
    /// Counts from the raw text.
    pub(crate) stats: Stats,
}

/// `{plans}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct PlanList {
    /// The plans, in collation order.
    pub(crate) plans: Vec<PlanSummary>,
}

/// `{plan, etag}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct PlanGot<'a> {
    /// The plan.
    pub(crate) plan: PlanDetail<'a>,
    /// Its etag.
    pub(crate) etag: String,
}

/// `{planId, path}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Created {
    /// The new plan's id.
    pub(crate) plan_id: String,
    /// Its path relative to the root.
    pub(crate) path: String,
}

/// `{etag}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Etag {
    /// The etag after the call.
    pub(crate) etag: String,
}

/// `{task, etag}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct TaskGot {
    /// The task.
    pub(crate) task: TaskDetail,
    /// The plan's etag.
    pub(crate) etag: String,
}

/// `{taskId, etag}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskWritten {
    /// The task added or updated.
    pub(crate) task_id: String,
    /// The etag after the call.
    pub(crate) etag: String,
}

/// `{hits}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Hits {
    /// The hits.
    pub(crate) hits: Vec<Hit>,
}

/// `{errors, warnings}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Validated {
    /// Errors.
    pub(crate) errors: Vec<DiagnosticOut>,
    /// Warnings.
    pub(crate) warnings: Vec<DiagnosticOut>,
}

/// `{etag, applied}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RepairDone {
    /// The etag of the repaired text (written or not).
    pub(crate) etag: String,
    /// What was done.
    pub(crate) applied: Applied,
}

/// The template of a new plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Template {
    /// Header and title only.
    Empty,
    /// Header, title and an `## Inbox` section.
    #[default]
    Basic,
}

impl Template {
    /// Parses `empty` or `basic`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        match name {
            "empty" => Some(Self::Empty),
            "basic" => Some(Self::Basic),
            _ => None,
        }
    }
}

/// Arguments of `plan.update`.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanUpdate<'a> {
    /// The plan.
    pub(crate) plan_id: &'a str,
    /// A new title.
    pub(crate) title: Option<&'a str>,
    /// A new body.
    pub(crate) body: Option<&'a str>,
    /// Remove the body.
    pub(crate) clear_body: bool,
    /// The etag the caller last saw.
    pub(crate) if_match: Option<&'a str>,
}

/// Arguments of `task.add`.
#[derive(Debug, Clone, Default)]
pub(crate) struct TaskAdd<'a> {
    /// The plan.
    pub(crate) plan_id: &'a str,
    /// What to add and where.
    pub(crate) task: NewTask<'a>,
    /// The etag the caller last saw.
    pub(crate) if_match: Option<&'a str>,
}

/// Arguments of `task.update`.
#[derive(Debug, Clone, Default)]
pub(crate) struct TaskUpdate<'a> {
    /// The plan.
    pub(crate) plan_id: &'a str,
    /// The task; empty or absent means the default target.
    pub(crate) task_id: Option<&'a str>,
    /// A new status.
    pub(crate) status: Option<Status>,
    /// A new title.
    pub(crate) title: Option<&'a str>,
    /// A new body.
    pub(crate) body: Option<&'a str>,
    /// Remove the body.
    pub(crate) clear_body: bool,
    /// Allow the default target when no task id is given.
    pub(crate) allow_default_target: bool,
    /// The etag the caller last saw.
    pub(crate) if_match: Option<&'a str>,
}

/// Arguments of `doc.repair`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Repair<'a> {
    /// The plan.
    pub(crate) plan_id: &'a str,
    /// The actions, applied in this order.
    pub(crate) actions: Vec<Action>,
    /// Compute, but do not write.
    pub(crate) dry_run: bool,
    /// The etag the caller last saw.
    pub(crate) if_match: Option<&'a str>,
}

/// `CONFLICT` unless `if_match` is absent, empty or the current etag.
fn check_if_match(current: &Snapshot, if_match: Option<&str>) -> Result<(), PlanError> {
    match if_match {
        Some(wanted) if !wanted.is_empty() && wanted != current.etag() => Err(PlanError(format!(
            "CONFLICT: etag mismatch (current={}, ifMatch={wanted})",
            current.etag()
        ))),
        _ => Ok(()),
    }
}

/// The body change of `bodyMarkdown` and `clearBody` (checked not to come
/// together): `Some(None)` clears, `Some(Some(..))` sets.
fn body_change(body: Option<&str>, clear: bool) -> Option<Option<&str>> {
    if clear { Some(None) } else { body.map(Some) }
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.is_empty())
}

/// The plan files of one directory and the operations on them, which
/// both faces (MCP and CLI) share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFiles {
    store: Store,
    /// Where new task ids come from.
    entropy: SystemEntropy,
}

impl PlanFiles {
    /// Plans in `<root>/<plans_dir>`; `root` is resolved against the working directory.
    pub fn new(root: &Path, plans_dir: &str) -> Self {
        Self {
            store: Store::new(root, plans_dir),
            entropy: SystemEntropy::new(Clock::system()),
        }
    }

    /// The same, waiting at most `lock_timeout` for a plan another process
    /// has locked.
    pub(crate) fn with_lock_timeout(self, lock_timeout: std::time::Duration) -> Self {
        Self {
            store: self.store.with_lock_timeout(lock_timeout),
            ..self
        }
    }

    /// `plan list`
    pub(crate) fn list_plans(&self, query: Option<&str>) -> Result<PlanList, PlanError> {
        let (dir, _) = self.store.plans_dir()?;
        let is_plan = |name: &str| name.strip_suffix(".md").is_some_and(id::is_safe);
        let files = self.store.read_plan_files(is_plan)?;
        let query = query.and_then(search::normalize_query);
        let mut plans = Vec::new();
        for (name, bytes) in files {
            let plan_id = name.strip_suffix(".md").unwrap_or(&name);
            let path = dir.join(&name);
            let text = String::from_utf8_lossy(&bytes);
            let title = list_title(&text).unwrap_or(plan_id).to_owned();
            if let Some(q) = &query
                && !format!("{plan_id}\n{title}")
                    .to_lowercase()
                    .contains(q.as_str())
            {
                continue;
            }
            plans.push(PlanSummary {
                plan_id: plan_id.to_owned(),
                title,
                path: self.store.relative(&path),
                stats: Stats::of_text(&text),
            });
        }
        plans.sort_by(|a, b| collate::compare(&a.plan_id, &b.plan_id));
        Ok(PlanList { plans })
    }

    /// `plan get`: `show` sees the plan, which borrows from the text as read
    /// instead of copying every id and title.
    pub(crate) fn get_plan<R>(
        &self,
        plan_id: &str,
        view: Option<View>,
        include_task_bodies: bool,
        include_plan_body: bool,
        show: impl FnOnce(&PlanGot<'_>) -> R,
    ) -> Result<R, PlanError> {
        let snapshot = self.store.read(plan_id)?;
        let plan = parse::parse(&snapshot.text).require().map_err(PlanError)?;
        let plan = view::plan_detail(
            plan_id,
            plan,
            view.unwrap_or_default(),
            include_task_bodies,
            include_plan_body,
        );
        Ok(show(&PlanGot {
            plan,
            etag: snapshot.etag().to_owned(),
        }))
    }

    /// `plan create`
    pub(crate) fn create_plan(
        &self,
        plan_id: &str,
        title: &str,
        template: Option<Template>,
        body: Option<&str>,
    ) -> Result<Created, PlanError> {
        self.store.plan_path(plan_id)?;
        let title = match text::trim(title) {
            "" => plan_id,
            trimmed => trimmed,
        };
        let mut text = format!("{FORMAT_HEADER}\n\n# {title}\n\n");
        if template.unwrap_or_default() == Template::Basic {
            text.push_str("## Inbox\n\n");
        }
        if let Some(body) = body {
            text = body::set_plan_body(&text, Some(body))?.text;
        }
        let path = self.store.create(plan_id, &text)?;
        Ok(Created {
            plan_id: plan_id.to_owned(),
            path: self.store.relative(&path),
        })
    }

    /// `plan update`
    pub(crate) fn update_plan(&self, args: &PlanUpdate<'_>) -> Result<Etag, PlanError> {
        if args.body.is_some() && args.clear_body {
            return Err("bodyMarkdown cannot be combined with clearBody".into());
        }
        if args.title.is_none() && args.body.is_none() && !args.clear_body {
            return Err("At least one of title, bodyMarkdown, or clearBody is required".into());
        }
        self.store.update(args.plan_id, |current| {
            check_if_match(current, args.if_match)?;
            let changes = PlanChanges {
                title: args.title,
                body: body_change(args.body, args.clear_body),
            };
            let Edited { text, changed } = update::update_plan(&current.text, &changes)?;
            if !changed {
                return Ok((
                    Etag {
                        etag: current.etag().to_owned(),
                    },
                    None,
                ));
            }
            Ok((
                Etag {
                    etag: store::etag(&text),
                },
                Some(text),
            ))
        })
    }

    /// `task get` / `task next`
    pub(crate) fn get_task(
        &self,
        plan_id: &str,
        task_id: Option<&str>,
        include_body: Option<bool>,
    ) -> Result<TaskGot, PlanError> {
        let snapshot = self.store.read(plan_id)?;
        let plan = parse::parse(&snapshot.text)
            .plan
            .ok_or_else(|| PlanError::from("Failed to parse plan"))?;
        let task = match non_empty(task_id) {
            Some(task_id) => {
                require_safe_task_id(task_id)?;
                plan.task(task_id).ok_or_else(|| task_not_found(task_id))?
            }
            None => target::default_task(&plan, Mode::Read)?,
        };
        Ok(TaskGot {
            task: view::detail(&plan, task, include_body.unwrap_or(true)),
            etag: snapshot.etag().to_owned(),
        })
    }

    /// `task add`
    pub(crate) fn add_task(&self, args: &TaskAdd<'_>) -> Result<TaskWritten, PlanError> {
        self.store.update(args.plan_id, |current| {
            check_if_match(current, args.if_match)?;
            let added = add::add_task(&current.text, &args.task, &self.entropy)?;
            let etag = store::etag(&added.text);
            Ok((
                TaskWritten {
                    task_id: added.task_id,
                    etag,
                },
                Some(added.text),
            ))
        })
    }

    /// `task update` (and the CLI's `task start` / `task done`)
    pub(crate) fn update_task(&self, args: &TaskUpdate<'_>) -> Result<TaskWritten, PlanError> {
        if args.body.is_some() && args.clear_body {
            return Err("bodyMarkdown cannot be combined with clearBody".into());
        }
        if args.status.is_none() && args.title.is_none() && args.body.is_none() && !args.clear_body
        {
            return Err(
                "At least one of status, title, bodyMarkdown, or clearBody is required".into(),
            );
        }
        let task_id = non_empty(args.task_id);
        if task_id.is_none() && !args.allow_default_target {
            return Err("taskId is required unless allowDefaultTarget=true".into());
        }
        if task_id.is_none() && non_empty(args.if_match).is_none() {
            return Err("ifMatch is required when taskId is omitted".into());
        }
        self.store.update(args.plan_id, |current| {
            check_if_match(current, args.if_match)?;
            let target = match task_id {
                Some(task_id) => {
                    require_safe_task_id(task_id)?;
                    task_id.to_owned()
                }
                None => {
                    let plan = parse::parse(&current.text)
                        .plan
                        .ok_or_else(|| PlanError::from("Failed to parse plan"))?;
                    target::default_task(&plan, Mode::Write)?.id.to_string()
                }
            };
            let changes = TaskChanges {
                status: args.status,
                title: args.title,
                body: body_change(args.body, args.clear_body),
            };
            let Edited { text, changed } = update::update_task(&current.text, &target, &changes)?;
            let (etag, write) = if changed {
                (store::etag(&text), Some(text))
            } else {
                (current.etag().to_owned(), None)
            };
            Ok((
                TaskWritten {
                    task_id: target.clone(),
                    etag,
                },
                write,
            ))
        })
    }

    /// `task delete`
    pub(crate) fn delete_task(
        &self,
        plan_id: &str,
        task_id: &str,
        if_match: Option<&str>,
    ) -> Result<Etag, PlanError> {
        require_safe_task_id(task_id)?;
        self.store.update(plan_id, |current| {
            check_if_match(current, if_match)?;
            let edited = lines::delete(&current.text, task_id)?;
            if !edited.changed {
                return Ok((
                    Etag {
                        etag: current.etag().to_owned(),
                    },
                    None,
                ));
            }
            Ok((
                Etag {
                    etag: store::etag(&edited.text),
                },
                Some(edited.text),
            ))
        })
    }

    /// `task search`
    pub(crate) fn search_tasks(
        &self,
        plan_id: &str,
        query: &str,
        status: Option<Status>,
        limit: Option<f64>,
    ) -> Result<Hits, PlanError> {
        let Some(query) = search::normalize_query(query) else {
            return Ok(Hits { hits: Vec::new() });
        };
        let limit = search::clamp_limit(limit);
        let snapshot = self.store.read(plan_id)?;
        let Some(plan) = parse::parse(&snapshot.text).plan else {
            return Ok(Hits { hits: Vec::new() });
        };
        Ok(Hits {
            hits: search::search(&plan, plan_id, &query, status, limit),
        })
    }

    /// `doc validate`
    pub(crate) fn validate_doc(&self, plan_id: &str) -> Result<Validated, PlanError> {
        let snapshot = self.store.read(plan_id)?;
        let validation = validate::validate(&snapshot.text);
        Ok(Validated {
            errors: validation.errors.iter().map(|d| d.output()).collect(),
            warnings: validation.warnings.iter().map(|d| d.output()).collect(),
        })
    }

    /// `doc repair`
    pub(crate) fn repair_doc(&self, args: &Repair<'_>) -> Result<RepairDone, PlanError> {
        self.store.update(args.plan_id, |current| {
            check_if_match(current, args.if_match)?;
            let repaired = repair::repair(&current.text, &args.actions, &self.entropy)?;
            let done = RepairDone {
                etag: store::etag(&repaired.text),
                applied: repaired.applied,
            };
            // Written even when unchanged, as the reference does.
            let write = (!args.dry_run).then_some(repaired.text);
            Ok((done, write))
        })
    }
}

fn require_safe_task_id(task_id: &str) -> Result<(), PlanError> {
    if id::is_safe(task_id) {
        Ok(())
    } else {
        Err(PlanError(format!(
            "Invalid taskId: {}",
            json_quote(task_id)
        )))
    }
}

/// `plan list`'s title: the text of the first `# ` line (`/^#\s+(.*)$/`),
/// trimmed; `None` if there is none or it is empty.
fn list_title(text: &str) -> Option<&str> {
    text::lines_of(text)
        .find_map(|l| line::heading(l).filter(|(level, _)| *level == 1))
        .map(|(_, title)| title)
        .filter(|title| !title.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "<!-- long-term-plan:format=v1 -->";

    fn plans() -> (tempfile::TempDir, PlanFiles) {
        let dir = tempfile::tempdir().unwrap();
        let plans = PlanFiles::new(dir.path(), ".long-term-plan");
        (dir, plans)
    }

    fn write(dir: &tempfile::TempDir, id: &str, text: &str) {
        let plans_dir = dir.path().join(".long-term-plan");
        std::fs::create_dir_all(&plans_dir).unwrap();
        std::fs::write(plans_dir.join(format!("{id}.md")), text).unwrap();
    }

    fn read(dir: &tempfile::TempDir, id: &str) -> String {
        std::fs::read_to_string(dir.path().join(format!(".long-term-plan/{id}.md"))).unwrap()
    }

    #[test]
    fn create_templates_titles_and_bodies() {
        let (dir, plans) = plans();
        plans.create_plan("a", "  ", None, None).unwrap();
        assert_eq!(
            read(&dir, "a"),
            format!("{H}\n\n# a\n\n## Inbox\n\n"),
            "blank title: the id"
        );
        plans
            .create_plan("b", "B", Some(Template::Empty), Some("why"))
            .unwrap();
        assert_eq!(read(&dir, "b"), format!("{H}\n\n# B\n\n> why\n"));
        plans
            .create_plan("c", "a\nb", Some(Template::Empty), None)
            .unwrap();
        assert_eq!(
            read(&dir, "c"),
            format!("{H}\n\n# a\nb\n\n"),
            "create keeps newlines"
        );
        assert_eq!(
            plans.create_plan("a", "x", None, None).unwrap_err().0,
            "Plan already exists: a"
        );
        assert_eq!(
            plans.create_plan("_a", "x", None, None).unwrap_err().0,
            "Invalid planId: \"_a\""
        );
    }

    #[test]
    fn list_titles_filters_and_order() {
        let (dir, plans) = plans();
        assert_eq!(plans.list_plans(None).unwrap().plans, []);
        write(&dir, "B", &format!("{H}\n# \n# Later\n"));
        write(
            &dir,
            "a",
            "no header\n# Alpha\n- [ ] x <!-- long-term-plan:id=x -->\n- [ ] y <!-- long-term-plan:id=x -->\n",
        );
        write(&dir, "_hidden", "# x\n");
        std::fs::write(dir.path().join(".long-term-plan/README.MD"), "# x\n").unwrap();
        std::fs::create_dir_all(dir.path().join(".long-term-plan/dir.md")).unwrap();
        let list = plans.list_plans(None).unwrap().plans;
        let ids: Vec<&str> = list.iter().map(|p| p.plan_id.as_str()).collect();
        assert_eq!(ids, ["a", "B"]);
        assert_eq!(list[0].title, "Alpha");
        assert_eq!(
            list[0].stats.total, 2,
            "duplicates and headerless files count"
        );
        assert_eq!(list[1].title, "B", "an empty first H1 gives the id");
        assert_eq!(plans.list_plans(Some(" ALP ")).unwrap().plans.len(), 1);
        assert_eq!(plans.list_plans(Some("  ")).unwrap().plans.len(), 2);
        // `plan get` uses the parser's title rule instead.
        assert_eq!(
            plans
                .get_plan("B", None, false, false, |got| got
                    .plan
                    .plan
                    .title
                    .to_string())
                .unwrap(),
            "Later"
        );
        assert_eq!(
            plans
                .get_plan("a", None, false, false, |_| ())
                .unwrap_err()
                .0,
            "MISSING_FORMAT_HEADER: Missing required header: <!-- long-term-plan:format=v1 -->\nDUPLICATE_TASK_ID@4: Duplicate task id: x"
        );
    }

    #[test]
    fn order_of_checks() {
        let (dir, plans) = plans();
        // delete checks the task id before reading; get and update read first.
        assert_eq!(
            plans.delete_task("missing", "_x", None).unwrap_err().0,
            "Invalid taskId: \"_x\""
        );
        assert!(
            plans
                .get_task("missing", Some("_x"), None)
                .unwrap_err()
                .0
                .starts_with("ENOENT")
        );
        // A blank query never reads the plan.
        assert_eq!(
            plans.search_tasks("../bad", "  ", None, None).unwrap().hits,
            []
        );
        write(
            &dir,
            "broken",
            "# no header\n- [ ] x <!-- long-term-plan:id=x -->\n",
        );
        assert_eq!(
            plans.search_tasks("broken", "x", None, None).unwrap().hits,
            []
        );
        assert_eq!(
            plans.get_task("broken", None, None).unwrap_err().0,
            "Failed to parse plan"
        );
        let update = TaskUpdate {
            plan_id: "broken",
            status: Some(Status::Done),
            allow_default_target: true,
            if_match: Some("e"),
            ..TaskUpdate::default()
        };
        assert!(
            plans
                .update_task(&update)
                .unwrap_err()
                .0
                .starts_with("CONFLICT: etag mismatch (current=")
        );
        let update = TaskUpdate {
            plan_id: "broken",
            body: Some("b"),
            clear_body: true,
            ..TaskUpdate::default()
        };
        assert_eq!(
            plans.update_task(&update).unwrap_err().0,
            "bodyMarkdown cannot be combined with clearBody"
        );
        let update = PlanUpdate {
            plan_id: "missing",
            ..PlanUpdate::default()
        };
        assert_eq!(
            plans.update_plan(&update).unwrap_err().0,
            "At least one of title, bodyMarkdown, or clearBody is required"
        );
    }

    #[test]
    fn unchanged_updates_keep_the_etag_and_do_not_write() {
        let (dir, plans) = plans();
        let text = format!("{H}\n# P\n- [ ] a <!-- long-term-plan:id=a -->");
        write(&dir, "p", &text);
        let etag = store::etag(&text);
        let same = TaskUpdate {
            plan_id: "p",
            task_id: Some("a"),
            title: Some("a"),
            clear_body: true,
            ..TaskUpdate::default()
        };
        assert_eq!(
            plans.update_task(&same).unwrap(),
            TaskWritten {
                task_id: "a".into(),
                etag: etag.clone()
            }
        );
        let same = PlanUpdate {
            plan_id: "p",
            title: Some("P"),
            clear_body: true,
            if_match: Some(""),
            ..PlanUpdate::default()
        };
        assert_eq!(plans.update_plan(&same).unwrap().etag, etag);
        assert_eq!(read(&dir, "p"), text);
        // Repair writes even when nothing changes, gaining the final newline.
        let repair = Repair {
            plan_id: "p",
            actions: vec![],
            dry_run: false,
            if_match: Some(&etag),
        };
        let done = plans.repair_doc(&repair).unwrap();
        assert_eq!(read(&dir, "p"), format!("{text}\n"));
        assert_eq!(done.etag, store::etag(&format!("{text}\n")));
    }

    #[test]
    fn default_target_writes() {
        let (dir, plans) = plans();
        write(
            &dir,
            "p",
            &format!(
                "{H}\n- [*] a <!-- long-term-plan:id=a -->\n- [*] b <!-- long-term-plan:id=b -->\n"
            ),
        );
        let etag = plans
            .get_plan("p", None, false, false, |got| got.etag.clone())
            .unwrap();
        let update = TaskUpdate {
            plan_id: "p",
            status: Some(Status::Done),
            allow_default_target: true,
            if_match: Some(&etag),
            ..TaskUpdate::default()
        };
        assert_eq!(
            plans.update_task(&update).unwrap_err().0,
            "AMBIGUOUS: multiple doing tasks; provide taskId"
        );
        assert_eq!(plans.get_task("p", None, Some(false)).unwrap().task.id, "a");
        let update = TaskUpdate {
            plan_id: "p",
            task_id: Some("a"),
            status: Some(Status::Done),
            ..TaskUpdate::default()
        };
        plans.update_task(&update).unwrap();
        let etag = plans
            .get_plan("p", None, false, false, |got| got.etag.clone())
            .unwrap();
        let update = TaskUpdate {
            plan_id: "p",
            task_id: Some(""),
            status: Some(Status::Todo),
            allow_default_target: true,
            if_match: Some(&etag),
            ..TaskUpdate::default()
        };
        assert_eq!(plans.update_task(&update).unwrap().task_id, "b");
    }

    #[test]
    fn concurrent_writers_in_one_process_lose_nothing() {
        let (dir, plans) = plans();
        plans.create_plan("p", "P", None, None).unwrap();
        let plans = std::sync::Arc::new(plans);
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let plans = plans.clone();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        let title = format!("w{w} t{i}");
                        let add = TaskAdd {
                            plan_id: "p",
                            task: NewTask {
                                title: &title,
                                ..NewTask::default()
                            },
                            if_match: None,
                        };
                        plans.add_task(&add).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        let text = read(&dir, "p");
        assert_eq!(Stats::of_text(&text).total, 100);
        assert!(validate::validate(&text).errors.is_empty());
    }
}
