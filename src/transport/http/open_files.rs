// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The open-files limit: every connection is a file descriptor, and so is
//! every board's lock file and every snapshot being read or written. The
//! soft limit (often 1,024) is raised to the hard one at start-up, and the
//! connection cap stays below it, so that `accept` never runs out of
//! descriptors and the boards' files can always be opened.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Raises the soft open-files limit to the hard one, if it is lower.
/// Returns the limit now in force (`None`: unlimited).
pub(crate) fn raise() -> Option<u64> {
    let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
    if current.is_none() || current == maximum {
        return current;
    }
    let raised = Rlimit {
        current: maximum,
        maximum,
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => {
            tracing::debug!(from = ?current, to = ?maximum, "raised the open-files limit");
            maximum
        }
        Err(error) => {
            tracing::debug!(%error, "cannot raise the open-files limit");
            current
        }
    }
}

/// The most connections served at once: `configured`, lowered to leave
/// `reserve` descriptors free under `limit`, and at least one.
pub(crate) fn connection_cap(configured: usize, limit: Option<u64>, reserve: usize) -> usize {
    let Some(limit) = limit else {
        return configured;
    };
    let room = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .saturating_sub(reserve);
    configured.min(room).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_below_the_limit() {
        assert_eq!(connection_cap(1024, Some(1024), 128), 896);
        assert_eq!(connection_cap(1024, Some(524_288), 128), 1024);
        assert_eq!(connection_cap(1024, None, 128), 1024);
        assert_eq!(connection_cap(1024, Some(100), 128), 1);
    }

    #[test]
    fn raising_keeps_the_hard_limit() {
        let before = getrlimit(Resource::Nofile);
        let now = raise();
        assert_eq!(now, before.maximum.or(before.current));
        assert_eq!(getrlimit(Resource::Nofile).maximum, before.maximum);
    }
}
