//! The one scheduler for every turn model.
//!
//! Turns come off a timeline keyed by `(time, initiative rank, id)`. In a fixed cycle of rounds
//! (homebrew-d20, pf2e, pf1e) `time` is the round and a creature's next turn is its own slot in the
//! next round. On a segment clock (segments) `time` is the absolute segment
//! `(round − 1) × segments_per_round + segment`, and the next turn is `now + recovery time`.
//! Both are the same ordered set, so popping the next turn is O(log n).

use std::collections::BTreeSet;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::components::Cid;
use super::ruleset::TurnModel;

/// A scheduled turn. Ordering is by time, then initiative rank, then id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TurnKey {
    /// Round (fixed cycle) or absolute segment (recovery time).
    pub time: u32,
    /// Position in the initiative order, 0 first.
    pub rank: u32,
    /// The creature.
    pub who: Cid,
}

/// The timeline of scheduled turns.
#[derive(Resource, Debug, Clone, Default)]
pub struct Timeline {
    /// How times map to rounds.
    pub model: Option<TurnModel>,
    queue: BTreeSet<TurnKey>,
    /// Each creature's scheduled turn (one at most).
    by_creature: std::collections::BTreeMap<Cid, TurnKey>,
    /// The time of the turn now running (or last run).
    pub now: u32,
}

impl Timeline {
    /// An empty timeline for a turn model.
    pub fn new(model: TurnModel) -> Self {
        Self { model: Some(model), queue: BTreeSet::new(), by_creature: Default::default(), now: 0 }
    }

    /// The time of a creature's first turn: round 1, or segment 1.
    pub fn first_time(&self) -> u32 {
        1
    }

    /// Schedule a turn.
    pub fn schedule(&mut self, key: TurnKey) {
        if let Some(old) = self.by_creature.insert(key.who, key) {
            self.queue.remove(&old);
        }
        self.queue.insert(key);
    }

    /// A creature's scheduled turn.
    pub fn scheduled(&self, who: Cid) -> Option<TurnKey> {
        self.by_creature.get(&who).copied()
    }

    /// Remove a creature's scheduled turn at a known key.
    pub fn unschedule(&mut self, key: &TurnKey) -> bool {
        if self.by_creature.get(&key.who) == Some(key) {
            self.by_creature.remove(&key.who);
        }
        self.queue.remove(key)
    }

    /// The next turn, without taking it.
    pub(crate) fn peek(&self) -> Option<TurnKey> {
        self.queue.first().copied()
    }

    /// Take the next turn and move the clock to it.
    pub fn pop(&mut self) -> Option<TurnKey> {
        let k = self.queue.pop_first()?;
        self.by_creature.remove(&k.who);
        self.now = k.time;
        Some(k)
    }

    /// The next `k` turns as they stand now.
    pub fn upcoming(&self, k: usize) -> Vec<TurnKey> {
        self.queue.iter().take(k).copied().collect()
    }

    /// Scheduled turns.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is scheduled.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The time of the turn that follows one taken at `now` with `recovery` (recovery-time model),
    /// or the same slot next round (fixed cycle).
    pub fn next_time(&self, now: u32, recovery: Option<u32>) -> u32 {
        match self.model {
            Some(TurnModel::RecoveryTime { .. }) => now.saturating_add(recovery.unwrap_or(1).max(1)),
            _ => now.saturating_add(1),
        }
    }

    /// `(round, segment)` of a time. In a fixed cycle the segment is 0.
    pub fn round_and_segment(&self, time: u32) -> (u32, u32) {
        match self.model {
            Some(TurnModel::RecoveryTime { segments_per_round: s }) => {
                let t = time.max(1) - 1;
                (t / s + 1, t % s + 1)
            }
            _ => (time, 0),
        }
    }
}
