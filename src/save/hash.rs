//! The hashes a save stores and checks: FNV-1a, 64 bits, over RON text (the log's events, the
//! journal, a ruleset, any text), written as 16 hexadecimal digits.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::driver::Combat;
use crate::rules::journal::Entry;
use crate::rules::ruleset::Ruleset;

/// A 64-bit hash, written as 16 hexadecimal digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hash64(pub u64);

impl fmt::Display for Hash64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl From<Hash64> for String {
    fn from(h: Hash64) -> String {
        h.to_string()
    }
}

impl TryFrom<String> for Hash64 {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            u64::from_str_radix(&s, 16).map(Hash64).map_err(|e| e.to_string())
        } else {
            Err(format!("`{s}` is not a hash: 16 hexadecimal digits"))
        }
    }
}

/// FNV-1a, 64 bits, over text (the same everywhere).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

/// A hash of the combat log's events (the RON text of each).
pub fn log_hash(c: &Combat) -> Hash64 {
    use std::fmt::Write;
    let mut h = Fnv::new();
    for e in &c.log().events {
        let _ = h.write_str(&ron::to_string(e).unwrap_or_default());
        let _ = h.write_str("\n");
    }
    Hash64(h.0)
}

/// A hash of journal entries (the RON text of each, one a line): FNV-1a, 64 bits.
pub fn journal_hash(entries: &[Entry]) -> Hash64 {
    use std::fmt::Write;
    let mut h = Fnv::new();
    for e in entries {
        let _ = h.write_str(&ron::to_string(e).unwrap_or_default());
        let _ = h.write_str("\n");
    }
    Hash64(h.0)
}

/// The content hash of a ruleset: FNV-1a over its RON text as serialized (so formatting and
/// comments in its file do not count). The GM's policy (`gm_policy`) does not count: it is how the
/// AI GM behaves, not a rule, and a save's journal holds every call the GM made, so a save stays
/// good when a policy changes. The simulator keys its batches on the policy separately
/// (`Inputs::gm_policies`).
pub fn ruleset_hash(rs: &Ruleset) -> Hash64 {
    let named = rs.abilities.iter().any(|a| !a.names.is_empty())
        || rs.conditions.iter().any(|c| !c.names.is_empty())
        || !rs.stat_names.is_empty();
    if rs.gm_policy.is_never() && !named {
        return text_hash(&ron::to_string(rs).unwrap_or_default());
    }
    // Neither the GM's policy nor the names in other languages are rules.
    let mut plain = rs.clone();
    plain.gm_policy = crate::rules::gm_policy::GmPolicy::never();
    plain.abilities.iter_mut().for_each(|a| a.names.clear());
    plain.conditions.iter_mut().for_each(|c| c.names.clear());
    plain.stat_names.clear();
    text_hash(&ron::to_string(&plain).unwrap_or_default())
}

/// The content hash of a text: FNV-1a, 64 bits, as [`ruleset_hash`] uses (the simulator keys a
/// batch's inputs on it).
pub(crate) fn text_hash(text: &str) -> Hash64 {
    use std::fmt::Write;
    let mut h = Fnv::new();
    let _ = h.write_str(text);
    Hash64(h.0)
}
