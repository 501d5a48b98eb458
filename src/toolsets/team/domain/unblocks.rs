// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! How much work a ready task unblocks: the number of distinct open tasks
//! (pending or in progress) that wait for it, directly or through other
//! open tasks, along `blocked_by` links. The ready queue is ranked by it,
//! most first, then in board order, so that a lead with three workers
//! starts the critical path first.
//!
//! A completed, failed or cancelled task is no work left, and a task past
//! it waits for it no more (completed) or waits anyway (failed, cancelled:
//! until someone acts), so the walk stops there.
//!
//! The counts come from the tasks the ready ones reach, numbered in one
//! walk, by the cheaper of two ways ([`Way`]): when there are few ready
//! tasks for the tasks they reach (a board whose ready front is a handful
//! of tasks with long chains behind them, the usual case), each ready
//! task's reach is walked on its own, its cost the ready tasks times the
//! links walked; when there are many, one pass in reverse topological
//! order keeps, for each reached task, the set of the tasks that wait for
//! it as a bit set, its cost the links walked times the reached tasks / 64
//! (10,000 tasks of which half are ready and the other half wait in chains
//! would be 25 million steps walked one ready task at a time). Both count
//! the same sets.

use super::view::View;
use crate::toolsets::planning::domain::{IdMap, Status, Task, TaskId};

/// How many tasks each ready task unblocks.
#[derive(Debug, Clone, Default)]
pub(crate) struct Unblocks {
    counts: IdMap<usize>,
}

impl Unblocks {
    /// How many open tasks wait for task `id` (0 for a task not ranked).
    pub(crate) fn of(&self, id: TaskId) -> usize {
        self.counts.get(&id).copied().unwrap_or(0)
    }

    /// Whether some ranked task unblocks at least one other: the queue is
    /// then in another order than the board's.
    pub(crate) fn any(&self) -> bool {
        self.counts.values().any(|n| *n > 0)
    }
}

/// The ready queue ranked: the tasks that unblock the most first, ties in
/// board order; with the counts.
pub(crate) fn ranked<'a>(view: View<'a>) -> (Vec<&'a Task>, Unblocks) {
    let mut ready: Vec<&'a Task> = view.ready().collect();
    let unblocks = count(view, &ready);
    // A stable sort: ties keep board order (all tie on a board without
    // links, the queue as it came).
    if unblocks.any() {
        ready.sort_by_cached_key(|task| std::cmp::Reverse(unblocks.of(task.id)));
    }
    (ready, unblocks)
}

/// Whether task `id` is open work: pending or in progress as `view` sees it.
fn open(view: View<'_>, id: TaskId) -> bool {
    matches!(
        view.status_of(id),
        Some(Status::Pending | Status::InProgress)
    )
}

/// How [`count`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// Walks each ready task's reach on its own.
    Walk,
    /// Bit sets of the tasks below each reached task, children first.
    BitSets,
}

impl Way {
    /// The cheaper way for `ready` tasks that reach `reached` tasks: a walk
    /// costs `ready` × the links, the bit sets the links × `reached` / 64.
    fn for_sizes(ready: usize, reached: usize) -> Self {
        match ready.saturating_mul(64) <= reached {
            true => Self::Walk,
            false => Self::BitSets,
        }
    }
}

/// The open tasks the tasks `of` reach, numbered in the order a walk from
/// them meets them, with, for each, the numbers of those that wait for it.
/// Each task met is looked up once (whether it is open work), whatever
/// the number of links that reach it.
#[derive(Default)]
struct Reach {
    /// Task ID -> its number, `None` for a task that is no open work.
    index: IdMap<Option<usize>>,
    /// The tasks, by number.
    nodes: Vec<TaskId>,
}

impl Reach {
    /// The numbers of the open tasks that wait for `id` directly, each
    /// task met for the first time numbered, added to `into`.
    fn children(&mut self, view: View<'_>, id: TaskId, into: &mut Vec<usize>) {
        for &next in view.board.coordination().dependents(id) {
            let number = *self.index.entry(next).or_insert_with(|| {
                open(view, next).then(|| {
                    self.nodes.push(next);
                    self.nodes.len() - 1
                })
            });
            into.extend(number);
        }
    }
}

/// Lists of numbers, one after the other in one vector: the children of
/// each node without an allocation per node.
#[derive(Debug, Default)]
struct Lists {
    /// All the lists' numbers.
    numbers: Vec<usize>,
    /// Where each list ends in `numbers`.
    ends: Vec<usize>,
}

impl Lists {
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// List `n`.
    fn get(&self, n: usize) -> &[usize] {
        let start = n.checked_sub(1).map_or(0, |before| self.ends[before]);
        &self.numbers[start..self.ends[n]]
    }

    /// Ends the list being written.
    fn end(&mut self) {
        self.ends.push(self.numbers.len());
    }
}

/// The counts of the tasks `of`.
pub(crate) fn count(view: View<'_>, of: &[&Task]) -> Unblocks {
    count_by(view, of, None)
}

/// The counts of the tasks `of`, by `way` (the cheaper when `None`).
fn count_by(view: View<'_>, of: &[&Task], way: Option<Way>) -> Unblocks {
    let mut unblocks = Unblocks::default();
    if view.board.coordination().link_count() == 0 {
        return unblocks;
    }
    // The tasks reached from `of`, numbered, in one walk that lists the
    // children of each as it goes. (A ready task waits for no open task,
    // so none of `of` is among them.)
    let mut reach = Reach::default();
    let mut roots = Lists::default();
    for task in of {
        reach.children(view, task.id, &mut roots.numbers);
        roots.end();
    }
    let mut children = Lists::default();
    while children.len() < reach.nodes.len() {
        let id = reach.nodes[children.len()];
        reach.children(view, id, &mut children.numbers);
        children.end();
    }
    let way = way.unwrap_or_else(|| Way::for_sizes(of.len(), children.len()));
    // A cycle, which only a hand-edited board can hold, has no order
    // children first: it is walked.
    let sets = match way {
        Way::BitSets => closures(&children),
        Way::Walk => None,
    };
    let counts = match sets {
        Some(sets) => {
            let words = children.len().div_ceil(64);
            (0..roots.len())
                .map(|root| {
                    let mut set = vec![0u64; words];
                    for d in roots.get(root) {
                        add(&mut set, *d, &sets[*d]);
                    }
                    set.iter().map(|w| w.count_ones() as usize).sum()
                })
                .collect()
        }
        None => walks(&children, &roots),
    };
    for (task, n) in of.iter().zip(counts) {
        let _ = unblocks.counts.insert(task.id, n);
    }
    unblocks
}

/// For each of `roots` (the numbers of the nodes just below it), how many
/// nodes are below it: each walked on its own, with one mark per node
/// (the root's turn) so that no walk clears the marks of the last.
fn walks(children: &Lists, roots: &Lists) -> Vec<usize> {
    let mut mark = vec![usize::MAX; children.len()];
    let mut todo: Vec<usize> = Vec::new();
    (0..roots.len())
        .map(|turn| {
            let mut n = 0;
            todo.extend(roots.get(turn));
            while let Some(node) = todo.pop() {
                if mark[node] != turn {
                    mark[node] = turn;
                    n += 1;
                    todo.extend(children.get(node));
                }
            }
            n
        })
        .collect()
}

/// `set` ∪ {`node`} ∪ `below`.
fn add(set: &mut [u64], node: usize, below: &[u64]) {
    set[node / 64] |= 1 << (node % 64);
    for (word, other) in set.iter_mut().zip(below) {
        *word |= other;
    }
}

/// For every node, the set of nodes below it (its children, theirs, ...),
/// computed children first; `None` when the graph has a cycle.
fn closures(children: &Lists) -> Option<Vec<Vec<u64>>> {
    let words = children.len().div_ceil(64);
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); children.len()];
    for parent in 0..children.len() {
        for child in children.get(parent) {
            parents[*child].push(parent);
        }
    }
    let mut left: Vec<usize> = (0..children.len()).map(|n| children.get(n).len()).collect();
    let mut todo: Vec<usize> = (0..children.len()).filter(|n| left[*n] == 0).collect();
    let mut sets: Vec<Vec<u64>> = vec![Vec::new(); children.len()];
    let mut done = 0;
    while let Some(node) = todo.pop() {
        let mut set = vec![0u64; words];
        for child in children.get(node) {
            add(&mut set, *child, &sets[*child]);
        }
        sets[node] = set;
        done += 1;
        for parent in &parents[node] {
            left[*parent] -= 1;
            if left[*parent] == 0 {
                todo.push(*parent);
            }
        }
    }
    (done == children.len()).then_some(sets)
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use proptest::prelude::*;

    use super::*;
    use crate::toolsets::planning::coordination::Edit;
    use crate::toolsets::planning::domain::Board;
    use crate::toolsets::team::domain::fixture::{at, board, id, link};

    /// The open tasks that wait for `id` directly.
    fn waiting<'a>(view: View<'a>, id: TaskId) -> impl Iterator<Item = TaskId> + 'a {
        let dependents = view.board.coordination().dependents(id);
        dependents.iter().copied().filter(move |d| open(view, *d))
    }

    /// The open tasks that wait for `id`, counted by walking them.
    fn walk(view: View<'_>, id: TaskId) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([id]);
        while let Some(at) = queue.pop_front() {
            for next in waiting(view, at) {
                if next != id && seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        seen.len()
    }

    fn titles(board: &crate::toolsets::planning::domain::Board) -> Vec<(String, usize)> {
        let (ranked, unblocks) = ranked(View::new(board, at(0)));
        ranked
            .iter()
            .map(|t| (t.title.clone(), unblocks.of(t.id)))
            .collect()
    }

    /// A diamond (b and c wait for a, d waits for b and c), a chain (f
    /// waits for e, g for f, h for g, i for h), a task that both wait for
    /// (d and i wait for j too), and a loner (k), in the board order k, j,
    /// a, b, ..., i.
    ///
    /// By hand: a unblocks b, c and d (3: d once, though it waits through
    /// both b and c); e unblocks f, g, h and i (4); j unblocks d and i (2);
    /// k nothing. Ranked: e, a, j, k.
    #[test]
    fn the_ready_queue_ranks_the_critical_path_first() {
        let mut board = board(&["k", "j", "a", "b", "c", "d", "e", "f", "g", "h", "i"]);
        link(&mut board, "b", &["a"]);
        link(&mut board, "c", &["a"]);
        link(&mut board, "d", &["b", "c", "j"]);
        link(&mut board, "f", &["e"]);
        link(&mut board, "g", &["f"]);
        link(&mut board, "h", &["g"]);
        link(&mut board, "i", &["h", "j"]);
        assert_eq!(
            titles(&board),
            [
                ("e".to_owned(), 4),
                ("a".to_owned(), 3),
                ("j".to_owned(), 2),
                ("k".to_owned(), 0)
            ]
        );
        // Given-up work is no work left: with h cancelled, e unblocks f
        // and g only; j still unblocks d and i, and ties with e, before it
        // on the board.
        let h = id("h").to_string();
        let _ = board.update_statuses(&[(&h, "cancelled")]).unwrap();
        assert_eq!(
            titles(&board),
            [
                ("a".to_owned(), 3),
                ("j".to_owned(), 2),
                ("e".to_owned(), 2),
                ("k".to_owned(), 0)
            ]
        );
    }

    #[test]
    fn ties_and_boards_without_links_keep_board_order() {
        let mut board = board(&["a", "b", "c", "d"]);
        let (ranked, unblocks) = ranked(View::new(&board, at(0)));
        let order: Vec<&str> = ranked.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        assert!(!unblocks.any());
        link(&mut board, "c", &["b"]);
        link(&mut board, "d", &["a"]);
        assert_eq!(titles(&board), [("a".to_owned(), 1), ("b".to_owned(), 1)]);
    }

    #[test]
    fn the_walk_and_the_bit_sets_agree() {
        // A lattice of six rows of ten: t(n) waits for t(n-10) and, but in
        // the last column, t(n-9), so each task reaches its own column and
        // the one to its left in the row below.
        let names: Vec<String> = (0..60).map(|n| format!("t{n}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut board = board(&refs);
        for n in 10..60 {
            let mut up = vec![names[n - 10].as_str()];
            if n % 10 < 9 {
                up.push(names[n - 9].as_str());
            }
            link(&mut board, &names[n], &up);
        }
        let view = View::new(&board, at(0));
        let ready: Vec<&Task> = view.ready().collect();
        assert_eq!(ready.len(), 10);
        for way in [Way::Walk, Way::BitSets] {
            let unblocks = count_by(view, &ready, Some(way));
            for task in &ready {
                let walked = walk(view, task.id);
                assert_eq!(unblocks.of(task.id), walked, "{way:?} {}", task.title);
            }
            // t0 reaches t10, t20, ..., t50; t9 reaches t18..t19, t27..t29,
            // t36..t39, t45..t49 and t54..t59.
            assert_eq!(unblocks.of(id("t0")), 5);
            assert_eq!(unblocks.of(id("t9")), 20);
        }
    }

    #[test]
    fn few_ready_tasks_are_walked_many_take_bit_sets() {
        assert_eq!(Way::for_sizes(1, 5_000), Way::Walk);
        assert_eq!(Way::for_sizes(78, 5_000), Way::Walk);
        assert_eq!(Way::for_sizes(79, 5_000), Way::BitSets);
        assert_eq!(Way::for_sizes(5_000, 5_000), Way::BitSets);
        assert_eq!(Way::for_sizes(1, 0), Way::BitSets);
    }

    /// A board of `statuses.len()` tasks with these statuses and links
    /// (task, blocker) by position, applied as one edit: links that go
    /// back make cycles, which only a hand-edited board holds.
    fn random_board(statuses: &[Status], links: &[(usize, usize)]) -> Board {
        let names: Vec<String> = (0..statuses.len()).map(|n| format!("t{n}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut board = board(&refs);
        let mut edits: Vec<Edit> = statuses
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != Status::Pending)
            .map(|(n, s)| Edit::Status(id(&names[n]), *s))
            .collect();
        for (task, blocker) in links {
            let (task, blocker) = (task % names.len(), blocker % names.len());
            if task != blocker {
                edits.push(Edit::Link {
                    task: id(&names[task]),
                    blocker: id(&names[blocker]),
                });
            }
        }
        let _ = board.edit(at(0), edits).unwrap();
        board
    }

    fn status() -> impl Strategy<Value = Status> {
        prop_oneof![
            6 => Just(Status::Pending),
            1 => Just(Status::InProgress),
            2 => Just(Status::Completed),
            1 => Just(Status::Failed),
            1 => Just(Status::Cancelled),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Both ways count what a walk of each ready task counts, on
        /// random boards: links forward only (a graph without cycles) and,
        /// when `back`, some links backward too (cycles).
        #[test]
        fn both_ways_count_what_a_walk_counts(
            statuses in proptest::collection::vec(status(), 1..80),
            forward in proptest::collection::vec((0usize..80, 0usize..80), 0..200),
            back in proptest::collection::vec((0usize..80, 0usize..80), 0..4),
        ) {
            // Forward: a later task waits for an earlier one.
            let mut links: Vec<(usize, usize)> =
                forward.iter().map(|(a, b)| ((*a).max(*b), (*a).min(*b))).collect();
            links.extend(back.iter().map(|(a, b)| ((*a).min(*b), (*a).max(*b))));
            let board = random_board(&statuses, &links);
            let view = View::new(&board, at(0));
            let ready: Vec<&Task> = view.ready().collect();
            let cheaper = count(view, &ready);
            for way in [Way::Walk, Way::BitSets] {
                let unblocks = count_by(view, &ready, Some(way));
                for task in &ready {
                    let walked = walk(view, task.id);
                    prop_assert_eq!(unblocks.of(task.id), walked, "{:?}", way);
                    prop_assert_eq!(cheaper.of(task.id), walked);
                }
            }
        }
    }
}
