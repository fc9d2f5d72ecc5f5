//! Issue 50's property test: the tactical AI's expected damage of every shipped attack equals the
//! engine's average over 10^5 seeded uses, within 1%, under every ruleset (the attack math of
//! RULES.md §5.6 included: degrees, criticals, confirmation, natural 20 and 1, basic saves, and
//! the multiple attack penalty of a turn's uses).

use std::collections::BTreeMap;

use super::fixture::ruleset;
use super::odds::DefMod;
use super::read::View;
use crate::ai::basic;
use crate::rules::command::{ActIntent, Command, Decider};
use crate::rules::components::{Cid, Controller, Health, InitiativeSetup};
use crate::rules::driver::Combat;
use crate::rules::log::CombatEvent;
use crate::rules::ruleset::{AbilityDef, Effect, Ruleset, Timing};
use crate::rules::setup::CombatantSpec;
use crate::rules::state::EngineStatus;

/// Uses per shipped ability, and per fresh combat (the target's hit points last that long).
const USES: u32 = 100_000;
const CHUNK: u32 = 2_000;

/// Every stat a shipped ability reads, on the attacker; the target's defences.
fn stats(attacker: bool) -> BTreeMap<String, i32> {
    let v: &[(&str, i32)] = if attacker {
        &[("STR", 3), ("DEX", 2), ("MELEE", 5), ("RANGED", 5), ("INT", 3), ("SPELL", 4), ("AC", 15), ("REF", 1)]
    } else {
        // A Dodge of 2 and a Parry of 1 (homebrew-d20, segments), AC 16, Reflex +2.
        &[("STR", 1), ("DEX", 2), ("AC", 16), ("REF", 2), ("MELEE", 1)]
    };
    v.iter().map(|(k, x)| (k.to_string(), *x)).collect()
}

/// The shipped abilities that damage a creature on the user's own turn at once: attacks, saves
/// with damage, plain damage (not reactions, charges, or casts that resolve later).
fn damaging(rs: &Ruleset) -> Vec<&AbilityDef> {
    rs.abilities
        .iter()
        .filter(|d| d.timing == Timing::Action && d.trigger.is_none())
        .filter(|d| d.casting_rounds.is_none() && d.cast_time.is_none() && d.focus_time.is_none())
        .filter(|d| {
            matches!(d.effect, Effect::Attack { .. } | Effect::Damage { .. } | Effect::Save { damage: Some(_), .. })
        })
        .collect()
}

/// The engine's damage over `USES` uses of `def` by `a` on `b`, and the AI's expectation of it:
/// per turn, as many uses as the budget allows of an ability with the attack trait under a
/// multiple attack penalty (priced with it), else one.
fn run(rs: &Ruleset, def: &AbilityDef, seed: u64) -> (f64, f64) {
    let mut rs = rs.clone();
    // No GM openings: the target must not change its defences between uses.
    rs.gm_policy = Default::default();
    // A use a round at most: a chunk's fight lasts up to CHUNK rounds.
    rs.round_cap = crate::rules::limits::MAX_ROUNDS;
    let several = crate::rules::odds::counts_as_attack(&rs, def);
    let spec = |name: &str, at: (i32, i32), init: i32, hp: i32| CombatantSpec {
        name: name.into(),
        side: name.into(),
        stats: stats(name == "a"),
        hp,
        abilities: if name == "a" { vec![def.id.clone()] } else { vec![] },
        initiative: InitiativeSetup::Total(init),
        at,
        controller: Controller::Script,
        ..Default::default()
    };
    let (a, b) = (Cid(0), Cid(1));
    let (mut dealt, mut expected) = (0f64, 0f64);
    let mut used = 0u32;
    let mut chunk = 0u64;
    while used < USES {
        let hp = crate::rules::limits::MAX_HP;
        let specs = [spec("a", (0, 0), 20, 1000), spec("b", (1, 0), 10, hp)];
        let mut c = Combat::new(rs.clone(), seed.wrapping_add(chunk), &specs).expect("valid set-up");
        chunk += 1;
        // The AI's price of a turn's first n uses, read from the fight as the turn starts (pf1e:
        // the target is flat-footed until its first turn, as the engine plays it).
        let prices = |c: &Combat| -> [f64; 4] {
            let v = View::new(c, a).expect("a reads the fight");
            let ua = v.units.iter().find(|u| u.id == a).expect("a");
            let ub = v.units.iter().find(|u| u.id == b).expect("b");
            let one = |n: f32| {
                f64::from(if several {
                    v.attack_by_uses(ua, def, ub, DefMod::default(), n)
                } else {
                    v.attack_by(ua, def, ub, false, DefMod::default()) * n
                })
            };
            [0.0, one(1.0), one(2.0), one(3.0)]
        };
        let mut turn_price = [0.0; 4];
        let mut in_turn = 0usize;
        let mut seen = 0usize;
        let target = (used + CHUNK).min(USES);
        let mut guard = 0u32;
        while used < target {
            guard += 1;
            assert!(guard < 20 * CHUNK, "{}: {} stalls: {:?}", rs.name, def.id, c.status());
            for e in &c.log().events[seen..] {
                if let CombatEvent::TurnStarted { who, .. } = e
                    && *who == a
                {
                    expected += turn_price[in_turn.min(3)];
                    in_turn = 0;
                }
            }
            seen = c.log().events.len();
            let cmd = match c.status() {
                EngineStatus::AwaitingCommand(x) if x == a && (several || in_turn == 0) && in_turn < 3 => {
                    if in_turn == 0 {
                        turn_price = prices(&c);
                    }
                    let act = Command::Act(ActIntent::new(a, def.id.clone(), vec![b]));
                    if c.submit(act).is_ok() {
                        in_turn += 1;
                        used += 1;
                        continue;
                    }
                    Command::EndTurn { actor: a }
                }
                EngineStatus::AwaitingCommand(x) => Command::EndTurn { actor: x },
                EngineStatus::AwaitingDecision(Decider::Creature(x)) => {
                    let choice = basic::decision(&c, x).expect("a decision the basic AI answers");
                    Command::Decide { by: Decider::Creature(x), choice }
                }
                EngineStatus::AwaitingDecision(Decider::Gm) => crate::ai::gm_command(&c).expect("a GM answer"),
                s => panic!("{}: {}: unexpected {s:?}", rs.name, def.id),
            };
            c.submit(cmd).expect("accepted");
        }
        // Settle the last turn's attacks before counting.
        for _ in 0..4 {
            match c.status() {
                EngineStatus::AwaitingDecision(Decider::Creature(x)) => {
                    let choice = basic::decision(&c, x).expect("a decision the basic AI answers");
                    c.submit(Command::Decide { by: Decider::Creature(x), choice }).expect("accepted");
                }
                _ => break,
            }
        }
        expected += turn_price[in_turn.min(3)];
        dealt += f64::from(hp - c.get::<Health>(b).expect("b").hp);
    }
    (dealt, expected)
}

#[test]
fn the_ais_expected_damage_is_the_engines_average_for_every_shipped_attack() {
    let names = ["homebrew-d20", "pf2e", "pf1e", "segments"];
    // Two threads: the four rulesets in two pairs (this machine has two cores).
    let results: Vec<Vec<(String, String, f64, f64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .chunks(2)
            .map(|pair| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for name in pair {
                        let rs = ruleset(name);
                        for (i, def) in damaging(&rs).into_iter().enumerate() {
                            let (dealt, expected) = run(&rs, def, 1000 + i as u64);
                            out.push((name.to_string(), def.id.clone(), dealt, expected));
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    let rows: Vec<_> = results.into_iter().flatten().collect();
    assert!(rows.len() >= 16, "every ruleset's attacks: {rows:?}");
    let off: Vec<String> = rows
        .iter()
        .filter(|(_, _, dealt, expected)| (dealt - expected).abs() > 0.01 * expected.max(1.0))
        .map(|(rs, id, dealt, expected)| format!("{rs} {id}: engine {dealt}, AI {expected:.1}"))
        .collect();
    for (rs, id, dealt, expected) in &rows {
        println!("{rs} {id}: engine {dealt}, AI {expected:.1} ({:+.3}%)", 100.0 * (dealt - expected) / expected);
    }
    assert!(off.is_empty(), "off by more than 1%: {off:?}\nall: {rows:?}");
}
