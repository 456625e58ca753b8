//! A map of a few string keys kept as one sorted slice: the labels, sampling parameters and
//! collective settings a result records are a handful of entries each, kept for every result
//! of a corpus, and a B-tree allocates a node for eleven entries even when it holds one (a
//! kilobyte for one `top_p`).

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Entries sorted by key, each key once: read and written as a JSON object in key order, as a
/// `BTreeMap` is. A key given twice keeps its last value, as a `BTreeMap` built from the same
/// object would.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SmallMap<V>(Box<[(String, V)]>);

impl<V> SmallMap<V> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V> Default for SmallMap<V> {
    fn default() -> Self {
        SmallMap(Box::new([]))
    }
}

impl<V: fmt::Debug> fmt::Debug for SmallMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> FromIterator<(String, V)> for SmallMap<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(entries: I) -> Self {
        let mut entries: Vec<(String, V)> = entries.into_iter().collect();
        // A stable sort keeps a repeated key's entries in the order given; the last is kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(String, V)> = Vec::with_capacity(entries.len());
        for entry in entries {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => kept.push(entry),
            }
        }
        SmallMap(kept.into_boxed_slice())
    }
}

impl<V> IntoIterator for SmallMap<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_vec().into_iter()
    }
}

impl<V> std::ops::Index<&str> for SmallMap<V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<V: Serialize> Serialize for SmallMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SmallMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = SmallMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = map.next_entry::<String, V>()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }
        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::Value;

    use super::*;

    #[test]
    fn reads_and_writes_as_a_btree_map_does() {
        let text = r#"{"top_p": 0.9, "b": [1, 2], "a": {"x": null}, "top_p": 1}"#;
        let small: SmallMap<Value> = serde_json::from_str(text).unwrap();
        let tree: BTreeMap<String, Value> = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&small).unwrap(),
            serde_json::to_string(&tree).unwrap()
        );
        assert_eq!(small.get("top_p"), Some(&Value::from(1)));
        assert_eq!(small["b"], serde_json::json!([1, 2]));
        assert!(!small.contains_key("c"));
        assert_eq!(small.len(), 3);
        assert!(serde_json::from_str::<SmallMap<Value>>("[1]").is_err());
    }

    /// Draws from [`crate::seeded`]: a fixed sequence, so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            crate::seeded::next(&mut self.0) % n
        }

        fn word(&mut self, letters: &[u8]) -> String {
            let len = self.below(4);
            (0..len)
                .map(|_| {
                    let pick = self.below(letters.len() as u64);
                    char::from(letters[usize::try_from(pick).unwrap()])
                })
                .collect()
        }
    }

    /// Objects of string values, keys repeated or not (drawn from four letters, so repeats are
    /// common): each reads and writes back as a `BTreeMap` of it does, every key looks up the
    /// same value, and the map collected from the entries is the map read.
    #[test]
    fn agrees_with_a_btree_map_on_drawn_objects() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..500 {
            let entries: Vec<(String, String)> = (0..rng.below(20))
                .map(|_| (rng.word(b"abcd"), rng.word(b"xyz\"\\")))
                .collect();
            let body: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), Value::from(v.as_str())))
                .collect();
            let text = format!("{{{}}}", body.join(","));
            let small: SmallMap<String> = serde_json::from_str(&text).unwrap();
            let tree: BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
            assert_eq!(
                serde_json::to_string(&small).unwrap(),
                serde_json::to_string(&tree).unwrap(),
                "{text}"
            );
            assert_eq!(small.len(), tree.len());
            for (k, _) in &entries {
                assert_eq!(small.get(k), tree.get(k), "{text}");
            }
            let collected: SmallMap<String> = entries.into_iter().collect();
            assert_eq!(collected, small);
        }
    }
}
