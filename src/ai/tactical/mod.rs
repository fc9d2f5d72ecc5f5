//! The tactical AI: a one-turn planner over the public command interface.
//!
//! On its turn it weighs plans and sends the first step of the best one:
//!
//! - **Kills first.** An attack is worth the expected damage it deals, capped at what the target
//!   has left, times the target's threat per hit point (its expected damage per round divided by
//!   its hit points). Finishing a weak or dangerous target is worth the most; overkill is worth
//!   nothing.
//! - **No free attacks for the enemy.** Moving out of engagement costs the expected attacks of
//!   opportunity it provokes, so the planner prefers to Disengage or Step first, or not to move.
//! - **Defend when threatened.** A self-buff (Defend, Raise a Shield, Total Defense, Shield) is
//!   worth the damage it is expected to prevent before it ends; it is used when nothing better is.
//! - **Range.** A creature whose best attacks are ranged (or spells) counts being in enemy reach
//!   as a cost, steps away when that pays, and shoots; on a map with walls it moves to see a
//!   target when it sees none. Spells that take several targets (saves, damage, conditions) are
//!   aimed at every enemy in sight, buffs at every ally they help.
//! - **Who is out.** Down or dying creatures are left alone; one that recovered at 0 hit points
//!   (pf2e) still fights, and any hit puts it down again.
//! - **The whole budget.** Plans are scored by what the whole turn achieves under the ruleset's
//!   budget strategy (`ActionBudget`): a pool of actions filled greedily by value per action,
//!   typed slots (a full-round action against a standard plus a move, a 5-foot step first), or
//!   one timed action chosen by value per segment of recovery time (`TurnModel::RecoveryTime`).
//!   Left-over actions of a round pool are held for an enemy's approach when the ruleset holds
//!   actions (`ReorderPolicy::HoldForPriority`).
//!
//! It answers its decisions too: the better defence by the odds of blocking, every attack of
//! opportunity (with its best attack), openings (its best affordable attack), triggered abilities
//! only when they help (a reaction is kept for Reactive Strike), the restricted action lost first,
//! casts released at once, a return from Delay or a release when nothing else is scheduled, and
//! the Recovery Action when a condition a save can end stops it.
//!
//! Cost: one decision reads each combatant once, prices every ability against every target, finds
//! the squares each movement ability reaches (the engine's own path search on the battle map) and
//! prices a full turn only from the squares next to enemies and the best few others; no world is
//! cloned. The map is read through `Combat::map` (paths, line of sight), so a command it sends is
//! one the engine takes; `play_by` tries the candidates in order with `Combat::try_submit_as` anyway.
//! Within a decision it remembers what is a pure function of what it read (a budget filled from a
//! square, a square's value, the squares within a range and their shortlist); across decisions,
//! per thread, path searches by their inputs (up to 16,384 of them) and every sight line on the
//! map. About 9 µs a decision in release on the 4v4 bench (docs/performance.md).
//!
//! Rule questions (armour class, who can act, flanking, line of sight needed, components, the
//! abilities a creature knows) are the rules' own, asked of [`crate::rules::query`].
//!
//! This file holds the entry points and the answers to decisions. One decision is a `read::View`
//! of the combat; its parts, in the order a decision uses them:
//!
//! - `read`: reading the state, once (the creatures, the decider's options and movers);
//! - `budget`: what is left to spend this turn, and what an ability costs;
//! - `odds`: hit and save chances, expected damage, the damage expected before the next turn;
//! - `pricing`: what one option is worth from a square, a whole budget filled from it, and each
//!   creature's rating;
//! - `positions`: where to stand (approach, exposure, reachable squares, sight);
//! - `planning`: the turn's plans and the commands they become;
//! - `memo`: what is remembered across decisions, per thread (path searches, sight lines).

mod budget;
#[cfg(test)]
mod expected;
mod memo;
mod odds;
mod planning;
mod positions;
mod pricing;
mod read;

use crate::rules::command::{ActionLoss, Choice, Command, DefenseMethod};
use crate::rules::components::{Abilities, Casting, Cid, Conditions, Stats};
use crate::rules::driver::Combat;
use crate::rules::query;
use crate::rules::ruleset::{ConditionDef, DefenseRule, Effect, Timing};
use crate::rules::state::{DecisionKind, Pending};

use odds::p_at_least;
use read::View;

/// Values at or below this are "nothing worth doing".
const EPS: f32 = 1e-3;
/// Rounds a lasting effect is counted for: fights rarely last longer once it matters.
const HORIZON: f32 = 3.0;
/// Weights measured against the basic AI (`tests/integration/ai_strength.rs`, 400 seeds a
/// ruleset). A ranged creature standing in enemy reach pays this share of the damage it expects
/// there. A melee creature pays nothing for it: shying from contact cost pf2e wins (mirrored 4v4:
/// 57% → 73%).
const RANGED_EXPOSURE: f32 = 0.6;
/// Each move a melee creature still needs before it can strike costs this share of one attack,
/// and each square of the way this much: enough to close in when there is nothing better to do,
/// little enough not to run ahead of its side into the enemy's shots (skirmish-4v4 under
/// homebrew-d20: 60% at 0.3, 72% at 0.03; the open plane unchanged).
const APPROACH: f32 = 0.03;
/// See [`APPROACH`].
const APPROACH_PER_SQUARE: f32 = 0.003;
/// Damage a buff is expected to prevent counts at this weight against damage dealt: enemies pick
/// other targets, and a dead enemy prevents more. At full weight Raise a Shield crowded out
/// strides towards the next target (pf2e 57% → 79% at 0.1; the other rulesets unchanged).
const DEFENSE_WEIGHT: f32 = 0.1;
/// Plans kept for falling back when the first is not possible.
const MAX_PLANS: usize = 6;

/// The command for `who`'s turn: the first of [`turn_candidates`].
pub(crate) fn turn_command(combat: &Combat, who: Cid) -> Command {
    turn_candidates(combat, who).into_iter().next().unwrap_or(Command::EndTurn { actor: who })
}

/// The commands for `who`'s turn, best first, ending with `EndTurn`: a driver that can dry-run
/// commands (`Combat::check_act`) sends the first the engine would take.
pub(crate) fn turn_candidates(combat: &Combat, who: Cid) -> Vec<Command> {
    let mut out = match View::new(combat, who) {
        Some(v) => v.turn(),
        None => Vec::new(),
    };
    out.push(Command::EndTurn { actor: who });
    out
}

/// The answer to the decision `who` must make now.
pub(crate) fn decision(combat: &Combat, who: Cid) -> Option<Choice> {
    let p = combat.world.resource::<Pending>().0.as_ref()?;
    Some(match &p.kind {
        DecisionKind::Defense { options, attack_total, .. } => {
            Choice::Defend(best_defense(combat, who, options, *attack_total))
        }
        DecisionKind::Opportunity { mover, options } => {
            let pick = View::new(combat, who).and_then(|v| v.best_opportunity(*mover, options));
            Choice::Opportunity(pick.or_else(|| options.first().cloned()))
        }
        DecisionKind::Opening { .. } => Choice::Opening(View::new(combat, who).and_then(|v| v.opening())),
        DecisionKind::Triggered { options, .. } => Choice::Triggered(triggered(combat, who, options)),
        // Keep the flexible action: the restricted one can only pay for some abilities.
        DecisionKind::ActionLoss => Choice::LoseFirst(ActionLoss::Restricted),
        // Holding a cast only delays its effect: release it now.
        DecisionKind::CastComplete { .. } => Choice::HoldCast(false),
        DecisionKind::AssistApproval { .. } | DecisionKind::InitiativeTie { .. } => return None,
    })
}

/// Nothing is scheduled (segments): bring back a creature this AI plays that is delaying or
/// readying, or release a held cast.
pub(crate) fn return_command(combat: &Combat, plays: impl Fn(Cid) -> bool) -> Option<Command> {
    let turn = combat.turn();
    if let Some(c) = turn.delayed.iter().copied().find(|c| plays(*c)) {
        return Some(Command::ReturnFromDelay { actor: c });
    }
    for i in 0..combat.len() as u32 {
        let c = Cid(i);
        if !plays(c) {
            continue;
        }
        if combat.get::<Casting>(c).and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding) {
            return Some(Command::Release { actor: c });
        }
        if turn.off_schedule.contains(&c)
            && combat.get::<crate::rules::components::HeldActions>(c).is_some_and(|h| !h.0.is_empty())
        {
            return Some(Command::ReturnFromDelay { actor: c });
        }
    }
    None
}

/// The defence with the better odds of blocking `attack_total` (Dodge on a tie).
fn best_defense(combat: &Combat, who: Cid, options: &[DefenseMethod], total: i32) -> DefenseMethod {
    let DefenseRule::ActiveRoll { dodge_stat, parry_stat, dice, defender_wins_ties, .. } = &combat.ruleset().defense
    else {
        return DefenseMethod::NoDefense;
    };
    let stats = combat.get::<Stats>(who);
    let adv = combat.get::<Conditions>(who).is_some_and(|k| query::has_defense_advantage(combat.ruleset(), k));
    let odds = |m: DefenseMethod| -> f32 {
        let stat = match m {
            DefenseMethod::Dodge => stats.map_or(0, |s| s.get(dodge_stat)),
            DefenseMethod::Parry => stats.map_or(0, |s| s.get(parry_stat)),
            DefenseMethod::NoDefense => return -1.0,
        };
        // Blocked when the defence total reaches the attack (or passes it).
        let need = if *defender_wins_ties { total } else { total + 1 };
        let p = p_at_least(dice, stat, need);
        if adv { 1.0 - (1.0 - p) * (1.0 - p) } else { p }
    };
    let mut best = DefenseMethod::NoDefense;
    let mut best_p = f32::MIN;
    for m in options {
        let p = odds(*m);
        if p > best_p + 1e-6 {
            best = *m;
            best_p = p;
        }
    }
    best
}

/// Triggered free actions are taken when they do something; a triggered reaction only when it
/// does more than the reaction is worth kept (an attack of opportunity).
fn triggered(combat: &Combat, who: Cid, options: &[String]) -> Option<String> {
    let rs = combat.ruleset();
    let listed = combat.get::<Abilities>(who).map_or(&[][..], |a| &a.0[..]);
    let keeps_reaction =
        query::known_abilities(rs, listed).filter_map(|id| rs.ability(id)).any(|d| query::is_opportunity_attack(rs, d));
    options
        .iter()
        .filter_map(|a| rs.ability(a))
        .find(|d| {
            let useful = match &d.effect {
                Effect::SelfCondition { condition, .. } => rs.condition(condition).is_some_and(condition_matters),
                Effect::Narrative => false,
                _ => true,
            };
            match d.timing {
                Timing::Free => useful || d.cost == 0,
                _ => useful && !keeps_reaction,
            }
        })
        .map(|d| d.id.clone())
}

/// Whether a condition changes anything a rule looks at.
fn condition_matters(d: &ConditionDef) -> bool {
    d.blocks_actions
        || d.defense_advantage
        || d.regain_bonus > 0
        || d.regain_loses_value
        || d.ac_bonus != 0
        || d.ac_loses_stat.is_some()
        || d.rt_add != 0
        || d.persistent_damage.is_some()
        || !d.blocks_components.is_empty()
        || !d.modifiers.is_empty()
}

/// A small fight for the tests beside the code (the shipped rulesets also for the game's).
#[cfg(test)]
pub(crate) mod fixture {
    use std::collections::BTreeMap;
    use std::path::Path;

    use crate::rules::components::{Controller, InitiativeSetup};
    use crate::rules::driver::Combat;
    use crate::rules::ruleset::Ruleset;
    use crate::rules::setup::CombatantSpec;

    /// A shipped ruleset.
    pub(crate) fn ruleset(name: &str) -> Ruleset {
        Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{name}.ron")))
            .expect("shipped ruleset loads")
    }

    /// A shipped ruleset without its attack math (issue 50: the plain roll against AC, saves
    /// that pass or fail): for the tests of pricing rules other than the attack math, whose
    /// hand-worked numbers count faces of a plain d20. The attack math's own pricing is tested
    /// on the shipped rulesets.
    pub(crate) fn plain(name: &str) -> Ruleset {
        let mut rs = ruleset(name);
        rs.attack_math = Default::default();
        rs.saves.degrees = None;
        for a in &mut rs.abilities {
            if let crate::rules::ruleset::Effect::Save { basic, .. } = &mut a.effect {
                *basic = false;
            }
        }
        rs
    }

    /// A pf2e duel ([`plain`]: its attack math off) on the open plane (a d20 against AC; three actions a turn): `a` (`Cid(0)`: STR
    /// 3, AC 15, 20 hit points) on (0, 0) and `b` (`Cid(1)`: STR 3, AC 16) next to it on (1, 0)
    /// with `hp` hit points and `conditions`. Both know the basic abilities only: Strike
    /// (d20 + STR, 1d8+STR), Stride, Step, Raise a Shield (+2 AC for a round), Sustain.
    pub(crate) fn duel(hp: i32, conditions: &[&str]) -> Combat {
        duel_with(hp, conditions, &[], &[])
    }

    /// [`duel`], with abilities and conditions for a too.
    pub(super) fn duel_with(hp: i32, conditions: &[&str], a_knows: &[&str], a_has: &[&str]) -> Combat {
        duel_in(plain("pf2e"), hp, conditions, a_knows, a_has)
    }

    /// [`duel`] under the shipped pf2e, its attack math on (issue 50).
    pub(super) fn duel_shipped(hp: i32) -> Combat {
        duel_in(ruleset("pf2e"), hp, &[], &[], &[])
    }

    fn duel_in(rs: Ruleset, hp: i32, conditions: &[&str], a_knows: &[&str], a_has: &[&str]) -> Combat {
        let spec = |name: &str, at: (i32, i32), ac: i32, hp: i32, conditions: &[&str]| CombatantSpec {
            name: name.into(),
            names: BTreeMap::new(),
            side: name.into(),
            stats: BTreeMap::from([("STR".to_string(), 3), ("AC".to_string(), ac)]),
            hp,
            abilities: if name == "a" { a_knows.iter().map(|s| s.to_string()).collect() } else { vec![] },
            initiative: InitiativeSetup::Total(10),
            at,
            movement: BTreeMap::new(),
            controller: Controller::Script,
            conditions: conditions.iter().map(|c| c.to_string()).collect(),
            traits: vec![],
            aware: true,
            items: Default::default(),
            loadouts: Default::default(),
            movement_for: Default::default(),
        };
        let specs = [spec("a", (0, 0), 15, 20, a_has), spec("b", (1, 0), 16, hp, conditions)];
        Combat::new(rs, 1, &specs).expect("valid set-up")
    }

    /// A pf2e healer `a` (`Cid(0)`) between two allies of its side, `x` (`Cid(1)`) on (1, 0) and
    /// `y` (`Cid(2)`) on (0, 1), all alike (STR 3, AC 15, 20 hit points), with `x` and `y` at
    /// these hit points, and a foe (`Cid(3)`) far off on (9, 9). `a` knows Heal (3d8 on every
    /// ally in reach) and Mend, a test ability: 2d4 on one ally (`targets: UpTo(1)`).
    pub(super) fn healers(x_hp: i32, y_hp: i32) -> Combat {
        let mut rs = ruleset("pf2e");
        rs.abilities.push(
            ron::from_str(r#"(id: "mend", name: "Mend", cost: 1, targets: UpTo(1), effect: Heal(amount: "2d4"))"#)
                .expect("Mend parses"),
        );
        let spec = |name: &str, side: &str, at: (i32, i32), init: i32| CombatantSpec {
            name: name.into(),
            side: side.into(),
            stats: BTreeMap::from([("STR".to_string(), 3), ("AC".to_string(), 15)]),
            hp: 20,
            abilities: if name == "a" { vec!["heal".into(), "mend".into()] } else { vec![] },
            initiative: InitiativeSetup::Total(init),
            at,
            ..Default::default()
        };
        let specs = [
            spec("a", "heroes", (0, 0), 20),
            spec("x", "heroes", (1, 0), 15),
            spec("y", "heroes", (0, 1), 12),
            spec("foe", "foes", (9, 9), 5),
        ];
        let mut c = Combat::new(rs, 1, &specs).expect("valid set-up");
        let roster = c.world.resource::<crate::rules::state::Roster>().entities.clone();
        for (i, hp) in [(1, x_hp), (2, y_hp)] {
            c.world.get_mut::<crate::rules::components::Health>(roster[i]).expect("a combatant has health").hp = hp;
        }
        c
    }
}

/// Found by cargo-mutants (issue 26: the AI area's sample).
#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::rules::components::InitiativeSetup;
    use crate::rules::setup::CombatantSpec;

    /// A homebrew-d20 defender (`Cid(0)`, DEX for Dodge, STR for Parry) with these conditions, and
    /// an attacker beside it.
    fn defender(dex: i32, str_: i32, conditions: &[&str]) -> Combat {
        let spec = |name: &str, at: (i32, i32), stats: &[(&str, i32)], conds: &[&str]| CombatantSpec {
            name: name.into(),
            side: name.into(),
            at,
            hp: 20,
            stats: stats.iter().map(|(k, v)| (k.to_string(), *v)).collect::<BTreeMap<_, _>>(),
            conditions: conds.iter().map(|c| c.to_string()).collect(),
            initiative: InitiativeSetup::Total(10),
            ..Default::default()
        };
        let specs = [spec("d", (0, 0), &[("DEX", dex), ("STR", str_)], conditions), spec("a", (1, 0), &[], &[])];
        Combat::new(fixture::ruleset("homebrew-d20"), 1, &specs).expect("valid set-up")
    }

    #[test]
    fn the_better_defence_is_chosen_dodge_on_a_tie_and_advantage_keeps_the_order() {
        use DefenseMethod::{Dodge, NoDefense, Parry};
        let both = [Dodge, Parry];
        // Equal stats: Dodge.
        assert_eq!(best_defense(&defender(3, 3, &[]), Cid(0), &both, 15), Dodge);
        // The higher stat wins, whichever it is, also when listed second.
        assert_eq!(best_defense(&defender(1, 4, &[]), Cid(0), &both, 15), Parry);
        assert_eq!(best_defense(&defender(4, 1, &[]), Cid(0), &[Parry, Dodge], 15), Dodge);
        // With advantage on defence rolls the better stat still has the better odds.
        assert_eq!(best_defense(&defender(1, 4, &["defensive_position"]), Cid(0), &both, 15), Parry);
        // Nothing to roll: no defence.
        assert_eq!(best_defense(&defender(1, 4, &[]), Cid(0), &[], 15), NoDefense);
    }

    #[test]
    fn a_condition_matters_when_a_rule_looks_at_one_of_its_fields() {
        let plain = ConditionDef::named("plain");
        assert!(!condition_matters(&plain));
        let with = |f: &dyn Fn(&mut ConditionDef)| {
            let mut c = plain.clone();
            f(&mut c);
            condition_matters(&c)
        };
        assert!(with(&|c| c.regain_bonus = 1));
        assert!(with(&|c| c.ac_bonus = -1));
        assert!(with(&|c| c.rt_add = 2));
        assert!(with(&|c| c.blocks_actions = true));
        assert!(with(&|c| c.modifiers.push(crate::rules::ruleset::RollModifier {
            to: vec![crate::rules::ruleset::RollOn::Attack],
            kind: crate::rules::ruleset::BonusKind::Status,
            amount: 1,
            per_value: false,
        })));
    }

    /// A Stride moves as the fastest of a creature's modes, and names that mode only when it has
    /// several; a speed of nothing gives no Stride to plan with (issue 26: `len() > 1` as `==`,
    /// and `range > 0` as `>=`, survived).
    #[test]
    fn a_stride_takes_the_fastest_mode_and_names_it_only_among_several() {
        let stride = |movement: &[(&str, u32)]| -> Option<(u32, Option<String>)> {
            let spec = |name: &str, at: (i32, i32), movement: &[(&str, u32)]| CombatantSpec {
                name: name.into(),
                side: name.into(),
                at,
                hp: 20,
                movement: movement.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
                initiative: InitiativeSetup::Total(10),
                ..Default::default()
            };
            let c = crate::rules::driver::Combat::new(
                fixture::ruleset("pf2e"),
                1,
                &[spec("a", (0, 0), movement), spec("b", (9, 9), &[])],
            )
            .expect("valid set-up");
            let v = View::new(&c, Cid(0)).expect("a reads the fight");
            v.movers.iter().find(|m| m.def.id == "stride").map(|m| (m.range, m.mode.map(str::to_string)))
        };
        assert_eq!(stride(&[("land", 5), ("fly", 8)]), Some((8, Some("fly".into()))));
        assert_eq!(stride(&[("land", 5)]), Some((5, None)));
        assert_eq!(stride(&[("land", 0)]), None);
    }

    /// A creature with more than 64 options (the planner's bit set of options taken holds 64)
    /// still plans, and takes its best, the 65th (issue 26: `i < 64` as `<=` survived; it
    /// overflows the shift).
    #[test]
    fn a_creature_with_more_than_64_options_plans_with_its_65th() {
        let with_pokes = |n: usize| {
            let mut rs = fixture::ruleset("pf2e");
            let mut knows = Vec::new();
            for i in 0..n {
                let id = format!("poke{i}");
                rs.abilities.push(
                    ron::from_str(&format!(
                        r#"(id: "{id}", name: "{id}", cost: 1, targets: UpTo(1), effect: Damage(amount: "1d2"))"#
                    ))
                    .expect("a poke parses"),
                );
                knows.push(id);
            }
            rs.abilities.push(
                ron::from_str(
                    r#"(id: "blast", name: "Blast", cost: 1, targets: UpTo(1), effect: Damage(amount: "4d6"))"#,
                )
                .expect("Blast parses"),
            );
            knows.push("blast".into());
            let spec = |name: &str, at: (i32, i32), abilities: Vec<String>| CombatantSpec {
                name: name.into(),
                side: name.into(),
                at,
                hp: 40,
                abilities,
                initiative: InitiativeSetup::Total(if name == "a" { 20 } else { 5 }),
                ..Default::default()
            };
            crate::rules::driver::Combat::new(rs, 1, &[spec("a", (0, 0), knows), spec("b", (5, 0), vec![])])
                .expect("valid set-up")
        };
        let c = with_pokes(0);
        let base = View::new(&c, Cid(0)).expect("a reads the fight").opts.iter().position(|o| o.def.id == "blast");
        let base = base.expect("Blast is an option");
        assert!(base < 64);
        let c = with_pokes(64 - base);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        assert_eq!(v.opts.iter().position(|o| o.def.id == "blast"), Some(64));
        let Command::Act(first) = turn_command(&c, Cid(0)) else { panic!("a acts") };
        assert_eq!(first.ability, "blast");
    }
}
