//! `regeneration`: a creature with `Regeneration(n)` heals `n` hit points at the start of each
//! of its turns, right after the engine's own turn start.
//!
//! A combatant gets the component from its sheet: a stat `regeneration: n` (n > 0).

use bevy::prelude::*;

use crate::modding::{CombatEvent, ModBuilder, ModRules, RulesMod, Stats, TurnSystems};

/// The mod's name, as the combat log shows it.
pub const NAME: &str = "regeneration";

/// Heals this many hit points at the start of each of the bearer's turns.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct Regeneration(pub u32);

/// The mod.
pub struct RegenerationMod;

impl RulesMod for RegenerationMod {
    fn name(&self) -> &str {
        NAME
    }

    fn build(&self, m: &mut ModBuilder) {
        m.register_type::<Regeneration>();
        m.on_combatant(|e| {
            let n = e.get::<Stats>().map_or(0, |s| s.get("regeneration"));
            if n > 0 {
                e.insert(Regeneration(n as u32));
            }
        });
        m.add_systems(TurnSystems::TurnStart, regenerate);
    }
}

/// At each `TurnStarted`, the creature whose turn it is heals by its `Regeneration`.
pub fn regenerate(mut rules: ModRules, bearers: Query<&Regeneration>) {
    for event in rules.heard() {
        let CombatEvent::TurnStarted { who, .. } = event else { continue };
        let Some(r) = rules.entity(who).and_then(|e| bearers.get(e).ok()) else { continue };
        // Refused when the creature is down or the combat is over: nothing to do then.
        let _ = rules.heal(NAME, who, r.0.min(i32::MAX as u32) as i32);
    }
}
