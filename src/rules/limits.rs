//! The ranges data may use, enforced while a file is parsed.
//!
//! Every number a ruleset, encounter or scenario gives the engine is bounded here, so that the
//! rules' integer arithmetic cannot overflow, no loop runs for ever and no allocation explodes.
//! A value out of range is a parse error at its `file:line:col`, naming the field's path (see
//! `super::data::parse_ron`). The bounds are generous for play: a designer should never meet
//! them except by mistake.
//!
//! With these bounds the largest sums the engine forms stay far inside `i32`: a damage roll is at
//! most 100 dice of 1,000 sides plus 10 stats of 1,000 and a flat 10,000 (120,000), hit points
//! are at most 1,000,000.

use std::collections::BTreeMap;

use serde::de::{Deserialize, Deserializer, Error};

/// Dice in one expression, all its dice terms together (`100d6`, `50d6+50d4`).
pub const MAX_DICE: u32 = 100;
/// Dice terms in one expression (`1d20+1d4+1d6` has 3).
pub const MAX_DICE_TERMS: usize = 4;
/// Faces of one die (`1d1000`).
pub const MAX_SIDES: u32 = 1_000;
/// Dice terms, flat numbers and stats in one expression.
pub const MAX_TERMS: usize = 10;
/// A flat number in a dice expression, a bonus or a difficulty.
pub const MAX_FLAT: i32 = 10_000;
/// A stat's value.
pub const MAX_STAT: i32 = 1_000;
/// Hit points.
pub const MAX_HP: i32 = 1_000_000;
/// A grid coordinate.
pub const MAX_COORD: i32 = 10_000;
/// Squares: reach, speeds, step and disengage distances.
pub const MAX_SQUARES: u32 = 100;
/// Actions, reactions and typed slots in a budget, and an ability's cost.
pub const MAX_ACTIONS: u8 = 20;
/// Segments, recovery, cast and focus times.
pub const MAX_TIME: u32 = 1_000;
/// Rounds: durations, casting times, round caps.
pub const MAX_ROUNDS: u32 = 10_000;
/// A condition's value (frightened 2, dying 4).
pub const MAX_VALUE: i32 = 1_000;
/// Seconds a round lasts.
pub const MAX_SECONDS: u32 = 86_400;
/// Combatants in one fight (the engine: a scripted scenario, or a fight set up in code).
pub const MAX_COMBATANTS: usize = 10_000;
/// Combatants in an encounter, the fights that are played (by the AI in `sim` and in the game,
/// or by people). The tactical AI prices every creature for each decision, so an AI-played round
/// grows with the square of the creature count: 500 keeps a round to a few seconds (measured in
/// `docs/performance.md`, "Many combatants", with `sim --bench` on
/// `tests/fixtures/encounters/crowd-500.ron`).
pub const MAX_ENCOUNTER_COMBATANTS: usize = 500;
/// Commands one `AiPlay` step may send.
pub const MAX_AI_COMMANDS: u32 = 1_000_000;
/// Items of one kind carried.
pub const MAX_ITEMS: u32 = 10_000;

fn check<E: Error, T: PartialOrd + std::fmt::Display>(v: T, lo: T, hi: T) -> Result<T, E> {
    if v < lo || v > hi { Err(E::custom(format_args!("{v} is out of range {lo}..={hi}"))) } else { Ok(v) }
}

// Each bound gets both forms; not every bound is read in both (the data types that use one form
// only would leave the other unused).
macro_rules! bounded {
    ($(#[$m:meta])* $name:ident, $opt:ident: $t:ty, $lo:expr, $hi:expr) => {
        $(#[$m])*
        #[allow(dead_code)]
        pub(crate) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
            check(<$t>::deserialize(d)?, $lo, $hi)
        }
        $(#[$m])*
        /// (Optional.)
        #[allow(dead_code)]
        pub(crate) fn $opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<$t>, D::Error> {
            Option::<$t>::deserialize(d)?.map(|v| check(v, $lo, $hi)).transpose()
        }
    };
}

bounded!(/// 1..=[`MAX_ACTIONS`] actions.
    actions, actions_opt: u8, 1, MAX_ACTIONS);
bounded!(/// 0..=[`MAX_ACTIONS`] actions, reactions or slots.
    slots, slots_opt: u8, 0, MAX_ACTIONS);
bounded!(/// 0..=[`MAX_SQUARES`] squares.
    squares, squares_opt: u32, 0, MAX_SQUARES);
bounded!(/// 1..=[`MAX_SQUARES`] squares.
    reach, reach_opt: u32, 1, MAX_SQUARES);
bounded!(/// 0..=[`MAX_TIME`] segments.
    time, time_opt: u32, 0, MAX_TIME);
bounded!(/// 1..=[`MAX_TIME`] segments.
    time_pos, time_pos_opt: u32, 1, MAX_TIME);
bounded!(/// 1..=[`MAX_ROUNDS`] rounds.
    rounds, rounds_opt: u32, 1, MAX_ROUNDS);
bounded!(/// 0..=[`MAX_ROUNDS`] rounds.
    rounds0, rounds0_opt: u32, 0, MAX_ROUNDS);
bounded!(/// 1..=100 rounds of casting.
    cast_rounds, cast_rounds_opt: u8, 1, 100);
bounded!(/// -[`MAX_FLAT`]..=[`MAX_FLAT`].
    flat, flat_opt: i32, -MAX_FLAT, MAX_FLAT);
bounded!(/// -[`MAX_VALUE`]..=[`MAX_VALUE`].
    value, value_opt: i32, -MAX_VALUE, MAX_VALUE);
bounded!(/// 1..=[`MAX_VALUE`].
    value_pos, value_pos_opt: i32, 1, MAX_VALUE);
bounded!(/// -[`MAX_TIME`]..=[`MAX_TIME`] segments added to recovery times.
    time_delta, time_delta_opt: i32, -(MAX_TIME as i32), MAX_TIME as i32);
bounded!(/// 0..=[`MAX_SECONDS`] seconds.
    seconds, seconds_opt: u32, 0, MAX_SECONDS);
bounded!(/// 1..=[`MAX_HP`] hit points.
    hp, hp_opt: i32, 1, MAX_HP);
bounded!(/// -[`MAX_STAT`]..=[`MAX_STAT`]: a die result or an initiative total.
    stat, stat_opt: i32, -MAX_STAT, MAX_STAT);
bounded!(/// 0..=[`MAX_AI_COMMANDS`] commands.
    ai_commands, ai_commands_opt: u32, 0, MAX_AI_COMMANDS);
bounded!(/// 1..=[`MAX_LIST`] creatures picked by one ability.
    count_pos, count_pos_opt: u32, 1, MAX_LIST as u32);

bounded!(/// 1..=100: the margin of a critical success or failure (G-P2-24).
    margin, margin_opt: i32, 1, 100);
bounded!(/// 2..=20: the lowest natural roll of a threat range (G-P1-18).
    threat, threat_opt: u8, 2, 20);
bounded!(/// 2..=10: a critical hit's damage multiplier (G-P2-25, G-P1-18).
    multiplier, multiplier_opt: u8, 2, 10);

/// The steps of a multiple attack penalty (G-P2-23): at most 8, each within -100..=0.
pub(crate) fn penalties<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
    let v = Vec::<i32>::deserialize(d)?;
    if v.len() > 8 {
        return Err(D::Error::custom(format_args!("{} penalties: at most 8", v.len())));
    }
    for x in &v {
        check(*x, -100, 0)?;
    }
    Ok(v)
}

/// Attack modifiers of a full attack: at most 10, each within ±[`MAX_FLAT`].
pub(crate) fn modifiers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
    let v = Vec::<i32>::deserialize(d)?;
    if v.len() > 10 {
        return Err(D::Error::custom(format_args!("{} attacks: at most 10", v.len())));
    }
    for x in &v {
        check(*x, -MAX_FLAT, MAX_FLAT)?;
    }
    Ok(v)
}

/// Forced dice: at most 10,000 values, each within ±[`MAX_STAT`].
pub(crate) fn forced_dice<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
    let v = Vec::<i32>::deserialize(d)?;
    if v.len() > 10_000 {
        return Err(D::Error::custom(format_args!("{} forced dice: at most 10000", v.len())));
    }
    for x in &v {
        check(*x, -MAX_STAT, MAX_STAT)?;
    }
    Ok(v)
}

/// Stats: each within ±[`MAX_STAT`], at most 100 of them.
pub(crate) fn stats<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, i32>, D::Error> {
    bounded_map(d, -MAX_STAT, MAX_STAT)
}

/// Movement speeds: 0..=[`MAX_SQUARES`] squares, at most 100 modes.
pub(crate) fn speeds<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, u32>, D::Error> {
    bounded_map(d, 0, MAX_SQUARES)
}

/// Items: 0..=[`MAX_ITEMS`] of each, at most 100 kinds.
pub(crate) fn items<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, u32>, D::Error> {
    bounded_map(d, 0, MAX_ITEMS)
}

fn bounded_map<'de, D: Deserializer<'de>, T>(d: D, lo: T, hi: T) -> Result<BTreeMap<String, T>, D::Error>
where
    T: Deserialize<'de> + PartialOrd + std::fmt::Display + Copy,
{
    let m = BTreeMap::<String, T>::deserialize(d)?;
    if m.len() > 100 {
        return Err(D::Error::custom(format_args!("{} entries: at most 100", m.len())));
    }
    for (k, v) in &m {
        check(*v, lo, hi).map_err(|e: D::Error| D::Error::custom(format_args!("{k}: {e}")))?;
    }
    Ok(m)
}

/// Loadouts: at most 100 rulesets, each listing at most [`MAX_LIST`] abilities.
pub(crate) fn loadouts<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Vec<String>>, D::Error> {
    let m = BTreeMap::<String, Vec<String>>::deserialize(d)?;
    if m.len() > 100 {
        return Err(D::Error::custom(format_args!("{} entries: at most 100", m.len())));
    }
    for (k, v) in &m {
        if v.len() > MAX_LIST {
            return Err(D::Error::custom(format_args!("{k}: {} abilities: at most {MAX_LIST}", v.len())));
        }
    }
    Ok(m)
}

/// Movement per ruleset: at most 100 rulesets, each with speeds as [`speeds`].
pub(crate) fn speeds_by_ruleset<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, BTreeMap<String, u32>>, D::Error> {
    let m = BTreeMap::<String, BTreeMap<String, u32>>::deserialize(d)?;
    if m.len() > 100 {
        return Err(D::Error::custom(format_args!("{} entries: at most 100", m.len())));
    }
    for (k, modes) in &m {
        if modes.len() > 100 {
            return Err(D::Error::custom(format_args!("{k}: {} entries: at most 100", modes.len())));
        }
        for (mode, v) in modes {
            check(*v, 0, MAX_SQUARES).map_err(|e: D::Error| D::Error::custom(format_args!("{k}.{mode}: {e}")))?;
        }
    }
    Ok(m)
}

/// Map rows: at most [`MAX_MAP_SIDE`](super::map::MAX_MAP_SIDE) rows of at most as many squares.
/// (Which characters a row may hold is checked with the rest of the file, pointing at the row.)
pub(crate) fn map_rows<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let side = super::map::MAX_MAP_SIDE;
    let v = Vec::<String>::deserialize(d)?;
    if v.len() > side {
        return Err(D::Error::custom(format_args!("{} rows: at most {side}", v.len())));
    }
    for (i, r) in v.iter().enumerate() {
        let n = r.chars().count();
        if n > side {
            return Err(D::Error::custom(format_args!("row {i} has {n} squares: at most {side}")));
        }
    }
    Ok(v)
}

/// Why `s`, a name or an id, cannot be one: it holds a control character (a NUL, a tab, a line
/// break, an escape; `None`: it is fine). Every name and id a data file gives (a combatant's
/// name and side, an ability's or condition's id, a ruleset's, encounter's, side's or scenario's
/// name, a save's names) is checked with this, through [`name`].
pub(crate) fn name_problem(s: &str) -> Option<String> {
    let (i, c) = s.chars().enumerate().find(|(_, c)| c.is_control())?;
    Some(format!(
        "{s:?} holds the control character U+{:04X} (character {}): a name or id cannot hold control characters",
        u32::from(c),
        i + 1
    ))
}

/// Names in other languages (`names: {"es": "Espada", "ko": "검"}`): at most 100 languages,
/// each code a plain language code (`es`, `pt-BR`: letters, digits and `-`, at most 16), each
/// name a name (`name_problem`) of at most 200 characters.
pub(crate) fn names<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    translations(d, 200)
}

/// Stats' names in other languages: at most 100 stats, each as [`names`].
pub(crate) fn stat_names<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, BTreeMap<String, String>>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(transparent)]
    struct Names(#[serde(deserialize_with = "names")] BTreeMap<String, String>);
    let m = BTreeMap::<String, Names>::deserialize(d)?;
    if m.len() > 100 {
        return Err(D::Error::custom(format_args!("{} entries: at most 100", m.len())));
    }
    Ok(m.into_iter().map(|(k, v)| (k, v.0)).collect())
}

/// Descriptions in other languages: as [`names`], each at most 2,000 characters.
pub(crate) fn descriptions<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    translations(d, 2000)
}

fn translations<'de, D: Deserializer<'de>>(d: D, most: usize) -> Result<BTreeMap<String, String>, D::Error> {
    let m = BTreeMap::<String, String>::deserialize(d)?;
    if m.len() > 100 {
        return Err(D::Error::custom(format_args!("{} entries: at most 100", m.len())));
    }
    for (k, v) in &m {
        if k.is_empty() || k.len() > 16 || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(D::Error::custom(format_args!("{k:?} is not a language code (es, ko, pt-BR)")));
        }
        if let Some(why) = name_problem(v) {
            return Err(D::Error::custom(format_args!("{k}: {why}")));
        }
        if v.chars().count() > most {
            return Err(D::Error::custom(format_args!("{k}: {} characters: at most {most}", v.chars().count())));
        }
    }
    Ok(m)
}

/// A name or id: no control characters (`name_problem`).
pub(crate) fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    match name_problem(&s) {
        Some(why) => Err(D::Error::custom(why)),
        None => Ok(s),
    }
}

/// A character of a plain name, one that is also a file or folder name and never a path: an
/// ASCII letter or digit, `-` or `_` (a mod's name, an installed asset named without `.ron`, a
/// save's file name).
pub(crate) fn plain_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Entries in a list of names (abilities in a loadout, sides of an encounter).
pub const MAX_LIST: usize = 1_000;

/// A list of at most [`MAX_LIST`] entries.
pub(crate) fn list<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let v = Vec::<T>::deserialize(d)?;
    if v.len() > MAX_LIST {
        return Err(D::Error::custom(format_args!("{} entries: at most {MAX_LIST}", v.len())));
    }
    Ok(v)
}

/// A grid square: each coordinate within ±[`MAX_COORD`].
pub(crate) fn square<'de, D: Deserializer<'de>>(d: D) -> Result<(i32, i32), D::Error> {
    let (x, y) = <(i32, i32)>::deserialize(d)?;
    Ok((check(x, -MAX_COORD, MAX_COORD)?, check(y, -MAX_COORD, MAX_COORD)?))
}

/// An optional grid square.
pub(crate) fn square_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(i32, i32)>, D::Error> {
    match Option::<(i32, i32)>::deserialize(d)? {
        Some((x, y)) => Ok(Some((check(x, -MAX_COORD, MAX_COORD)?, check(y, -MAX_COORD, MAX_COORD)?))),
        None => Ok(None),
    }
}

/// A list of at most [`MAX_COMBATANTS`] entries.
pub(crate) fn roster<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let v = Vec::<T>::deserialize(d)?;
    if v.len() > MAX_COMBATANTS {
        return Err(D::Error::custom(format_args!("{} combatants: at most {MAX_COMBATANTS}", v.len())));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    //! Every bound, right at it and one past it (found by cargo-mutants: the bounds were only tried
    //! far away, so `>` read as `>=` or `==` survived).
    use super::*;

    type De<'a> = ron::de::Deserializer<'a>;

    fn de<T>(text: &str, f: impl FnOnce(&mut De<'_>) -> Result<T, ron::Error>) -> Result<T, String> {
        let mut d = De::from_str(text).map_err(|e| e.to_string())?;
        f(&mut d).map_err(|e| e.to_string())
    }

    fn map(n: usize, v: &str) -> String {
        format!("{{{}}}", (0..n).map(|i| format!("\"k{i}\": {v}")).collect::<Vec<_>>().join(", "))
    }

    fn seq(n: usize, v: &str) -> String {
        format!("[{}]", vec![v; n].join(", "))
    }

    #[test]
    fn check_takes_both_ends_and_refuses_one_past_them() {
        let c = |v: i32| check::<ron::Error, i32>(v, -3, 5).map_err(|e| e.to_string());
        assert_eq!(c(-3), Ok(-3));
        assert_eq!(c(5), Ok(5));
        assert_eq!(c(-4), Err("-4 is out of range -3..=5".to_string()));
        assert_eq!(c(6), Err("6 is out of range -3..=5".to_string()));
        assert_eq!(de("20", |d| actions(d)), Ok(20));
        assert!(de("21", |d| actions(d)).is_err());
        assert!(de("0", |d| actions(d)).is_err());
        assert_eq!(de("Some(0)", |d| slots_opt(d)), Ok(Some(0)));
        assert!(de("Some(21)", |d| slots_opt(d)).is_err());
        assert_eq!(de("None", |d| slots_opt(d)), Ok(None));
    }

    #[test]
    fn maps_hold_at_most_100_entries() {
        assert_eq!(de(&map(100, "1"), |d| stats(d)).map(|m| m.len()), Ok(100));
        assert!(de(&map(101, "1"), |d| stats(d)).unwrap_err().contains("101 entries: at most 100"));
        assert!(de(&map(1, "1001"), |d| stats(d)).unwrap_err().contains("k0: 1001 is out of range"));
        assert_eq!(de(&map(100, "100"), |d| speeds(d)).map(|m| m.len()), Ok(100));
        assert!(de(&map(1, "101"), |d| speeds(d)).is_err());
        assert_eq!(de(&map(100, "10000"), |d| items(d)).map(|m| m.len()), Ok(100));
        assert!(de(&map(101, "1"), |d| items(d)).is_err());
        let names = seq(MAX_LIST, "\"a\"");
        assert_eq!(de(&map(100, &names), |d| loadouts(d)).map(|m| m.len()), Ok(100));
        assert!(de(&map(101, "[]"), |d| loadouts(d)).unwrap_err().contains("101 entries"));
        assert!(de(&map(1, &seq(MAX_LIST + 1, "\"a\"")), |d| loadouts(d)).unwrap_err().contains("1001 abilities"));
        let modes = map(100, "100");
        assert_eq!(de(&map(100, &modes), |d| speeds_by_ruleset(d)).map(|m| m.len()), Ok(100));
        assert!(de(&map(101, "{}"), |d| speeds_by_ruleset(d)).unwrap_err().contains("101 entries"));
        assert!(de(&map(1, &map(101, "1")), |d| speeds_by_ruleset(d)).unwrap_err().contains("k0: 101 entries"));
        assert!(de(&map(1, &map(1, "101")), |d| speeds_by_ruleset(d)).unwrap_err().contains("k0.k0: 101"));
    }

    #[test]
    fn names_refuse_control_characters() {
        assert_eq!(de("\"Goblin chief\"", |d| name(d)), Ok("Goblin chief".to_string()));
        assert_eq!(de("\"Ülfr\"", |d| name(d)), Ok("Ülfr".to_string()));
        for bad in ["\"Gob\u{0}lin\"", "\"a\\tb\"", "\"line\\n\"", "\"\u{7f}\"", "\"x\u{85}\""] {
            let e = de(bad, |d| name(d)).unwrap_err();
            assert!(e.contains("cannot hold control characters"), "{bad}: {e}");
        }
        assert!(name_problem("Gob\0lin").unwrap().contains("U+0000 (character 4)"));
    }

    #[test]
    fn lists_rows_and_rosters_are_bounded() {
        let side = super::super::map::MAX_MAP_SIDE;
        let row = format!("\"{}\"", ".".repeat(side));
        assert_eq!(de(&seq(side, &row), |d| map_rows(d)).map(|v| v.len()), Ok(side));
        assert!(de(&seq(side + 1, "\".\""), |d| map_rows(d)).unwrap_err().contains("1001 rows"));
        let long = format!("\"{}\"", ".".repeat(side + 1));
        assert!(de(&seq(1, &long), |d| map_rows(d)).unwrap_err().contains("row 0 has 1001 squares"));
        assert_eq!(de(&seq(MAX_LIST, "1"), |d| list::<_, i32>(d)).map(|v| v.len()), Ok(MAX_LIST));
        assert!(de(&seq(MAX_LIST + 1, "1"), |d| list::<_, i32>(d)).is_err());
        assert_eq!(de(&seq(MAX_COMBATANTS, "1"), |d| roster::<_, i32>(d)).map(|v| v.len()), Ok(MAX_COMBATANTS));
        assert!(de(&seq(MAX_COMBATANTS + 1, "1"), |d| roster::<_, i32>(d)).unwrap_err().contains("10001 combatants"));
        assert_eq!(de(&seq(10, "10000"), |d| modifiers(d)).map(|v| v.len()), Ok(10));
        assert!(de(&seq(11, "1"), |d| modifiers(d)).unwrap_err().contains("11 attacks"));
        assert!(de(&seq(1, "10001"), |d| modifiers(d)).is_err());
        assert_eq!(de(&seq(10_000, "-1000"), |d| forced_dice(d)).map(|v| v.len()), Ok(10_000));
        assert!(de(&seq(10_001, "1"), |d| forced_dice(d)).unwrap_err().contains("10001 forced dice"));
        assert!(de(&seq(1, "1001"), |d| forced_dice(d)).is_err());
        assert_eq!(de("(10000, -10000)", |d| square(d)), Ok((10_000, -10_000)));
        assert!(de("(0, 10001)", |d| square(d)).is_err());
        assert!(de("(-10001, 0)", |d| square(d)).is_err());
        assert_eq!(de("Some((0, -10000))", |d| square_opt(d)), Ok(Some((0, -10_000))));
        assert!(de("Some((10001, 0))", |d| square_opt(d)).is_err());
        assert!(de("Some((0, 10001))", |d| square_opt(d)).is_err());
        assert_eq!(de("None", |d| square_opt(d)), Ok(None));
    }
}
