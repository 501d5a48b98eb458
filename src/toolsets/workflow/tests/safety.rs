// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The safety layer's refusals: each is an error that names what is wrong
//! and leaves the directory byte-identical.

use std::fs::File;
use std::os::unix::fs::symlink;

use super::fixtures::*;
use crate::runtime::clock::Clock;
use crate::toolsets::workflow::cast::Caster;
use crate::toolsets::workflow::config::WorkflowSettings;
use crate::toolsets::workflow::disk::apply::Fault;
use crate::toolsets::workflow::files::names::STATE;
use crate::toolsets::workflow::machine::context::Context;
use crate::toolsets::workflow::machine::spell::Spell;
use crate::toolsets::workflow::machine::state::State;
use crate::toolsets::workflow::machine::state_json::StateDoc;

fn at(project: &Project, state: State) {
    project.write(STATE, &StateDoc::new(state, Context::default()).render());
}

/// A project about to integrate a task's results (row A2).
fn integrating() -> Project {
    let project = Project::new();
    at(&project, State::AchieveTaskExecuted);
    project.write("plan.md", PLAN_OPEN);
    project.write("task.md", TASK_READY);
    project.write("task-results.md", RESULTS_ONE);
    project
}

/// Casts `spell` expecting a refusal; the directory must not change.
fn refused(project: &Project, spell: Spell, note: Option<&str>, fault: Fault) -> String {
    let before = project.tree();
    let Err(error) = project.try_cast(spell, note, fault) else {
        panic!("{spell:?} was not refused");
    };
    assert_eq!(project.tree(), before, "{error}");
    error.to_string()
}

#[test]
fn a_failure_at_any_effect_undoes_the_ones_before() {
    let effects = integrating().cast(Spell::Accio, None).effects.len();
    assert_eq!(
        effects, 7,
        "2 folders, 2 moves, plan.md, task.md, state.json"
    );
    for at in 0..effects {
        let project = integrating();
        let error = refused(&project, Spell::Accio, None, Fault::Fail(at));
        assert_eq!(
            error,
            "cannot carry out .ai/task: injected failure; nothing was changed"
        );
    }
}

#[test]
fn an_os_error_names_the_path_and_changes_nothing() {
    let project = integrating();
    project.write("tasks", "a file where the archive folder goes");
    let error = refused(&project, Spell::Accio, None, Fault::None);
    assert_eq!(
        error,
        "cannot create the folder .ai/task/tasks: a file is in the way; nothing was changed"
    );
}

#[test]
fn symlinks_are_never_written_through() {
    let project = integrating();
    let outside = project.root.path().join("outside.md");
    std::fs::write(&outside, PLAN_OPEN).unwrap();
    std::fs::remove_file(project.path("plan.md")).unwrap();
    symlink(&outside, project.path("plan.md")).unwrap();
    let error = refused(&project, Spell::Accio, None, Fault::None);
    assert_eq!(
        error,
        ".ai/task/plan.md is a symbolic link; the workflow never writes through one, so nothing was changed"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), PLAN_OPEN);

    let project = integrating();
    symlink(project.root.path(), project.path("tasks")).unwrap();
    let error = refused(&project, Spell::Accio, None, Fault::None);
    assert!(
        error.starts_with(".ai/task/tasks is a symbolic link"),
        "{error}"
    );
}

/// `.ai` a symbolic link to a folder outside the project: every spell that
/// writes is refused before it creates anything, there or here; Lumos
/// still reads through it.
#[test]
fn a_symlinked_ai_folder_leads_no_write_outside_the_project() {
    let project = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), project.path().join(".ai")).unwrap();
    let workflow = Caster::new(
        WorkflowSettings::default().setup(project.path()),
        Clock::fixed(now()),
    );
    for spell in [Spell::Accio, Spell::Reparo, Spell::Finite, Spell::Reverto] {
        let error = workflow.cast(spell, None).unwrap_err().to_string();
        assert_eq!(
            error,
            ".ai is a symbolic link; the workflow never writes through one, so nothing was changed"
        );
    }
    let outside_entries = std::fs::read_dir(outside.path()).unwrap().count();
    assert_eq!(outside_entries, 0, "nothing was created outside");
    // With the workflow's files already there, Lumos reads them; a spell
    // still writes nothing.
    std::fs::create_dir(outside.path().join("task")).unwrap();
    std::fs::write(outside.path().join("task/plan.md"), PLAN_OPEN).unwrap();
    let lumos = workflow.cast(Spell::Lumos, None).unwrap();
    assert!(lumos.starts_with("state: GATHER_READY\n"), "{lumos}");
    assert!(workflow.cast(Spell::Accio, None).is_err());
    let names: Vec<_> = std::fs::read_dir(outside.path().join("task"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["plan.md"]);
}

#[test]
fn files_over_max_file_bytes_are_not_read() {
    let settings = WorkflowSettings {
        max_file_bytes: 4096,
        ..WorkflowSettings::default()
    };
    let project = Project::with(settings);
    at(&project, State::AchieveTaskDrafting);
    project.write("plan.md", PLAN_OPEN);
    project.write("task.md", &"x".repeat(5000));
    let error = refused(&project, Spell::Accio, None, Fault::None);
    assert_eq!(
        error,
        ".ai/task/task.md is 5000 bytes, more than max_file_bytes (4096); nothing was changed"
    );
    // A file no row of this call reads may be large.
    project.cast(Spell::Reparo, None);
}

#[test]
fn a_fifo_is_not_read() {
    let project = Project::new();
    at(&project, State::GatherEditing);
    let status = std::process::Command::new("mkfifo")
        .arg(project.path("plan.md"))
        .status()
        .unwrap();
    assert!(status.success());
    let error = refused(&project, Spell::Accio, None, Fault::None);
    assert_eq!(
        error,
        ".ai/task/plan.md is not a regular file; nothing was changed"
    );
}

#[test]
fn a_newer_state_file_is_left_alone() {
    let project = Project::new();
    project.write(STATE, "{\"version\": 2, \"current_state\": \"FUTURE\"}");
    for spell in Spell::ALL {
        let error = refused(&project, spell, None, Fault::None);
        assert_eq!(
            error,
            "state.json was written by a newer planning-mcp-server"
        );
    }
}

/// Boards refuse a version no release wrote; so does the workflow, on
/// every spell, Lumos included, and the file stays as it is.
#[test]
fn a_state_file_of_version_0_or_below_is_left_alone() {
    for version in ["0", "-1", "0.5"] {
        let project = Project::new();
        project.write(
            STATE,
            &format!("{{\"version\": {version}, \"current_state\": \"GATHER_EDITING\"}}"),
        );
        for spell in Spell::ALL {
            let error = refused(&project, spell, None, Fault::None);
            assert_eq!(
                error,
                format!(
                    "state.json has version {version}, which no planning-mcp-server writes (this one reads version 1); it is left as it is, so nothing was changed (fix the version, or move the file away to rebuild the state from the files)"
                )
            );
        }
    }
}

#[test]
fn a_long_note_is_refused() {
    let project = Project::new();
    let error = refused(&project, Spell::Accio, Some(&"n".repeat(501)), Fault::None);
    assert_eq!(
        error,
        "note is 501 characters long; at most 500 are allowed"
    );
}

#[test]
fn a_busy_directory_times_out_and_changes_nothing() {
    let settings = WorkflowSettings {
        lock_timeout_ms: 100,
        ..WorkflowSettings::default()
    };
    let project = Project::with(settings);
    let other = File::open(project.path(".lock")).unwrap();
    other.lock().unwrap();
    for spell in [Spell::Accio, Spell::Lumos] {
        let error = refused(&project, spell, None, Fault::None);
        assert_eq!(
            error,
            "another process is running a spell on .ai/task; try again"
        );
    }
    other.unlock().unwrap();
    project.cast(Spell::Accio, None);
}

#[test]
fn lumos_creates_nothing() {
    let root = tempfile::tempdir().unwrap();
    let workflow = crate::toolsets::workflow::cast::Caster::new(
        WorkflowSettings::default().setup(root.path()),
        Clock::fixed(now()),
    );
    let reply = workflow.cast(Spell::Lumos, None).unwrap();
    assert!(
        reply.starts_with("state: GATHER_NEEDS_PLAN\ntransition: none\n"),
        "{reply}"
    );
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    let reply = workflow.cast(Spell::Reverto, None).unwrap();
    assert!(reply.contains("transition: blocked (V0)"), "{reply}");
    let mut made: Vec<String> = std::fs::read_dir(workflow.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    assert_eq!(
        made,
        [".gitignore", ".lock"],
        "a blocked spell creates only D (born with its ignore rule) and its lock"
    );
}

#[test]
fn history_keeps_max_history_entries_and_unknown_keys() {
    let settings = WorkflowSettings {
        max_history: 3,
        ..WorkflowSettings::default()
    };
    let project = Project::with(settings);
    project.write(
        STATE,
        "{\"mine\": {\"z\": 1, \"a\": 2}, \"current_state\": \"GATHER_EDITING\", \"history\": []}",
    );
    project.write("plan.md", PLAN_OPEN);
    for _ in 0..5 {
        project.cast(Spell::Finite, Some("again"));
    }
    let text = project.read(STATE);
    assert_eq!(text.matches("\"rule\": \"F0\"").count(), 3, "{text}");
    assert!(
        text.ends_with("  ],\n  \"mine\": {\n    \"z\": 1,\n    \"a\": 2\n  }\n}\n"),
        "{text}"
    );
}

#[test]
fn archive_names_take_the_next_free_suffix() {
    let project = integrating();
    project.write(&format!("tasks/task-implement-sum-{STAMP}/keep"), "");
    project.write(&format!("tasks/task-implement-sum-{STAMP}-2/keep"), "");
    let decision = project.cast(Spell::Accio, None);
    let dir = format!("tasks/task-implement-sum-{STAMP}-3");
    assert!(decision.reply.contains(&dir), "{}", decision.reply);
    assert_eq!(project.read(&format!("{dir}/task.md")), TASK_READY);
}
