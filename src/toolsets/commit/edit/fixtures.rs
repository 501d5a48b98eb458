// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Plans at every stage and small helpers for the tests of the tools.

use super::{GoalInput, TaskInput};
use crate::toolsets::commit::document::grammar::{loose_header, strict_header};
use crate::toolsets::commit::document::{CommitType, Header, Limits, Reading, read};

/// A header only.
pub(crate) const STAGE_1: &str = "feat(api): Add x\n";
/// With a description.
pub(crate) const STAGE_2: &str = "feat(api): Add x\n\nWhy.\n";
/// With constraints.
pub(crate) const STAGE_3: &str = "feat(api): Add x\n\nWhy.\n\n- Do not: break y\n";
/// With tasks, some open.
pub(crate) const STAGE_4: &str = "feat(api): Add x\n\nWhy.\n\n- Do not: break y\n\n- [ ]: Build\n  - [x]: Write code\n  - [ ]: Write tests\n- [ ]: Document\n\n~~~ EXECUTE ~~~\n";
/// Every task done, not finished.
pub(crate) const ALL_DONE: &str = "feat(api): Add x\n\nWhy.\n\n- [x]: Build\n  - [x]: Write code\n- [x]: Document\n\n~~~ EXECUTE ~~~\n";
/// Finished.
pub(crate) const STAGE_5: &str = "feat(api): Add x\n\nWhy.\n\n- [x]: Build\n  - [x]: Write code\n- [x]: Document\n\n~~~ COMPLETE ~~~\n";

/// Small limits, to reach them.
pub(crate) fn limits() -> Limits {
    Limits {
        max_title_length: 30,
        max_depth: 3,
        max_tasks: 6,
        max_item_length: 20,
        max_input_bytes: 400,
    }
}

/// `text` as the tools read it.
pub(crate) fn reading(text: &str) -> Reading {
    read(text, &limits())
}

/// A `feat` goal.
pub(crate) fn goal(scope: &str, title: &str) -> GoalInput {
    GoalInput {
        kind: CommitType::Feat,
        scope: Some(scope.into()),
        breaking: false,
        title: title.into(),
    }
}

/// The header `line`.
pub(crate) fn header(line: &str) -> Header {
    strict_header(&loose_header(line).unwrap(), 100).unwrap()
}

/// A task with subtasks.
pub(crate) fn task(text: &str, done: bool, subtasks: Vec<TaskInput>) -> TaskInput {
    TaskInput {
        text: text.into(),
        done,
        subtasks,
    }
}
