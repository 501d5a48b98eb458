// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The layout of a git plan, pure: `refs/commit-plan/{branch}` points at a
//! tree (not a commit, so `git log --all`, gitk, tig and IDE graphs never
//! show plan versions) that holds
//!
//! ```text
//! plan                          the current plan, byte for byte
//! history/000001-set_overarching_goal   every version, oldest first
//! history/000002-set_detailed_goal
//! ```
//!
//! The earlier layout, a chain of commits whose messages are the versions,
//! is still read; the first write moves its versions into `history/`.

/// How the plan is read in one `git cat-file --batch-command` process:
/// the ref's type, the plan file of a tree, the message of a commit.
pub(crate) fn read_commands(reference: &str) -> String {
    format!("info {reference}\ncontents {reference}:plan\ncontents {reference}^{{commit}}\n")
}

/// What `refs/commit-plan/{branch}` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stored {
    /// No ref: no plan yet.
    Nothing,
    /// A tree of this layout, with its plan.
    Tree {
        /// The tree.
        oid: String,
        /// The plan file.
        text: String,
    },
    /// A commit of the earlier layout, its message the plan.
    Legacy {
        /// The commit.
        oid: String,
        /// Its message.
        text: String,
    },
    /// Something else: a tree without a plan file, a blob, a tag.
    Other {
        /// The object.
        oid: String,
        /// What it is (`blob`, or `tree without a plan file`).
        kind: String,
    },
}

/// One answer of `git cat-file --batch-command`.
#[derive(Debug, PartialEq, Eq)]
enum Answer<'a> {
    Missing,
    Found {
        oid: &'a str,
        kind: &'a str,
        content: Option<&'a str>,
    },
}

/// Reads the answers to [`read_commands`]; `None` when the output is not
/// what git prints.
pub(crate) fn parse_read(output: &str) -> Option<Stored> {
    let mut rest = output;
    let info = answer(&mut rest, false)?;
    let plan = answer(&mut rest, true)?;
    let commit = answer(&mut rest, true)?;
    let Answer::Found { oid, kind, .. } = info else {
        return Some(Stored::Nothing);
    };
    let oid = oid.to_owned();
    Some(match (kind, plan, commit) {
        (
            "tree",
            Answer::Found {
                kind: "blob",
                content: Some(text),
                ..
            },
            _,
        ) => Stored::Tree {
            oid,
            text: text.to_owned(),
        },
        (
            "commit",
            _,
            Answer::Found {
                content: Some(object),
                ..
            },
        ) => Stored::Legacy {
            oid,
            text: message(object),
        },
        ("tree", ..) => Stored::Other {
            oid,
            kind: "tree without a plan file".into(),
        },
        (kind, ..) => Stored::Other {
            oid,
            kind: kind.to_owned(),
        },
    })
}

/// Takes one answer off the front of `rest`: `{name} missing`, or
/// `{oid} {type} {size}` and, for a `contents` command, the content and a
/// newline.
fn answer<'a>(rest: &mut &'a str, with_content: bool) -> Option<Answer<'a>> {
    let (line, after) = rest.split_once('\n')?;
    *rest = after;
    if line.ends_with(" missing") || line.ends_with(" ambiguous") {
        return Some(Answer::Missing);
    }
    let mut words = line.split(' ');
    let (oid, kind, size) = (words.next()?, words.next()?, words.next()?);
    if !with_content {
        return Some(Answer::Found {
            oid,
            kind,
            content: None,
        });
    }
    let size: usize = size.parse().ok()?;
    let content = rest.get(..size)?;
    *rest = rest.get(size..)?.strip_prefix('\n')?;
    Some(Answer::Found {
        oid,
        kind,
        content: Some(content),
    })
}

/// The message of a commit object: everything after the first empty line.
pub(crate) fn message(object: &str) -> String {
    object
        .split_once("\n\n")
        .map_or_else(String::new, |(_, message)| message.to_owned())
}

/// The name of version `number` in `history/`, written by `tool`.
pub(crate) fn version_name(number: usize, tool: &str) -> String {
    format!("{number:06}-{tool}")
}

/// The `git mktree -z` input of the root tree: the plan and the history.
pub(crate) fn root_tree(plan_blob: &str, history_tree: &str) -> String {
    format!("100644 blob {plan_blob}\tplan\x00040000 tree {history_tree}\thistory\x00")
}

/// The `git mktree -z` entry of one version in `history/`.
pub(crate) fn history_line(blob: &str, name: &str) -> String {
    format!("100644 blob {blob}\t{name}\x00")
}

/// The versions a commit chain of the earlier layout holds, oldest first,
/// from `git cat-file --batch-command` answers to `contents {oid}` for each
/// commit of `git rev-list --reverse`.
pub(crate) fn legacy_versions(output: &str, count: usize) -> Option<Vec<String>> {
    let mut rest = output;
    (0..count)
        .map(|_| match answer(&mut rest, true)? {
            Answer::Found {
                kind: "commit",
                content: Some(object),
                ..
            } => Some(message(object)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str = "5cf0ebc2fe3477f2685388024d9fe85397fa2aa7";
    const BLOB: &str = "4c7e35163222174750c27bb217409bdf533e3899";

    #[test]
    fn a_tree_a_legacy_commit_nothing_and_other_objects_are_told_apart() {
        let tree = format!(
            "{TREE} tree 66\n{BLOB} blob 19\nfeat: a\n\nsome desc\n\nrefs/commit-plan/main^{{commit}} missing\n"
        );
        assert_eq!(
            parse_read(&tree),
            Some(Stored::Tree {
                oid: TREE.into(),
                text: "feat: a\n\nsome desc\n".into()
            })
        );
        let object = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a> 1 +0000\ncommitter a <a> 1 +0000\n\nfix: b\n\n- [ ]: t\n";
        let legacy = format!(
            "{BLOB} commit 140\nrefs/commit-plan/main:plan missing\n{BLOB} commit {}\n{object}\n",
            object.len()
        );
        assert_eq!(
            parse_read(&legacy),
            Some(Stored::Legacy {
                oid: BLOB.into(),
                text: "fix: b\n\n- [ ]: t\n".into()
            })
        );
        let nothing = "refs/commit-plan/main missing\nrefs/commit-plan/main:plan missing\nrefs/commit-plan/main^{commit} missing\n";
        assert_eq!(parse_read(nothing), Some(Stored::Nothing));
        let blob = format!(
            "{BLOB} blob 3\nrefs/commit-plan/main:plan missing\nrefs/commit-plan/main^{{commit}} missing\n"
        );
        assert_eq!(
            parse_read(&blob),
            Some(Stored::Other {
                oid: BLOB.into(),
                kind: "blob".into()
            })
        );
        assert_eq!(parse_read("garbage"), None);
        assert_eq!(
            parse_read(&format!("{TREE} tree 66\n{BLOB} blob 999\nshort\n")),
            None
        );
    }

    #[test]
    fn versions_are_numbered_so_that_names_sort_by_age() {
        assert_eq!(version_name(7, "mark_task"), "000007-mark_task");
        assert!(version_name(10, "a") > version_name(9, "z"));
        assert_eq!(
            root_tree(BLOB, TREE),
            format!("100644 blob {BLOB}\tplan\x00040000 tree {TREE}\thistory\x00")
        );
    }
}
