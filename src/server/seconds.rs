// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A duration in the config file: seconds, whole (`10`) or not (`0.5`).

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A duration given in seconds, kept to the millisecond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Seconds(u64);

/// The longest duration accepted: a day is already far beyond any wait here.
const MAX_MILLIS: u64 = 86_400_000;

impl Seconds {
    /// Whole seconds.
    pub(crate) const fn new(seconds: u64) -> Self {
        Self(seconds * 1000)
    }

    /// The duration.
    pub(crate) fn duration(self) -> Duration {
        Duration::from_millis(self.0)
    }

    /// Whether it is zero.
    pub(crate) fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl Serialize for Seconds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 % 1000 {
            0 => serializer.serialize_u64(self.0 / 1000),
            _ => serializer.serialize_f64(self.0 as f64 / 1000.0),
        }
    }
}

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seconds;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number of seconds from 0 to 86400, e.g. 10 or 0.5")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Seconds, E> {
                let millis = (v * 1000.0).round();
                if !(0.0..=MAX_MILLIS as f64).contains(&millis) {
                    return Err(E::invalid_value(serde::de::Unexpected::Float(v), &self));
                }
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "checked to be within 0..=MAX_MILLIS above"
                )]
                Ok(Seconds(millis as u64))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Seconds, String> {
        #[derive(Deserialize)]
        struct T {
            t: Seconds,
        }
        toml::from_str::<T>(&format!("t = {text}"))
            .map(|t| t.t)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn whole_and_fractional_seconds() {
        assert_eq!(parse("10").unwrap().duration(), Duration::from_secs(10));
        assert_eq!(
            parse("0.25").unwrap().duration(),
            Duration::from_millis(250)
        );
        assert!(parse("0").unwrap().is_zero());
        for bad in ["-1", "1e12", "nan", "'ten'"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(serde_json::to_string(&Seconds::new(5)).unwrap(), "5");
        assert_eq!(
            serde_json::to_string(&parse("0.5").unwrap()).unwrap(),
            "0.5"
        );
    }
}
