//! The HUD's view-models: plain structs computed from the rules state and the combat log, with no
//! egui in them. The game's widgets (`crate::game::hud_panels`) only draw these; the headless tests
//! check them under every ruleset.
//!
//! Everything here reads the [`Combat`]; nothing writes rules state. Where the HUD must know
//! whether something is allowed (the ability bar), it asks the engine's own dry run
//! ([`Combat::check_acts`]) and shows the engine's reason.
//!
//! - [`tracker`]: the initiative tracker (round-based rulesets) and the segment timeline.
//! - [`card`]: one creature's action economy under its ruleset's budget, conditions with their
//!   expiry in words, and its cast or activity in progress.
//! - [`ability_buttons`] and [`what_if`]: the active creature's abilities, costs, hotkeys, the engine's
//!   reason when one can't be used, and where its user would act next.
//! - [`log`]: the combat log as sentences with dice and rule IDs, filters, and JSON lines.
//! - [`rules_ref`]: rule IDs for events and conditions, and their text from `docs/rules.md`.

// The view-models are drawn by the game (the `game` feature); a headless build still compiles
// them for the HUD tests and benchmarks.
#![cfg_attr(not(feature = "game"), allow(dead_code))]

pub mod gm;
pub mod log;
pub mod prompt;
pub mod rules_ref;

use crate::i18n::Tr;
use crate::rules::command::{ActIntent, Rejection};
use crate::rules::components::*;
use crate::rules::driver::Combat;
use crate::rules::ruleset::{
    ActionBudget, ActionType, DurationClock, Effect, Lasts, ReactionBudget, Ruleset, Timing, TurnModel,
};
use crate::rules::state::EngineStatus;
use crate::tr;

mod words;
pub use words::rejection_words;

/// Which turn structure the tracker draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackerKind {
    /// A fixed cycle of rounds: an ordered list.
    Rounds,
    /// A segment clock: a horizontal timeline.
    Segments {
        /// Segments in a round.
        per_round: u32,
    },
}

/// One creature in the tracker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerRow {
    /// The creature.
    pub who: Cid,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// Its side's place in the encounter (`side_index`): its colour (`side_rgb`).
    pub side_index: usize,
    /// Round of this turn (0: the surprise round).
    pub round: u32,
    /// Segment of this turn (0 in a fixed cycle).
    pub segment: u32,
    /// This is the turn running now.
    pub current: bool,
    /// Its initiative total: the count it acts on (shown where durations end at counts).
    pub count: i32,
    /// Out of the fight.
    pub down: bool,
    /// Can't act (a condition blocks actions).
    pub prevented: bool,
    /// Short condition tags, e.g. `flat-footed`, `frightened 2`.
    pub tags: Vec<String>,
}

/// A mark on the segment timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkKind {
    /// The creature's next turn.
    Turn,
    /// A cast resolves (SG-11, SG-13).
    CastResolves,
    /// A focus resolves (SG-26).
    FocusResolves,
    /// The turn the creature would get if it used the hovered ability (what-if).
    WhatIf,
    /// The turn running now.
    Now,
}

/// One mark on the segment timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Whose.
    pub who: Cid,
    /// Its name.
    pub name: String,
    /// Round.
    pub round: u32,
    /// Segment, 1-based.
    pub segment: u32,
    /// What happens there.
    pub kind: MarkKind,
    /// A short label, e.g. `Mage: Fireball resolves`.
    pub label: String,
}

/// A cast held after its casting time (SG-19..25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldCast {
    /// The holder.
    pub who: Cid,
    /// Its name.
    pub name: String,
    /// The power held.
    pub ability: String,
    /// The recovery time a release now would owe (SG-23, G-X-03).
    pub owes: u32,
}

/// The initiative tracker and, on a segment clock, the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracker {
    /// List or timeline.
    pub kind: TrackerKind,
    /// The round now (0 before the first, and in the surprise round).
    pub round: u32,
    /// The segment now (segment clock only; 0 otherwise).
    pub segment: u32,
    /// The surprise round is running (P1-26).
    pub surprise_round: bool,
    /// Show initiative counts: the ruleset ends durations just before a count (P1-12).
    pub show_counts: bool,
    /// The turn running now, then the turns to come, in order, across round boundaries.
    pub order: Vec<TrackerRow>,
    /// Creatures that have delayed and not yet returned (shown apart).
    pub delayed: Vec<TrackerRow>,
    /// Creatures with readied or held actions waiting for a trigger (shown apart).
    pub readied: Vec<TrackerRow>,
    /// Segment clock: the rounds the timeline spans (this one and the next).
    pub timeline_rounds: (u32, u32),
    /// Segment clock: next turns, cast and focus resolutions, in time order.
    pub marks: Vec<Mark>,
    /// Segment clock: held casts and what they owe.
    pub held: Vec<HeldCast>,
}

/// A side's place among the sides, in the order their first creature appears in the combat (the
/// encounter's order of combatants); past the end for a side nobody is on. Side i has colour
/// [`side_rgb`]`(i)` on the board and in the HUD alike.
pub(crate) fn side_index(combat: &Combat, side: &str) -> usize {
    let mut seen: Vec<&str> = Vec::new();
    for i in 0..combat.len() as u32 {
        let Some(s) = combat.get::<Side>(Cid(i)) else { continue };
        if s.0 == side {
            return seen.iter().position(|x| *x == side).unwrap_or(seen.len());
        }
        if !seen.contains(&s.0.as_str()) {
            seen.push(&s.0);
        }
    }
    seen.len()
}

fn side_of(combat: &Combat, who: Cid) -> usize {
    combat.get::<Side>(who).map_or(0, |s| side_index(combat, &s.0))
}

/// The colour of side `index` ([`side_index`]), as sRGB bytes: blue, red, green, gold, then again.
/// The board's tokens and the HUD's dots both take their colour from here.
pub(crate) fn side_rgb(index: usize) -> [u8; 3] {
    const C: [[u8; 3]; 4] = [[64, 140, 242], [224, 77, 71], [89, 199, 102], [217, 179, 64]];
    C[index % C.len()]
}

fn row(combat: &Combat, tr: &Tr, who: Cid, round: u32, segment: u32, current: bool) -> TrackerRow {
    let rs = combat.ruleset();
    let conditions = combat.get::<Conditions>(who);
    let down = conditions.is_some_and(|c| c.has(&rs.defeated_condition));
    let prevented = conditions.is_some_and(|c| crate::rules::query::blocks_reactions(rs, c));
    let tags = conditions
        .map(|c| {
            c.0.iter()
                .filter(|(id, _)| **id != rs.defeated_condition)
                .map(|(id, st)| condition_label_in(rs, tr, id, st))
                .collect()
        })
        .unwrap_or_default();
    TrackerRow {
        who,
        name: combat.name_in(who, tr.code()),
        side: combat.get::<Side>(who).map(|s| s.0.clone()).unwrap_or_default(),
        side_index: side_of(combat, who),
        round,
        segment,
        current,
        count: combat.get::<Initiative>(who).map_or(0, |i| i.total),
        down,
        prevented,
        tags,
    }
}

/// The tracker as it stands: the current turn and the next `ahead` turns. On a segment clock also
/// the timeline of this round and the next, with each creature's next turn, its cast or focus
/// resolution and its held cast. `what_if` adds the hovered ability's mark for its user.
pub fn tracker(combat: &mut Combat, ahead: usize, what_if_mark: Option<(Cid, &str)>) -> Tracker {
    tracker_in(combat, ahead, what_if_mark, &Tr::default())
}

/// [`tracker`] in a language.
pub(crate) fn tracker_in(combat: &mut Combat, ahead: usize, what_if_mark: Option<(Cid, &str)>, tr: &Tr) -> Tracker {
    let rs = combat.ruleset().clone();
    let kind = match rs.turn_model {
        TurnModel::RecoveryTime { segments_per_round } => TrackerKind::Segments { per_round: segments_per_round },
        TurnModel::FixedCycle => TrackerKind::Rounds,
    };
    let (round, segment) = match kind {
        TrackerKind::Segments { .. } => combat.clock(),
        TrackerKind::Rounds => (combat.turn().round, 0),
    };
    let turn = combat.turn().clone();
    let mut order = Vec::new();
    if let Some(a) = turn.active {
        order.push(row(combat, tr, a, if turn.surprise_round { 0 } else { round }, segment, true));
    }
    for f in combat.forecast(ahead) {
        order.push(row(combat, tr, f.who, f.round, f.segment, false));
    }
    let delayed = turn.delayed.iter().map(|d| row(combat, tr, *d, round, 0, false)).collect();
    let mut readied = Vec::new();
    for i in 0..combat.len() as u32 {
        let c = Cid(i);
        let holds = combat.get::<HeldActions>(c).is_some_and(|h| !h.0.is_empty());
        let ready_off = turn.off_schedule.contains(&c)
            && !turn.delayed.contains(&c)
            && !combat.get::<Casting>(c).is_some_and(|k| k.0.as_ref().is_some_and(|a| a.holding));
        if holds || ready_off {
            readied.push(row(combat, tr, c, round, 0, false));
        }
    }
    let mut marks = Vec::new();
    let mut held = Vec::new();
    let mut timeline_rounds = (round, round);
    if let TrackerKind::Segments { per_round } = kind {
        let first = round.max(1);
        timeline_rounds = (first, first + 1);
        let in_window = |r: u32| r >= first && r <= first + 1;
        let to_rs = |t: u32| {
            let t = t.max(1) - 1;
            (t / per_round + 1, t % per_round + 1)
        };
        if let Some(a) = turn.active {
            marks.push(Mark {
                who: a,
                name: combat.name_in(a, tr.code()),
                round,
                segment,
                kind: MarkKind::Now,
                label: tr!(tr, "tracker-acting-now", who = combat.name_in(a, tr.code())),
            });
        }
        for f in combat.forecast(combat.len()) {
            if in_window(f.round) {
                marks.push(Mark {
                    who: f.who,
                    name: combat.name_in(f.who, tr.code()),
                    round: f.round,
                    segment: f.segment,
                    kind: MarkKind::Turn,
                    label: tr!(tr, "tracker-next-turn", who = combat.name_in(f.who, tr.code())),
                });
            }
        }
        for i in 0..combat.len() as u32 {
            let c = Cid(i);
            let Some(act) = combat.get::<Casting>(c).and_then(|k| k.0.clone()) else { continue };
            let def = rs.ability(&act.ability);
            let shown = log::ability_name(&rs, tr, &act.ability);
            if act.holding {
                let owes = combat.release_owed(c).unwrap_or(0);
                held.push(HeldCast { who: c, name: combat.name_in(c, tr.code()), ability: shown, owes });
            } else if let Some(at) = act.effect_at {
                let (r, s) = to_rs(at);
                if in_window(r) {
                    let focus = def.is_some_and(|d| d.focus_time.is_some() && d.cast_time.is_none());
                    marks.push(Mark {
                        who: c,
                        name: combat.name_in(c, tr.code()),
                        round: r,
                        segment: s,
                        kind: if focus { MarkKind::FocusResolves } else { MarkKind::CastResolves },
                        label: tr!(tr, "tracker-resolves", who = combat.name_in(c, tr.code()), ability = shown.clone()),
                    });
                }
            }
        }
        if let Some((who, ability)) = what_if_mark
            && let Some(w) = what_if_in(combat, who, ability, tr)
        {
            marks.push(Mark {
                who,
                name: combat.name_in(who, tr.code()),
                round: w.round,
                segment: w.segment,
                kind: MarkKind::WhatIf,
                label: w.text.clone(),
            });
        }
        marks.sort_by_key(|m| (m.round, m.segment, m.kind as u8, m.who));
    }
    Tracker {
        kind,
        round: if turn.surprise_round { 0 } else { round },
        segment,
        surprise_round: turn.surprise_round,
        show_counts: rs.durations == DurationClock::TimelinePoint && kind == TrackerKind::Rounds,
        order,
        delayed,
        readied,
        timeline_rounds,
        marks,
        held,
    }
}

/// Where a creature would act next if it used an ability now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhatIf {
    /// Round of that turn.
    pub round: u32,
    /// Segment of that turn (0 in a fixed cycle).
    pub segment: u32,
    /// Its place among the turns of that round or segment: how many turns come before it.
    pub after: Vec<String>,
    /// In words, e.g. `Fireball: next turn at segment 7 of round 2, after Orc`.
    pub text: String,
}

/// If `who` used `ability` now, where it would act next ([`Combat::next_turn_if`]), and who would
/// act before it then ([`Combat::forecast`]).
pub fn what_if(combat: &mut Combat, who: Cid, ability: &str) -> Option<WhatIf> {
    what_if_in(combat, who, ability, &Tr::default())
}

/// [`what_if`] in a language.
pub(crate) fn what_if_in(combat: &mut Combat, who: Cid, ability: &str, tr: &Tr) -> Option<WhatIf> {
    let (round, segment) = combat.next_turn_if(who, ability)?;
    let rank = combat.get::<Initiative>(who).map_or(0, |i| i.rank);
    let forecast = combat.forecast(combat.len().saturating_mul(3));
    let mut after = Vec::new();
    for f in &forecast {
        if f.who == who {
            continue;
        }
        let earlier = (f.round, f.segment) < (round, segment)
            || ((f.round, f.segment) == (round, segment)
                && combat.get::<Initiative>(f.who).map_or(0, |i| i.rank) < rank);
        let same_slot = if segment == 0 { f.round == round } else { (f.round, f.segment) == (round, segment) };
        if earlier && same_slot {
            after.push(combat.name_in(f.who, tr.code()));
        }
    }
    let shown = log::ability_name(combat.ruleset(), tr, ability);
    let text = match after.last() {
        _ if segment == 0 => {
            tr!(tr, "what-if-round", ability = shown, round = round, place = after.len() + 1)
        }
        Some(last) => tr!(tr, "what-if-segment-after", ability = shown, segment = segment, round = round, after = last),
        None => tr!(tr, "what-if-segment", ability = shown, segment = segment, round = round),
    };
    Some(WhatIf { round, segment, after, text })
}

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
fn charge_squares(combat: &Combat, who: Cid, target: Cid) -> Vec<GridPos> {
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

/// Whose input the engine waits for, in words.
pub(crate) fn status_line_in(combat: &Combat, tr: &Tr) -> String {
    match combat.status() {
        EngineStatus::AwaitingCommand(c) => tr!(tr, "status-to-act", who = combat.name_in(c, tr.code())),
        EngineStatus::AwaitingDecision(d) => tr!(tr, "status-waiting-for", who = words::decider_words(combat, d, tr)),
        EngineStatus::AwaitingReturn => tr.t("status-awaiting-return"),
        EngineStatus::Ended => tr.t("status-ended"),
        EngineStatus::Busy | EngineStatus::NotStarted => "…".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fight under a shipped ruleset, set up in code (the HUD stands below the scenario
    /// runner): `(name, side, at, initiative)`, each with 20 hp (and a sword where the ruleset has one).
    pub(crate) fn fight(ruleset: &str, who: &[(&str, &str, (i32, i32), i32)]) -> Combat {
        use crate::rules::components::InitiativeSetup;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{ruleset}.ron"));
        let rs = crate::rules::ruleset::Ruleset::load(&path).unwrap();
        let sword: Vec<String> = rs.ability("sword").map(|_| "sword".to_string()).into_iter().collect();
        let specs: Vec<crate::rules::setup::CombatantSpec> = who
            .iter()
            .map(|(name, side, at, init)| crate::rules::setup::CombatantSpec {
                name: name.to_string(),
                side: side.to_string(),
                at: *at,
                hp: 20,
                abilities: sword.clone(),
                initiative: InitiativeSetup::Total(*init),
                ..Default::default()
            })
            .collect();
        Combat::new(rs, 1, &specs).unwrap()
    }

    #[test]
    fn a_persons_area_spell_names_every_creature_of_the_clicked_side_and_a_single_one_names_one() {
        use crate::rules::components::InitiativeSetup;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron");
        let rs = crate::rules::ruleset::Ruleset::load(&path).unwrap();
        let spec = |name: &str, side: &str, at: (i32, i32), init: i32| crate::rules::setup::CombatantSpec {
            name: name.into(),
            side: side.into(),
            at,
            hp: 20,
            abilities: vec!["fireball".into(), "hold_person".into()],
            initiative: InitiativeSetup::Total(init),
            ..Default::default()
        };
        let specs = [
            spec("Mage", "heroes", (0, 0), 20),
            spec("Knight", "heroes", (1, 0), 15),
            spec("Orc", "monsters", (5, 0), 10),
            spec("Wolf", "monsters", (5, 2), 5),
            spec("Goblin", "monsters", (6, 4), 3),
        ];
        let mut c = Combat::new(rs, 1, &specs).unwrap();
        // Fireball (`targets: All`) on the Wolf: the three monsters; on the Knight: heroes only.
        assert_eq!(targets_of_use(&mut c, Cid(0), "fireball", Cid(3)), vec![Cid(2), Cid(3), Cid(4)]);
        let heroes = targets_of_use(&mut c, Cid(0), "fireball", Cid(1));
        assert!(heroes.contains(&Cid(1)) && heroes.iter().all(|t| t.0 <= 1), "{heroes:?}");
        // Hold Person (`UpTo(1)`): the creature clicked.
        assert_eq!(targets_of_use(&mut c, Cid(0), "hold_person", Cid(3)), vec![Cid(3)]);
    }

    /// Side colours: blue, red, green, gold, then again from blue. Found by cargo-mutants (issue 26).
    #[test]
    fn side_colours_cycle_through_four() {
        assert_eq!(side_rgb(0), [64, 140, 242]);
        assert_eq!(side_rgb(1), [224, 77, 71]);
        assert_eq!(side_rgb(2), [89, 199, 102]);
        assert_eq!(side_rgb(3), [217, 179, 64]);
        assert_eq!(side_rgb(4), [64, 140, 242]);
        assert_eq!(side_rgb(9), [224, 77, 71]);
    }

    /// The status line names whose input the engine waits for. Found by cargo-mutants (issue 26).
    #[test]
    fn status_line_names_whose_input_the_engine_waits_for() {
        let tr = Tr::default();
        let mut c = fight("homebrew-d20", &[("Orc", "monsters", (1, 0), 20), ("Knight", "heroes", (0, 0), 5)]);
        assert_eq!(status_line_in(&c, &tr), "Orc to act");
        // An opening the GM gives the Knight waits for the Knight's choice.
        let knight = c.cid("Knight").unwrap();
        c.submit(crate::rules::command::Command::Gm(crate::rules::command::GmInput::Opening {
            eligible: vec![knight],
        }))
        .unwrap();
        assert_eq!(status_line_in(&c, &tr), "waiting for Knight");
    }

    /// Where a charge at the Orc (8, 1) could end, nearest to the Fighter (1, 3) first: the eight
    /// squares around it. Found by cargo-mutants (issue 26).
    #[test]
    fn charge_squares_surround_the_target_nearest_first() {
        let c = fight("pf1e", &[("Fighter", "heroes", (1, 3), 20), ("Orc", "monsters", (8, 1), 5)]);
        let (fighter, orc) = (c.cid("Fighter").unwrap(), c.cid("Orc").unwrap());
        let squares: Vec<(i32, i32)> = charge_squares(&c, fighter, orc).iter().map(|q| (q.x, q.y)).collect();
        assert_eq!(squares, [(7, 0), (7, 1), (7, 2), (8, 0), (8, 2), (9, 0), (9, 1), (9, 2)]);
    }
}
