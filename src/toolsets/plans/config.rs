// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The table of toolset `plans`: `[plans]`, where its Markdown plan files
//! are, with its checks.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::server::settings::{Flag, FlagKind, Settings, lenient};

/// The part of the example config file that belongs to toolset `plans`.
pub(crate) const EXAMPLE: &str = r#"
[plans]
# Toolset 'plans': Markdown plan files {root}/{dir}/{planId}.md, compatible
# with long-term-plan. No plan path may leave root (not even through a
# symlink). root is relative to the working directory.
root = '.'
dir = '.long-term-plan'
# Also offer doc.validate and doc.repair (long-term-plan's --legacy-doc-tools).
legacy_doc_tools = false
"#;

/// The flags of toolset `plans`.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        long: "plans-root",
        key: "plans.root",
        value_name: "PATH",
        help: "Root directory of the plans toolset",
        kind: FlagKind::Text,
    },
    Flag {
        long: "plans-dir",
        key: "plans.dir",
        value_name: "PATH",
        help: "Plans directory, relative to the plans root",
        kind: FlagKind::Text,
    },
];

/// `[plans]`: where toolset `plans` keeps its Markdown plan files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PlansSettings {
    /// The root that plan paths may not leave, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub(crate) root: PathBuf,
    /// The plans directory, relative to the root.
    #[serde(deserialize_with = "lenient")]
    pub(crate) dir: String,
    /// Whether `doc.validate` and `doc.repair` are offered too.
    pub(crate) legacy_doc_tools: bool,
}

impl Default for PlansSettings {
    fn default() -> Self {
        Self {
            root: PathBuf::from("."),
            dir: crate::toolsets::plans::store::DEFAULT_PLANS_DIR.into(),
            legacy_doc_tools: false,
        }
    }
}

impl PlansSettings {
    /// Reads `[plans]` and checks what types cannot.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let plans = settings.table::<Self>("plans")?;
        let mut problems = Vec::new();
        settings.require(
            &mut problems,
            !plans.root.as_os_str().is_empty(),
            "plans.root",
            "must name a directory, e.g. .",
        );
        settings.require(
            &mut problems,
            !plans.dir.trim().is_empty(),
            "plans.dir",
            "must name a directory, e.g. .long-term-plan",
        );
        match problems.is_empty() {
            true => Ok(plans),
            false => Err(problems),
        }
    }
}
