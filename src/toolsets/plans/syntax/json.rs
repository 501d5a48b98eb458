// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Pretty JSON as `JSON.stringify(value, null, 2)` writes it (and as
//! `serde_json::to_string_pretty` does), made faster for large results: a
//! whole plan is thousands of short keys and values, and serde_json's pretty
//! printer writes each level of indentation as a separate two-byte write.
//! This one writes a line break and its indentation in one piece.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};

/// `",\n"` followed by the spaces of the deepest indentation written in one
/// piece; deeper levels (not met in plans) are written a level at a time.
const BREAK: &[u8] = b",\n                                                                ";

/// The formatter of `serde_json::ser::PrettyFormatter` with a two-space
/// indent, method for method, except that indentation is one write.
#[derive(Debug, Default)]
struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    /// A line break (after a comma if `comma`) and the indentation of `level`.
    fn line_break<W: ?Sized + io::Write>(
        writer: &mut W,
        level: usize,
        comma: bool,
    ) -> io::Result<()> {
        let start = if comma { 0 } else { 1 };
        let end = 2 + 2 * level;
        if end <= BREAK.len() {
            return writer.write_all(&BREAK[start..end]);
        }
        writer.write_all(&BREAK[start..2])?;
        for _ in 0..level {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + io::Write>(&mut self, writer: &mut W, open: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(open)
    }

    fn end<W: ?Sized + io::Write>(&mut self, writer: &mut W, close: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            Self::line_break(writer, self.level, false)?;
        }
        writer.write_all(close)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        Self::line_break(writer, self.level, !first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        Self::line_break(writer, self.level, !first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as pretty JSON, into a buffer of `capacity` bytes to start with
/// (a good guess saves copying a large result as it grows).
pub(crate) fn to_string_pretty<T: ?Sized + Serialize>(
    value: &T,
    capacity: usize,
) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(capacity);
    value.serialize(&mut Serializer::with_formatter(&mut out, Pretty::default()))?;
    // serde_json writes only UTF-8; the check costs a fraction of the writing.
    String::from_utf8(out).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    #[test]
    fn same_bytes_as_serde_json() {
        for value in [
            json!(null),
            json!([]),
            json!({}),
            json!([[]]),
            json!({"a": {}, "b": [], "c": [{}], "d": [[1, [2, []]], {"e": null}]}),
            json!({"plan": {"tasks": [{"id": "a", "children": [{"id": "b", "children": []}]}]}}),
            json!("é \u{1} \" \\ √"),
        ] {
            assert_eq!(
                to_string_pretty(&value, 0).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
        // Deeper than the indentation written in one piece.
        let mut deep = json!(1);
        for _ in 0..40 {
            deep = json!([deep, {"k": deep}]);
            if deep.to_string().len() > 100_000 {
                break;
            }
        }
        let mut nested = json!("x");
        for _ in 0..45 {
            nested = json!({"k": [nested]});
        }
        for value in [deep, nested] {
            assert_eq!(
                to_string_pretty(&value, 16).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }

    fn values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            "[a-z√\"\\\\\n]{0,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(6, 64, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
                prop::collection::btree_map("[a-z]{1,3}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_value_prints_as_serde_json_prints_it(value in values()) {
            prop_assert_eq!(
                to_string_pretty(&value, 0).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }
}
