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

use super::git_objects::{self, Entry, Format, Object};

/// The SHA-1 repository's empty tree, which git knows without storing it:
/// `info` finds it in a repository of SHA-1 objects only.
const EMPTY_TREE_SHA1: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// How the plan is read in one `git cat-file --batch-command` process:
/// the ref's type, the plan file of a tree, the message of a commit, the
/// listing of `history/` (which a write extends), and the repository's
/// object format.
pub(crate) fn read_commands(reference: &str) -> String {
    format!(
        "info {reference}\ncontents {reference}:plan\ncontents {reference}^{{commit}}\n\
         contents {reference}:history\ninfo {EMPTY_TREE_SHA1}\n"
    )
}

/// What a write needs of the plan it extends: the repository's object
/// format and the versions in `history/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct History {
    /// The hash of the repository's objects.
    pub(crate) format: Format,
    /// The entries of `history/`, oldest first (empty for a new plan, or a
    /// tree made by hand without one).
    pub(crate) entries: Vec<Entry>,
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
        content: Option<&'a [u8]>,
    },
}

/// Reads the answers to [`read_commands`]: what the ref holds and what a
/// write extends; `None` when the output is not what git prints.
pub(crate) fn parse_read(output: &[u8]) -> Option<(Stored, History)> {
    let mut rest = output;
    let info = answer(&mut rest, false)?;
    let plan = answer(&mut rest, true)?;
    let commit = answer(&mut rest, true)?;
    let listing = answer(&mut rest, true)?;
    let format = match answer(&mut rest, false)? {
        Answer::Found { .. } => Format::Sha1,
        Answer::Missing => Format::Sha256,
    };
    let entries = match (&info, listing) {
        (
            Answer::Found { kind: "tree", .. },
            Answer::Found {
                kind: "tree",
                content: Some(data),
                ..
            },
        ) => super::git_objects::entries(data, format)?,
        _ => Vec::new(),
    };
    let history = History { format, entries };
    let Answer::Found { oid, kind, .. } = info else {
        return Some((Stored::Nothing, history));
    };
    let oid = oid.to_owned();
    let stored = match (kind, plan, commit) {
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
            text: lossy(text),
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
    };
    Some((stored, history))
}

/// `bytes` as text, invalid UTF-8 replaced (as every output of git is read).
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Takes one answer off the front of `rest`: `{name} missing`, or
/// `{oid} {type} {size}` and, for a `contents` command, the content and a
/// newline.
fn answer<'a>(rest: &mut &'a [u8], with_content: bool) -> Option<Answer<'a>> {
    let end = rest.iter().position(|b| *b == b'\n')?;
    let line = std::str::from_utf8(&rest[..end]).ok()?;
    *rest = &rest[end + 1..];
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
    *rest = rest.get(size..)?.strip_prefix(b"\n")?;
    Some(Answer::Found {
        oid,
        kind,
        content: Some(content),
    })
}

/// The message of a commit object: everything after the first empty line.
pub(crate) fn message(object: &[u8]) -> String {
    object
        .windows(2)
        .position(|pair| pair == b"\n\n")
        .map_or_else(String::new, |at| lossy(&object[at + 2..]))
}

/// The name of version `number` in `history/`, written by `tool`.
pub(crate) fn version_name(number: usize, tool: &str) -> String {
    format!("{number:06}-{tool}")
}

/// The objects of a write that makes `text`, written by `tool`, the next
/// version after `history` (and after `earlier`, the versions of a commit
/// chain of the earlier layout, which it carries over), and the ID of the
/// new root tree the ref then points at: the blobs first, then
/// `history/`, then the root, each object once.
pub(crate) fn next_version(
    history: &History,
    earlier: &[String],
    text: &str,
    tool: &str,
) -> Option<(Vec<Object>, String)> {
    let format = history.format;
    let mut objects: Vec<Object> = Vec::new();
    let mut add = |object: Object| {
        let id = object.id(format);
        if !objects.iter().any(|o| o.id(format) == id) {
            objects.push(object);
        }
        id
    };
    let mut entries = history.entries.clone();
    for message in earlier {
        let id = add(Object::blob(message.as_bytes()));
        let name = version_name(entries.len() + 1, "from-commit");
        entries.push(Entry::file(&name, &id)?);
    }
    let plan = add(Object::blob(text.as_bytes()));
    entries.push(Entry::file(&version_name(entries.len() + 1, tool), &plan)?);
    let history_tree = add(git_objects::tree(entries));
    let root = add(git_objects::tree(vec![
        Entry::file("plan", &plan)?,
        Entry::directory("history", &history_tree)?,
    ]));
    Some((objects, root))
}

/// The versions a commit chain of the earlier layout holds, oldest first,
/// from `git cat-file --batch-command` answers to `contents {oid}` for each
/// commit of `git rev-list --reverse`.
pub(crate) fn legacy_versions(output: &[u8], count: usize) -> Option<Vec<String>> {
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
    /// The last two answers of a read of a ref without `history/`, in a
    /// SHA-1 repository.
    const NO_HISTORY: &str =
        "refs/commit-plan/main:history missing\n4b825dc642cb6eb9a060e54bf8d69288fbee4904 tree 0\n";

    /// `history/` and the root of a first write of `hello\n` by `set_plan`, as git made them.
    const HISTORY_ONE: &str = "997b15bec4430ef2693989f1f572ed0bede46141";
    const ROOT_ONE: &str = "7f38749e8469127ed3395288c8157430969ed329";

    fn stored(output: &str) -> Option<Stored> {
        parse_read(output.as_bytes()).map(|(stored, _)| stored)
    }

    #[test]
    fn a_tree_a_legacy_commit_nothing_and_other_objects_are_told_apart() {
        let tree = format!(
            "{TREE} tree 66\n{BLOB} blob 19\nfeat: a\n\nsome desc\n\nrefs/commit-plan/main^{{commit}} missing\n{NO_HISTORY}"
        );
        assert_eq!(
            stored(&tree),
            Some(Stored::Tree {
                oid: TREE.into(),
                text: "feat: a\n\nsome desc\n".into()
            })
        );
        let object = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a> 1 +0000\ncommitter a <a> 1 +0000\n\nfix: b\n\n- [ ]: t\n";
        let legacy = format!(
            "{BLOB} commit 140\nrefs/commit-plan/main:plan missing\n{BLOB} commit {}\n{object}\n{NO_HISTORY}",
            object.len()
        );
        assert_eq!(
            stored(&legacy),
            Some(Stored::Legacy {
                oid: BLOB.into(),
                text: "fix: b\n\n- [ ]: t\n".into()
            })
        );
        let nothing = format!(
            "refs/commit-plan/main missing\nrefs/commit-plan/main:plan missing\nrefs/commit-plan/main^{{commit}} missing\n{NO_HISTORY}"
        );
        assert_eq!(stored(&nothing), Some(Stored::Nothing));
        let blob = format!(
            "{BLOB} blob 3\nrefs/commit-plan/main:plan missing\nrefs/commit-plan/main^{{commit}} missing\n{NO_HISTORY}"
        );
        assert_eq!(
            stored(&blob),
            Some(Stored::Other {
                oid: BLOB.into(),
                kind: "blob".into()
            })
        );
        assert_eq!(stored("garbage"), None);
        assert_eq!(
            stored(&format!("{TREE} tree 66\n{BLOB} blob 999\nshort\n")),
            None
        );
    }

    #[test]
    fn the_history_listing_and_the_object_format_are_read() {
        // A SHA-256 repository: the SHA-1 empty tree is missing.
        const BLOB256: &str = "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4";
        let listing = git_objects::tree(vec![Entry::file("000001-a", BLOB256).unwrap()]);
        let mut output = format!(
            "{TREE} tree 66\n{BLOB} blob 2\nx\n\nrefs/commit-plan/main^{{commit}} missing\n{TREE} tree {}\n",
            listing.data.len()
        )
        .into_bytes();
        output.extend_from_slice(&listing.data);
        output.extend_from_slice(b"\n4b825dc642cb6eb9a060e54bf8d69288fbee4904 missing\n");
        let (_, history) = parse_read(&output).unwrap();
        assert_eq!(history.format, Format::Sha256);
        assert_eq!(
            history.entries,
            vec![Entry::file("000001-a", BLOB256).unwrap()]
        );
        // A listing cut short is not what git prints.
        output.truncate(output.len() - 60);
        assert_eq!(parse_read(&output), None);
    }

    #[test]
    fn a_write_makes_the_blob_history_and_root_that_git_mktree_made() {
        let history = History {
            format: Format::Sha1,
            entries: Vec::new(),
        };
        let (objects, root) = next_version(&history, &[], "hello\n", "set_plan").unwrap();
        // The blob once (the plan and its version are one object), history/, the root.
        assert_eq!(objects.len(), 3);
        assert_eq!(
            objects[0].id(Format::Sha1),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        // From git: `printf '100644 blob ce01…\t000001-set_plan\0' | git mktree -z`,
        // then the root `100644 blob ce01…\tplan\0040000 tree {that}\thistory\0`.
        assert_eq!(objects[1].id(Format::Sha1), HISTORY_ONE);
        assert_eq!(root, ROOT_ONE);
        let carried = next_version(&history, &["a\n".into()], "hello\n", "mark_task").unwrap();
        let names: Vec<Entry> = git_objects::entries(&carried.0[2].data, Format::Sha1).unwrap();
        assert_eq!(names[0].name, b"000001-from-commit");
        assert_eq!(names[1].name, b"000002-mark_task");
    }

    #[test]
    fn versions_are_numbered_so_that_names_sort_by_age() {
        assert_eq!(version_name(7, "mark_task"), "000007-mark_task");
        assert!(version_name(10, "a") > version_name(9, "z"));
    }
}
