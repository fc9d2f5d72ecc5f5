//! One creature's card: its action economy under its ruleset's budget, its conditions with their
//! expiry in words, and its cast or activity in progress.

use crate::i18n::Tr;
use crate::rules::components::*;
use crate::rules::driver::Combat;
use crate::rules::ruleset::{ActionBudget, DurationClock, Lasts, ReactionBudget, Ruleset, TurnModel};
use crate::tr;

use super::{log, rules_ref, side_of};

/// What a creature can still spend, in its ruleset's own terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Budget {
    /// A pool of actions (homebrew-d20 per round, pf2e per turn).
    Pool {
        /// Actions this round or turn.
        max: u8,
        /// Spent.
        spent: u8,
        /// Extra actions only some abilities may use (quickened), left.
        restricted_left: u8,
        /// What those extra actions may be spent on.
        restricted_to: Vec<String>,
        /// Per-round pool (refilled at round start) rather than per turn.
        per_round: bool,
    },
    /// Typed slots (pf1e).
    Slots {
        /// Standard actions left.
        standard: u8,
        /// Move actions left.
        moves: u8,
        /// Swift actions left.
        swift: u8,
        /// A full-round action is still open (standard and move unspent, no movement yet).
        full_round_open: bool,
        /// A 5-foot step is still open.
        step_open: bool,
    },
    /// One timed action per turn on a segment clock.
    Recovery {
        /// Whether its turn is running and the timed action is still to take.
        acting: bool,
        /// Segments until its next turn, from now.
        owed: Option<u32>,
        /// Its next turn: (round, segment).
        next: Option<(u32, u32)>,
    },
}

/// Reactions left, under the ruleset's reaction budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reactions {
    /// No limit (homebrew-d20, HB-37).
    Unlimited,
    /// This many left.
    Left(u8),
    /// It can't act, so it takes no reaction now (stunned, asleep...: P2-16), whatever is left.
    CannotAct,
}

/// A condition that changes the actions a creature gets (quickened, slowed, stunned; P2-12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EconomyModifier {
    /// The condition's name, in the card's language.
    pub condition: String,
    /// Its value.
    pub value: i32,
    /// Its effect in words.
    pub effect: String,
}

/// A spread or multi-turn activity under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityBar {
    /// The ability.
    pub ability: String,
    /// Paid so far.
    pub paid: u32,
    /// Its whole cost.
    pub total: u32,
    /// What the numbers count: `actions`, `rounds`, `segments`.
    pub unit: &'static str,
    /// A cast held after its casting time (SG-19).
    pub holding: bool,
    /// Concentration is being kept (a cast or focus under way, or held).
    pub concentrating: bool,
    /// What releasing a held cast would owe (SG-23).
    pub release_owes: Option<u32>,
    /// In words.
    pub text: String,
}

/// One condition badge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// Condition id.
    pub id: String,
    /// Shown text: id and value, e.g. `frightened 2`.
    pub label: String,
    /// Remaining duration, short, e.g. `2 rd`.
    pub remaining: Option<String>,
    /// When it ends, in words.
    pub expiry: String,
    /// A negative effect (drawn in a warning colour).
    pub negative: bool,
    /// Rule IDs behind it: what it does, and how it ends.
    pub rules: Vec<String>,
    /// What the condition does, from the project's rules reference (`docs/rules.md`).
    pub text: Option<String>,
    /// Its roll modifiers at its value, one per line: `attack roll +2 (status)` (issue 28).
    pub modifiers: Vec<String>,
}

/// A creature's card: hit points, action economy, conditions and casting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// The creature.
    pub who: Cid,
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// Its side's place in the encounter (`side_index`): its colour (`side_rgb`).
    pub side_index: usize,
    /// Hit points.
    pub hp: i32,
    /// Maximum hit points.
    pub max_hp: i32,
    /// What it can spend.
    pub budget: Budget,
    /// Reactions.
    pub reactions: Reactions,
    /// Quickened, slowed, stunned and the like.
    pub modifiers: Vec<EconomyModifier>,
    /// Conditions.
    pub badges: Vec<Badge>,
    /// A cast, focus or spread activity under way.
    pub activity: Option<ActivityBar>,
}

/// A creature's card.
pub fn card(combat: &mut Combat, who: Cid) -> Card {
    card_in(combat, who, &Tr::default())
}

/// [`card`] in a language.
pub(crate) fn card_in(combat: &mut Combat, who: Cid, tr: &Tr) -> Card {
    let rs = combat.ruleset().clone();
    let pool = combat.get::<ActionPool>(who).cloned().unwrap_or_default();
    let hp = combat.get::<Health>(who).copied().unwrap_or(Health { hp: 0, max: 0 });
    let turn = combat.turn().clone();
    let active = turn.active == Some(who);
    let budget = match rs.budget {
        ActionBudget::PerRoundPool { .. } | ActionBudget::PerTurnPool { .. } => Budget::Pool {
            max: pool.max,
            spent: pool.spent.min(pool.max),
            restricted_left: pool.restricted_left,
            restricted_to: pool.restricted_to.clone(),
            per_round: matches!(rs.budget, ActionBudget::PerRoundPool { .. }),
        },
        ActionBudget::TypedSlots { .. } => Budget::Slots {
            standard: pool.standard,
            moves: pool.moves,
            swift: pool.swift,
            full_round_open: !pool.one_of && pool.standard > 0 && pool.moves > 0 && !pool.moved,
            step_open: !pool.moved && !pool.stepped,
        },
        ActionBudget::OneTimedActionPerTurn => {
            let next = combat.forecast(combat.len()).into_iter().find(|f| f.who == who);
            let (now_r, now_s) = combat.clock();
            let per = match rs.turn_model {
                TurnModel::RecoveryTime { segments_per_round } => segments_per_round,
                TurnModel::FixedCycle => 1,
            };
            let abs = |r: u32, s: u32| (r.max(1) - 1) * per + s;
            Budget::Recovery {
                acting: active,
                owed: next.as_ref().map(|n| abs(n.round, n.segment).saturating_sub(abs(now_r, now_s))),
                next: next.map(|n| (n.round, n.segment)),
            }
        }
    };
    // The engine's own test of "can't act" off its turn (pf2e stunned included).
    let blocked = combat.get::<Conditions>(who).is_some_and(|c| crate::rules::query::blocks_reactions(&rs, c));
    let reactions = match rs.reactions {
        _ if blocked => Reactions::CannotAct,
        ReactionBudget::Unlimited => Reactions::Unlimited,
        _ => Reactions::Left(pool.reactions_left),
    };
    let conditions = combat.get::<Conditions>(who).cloned().unwrap_or_default();
    let mut modifiers = Vec::new();
    for (id, st) in &conditions.0 {
        let Some(d) = rs.condition(id) else { continue };
        let effect = if d.regain_bonus > 0 {
            if d.bonus_restricted_to.is_empty() {
                tr!(tr, "card-regain-bonus", n = d.regain_bonus)
            } else {
                let only: Vec<String> = d.bonus_restricted_to.iter().map(|a| log::ability_name(&rs, tr, a)).collect();
                tr!(tr, "card-regain-bonus-only", n = d.regain_bonus, only = only.join(", "))
            }
        } else if d.regain_loses_value {
            let n = st.value.max(0);
            if d.consumed_by_lost_actions {
                tr!(tr, "card-regain-loses-consumed", n = n)
            } else {
                tr!(tr, "card-regain-loses", n = n)
            }
        } else if d.blocks_actions {
            tr.t("card-cannot-act")
        } else if d.rt_add != 0 {
            tr!(tr, "card-rt-add", n = d.rt_add, signed = format!("{:+}", d.rt_add))
        } else {
            continue;
        };
        modifiers.push(EconomyModifier { condition: log::condition_name(&rs, tr, id), value: st.value, effect });
    }
    let badges = conditions.0.iter().map(|(id, st)| badge(combat, &rs, tr, who, id, st)).collect();
    let activity = activity_bar(combat, &rs, tr, who);
    Card {
        who,
        name: combat.name_in(who, tr.code()),
        side: combat.get::<Side>(who).map(|s| s.0.clone()).unwrap_or_default(),
        side_index: side_of(combat, who),
        hp: hp.hp,
        max_hp: hp.max,
        budget,
        reactions,
        modifiers,
        badges,
        activity,
    }
}

fn activity_bar(combat: &mut Combat, rs: &Ruleset, tr: &Tr, who: Cid) -> Option<ActivityBar> {
    let act = combat.get::<Casting>(who)?.0.clone()?;
    let def = rs.ability(&act.ability);
    let shown = log::ability_name(rs, tr, &act.ability);
    if act.holding {
        let owes = combat.release_owed(who);
        let text = tr!(tr, "activity-holding", ability = shown.clone(), n = owes.unwrap_or(0));
        return Some(ActivityBar {
            ability: shown,
            paid: 1,
            total: 1,
            unit: "segments",
            holding: true,
            concentrating: true,
            release_owes: owes,
            text,
        });
    }
    if let Some(at) = act.effect_at {
        // A cast or focus on a segment clock: from its announcement to its effect.
        let span = def.and_then(|d| d.cast_time.or(d.focus_time)).unwrap_or(1).max(1);
        let now = combat.world.resource::<crate::rules::timeline::Timeline>().now;
        let left = at.saturating_sub(now).min(span);
        let focus = def.is_some_and(|d| d.focus_time.is_some() && d.cast_time.is_none());
        let (r, s) = combat.world.resource::<crate::rules::timeline::Timeline>().round_and_segment(at);
        return Some(ActivityBar {
            ability: shown.clone(),
            paid: span - left,
            total: span,
            unit: "segments",
            holding: false,
            concentrating: true,
            release_owes: None,
            text: tr!(
                tr,
                if focus { "activity-focus" } else { "activity-cast" },
                ability = shown,
                segment = s,
                round = r,
                left = left
            ),
        });
    }
    let rounds = def.and_then(|d| d.casting_rounds);
    let unit = if rounds.is_some() { "rounds" } else { "actions" };
    let left = act.cost.saturating_sub(act.paid);
    Some(ActivityBar {
        ability: shown.clone(),
        paid: u32::from(act.paid),
        total: u32::from(act.cost),
        unit,
        holding: false,
        concentrating: rounds.is_some(),
        release_owes: None,
        text: tr!(
            tr,
            if rounds.is_some() { "activity-casting" } else { "activity-spreading" },
            ability = shown,
            paid = act.paid,
            cost = act.cost,
            left = left
        ),
    })
}

/// A condition as shown: its id with underscores as spaces, and its value where the value means
/// something (frightened 2, dying 1, slowed 1), not the plain 1 every condition carries.
///
/// In a language: the condition's `names` entry for it, if any.
pub(crate) fn condition_label_in(rs: &Ruleset, tr: &Tr, id: &str, st: &ConditionState) -> String {
    let name = log::condition_name(rs, tr, id);
    let valued = rs.condition(id).is_some_and(|d| {
        d.decrement_at_end_of_turn != 0 || d.regain_loses_value || d.recovery.is_some() || d.consumed_by_lost_actions
    });
    if st.value != 0 && (valued || st.value != 1) { format!("{name} {}", st.value) } else { name }
}

fn badge(combat: &Combat, rs: &Ruleset, tr: &Tr, who: Cid, id: &str, st: &ConditionState) -> Badge {
    let def = rs.condition(id);
    let label = condition_label_in(rs, tr, id, st);
    let owner = combat.name_in(who, tr.code());
    let creator = st.creator.map(|c| combat.name_in(c, tr.code())).unwrap_or_else(|| owner.clone());
    let mut rules = rules_ref::condition_rules(rs, id);
    let (expiry, remaining, rule) = expiry_words(combat, rs, tr, who, id, st, &owner, &creator);
    if let Some(r) = rule
        && !rules.iter().any(|x| x == r)
    {
        rules.push(r.to_string());
    }
    let mut expiry = expiry;
    if let Some(d) = def {
        if d.decrement_at_end_of_turn != 0 {
            expiry.push_str(&tr!(tr, "badge-goes-down", n = d.decrement_at_end_of_turn, owner = owner.clone()));
        }
        if let Some(dmg) = &d.persistent_damage {
            expiry.push_str(&match d.flat_check_dc {
                Some(dc) => tr!(tr, "badge-persistent-check", owner = owner.clone(), dice = dmg.to_string(), dc = dc),
                None => tr!(tr, "badge-persistent", owner = owner.clone(), dice = dmg.to_string()),
            });
        }
        let wound = d.ends_on.contains(&crate::rules::ruleset::EndTrigger::PermanentWound);
        let negative = d.ends_on.contains(&crate::rules::ruleset::EndTrigger::NegativeStatus);
        match (wound, negative) {
            (true, true) => expiry.push_str(&tr.t("badge-ends-on-both")),
            (true, false) => expiry.push_str(&tr.t("badge-ends-on-wound")),
            (false, true) => expiry.push_str(&tr.t("badge-ends-on-negative")),
            (false, false) => {}
        }
        if d.save_ends.is_some() {
            expiry.push_str(&tr.t("badge-save-ends"));
        }
    }
    let text = rules_ref::condition_text_in(rs, tr.code(), id);
    let modifiers = def.map(|d| modifier_lines(tr, d, st.value)).unwrap_or_default();
    Badge {
        id: id.to_string(),
        label,
        remaining,
        expiry,
        negative: def.is_some_and(|d| d.negative),
        rules,
        text,
        modifiers,
    }
}

/// A condition's roll modifiers in words at a value: `attack roll, saving throw −2 (status)`.
pub(crate) fn modifier_lines(tr: &Tr, def: &crate::rules::ruleset::ConditionDef, value: i32) -> Vec<String> {
    use crate::rules::ruleset::BonusKind;
    def.modifiers
        .iter()
        .map(|m| {
            let amount = m.amount_at(value);
            let what: Vec<String> = m.to.iter().map(|on| tr.t(log::roll_on_key(*on))).collect();
            let kind = tr.t(match m.kind {
                BonusKind::Untyped => "bonus-kind-untyped",
                BonusKind::Status => "bonus-kind-status",
                BonusKind::Circumstance => "bonus-kind-circumstance",
                BonusKind::Item => "bonus-kind-item",
                BonusKind::Morale => "bonus-kind-morale",
            });
            let signed = format!("{}{}", if amount < 0 { "−" } else { "+" }, amount.abs());
            tr!(tr, "badge-modifier", what = what.join(", "), amount = signed, kind = kind)
        })
        .collect()
}

/// When a condition ends, in words, its short remaining duration, and the rule that says so.
#[allow(clippy::too_many_arguments)]
fn expiry_words(
    combat: &Combat,
    rs: &Ruleset,
    tr: &Tr,
    who: Cid,
    id: &str,
    st: &ConditionState,
    owner: &str,
    creator: &str,
) -> (String, Option<String>, Option<&'static str>) {
    let turn = combat.turn();
    let left = st.left.unwrap_or(0);
    let short = st.left.map(|l| tr!(tr, "badge-rounds-short", n = l));
    match (st.lasts, &rs.durations) {
        (None, _) => (tr.t("badge-no-duration"), None, None),
        (Some(Lasts::UntilEndOfTurn), _) => (tr!(tr, "badge-ends-end-of-turn", owner = owner), None, Some("P2-21")),
        (Some(Lasts::Sustained), _) => {
            (tr!(tr, "badge-ends-unless-sustained", creator = creator), None, Some("G-P2-09"))
        }
        (Some(Lasts::OwnerTurns(_)), _) => (
            tr!(tr, "badge-ends-end-of-owner-turn", owner = owner, n = left),
            st.left.map(|l| tr!(tr, "badge-turns-short", n = l)),
            Some("P2-22"),
        ),
        (Some(Lasts::Rounds(_)), DurationClock::RoundEnd) => {
            let last = turn.round.saturating_add(left).saturating_sub(1).max(turn.round);
            (tr!(tr, "badge-ends-end-of-round", round = last), short, Some("G-HB-17"))
        }
        (Some(Lasts::Rounds(_)), DurationClock::TurnHooks) => {
            (tr!(tr, "badge-ends-start-of-turn", creator = creator, n = left), short, Some("P2-05"))
        }
        (Some(Lasts::Rounds(_)), DurationClock::TimelinePoint) => {
            let found = turn.expiries.iter().find(|(_, (o, c, _))| *o == who && c == id);
            let tl = combat.world.resource::<crate::rules::timeline::Timeline>();
            match (found, rs.turn_model) {
                (Some(((time, _, _), _)), TurnModel::RecoveryTime { .. }) => {
                    let (r, s) = tl.round_and_segment(*time);
                    (tr!(tr, "badge-ends-at-segment", segment = s, round = r), short, Some("G-SG-10"))
                }
                (Some(((time, _, _), (_, _, count))), TurnModel::FixedCycle) => {
                    (tr!(tr, "badge-ends-before-count", count = count, round = time), short, Some("P1-12"))
                }
                (None, _) => (tr!(tr, "badge-rounds-left", n = left), short, Some("P1-12")),
            }
        }
    }
}
