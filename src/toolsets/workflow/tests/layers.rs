// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The modules point one way: `machine` uses `files`, and `files` knows
//! nothing of `machine` (no cycle between the two).

#[test]
fn the_files_module_imports_nothing_of_the_machine() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/toolsets/workflow/files");
    let mut read = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for needle in [
            "workflow::machine",
            "super::machine",
            "super::super::machine",
        ] {
            assert!(!text.contains(needle), "{} names {needle}", path.display());
        }
        read += 1;
    }
    assert!(read >= 9, "only {read} files read in {dir}");
}
