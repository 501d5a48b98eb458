// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The Standard Webhooks signature (standardwebhooks.com, "Signature
//! scheme"): `v1,` and the base64 of the HMAC-SHA256 of
//! `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the secret's bytes
//! (the base64 after `whsec_`). HMAC (RFC 2104) is written out here on
//! `sha2`, the hash the crate already uses, rather than adding a crate for
//! twenty lines; the tests check it against RFC 4231 and the
//! specification's published example.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// SHA-256's block size in bytes.
const BLOCK: usize = 64;

/// The secret a webhook is signed with: its bytes. `Debug` hides them.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SigningKey(Vec<u8>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(***)")
    }
}

impl SigningKey {
    /// The key of `secret`, `whsec_` followed by base64 (the form Standard
    /// Webhooks libraries generate and read), or what is wrong with it.
    pub(crate) fn parse(secret: &str) -> Result<Self, String> {
        let Some(encoded) = secret.trim().strip_prefix("whsec_") else {
            return Err(
                "must be `whsec_` followed by base64 (e.g. 24 random bytes: \
                 `echo whsec_$(head -c 24 /dev/urandom | base64)`), as Standard Webhooks want"
                    .into(),
            );
        };
        let bytes = STANDARD
            .decode(encoded)
            .map_err(|_| "after `whsec_` must come base64 (A-Z a-z 0-9 + /, = padding)")?;
        match bytes.len() {
            24..=64 => Ok(Self(bytes)),
            n => Err(format!(
                "holds {n} bytes after `whsec_`; Standard Webhooks want 24 to 64"
            )),
        }
    }

    /// The `webhook-signature` header's value for message `id` sent at
    /// `timestamp` (Unix seconds) with `body`.
    pub(crate) fn sign(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        let signed = [
            id.as_bytes(),
            b".",
            timestamp.to_string().as_bytes(),
            b".",
            body,
        ]
        .concat();
        format!("v1,{}", STANDARD.encode(hmac_sha256(&self.0, &signed)))
    }
}

/// HMAC-SHA256 of `message` under `key` (RFC 2104).
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; BLOCK];
    match key.len() > BLOCK {
        true => block[..32].copy_from_slice(&Sha256::digest(key)),
        false => block[..key.len()].copy_from_slice(key),
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1, 2 and 6 (a key longer than the block).
        let cases: [(&[u8], &[u8], &str); 3] = [
            (
                &[0x0b; 20],
                b"Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            ),
            (
                b"Jefe",
                b"what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            ),
            (
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            ),
        ];
        for (key, message, expected) in cases {
            assert_eq!(hex::encode(hmac_sha256(key, message)), expected);
        }
    }

    #[test]
    fn the_specifications_example_signs_as_published() {
        let key = SigningKey::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let signature = key.sign(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_secret_without_its_prefix_or_base64_is_refused_with_how_to_fix_it() {
        for (secret, says) in [
            ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "must be `whsec_`"),
            ("whsec_not base64!", "must come base64"),
            ("whsec_c2hvcnQ=", "holds 5 bytes"),
            ("", "must be `whsec_`"),
        ] {
            let error = SigningKey::parse(secret).unwrap_err();
            assert!(error.contains(says), "{secret}: {error}");
        }
        assert_eq!(format!("{:?}", SigningKey(vec![1])), "SigningKey(***)");
    }
}
