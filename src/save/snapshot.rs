//! The state a save records at its end: its hashes, plus a readable summary for people and for
//! error messages, and where a replay first disagrees with it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::hash::{Hash64, journal_hash, log_hash};
use crate::rules::components::{Cid, Conditions, GridPos, Health};
use crate::rules::driver::Combat;
use crate::rules::state::{EngineStatus, Pending};

/// The state when saved: its hash, plus a readable summary for people and for error messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// [`Combat::state_hash`].
    pub hash: Hash64,
    /// A hash of the combat log's events (their RON text).
    pub log_hash: Hash64,
    /// Events in the log.
    pub log_len: usize,
    /// The event format the log hash was taken in ([`crate::rules::log::LOG_FORMAT`]); 0 in
    /// files written before formats were numbered. The log hash is compared only when it is this
    /// build's.
    #[serde(default)]
    pub log_format: u32,
    /// A hash of the journal ([`journal_hash`]): who issued each command and what each rejected
    /// command was, which no state shows. Files written before it existed lack it; `replay
    /// --verify` then says it did not check those.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal_hash: Option<Hash64>,
    /// Round and segment (segment 0 in a fixed cycle).
    pub clock: (u32, u32),
    /// What the engine waits for.
    pub status: EngineStatus,
    /// The pending decision's kind, if any.
    #[serde(default)]
    pub pending: Option<String>,
    /// Every combatant: name, hit points, square, conditions.
    pub combatants: Vec<CreatureSnapshot>,
}

/// One combatant in a [`Snapshot`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatureSnapshot {
    /// Name.
    pub name: String,
    /// Hit points.
    pub hp: i32,
    /// Square.
    pub at: (i32, i32),
    /// Condition ids.
    pub conditions: Vec<String>,
}

impl Snapshot {
    /// The snapshot of a combat now.
    pub fn of(c: &Combat) -> Snapshot {
        Snapshot {
            hash: Hash64(c.state_hash()),
            log_hash: log_hash(c),
            log_len: c.log().events.len(),
            log_format: crate::rules::log::LOG_FORMAT,
            journal_hash: Some(journal_hash(c.journal())),
            clock: c.clock(),
            status: c.status(),
            pending: c.world.resource::<Pending>().0.as_ref().map(|p| p.kind.name().to_string()),
            combatants: (0..c.len() as u32)
                .map(|i| {
                    let who = Cid(i);
                    CreatureSnapshot {
                        name: c.name(who),
                        hp: c.get::<Health>(who).map_or(0, |h| h.hp),
                        at: c.get::<GridPos>(who).map_or((0, 0), |p| (p.x, p.y)),
                        conditions: c.get::<Conditions>(who).map(|k| k.0.keys().cloned().collect()).unwrap_or_default(),
                    }
                })
                .collect(),
        }
    }

    /// The first field in which `other` (the replay) differs from `self` (the file), in words
    /// and named by its path in the file (`state.combatants[1].hp`); `None`: every field agrees.
    /// The readable fields come first, the hashes last. A `journal_hash` the file does not have
    /// is not compared.
    pub(crate) fn first_difference(&self, other: &Snapshot) -> Option<String> {
        fn differ(field: &str, saved: impl fmt::Debug, now: impl fmt::Debug) -> Option<String> {
            Some(format!("state.{field}: the file says {saved:?}, the replay gives {now:?}"))
        }
        if self.clock != other.clock {
            return differ("clock", self.clock, other.clock);
        }
        if self.status != other.status {
            return differ("status", &self.status, &other.status);
        }
        if self.pending != other.pending {
            return differ("pending", &self.pending, &other.pending);
        }
        for (i, (a, b)) in self.combatants.iter().zip(&other.combatants).enumerate() {
            let field = |f: &str| format!("combatants[{i}].{f} ({})", b.name);
            if a.name != b.name {
                return differ(&field("name"), &a.name, &b.name);
            }
            if a.hp != b.hp {
                return differ(&field("hp"), a.hp, b.hp);
            }
            if a.at != b.at {
                return differ(&field("at"), a.at, b.at);
            }
            if a.conditions != b.conditions {
                return differ(&field("conditions"), &a.conditions, &b.conditions);
            }
        }
        if self.combatants.len() != other.combatants.len() {
            return Some(format!(
                "state.combatants: the file lists {}, the replay has {}",
                self.combatants.len(),
                other.combatants.len()
            ));
        }
        if self.log_len != other.log_len {
            return differ("log_len", self.log_len, other.log_len);
        }
        if self.hash != other.hash {
            return Some(format!("state.hash: the file says {}, the replay gives {}", self.hash, other.hash));
        }
        if self.log_hash != other.log_hash {
            return Some(format!(
                "state.log_hash: the file says {}, the replay gives {}: the log's events differ (added, renamed or \
                 changed)",
                self.log_hash, other.log_hash
            ));
        }
        if let Some(saved) = self.journal_hash
            && Some(saved) != other.journal_hash
        {
            let now = other.journal_hash.map_or("none".to_string(), |h| h.to_string());
            return Some(format!(
                "state.journal_hash: the file says {saved}, its journal hashes to {now}: a journal entry was \
                 edited (a command's issuer `by`, or a command that changes nothing)"
            ));
        }
        None
    }
}
