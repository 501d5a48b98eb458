// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The task tree: paths (`1`, `1.2`), derived parent boxes, counts, the
//! open leaves, and finding a task from what a caller wrote.

use super::Task;

/// A task's place: 0-based indices from the top level down, shown 1-based
/// and dotted (`1.2`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TaskPath(pub(crate) Vec<usize>);

impl std::fmt::Display for TaskPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (n, index) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            write!(f, "{}", index + 1)?;
        }
        Ok(())
    }
}

impl TaskPath {
    /// Reads `1.2.3` (`^[1-9]\d*(\.[1-9]\d*)*$`); `None` if it is not a path.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let mut indices = Vec::new();
        for part in text.split('.') {
            let digits_only = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
            if !digits_only || part.starts_with('0') {
                return None;
            }
            // A number too large to be an index is a path that does not exist.
            let number: usize = part.parse().unwrap_or(usize::MAX);
            indices.push(number.saturating_sub(1));
        }
        Some(Self(indices))
    }
}

/// One task in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Flat<'a> {
    /// Where it is.
    pub(crate) path: TaskPath,
    /// Its text.
    pub(crate) text: &'a str,
    /// Whether it is done.
    pub(crate) done: bool,
    /// Whether it has no subtasks.
    pub(crate) leaf: bool,
}

/// Every task in document order.
pub(crate) fn flatten(tasks: &[Task]) -> Vec<Flat<'_>> {
    fn walk<'a>(tasks: &'a [Task], prefix: &mut Vec<usize>, out: &mut Vec<Flat<'a>>) {
        for (index, task) in tasks.iter().enumerate() {
            prefix.push(index);
            out.push(Flat {
                path: TaskPath(prefix.clone()),
                text: &task.text,
                done: task.done,
                leaf: task.subtasks.is_empty(),
            });
            walk(&task.subtasks, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(tasks, &mut Vec::new(), &mut out);
    out
}

/// `(done, total)` over all levels.
pub(crate) fn counts(tasks: &[Task]) -> (usize, usize) {
    tasks.iter().fold((0, 0), |(done, total), task| {
        let (d, t) = counts(&task.subtasks);
        (done + d + usize::from(task.done), total + t + 1)
    })
}

/// The task at `path`.
pub(crate) fn get<'a>(tasks: &'a [Task], path: &TaskPath) -> Option<&'a Task> {
    let (first, rest) = path.0.split_first()?;
    let mut task = tasks.get(*first)?;
    for index in rest {
        task = task.subtasks.get(*index)?;
    }
    Some(task)
}

/// The task at `path`, to change.
pub(crate) fn get_mut<'a>(tasks: &'a mut [Task], path: &TaskPath) -> Option<&'a mut Task> {
    let (first, rest) = path.0.split_first()?;
    let mut task = tasks.get_mut(*first)?;
    for index in rest {
        task = task.subtasks.get_mut(*index)?;
    }
    Some(task)
}

/// Sets every parent's box from its subtasks (done exactly when all are),
/// bottom up; returns each parent whose box changed, in document order,
/// with its new box.
pub(crate) fn derive_boxes(tasks: &mut [Task]) -> Vec<(TaskPath, bool)> {
    fn walk(tasks: &mut [Task], prefix: &mut Vec<usize>, changed: &mut Vec<(TaskPath, bool)>) {
        for (index, task) in tasks.iter_mut().enumerate() {
            if task.subtasks.is_empty() {
                continue;
            }
            prefix.push(index);
            let at = changed.len();
            walk(&mut task.subtasks, prefix, changed);
            let done = task.subtasks.iter().all(|t| t.done);
            if done != task.done {
                task.done = done;
                changed.insert(at, (TaskPath(prefix.clone()), done));
            }
            prefix.pop();
        }
    }
    let mut changed = Vec::new();
    walk(tasks, &mut Vec::new(), &mut changed);
    changed
}

/// The open leaves, in document order.
pub(crate) fn open_leaves(tasks: &[Task]) -> Vec<Flat<'_>> {
    flatten(tasks)
        .into_iter()
        .filter(|t| t.leaf && !t.done)
        .collect()
}

/// `1.2, 3`: paths for messages.
pub(crate) fn path_list(tasks: &[Flat<'_>]) -> String {
    let paths: Vec<String> = tasks.iter().map(|t| t.path.to_string()).collect();
    paths.join(", ")
}

/// `1.2 (text), 3 (text)`: tasks for messages.
pub(crate) fn described_list(tasks: &[Flat<'_>]) -> String {
    let described: Vec<String> = tasks
        .iter()
        .map(|t| format!("{} ({})", t.path, t.text))
        .collect();
    described.join(", ")
}

/// Why a `task_id` names no single task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// No task matches.
    NotFound,
    /// Several tasks match, in document order.
    Ambiguous(Vec<TaskPath>),
}

/// Finds the task `id` names: (1) a path, which must exist; (2) an exact
/// task text, which must be unique; (3) a case-insensitive substring of
/// task texts, which must be unique.
pub(crate) fn resolve(tasks: &[Task], id: &str) -> Result<TaskPath, Unresolved> {
    if let Some(path) = TaskPath::parse(id) {
        return match get(tasks, &path) {
            Some(_) => Ok(path),
            None => Err(Unresolved::NotFound),
        };
    }
    let all = flatten(tasks);
    let unique = |matches: Vec<TaskPath>| match matches.len() {
        0 => None,
        1 => matches.into_iter().next().map(Ok),
        _ => Some(Err(Unresolved::Ambiguous(matches))),
    };
    let exact = all.iter().filter(|t| t.text == id).map(|t| t.path.clone());
    if let Some(found) = unique(exact.collect()) {
        return found;
    }
    let needle = id.to_lowercase();
    let containing = all
        .iter()
        .filter(|t| t.text.to_lowercase().contains(&needle))
        .map(|t| t.path.clone());
    unique(containing.collect()).unwrap_or(Err(Unresolved::NotFound))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(text: &str, done: bool, subtasks: Vec<Task>) -> Task {
        Task {
            text: text.into(),
            done,
            subtasks,
        }
    }

    fn sample() -> Vec<Task> {
        vec![
            task(
                "Build",
                true,
                vec![
                    task("Write code", true, vec![]),
                    task("Write tests", false, vec![]),
                ],
            ),
            task("Document", false, vec![]),
            task("Build docs", false, vec![]),
        ]
    }

    #[test]
    fn paths_parse_and_print() {
        assert_eq!(TaskPath::parse("1.2.30").unwrap().to_string(), "1.2.30");
        assert_eq!(TaskPath::parse("1.2").unwrap().0, vec![0, 1]);
        for not_a_path in [
            "", "0", "1.", ".1", "1..2", "01", "1.02", "a", "1 .2", "-1", "+1",
        ] {
            assert_eq!(TaskPath::parse(not_a_path), None, "{not_a_path}");
        }
        let huge = TaskPath::parse("99999999999999999999999").unwrap();
        assert_eq!(get(&sample(), &huge), None);
    }

    #[test]
    fn parent_boxes_are_derived_bottom_up() {
        let mut tasks = sample();
        let changed = derive_boxes(&mut tasks);
        assert_eq!(changed, vec![(TaskPath(vec![0]), false)]);
        assert!(!tasks[0].done);
        let mut nested = vec![task(
            "a",
            false,
            vec![task("b", false, vec![task("c", true, vec![])])],
        )];
        let changed: Vec<String> = derive_boxes(&mut nested)
            .iter()
            .map(|(p, d)| format!("{p}={d}"))
            .collect();
        assert_eq!(changed, ["1=true", "1.1=true"]);
    }

    #[test]
    fn counts_and_open_leaves() {
        let tasks = sample();
        assert_eq!(counts(&tasks), (2, 5));
        assert_eq!(path_list(&open_leaves(&tasks)), "1.2, 2, 3");
        assert_eq!(
            described_list(&open_leaves(&tasks)[..1]),
            "1.2 (Write tests)"
        );
    }

    #[test]
    fn resolution_by_path_exact_text_then_unique_substring() {
        let tasks = sample();
        let found = |id: &str| resolve(&tasks, id).map(|p| p.to_string());
        assert_eq!(found("1.2"), Ok("1.2".into()));
        assert_eq!(found("4"), Err(Unresolved::NotFound));
        assert_eq!(found("1.3"), Err(Unresolved::NotFound));
        // "Build" is exact for task 1 although "Build docs" contains it.
        assert_eq!(found("Build"), Ok("1".into()));
        assert_eq!(found("write TESTS"), Ok("1.2".into()));
        assert_eq!(found("docs"), Ok("3".into()));
        assert_eq!(
            found("write"),
            Err(Unresolved::Ambiguous(vec![
                TaskPath(vec![0, 0]),
                TaskPath(vec![0, 1])
            ]))
        );
        assert_eq!(found("nothing like it"), Err(Unresolved::NotFound));
        let twins = vec![task("same", false, vec![]), task("same", false, vec![])];
        assert_eq!(
            resolve(&twins, "same"),
            Err(Unresolved::Ambiguous(vec![
                TaskPath(vec![0]),
                TaskPath(vec![1])
            ]))
        );
    }
}
