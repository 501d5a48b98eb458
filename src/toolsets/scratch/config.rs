// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The table of toolset `scratch`: `[scratch_pad]`, with its flags, its
//! part of the example file and its checks.

use serde::{Deserialize, Serialize};

use crate::server::settings::{Flag, FlagKind, Settings, lenient};

/// The part of the example config file that belongs to toolset `scratch`.
pub(crate) const EXAMPLE: &str = r#"
[scratch_pad]
# Toolset 'scratch' (tests only): what scratch_greet says before a name.
greeting = 'Hello'
# The name of its one tool.
tool = 'scratch_greet'
"#;

/// The flags of toolset `scratch`.
pub(crate) const FLAGS: &[Flag] = &[Flag {
    long: "scratch-greeting",
    key: "scratch_pad.greeting",
    value_name: "TEXT",
    help: "What scratch_greet says before a name",
    kind: FlagKind::Text,
}];

/// `[scratch_pad]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ScratchSettings {
    /// What `scratch_greet` says before a name.
    #[serde(deserialize_with = "lenient")]
    pub(crate) greeting: String,
    /// The name of its one tool (a test names another toolset's to see
    /// the clash refused).
    #[serde(deserialize_with = "lenient")]
    pub(crate) tool: String,
}

impl Default for ScratchSettings {
    fn default() -> Self {
        Self {
            greeting: "Hello".into(),
            tool: "scratch_greet".into(),
        }
    }
}

impl ScratchSettings {
    /// Reads `[scratch_pad]`: a greeting and a tool name that are not blank.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let scratch = settings.table::<Self>("scratch_pad")?;
        let mut problems = Vec::new();
        for (value, key) in [
            (&scratch.greeting, "scratch_pad.greeting"),
            (&scratch.tool, "scratch_pad.tool"),
        ] {
            settings.require(
                &mut problems,
                !value.trim().is_empty(),
                key,
                "must not be blank",
            );
        }
        match problems.is_empty() {
            true => Ok(scratch),
            false => Err(problems),
        }
    }
}
