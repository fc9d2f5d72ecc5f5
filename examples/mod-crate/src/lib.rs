//! `rally`: at the start of a rallying creature's turn, each ally within 30 feet (6 squares) gets
//! `rallied` with the rallier's `rally` value: a status bonus of that much to its attack rolls
//! until the end of its next turn.
//!
//! A combatant rallies when its sheet has the stat `rally` (the bonus, > 0). Everything the mod
//! does goes through the engine: the `rallied` condition is the mod's own (defined in `build`,
//! checked like data), the bonus is a typed roll modifier (pf2e's stacking rules apply), and the
//! duration is the engine's own `Lasts`. The attack sentences in the game's log name it:
//! `1d20 12 + STR 3 + rallied 1 = 16`.

use skirmish::bevy::prelude::*;
// Bevy's derives (`Component`, `Reflect`) name the crates `bevy_ecs` and `bevy_reflect` when the
// mod's Cargo.toml has no `bevy`: these two names make them skirmish's Bevy.
use skirmish::bevy::{ecs as bevy_ecs, reflect as bevy_reflect};
use skirmish::modding::{
    BonusKind, CombatEvent, Lasts, ModBuilder, ModRules, RollModifier, RollOn, RulesMod, Stats, TurnSystems,
    duration_ends,
};

/// The mod's name, as `--mod rally` and the combat log show it.
pub const NAME: &str = "rally";

/// The condition an ally gets: +1 status bonus to attack rolls per value.
pub const RALLIED: &str = "rallied";

/// How far a rally reaches, in squares (30 feet).
pub const REACH: u32 = 6;

/// A rallying creature's bonus.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct Rally(pub i32);

/// The mod.
#[derive(Clone)]
pub struct RallyMod;

impl RulesMod for RallyMod {
    fn name(&self) -> &str {
        NAME
    }

    fn build(&self, m: &mut ModBuilder) {
        m.register_type::<Rally>();
        m.modifier(
            RALLIED,
            RollModifier { to: vec![RollOn::Attack], kind: BonusKind::Status, amount: 1, per_value: true },
        );
        m.on_combatant(|e| {
            let n = e.get::<Stats>().map_or(0, |s| s.get("rally"));
            if n > 0 {
                e.insert(Rally(n));
            }
        });
        m.add_systems(TurnSystems::TurnStart, rally);
    }
}

/// At each `TurnStarted` of a rallier, its allies in reach get `rallied`.
pub fn rally(mut rules: ModRules, ralliers: Query<&Rally>) {
    for event in rules.heard() {
        let CombatEvent::TurnStarted { who, .. } = event else { continue };
        let Some(&Rally(n)) = rules.entity(who).and_then(|e| ralliers.get(e).ok()) else { continue };
        let Some(at) = rules.position(who) else { continue };
        // "Until the end of their next turn": one of the ally's own turns where the ruleset
        // counts those (pf2e's Step 3), else one round.
        let lasts =
            if duration_ends(rules.ruleset(), Lasts::OwnerTurns(1)) { Lasts::OwnerTurns(1) } else { Lasts::Rounds(1) };
        for ally in rules.combatants() {
            let near = rules.position(ally).is_some_and(|p| p.distance(at) <= REACH);
            // Not the rallier, not a foe, not one out of the fight or unable to act (pf2e dying).
            if ally != who && near && !rules.hostile(who, ally) && !rules.cannot_act(ally) {
                // Refused only when the combat is over: nothing to do then.
                let _ = rules.add_modifier(NAME, ally, RALLIED, Some(n), lasts, Some(who));
            }
        }
    }
}
