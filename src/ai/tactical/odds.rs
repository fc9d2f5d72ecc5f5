//! Odds: the chance that an attack hits or a save fails, expected damage capped at what a target
//! has left, and the damage a creature expects before its next turn.

use std::rc::Rc;

use crate::rules::components::{GridPos, Stats};
use crate::rules::dice::DiceExpr;
use crate::rules::odds::{self as rules_odds, AttackOdds};
use crate::rules::query;
use crate::rules::ruleset::{AbilityDef, AttackKind, CriticalRule, DefenseRule, Effect, RollOn, WeaponCritical};

use super::memo::FxBuild;
use super::read::{NO_CONDITIONS, Unit, View};

/// The decider's side of an attack roll: its attack stat and the damage range.
pub(super) struct AttackRoll {
    pub(super) stat: i32,
    pub(super) range: (i32, i32, f32),
}

/// A change to a defender's defences, for pricing a buff.
#[derive(Clone, Copy, Default, PartialEq)]
pub(super) struct DefMod {
    /// To its armour class (a static AC).
    pub(super) ac: i32,
    pub(super) adv: bool,
    /// To its defence roll (an active defence; issue 28's AC modifiers).
    pub(super) roll: i32,
}

/// [`View::flank_squares`] of a creature.
#[derive(Clone, Copy)]
pub(super) struct Flank {
    always: bool,
    squares: [GridPos; 8],
    n: u8,
}

/// Sum of a dice expression's stat terms for a creature.
fn stat_terms(e: &DiceExpr, stats: &Stats) -> i32 {
    e.stats.iter().fold(0i32, |a, (sign, s)| a.saturating_add(sign.saturating_mul(stats.get(s))))
}

/// Lowest, highest and mean of a damage expression (never below 0).
pub(super) fn dmg_range(e: &DiceExpr, stats: &Stats) -> (i32, i32, f32) {
    dmg_range_plus(e, stats, 0)
}

/// [`dmg_range`] with `m` more on every total before the floor at 0 (issue 28: the rules add a
/// damage modifier to the rolled total, then floor it).
pub(super) fn dmg_range_plus(e: &DiceExpr, stats: &Stats, m: i32) -> (i32, i32, f32) {
    let base = e.flat.saturating_add(stat_terms(e, stats)).saturating_add(m);
    let (dlo, dhi, dmean) = e.dice_range();
    let (lo, hi, mean) = (base.saturating_add(dlo), base.saturating_add(dhi), base as f32 + dmean);
    (lo.max(0), hi.max(0), mean.max(0.0))
}

/// Expected value of min(D, h), D spread evenly over lo..=hi (exact for one die).
pub(super) fn emin(lo: i32, hi: i32, mean: f32, h: i32) -> f32 {
    if h <= 0 {
        return 0.0;
    }
    if hi <= h {
        return mean;
    }
    if h <= lo {
        return h as f32;
    }
    let (lo, hi, h) = (i64::from(lo), i64::from(hi), i64::from(h));
    let below = (lo + h - 1) * (h - lo) / 2;
    let above = (hi - h + 1) * h;
    (below + above) as f32 / (hi - lo + 1) as f32
}

/// P(die + flat + bonus ≥ need) for a one-die expression (a d20 otherwise).
pub(super) fn p_at_least(die: &DiceExpr, bonus: i32, need: i32) -> f32 {
    let sides = die.single_die().map_or(20, |s| s.min(1000) as i32);
    let roll_needed = need.saturating_sub(bonus).saturating_sub(die.flat);
    let n = (sides - roll_needed + 1).clamp(0, sides);
    n as f32 / sides as f32
}

/// P(attack beats an active defence): attack die + a against defence die (best of two with
/// advantage) + d.
pub(super) fn p_active(atk: &DiceExpr, a: i32, def: &DiceExpr, d: i32, adv: bool, ties_block: bool) -> f32 {
    // A pure function of the two dice (sides and flat part), the bonuses and the flags, asked
    // the same questions over and over: remembered per thread.
    type Key = (Option<u32>, i32, i32, Option<u32>, i32, i32, bool, bool);
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<Key, f32, FxBuild>> = Default::default();
    }
    let key: Key = (atk.single_die(), atk.flat, a, def.single_die(), def.flat, d, adv, ties_block);
    if let Some(p) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return p;
    }
    let p = p_active_uncached(atk, a, def, d, adv, ties_block);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1 << 16 {
            m.clear();
        }
        m.insert(key, p);
    });
    p
}

/// [`p_active`] with no defence bonus, by attack bonus minus defence bonus (+ 60) and advantage
/// (121 slots each), for one pair of dice and tie rule (NaN: not yet).
pub(super) type PSlots = Rc<std::cell::RefCell<Vec<f32>>>;

/// The [`PSlots`] of these dice and tie rule: [`p_active`] is a pure function of them and of the
/// slot, so the table is kept per thread for every decision (a few dice pairs at most).
pub(super) fn p_active_slots(atk: &DiceExpr, def: &DiceExpr, ties_block: bool) -> PSlots {
    type Key = (Option<u32>, i32, Option<u32>, i32, bool);
    thread_local! {
        static SLOTS: std::cell::RefCell<Vec<(Key, PSlots)>> = Default::default();
    }
    let key: Key = (atk.single_die(), atk.flat, def.single_die(), def.flat, ties_block);
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        if let Some((_, t)) = s.iter().find(|(k, _)| *k == key) {
            return t.clone();
        }
        if s.len() >= 64 {
            s.clear();
        }
        let t: PSlots = Rc::new(std::cell::RefCell::new(vec![f32::NAN; 2 * 121]));
        s.push((key, t.clone()));
        t
    })
}

fn p_active_uncached(atk: &DiceExpr, a: i32, def: &DiceExpr, d: i32, adv: bool, ties_block: bool) -> f32 {
    let sides = atk.single_die().map_or(20, |s| s.min(100) as i32);
    let mut hits = 0.0;
    for r in 1..=sides {
        let total = r.saturating_add(a).saturating_add(atk.flat);
        // The attack hits when the defence total stays below it (or at most equals it).
        let need = if ties_block { total } else { total.saturating_add(1) };
        let block = p_at_least(def, d, need);
        hits += if adv { (1.0 - block) * (1.0 - block) } else { 1.0 - block };
    }
    hits / sides as f32
}

/// [`rules_odds::attack_outcomes`], remembered per thread: a pure function of the ruleset's
/// attack math, the die, the bonus, the AC and the weapon (issue 50).
fn outcomes(
    rs: &crate::rules::ruleset::Ruleset,
    die: &DiceExpr,
    bonus: i32,
    ac: i32,
    w: Option<WeaponCritical>,
) -> AttackOdds {
    type Key = (
        Option<crate::rules::ruleset::DegreeRule>,
        CriticalRule,
        bool,
        Option<u32>,
        i32,
        i32,
        i32,
        Option<WeaponCritical>,
    );
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<Key, AttackOdds, FxBuild>> = Default::default();
    }
    let m = &rs.attack_math;
    let key: Key = (m.degrees, m.critical, m.natural_hit_miss, die.single_die(), die.flat, bonus, ac, w);
    if let Some(o) = MEMO.with(|c| c.borrow().get(&key).copied()) {
        return o;
    }
    let o = rules_odds::attack_outcomes(rs, die, bonus, ac, w);
    MEMO.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 1 << 16 {
            c.clear();
        }
        c.insert(key, o);
    });
    o
}

/// A target's AC and a weapon's place in [`CritSlots`] ([`View::crit_row`]).
#[derive(Clone, Copy)]
pub(super) struct CritRow {
    ac: i32,
    index: usize,
    w: Option<WeaponCritical>,
}

/// [`View::crit_at`]'s table: by weapon, the chances by bonus minus AC (+ 120).
pub(super) type CritSlots = Rc<std::cell::RefCell<Vec<(Option<WeaponCritical>, Vec<AttackOdds>)>>>;

/// The [`CritSlots`] of this attack math and die: the chances are a pure function of them, the
/// weapon and the difference, so the table is kept per thread across decisions.
pub(super) fn crit_slots(math: &crate::rules::ruleset::AttackMath, die: &DiceExpr) -> CritSlots {
    type Key = (Option<crate::rules::ruleset::DegreeRule>, CriticalRule, bool, Option<u32>, i32);
    thread_local! {
        static SLOTS: std::cell::RefCell<Vec<(Key, CritSlots)>> = Default::default();
    }
    let key: Key = (math.degrees, math.critical, math.natural_hit_miss, die.single_die(), die.flat);
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        if let Some((_, t)) = s.iter().find(|(k, _)| *k == key) {
            return t.clone();
        }
        if s.len() >= 64 {
            s.clear();
        }
        let t: CritSlots = Default::default();
        s.push((key, t.clone()));
        t
    })
}

/// Expected damage of an attack with these chances: a plain hit's `emin` and a critical hit's,
/// whose range is the plain one times the multiplier (G-P2-25; G-P1-18 rolls the dice that many
/// times, the same mean; a damage modifier counted once there is counted each time here).
fn with_crits(o: AttackOdds, (lo, hi, mean): (i32, i32, f32), left: i32) -> f32 {
    let k = i32::from(o.multiplier.max(1));
    let plain = (o.hit - o.crit) * emin(lo, hi, mean, left);
    if o.crit <= 0.0 {
        return plain;
    }
    plain + o.crit * emin(lo.saturating_mul(k), hi.saturating_mul(k), mean * k as f32, left)
}

impl<'a> View<'a> {
    /// What the chances of an attack on `t` read of the target and the weapon under a ruleset
    /// with attack math (issue 50), once for several bonuses (a turn's uses, iterative attacks):
    /// the target's AC (with off-guard when `off_guard`) and the weapon's table. None under the
    /// plain roll or an active defence: then [`View::p_hit`] alone prices an attack, as before.
    pub(super) fn crit_row(&self, off_guard: bool, t: &Unit, m: DefMod, w: Option<WeaponCritical>) -> Option<CritRow> {
        let slots = self.crit_slots.as_ref()?;
        let DefenseRule::StaticAc { ac_stat, .. } = &self.rs.defense else { return None };
        let ac = if off_guard { self.ac_off_guard(t, ac_stat, m) } else { self.ac(t, ac_stat, m) };
        let mut slots = slots.borrow_mut();
        let index = match slots.iter().position(|(k, _)| *k == w) {
            Some(i) => i,
            None => {
                slots.push((w, vec![AttackOdds::default(); 241]));
                slots.len() - 1
            }
        };
        Some(CritRow { ac, index, w })
    }

    /// The chances of an attack with this bonus against a [`CritRow`]. The chances depend on the bonus and
    /// the AC only through their difference (every test compares the total with the AC): kept by
    /// weapon and difference, per thread.
    pub(super) fn crit_at(&self, row: CritRow, bonus: i32) -> AttackOdds {
        let DefenseRule::StaticAc { attack_dice, .. } = &self.rs.defense else { return AttackOdds::default() };
        let diff = bonus.saturating_sub(row.ac);
        let Some(slots) = self.crit_slots.as_ref().filter(|_| (-120..=120).contains(&diff)) else {
            return outcomes(self.rs, attack_dice, bonus, row.ac, row.w);
        };
        let slot = (diff + 120) as usize;
        let mut slots = slots.borrow_mut();
        let table = &mut slots[row.index].1;
        if table[slot].multiplier == 0 {
            table[slot] = outcomes(self.rs, attack_dice, diff, 0, row.w);
        }
        table[slot]
    }

    /// [`View::ac`] with the ruleset's off-guard condition added (G-P2-27), its modifiers stacked
    /// by type with the others, as the rules count it for a flanked target's melee attackers.
    fn ac_off_guard(&self, u: &Unit, ac_stat: &str, m: DefMod) -> i32 {
        let Some(conds) = rules_odds::off_guard_conditions(self.rs, u.conds.unwrap_or(&NO_CONDITIONS)) else {
            return self.ac(u, ac_stat, m);
        };
        query::armor_class(self.rs, u.stats.get(ac_stat).saturating_add(m.ac), u.stats, &conds)
    }

    /// The multiple attack penalty (G-P2-23) of the decider's next use of `def`, after the
    /// attacks of its turn so far and those the plan being filled took.
    pub(super) fn penalty_for(&self, def: &AbilityDef) -> i32 {
        let k = self.attacks_made.saturating_add(self.plan_attacks.get()).min(3);
        self.map_steps(def).1[usize::from(k)]
    }

    /// Whether `def` counts towards the multiple attack penalty, and its penalty after 0, 1, 2
    /// and 3 or more attacks ([`rules_odds::map_penalty`]; the last step repeats), remembered
    /// for the decision.
    pub(super) fn map_steps(&self, def: &AbilityDef) -> (bool, [i32; 4]) {
        let key = def as *const AbilityDef;
        if let Some(&(_, counts, steps)) = self.map_memo.borrow().iter().find(|(d, _, _)| *d == key) {
            return (counts, steps);
        }
        let counts = rules_odds::counts_as_attack(self.rs, def);
        let steps = [0u8, 1, 2, 3].map(|k| rules_odds::map_penalty(self.rs, def, k));
        self.map_memo.borrow_mut().push((key, counts, steps));
        (counts, steps)
    }

    /// [`query::armor_class`] of `u` with a change of `m.ac`, remembered for the decision.
    fn ac(&self, u: &Unit, ac_stat: &str, m: DefMod) -> i32 {
        if let Some(&(_, _, ac)) = self.ac_memo.borrow().iter().find(|(id, mac, _)| *id == u.id && *mac == m.ac) {
            return ac;
        }
        let base = u.stats.get(ac_stat).saturating_add(m.ac);
        let ac = query::armor_class(self.rs, base, u.stats, u.conds.unwrap_or(&NO_CONDITIONS));
        self.ac_memo.borrow_mut().push((u.id, m.ac, ac));
        ac
    }

    /// P(an attack with this bonus hits `t`).
    fn p_hit(&self, bonus: i32, melee: bool, opportunity: bool, t: &Unit, m: DefMod) -> f32 {
        match &self.rs.defense {
            DefenseRule::StaticAc { attack_dice, ac_stat } => p_at_least(attack_dice, bonus, self.ac(t, ac_stat, m)),
            DefenseRule::ActiveRoll { attack_dice, dice, defender_wins_ties, .. } => {
                if !t.can_act {
                    return 1.0;
                }
                let (dodge, parry) = (t.dodge, t.parry);
                let mut best = None;
                if dodge > 0 {
                    best = Some(dodge);
                }
                if melee && !opportunity && parry > 0 {
                    best = Some(best.map_or(parry, |b: i32| b.max(parry)));
                }
                let Some(d) = best else { return 1.0 };
                // Issue 28: AC modifiers change the defence roll (`rules::combat`'s defence).
                let d = d.saturating_add(t.def_roll).saturating_add(m.roll);
                let adv = m.adv || t.adv;
                let diff = bonus.saturating_sub(d);
                if !(-60..=60).contains(&diff) {
                    return p_active(attack_dice, bonus, dice, d, adv, *defender_wins_ties);
                }
                let slot = (diff + 60) as usize + 121 * usize::from(adv);
                let Some(slots) = self.p_active.as_ref() else {
                    return p_active(attack_dice, diff, dice, 0, adv, *defender_wins_ties);
                };
                let cached = slots.borrow()[slot];
                if cached.is_nan() {
                    let p = p_active(attack_dice, diff, dice, 0, adv, *defender_wins_ties);
                    slots.borrow_mut()[slot] = p;
                    p
                } else {
                    cached
                }
            }
        }
    }

    /// Whether `t` is flanked if the decider stands on `from` (two of its enemies on opposite
    /// sides, one of them possibly the decider): [`query::flanked`] with the decider moved to
    /// `from`, by way of [`View::flank_squares`].
    pub(super) fn flanked_from(&self, t: &Unit, from: GridPos) -> bool {
        if !self.flanking_counts() {
            return false;
        }
        // Remembered for the units themselves; a copy (moved, say) is worked out afresh.
        let f = match self.unit_index(t) {
            Some(i) => {
                let mut memo = self.flank_memo.borrow_mut();
                if memo.len() != self.units.len() {
                    memo.clear();
                    memo.resize(self.units.len(), None);
                }
                *memo[i].get_or_insert_with(|| self.flank_squares(t))
            }
            None => self.flank_squares(t),
        };
        f.always || f.squares[..usize::from(f.n)].contains(&from)
    }

    /// Whether flanking changes an attack under this ruleset: a bonus to the attack roll
    /// (HB-48, G-P1-19) or off-guard to the target (G-P2-27).
    pub(super) fn flanking_counts(&self) -> bool {
        self.rs.engagement.flanking_attack_bonus != 0 || self.rs.attack_math.off_guard_when_flanked.is_some()
    }

    /// The index in `units` of `t`, if it is one of them (not a copy).
    fn unit_index(&self, t: &Unit) -> Option<usize> {
        let size = std::mem::size_of::<Unit>();
        let at = (t as *const Unit as usize).wrapping_sub(self.units.as_ptr() as usize);
        // Equivalent mutant (issue 26, docs/testing.md): `size > 0` → `>=`: a `Unit` is never zero-sized.
        (size > 0 && at.is_multiple_of(size) && at / size < self.units.len()).then_some(at / size)
    }

    /// Where [`View::flanked_from`] holds for `t` whatever the decider's square (`always`), else the
    /// squares the decider would flank it from: opposite a foe of `t` across it. (Two squares
    /// opposite each other across `t` differ, so the decider stands on at most one of them.)
    fn flank_squares(&self, t: &Unit) -> Flank {
        let me = self.me().id;
        let foe_at = |p: GridPos| self.occupant(p).is_some_and(|u| u.id != me && u.enemy != t.enemy);
        let mut f = Flank { always: false, squares: [GridPos::default(); 8], n: 0 };
        for (n, o) in query::opposite_squares(t.pos) {
            match (foe_at(n), foe_at(o)) {
                // Under `flanker_only` (pf2e, pf1e) two others flanking it do not help the
                // decider's attack: only its own place opposite a foe does.
                (true, true) if !self.rs.engagement.flanker_only => f.always = true,
                (false, true) => {
                    f.squares[usize::from(f.n)] = n;
                    f.n += 1;
                }
                _ => {}
            }
        }
        f
    }

    /// The decider's attack stat and damage range for an attack with `stat` and `dmg`, looked up
    /// once for pricing it against every target from many squares.
    pub(super) fn attack_roll(&self, stat: &str, dmg: &DiceExpr) -> AttackRoll {
        let me = self.me();
        let stat = me.stats.get(stat).saturating_add(self.modifier(me, RollOn::Attack));
        AttackRoll { stat, range: self.dealt_by(dmg, me) }
    }

    /// Expected damage (capped at `left` hit points) of an attack by the decider from `from`.
    pub(super) fn attack_dmg(
        &self,
        from: GridPos,
        roll: &AttackRoll,
        mods: &[i32],
        extra: i32,
        melee: bool,
        t: &Unit,
        left: i32,
        weapon: Option<WeaponCritical>,
    ) -> f32 {
        let mut bonus = roll.stat.saturating_add(extra);
        let flanked = melee && self.flanked_from(t, from);
        if flanked {
            bonus = bonus.saturating_add(self.rs.engagement.flanking_attack_bonus);
        }
        bonus = bonus.saturating_add(self.assist);
        let (lo, hi, mean) = roll.range;
        let mut left = left as f32;
        let mut total = 0.0;
        // Issue 50: the target's AC (off-guard included) and the weapon's table, read once.
        let row = self.crit_row(flanked, t, DefMod::default(), weapon);
        for m in std::iter::once(&0).chain(mods.iter()) {
            if left <= 0.0 {
                break;
            }
            let b = bonus.saturating_add(*m);
            let e = match row {
                // Issue 50: degrees, criticals, natural 20 and 1, off-guard.
                Some(r) => with_crits(self.crit_at(r, b), roll.range, left.ceil() as i32),
                None => {
                    let p = self.p_hit(b, melee, false, t, DefMod::default());
                    p * emin(lo, hi, mean, left.ceil() as i32)
                }
            };
            total += e;
            left -= e;
        }
        total
    }

    /// Expected damage per round `e` deals to `a` with its best attack, given a defence change.
    fn dpr_against(&self, e: &Unit, a: &Unit, m: DefMod) -> f32 {
        if !e.can_act || e.busy {
            return 0.0;
        }
        let d = e.pos.distance(a.pos);
        let mut best = 0.0f32;
        let reach_next = e.speed.saturating_mul(2).saturating_add(self.reach);
        if let Some((def, n)) = e.melee
            && d <= reach_next
        {
            best = best.max(self.attack_by_uses(e, def, a, m, n));
        }
        if let Some((def, n)) = e.shot {
            best = best.max(self.attack_by_uses(e, def, a, m, n));
        }
        best
    }

    /// Expected damage of `n` uses of `def` by `e` on `a` in one of its turns: `n` times one use,
    /// or, under a multiple attack penalty (G-P2-23), each use at the penalty of the uses before
    /// it (a part use weighed by its share).
    pub(super) fn attack_by_uses(&self, e: &Unit, def: &AbilityDef, a: &Unit, m: DefMod, n: f32) -> f32 {
        let Effect::Attack { kind, stat, damage, iterative, critical } = &def.effect else {
            return self.attack_by(e, def, a, false, m) * n;
        };
        let (counts, steps) = self.map_steps(def);
        if !counts {
            return self.attack_by(e, def, a, false, m) * n;
        }
        // Read once for the turn's uses: the bonus and the damage; each use's chances by its bonus.
        let bonus = e.stats.get(stat).saturating_add(self.modifier(e, RollOn::Attack));
        let mean = self.dealt_by(damage, e).2;
        let melee = *kind == AttackKind::Melee;
        let row = self.crit_row(false, a, m, *critical);
        let one = |penalty: i32| -> f32 {
            std::iter::once(&0)
                .chain(iterative.iter())
                .map(|x| {
                    self.hit_value(bonus.saturating_add(penalty).saturating_add(*x), melee, false, a, m, row) * mean
                })
                .sum()
        };
        let mut total = 0.0;
        let mut k = 0u8;
        while f32::from(k) < n && k < 8 {
            let share = (n - f32::from(k)).min(1.0);
            total += share * one(steps[usize::from(k.min(3))]);
            k += 1;
        }
        total
    }

    /// What one hit is worth on average, as a share of a hit's damage, for an attack with this
    /// bonus on `a`: the chance to hit under the plain roll or an active defence ([`View::p_hit`]);
    /// with attack math, a plain hit's chance plus a critical's times its multiplier (issue 50).
    fn hit_value(&self, b: i32, melee: bool, opportunity: bool, a: &Unit, m: DefMod, row: Option<CritRow>) -> f32 {
        match row {
            Some(r) => {
                let o = self.crit_at(r, b);
                (o.hit - o.crit) + o.crit * f32::from(o.multiplier.max(1))
            }
            None => self.p_hit(b, melee, opportunity, a, m),
        }
    }

    /// Expected damage of one use of `def` by `e` on `a`.
    pub(super) fn attack_by(&self, e: &Unit, def: &AbilityDef, a: &Unit, opportunity: bool, m: DefMod) -> f32 {
        self.attack_by_at(e, def, a, opportunity, m, 0)
    }

    /// [`View::attack_by`] with a multiple attack penalty on its attack rolls (G-P2-23).
    fn attack_by_at(&self, e: &Unit, def: &AbilityDef, a: &Unit, opportunity: bool, m: DefMod, penalty: i32) -> f32 {
        match &def.effect {
            Effect::Attack { kind, stat, damage, iterative, critical } => {
                let bonus = e.stats.get(stat).saturating_add(self.modifier(e, RollOn::Attack)).saturating_add(penalty);
                let range = self.dealt_by(damage, e);
                let mean = range.2;
                let melee = *kind == AttackKind::Melee;
                let row = self.crit_row(false, a, m, *critical);
                std::iter::once(&0)
                    .chain(iterative.iter())
                    .map(|x| self.hit_value(bonus.saturating_add(*x), melee, opportunity, a, m, row) * mean)
                    .sum()
            }
            Effect::Damage { amount } => self.dealt_by(amount, e).2,
            Effect::Save { stat, dc, damage: Some(d), basic, .. } => {
                let save = a.stats.get(stat).saturating_add(self.modifier(a, RollOn::Save));
                let dc = dc.saturating_add(self.modifier(e, RollOn::Dc));
                let range = self.dealt_by(d, e);
                match self.rs.saves.degrees {
                    // G-P2-24/26: the chance of each degree, and what a basic save lets through.
                    Some(rule) => {
                        let p = rules_odds::save_degrees(rule, &self.rs.saves.dice, save, dc);
                        if *basic {
                            p[1] * range.2 + p[0] * 2.0 * range.2 + p[2] * self.half_dealt(d, e)
                        } else {
                            (p[0] + p[1]) * range.2
                        }
                    }
                    None => {
                        let p_fail = 1.0 - p_at_least(&self.rs.saves.dice, save, self.save_need(dc));
                        p_fail * range.2
                    }
                }
            }
            _ => 0.0,
        }
    }

    /// The mean of `e`'s damage halved and rounded down (a basic save's success, G-P2-26).
    pub(super) fn half_dealt(&self, d: &DiceExpr, u: &Unit) -> f32 {
        let shift = d.flat.saturating_add(stat_terms(d, u.stats)).saturating_add(self.modifier(u, RollOn::Damage));
        rules_odds::half_mean(d, shift)
    }

    /// The rules' [`query::roll_modifier`] of a unit's conditions (issue 28: frightened, bless).
    pub(super) fn modifier(&self, u: &Unit, on: RollOn) -> i32 {
        u.mods[on as usize]
    }

    pub(super) fn save_need(&self, dc: i32) -> i32 {
        if self.rs.saves.saver_wins_ties { dc } else { dc.saturating_add(1) }
    }

    /// Chance that `e` picks `a` among its side's targets next round.
    fn targets_me(&self, e: &Unit, a: &Unit) -> f32 {
        let d = e.pos.distance(a.pos);
        if d <= self.reach {
            let adjacent =
                self.units.iter().filter(|u| u.enemy != e.enemy && u.pos.distance(e.pos) <= self.reach).count();
            return 1.0 / adjacent.max(1) as f32;
        }
        let side = self.units.iter().filter(|u| u.enemy == a.enemy).count();
        1.0 / side.max(1) as f32
    }

    /// [`dmg_range`], remembered for the decision (the expressions and stat blocks live as long
    /// as the view, so their addresses name them).
    pub(super) fn dmg(&self, e: &DiceExpr, stats: &Stats) -> (i32, i32, f32) {
        let key = (e as *const DiceExpr, stats as *const Stats);
        if let Some(&(_, _, r)) = self.dmg_memo.borrow().iter().find(|(a, b, _)| (*a, *b) == key) {
            return r;
        }
        let r = dmg_range(e, stats);
        self.dmg_memo.borrow_mut().push((key.0, key.1, r));
        r
    }

    /// [`View::dmg`] of damage dealt by `u`: shifted by its damage modifiers (issue 28), as the
    /// rules add them to the rolled total and floor it at 0.
    pub(super) fn dealt_by(&self, e: &DiceExpr, u: &Unit) -> (i32, i32, f32) {
        match self.modifier(u, RollOn::Damage) {
            0 => self.dmg(e, u.stats),
            m => dmg_range_plus(e, u.stats, m),
        }
    }

    /// Damage `a` expects before its next turn, with a defence change.
    pub(super) fn incoming(&self, a: &Unit, m: DefMod) -> f32 {
        let hit = self
            .incoming_memo
            .borrow()
            .iter()
            .find(|(id, pos, mm, _)| *id == a.id && *pos == a.pos && *mm == m)
            .map(|x| x.3);
        if let Some(v) = hit {
            return v;
        }
        let v = self.incoming_uncached(a, m);
        self.incoming_memo.borrow_mut().push((a.id, a.pos, m, v));
        v
    }

    fn incoming_uncached(&self, a: &Unit, m: DefMod) -> f32 {
        self.units
            .iter()
            .filter(|e| e.enemy != a.enemy)
            .map(|e| self.dpr_against(e, a, m) * self.targets_me(e, a))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::fixture::duel;
    use super::*;
    use crate::rules::components::Cid;

    fn d(s: &str) -> DiceExpr {
        DiceExpr::parse(s).expect("valid dice")
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn p_at_least_counts_the_faces_that_reach() {
        // d20 + 5 ≥ 15 on a roll of 10..=20: 11 faces of 20.
        assert_eq!(p_at_least(&d("1d20"), 5, 15), 11.0 / 20.0);
        // The die's own flat part counts like the bonus: d20 + 2 + 3 ≥ 15.
        assert_eq!(p_at_least(&d("1d20+2"), 3, 15), 11.0 / 20.0);
        // A d6 needing 4: 4, 5 or 6.
        assert_eq!(p_at_least(&d("1d6"), 0, 4), 0.5);
        // Any face, and none.
        assert_eq!(p_at_least(&d("1d20"), 5, -3), 1.0);
        assert_eq!(p_at_least(&d("1d20"), 5, 26), 0.0);
        // Not one die: read as a d20 (11..=20).
        assert_eq!(p_at_least(&d("2d6"), 0, 11), 10.0 / 20.0);
    }

    #[test]
    fn p_active_weighs_the_attack_die_against_the_defence_die() {
        let d20 = d("1d20");
        // Even bonuses: the attack wins on a higher roll, (400 - 20) / 2 = 190 pairs of 400; 210
        // when ties go to the attack.
        assert!(close(p_active(&d20, 0, &d20, 0, false, true), 190.0 / 400.0));
        assert!(close(p_active(&d20, 0, &d20, 0, false, false), 210.0 / 400.0));
        // +5 to the attack: it loses only when the defence rolls 5 or more above it,
        // 15 + 14 + … + 1 = 120 pairs.
        assert!(close(p_active(&d20, 5, &d20, 0, false, true), 280.0 / 400.0));
        // Advantage on defence (the better of two d20s): a roll r beats both when both are below
        // r, ((r - 1) / 20)² summed over r: 2,470 / 8,000.
        assert!(close(p_active(&d20, 0, &d20, 0, true, true), 2470.0 / 8000.0));
        // Remembered per thread, and the same as worked out afresh.
        assert_eq!(p_active(&d20, 5, &d20, 0, false, true), p_active_uncached(&d20, 5, &d20, 0, false, true));
    }

    #[test]
    fn emin_caps_the_damage_at_the_hit_points_left() {
        // A d6 against 3 hit points: (1 + 2 + 3 + 3 + 3 + 3) / 6.
        assert!(close(emin(1, 6, 3.5, 3), 15.0 / 6.0));
        // 1d8+3 (4..=11) against 5: (4 + 5 × 7) / 8.
        assert!(close(emin(4, 11, 7.5, 5), 39.0 / 8.0));
        // Nothing left; at least the highest roll left (the mean); at most the lowest (all of it).
        assert_eq!(emin(1, 6, 3.5, 0), 0.0);
        assert_eq!(emin(1, 6, 3.5, 6), 3.5);
        assert_eq!(emin(1, 6, 3.5, 1), 1.0);
    }

    #[test]
    fn dmg_range_adds_the_flat_part_and_the_stats_and_never_goes_below_zero() {
        let stats = Stats(BTreeMap::from([("STR".to_string(), 2)]));
        assert_eq!(dmg_range(&d("1d8+3"), &stats), (4, 11, 7.5));
        assert_eq!(dmg_range(&d("1d8+STR"), &stats), (3, 10, 6.5));
        assert_eq!(dmg_range(&d("2d6-1"), &stats), (1, 11, 6.0));
        assert_eq!(dmg_range(&d("1d4-5"), &stats), (0, 0, 0.0));
        // A modifier counts before the floor: 1d4-5 with +3 is 1d4-2 (0..=2), not 0 + 3.
        assert_eq!(dmg_range_plus(&d("1d4-5"), &stats, 3), (0, 2, 0.5));
        assert_eq!(dmg_range_plus(&d("1d8+3"), &stats, -2), (2, 9, 5.5));
    }

    #[test]
    fn a_view_hits_against_armour_class_and_expects_the_enemys_strikes() {
        let c = duel(20, &[]);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let b = v.units.iter().find(|u| u.id == Cid(1)).expect("b stands");
        // d20 + 3 ≥ AC 16: 8 faces; 2 more AC (a shield being priced): 6 faces.
        assert_eq!(v.p_hit(3, true, false, b, DefMod::default()), 8.0 / 20.0);
        assert_eq!(v.p_hit(3, true, false, b, DefMod { ac: 2, ..DefMod::default() }), 6.0 / 20.0);
        // b's three Strikes on a before a's next turn: d20 + 3 ≥ 15 (9 faces) × 7.5, three times;
        // a is the only creature b can pick.
        assert!(close(v.incoming(v.me(), DefMod::default()), 3.0 * 0.45 * 7.5));
        // With its shield raised (shield_raised: +2 AC) b's AC is 18.
        let c = duel(20, &["shield_raised"]);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let b = v.units.iter().find(|u| u.id == Cid(1)).expect("b stands");
        assert_eq!(v.p_hit(3, true, false, b, DefMod::default()), 6.0 / 20.0);
    }
}
