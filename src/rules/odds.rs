//! The attack math of issue 50 as queries (RULES.md §5.6): degrees of success (G-P2-24), the
//! multiple attack penalty (G-P2-23), critical hits (G-P2-25, G-P1-18), natural 20 and 1
//! (G-P1-17) and basic saves (G-P2-26). The engine resolves rolls with them, and the AI and the
//! HUD price and preview with the same functions: one place per rule.
//!
//! Everything here reads the ruleset's data ([`AttackMath`]); a ruleset without it gets the plain
//! roll against AC.

use super::components::{ConditionState, Conditions};
use super::dice::DiceExpr;
use super::log::{DamageScale, Degree};
use super::ruleset::{AbilityDef, AttackMath, CriticalRule, DegreeRule, Effect, Ruleset, WeaponCritical};

/// The degree of a roll of `total` (natural roll `die`) against `dc` (G-P2-24): at or above
/// DC + margin a critical success, at or above the DC a success, at or below DC − margin a
/// critical failure, else a failure; with `natural_steps`, a natural 20 moves it one degree
/// better and a natural 1 one worse.
pub fn degree(rule: DegreeRule, die: i32, total: i32, dc: i32) -> Degree {
    let m = rule.margin;
    let mut d: i32 = if total >= dc.saturating_add(m) {
        3
    } else if total >= dc {
        2
    } else if total <= dc.saturating_sub(m) {
        0
    } else {
        1
    };
    if rule.natural_steps {
        if die == 20 {
            d += 1;
        } else if die == 1 {
            d -= 1;
        }
    }
    match d.clamp(0, 3) {
        0 => Degree::CriticalFailure,
        1 => Degree::Failure,
        2 => Degree::Success,
        _ => Degree::CriticalSuccess,
    }
}

/// Whether using `def` counts towards the multiple attack penalty (G-P2-23): it carries the
/// ruleset's attack trait.
pub fn counts_as_attack(rs: &Ruleset, def: &AbilityDef) -> bool {
    rs.attack_math.multiple_attack_penalty.as_ref().is_some_and(|m| def.tags.contains(&m.trait_tag))
}

/// The multiple attack penalty (G-P2-23) of a use of `def` after `attacks_before` attacks of
/// its user's turn: 0 for the first, then the ruleset's steps (the agile ones for an agile
/// ability), the last step repeating. 0 for an ability without the attack trait.
pub fn map_penalty(rs: &Ruleset, def: &AbilityDef, attacks_before: u8) -> i32 {
    let Some(m) = &rs.attack_math.multiple_attack_penalty else { return 0 };
    if attacks_before == 0 || !counts_as_attack(rs, def) {
        return 0;
    }
    let agile = m.agile_tag.as_ref().is_some_and(|a| def.tags.iter().any(|t| t == a));
    let steps = if agile && !m.agile.is_empty() { &m.agile } else { &m.penalties };
    let i = usize::from(attacks_before - 1).min(steps.len().saturating_sub(1));
    steps.get(i).copied().unwrap_or(0)
}

/// The critical numbers of an attack: the lowest natural roll that threatens (`Confirm` only)
/// and the multiplier, from the weapon's own `critical` over the ruleset's rule; none when the
/// ruleset has no critical hits.
pub fn critical_of(math: &AttackMath, weapon: Option<WeaponCritical>) -> Option<(i32, u8)> {
    let w = weapon.unwrap_or(WeaponCritical { threat: None, multiplier: None });
    match math.critical {
        CriticalRule::None => None,
        CriticalRule::OnCriticalSuccess { multiplier } => Some((21, w.multiplier.unwrap_or(multiplier))),
        CriticalRule::Confirm { threat, multiplier } => {
            Some((i32::from(w.threat.unwrap_or(threat)), w.multiplier.unwrap_or(multiplier)))
        }
    }
}

/// The weapon critical numbers an ability's attack effect carries.
pub fn weapon_critical(def: &AbilityDef) -> Option<WeaponCritical> {
    match &def.effect {
        Effect::Attack { critical, .. } => *critical,
        _ => None,
    }
}

/// The conditions a flanked creature counts as having against its flankers' melee attacks (G-P2-27):
/// its own, plus the ruleset's `off_guard_when_flanked` condition; None when the ruleset has no
/// such condition or the creature has it already (its own conditions then count as they are).
pub fn off_guard_conditions(rs: &Ruleset, conditions: &Conditions) -> Option<Conditions> {
    let c = rs.attack_math.off_guard_when_flanked.as_ref().filter(|c| !conditions.has(c))?;
    let mut with = conditions.clone();
    with.0.insert(c.clone(), ConditionState::plain(1));
    Some(with)
}

/// Whether a natural 20 or 1 on an attack roll means something under this ruleset (G-P1-17's
/// always-hit and always-miss, G-P2-24's step of a degree); `saves`: on a saving throw.
pub fn naturals_count(rs: &Ruleset, saves: bool) -> bool {
    if saves {
        return rs.saves.degrees.is_some_and(|d| d.natural_steps);
    }
    rs.attack_math.natural_hit_miss || rs.attack_math.degrees.is_some_and(|d| d.natural_steps)
}

/// What one attack roll does against a static AC, before any confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackResult {
    /// A miss; `critical` under degrees when it is a critical failure.
    Miss {
        /// A critical failure (G-P2-24).
        critical: bool,
    },
    /// A hit.
    Hit,
    /// A hit that threatens a critical hit: a confirmation roll decides (G-P1-18).
    Threat,
    /// A critical hit (G-P2-25).
    Critical,
}

/// Whether an attack roll (natural `die`, `total`) hits `ac` under the ruleset's math, before
/// degrees and threats: the total meets the AC, or a natural 20 or 1 decides (G-P1-17).
fn meets(math: &AttackMath, die: i32, total: i32, ac: i32) -> bool {
    if math.natural_hit_miss {
        if die == 20 {
            return true;
        }
        if die == 1 {
            return false;
        }
    }
    total >= ac
}

/// One attack roll's result (G-P2-24/25, G-P1-17/18): natural `die`, `total`, against `ac`.
pub fn attack_result(math: &AttackMath, weapon: Option<WeaponCritical>, die: i32, total: i32, ac: i32) -> AttackResult {
    if let Some(rule) = math.degrees {
        let d = degree(rule, die, total, ac);
        let crits = matches!(math.critical, CriticalRule::OnCriticalSuccess { .. });
        return match d {
            Degree::CriticalSuccess if crits => AttackResult::Critical,
            Degree::CriticalSuccess | Degree::Success => AttackResult::Hit,
            Degree::Failure => AttackResult::Miss { critical: false },
            Degree::CriticalFailure => AttackResult::Miss { critical: true },
        };
    }
    if !meets(math, die, total, ac) {
        return AttackResult::Miss { critical: false };
    }
    match (math.critical, critical_of(math, weapon)) {
        // A natural 20 always threatens (G-P1-18).
        (CriticalRule::Confirm { .. }, Some((threat, _))) if die >= threat || die == 20 => AttackResult::Threat,
        _ => AttackResult::Hit,
    }
}

/// Whether a confirmation roll (natural `die`, `total`) confirms against `ac` (G-P1-18): the
/// same test as the attack's hit, natural 20 and 1 included.
pub fn confirms(math: &AttackMath, die: i32, total: i32, ac: i32) -> bool {
    meets(math, die, total, ac)
}

/// The chances of one attack roll against a static AC.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AttackOdds {
    /// The chance to hit, critical hits included.
    pub hit: f32,
    /// The chance of a critical hit.
    pub crit: f32,
    /// A critical hit's damage multiplier (1 when there are none).
    pub multiplier: u8,
}

/// The exact chances of an attack roll of `die` + `bonus` against `ac` (G-P2-24/25,
/// G-P1-17/18), counted face by face (a die that is not one plain die is read as a d20).
pub fn attack_outcomes(
    rs: &Ruleset,
    die: &DiceExpr,
    bonus: i32,
    ac: i32,
    weapon: Option<WeaponCritical>,
) -> AttackOdds {
    let math = &rs.attack_math;
    let sides = die.single_die().map_or(20, |s| s.min(1000) as i32);
    let total_of = |r: i32| r.saturating_add(bonus).saturating_add(die.flat);
    let (mut hits, mut crits, mut threats) = (0i64, 0i64, 0i64);
    for r in 1..=sides {
        match attack_result(math, weapon, r, total_of(r), ac) {
            AttackResult::Miss { .. } => {}
            AttackResult::Hit => hits += 1,
            AttackResult::Threat => threats += 1,
            AttackResult::Critical => crits += 1,
        }
    }
    let n = i64::from(sides);
    let confirm =
        if threats > 0 { (1..=sides).filter(|&c| confirms(math, c, total_of(c), ac)).count() as i64 } else { 0 };
    // Out of n × n: plain hits and threats are hits; confirmed threats and criticals are crits.
    let hit = (hits + threats + crits) * n;
    let crit = crits * n + threats * confirm;
    let multiplier = critical_of(math, weapon).map_or(1, |(_, m)| m);
    AttackOdds { hit: hit as f32 / (n * n) as f32, crit: crit as f32 / (n * n) as f32, multiplier }
}

/// The damage a basic saving throw of `degree` lets through from `amount` (G-P2-26): none on a
/// critical success (the engine rolls no damage then), half (rounded down) on a success, all on
/// a failure, double on a critical failure; with how it was changed (none when unchanged).
pub fn save_damage(degree: Degree, amount: i32) -> (i32, Option<DamageScale>) {
    match degree {
        Degree::CriticalSuccess => (0, None),
        Degree::Success => (amount / 2, Some(DamageScale::Half)),
        Degree::Failure => (amount, None),
        Degree::CriticalFailure => (amount.saturating_mul(2), Some(DamageScale::Times(2))),
    }
}

/// The mean of a damage roll halved and rounded down (G-P2-26: a basic save's success): the
/// expression's dice plus `shift` (its flat part, stats and modifiers). Exact for sums of plain
/// dice that cannot go below 0 (E[⌊X/2⌋] = (E[X] − P(X odd)) / 2); otherwise half the mean.
pub fn half_mean(expr: &DiceExpr, shift: i32) -> f32 {
    let (lo, _, mean) = expr.dice_range();
    let mean = mean + shift as f32;
    let plain = expr.dice.iter().all(|t| t.kept() == t.count);
    if !plain || lo.saturating_add(shift) < 0 {
        return (mean / 2.0).max(0.0);
    }
    // The chance that the sum is odd, die by die: a d(s) is odd with chance ⌈s/2⌉/s.
    let mut odd = if shift.rem_euclid(2) == 1 { 1.0f64 } else { 0.0 };
    for t in &expr.dice {
        let s = f64::from(t.sides.max(1));
        let p = f64::from(t.sides.div_ceil(2)) / s;
        for _ in 0..t.count.min(1000) {
            odd = odd * (1.0 - p) + (1.0 - odd) * p;
        }
    }
    ((f64::from(mean) - odd) / 2.0) as f32
}

/// The chances of each degree of a save of `die` + `bonus` against `dc` under `rule`, worst
/// first, counted face by face.
pub fn save_degrees(rule: DegreeRule, die: &DiceExpr, bonus: i32, dc: i32) -> [f32; 4] {
    let sides = die.single_die().map_or(20, |s| s.min(1000) as i32);
    let mut n = [0u32; 4];
    for r in 1..=sides {
        let total = r.saturating_add(bonus).saturating_add(die.flat);
        n[degree(rule, r, total, dc) as usize] += 1;
    }
    n.map(|k| k as f32 / sides as f32)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn load(name: &str) -> Ruleset {
        Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{name}.ron")))
            .expect("shipped ruleset loads")
    }

    fn d20() -> DiceExpr {
        DiceExpr::parse("1d20").expect("valid")
    }

    #[test]
    fn degrees_count_the_margin_and_the_natural_steps() {
        let r = DegreeRule::default();
        assert_eq!(degree(r, 10, 25, 15), Degree::CriticalSuccess);
        assert_eq!(degree(r, 10, 15, 15), Degree::Success);
        assert_eq!(degree(r, 10, 14, 15), Degree::Failure);
        assert_eq!(degree(r, 10, 5, 15), Degree::CriticalFailure);
        // A natural 20 one better, a natural 1 one worse, within the four.
        assert_eq!(degree(r, 20, 14, 15), Degree::Success);
        assert_eq!(degree(r, 20, 30, 15), Degree::CriticalSuccess);
        assert_eq!(degree(r, 1, 15, 15), Degree::Failure);
        assert_eq!(degree(r, 1, 2, 15), Degree::CriticalFailure);
        // Without the steps the natural roll does not count.
        assert_eq!(degree(DegreeRule { margin: 10, natural_steps: false }, 20, 14, 15), Degree::Failure);
    }

    #[test]
    fn the_penalty_steps_by_the_attacks_before_and_is_lighter_for_agile() {
        let rs = load("pf2e");
        let strike = rs.ability("strike").expect("pf2e Strike");
        assert_eq!((0..4).map(|k| map_penalty(&rs, strike, k)).collect::<Vec<_>>(), [0, -5, -10, -10]);
        let agile = rs.abilities.iter().find(|a| a.tags.iter().any(|t| t == "agile")).expect("an agile ability");
        assert_eq!((0..4).map(|k| map_penalty(&rs, agile, k)).collect::<Vec<_>>(), [0, -4, -8, -8]);
        // Not an attack: no penalty.
        assert_eq!(map_penalty(&rs, rs.ability("stride").expect("Stride"), 2), 0);
        // pf1e has none.
        let pf1 = load("pf1e");
        assert_eq!(map_penalty(&pf1, pf1.ability("melee_attack").expect("attack"), 2), 0);
    }

    #[test]
    fn pf2e_odds_count_hits_and_criticals_face_by_face() {
        let rs = load("pf2e");
        // d20 + 5 against AC 15: a hit on 10..=20 (11 faces); a critical at 25 (20), and a natural
        // 20 already hits, so it is a critical too: 1 face. Faces 2..=9 miss; 1 misses.
        let o = attack_outcomes(&rs, &d20(), 5, 15, None);
        assert_eq!((o.hit, o.crit, o.multiplier), (11.0 / 20.0, 1.0 / 20.0, 2));
        // +15 against 15: 1 is a critical? 16 ≥ 15 is a success, worsened by the natural 1 to a
        // failure; 2..=9 hit (17..24), 10..=20 crit (25+): 11 crits, 19 hits in all.
        let o = attack_outcomes(&rs, &d20(), 15, 15, None);
        assert_eq!((o.hit, o.crit), (19.0 / 20.0, 11.0 / 20.0));
    }

    #[test]
    fn pf1e_odds_confirm_threats_with_the_same_roll() {
        let rs = load("pf1e");
        // d20 + 5 against AC 15: hit on 10..=20 (11 faces); threat on 20 only; confirmed on
        // 10..=20: crit 1/20 × 11/20.
        let o = attack_outcomes(&rs, &d20(), 5, 15, None);
        assert_eq!((o.hit, o.crit, o.multiplier), (11.0 / 20.0, 11.0 / 400.0, 2));
        // A 19–20 ×3 weapon: two threat faces.
        let w = Some(WeaponCritical { threat: Some(19), multiplier: Some(3) });
        let o = attack_outcomes(&rs, &d20(), 5, 15, w);
        assert_eq!((o.hit, o.crit, o.multiplier), (11.0 / 20.0, 22.0 / 400.0, 3));
        // A natural 20 hits AC 40 and threatens; only a natural 20 confirms.
        let o = attack_outcomes(&rs, &d20(), 0, 40, None);
        assert_eq!((o.hit, o.crit), (1.0 / 20.0, 1.0 / 400.0));
        // A natural 1 misses at +30.
        assert_eq!(attack_outcomes(&rs, &d20(), 30, 10, None).hit, 19.0 / 20.0);
    }

    #[test]
    fn plain_rulesets_hit_on_the_total_alone() {
        let rs = load("homebrew-d20");
        assert!(rs.attack_math.is_plain());
        // A natural 1 at +30 still hits; no criticals.
        let o = attack_outcomes(&rs, &d20(), 30, 10, None);
        assert_eq!((o.hit, o.crit, o.multiplier), (1.0, 0.0, 1));
    }

    #[test]
    fn basic_saves_scale_the_damage_by_degree() {
        assert_eq!(save_damage(Degree::CriticalSuccess, 7), (0, None));
        assert_eq!(save_damage(Degree::Success, 7), (3, Some(DamageScale::Half)));
        assert_eq!(save_damage(Degree::Failure, 7), (7, None));
        assert_eq!(save_damage(Degree::CriticalFailure, 7), (14, Some(DamageScale::Times(2))));
        let p = save_degrees(DegreeRule::default(), &d20(), 3, 17);
        // 1d20+3 vs 17: crit fail on 1..=4 (total ≤ 7) → 4 faces; failure 5..=13 (9, the natural-20
        // step does not reach); success 14..=19 (6); 20 → 23 success, a natural 20 → critical.
        assert_eq!(p, [4.0 / 20.0, 9.0 / 20.0, 6.0 / 20.0, 1.0 / 20.0]);
    }
}
