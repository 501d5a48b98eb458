// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A JSON value whose objects keep their keys in document order, so that
//! keys of `state.json` the server does not know are written back as they
//! were (serde_json's own map sorts them).

use std::collections::HashMap;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value; objects keep their key order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, as serde_json holds it.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in document order (a repeated key keeps its first
    /// place and its last value).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The string, if it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries = Entries::default();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            entries.insert(key, value);
        }
        Ok(Json::Object(entries.into_vec()))
    }
}

/// An object's entries as they are read: a key that comes again keeps its
/// first place and takes its last value (as serde_json's own map does).
pub(crate) struct Entries<V> {
    entries: Vec<(String, V)>,
    /// The place of each key, once the object is too large to search: a
    /// hostile file of 100,000 keys must not cost 5·10^9 comparisons.
    places: HashMap<String, usize>,
}

impl<V> Default for Entries<V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            places: HashMap::new(),
        }
    }
}

/// Objects up to this many keys are searched; larger ones are indexed.
const SEARCHED: usize = 16;

impl<V> Entries<V> {
    /// Adds `key` with `value`, or gives an earlier `key` this value.
    pub(crate) fn insert(&mut self, key: String, value: V) {
        let place = match self.entries.len() <= SEARCHED {
            true => self.entries.iter().position(|(k, _)| *k == key),
            false => {
                if self.places.is_empty() {
                    let keys = self.entries.iter().enumerate();
                    self.places = keys.map(|(n, (k, _))| (k.clone(), n)).collect();
                }
                self.places.get(&key).copied()
            }
        };
        match place {
            Some(n) => self.entries[n].1 = value,
            None => {
                if !self.places.is_empty() {
                    self.places.insert(key.clone(), self.entries.len());
                }
                self.entries.push((key, value));
            }
        }
    }

    /// The entries in the order of their keys' first appearance.
    pub(crate) fn into_vec(self) -> Vec<(String, V)> {
        self.entries
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// A JSON value checked as a parse into [`Json`] checks it (syntax,
/// escapes, nesting depth) and dropped: nothing of it is kept or allocated.
/// It lets a reader skip a large part of a file it may need later, knowing
/// that parsing that part then cannot fail.
pub(crate) struct Checked;

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(Checked)
    }
}

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Checked, D::Error> {
        deserializer.deserialize_any(CheckedVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_survives_a_round_trip() {
        let text = r#"{"z":1,"a":{"y":[true,null,"s",1.5,-2],"b":{}},"m":"x","z":2}"#;
        let json: Json = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&json).unwrap(),
            r#"{"z":2,"a":{"y":[true,null,"s",1.5,-2],"b":{}},"m":"x"}"#
        );
    }

    #[test]
    fn checked_fails_where_a_parse_fails() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let surrogate = r#"["\ud800"]"#;
        for text in [deep.as_str(), surrogate, "[1,]", r#"{"a" 1}"#] {
            assert!(serde_json::from_str::<Json>(text).is_err(), "{text}");
            assert!(serde_json::from_str::<Checked>(text).is_err(), "{text}");
        }
        let fine = r#"{"a":[1,-2.5e3,"\u00e9\n",null,true,{}],"a":"b"}"#;
        assert!(serde_json::from_str::<Checked>(fine).is_ok());
    }

    #[test]
    fn a_large_object_keeps_first_places_and_last_values() {
        let mut text = String::from("{");
        for n in 0..40 {
            text.push_str(&format!("\"k{}\":{n},", n % 30));
        }
        text.push_str("\"k0\":\"last\"}");
        let Json::Object(entries) = serde_json::from_str(&text).unwrap() else {
            panic!("an object")
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        let expected: Vec<String> = (0..30).map(|n| format!("k{n}")).collect();
        assert_eq!(keys, expected);
        assert_eq!(entries[0].1, Json::String("last".into()));
        assert_eq!(entries[5].1, Json::Number(35.into()));
        assert_eq!(entries[29].1, Json::Number(29.into()));
    }
}
