// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The overlap test against globset itself: on random globs and paths, the
//! automaton matches exactly what globset matches; two globs that globset
//! finds a common path for always overlap; and every overlap's example is
//! a path globset matches with both.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use proptest::prelude::*;

use super::nfa::common_string;
use super::*;

/// Pieces of globs: literals, separators, every kind of wildcard.
const ATOMS: &[&str] = &[
    "a", "b", "ab", "x.rs", "/", "*", "?", "**", "[ab]", "[!a]", "[a-c]", "{a,b}", "{a/b,c}",
    "{*.rs,x}", ".", "-", "é",
];

/// Pieces of paths.
const PARTS: &[&str] = &[
    "a", "b", "ab", "x.rs", "c", ".", "-", "a.b", "é", "ba", "abc",
];

fn globs() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(ATOMS), 1..6)
        .prop_map(|atoms| atoms.concat())
}

fn paths() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PARTS), 1..5)
        .prop_map(|parts| parts.join("/"))
}

fn path(bytes: &[u8]) -> &Path {
    Path::new(OsStr::from_bytes(bytes))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_automaton_matches_what_globset_matches(glob in globs(), paths in proptest::collection::vec(paths(), 8)) {
        let Ok(pattern) = Pattern::new(&glob) else { return Ok(()) };
        let Some(matcher) = pattern.matcher() else { return Err(TestCaseError::fail("no matcher")) };
        for candidate in &paths {
            prop_assert_eq!(
                pattern.nfa().matches(candidate.as_bytes()),
                matcher.is_match(candidate),
                "{} on {}", glob, candidate
            );
        }
    }

    #[test]
    fn overlaps_are_exact(a in globs(), b in globs(), paths in proptest::collection::vec(paths(), 16)) {
        let (Ok(x), Ok(y)) = (Pattern::new(&a), Pattern::new(&b)) else { return Ok(()) };
        let (Some(mx), Some(my)) = (x.matcher(), y.matcher()) else {
            return Err(TestCaseError::fail("no matcher"));
        };
        let common = common_string(x.nfa(), y.nfa());
        if let Some(example) = &common {
            prop_assert!(mx.is_match(path(example)), "{} does not match {:?}", a, example);
            prop_assert!(my.is_match(path(example)), "{} does not match {:?}", b, example);
        }
        if let Some(shared) = paths.iter().find(|p| mx.is_match(p) && my.is_match(p)) {
            prop_assert!(common.is_some(), "{} and {} share {} but no overlap was found", a, b, shared);
        }
        // The test is symmetric.
        prop_assert_eq!(common.is_some(), common_string(y.nfa(), x.nfa()).is_some());
    }
}

#[test]
fn touch_sets_overlap_when_a_pattern_of_each_does() {
    let parse =
        |p: &[&str]| Touches::parse(&p.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    let parser = parse(&["src/parser/**", "tests/parser.rs"]);
    let cli = parse(&["src/cli/**", "docs/cli.md"]);
    let docs = parse(&["docs/*.md"]);
    assert_eq!(parser.overlap(&cli), None);
    assert_eq!(
        cli.overlap(&docs),
        Some(Overlap {
            ours: "docs/cli.md".into(),
            theirs: "docs/*.md".into(),
            example: Some("docs/cli.md".into())
        })
    );
    assert_eq!(parse(&[]).overlap(&docs), None, "no touches, no overlap");
    assert_eq!(
        parse(&["a", "a", "b"]).texts(),
        ["a", "b"],
        "repeats dropped"
    );
    let many: Vec<String> = (0..=MAX_PATTERNS).map(|n| format!("f{n}")).collect();
    assert_eq!(
        Touches::parse(&many).unwrap_err().to_string(),
        "A task touches at most 32 patterns; 33 were given."
    );
}

#[test]
fn an_adversarial_pair_of_long_patterns_is_decided() {
    let star = "*a".repeat(60);
    let other = "a*".repeat(60) + "b";
    let (x, y) = (Pattern::new(&star).unwrap(), Pattern::new(&other).unwrap());
    assert_eq!(
        common_string(x.nfa(), y.nfa()),
        None,
        "one ends in a, one in b"
    );
    let z = Pattern::new(&("a*".repeat(60) + "a")).unwrap();
    let example = common_string(x.nfa(), z.nfa()).unwrap();
    assert!(x.nfa().matches(&example) && z.nfa().matches(&example));
}

/// 32 patterns of wildcards around one segment, `x{k}` or `y{k}`: no path
/// matches one of each, but no literal prefix or suffix tells them apart,
/// so each pair's search walks the product of two large automata.
fn intricate(mid: &str, unit: &str, n: usize) -> Touches {
    let patterns: Vec<String> = (0..MAX_PATTERNS)
        .map(|k| format!("{}/{mid}{k}/{}", unit.repeat(n), unit.repeat(n)))
        .collect();
    Touches::parse(&patterns).unwrap()
}

#[test]
fn an_intricate_pair_of_sets_is_counted_as_overlapping_within_the_budget() {
    // Unbounded, this pair took 50 s in a debug build (1,024 searches of
    // about 30,000 pairs of states each).
    let x = intricate("x", "*?", 60);
    let y = intricate("y", "*?", 60);
    let first = (x.patterns[0].nfa(), y.patterns[0].nfa());
    let mut unbounded = usize::MAX;
    assert_eq!(
        nfa::search(first.0, first.1, &mut unbounded),
        nfa::Shared::Disjoint,
        "the two patterns share no path"
    );
    let one_pair = usize::MAX - unbounded;
    assert!(
        one_pair * MAX_PATTERNS * MAX_PATTERNS > SEARCH_BUDGET,
        "{one_pair}"
    );
    let overlap = x.overlap(&y).expect("counted as overlapping");
    assert_eq!(overlap.example, None);
    let conflict = Conflict {
        task: TaskId::from_content("x", ""),
        other: TaskId::from_content("y", ""),
        holder: None,
        overlap,
    };
    assert!(
        conflict.describe().ends_with(
            "(too intricate to tell apart within the search's bound, so counted as overlapping)"
        ),
        "{}",
        conflict.describe()
    );
    // A smaller budget is not needed for simple sets: told apart exactly.
    assert_eq!(
        intricate("x", "?", 2).overlap(&intricate("y", "?", 2)),
        None
    );
}
