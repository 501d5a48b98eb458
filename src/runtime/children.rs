// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The programs the server runs (jj, git) each lead a process group of their
//! own, recorded here while they run. A timeout, a call that is dropped, or
//! the end of shutdown's grace period kills the whole group, so that a
//! wrapper script's own children go with it; killing only the program
//! would leave them running after the server is gone. Once shutdown has
//! ended the children, no new one is started.

use std::sync::LazyLock;
use std::time::Duration;

use rustix::io::Errno;
use rustix::process::{Pid, Signal};
use tokio::sync::watch;

/// The server's running children.
pub(crate) static CHILDREN: LazyLock<Children> = LazyLock::new(Children::default);

/// A set of running process groups.
///
/// A `watch` channel holds the set: changed under its lock (no `.await`
/// while it is held), and waited on by shutdown until it is empty.
#[derive(Debug, Default)]
pub(crate) struct Children(watch::Sender<Running>);

/// The groups running, and whether shutdown has ended them.
#[derive(Debug, Default)]
struct Running {
    /// Each group's key and process-group ID.
    groups: Vec<(u64, Pid)>,
    /// The key of the next group.
    next: u64,
    /// Shutdown has ended the children: no new one may run.
    ended: bool,
}

/// Shutdown has ended the children; the group was killed at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ended;

/// A running process group, killed when dropped unless its leader was
/// reaped ([`Group::reaped`]).
#[derive(Debug)]
#[must_use = "dropping a group kills it"]
pub(crate) struct Group<'a> {
    children: &'a Children,
    key: u64,
    pid: Pid,
    live: bool,
}

impl Children {
    /// Records the process group that process `pid` leads (spawned with
    /// `process_group(0)`, so its group ID is its process ID). After
    /// [`Children::end`] the group is killed at once and refused.
    pub(crate) fn track(&self, pid: Pid) -> Result<Group<'_>, Ended> {
        let mut key = None;
        self.0.send_if_modified(|running| {
            if running.ended {
                return false;
            }
            running.next += 1;
            running.groups.push((running.next, pid));
            key = Some(running.next);
            true
        });
        match key {
            Some(key) => Ok(Group {
                children: self,
                key,
                pid,
                live: true,
            }),
            None => {
                kill_group(pid);
                Err(Ended)
            }
        }
    }

    /// How many groups are running.
    #[cfg(test)]
    pub(crate) fn running(&self) -> usize {
        self.0.borrow().groups.len()
    }

    /// Waits until no group runs, at most `within`; then refuses new ones
    /// and kills the groups still running. Answers how many it killed.
    pub(crate) async fn end(&self, within: Duration) -> usize {
        let mut changes = self.0.subscribe();
        // The guard the wait returns is dropped at the end of the statement,
        // before the set is changed below.
        let _ = tokio::time::timeout(within, changes.wait_for(|r| r.groups.is_empty())).await;
        let mut killed = 0;
        self.0.send_modify(|running| {
            running.ended = true;
            for (_, pid) in &running.groups {
                kill_group(*pid);
            }
            killed = running.groups.len();
        });
        killed
    }

    fn forget(&self, key: u64) {
        self.0.send_if_modified(|running| {
            let before = running.groups.len();
            running.groups.retain(|(k, _)| *k != key);
            running.groups.len() != before
        });
    }
}

impl Group<'_> {
    /// The group's leader exited and was reaped: the group is forgotten,
    /// not killed (its ID may be reused from now on).
    pub(crate) fn reaped(mut self) {
        self.live = false;
    }
}

impl Drop for Group<'_> {
    fn drop(&mut self) {
        if self.live {
            kill_group(self.pid);
        }
        self.children.forget(self.key);
    }
}

/// Sends SIGKILL to every process of group `pid`; a group already gone is
/// no error.
fn kill_group(pid: Pid) {
    match rustix::process::kill_process_group(pid, Signal::KILL) {
        Ok(()) | Err(Errno::SRCH) => {}
        Err(error) => {
            tracing::warn!(%error, group = pid.as_raw_nonzero(), "cannot kill a process group");
        }
    }
}

/// Shutdown's last step: waits at most `within` for the server's children,
/// then kills those still running, with their groups, and starts no more.
pub(crate) async fn end_within(within: Duration) {
    let killed = CHILDREN.end(within).await;
    if killed > 0 {
        tracing::warn!(
            killed,
            "programs still running after the grace period; killed them and their process groups"
        );
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    use super::*;

    /// Runs `sh -c script` as a group leader, waits until the script wrote
    /// the process ID of the `sleep` it started to a file, and answers both.
    pub(crate) fn wrapper(dir: &std::path::Path, name: &str) -> (std::process::Child, Pid, Pid) {
        let file = dir.join(name);
        let child = Command::new("sh")
            .args([
                "-c",
                "sleep 1000 & echo $! > \"$0.tmp\" && mv \"$0.tmp\" \"$0\"; wait",
            ])
            .arg(&file)
            .stdin(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let sleep = loop {
            if let Ok(text) = std::fs::read_to_string(&file) {
                break text.trim().parse::<i32>().unwrap();
            }
            assert!(Instant::now() < deadline, "the wrapper did not start");
            std::thread::sleep(Duration::from_millis(5));
        };
        let leader = Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
        (child, leader, Pid::from_raw(sleep).unwrap())
    }

    /// Whether `pid` runs (a zombie does not).
    pub(crate) fn alive(pid: Pid) -> bool {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero()))
            .ok()
            .and_then(|stat| {
                let state = stat.rsplit_once(") ")?.1.chars().next()?;
                Some(state != 'Z')
            })
            .unwrap_or(false)
    }

    /// Waits until `pid` no longer runs; a hang bound only.
    pub(crate) fn gone(pid: Pid) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        while alive(pid) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    #[test]
    fn a_dropped_group_is_killed_with_its_children_and_a_reaped_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let children = Children::default();
        let (mut child, leader, sleep) = wrapper(dir.path(), "a");
        let group = children.track(leader).unwrap();
        assert_eq!(children.running(), 1);
        drop(group);
        assert_eq!(children.running(), 0);
        assert!(child.wait().unwrap().code().is_none(), "killed by a signal");
        assert!(gone(sleep), "the wrapper's own child was killed too");

        let mut quick = Command::new("true").process_group(0).spawn().unwrap();
        let pid = Pid::from_raw(i32::try_from(quick.id()).unwrap()).unwrap();
        let group = children.track(pid).unwrap();
        assert!(quick.wait().unwrap().success());
        group.reaped();
        assert_eq!(children.running(), 0);
    }

    #[tokio::test]
    async fn the_end_waits_for_groups_then_kills_the_rest_and_refuses_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        let children = Children::default();
        // Nothing running: the end does not wait.
        let idle = Children::default();
        assert_eq!(idle.end(Duration::from_secs(600)).await, 0);

        let (mut child, leader, sleep) = wrapper(dir.path(), "b");
        let _group = children.track(leader).unwrap();
        assert_eq!(children.end(Duration::ZERO).await, 1);
        assert!(child.wait().unwrap().code().is_none(), "killed by a signal");
        assert!(gone(sleep), "the wrapper's own child was killed too");

        let (mut late, leader, sleep) = wrapper(dir.path(), "c");
        assert_eq!(children.track(leader).unwrap_err(), Ended);
        assert!(late.wait().unwrap().code().is_none(), "killed at once");
        assert!(gone(sleep));
    }

    #[tokio::test]
    async fn the_end_lets_a_group_that_finishes_in_time_finish() {
        let children = Children::default();
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", "cat >/dev/null"])
            .stdin(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = Pid::from_raw(i32::try_from(child.id().unwrap()).unwrap()).unwrap();
        let group = children.track(pid).unwrap();
        let stdin = child.stdin.take();
        let finish = async move {
            drop(stdin);
            let status = child.wait().await.unwrap();
            group.reaped();
            status
        };
        let (killed, status) = tokio::join!(children.end(Duration::from_secs(600)), finish);
        assert_eq!(killed, 0);
        assert!(status.success(), "{status:?}");
    }
}
