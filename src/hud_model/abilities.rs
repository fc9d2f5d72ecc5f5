//! The active creature's ability buttons: costs, hotkeys, the engine's reason when one can't be
//! used, and the squares and targets a use would reach.

use crate::i18n::Tr;
use crate::rules::command::{ActIntent, Rejection};
use crate::rules::components::*;
use crate::rules::driver::Combat;
use crate::rules::ruleset::{ActionBudget, ActionType, Effect, Ruleset, Timing};
use crate::tr;

use super::{log, rejection_words, what_if_in};

/// One button of the ability bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbilityButton {
    /// Ability id (what commands name).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its cost in the ruleset's own terms: `2 actions`, `standard`, `RT 3 · CT 2`.
    pub cost: String,
    /// Its hotkey, if it has one.
    pub hotkey: Option<String>,
    /// Usable now (on at least one target or square).
    pub enabled: bool,
    /// Why not, in the engine's own words ([`Combat::explain`]).
    pub reason: Option<String>,
    /// Creatures it could be used on now.
    pub targets: Vec<Cid>,
    /// Where its user would act next if it used it now.
    pub what_if: Option<String>,
}

/// An ability's cost in its ruleset's terms.
pub fn cost_text(rs: &Ruleset, ability: &str) -> String {
    cost_text_in(rs, &Tr::default(), ability)
}

/// [`cost_text`] in a language.
pub(crate) fn cost_text_in(rs: &Ruleset, tr: &Tr, ability: &str) -> String {
    let Some(d) = rs.ability(ability) else { return String::new() };
    let timing = match d.timing {
        Timing::Reaction => Some(tr.t("cost-reaction")),
        Timing::Free => Some(tr.t("cost-free-action")),
        Timing::Action => None,
    };
    match rs.budget {
        ActionBudget::PerRoundPool { .. } | ActionBudget::PerTurnPool { .. } => match (timing, d.cost) {
            (Some(t), _) => t,
            (None, 0) => tr.t("cost-bonus-action"),
            (None, n) => tr!(tr, "n-actions", n = n),
        },
        ActionBudget::TypedSlots { .. } => match d.casting_rounds {
            Some(r) => tr!(tr, "cost-full-round-cast", n = r),
            None => tr.t(match d.action {
                ActionType::Standard => "cost-standard",
                ActionType::Move => "cost-move",
                ActionType::FullRound => "cost-full-round",
                ActionType::Swift => "cost-swift",
                ActionType::Immediate => "cost-immediate",
                ActionType::Free => "cost-free",
                ActionType::FiveFootStep => "cost-five-foot-step",
            }),
        },
        ActionBudget::OneTimedActionPerTurn => {
            let mut parts = Vec::new();
            if let Some(t) = timing {
                parts.push(t);
            }
            match d.recovery {
                Some(rt) => parts.push(tr!(tr, "cost-rt", n = rt)),
                None if d.effect.targets_square() => parts.push(tr.t("cost-rt-by-mode")),
                None => {}
            }
            if let Some(ct) = d.cast_time {
                parts.push(tr!(tr, "cost-ct", n = ct));
            }
            if let Some(ft) = d.focus_time {
                parts.push(tr!(tr, "cost-ft", n = ft));
            }
            parts.join(" · ")
        }
    }
}

/// The free squares next to `target` (within melee reach), nearest to `who` first: where a
/// charge at it could end.
pub(super) fn charge_squares(combat: &Combat, who: Cid, target: Cid) -> Vec<GridPos> {
    let (Some(t), Some(me)) = (combat.get::<GridPos>(target).copied(), combat.get::<GridPos>(who).copied()) else {
        return Vec::new();
    };
    let reach = combat.ruleset().engagement.melee_reach.max(1) as i32;
    let mut v: Vec<GridPos> = (-reach..=reach)
        .flat_map(|dx| (-reach..=reach).map(move |dy| GridPos { x: t.x + dx, y: t.y + dy }))
        .filter(|q| *q != t && combat.map().passable(*q))
        .collect();
    v.sort_by_key(|q| (me.distance(*q), q.y, q.x));
    v
}

/// Where `who` would end a charge with `ability` at `target`: the nearest square next to it
/// that the engine's dry run accepts (the game's click and the AI-free hotkey path use it).
pub fn charge_destination(combat: &mut Combat, who: Cid, ability: &str, target: Cid) -> Option<GridPos> {
    let squares = charge_squares(combat, who, target);
    let intents: Vec<ActIntent> = squares
        .iter()
        .map(|q| {
            let mut i = ActIntent::new(who, ability.to_string(), vec![target]);
            i.to = Some(*q);
            i
        })
        .collect();
    let ok = combat.check_acts(&intents);
    squares.into_iter().zip(ok).find(|(_, r)| r.is_ok()).map(|(q, _)| q)
}

/// Creatures the ability may target now, by the engine's own dry run (a charge: with a square
/// next to the target to end on).
pub(crate) fn valid_targets(combat: &mut Combat, who: Cid, ability: &str) -> Vec<Cid> {
    if combat.ruleset().ability(ability).is_some_and(|d| matches!(d.effect, Effect::Charge { .. })) {
        return (0..combat.len() as u32)
            .map(Cid)
            .filter(|t| charge_destination(combat, who, ability, *t).is_some())
            .collect();
    }
    (0..combat.len() as u32)
        .map(Cid)
        .filter(|t| combat.check_act(&crate::rules::command::ActIntent::new(who, ability, vec![*t])).is_ok())
        .collect()
}

/// The creatures a person's use of `ability` on `clicked` names: `clicked` alone; or, for an
/// ability that hits every creature named (`targets: All`, an area: Fireball, Bless), every
/// creature on `clicked`'s side it can be used on now, as the AI names them (issue 28). `clicked`
/// stays among them even when it cannot be, so that a refusal names it.
pub(crate) fn targets_of_use(combat: &mut Combat, who: Cid, ability: &str, clicked: Cid) -> Vec<Cid> {
    let area = combat
        .ruleset()
        .ability(ability)
        .is_some_and(|d| d.effect.picks_creatures() && d.targets == crate::rules::ruleset::TargetCount::All);
    if !area {
        return vec![clicked];
    }
    let side = |c: &Combat, t: Cid| c.get::<crate::rules::components::Side>(t).map(|s| s.0.clone());
    let theirs = side(combat, clicked);
    let mut v: Vec<Cid> =
        valid_targets(combat, who, ability).into_iter().filter(|t| side(combat, *t) == theirs).collect();
    if !v.contains(&clicked) {
        v.push(clicked);
        v.sort();
    }
    v
}

/// Abilities the creature has, in hotkey order: its own, then the ruleset's basic ones.
pub(crate) fn abilities_of(combat: &Combat, who: Cid) -> Vec<String> {
    let listed = combat.get::<Abilities>(who).map_or(&[][..], |a| &a.0[..]);
    crate::rules::query::known_abilities(combat.ruleset(), listed).cloned().collect()
}

/// The active creature's ability bar: every ability with its cost and hotkey, and, for those it
/// can't use now, the engine's reason. `hotkeys[i]` is the key of the i-th ability.
///
/// An ability counts as usable when the engine's dry run accepts it on at least one creature
/// (targeted abilities), on at least one square (movement, [`Combat::reachable`]), or as it is
/// (the rest). When none is accepted, the reason shown is the engine's rejection of the nearest
/// plausible use: the nearest enemy for hostile abilities, the nearest ally or itself for helpful
/// ones, the nearest free square for movement.
pub fn ability_buttons(combat: &mut Combat, who: Cid, hotkeys: &[String]) -> Vec<AbilityButton> {
    ability_buttons_in(combat, who, hotkeys, &Tr::default())
}

/// [`ability_buttons`] in a language.
pub(crate) fn ability_buttons_in(combat: &mut Combat, who: Cid, hotkeys: &[String], tr: &Tr) -> Vec<AbilityButton> {
    let rs = combat.ruleset().clone();
    let ids = abilities_of(combat, who);
    let me = combat.get::<GridPos>(who).copied();
    let my_side = combat.get::<Side>(who).cloned();
    // Everyone, nearest first: the dry runs below stop at the first accepted target.
    let mut others: Vec<(u32, Cid, bool)> = (0..combat.len() as u32)
        .map(Cid)
        .map(|c| {
            let d = match (me, combat.get::<GridPos>(c)) {
                (Some(a), Some(b)) => a.distance(*b),
                _ => u32::MAX,
            };
            (d, c, combat.get::<Side>(c).cloned() == my_side)
        })
        .collect();
    others.sort();
    let mut out = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        let def = rs.ability(id).cloned();
        let name = log::ability_name(&rs, tr, id);
        let mut targets = Vec::new();
        let mut reason = None;
        let enabled = match def.as_ref().map(|d| &d.effect) {
            Some(e) if e.targets_square() => {
                let reach = combat.reachable(who, id);
                if reach.is_empty() {
                    // Ask the engine about the nearest free square, for its reason.
                    let probe = me.and_then(|p| {
                        [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
                            .iter()
                            .map(|(dx, dy)| GridPos { x: p.x + dx, y: p.y + dy })
                            .find(|q| combat.map().passable(*q))
                    });
                    let mut intent = ActIntent::new(who, id.clone(), vec![]);
                    intent.to = probe;
                    reason = Some(match combat.check_act(&intent) {
                        Err(r) => rejection_words(combat, &r, tr),
                        Ok(()) => tr.t("bar-nowhere-to-move"),
                    });
                }
                !reach.is_empty()
            }
            Some(e) if e.targets_creature() => {
                let hostile = !matches!(e, Effect::Assist { .. } | Effect::Heal { .. });
                let answers: Vec<Result<(), Rejection>> = if matches!(e, Effect::Charge { .. }) {
                    // A charge needs a destination next to its target: the engine is asked about
                    // the squares around each target, and a target counts if one of them works.
                    let mut per_target = Vec::with_capacity(others.len());
                    for (_, c, _) in &others {
                        let squares = charge_squares(combat, who, *c);
                        let intents: Vec<ActIntent> = squares
                            .iter()
                            .map(|q| {
                                let mut i = ActIntent::new(who, id.clone(), vec![*c]);
                                i.to = Some(*q);
                                i
                            })
                            .collect();
                        let mut got = combat.check_acts(&intents);
                        per_target.push(match got.iter().position(Result::is_ok) {
                            Some(_) => Ok(()),
                            None if got.is_empty() => combat.check_act(&ActIntent::new(who, id.clone(), vec![*c])),
                            None => got.swap_remove(0),
                        });
                    }
                    per_target
                } else {
                    let intents: Vec<ActIntent> =
                        others.iter().map(|(_, c, _)| ActIntent::new(who, id.clone(), vec![*c])).collect();
                    combat.check_acts(&intents)
                };
                for ((_, c, _), a) in others.iter().zip(&answers) {
                    if a.is_ok() {
                        targets.push(*c);
                    }
                }
                if targets.is_empty() {
                    let pick = others
                        .iter()
                        .zip(&answers)
                        .find(|((_, c, ally), _)| *c != who && *ally != hostile)
                        .or_else(|| others.iter().zip(&answers).next());
                    reason = pick.and_then(|(_, a)| a.as_ref().err()).map(|r| rejection_words(combat, r, tr));
                }
                !targets.is_empty()
            }
            Some(_) => match combat.check_act(&ActIntent::new(who, id.clone(), vec![])) {
                Ok(()) => true,
                Err(r) => {
                    reason = Some(rejection_words(combat, &r, tr));
                    false
                }
            },
            None => {
                reason = Some(rejection_words(combat, &Rejection::UnknownAbility(id.clone()), tr));
                false
            }
        };
        let what_if = what_if_in(combat, who, id, tr).map(|w| w.text);
        out.push(AbilityButton {
            id: id.clone(),
            name,
            cost: cost_text_in(&rs, tr, id),
            hotkey: hotkeys.get(i).cloned(),
            enabled,
            reason: if enabled { None } else { reason.or_else(|| Some(tr.t("bar-refused-now"))) },
            targets,
            what_if,
        });
    }
    out
}
