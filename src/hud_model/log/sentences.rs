//! Events in words: one sentence per event, attacks in one sentence with their defence and
//! damage, dice as rolled, and the names of abilities, stats, conditions and movement modes, in
//! the chosen language.

use crate::i18n::Tr;
use crate::rules::command::{Choice, DefenseMethod};
use crate::rules::components::Cid;
use crate::rules::dice::DieRoll;
use crate::rules::log::{CombatEvent, DamageScale, Degree, DrawReason, EndReason, ModAction, NoOpportunityReason};
use crate::rules::ruleset::{CriticalRule, DefenseRule, Effect, RollOn, Ruleset};
use crate::tr;

use super::defense_stat;

/// The dice as rolled, term by term: `1d20 14`, `2d6 (4, 3)`, `2d20 (17, 4 dropped)`, `1d20 12 − 1d4 3`.
/// `None` when the event carries no dice (older logs).
pub fn dice_words(dice: &[DieRoll]) -> Option<String> {
    dice_words_in(&Tr::default(), dice)
}

/// [`dice_words`] in a language.
pub(crate) fn dice_words_in(tr: &Tr, dice: &[DieRoll]) -> Option<String> {
    if dice.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut i = 0;
    while i < dice.len() {
        let (sides, negative) = (dice[i].sides, dice[i].negative);
        let mut j = i;
        while j < dice.len() && dice[j].sides == sides && dice[j].negative == negative {
            j += 1;
        }
        let group = &dice[i..j];
        if out.is_empty() {
            if negative {
                out.push('−');
            }
        } else {
            out.push_str(if negative { " − " } else { " + " });
        }
        let faces: Vec<String> = group
            .iter()
            .map(|d| if d.kept { d.value.to_string() } else { tr!(tr, "roll-dropped", value = d.value) })
            .collect();
        if group.len() == 1 {
            out.push_str(&format!("1d{sides} {}", faces[0]));
        } else {
            out.push_str(&format!("{}d{sides} ({})", group.len(), faces.join(", ")));
        }
        i = j;
    }
    Some(out)
}

/// What a roll was made of: its die and results, its stat, named and other bonuses, the total.
struct RollParts<'a> {
    die: &'a str,
    rolls: &'a [i32],
    dice: &'a [DieRoll],
    stat: (&'a str, i32),
    named: &'a [(String, i32)],
    bonus: i32,
    total: i32,
    rs: &'a Ruleset,
}

/// `1d20 14 + STR 3 + 2 = 19`: the die, the stat, whatever else was added, the total.
fn roll_words(tr: &Tr, r: RollParts<'_>) -> String {
    let RollParts { die, rolls, dice, stat: (stat, stat_value), named, bonus, total, rs } = r;
    let shown = dice_words_in(tr, dice).unwrap_or_else(|| match rolls {
        [one] => format!("{die} {one}"),
        many => {
            let kept = many.iter().max().copied().unwrap_or(0);
            let all: Vec<String> = many.iter().map(|r| r.to_string()).collect();
            format!("{}{die} ({}) {}", many.len(), all.join(", "), tr!(tr, "roll-keep", value = kept))
        }
    });
    let mut s = shown;
    if !stat.is_empty() {
        let shown = stat_name(rs, tr, stat);
        s.push_str(&format!(" {} {shown} {}", if stat_value < 0 { "−" } else { "+" }, stat_value.abs()));
    }
    for (what, v) in named.iter().filter(|(_, v)| *v != 0) {
        s.push_str(&format!(" {} {what} {}", if *v < 0 { "−" } else { "+" }, v.abs()));
    }
    let labelled: i32 = named.iter().map(|(_, v)| *v).sum();
    let other = bonus.saturating_sub(if stat.is_empty() { 0 } else { stat_value }).saturating_sub(labelled);
    if other != 0 {
        s.push_str(&format!(" {} {}", if other < 0 { "−" } else { "+" }, other.abs()));
    }
    s.push_str(&format!(" = {total}"));
    s
}

/// The name of an ability in a language: its `names` entry, else its display name, else its id.
pub(crate) fn ability_name(rs: &Ruleset, tr: &Tr, id: &str) -> String {
    rs.ability(id).map_or(id.to_string(), |d| tr.name(d.display_name(), &d.names).to_string())
}

/// A stat's abbreviation in a language: the ruleset's `stat_names` entry, else the stat.
pub(crate) fn stat_name(rs: &Ruleset, tr: &Tr, stat: &str) -> String {
    rs.stat_names.get(stat).and_then(|n| n.get(tr.code())).cloned().unwrap_or_else(|| stat.to_string())
}

/// The name of a condition in a language: its `names` entry, else its id with spaces.
pub(crate) fn condition_name(rs: &Ruleset, tr: &Tr, id: &str) -> String {
    match rs.condition(id).and_then(|d| d.names.get(tr.code())) {
        Some(n) => n.clone(),
        None => id.replace('_', " "),
    }
}

/// A signed amount with a real minus sign: `−5`, `+2`.
pub(crate) fn signed(n: i32) -> String {
    if n < 0 { format!("−{}", n.unsigned_abs()) } else { format!("+{n}") }
}

/// The ruleset's attack dice as written (`1d20`).
fn attack_die(rs: &Ruleset) -> String {
    match &rs.defense {
        DefenseRule::ActiveRoll { attack_dice, .. } | DefenseRule::StaticAc { attack_dice, .. } => {
            attack_dice.to_string()
        }
    }
}

/// A threat's confirmation roll (G-P1-18) in words: `1d20 14 + 6 = 20`.
fn confirm_roll_words(rs: &Ruleset, tr: &Tr, roll: i32, bonus: i32, total: i32, dice: &[DieRoll]) -> String {
    let die = attack_die(rs);
    let mut s =
        roll_words(tr, RollParts { die: &die, rolls: &[roll], dice, stat: ("", 0), named: &[], bonus, total, rs });
    s.push_str(&natural_note(tr, crate::rules::odds::naturals_count(rs, false), dice));
    s
}

/// ` (natural 20)` after a roll whose d20 came up 20 or 1 where that means something
/// (`meaningful`), so that "1d20 1 + 30 = 31 … miss" does not read as a mistake; else nothing.
fn natural_note(tr: &Tr, meaningful: bool, dice: &[DieRoll]) -> String {
    match dice.iter().find(|d| d.kept && !d.negative) {
        Some(d) if meaningful && d.sides == 20 && (d.value == 20 || d.value == 1) => {
            format!(" ({})", tr!(tr, "roll-natural", value = d.value))
        }
        _ => String::new(),
    }
}

/// A degree of success in words (`critical failure`).
fn degree_words(tr: &Tr, d: Degree) -> String {
    tr.t(match d {
        Degree::CriticalFailure => "degree-critical-failure",
        Degree::Failure => "degree-failure",
        Degree::Success => "degree-success",
        Degree::CriticalSuccess => "degree-critical-success",
    })
}

/// How damage was changed ([`CombatEvent::DamageScaled`]), in words: `7 ×2` (a total multiplied,
/// G-P2-25), `dice ×2` (a confirmed critical rolled its dice twice: what was rolled is what is
/// taken, G-P1-18), `7 halved` (a basic save's success), `no damage` (its critical success).
pub(crate) fn scale_words(rs: &Ruleset, tr: &Tr, rolled: i32, amount: i32, scale: DamageScale) -> String {
    match scale {
        DamageScale::Times(n)
            if rolled == amount && matches!(rs.attack_math.critical, CriticalRule::Confirm { .. }) =>
        {
            tr!(tr, "damage-scale-dice-times", n = n)
        }
        DamageScale::Times(n) => tr!(tr, "damage-scale-times", rolled = rolled, n = n),
        DamageScale::Half => tr!(tr, "damage-scale-half", rolled = rolled),
    }
}

/// What goes between a damage's brackets: its dice as rolled, then how the damage was changed
/// (`1d8 4, 7 ×2`); `None` when there is neither.
fn damage_bracket(rs: &Ruleset, tr: &Tr, dice: &[DieRoll], scaled: Option<(i32, i32, DamageScale)>) -> Option<String> {
    let shown = dice_words_in(tr, dice);
    let Some((rolled, amount, scale)) = scaled else { return shown };
    let how = scale_words(rs, tr, rolled, amount, scale);
    Some(match shown {
        Some(d) => format!("{d}, {how}"),
        None => how,
    })
}

/// A saving throw's roll as the save sentences show it: `1d20 9 +2 = 11`.
fn save_roll_words(tr: &Tr, dice: &[DieRoll], roll: i32, bonus: i32, total: i32) -> String {
    let shown = dice_words_in(tr, dice).unwrap_or_else(|| format!("1d20 {roll}"));
    format!("{shown} {bonus:+} = {total}")
}

/// A [`CombatEvent::SaveRolled`] as a sentence that ends with its degree of success (G-P2-24:
/// the `SaveDegree` logged after it); `None` for any other event.
pub(super) fn save_sentence_with_degree(
    rs: &Ruleset,
    tr: &Tr,
    e: &CombatEvent,
    degree: Degree,
    names: &dyn Fn(Cid) -> String,
) -> Option<String> {
    let CombatEvent::SaveRolled { who, stat, roll, bonus, total, dc, dice, .. } = e else { return None };
    let naturals = crate::rules::odds::naturals_count(rs, true);
    Some(tr!(
        tr,
        "log-save-degree-result",
        who = names(*who),
        stat = stat_name(rs, tr, stat),
        roll = save_roll_words(tr, dice, *roll, *bonus, *total) + &natural_note(tr, naturals, dice),
        dc = dc,
        degree = degree_words(tr, degree)
    ))
}

/// A [`CombatEvent::Damaged`] as a sentence with the change a `DamageScaled` before it made
/// (a basic save's half or double damage, G-P2-26); `None` for any other event.
pub(super) fn scaled_damage_sentence(
    rs: &Ruleset,
    tr: &Tr,
    e: &CombatEvent,
    scaled: (i32, i32, DamageScale),
    names: &dyn Fn(Cid) -> String,
) -> Option<String> {
    let CombatEvent::Damaged { who, amount, hp, dice } = e else { return None };
    let bracket = damage_bracket(rs, tr, dice, Some(scaled)).unwrap_or_default();
    Some(tr!(tr, "log-damaged-dice", who = names(*who), amount = amount, dice = bracket, hp = hp))
}

pub(super) fn attack_sentence(
    rs: &Ruleset,
    tr: &Tr,
    events: &[CombatEvent],
    names: &dyn Fn(Cid) -> String,
    stat_of: &dyn Fn(Cid, &str) -> i32,
) -> String {
    use CombatEvent::*;
    let mut s = String::new();
    let mut target = None;
    // Issue 28: the conditions' modifiers counted in the attack roll and the defensive roll,
    // named in their roll's sum.
    let counted = |on: RollOn| -> Vec<(String, i32)> {
        events
            .iter()
            .find_map(|e| match e {
                RollModified { on: o, modifiers, .. } if *o == on => {
                    Some(modifiers.iter().map(|(c, a)| (condition_name(rs, tr, c), *a)).collect())
                }
                _ => None,
            })
            .unwrap_or_default()
    };
    // Issue 50: the multiple attack penalty is named in the attack roll's sum (its bonus and
    // total already hold it, G-P2-23); a critical hit or a threat's confirmation says the hit, a
    // critical failure the miss; a multiplied or halved damage shows how beside its dice.
    let penalty: i32 = events
        .iter()
        .map(|e| match e {
            MultipleAttackPenalty { penalty, .. } => *penalty,
            _ => 0,
        })
        .fold(0, i32::saturating_add);
    let critical_hit = events.iter().any(|e| matches!(e, CriticalHit { .. }));
    let threat = events.iter().any(|e| matches!(e, CritConfirmRolled { .. }));
    let critical_miss = events.iter().any(|e| matches!(e, CriticalMiss { .. }));
    let scaled = events.iter().find_map(|e| match e {
        DamageScaled { rolled, amount, scale, .. } => Some((*rolled, *amount, *scale)),
        _ => None,
    });
    for e in events {
        match e {
            AttackRolled { attacker, target: t, ability, roll, bonus, total, dice, flanking, .. } => {
                target = Some(*t);
                let def = rs.ability(ability);
                let stat = match def.map(|d| &d.effect) {
                    Some(Effect::Attack { stat, .. } | Effect::Charge { stat, .. }) => stat.clone(),
                    _ => String::new(),
                };
                let die = attack_die(rs);
                let sv = if stat.is_empty() { 0 } else { stat_of(*attacker, &stat) };
                let mut named =
                    vec![(tr.t("roll-flanking"), *flanking), (tr.t("roll-multiple-attack-penalty"), penalty)];
                named.extend(counted(RollOn::Attack));
                let roll = roll_words(
                    tr,
                    RollParts {
                        die: &die,
                        rolls: &[*roll],
                        dice,
                        stat: (&stat, sv),
                        named: &named,
                        bonus: *bonus,
                        total: *total,
                        rs,
                    },
                ) + &natural_note(tr, crate::rules::odds::naturals_count(rs, false), dice);
                s.push_str(&tr!(
                    tr,
                    "log-attack",
                    attacker = names(*attacker),
                    target = names(*t),
                    ability = ability_name(rs, tr, ability),
                    roll = roll
                ));
            }
            DefenseRolled { who, method, rolls, bonus, total, dice } => {
                let stat = defense_stat(rs, *method);
                let sv = if stat.is_empty() { 0 } else { stat_of(*who, &stat) };
                let roll = roll_words(
                    tr,
                    RollParts {
                        die: "d20",
                        rolls,
                        dice,
                        stat: (&stat, sv),
                        named: &counted(RollOn::Ac),
                        bonus: *bonus,
                        total: *total,
                        rs,
                    },
                );
                s.push_str(&tr!(tr, "log-attack-vs-defense", method = defense_words(tr, *method), roll = roll));
            }
            NoDefensePossible { .. } => s.push_str(&tr.t("log-attack-no-defense-possible")),
            DefenseDeclared { method: DefenseMethod::NoDefense, .. } => s.push_str(&tr.t("log-attack-no-defense")),
            AttackMissed { ac, .. } if critical_miss => s.push_str(&tr!(tr, "log-attack-critical-miss-ac", ac = ac)),
            AttackMissed { ac, .. } => s.push_str(&tr!(tr, "log-attack-miss-ac", ac = ac)),
            AttackBlocked { .. } => s.push_str(&tr.t("log-attack-blocked")),
            // A critical hit or a threat says the hit itself.
            AttackHit { .. } if critical_hit || threat => {}
            AttackHit { .. } => s.push_str(&tr.t("log-attack-hit")),
            CritConfirmRolled { roll, bonus, total, ac, confirmed, dice, .. } => s.push_str(&tr!(
                tr,
                "log-attack-threat",
                roll = confirm_roll_words(rs, tr, *roll, *bonus, *total, dice),
                ac = ac,
                result = tr.t(if *confirmed { "threat-confirmed" } else { "threat-not-confirmed" })
            )),
            CriticalHit { multiplier, .. } => s.push_str(&tr!(tr, "log-attack-critical-hit", n = multiplier)),
            Damaged { amount, hp, dice, .. } => {
                let who = target.map(names).unwrap_or_default();
                s.push_str(&match damage_bracket(rs, tr, dice, scaled) {
                    Some(d) => tr!(tr, "log-attack-damage-dice", amount = amount, dice = d, who = who, hp = hp),
                    None => tr!(tr, "log-attack-damage", amount = amount, who = who, hp = hp),
                });
            }
            AssistUsed { bonus, .. } => s.push_str(&tr!(tr, "log-attack-assist", bonus = bonus)),
            // The target's AC (a static defence) or the damage, changed by conditions.
            RollModified { on: RollOn::Damage, .. } | RollModified { on: RollOn::Ac, .. }
                if !matches!(
                    (e, &rs.defense),
                    (RollModified { on: RollOn::Ac, .. }, DefenseRule::ActiveRoll { .. })
                ) =>
            {
                if let Some(words) = sentence_in(rs, tr, e, names) {
                    s.push(' ');
                    s.push_str(&words);
                }
            }
            _ => {}
        }
    }
    s
}

/// The catalog key of what a roll modifier changes (`roll-on-attack`: "attack roll").
pub(crate) fn roll_on_key(on: RollOn) -> &'static str {
    match on {
        RollOn::Attack => "roll-on-attack",
        RollOn::Save => "roll-on-save",
        RollOn::Dc => "roll-on-dc",
        RollOn::Damage => "roll-on-damage",
        RollOn::Ac => "roll-on-ac",
    }
}

/// The conditions' modifiers of a [`CombatEvent::RollModified`] in words: `frightened −2, rallied +1`.
fn modifier_words(rs: &Ruleset, tr: &Tr, modifiers: &[(String, i32)]) -> String {
    let parts: Vec<String> = modifiers
        .iter()
        .map(|(c, a)| format!("{} {}{}", condition_name(rs, tr, c), if *a < 0 { "−" } else { "+" }, a.abs()))
        .collect();
    parts.join(", ")
}

/// A defence method in words.
pub(crate) fn defense_words(tr: &Tr, m: DefenseMethod) -> String {
    tr.t(match m {
        DefenseMethod::Dodge => "defense-dodge",
        DefenseMethod::Parry => "defense-parry",
        DefenseMethod::NoDefense => "defense-none",
    })
}

fn list(names: &dyn Fn(Cid) -> String, v: &[Cid]) -> String {
    v.iter().map(|c| names(*c)).collect::<Vec<_>>().join(", ")
}

/// An engine's reason given as text (a skipped turn or opening), in words of the language where
/// the engine's text is one of the known ones.
fn reason_words(rs: &Ruleset, tr: &Tr, reason: &str) -> String {
    if reason == "cannot act" {
        return tr.t("reason-cannot-act");
    }
    if let Some(a) = reason.strip_prefix("busy completing `").and_then(|r| r.strip_suffix('`')) {
        return tr!(tr, "reason-busy-completing", ability = ability_name(rs, tr, a));
    }
    reason.to_string()
}

/// A typed action in words (`a swift action`).
pub fn action_kind_words(tr: &Tr, t: crate::rules::ruleset::ActionType) -> String {
    use crate::rules::ruleset::ActionType::*;
    tr.t(match t {
        Standard => "action-kind-standard",
        Move => "action-kind-move",
        FullRound => "action-kind-full-round",
        Swift => "action-kind-swift",
        Immediate => "action-kind-immediate",
        Free => "action-kind-free",
        FiveFootStep => "action-kind-five-foot-step",
    })
}

/// One event as a sentence in English; `None` for events the attack entries or other entries
/// already say.
#[cfg(test)]
pub(super) fn sentence(rs: &Ruleset, e: &CombatEvent, names: &dyn Fn(Cid) -> String) -> Option<String> {
    sentence_in(rs, &Tr::default(), e, names)
}

/// One event as a sentence in a language; `None` for events the attack entries or other
/// entries already say.
pub fn sentence_in(rs: &Ruleset, tr: &Tr, e: &CombatEvent, names: &dyn Fn(Cid) -> String) -> Option<String> {
    use CombatEvent::*;
    let ab = |a: &str| ability_name(rs, tr, a);
    let cond = |c: &str| condition_name(rs, tr, c);
    let dice_or =
        |dice: &[DieRoll], die: &str, roll: i32| dice_words_in(tr, dice).unwrap_or_else(|| format!("{die} {roll}"));
    Some(match e {
        CombatStarted { ruleset, seed } => tr!(tr, "log-combat-started", ruleset = ruleset, seed = seed.to_string()),
        InitiativeRolled { who, roll, bonus, total, dice } => {
            let shown = dice_or(dice, &rs.initiative.dice.to_string(), *roll);
            tr!(tr, "log-initiative-rolled", who = names(*who), roll = format!("{shown} {:+} = {total}", bonus))
        }
        InitiativeRollOff { tied, rolls } => tr!(
            tr,
            "log-roll-off",
            rolls = tied.iter().zip(rolls).map(|(c, r)| format!("{} {r}", names(*c))).collect::<Vec<_>>().join(", ")
        ),
        InitiativeOrder { order } => tr!(tr, "log-initiative-order", order = list(names, order)),
        RoundStarted { round, seconds } => tr!(tr, "log-round-started", round = round, seconds = seconds),
        TurnStarted { who, round, time } => {
            if *time != *round {
                let (r, s) = match rs.turn_model {
                    crate::rules::ruleset::TurnModel::RecoveryTime { segments_per_round: n } => {
                        let t = time.max(&1) - 1;
                        (t / n + 1, t % n + 1)
                    }
                    _ => (*round, 0),
                };
                tr!(tr, "log-turn-started-segment", who = names(*who), round = r, segment = s)
            } else {
                tr!(tr, "log-turn-started", who = names(*who))
            }
        }
        TurnSkipped { who, reason } => {
            tr!(tr, "log-turn-skipped", who = names(*who), reason = reason_words(rs, tr, reason))
        }
        AbilityUsed { who, ability, cost, targets, .. } => {
            let pool = matches!(
                rs.budget,
                crate::rules::ruleset::ActionBudget::PerRoundPool { .. }
                    | crate::rules::ruleset::ActionBudget::PerTurnPool { .. }
            );
            let paid = match cost {
                _ if !pool => Some(crate::hud_model::cost_text_in(rs, tr, ability)),
                0 => None,
                n => Some(tr!(tr, "n-actions", n = n)),
            };
            match (targets.is_empty(), paid) {
                (true, None) => tr!(tr, "log-ability-used", who = names(*who), ability = ab(ability)),
                (false, None) => tr!(
                    tr,
                    "log-ability-used-on",
                    who = names(*who),
                    ability = ab(ability),
                    targets = list(names, targets)
                ),
                (true, Some(c)) => tr!(tr, "log-ability-used-cost", who = names(*who), ability = ab(ability), cost = c),
                (false, Some(c)) => tr!(
                    tr,
                    "log-ability-used-on-cost",
                    who = names(*who),
                    ability = ab(ability),
                    targets = list(names, targets),
                    cost = c
                ),
            }
        }
        ActivityStarted { who, ability, cost, paid } => {
            tr!(tr, "log-activity-started", who = names(*who), ability = ab(ability), paid = paid, cost = cost)
        }
        ActivityProgressed { who, ability, paid_now, remaining } => tr!(
            tr,
            "log-activity-progressed",
            who = names(*who),
            ability = ab(ability),
            paid = paid_now,
            remaining = remaining
        ),
        ActivityCompleted { who, ability } => {
            tr!(tr, "log-activity-completed", who = names(*who), ability = ab(ability))
        }
        ActivityInterrupted { who, ability, actions_lost } => {
            tr!(tr, "log-activity-interrupted", who = names(*who), ability = ab(ability), n = actions_lost)
        }
        AbilityResolved { who, ability } => tr!(tr, "log-ability-resolved", who = names(*who), ability = ab(ability)),
        ActionHeld { who, ability, cost } => {
            tr!(tr, "log-action-held", who = names(*who), ability = ab(ability), n = cost)
        }
        HeldActionTriggered { who, ability, by } => {
            tr!(tr, "log-held-triggered", who = names(*who), ability = ab(ability), by = names(*by))
        }
        HeldActionsLost { who, count, kind } => match kind {
            crate::rules::ruleset::HitKind::Ranged => tr!(tr, "log-held-lost-ranged", who = names(*who), n = count),
            crate::rules::ruleset::HitKind::Surprise => tr!(tr, "log-held-lost-surprise", who = names(*who), n = count),
        },
        HeldActionsLapsed { who, count } => tr!(tr, "log-held-lapsed", who = names(*who), n = count),
        AssistUsed { .. }
        | DefenseDeclared { .. }
        | NoDefensePossible { .. }
        | DefenseRolled { .. }
        | AttackBlocked { .. }
        | AttackHit { .. }
        | AttackMissed { .. }
        | AttackRolled { .. } => return None,
        Damaged { who, amount, hp, dice } => match dice_words_in(tr, dice) {
            Some(d) => tr!(tr, "log-damaged-dice", who = names(*who), amount = amount, dice = d, hp = hp),
            None => tr!(tr, "log-damaged", who = names(*who), amount = amount, hp = hp),
        },
        // Issue 50. An attack's entry folds these into its sentence, and a save's entry its
        // degree; on their own (a log read event by event) each is a sentence.
        MultipleAttackPenalty { who, penalty } => tr!(
            tr,
            "log-roll-modified",
            who = names(*who),
            roll = tr.t(roll_on_key(RollOn::Attack)),
            parts = format!("{} {}", tr.t("roll-multiple-attack-penalty"), signed(*penalty))
        ),
        CritConfirmRolled { attacker, target, roll, bonus, total, ac, confirmed, dice } => tr!(
            tr,
            "log-crit-confirm",
            attacker = names(*attacker),
            target = names(*target),
            roll = confirm_roll_words(rs, tr, *roll, *bonus, *total, dice),
            ac = ac,
            result = tr.t(if *confirmed { "threat-confirmed" } else { "threat-not-confirmed" })
        ),
        CriticalHit { attacker, target, multiplier } => {
            tr!(tr, "log-critical-hit", attacker = names(*attacker), target = names(*target), n = multiplier)
        }
        CriticalMiss { attacker, target } => {
            tr!(tr, "log-critical-miss", attacker = names(*attacker), target = names(*target))
        }
        SaveDegree { who, degree } => tr!(tr, "log-save-degree", who = names(*who), degree = degree_words(tr, *degree)),
        DamageScaled { who, rolled, amount, scale } => tr!(
            tr,
            "log-damage-scaled",
            who = names(*who),
            how = scale_words(rs, tr, *rolled, *amount, *scale),
            amount = amount
        ),
        Downed { who } => tr!(tr, "log-downed", who = names(*who)),
        Moved { who, from, to, mode } => tr!(
            tr,
            "log-moved",
            who = names(*who),
            mode = mode_name(tr, mode),
            fx = from.x,
            fy = from.y,
            tx = to.x,
            ty = to.y
        ),
        MoveStopped { who, at } => tr!(tr, "log-move-stopped", who = names(*who), x = at.x, y = at.y),
        // HB-17 allows a disengage with nobody in reach: "from ." read as a missing name.
        Disengaged { who, from } if from.is_empty() => tr!(tr, "log-disengaged-none", who = names(*who)),
        Disengaged { who, from } => tr!(tr, "log-disengaged", who = names(*who), from = list(names, from)),
        OpportunityProvoked { mover, from } => {
            tr!(tr, "log-opportunity-provoked", mover = names(*mover), from = names(*from))
        }
        OpportunityDeclined { who } => tr!(tr, "log-opportunity-declined", who = names(*who)),
        NoOpportunity { mover, from, reason } => {
            let why = tr.t(match reason {
                NoOpportunityReason::Flanked => "no-opportunity-flanked",
                NoOpportunityReason::Disengaged => "no-opportunity-disengaged",
                NoOpportunityReason::Busy => "no-opportunity-busy",
                NoOpportunityReason::Incapacitated => "no-opportunity-incapacitated",
                NoOpportunityReason::NoAttack => "no-opportunity-no-attack",
                NoOpportunityReason::FlatFooted => "no-opportunity-flat-footed",
                NoOpportunityReason::NoneLeft => "no-opportunity-none-left",
            });
            tr!(tr, "log-no-opportunity", from = names(*from), mover = names(*mover), why = why)
        }
        AssistGranted { from, to, bonus } => {
            tr!(tr, "log-assist-granted", from = names(*from), to = names(*to), bonus = bonus)
        }
        AssistDenied { from, to } => tr!(tr, "log-assist-denied", from = names(*from), to = names(*to)),
        AssistMadeArea { who } => tr!(tr, "log-assist-area", who = names(*who)),
        ConditionApplied { who, condition, value, lasts } => {
            use crate::rules::ruleset::Lasts;
            let v = if *value != 0 { format!(" {value}") } else { String::new() };
            let (who, c) = (names(*who), cond(condition));
            match lasts {
                Some(Lasts::Rounds(n)) => {
                    tr!(tr, "log-condition-applied-rounds", who = who, condition = c, value = v, n = n)
                }
                Some(Lasts::OwnerTurns(n)) => {
                    tr!(tr, "log-condition-applied-turns", who = who, condition = c, value = v, n = n)
                }
                Some(Lasts::UntilEndOfTurn) => {
                    tr!(tr, "log-condition-applied-end-of-turn", who = who, condition = c, value = v)
                }
                Some(Lasts::Sustained) => {
                    tr!(tr, "log-condition-applied-sustained", who = who, condition = c, value = v)
                }
                None => tr!(tr, "log-condition-applied", who = who, condition = c, value = v),
            }
        }
        ConditionValueChanged { who, condition, value } => {
            tr!(tr, "log-condition-value", who = names(*who), condition = cond(condition), value = value)
        }
        ConditionUnchanged { who, condition } => {
            tr!(tr, "log-condition-unchanged", who = names(*who), condition = cond(condition))
        }
        ConditionEnded { who, condition, reason } => {
            let why = tr.t(match reason {
                EndReason::Expired => "end-expired",
                EndReason::PermanentWound => "end-permanent-wound",
                EndReason::NegativeStatus => "end-negative-status",
                EndReason::FirstTurn => "end-first-turn",
                EndReason::RemovedByMod => "end-removed-by-mod",
                EndReason::Recovered => "end-recovered",
                EndReason::Healed => "end-healed",
                EndReason::SaveSucceeded => "end-save-succeeded",
                EndReason::FlatCheckPassed => "end-flat-check-passed",
                EndReason::WoreOff => "end-wore-off",
                EndReason::ActionsLost => "end-actions-lost",
                EndReason::NotSustained => "end-not-sustained",
            });
            tr!(tr, "log-condition-ended", who = names(*who), condition = cond(condition), why = why)
        }
        RollModified { who, on, modifiers } => tr!(
            tr,
            "log-roll-modified",
            who = names(*who),
            roll = tr.t(roll_on_key(*on)),
            parts = modifier_words(rs, tr, modifiers)
        ),
        ModEffect { source, who, action } => {
            let w = names(*who);
            match action {
                ModAction::Damage(n) => tr!(tr, "log-mod-damage", source = source, n = n, who = w),
                ModAction::Heal(n) => tr!(tr, "log-mod-heal", source = source, n = n, who = w),
                ModAction::ApplyCondition(c, v) if *v != 0 => {
                    tr!(tr, "log-mod-apply-value", source = source, condition = cond(c), n = v, who = w)
                }
                ModAction::ApplyCondition(c, _) => {
                    tr!(tr, "log-mod-apply", source = source, condition = cond(c), who = w)
                }
                ModAction::RemoveCondition(c) => {
                    tr!(tr, "log-mod-remove", source = source, condition = cond(c), who = w)
                }
                ModAction::GrantActions(n) => tr!(tr, "log-mod-grant", source = source, n = n, who = w),
                ModAction::SpendActions(n) => tr!(tr, "log-mod-spend", source = source, n = n, who = w),
                ModAction::Reschedule(t) => tr!(tr, "log-mod-reschedule", source = source, n = t, who = w),
            }
        }
        ExpiredBeforeCount { who, condition, round, count } => tr!(
            tr,
            "log-expired-before-count",
            who = names(*who),
            condition = cond(condition),
            count = count,
            round = round
        ),
        TurnStepBegan { .. } => return None,
        ActionsRegained { who, actions, restricted, reactions } => {
            if *restricted > 0 {
                tr!(
                    tr,
                    "log-actions-regained-restricted",
                    who = names(*who),
                    n = actions,
                    restricted = restricted,
                    reactions = reactions
                )
            } else {
                tr!(tr, "log-actions-regained", who = names(*who), n = actions, reactions = reactions)
            }
        }
        RecoveryCheck { who, roll, dc, degree, value, dice } => {
            let degree_words = match degree.as_str() {
                "CriticalFailure" => tr.t("degree-critical-failure"),
                "Failure" => tr.t("degree-failure"),
                "Success" => tr.t("degree-success"),
                "CriticalSuccess" => tr.t("degree-critical-success"),
                other => other.to_string(),
            };
            tr!(
                tr,
                "log-recovery-check",
                who = names(*who),
                roll = dice_or(dice, "1d20", *roll),
                dc = dc,
                degree = degree_words,
                value = value
            )
        }
        FlatCheck { who, condition, roll, dc, success, dice } => tr!(
            tr,
            if *success { "log-flat-check-ends" } else { "log-flat-check-goes-on" },
            who = names(*who),
            condition = cond(condition),
            roll = dice_or(dice, "1d20", *roll),
            dc = dc
        ),
        Healed { who, amount, hp, dice } => match dice_words_in(tr, dice) {
            Some(d) => tr!(tr, "log-healed-dice", who = names(*who), amount = amount, dice = d, hp = hp),
            None => tr!(tr, "log-healed", who = names(*who), amount = amount, hp = hp),
        },
        Sustained { who, count } => tr!(tr, "log-sustained", who = names(*who), n = count),
        ActionDisrupted { who, ability } => tr!(tr, "log-action-disrupted", who = names(*who), ability = ab(ability)),
        Delayed { who } => tr!(tr, "log-delayed", who = names(*who)),
        ReturnedFromDelay { who, after } => {
            tr!(tr, "log-returned-from-delay", who = names(*who), after = names(*after))
        }
        DelayLapsed { who } => tr!(tr, "log-delay-lapsed", who = names(*who)),
        ReadyNotUsed { who, ability } => tr!(tr, "log-ready-not-used", who = names(*who), ability = ab(ability)),
        CastAnnounced { who, ability, round, segment } => {
            tr!(tr, "log-cast-announced", who = names(*who), ability = ab(ability), segment = segment, round = round)
        }
        CastHeld { who, ability } => tr!(tr, "log-cast-held", who = names(*who), ability = ab(ability)),
        HoldAccrued { who, rt, total } => tr!(tr, "log-hold-accrued", who = names(*who), rt = rt, total = total),
        CastReleased { who, ability, next_round, next_segment } => tr!(
            tr,
            "log-cast-released",
            who = names(*who),
            ability = ab(ability),
            segment = next_segment,
            round = next_round
        ),
        ConcentrationBroken { who, ability, next_round, next_segment } => tr!(
            tr,
            "log-concentration-broken",
            who = names(*who),
            ability = ab(ability),
            segment = next_segment,
            round = next_round
        ),
        ComponentConsumed { who, item } => tr!(tr, "log-component-consumed", who = names(*who), item = item),
        SurpriseRound { aware } => tr!(tr, "log-surprise-round", aware = list(names, aware)),
        InitiativeMoved { who, before } => tr!(tr, "log-initiative-moved", who = names(*who), before = names(*before)),
        AwarenessSet { who, aware } => tr!(tr, if *aware { "log-aware" } else { "log-unaware" }, who = names(*who)),
        PermanentWound { who } => tr!(tr, "log-permanent-wound", who = names(*who)),
        SaveRolled { who, stat, roll, bonus, total, dc, success, dice } => tr!(
            tr,
            if *success { "log-save-success" } else { "log-save-failure" },
            who = names(*who),
            stat = stat_name(rs, tr, stat),
            roll = format!("{} {:+} = {total}", dice_or(dice, "1d20", *roll), bonus),
            dc = dc
        ),
        OpeningCreated { eligible, .. } => tr!(tr, "log-opening-created", who = list(names, eligible)),
        OpeningPassed { who, .. } => tr!(tr, "log-opening-passed", who = names(*who)),
        OpeningSkipped { who, reason, .. } => {
            tr!(tr, "log-opening-skipped", who = names(*who), reason = reason_words(rs, tr, reason))
        }
        OpeningClosed { .. } => tr.t("log-opening-closed"),
        DecisionRequested { .. } => return None,
        DecisionMade { by, choice } => {
            let who = match by {
                crate::rules::command::Decider::Creature(c) => names(*c),
                crate::rules::command::Decider::Gm => tr.t("the-gm"),
            };
            match choice {
                Choice::Defend(_) => return None,
                Choice::Opportunity(Some(a)) => tr!(tr, "log-decision-opportunity", who = who, ability = ab(a)),
                Choice::Opportunity(None) => tr!(tr, "log-decision-no-opportunity", who = who),
                Choice::Opening(Some(u)) => tr!(tr, "log-decision-opening", who = who, ability = ab(&u.ability)),
                Choice::Opening(None) => return None,
                Choice::Approve(true) => tr!(tr, "log-decision-approve", who = who),
                Choice::Approve(false) => tr!(tr, "log-decision-deny", who = who),
                Choice::Triggered(Some(a)) => tr!(tr, "log-decision-triggered", who = who, ability = ab(a)),
                Choice::Triggered(None) => tr!(tr, "log-decision-triggered-none", who = who),
                Choice::LoseFirst(l) => tr!(
                    tr,
                    "log-decision-lose-first",
                    who = who,
                    kind = tr.t(match l {
                        crate::rules::command::ActionLoss::Restricted => "loss-restricted",
                        crate::rules::command::ActionLoss::Regular => "loss-regular",
                    })
                ),
                Choice::Order(o) => tr!(tr, "log-decision-order", who = who, order = list(names, o)),
                Choice::HoldCast(true) => tr!(tr, "log-decision-hold-cast", who = who),
                Choice::HoldCast(false) => tr!(tr, "log-decision-release-cast", who = who),
            }
        }
        TurnEnded { who, actions_left } => {
            if *actions_left > 0 {
                tr!(tr, "log-turn-ended-unspent", who = names(*who), n = actions_left)
            } else {
                tr!(tr, "log-turn-ended", who = names(*who))
            }
        }
        ActionsForfeited { who, count } => tr!(tr, "log-actions-forfeited", who = names(*who), n = count),
        RoundEnded { round } => tr!(tr, "log-round-ended", round = round),
        CombatEnded { winner: Some(w) } => tr!(tr, "log-combat-won", side = w),
        CombatEnded { winner: None } => tr.t("log-combat-draw"),
        CombatDrawn { reason, round } => match reason {
            DrawReason::NobodyCanAct => tr!(tr, "log-draw-nobody-can-act", round = round),
            DrawReason::RoundCap(n) => tr!(tr, "log-draw-round-cap", n = n),
            DrawReason::WorkLimit => tr.t("log-draw-work-limit"),
        },
    })
}

/// A movement mode's name: the catalog's `move-mode-<id>`, else the id.
pub fn mode_name(tr: &Tr, mode: &str) -> String {
    let key = format!("move-mode-{mode}");
    if tr.has_own(&key) || Tr::default().has_own(&key) { tr.t(&key) } else { mode.to_string() }
}

#[cfg(test)]
mod natural_tests {
    use std::path::Path;

    use super::*;

    fn d20(value: i32) -> DieRoll {
        DieRoll { sides: 20, value, kept: true, negative: false }
    }

    #[test]
    fn a_natural_20_or_1_is_named_where_it_means_something_and_only_there() {
        // Issue 50: "1d20 1 + 30 = 31 vs AC 15 — miss" reads as a mistake unless it says why.
        let tr = Tr::default();
        assert_eq!(natural_note(&tr, true, &[d20(20)]), " (natural 20)");
        assert_eq!(natural_note(&tr, true, &[d20(1)]), " (natural 1)");
        assert_eq!(natural_note(&tr, true, &[d20(19)]), "");
        assert_eq!(natural_note(&tr, false, &[d20(20)]), "");
        // The first kept die: with advantage, a dropped 20 is no natural 20.
        let dropped = DieRoll { kept: false, ..d20(20) };
        assert_eq!(natural_note(&tr, true, &[dropped, d20(7)]), "");
        let load = |n: &str| {
            Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{n}.ron"))).unwrap()
        };
        let counts = |n: &str| crate::rules::odds::naturals_count(&load(n), false);
        assert!(counts("pf2e") && counts("pf1e"));
        assert!(!counts("homebrew-d20") && !counts("segments"));
    }
}
