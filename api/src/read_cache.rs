//! Exact in-process caches for the two hottest reads: the session lookup that every
//! signed-in request makes, and the client's dashboard.
//!
//! Why a cache, and why it is exact: a query whose result may be cached first reads a
//! generation (`Db::read_generation`) that moves with every write, and its result is stored
//! under that generation; an entry is used only by a request that read the same generation.
//! So anything written since (a sign-out, a payment, a booking, a role change) makes every
//! entry a miss, and the next read goes to the database.
//!
//! On SQLite the API is one process whose every write goes through one writer connection
//! (`db.rs`), and the generation is the pool's count of each check-out and return of it
//! (`Db::write_generation`), used only while the writer is idle. On PostgreSQL, where several
//! API processes share the database, it is a counter that a trigger moves in the same
//! transaction as every write, read once per request after the request arrived
//! (`data_generation`). An entry also expires after `MAX_AGE`, which bounds how long a
//! change that is not a write can go unseen (a lot expiring with the clock, a new catalogue)
//! and, on SQLite, a write by another process (the `api` CLI).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A response body as served, valid until an instant (`valid_until`, a stored timestamp) if it
/// names one: the client's dashboard is valid until its first upcoming session starts.
#[derive(Clone)]
pub struct CachedBody {
    pub body: axum::body::Bytes,
    pub valid_until: Option<String>,
}

/// The longest an entry is used, whatever the write count says.
const MAX_AGE: Duration = Duration::from_secs(1);

/// Entries kept before the map is emptied: a bound on memory, not an eviction policy (a write
/// already makes every entry stale).
const CAPACITY: usize = 4096;

struct Entry<V> {
    generation: u64,
    stored_at: Instant,
    value: V,
}

/// Locks taken while an entry is loaded, one per share of the keys (see [`ReadCache::loading`]).
const LOAD_LOCKS: usize = 64;

pub struct ReadCache<K, V> {
    entries: Mutex<HashMap<K, Entry<V>>>,
    loads: Vec<tokio::sync::Mutex<()>>,
    hasher: RandomState,
}

impl<K: Eq + Hash, V: Clone> Default for ReadCache<K, V> {
    fn default() -> Self {
        ReadCache {
            entries: Mutex::new(HashMap::new()),
            loads: (0..LOAD_LOCKS)
                .map(|_| tokio::sync::Mutex::new(()))
                .collect(),
            hasher: RandomState::new(),
        }
    }
}

impl<K: Eq + Hash, V: Clone> ReadCache<K, V> {
    /// The value stored under `key` at write generation `generation`, if it is still fresh.
    pub fn get(&self, key: &K, generation: u64) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(key)
            .filter(|e| e.generation == generation && e.stored_at.elapsed() < MAX_AGE)
            .map(|e| e.value.clone())
    }

    /// Held while `key`'s entry is loaded after a miss: requests that miss together (when an
    /// entry has just expired, many do) wait for the first one's load and then find its result
    /// with [`ReadCache::get`] (at the same generation), rather than all asking the database
    /// at once. A request that still misses loads it itself.
    pub async fn loading(&self, key: &K) -> tokio::sync::MutexGuard<'_, ()> {
        let share = self.hasher.hash_one(key) as usize % self.loads.len();
        self.loads[share].lock().await
    }

    /// Stores what a query read; `generation` must be the count read before the query ran.
    pub fn put(&self, key: K, generation: u64, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CAPACITY {
            entries.clear();
        }
        entries.insert(
            key,
            Entry {
                generation,
                stored_at: Instant::now(),
                value,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_used_only_at_the_generation_it_was_read_at() {
        let cache = ReadCache::default();
        cache.put("a", 7, 1);
        assert_eq!(cache.get(&"a", 7), Some(1));
        assert_eq!(
            cache.get(&"a", 8),
            None,
            "a write since the read makes it stale"
        );
        assert_eq!(cache.get(&"b", 7), None);
    }

    #[test]
    fn memory_stays_bounded() {
        let cache = ReadCache::default();
        for i in 0..CAPACITY + 10 {
            cache.put(i, 0, i);
        }
        assert!(cache.entries.lock().unwrap().len() <= CAPACITY);
        assert_eq!(cache.get(&(CAPACITY + 9), 0), Some(CAPACITY + 9));
    }
}
