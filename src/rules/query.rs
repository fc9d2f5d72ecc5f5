//! Rule queries: pure questions about the rules, over a ruleset and a creature's components.
//!
//! One place per question. The rules ask them while they resolve, and the AI, the HUD and the
//! input ask the same functions rather than re-derive the answers. Nothing here changes state or
//! reads the world: a caller passes what it holds (the components, or the stat values it has
//! already read), so a caller that keeps its own snapshot of a creature (the tactical AI) asks the
//! same question as the rules do.
//!
//! Arithmetic saturates: with the data bounds of [`super::limits`] no sum here comes near `i32`'s
//! ends, so saturating and plain adds give the same answers, and a value set past those bounds
//! (by code, not data) cannot panic.

use super::components::{Conditions, GridPos, Inventory, Stats, Traits};
use super::ruleset::{
    AbilityDef, AbilityTrigger, AttackKind, BonusKind, CastComponent, Effect, Lasts, ModifierStacking, OpportunityRule,
    RollOn, Ruleset, Timing, TurnStep,
};

impl Effect {
    /// Whether the effect moves its user: what a held or readied action triggered by moves
    /// answers (HB-50, G-P1-04, SG-38), and what G-X-01 stops. A Charge moves its user.
    pub(crate) fn moves_user(&self) -> bool {
        matches!(self, Effect::Move | Effect::MoveAs { .. } | Effect::Disengage | Effect::Step | Effect::Charge { .. })
    }

    /// Whether the ability is aimed at a square to move to: the user picks a destination (Move,
    /// a Move with a mode, Step, Disengage). A Charge moves its user too, but it is aimed at a
    /// creature ([`Effect::targets_creature`]), and its square follows from the target.
    pub(crate) fn targets_square(&self) -> bool {
        matches!(self, Effect::Move | Effect::MoveAs { .. } | Effect::Step | Effect::Disengage)
    }

    /// Whether the ability is aimed at creatures: attacks (a Charge too), Assist, conditions put
    /// on targets, damage, healing and saving throws.
    pub(crate) fn targets_creature(&self) -> bool {
        matches!(
            self,
            Effect::Attack { .. }
                | Effect::Charge { .. }
                | Effect::Assist { .. }
                | Effect::TargetCondition { .. }
                | Effect::Damage { .. }
                | Effect::Heal { .. }
                | Effect::Save { .. }
        )
    }

    /// Whether it may pick several creatures at once, so that its ability says how many
    /// ([`AbilityDef::targets`]): conditions put on targets, damage, healing, saving throws.
    pub fn picks_creatures(&self) -> bool {
        matches!(
            self,
            Effect::TargetCondition { .. } | Effect::Damage { .. } | Effect::Heal { .. } | Effect::Save { .. }
        )
    }

    /// Effects aimed at creatures at a distance, which need line of sight to each target other
    /// than the user on the battle map: ranged and area attacks, saving throws, damage, healing
    /// and conditions put on targets. A melee attack needs reach instead; Assist and Disengage
    /// name creatures without reaching them.
    pub(crate) fn needs_sight(&self) -> bool {
        match self {
            Effect::Attack { kind, .. } => *kind != AttackKind::Melee,
            Effect::Save { .. } | Effect::Damage { .. } | Effect::Heal { .. } | Effect::TargetCondition { .. } => true,
            _ => false,
        }
    }

    /// G-P1-01: movement that a 5-foot step excludes in the same turn, both ways (a Move or a
    /// Charge).
    pub(crate) fn excludes_five_foot_step(&self) -> bool {
        matches!(self, Effect::Move | Effect::Charge { .. })
    }
}

impl AbilityDef {
    /// The name to show: its display name, or its id when it has none.
    pub(crate) fn display_name(&self) -> &str {
        if self.name.is_empty() { &self.id } else { &self.name }
    }
}

/// Issue 28: an ability (in a ruleset file or a mod) whose effect picks creatures must say how many (`targets:`), so
/// that a spell meant for one creature is never aimed at every enemy by default. The error's
/// words when it does not.
pub(crate) fn unsaid_targets(d: &AbilityDef) -> Option<String> {
    (d.effect.picks_creatures() && d.targets.is_unsaid()).then(|| {
        format!(
            "abilities[{}].targets: the ability picks creatures but does not say how many: add `targets: UpTo(1)` \
             for one creature, `targets: UpTo(n)` for up to n, or `targets: All` for every creature named (an area)",
            d.id
        )
    })
}

/// Every ability a creature with these listed abilities knows (HB-09): the listed ones first, in
/// their order, then the ruleset's basic ones it does not list.
pub(crate) fn known_abilities<'a>(ruleset: &'a Ruleset, listed: &'a [String]) -> impl Iterator<Item = &'a String> + 'a {
    known_ability_slots(ruleset, listed).map(move |s| match s {
        KnownSlot::Listed(i) => &listed[i],
        KnownSlot::Basic(k) => &ruleset.basic_abilities[k],
    })
}

/// Where each of [`known_abilities`] comes from, in the same order: the `i`-th listed ability, or
/// the ruleset's `k`-th basic one (for a caller that has looked those up already).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KnownSlot {
    /// `listed[i]`.
    Listed(usize),
    /// `ruleset.basic_abilities[k]`.
    Basic(usize),
}

/// The slots of [`known_abilities`].
pub(crate) fn known_ability_slots<'a>(
    ruleset: &'a Ruleset,
    listed: &'a [String],
) -> impl Iterator<Item = KnownSlot> + 'a {
    let basic = &ruleset.basic_abilities;
    (0..listed.len()).map(KnownSlot::Listed).chain(
        basic
            .iter()
            .enumerate()
            .filter(move |(k, b)| !listed.contains(b) && !basic[..*k].contains(b))
            .map(|(k, _)| KnownSlot::Basic(k)),
    )
}

/// Whether an ability can be made as an attack of opportunity (HB-45): a melee attack; under
/// triggered reactions (pf2e, G-P2-17) only a reaction triggered by an enemy leaving reach.
pub(crate) fn is_opportunity_attack(ruleset: &Ruleset, d: &AbilityDef) -> bool {
    matches!(d.effect, Effect::Attack { kind: AttackKind::Melee, .. })
        && (ruleset.opportunity != OpportunityRule::TriggeredReactions
            || (d.timing == Timing::Reaction && d.trigger == Some(AbilityTrigger::EnemyLeavesReach)))
}

/// G-HB-19: a condition it has keeps it from acting.
pub(crate) fn blocks_actions(ruleset: &Ruleset, conditions: &Conditions) -> bool {
    conditions.0.keys().any(|id| ruleset.condition(id).is_some_and(|d| d.blocks_actions))
}

/// Unable to act off its turn: a condition blocks actions, or a condition that its owner's lost
/// actions use up (pf2e stunned) still has a value. "Can't act" covers reactions and free
/// actions too (P2-16, issue 13), though a stunned creature's turn still starts so that the
/// actions it loses can use the condition up.
pub fn blocks_reactions(ruleset: &Ruleset, conditions: &Conditions) -> bool {
    blocks_actions(ruleset, conditions)
        || conditions
            .0
            .iter()
            .any(|(id, st)| st.value > 0 && ruleset.condition(id).is_some_and(|d| d.consumed_by_lost_actions))
}

/// P1-21: flat-footed, no attacks of opportunity without Combat Reflexes (a condition that
/// forbids them unless the creature has a trait it lacks).
pub(crate) fn flat_footed_no_aoo(ruleset: &Ruleset, conditions: &Conditions, traits: &Traits) -> bool {
    conditions
        .0
        .keys()
        .filter_map(|id| ruleset.condition(id))
        .any(|d| d.no_opportunity_unless.as_ref().is_some_and(|t| !traits.has(t)))
}

/// Whether a condition grants advantage on defensive rolls (HB-22).
pub(crate) fn has_defense_advantage(ruleset: &Ruleset, conditions: &Conditions) -> bool {
    conditions.0.keys().any(|id| ruleset.condition(id).is_some_and(|d| d.defense_advantage))
}

/// Armour class: `ac`, the value of the ruleset's AC stat (plus any change the caller weighs),
/// plus condition bonuses (Raise a Shield, total defense), less any stat a condition takes away
/// (flat-footed loses the Dex bonus, P1-19), in the conditions' order, plus the conditions' AC
/// modifiers ([`roll_modifier`]: pf2e frightened).
pub(crate) fn armor_class(ruleset: &Ruleset, ac: i32, stats: &Stats, conditions: &Conditions) -> i32 {
    let mut ac = ac.saturating_add(roll_modifier(ruleset, conditions, RollOn::Ac));
    for d in conditions.0.keys().filter_map(|id| ruleset.condition(id)) {
        ac = ac.saturating_add(d.ac_bonus);
        if let Some(s) = &d.ac_loses_stat {
            ac = ac.saturating_sub(stats.get(s).max(0));
        }
    }
    ac
}

/// Whether any condition of the ruleset modifies a roll: without one, [`roll_modifiers`] is
/// empty for every creature, and a caller need not read the creature (issue 22: a read of every
/// component costs more than this scan of a dozen definitions).
pub(crate) fn has_roll_modifiers(ruleset: &Ruleset) -> bool {
    ruleset.conditions.iter().any(|c| !c.modifiers.is_empty())
}

/// The condition modifiers that count toward one kind of roll (issue 28): each as (the condition
/// that gives it, its amount), in the conditions' order, after the ruleset's stacking rule has
/// dropped the ones that do not stack. Their sum is what the roll gets.
pub fn roll_modifiers(ruleset: &Ruleset, conditions: &Conditions, on: RollOn) -> Vec<(String, i32)> {
    // Every modifier on this roll: (condition, kind, amount).
    let mut all: Vec<(&str, BonusKind, i32)> = Vec::new();
    for (id, st) in &conditions.0 {
        let Some(d) = ruleset.condition(id) else { continue };
        for m in d.modifiers.iter().filter(|m| m.to.contains(&on)) {
            let amount = m.amount_at(st.value);
            if amount != 0 {
                all.push((id.as_str(), m.kind, amount));
            }
        }
    }
    let counts = |i: usize| -> bool {
        let (_, kind, amount) = all[i];
        // (`all` holds no modifier of 0, so cargo-mutants' `> 0` → `>= 0` and `< 0` → `<= 0` on
        // the next two lines are equivalent.)
        let typed_bonus = kind != BonusKind::Untyped && amount > 0;
        let typed_penalty = kind != BonusKind::Untyped && amount < 0;
        let dropped = match ruleset.modifier_stacking {
            ModifierStacking::All => false,
            ModifierStacking::HighestPerType => typed_bonus || typed_penalty,
            ModifierStacking::HighestBonusPerType => typed_bonus,
        };
        // A typed modifier that does not stack counts only if it is the best of its type and
        // sign (the first of equals; `j >= i` lets it past itself): of one sign, the best is the
        // largest in size.
        !dropped
            || all.iter().enumerate().all(|(j, &(_, k, a))| {
                k != kind
                    || a.signum() != amount.signum()
                    || a.unsigned_abs() < amount.unsigned_abs()
                    || (a == amount && j >= i)
            })
    };
    (0..all.len()).filter(|&i| counts(i)).map(|i| (all[i].0.to_string(), all[i].2)).collect()
}

/// Whether an effect lasting `lasts` ever runs out under this ruleset: counts in rounds always
/// do; counts in the owner's turns need the `TickOwnerTurns` end-of-turn step, and "until the end
/// of the turn" and sustained effects the `EndUntilEndOfTurn` step (pf2e's Step 3).
pub fn duration_ends(ruleset: &Ruleset, lasts: Lasts) -> bool {
    let has = |s: TurnStep| ruleset.turn_phases.end.contains(&s);
    match lasts {
        Lasts::Rounds(_) => true,
        Lasts::OwnerTurns(_) => has(TurnStep::TickOwnerTurns),
        Lasts::UntilEndOfTurn | Lasts::Sustained => has(TurnStep::EndUntilEndOfTurn),
    }
}

/// The sum of [`roll_modifiers`].
pub fn roll_modifier(ruleset: &Ruleset, conditions: &Conditions, on: RollOn) -> i32 {
    roll_modifiers(ruleset, conditions, on).iter().fold(0, |s, (_, a)| s.saturating_add(*a))
}

/// SG-15, G-SG-19: the first component of a cast that is missing, if any: a verbal or somatic
/// one a condition blocks, or a material component or focus not carried.
pub(crate) fn missing_component<'a>(
    ruleset: &Ruleset,
    def: &'a AbilityDef,
    conditions: &Conditions,
    items: &Inventory,
) -> Option<&'a str> {
    let blocked = |name: &str| {
        conditions
            .0
            .keys()
            .filter_map(|id| ruleset.condition(id))
            .any(|d| d.blocks_components.iter().any(|b| b == name))
    };
    def.components.iter().find_map(|comp| match comp {
        CastComponent::Verbal if blocked("Verbal") => Some("Verbal"),
        CastComponent::Somatic if blocked("Somatic") => Some("Somatic"),
        CastComponent::Material(item) | CastComponent::Focus(item) if items.0.get(item).copied().unwrap_or(0) == 0 => {
            Some(item.as_str())
        }
        _ => None,
    })
}

/// A recovery time `base` after every global modifier of the conditions (Slowed, Haste, injury):
/// never below 1 (G-SG-05, SG-31).
pub(crate) fn recovery_time(ruleset: &Ruleset, conditions: &Conditions, base: u32) -> u32 {
    let add: i64 = conditions.0.keys().filter_map(|id| ruleset.condition(id)).map(|d| i64::from(d.rt_add)).sum();
    // In 64 bits: a large base never wraps around to a short recovery.
    u32::try_from((i64::from(base) + add).max(1)).unwrap_or(u32::MAX)
}

/// The eight squares around `p`, each with the square opposite it across `p`.
pub(crate) fn opposite_squares(p: GridPos) -> impl Iterator<Item = (GridPos, GridPos)> {
    (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .filter(|d| *d != (0, 0))
        .map(move |(dx, dy)| (GridPos { x: p.x + dx, y: p.y + dy }, GridPos { x: p.x - dx, y: p.y - dy }))
}

/// G-HB-14: whether a creature on `p` is flanked, two of its foes (`foe_at` a square) adjacent on
/// opposite sides of it. Reads only who stands where, so it holds on any map.
pub(crate) fn flanked(p: GridPos, foe_at: impl Fn(GridPos) -> bool) -> bool {
    opposite_squares(p).any(|(a, b)| foe_at(a) && foe_at(b))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;
    use crate::rules::components::ConditionState;

    fn pf2e() -> Ruleset {
        Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf2e.ron"))
            .expect("shipped ruleset loads")
    }

    fn with(ids: &[&str]) -> Conditions {
        Conditions(ids.iter().map(|id| (id.to_string(), ConditionState::plain(1))).collect())
    }

    #[test]
    fn a_charge_moves_its_user_but_is_aimed_at_a_creature() {
        let rs = pf2e();
        let effect = |id: &str| &rs.ability(id).expect("pf2e has it").effect;
        assert!(effect("stride").moves_user() && effect("stride").targets_square());
        assert!(effect("step").moves_user() && effect("step").targets_square());
        let charge = Effect::Charge {
            stat: "STR".into(),
            damage: crate::rules::dice::DiceExpr::parse("1d8").unwrap(),
            bonus: 2,
        };
        assert!(charge.moves_user() && !charge.targets_square() && charge.targets_creature());
        // Line of sight: a ranged Strike and a spell's save need it, a melee Strike does not.
        assert!(!effect("strike").needs_sight() && effect("shortbow").needs_sight());
        assert!(effect("electric_arc").needs_sight() && !effect("raise_shield").targets_creature());
    }

    #[test]
    fn display_name_falls_back_to_the_id() {
        let rs = pf2e();
        let mut d = rs.ability("strike").expect("pf2e has Strike").clone();
        assert_eq!(d.display_name(), "Strike");
        d.name.clear();
        assert_eq!(d.display_name(), "strike");
    }

    #[test]
    fn armour_class_adds_condition_bonuses() {
        let rs = pf2e();
        let stats = Stats(BTreeMap::from([("AC".to_string(), 15)]));
        assert_eq!(armor_class(&rs, 15, &stats, &with(&[])), 15);
        // shield_raised: +2.
        assert_eq!(armor_class(&rs, 15, &stats, &with(&["shield_raised"])), 17);
        // dead blocks actions; frightened does not.
        assert!(blocks_actions(&rs, &with(&["dead"])) && !blocks_actions(&rs, &with(&["frightened"])));
    }

    #[test]
    fn known_abilities_list_the_sheet_then_the_basic_ones_once() {
        let rs = pf2e();
        let listed = vec!["fear".to_string(), "strike".to_string()];
        let known: Vec<&String> = known_abilities(&rs, &listed).collect();
        assert_eq!(known, ["fear", "strike", "stride", "step", "raise_shield", "sustain"]);
        // A basic ability named twice is known once.
        let mut twice = rs.clone();
        twice.basic_abilities.push("stride".into());
        assert_eq!(known_abilities(&twice, &listed).count(), 6);
    }

    #[test]
    fn flanked_takes_two_foes_on_opposite_sides() {
        let p = GridPos { x: 5, y: 5 };
        let at = |squares: &'static [(i32, i32)]| move |q: GridPos| squares.contains(&(q.x, q.y));
        assert!(flanked(p, at(&[(4, 5), (6, 5)])));
        assert!(flanked(p, at(&[(4, 4), (6, 6)])));
        assert!(!flanked(p, at(&[(4, 5), (6, 6)])));
        assert!(!flanked(p, at(&[(4, 5)])));
        assert_eq!(opposite_squares(p).count(), 8);
    }
}
