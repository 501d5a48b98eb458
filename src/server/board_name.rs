// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The name of the board a session works on: HTTP serves each board at its
//! own endpoint (`/boards/{name}/mcp`), the stdio server the configured one
//! (`[server] board`, checked once, when the configuration is read).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::settings::lenient;

/// A valid board name: `^[a-z0-9][a-z0-9_-]{0,63}$`. A name is never a path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardName(String);

impl BoardName {
    /// The board served at `/mcp` and by default in stdio mode.
    pub(crate) const DEFAULT: &str = "default";

    /// What a name must look like, as an error says it.
    pub(crate) const RULE: &str = "must match ^[a-z0-9][a-z0-9_-]{0,63}$, e.g. default";

    /// Checks a name; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let mut bytes = text.bytes();
        let first_ok = bytes
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        let rest_ok =
            bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        (first_ok && rest_ok && text.len() <= 64).then(|| Self(text.to_owned()))
    }

    /// The name.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The board served at `/mcp`.
    pub(crate) fn default_board() -> Self {
        Self(Self::DEFAULT.to_owned())
    }
}

/// A setting's text (environment values may arrive as numbers:
/// `PLANNING_SERVER_BOARD=2024`), checked: a bad name is the value's error.
impl<'de> Deserialize<'de> for BoardName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text: String = lenient(d)?;
        Self::parse(&text).ok_or_else(|| serde::de::Error::custom(Self::RULE))
    }
}

impl Serialize for BoardName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl fmt::Display for BoardName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_pattern() {
        for good in ["default", "a", "0", "team-1", "a_b", &"x".repeat(64)] {
            assert!(BoardName::parse(good).is_some(), "{good}");
        }
        for bad in [
            "",
            "-a",
            "_a",
            "A",
            "a.b",
            "../etc",
            "a/b",
            "é",
            " a",
            &"x".repeat(65),
        ] {
            assert!(BoardName::parse(bad).is_none(), "{bad}");
        }
    }
}
