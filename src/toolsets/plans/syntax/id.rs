// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Identifiers: the "safe id" rule shared by plan ids and task ids, and the
//! generated task id `t_` + 32 hex digits in UUID-v4 layout, from the
//! randomness it is handed.

use crate::runtime::entropy::Entropy;

/// `/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/`: 1 to 128 characters, the first a
/// letter or digit. Plan ids become file names, so this is also a path guard.
pub(crate) fn is_safe(id: &str) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 128
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A new task id from `entropy`: `t_` and the 32 lowercase hex digits of
/// a random UUID v4 without its dashes, as
/// `"t_" + crypto.randomUUID().replaceAll("-", "")`.
pub(crate) fn generate(entropy: &dyn Entropy) -> String {
    let mut bytes = [0u8; 16];
    entropy.fill(&mut bytes);
    format_v4(bytes)
}

/// Lays 16 random bytes out as a version-4, variant-1 UUID in hex.
fn format_v4(mut bytes: [u8; 16]) -> String {
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    format!("t_{}", hex::encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_ids() {
        for good in ["a", "0", "t_a", "A-b_c", &"x".repeat(128)] {
            assert!(is_safe(good), "{good}");
        }
        for bad in ["", "_x", "-x", "a.b", "a b", "é", "../x", &"x".repeat(129)] {
            assert!(!is_safe(bad), "{bad}");
        }
    }

    #[test]
    fn generated_ids_look_like_uuid_v4_hex() {
        use crate::runtime::clock::Clock;
        use crate::runtime::entropy::{Counting, SystemEntropy};

        let system = SystemEntropy::new(Clock::system());
        let id = generate(&system);
        assert_eq!(id.len(), 34);
        assert!(id.starts_with("t_"));
        let hex = &id[2..];
        assert!(
            hex.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        assert_eq!(&hex[12..13], "4", "version nibble");
        assert!(matches!(&hex[16..17], "8" | "9" | "a" | "b"), "variant");
        assert!(is_safe(&id));
        assert_ne!(generate(&system), generate(&system));
        // Handed fixed randomness, the ids are fixed too.
        let counting = Counting::default();
        assert_eq!(generate(&counting), "t_00000000000040008000000000000000");
        assert_eq!(generate(&counting), "t_00000000000040008000000000000001");
        assert_eq!(format_v4([0xff; 16]), "t_ffffffffffff4fffbfffffffffffffff");
    }
}
