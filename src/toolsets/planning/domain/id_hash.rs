// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The hash of the maps keyed by task ID. A task ID is four bytes of
//! SHA-256, so it needs mixing, not the standard library's SipHash: the
//! ready queue, its ranking, the digest and the replay look task IDs up
//! tens of thousands of times a call, and SipHash was most of that cost.
//! The mixer (splitmix64's finalizer) is keyed with a per-process random
//! seed taken from the standard library's own random keys, so that
//! someone who chooses task titles cannot choose which IDs collide.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::sync::LazyLock;

/// A map keyed by task ID.
pub(crate) type IdMap<V> = HashMap<super::TaskId, V, IdHash>;

/// A set of task IDs.
pub(crate) type IdSet = HashSet<super::TaskId, IdHash>;

/// This process's key.
static SEED: LazyLock<u64> = LazyLock::new(|| RandomState::new().hash_one(0x9e37_79b9_u64));

/// Builds [`IdHasher`]s keyed with this process's seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IdHash {
    seed: u64,
}

impl Default for IdHash {
    fn default() -> Self {
        Self { seed: *SEED }
    }
}

impl BuildHasher for IdHash {
    type Hasher = IdHasher;

    fn build_hasher(&self) -> IdHasher {
        IdHasher(self.seed)
    }
}

/// The hasher: each value written is mixed into the state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = mix(self.0 ^ u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = mix(self.0 ^ n);
    }

    // Any other key's bytes (only task IDs are keys here, which write one
    // u32), eight at a time.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
}

/// splitmix64's finalizer: every bit of the result depends on every bit
/// of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::super::TaskId;
    use super::*;

    fn id(n: u32) -> TaskId {
        TaskId::parse(&format!("{n:08x}")).unwrap()
    }

    #[test]
    fn ids_that_share_their_low_bits_spread_over_the_buckets() {
        // Task IDs ground to end alike would share a bucket if the low bits
        // were used as they are.
        let hash = IdHash::default();
        let buckets: HashSet<u64> = (0..1024u32)
            .map(|n| hash.hash_one(id(n << 16)) & 1023)
            .collect();
        assert!(buckets.len() > 500, "{} buckets", buckets.len());
        // One process, one key: the same ID hashes alike in every map.
        assert_eq!(IdHash::default().hash_one(id(7)), hash.hash_one(id(7)));
        let mut map: IdMap<u32> = IdMap::default();
        for n in 0..1000 {
            map.insert(id(n), n);
        }
        assert!((0..1000).all(|n| map[&id(n)] == n));
    }
}
