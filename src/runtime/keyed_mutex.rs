// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The one registry of per-key mutexes (a repository, a workflow
//! directory): every caller with the same key gets the same mutex, made on
//! first use. The kind of mutex is the caller's: a Tokio mutex (the
//! default) where the guard is held across `.await` ([`KeyedMutex::lock`]),
//! a `parking_lot` one where a blocking thread waits with a deadline
//! (`try_lock_until` on [`KeyedMutex::get`]'s mutex).
//!
//! The registry itself is a `parking_lot` mutex held only to look a key
//! up, never across `.await`. Entries stay: the keys are the few
//! directories one server works on.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use tokio::sync::OwnedMutexGuard;

/// One mutex `M` per key `K`, shared by everyone who asks for that key.
pub(crate) struct KeyedMutex<K, M = tokio::sync::Mutex<()>> {
    mutexes: parking_lot::Mutex<HashMap<K, Arc<M>>>,
}

impl<K, M> KeyedMutex<K, M> {
    /// An empty registry.
    pub(crate) fn new() -> Self {
        Self {
            mutexes: parking_lot::Mutex::new(HashMap::new()),
        }
    }
}

impl<K, M> Default for KeyedMutex<K, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K, M> fmt::Debug for KeyedMutex<K, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyedMutex")
            .field("keys", &self.mutexes.lock().len())
            .finish()
    }
}

impl<K: Eq + Hash + Clone, M: Default> KeyedMutex<K, M> {
    /// The mutex of `key`, made on first use.
    pub(crate) fn get(&self, key: &K) -> Arc<M> {
        let mut mutexes = self.mutexes.lock();
        match mutexes.get(key) {
            Some(mutex) => mutex.clone(),
            None => mutexes.entry(key.clone()).or_default().clone(),
        }
    }
}

impl<K: Eq + Hash + Clone> KeyedMutex<K> {
    /// Waits for the mutex of `key`; the guard may be held across `.await`.
    pub(crate) async fn lock(&self, key: &K) -> OwnedMutexGuard<()> {
        self.get(key).lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use super::*;

    #[tokio::test]
    async fn one_key_is_one_mutex_and_other_keys_do_not_wait() {
        let locks: KeyedMutex<PathBuf> = KeyedMutex::default();
        let (a, b) = (PathBuf::from("/a"), PathBuf::from("/b"));
        let held = locks.lock(&a).await;
        assert!(Arc::ptr_eq(&locks.get(&a), &locks.get(&a)));
        assert!(locks.get(&a).try_lock().is_err(), "held");
        let _other = locks.lock(&b).await;
        drop(held);
        let _again = locks.get(&a).try_lock_owned().unwrap();
        assert_eq!(format!("{locks:?}"), "KeyedMutex { keys: 2 }");
    }

    #[test]
    fn a_blocking_caller_waits_with_a_deadline() {
        let locks: KeyedMutex<&str, parking_lot::Mutex<()>> = KeyedMutex::new();
        let mutex = locks.get(&"d");
        let _held = mutex.lock();
        let same = locks.get(&"d");
        assert!(same.try_lock_until(Instant::now()).is_none());
        let other = locks.get(&"e");
        assert!(
            other
                .try_lock_until(Instant::now() + Duration::from_secs(60))
                .is_some()
        );
    }
}
