//! The initiative tracker (round-based rulesets) and the segment timeline, and the what-if line:
//! where a creature would act next if it used an ability now.

use crate::i18n::Tr;
use crate::rules::components::*;
use crate::rules::driver::Combat;
use crate::rules::ruleset::{DurationClock, TurnModel};
use crate::tr;

use super::{condition_label_in, log, side_of};

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
