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
    /// Display name, with the multiple attack penalty its use would take now when there is one
    /// (`Strike −5`, G-P2-23).
    pub name: String,
    /// The multiple attack penalty its use would take now (G-P2-23): 0 for none.
    pub penalty: i32,
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
    /// For an attack against a static AC: each target's chances to hit and to crit now, in words
    /// (`hit 55% · critical 5%`, [`attack_odds_text`]), in the order of `targets`.
    pub odds: Vec<(Cid, String)>,
}

/// The chances that `who`'s use of `ability` on `target` would hit and be a critical hit now
/// ([`Combat::attack_odds`]: the penalty, flanking, assists, conditions, degrees and threats), in
/// words: `hit 55% · critical 5%`, the critical part only under a ruleset with critical hits.
/// `None` for an ability without an attack roll, or under an active defence (homebrew-d20's
/// defensive rolls): the preview then shows nothing new.
pub fn attack_odds_text(combat: &mut Combat, who: Cid, ability: &str, target: Cid) -> Option<String> {
    attack_odds_text_in(combat, who, ability, target, &Tr::default())
}

/// [`attack_odds_text`] in a language.
pub(crate) fn attack_odds_text_in(
    combat: &mut Combat,
    who: Cid,
    ability: &str,
    target: Cid,
    tr: &Tr,
) -> Option<String> {
    let odds = combat.attack_odds(who, target, ability)?;
    let hit = percent(odds.hit);
    Some(if odds.multiplier > 1 {
        tr!(tr, "odds-hit-crit", hit = hit, crit = percent(odds.crit))
    } else {
        tr!(tr, "odds-hit", hit = hit)
    })
}

/// A chance as a whole percentage (`55`): `<1` for one that is not nil but rounds to 0, `>99` for
/// one short of certain that rounds to 100.
fn percent(p: f32) -> String {
    let x = (p * 100.0).clamp(0.0, 100.0);
    let r = x.round();
    if x > 0.0 && r < 1.0 {
        "<1".to_string()
    } else if x < 100.0 && r >= 100.0 {
        ">99".to_string()
    } else {
        format!("{}", r as i32)
    }
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
        // G-P2-23: the penalty this use would take now, on the button ("Strike −5").
        let penalty = combat.attack_penalty(who, id);
        let name = match penalty {
            0 => log::ability_name(&rs, tr, id),
            p => tr!(tr, "ability-with-penalty", name = log::ability_name(&rs, tr, id), penalty = log::signed(p)),
        };
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
        let odds = if matches!(def.as_ref().map(|d| &d.effect), Some(Effect::Attack { .. })) {
            targets.iter().filter_map(|t| attack_odds_text_in(combat, who, id, *t, tr).map(|o| (*t, o))).collect()
        } else {
            Vec::new()
        };
        out.push(AbilityButton {
            id: id.clone(),
            name,
            penalty,
            cost: cost_text_in(&rs, tr, id),
            hotkey: hotkeys.get(i).cloned(),
            enabled,
            reason: if enabled { None } else { reason.or_else(|| Some(tr.t("bar-refused-now"))) },
            targets,
            what_if,
            odds,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hud_model::tests::fight_with;
    use crate::rules::command::Command;

    /// A pf2e Fighter (STR 5) next to an Orc (AC 15), the Fighter to act.
    fn pf2e_duel() -> (Combat, Cid, Cid) {
        let c = fight_with(
            "pf2e",
            &[
                ("Fighter", "heroes", (0, 0), 20, &[("STR", 5), ("AC", 18)], &[]),
                ("Orc", "monsters", (1, 0), 5, &[("AC", 15)], &[]),
            ],
        );
        let (f, o) = (c.cid("Fighter").unwrap(), c.cid("Orc").unwrap());
        assert_eq!(c.turn().active, Some(f), "the Fighter acts first");
        (c, f, o)
    }

    fn button(c: &mut Combat, who: Cid, id: &str) -> AbilityButton {
        ability_buttons(c, who, &[]).into_iter().find(|b| b.id == id).unwrap_or_else(|| panic!("no {id} on the bar"))
    }

    /// G-P2-23 on the ability bar (issue 50): after one Strike this turn the Strike button reads
    /// "Strike −5", after two "Strike −10"; an ability without the attack trait takes none.
    #[test]
    fn a_pf2e_strike_button_shows_the_multiple_attack_penalty() {
        let (mut c, f, o) = pf2e_duel();
        let first = button(&mut c, f, "strike");
        assert_eq!((first.name.as_str(), first.penalty), ("Strike", 0));
        // 1d20 10 + 5 = 15 against AC 15: a hit, 1d8 4 + 5 damage.
        c.force_dice([10, 4]);
        c.submit(Command::Act(ActIntent::new(f, "strike", vec![o]))).expect("the first Strike");
        let second = button(&mut c, f, "strike");
        assert_eq!((second.name.as_str(), second.penalty), ("Strike −5", -5));
        // 1d20 10 + 5 − 5 = 10 against 15: a miss.
        c.force_dice([10]);
        c.submit(Command::Act(ActIntent::new(f, "strike", vec![o]))).expect("the second Strike");
        let third = button(&mut c, f, "strike");
        assert_eq!((third.name.as_str(), third.penalty), ("Strike −10", -10));
        let stride = button(&mut c, f, "stride");
        assert_eq!((stride.name.as_str(), stride.penalty), ("Stride", 0));
        // In Spanish: the ability's own name, with the penalty.
        let es = ability_buttons_in(&mut c, f, &[], &Tr::shipped("es"));
        assert_eq!(es.iter().find(|b| b.id == "strike").map(|b| b.name.as_str()), Some("Golpe −10"));
    }

    /// The what-if preview of an attack on a target gives its chances to hit and to crit (issue
    /// 50), counted as the engine rolls (the multiple attack penalty lowers them); an ability
    /// without an attack roll, or homebrew-d20's defensive rolls, give none.
    #[test]
    fn the_preview_gives_the_chances_to_hit_and_to_crit() {
        let (mut c, f, o) = pf2e_duel();
        // 1d20 + 5 against AC 15: a hit on 10..=20 (55%), a critical on a natural 20 (5%).
        assert_eq!(attack_odds_text(&mut c, f, "strike", o).as_deref(), Some("hit 55% · critical 5%"));
        let strike = button(&mut c, f, "strike");
        assert!(strike.odds.contains(&(o, "hit 55% · critical 5%".to_string())), "{:?}", strike.odds);
        assert_eq!(attack_odds_text(&mut c, f, "stride", o), None);
        assert!(button(&mut c, f, "stride").odds.is_empty());
        // After one Strike, 1d20 + 0 against 15: a hit on 15..=20 (30%); a natural 20 still crits.
        c.force_dice([10, 4]);
        c.submit(Command::Act(ActIntent::new(f, "strike", vec![o]))).expect("the Strike");
        assert_eq!(attack_odds_text(&mut c, f, "strike", o).as_deref(), Some("hit 30% · critical 5%"));
        let in_lang = |c: &mut Combat, code: &str| attack_odds_text_in(c, f, "strike", o, &Tr::shipped(code));
        assert_eq!(in_lang(&mut c, "es").as_deref(), Some("impacto 30 % · crítico 5 %"));
        assert_eq!(in_lang(&mut c, "ko").as_deref(), Some("명중 30% · 치명타 5%"));
        // homebrew-d20: the defender rolls, so there are no chances to give.
        let mut h = crate::hud_model::tests::fight(
            "homebrew-d20",
            &[("Knight", "heroes", (0, 0), 20), ("Orc", "monsters", (1, 0), 5)],
        );
        let (k, orc) = (h.cid("Knight").unwrap(), h.cid("Orc").unwrap());
        assert_eq!(attack_odds_text(&mut h, k, "sword", orc), None);
        assert!(ability_buttons(&mut h, k, &[]).iter().all(|b| b.odds.is_empty()));
    }

    /// Chances in whole percents, never rounded to a certainty they are not.
    #[test]
    fn chances_round_to_whole_percents_short_of_nil_and_certain() {
        assert_eq!(percent(0.55), "55");
        assert_eq!(percent(0.0), "0");
        assert_eq!(percent(1.0), "100");
        assert_eq!(percent(1.0 / 400.0), "<1");
        assert_eq!(percent(399.0 / 400.0), ">99");
        assert_eq!(percent(11.0 / 400.0), "3");
    }
}
