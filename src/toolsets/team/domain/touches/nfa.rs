// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A glob as an automaton over bytes, and whether two globs share a path.
//!
//! The automaton is built from the regular expression that globset itself
//! makes of the glob (`Glob::regex`), not from the glob's text: globset's
//! parser decides what every `*`, `**`, `{a,b}` and `[...]` means, and
//! this module only reads the small regular language its translation
//! uses: `(?-u)^ ... $` around literals (escaped with `\`, non-ASCII bytes
//! as `\xNN`), `.` (any byte but `\n`), classes `[...]` and `[^...]` of
//! bytes and byte ranges, groups `(?:a|b)`, and the postfix `*` and `?`.
//! Matching is byte-wise, as globset's is. Anything else is refused, so a
//! glob this module cannot read exactly is never judged.
//!
//! Two globs share a path when some byte string is accepted by both
//! automata: a breadth-first search over pairs of states (the product
//! automaton), which also gives the shortest such string as an example.
//! The search is exact: it says "overlap" only with an example that both
//! globs match, and "no overlap" only when no string matches both. It is
//! bounded: past its budget of pairs it gives up and says so (the caller
//! then counts the two as overlapping).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// A set of bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    const EMPTY: ByteSet = ByteSet([0; 4]);

    fn byte(b: u8) -> Self {
        let mut set = Self::EMPTY;
        set.insert(b);
        set
    }

    fn insert(&mut self, b: u8) {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
    }

    fn insert_range(&mut self, from: u8, to: u8) {
        for b in from..=to {
            self.insert(b);
        }
    }

    /// Whether `b` is in the set.
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    fn complement(self) -> Self {
        ByteSet(self.0.map(|word| !word))
    }

    fn intersect(self, other: Self) -> Self {
        ByteSet([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
            self.0[3] & other.0[3],
        ])
    }

    /// A byte of the set, a readable one if it has one (letters, digits,
    /// `_`, `-`, `.`), for examples people read.
    fn pick(&self) -> Option<u8> {
        let readable = (b'a'..=b'z').chain(b'0'..=b'9').chain(*b"_-.");
        readable.chain(0..=u8::MAX).find(|b| self.contains(*b))
    }
}

/// One state: the bytes that lead on, and the moves that take none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct State {
    edges: Vec<(ByteSet, usize)>,
    empty: Vec<usize>,
}

/// An automaton (Thompson's construction) with one start and one
/// accepting state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Nfa {
    states: Vec<State>,
    start: usize,
    accept: usize,
    /// The bytes every accepted string starts with.
    prefix: Vec<u8>,
    /// The bytes every accepted string ends with.
    suffix: Vec<u8>,
}

/// Why a regular expression could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreadable(pub String);

/// The parsed expression.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Bytes(ByteSet),
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    Star(Box<Node>),
    Optional(Box<Node>),
}

/// The most states an automaton may have: a bound on the work of one
/// overlap test (the product of two automata), far above what a glob of
/// the allowed length makes.
pub(crate) const MAX_STATES: usize = 4096;

impl Nfa {
    /// The automaton of `regex`, as globset writes one (`(?-u)^...$`).
    pub(crate) fn from_glob_regex(regex: &str) -> Result<Self, Unreadable> {
        let body = regex
            .strip_prefix("(?-u)^")
            .and_then(|rest| rest.strip_suffix('$'))
            .ok_or_else(|| Unreadable(format!("not an anchored byte regex: {regex}")))?;
        let mut parser = Parser {
            bytes: body.as_bytes(),
            at: 0,
        };
        let node = parser.alternate()?;
        if parser.at != parser.bytes.len() {
            return Err(Unreadable(format!(
                "unexpected '{}' at {}",
                char::from(parser.bytes[parser.at]),
                parser.at
            )));
        }
        let (prefix, suffix) = (literal_ends(&node, false), literal_ends(&node, true));
        let mut nfa = Nfa {
            states: Vec::new(),
            start: 0,
            accept: 0,
            prefix,
            suffix,
        };
        let (start, accept) = nfa.build(&node)?;
        nfa.start = start;
        nfa.accept = accept;
        Ok(nfa)
    }

    /// The automaton that accepts exactly `text`'s bytes.
    pub(crate) fn literal(text: &str) -> Self {
        let node = Node::Concat(
            text.bytes()
                .map(|b| Node::Bytes(ByteSet::byte(b)))
                .collect(),
        );
        let mut nfa = Nfa {
            states: Vec::new(),
            start: 0,
            accept: 0,
            prefix: text.as_bytes().to_vec(),
            suffix: text.as_bytes().to_vec(),
        };
        // A literal of bounded length never comes near the state bound.
        if let Ok((start, accept)) = nfa.build(&node) {
            nfa.start = start;
            nfa.accept = accept;
        }
        nfa
    }

    /// An estimate of the bytes it holds on the heap (its states, their
    /// moves, its prefix and suffix), for memory bounds by size.
    pub(crate) fn heap_bytes(&self) -> usize {
        let moves = self.states.iter().map(|state| {
            state.edges.capacity() * size_of::<(ByteSet, usize)>()
                + state.empty.capacity() * size_of::<usize>()
        });
        self.states.capacity() * size_of::<State>()
            + moves.sum::<usize>()
            + self.prefix.capacity()
            + self.suffix.capacity()
    }

    fn add(&mut self) -> Result<usize, Unreadable> {
        if self.states.len() >= MAX_STATES {
            return Err(Unreadable(format!(
                "it needs more than {MAX_STATES} states"
            )));
        }
        self.states.push(State::default());
        Ok(self.states.len() - 1)
    }

    /// The fragment of `node`: its start and end state.
    fn build(&mut self, node: &Node) -> Result<(usize, usize), Unreadable> {
        match node {
            Node::Bytes(set) => {
                let (from, to) = (self.add()?, self.add()?);
                self.states[from].edges.push((*set, to));
                Ok((from, to))
            }
            Node::Concat(nodes) => {
                let start = self.add()?;
                let mut end = start;
                for node in nodes {
                    let (from, to) = self.build(node)?;
                    self.states[end].empty.push(from);
                    end = to;
                }
                Ok((start, end))
            }
            Node::Alternate(nodes) => {
                let (start, end) = (self.add()?, self.add()?);
                for node in nodes {
                    let (from, to) = self.build(node)?;
                    self.states[start].empty.push(from);
                    self.states[to].empty.push(end);
                }
                Ok((start, end))
            }
            Node::Star(inner) => {
                let (start, end) = (self.add()?, self.add()?);
                let (from, to) = self.build(inner)?;
                self.states[start].empty.extend([from, end]);
                self.states[to].empty.extend([from, end]);
                Ok((start, end))
            }
            Node::Optional(inner) => {
                let (start, end) = (self.add()?, self.add()?);
                let (from, to) = self.build(inner)?;
                self.states[start].empty.extend([from, end]);
                self.states[to].empty.push(end);
                Ok((start, end))
            }
        }
    }

    /// Whether the automaton accepts `input` (tests compare it with
    /// globset's own matcher).
    #[cfg(test)]
    pub(crate) fn matches(&self, input: &[u8]) -> bool {
        let mut current = self.closure(vec![self.start]);
        for &b in input {
            let next: Vec<usize> = current
                .iter()
                .flat_map(|&s| self.states[s].edges.iter())
                .filter(|(set, _)| set.contains(b))
                .map(|(_, to)| *to)
                .collect();
            current = self.closure(next);
            if current.is_empty() {
                return false;
            }
        }
        current.contains(&self.accept)
    }

    /// Every state reachable from `states` without reading a byte.
    #[cfg(test)]
    fn closure(&self, mut stack: Vec<usize>) -> Vec<usize> {
        let mut seen = vec![false; self.states.len()];
        let mut out = Vec::new();
        while let Some(state) = stack.pop() {
            if std::mem::replace(&mut seen[state], true) {
                continue;
            }
            out.push(state);
            stack.extend(&self.states[state].empty);
        }
        out
    }
}

/// What the search of two automata for a shared string found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shared {
    /// The shortest byte string both accept.
    Example(Vec<u8>),
    /// No string is accepted by both.
    Disjoint,
    /// The search ran out of its budget before it could tell.
    GaveUp,
}

/// The shortest byte string both automata accept, if there is one; the
/// search visits at most `budget` pairs of states (what it visits is taken
/// off `budget`), and gives up beyond.
pub(crate) fn search(a: &Nfa, b: &Nfa, budget: &mut usize) -> Shared {
    if !compatible(&a.prefix, &b.prefix, false) || !compatible(&a.suffix, &b.suffix, true) {
        return Shared::Disjoint;
    }
    let width = b.states.len();
    let index = |p: usize, q: usize| p * width + q;
    // How each pair was reached: from which pair, reading which byte. A
    // map, not a table of every pair: its cost follows the pairs visited.
    let mut from: HashMap<usize, (usize, Option<u8>)> = HashMap::new();
    let start = index(a.start, b.start);
    from.insert(start, (start, None));
    let mut queue = VecDeque::from([(a.start, b.start)]);
    while let Some((p, q)) = queue.pop_front() {
        let Some(left) = budget.checked_sub(1) else {
            return Shared::GaveUp;
        };
        *budget = left;
        let here = index(p, q);
        if p == a.accept && q == b.accept {
            return Shared::Example(path(&from, here, start));
        }
        let mut visit = |p2: usize, q2: usize, byte: Option<u8>| {
            if let Entry::Vacant(slot) = from.entry(index(p2, q2)) {
                slot.insert((here, byte));
                queue.push_back((p2, q2));
            }
        };
        for &p2 in &a.states[p].empty {
            visit(p2, q, None);
        }
        for &q2 in &b.states[q].empty {
            visit(p, q2, None);
        }
        for (set_a, p2) in &a.states[p].edges {
            for (set_b, q2) in &b.states[q].edges {
                let both = set_a.intersect(*set_b);
                if let Some(byte) = both.pick() {
                    visit(*p2, *q2, Some(byte));
                }
            }
        }
    }
    Shared::Disjoint
}

/// The shortest byte string both automata accept, if there is one (a
/// search without a budget, for tests).
#[cfg(test)]
pub(crate) fn common_string(a: &Nfa, b: &Nfa) -> Option<Vec<u8>> {
    let mut unbounded = usize::MAX;
    match search(a, b, &mut unbounded) {
        Shared::Example(bytes) => Some(bytes),
        Shared::Disjoint | Shared::GaveUp => None,
    }
}

/// Whether two literal prefixes (or, `from_end`, suffixes) can both hold:
/// one must be a prefix (suffix) of the other.
fn compatible(x: &[u8], y: &[u8], from_end: bool) -> bool {
    let n = x.len().min(y.len());
    match from_end {
        false => x[..n] == y[..n],
        true => x[x.len() - n..] == y[y.len() - n..],
    }
}

/// The bytes read on the way from `start` to `end`.
fn path(from: &HashMap<usize, (usize, Option<u8>)>, end: usize, start: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut at = end;
    while at != start {
        let Some(&(previous, byte)) = from.get(&at) else {
            break;
        };
        bytes.extend(byte);
        at = previous;
    }
    bytes.reverse();
    bytes
}

/// The literal bytes every string of `node` starts (or, `from_end`, ends)
/// with, as far as they can be read off its outermost sequence.
fn literal_ends(node: &Node, from_end: bool) -> Vec<u8> {
    let mut flat = Vec::new();
    flatten(node, &mut flat);
    if from_end {
        flat.reverse();
    }
    let mut bytes: Vec<u8> = flat.into_iter().map_while(single_byte).collect();
    if from_end {
        bytes.reverse();
    }
    bytes
}

/// `node` as a sequence, nested sequences opened (sequences are associative).
fn flatten<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    match node {
        Node::Concat(nodes) => nodes.iter().for_each(|n| flatten(n, out)),
        other => out.push(other),
    }
}

/// The one byte `node` matches, if it matches exactly one.
fn single_byte(node: &Node) -> Option<u8> {
    let Node::Bytes(set) = node else {
        return None;
    };
    let mut members = (0..=u8::MAX).filter(|b| set.contains(*b));
    match (members.next(), members.next()) {
        (Some(b), None) => Some(b),
        _ => None,
    }
}

/// A reader of the regular language globset writes.
struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Result<u8, Unreadable> {
        let b = self
            .peek()
            .ok_or_else(|| Unreadable("it ends too early".into()))?;
        self.at += 1;
        Ok(b)
    }

    fn alternate(&mut self) -> Result<Node, Unreadable> {
        let mut branches = vec![self.concat()?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            branches.push(self.concat()?);
        }
        Ok(match branches.len() {
            1 => branches.remove(0),
            _ => Node::Alternate(branches),
        })
    }

    fn concat(&mut self) -> Result<Node, Unreadable> {
        let mut nodes = Vec::new();
        while let Some(b) = self.peek() {
            if b == b'|' || b == b')' {
                break;
            }
            let atom = self.atom()?;
            let node = match self.peek() {
                Some(b'*') => {
                    self.at += 1;
                    Node::Star(Box::new(atom))
                }
                Some(b'?') => {
                    self.at += 1;
                    Node::Optional(Box::new(atom))
                }
                _ => atom,
            };
            nodes.push(node);
        }
        Ok(Node::Concat(nodes))
    }

    fn atom(&mut self) -> Result<Node, Unreadable> {
        match self.next()? {
            b'(' => {
                if self.next()? != b'?' || self.next()? != b':' {
                    return Err(Unreadable("only (?: groups are read".into()));
                }
                let inner = self.alternate()?;
                if self.next()? != b')' {
                    return Err(Unreadable("a group is not closed".into()));
                }
                Ok(inner)
            }
            b'[' => self.class(),
            b'.' => {
                let mut newline = ByteSet::byte(b'\n');
                newline = newline.complement();
                Ok(Node::Bytes(newline))
            }
            b'\\' => Ok(Node::Bytes(ByteSet::byte(self.escaped()?))),
            b'*' | b'?' | b'+' | b'{' | b'}' | b'^' | b'$' | b']' => Err(Unreadable(format!(
                "unexpected '{}'",
                char::from(self.bytes[self.at - 1])
            ))),
            b => Ok(Node::Bytes(ByteSet::byte(b))),
        }
    }

    /// The byte after a `\`: `\xNN`, or an escaped punctuation character.
    fn escaped(&mut self) -> Result<u8, Unreadable> {
        match self.next()? {
            b'x' => {
                let (high, low) = (self.next()?, self.next()?);
                let hex = [high, low];
                let text = std::str::from_utf8(&hex).map_err(|_| Unreadable("bad \\x".into()))?;
                u8::from_str_radix(text, 16).map_err(|_| Unreadable(format!("bad \\x{text}")))
            }
            b if b.is_ascii_punctuation() || b == b' ' => Ok(b),
            b => Err(Unreadable(format!(
                "the escape \\{} is not read",
                char::from(b)
            ))),
        }
    }

    /// A class, after its `[`.
    fn class(&mut self) -> Result<Node, Unreadable> {
        let negated = self.peek() == Some(b'^');
        if negated {
            self.at += 1;
        }
        let mut set = ByteSet::EMPTY;
        loop {
            let from = match self.next()? {
                b']' => break,
                b'\\' => self.escaped()?,
                b'[' => return Err(Unreadable("nested classes are not read".into())),
                b => b,
            };
            let is_range = self.peek() == Some(b'-') && self.bytes.get(self.at + 1) != Some(&b']');
            if !is_range {
                set.insert(from);
                continue;
            }
            self.at += 1;
            let to = match self.next()? {
                b'\\' => self.escaped()?,
                b => b,
            };
            if to < from {
                return Err(Unreadable("a range runs backwards".into()));
            }
            set.insert_range(from, to);
        }
        Ok(Node::Bytes(if negated { set.complement() } else { set }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nfa(glob: &str) -> Nfa {
        let glob = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .unwrap();
        Nfa::from_glob_regex(glob.regex()).unwrap()
    }

    fn common(a: &str, b: &str) -> Option<String> {
        common_string(&nfa(a), &nfa(b)).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }

    #[test]
    fn it_reads_what_globset_writes() {
        for (glob, yes, no) in [
            ("src/*.rs", "src/a.rs", "src/a/b.rs"),
            ("src/**", "src/a/b.rs", "src"),
            ("**/x.rs", "x.rs", "y.rs"),
            ("a/**/b", "a/b", "a/bb"),
            ("{a,b}/c", "b/c", "c/c"),
            ("[!a]x", "/x", "ax"),
            ("[a-c]?", "bz", "b/"),
            ("é*", "é.md", "e.md"),
            ("**", "any/thing", "\n"),
            ("a.b+c(d)", "a.b+c(d)", "aab+c(d)"),
        ] {
            let nfa = nfa(glob);
            assert!(nfa.matches(yes.as_bytes()), "{glob} {yes}");
            assert!(!nfa.matches(no.as_bytes()), "{glob} {no}");
        }
    }

    #[test]
    fn overlaps_come_with_an_example_both_match() {
        for (a, b, example) in [
            ("src/**", "src/parser/*.rs", "src/parser/.rs"),
            ("**/*.md", "docs/*", "docs/.md"),
            ("src/{a,b}.rs", "src/[b-z].rs", "src/b.rs"),
            ("x", "x", "x"),
            ("a/**/b", "a/b", "a/b"),
        ] {
            assert_eq!(common(a, b).as_deref(), Some(example), "{a} {b}");
            assert!(nfa(a).matches(example.as_bytes()));
            assert!(nfa(b).matches(example.as_bytes()));
        }
        for (a, b) in [
            ("src/**", "docs/**"),
            ("*.rs", "*.md"),
            ("src/*", "src/a/b"),
            ("a/**", "a"),
            ("[a-c]", "[d-f]"),
            ("src/*.rs", "src/**/mod.rs/x"),
        ] {
            assert_eq!(common(a, b), None, "{a} {b}");
        }
    }

    #[test]
    fn unreadable_expressions_are_refused() {
        for regex in ["^a$", "(?-u)^a", "(?-u)^a+$", "(?-u)^(?i:a)$", "(?-u)^\\d$"] {
            assert!(Nfa::from_glob_regex(regex).is_err(), "{regex}");
        }
    }

    #[test]
    fn literal_prefixes_and_suffixes_are_read() {
        let n = nfa("src/*.rs");
        assert_eq!(
            (n.prefix.as_slice(), n.suffix.as_slice()),
            (&b"src/"[..], &b".rs"[..])
        );
        let n = nfa("{a,b}");
        assert!(n.prefix.is_empty() && n.suffix.is_empty());
        assert_eq!(Nfa::literal("x/y").prefix, b"x/y");
    }
}
