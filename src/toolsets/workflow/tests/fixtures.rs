// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A project directory with a workflow on `.ai/task`, a fixed clock, and
//! the file contents the tests prepare.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use tempfile::TempDir;

use crate::runtime::clock::Clock;
use crate::toolsets::workflow::cast::Caster;
use crate::toolsets::workflow::config::WorkflowSettings;
use crate::toolsets::workflow::disk::CastError;
use crate::toolsets::workflow::disk::apply::Fault;
use crate::toolsets::workflow::machine::spell::Spell;
use crate::toolsets::workflow::machine::transition::Decision;

/// The fixed time of every call: 2025-08-20 11:30:00 UTC.
pub(crate) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 8, 20, 11, 30, 0).unwrap()
}

/// The archive stamp of [`now`].
pub(crate) const STAMP: &str = "2025-08-20-1130";

pub(crate) const PLAN_OPEN: &str =
    "# Plan\n\n## Acceptance Criteria\n\n- [ ] Sum two numbers\n- [ ] Handle overflow\n";
pub(crate) const PLAN_FIRST: &str =
    "# Plan\n\n## Acceptance Criteria\n\n- [x] Sum two numbers\n- [ ] Handle overflow\n";
pub(crate) const PLAN_DONE: &str =
    "# Plan\n\n## Acceptance Criteria\n\n- [x] Sum two numbers\n- [x] Handle overflow\n";
pub(crate) const PLAN_LINKS: &str = "# Plan\n\n## Acceptance Criteria\n\n- [ ] Sum two numbers\n\n\
## References\n\n- https://acme.atlassian.net/browse/APP-12\n\
- https://acme.atlassian.net/wiki/spaces/E/pages/4242/Design.\n- https://github.com/acme/app\n";
pub(crate) const REFS_ONE: &str = "https://acme.atlassian.net/browse/APP-12\n";
pub(crate) const TASK_READY: &str =
    "---\ntask_name: Implement sum\n---\n\n# Task\n\n## Steps\n\n1. Add `sum`.\n";
pub(crate) const TASK_UNNAMED: &str = "---\ntask_name: \"\"\n---\n\n# Task\n\nAdd sum.\n";
pub(crate) const RESULTS_ONE: &str = "## Achieved\n\nsum works\n\n## Satisfied Acceptance Criteria\n\n\
- sum two numbers\n- Logs are tidy\n";
pub(crate) const RESULTS_ALL: &str =
    "## Satisfied Acceptance Criteria\n\n- [x] Sum two numbers\n- Handle overflow\n";
pub(crate) const COMMENTS: &str =
    "# PR acme/app#7\n\n## Thread 1\n\n- alice (src/sum.rs:3): > rename `x`\n";
pub(crate) const REVIEW_TASK: &str = "# Review Task\n\n## Items\n\n- rename x\n";
pub(crate) const REVIEW_RESULTS: &str = "## Achieved\n\n- renamed x\n";

/// A file or a folder under D.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// A file and its bytes.
    File(Vec<u8>),
    /// A folder.
    Dir,
    /// Anything else (a FIFO, a symlink): never read.
    Other,
}

/// Every file and folder under D, by path relative to D.
pub(crate) type Tree = BTreeMap<String, Node>;

/// A project with a workflow directory at `.ai/task`.
pub(crate) struct Project {
    pub(crate) root: TempDir,
    pub(crate) workflow: Caster,
}

impl Project {
    /// A project whose `.ai/task` exists with its lock file.
    pub(crate) fn new() -> Self {
        Self::with(WorkflowSettings::default())
    }

    /// A project with these settings.
    pub(crate) fn with(settings: WorkflowSettings) -> Self {
        let root = tempfile::tempdir().unwrap();
        let workflow = Caster::new(settings.setup(root.path()), Clock::fixed(now()));
        std::fs::create_dir_all(workflow.path()).unwrap();
        std::fs::write(workflow.path().join(".lock"), "").unwrap();
        Self { root, workflow }
    }

    /// D.
    pub(crate) fn d(&self) -> &Path {
        self.workflow.path()
    }

    /// `rel` under D.
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.d().join(rel)
    }

    /// Writes `rel` under D (and its folders).
    pub(crate) fn write(&self, rel: &str, content: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// The text of `rel` under D.
    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    /// Every file and folder under D.
    pub(crate) fn tree(&self) -> Tree {
        let mut tree = Tree::new();
        walk(self.d(), "", &mut tree);
        tree
    }

    /// Casts `spell`; panics if it is refused.
    pub(crate) fn cast(&self, spell: Spell, note: Option<&str>) -> Decision {
        self.try_cast(spell, note, Fault::None)
            .unwrap_or_else(|e| panic!("{spell:?} refused: {e}"))
    }

    /// Casts `spell` with `fault` injected.
    pub(crate) fn try_cast(
        &self,
        spell: Spell,
        note: Option<&str>,
        fault: Fault,
    ) -> Result<Decision, CastError> {
        self.workflow.cast_with(spell, note, fault)
    }
}

fn walk(dir: &Path, prefix: &str, tree: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = match prefix {
            "" => name,
            prefix => format!("{prefix}/{name}"),
        };
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            tree.insert(rel.clone(), Node::Dir);
            walk(&entry.path(), &rel, tree);
        } else if kind.is_file() {
            tree.insert(rel, Node::File(std::fs::read(entry.path()).unwrap()));
        } else {
            tree.insert(rel, Node::Other);
        }
    }
}
