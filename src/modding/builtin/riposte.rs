//! `riposte`: a creature with `Riposte` strikes back when a melee attack against it misses
//! (an `AttackMissed` against a static AC, or an `AttackBlocked` by a defensive roll), dealing
//! the damage of its own first melee attack, rolled on the engine's dice. It may riposte
//! `per_round` times a round. The data format has no reaction to a miss; this is a new one.
//!
//! A combatant gets the component from its sheet: the trait `riposte`.

use bevy::prelude::*;

use crate::modding::{AttackKind, Cid, CombatEvent, Effect, ModBuilder, ModRules, RulesMod, Traits, TurnSystems};

/// The mod's name, as the combat log shows it.
pub const NAME: &str = "riposte";

/// Answers a missed melee attack with a strike back.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct Riposte {
    /// Ripostes allowed each round.
    pub per_round: u8,
    /// Ripostes made this round.
    pub used: u8,
}

impl Default for Riposte {
    fn default() -> Self {
        Self { per_round: 1, used: 0 }
    }
}

/// The mod.
pub struct RiposteMod;

impl RulesMod for RiposteMod {
    fn name(&self) -> &str {
        NAME
    }

    fn build(&self, m: &mut ModBuilder) {
        m.register_type::<Riposte>();
        m.on_combatant(|e| {
            if e.get::<Traits>().is_some_and(|t| t.has("riposte")) {
                e.insert(Riposte::default());
            }
        });
        m.add_systems(TurnSystems::Reactions, riposte);
    }
}

/// After the engine resolved this run's work: each melee attack that missed a bearer is answered.
pub fn riposte(
    mut rules: ModRules,
    mut bearers: Query<&mut Riposte>,
    mut last_roll: Local<Option<(Cid, Cid, AttackKind)>>,
) {
    for event in rules.heard() {
        match event {
            CombatEvent::RoundStarted { .. } => {
                for mut r in &mut bearers {
                    r.used = 0;
                }
            }
            CombatEvent::AttackRolled { attacker, target, kind, .. } => *last_roll = Some((attacker, target, kind)),
            CombatEvent::AttackMissed { attacker, target, .. } | CombatEvent::AttackBlocked { attacker, target } => {
                if *last_roll != Some((attacker, target, AttackKind::Melee)) {
                    continue;
                }
                answer(&mut rules, &mut bearers, target, attacker);
            }
            _ => {}
        }
    }
}

/// `defender` ripostes against `attacker`, if it can.
fn answer(rules: &mut ModRules, bearers: &mut Query<&mut Riposte>, defender: Cid, attacker: Cid) {
    let Some(mut r) = rules.entity(defender).and_then(|e| bearers.get_mut(e).ok()) else { return };
    if r.used >= r.per_round || rules.ended() || rules.is_down(defender) || rules.cannot_act(defender) {
        return;
    }
    if rules.is_down(attacker) {
        return;
    }
    // The damage of the defender's first melee attack.
    let damage =
        rules.known_abilities(defender).iter().find_map(|a| match rules.ruleset().ability(a).map(|d| &d.effect) {
            Some(Effect::Attack { kind: AttackKind::Melee, damage, .. }) => Some(damage.clone()),
            _ => None,
        });
    let Some(damage) = damage else { return };
    r.used += 1;
    let amount = rules.roll(&damage, defender).max(0);
    let _ = rules.deal_damage(NAME, attacker, amount);
}
