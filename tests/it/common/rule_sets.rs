//! The built-in rule sets, each compiled once per test process.

use std::collections::BTreeMap;
use std::sync::Mutex;

use xqspec::RuleSet;

/// The built-in rule set `id`, compiled the first time it is asked for, then shared.
pub fn builtin_cached(id: &str) -> &'static RuleSet {
    static CACHE: Mutex<BTreeMap<String, &'static RuleSet>> = Mutex::new(BTreeMap::new());
    let mut compiled = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    compiled.entry(id.to_string()).or_insert_with(|| {
        let rs = RuleSet::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        Box::leak(Box::new(rs))
    })
}
