// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Fuzzes the reader and the v1 → v2 migration of toolset `commit` with
//! arbitrary text: neither may panic; a plan the reader accepts formats to
//! a canonical text that reads back the same; a migration writes a text
//! the reader accepts and that is already canonical.

#![no_main]

use libfuzzer_sys::fuzz_target;
use planning_mcp_server::api::commit::{CommitType, Header, Limits, Reading, format, migrate, read};

/// `text` is a canonical plan: it reads as one and formats to itself.
fn assert_canonical(text: &str, limits: &Limits) {
    match read(text, limits) {
        Reading::Parsed(document) => assert_eq!(format(&document), text),
        other => panic!("not a plan: {other:?}\n{text}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    // Small limits as well, so the fuzzer reaches every limit's check.
    let small = Limits {
        max_title_length: 12,
        max_depth: 2,
        max_tasks: 4,
        max_item_length: 16,
        max_input_bytes: 256,
    };
    for limits in [Limits::default(), small] {
        if let Reading::Parsed(document) = read(text, &limits) {
            let canonical = format(&document);
            // A tolerated text (no direction, say) can format longer than the
            // limit; the tools refuse to write such a text (check_size).
            if canonical.len() <= limits.max_input_bytes {
                assert_eq!(read(&canonical, &limits), Reading::Parsed(document));
            }
        }
        if let Ok(migrated) = migrate(text, None, &limits) {
            assert_canonical(&migrated, &limits);
        }
        let goal = Header {
            kind: CommitType::Fix,
            scope: Some("fuzz".into()),
            breaking: false,
            title: "migrate".into(),
        };
        if let Ok(migrated) = migrate(text, Some(&goal), &limits) {
            assert_canonical(&migrated, &limits);
        }
    }
});
