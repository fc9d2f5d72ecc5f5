//! Fuzzed commands (proptest): random command sequences against random small encounters under
//! every ruleset, half of them with the regeneration mod. Invariants: nothing panics; a rejected
//! command leaves the state hash unchanged; hit points, actions and the clock stay within their
//! bounds; each side's count of creatures in the fight is the number standing
//! ([`check_count`]); the combat ends within its cap.
//!
//! The action bounds are each ruleset's own budget (see [`action_ceiling`]), not a generous
//! constant: the slowed -77 bug (3 + 77 = 80 actions) sat exactly on the old bound of 80. The test
//! also counts the cases whose set-up succeeded and fails if fewer than half did, so that a change
//! making every set-up fail cannot pass by testing nothing.
//!
//! CI runs 2,000 cases. The long mode is `PROPTEST_CASES=1000000 cargo test --release fuzz`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use skirmish::ai::{self, AiScope};
use skirmish::rules::command::{ActIntent, ActionLoss, Choice, Command, Decider, DefenseMethod, GmInput, OpeningUse};
use skirmish::rules::components::*;
use skirmish::rules::driver::Combat;
use skirmish::rules::ruleset::{ActionBudget, HitKind, Ruleset};
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::{EngineStatus, Pending};

const RULESETS: [&str; 4] = ["homebrew-d20", "pf2e", "pf1e", "segments"];
/// Rounds a fuzzed fight may last.
const CAP: u32 = 12;

fn rulesets() -> &'static [Ruleset] {
    static R: std::sync::OnceLock<Vec<Ruleset>> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        RULESETS
            .iter()
            .map(|n| {
                let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{n}.ron"));
                let mut rs = Ruleset::load(&p).unwrap();
                rs.round_cap = CAP;
                rs
            })
            .collect()
    })
}

/// One creature: side, square, hit points, STR, DEX, ability picks, a condition pick.
type Sheet = (bool, (i8, i8), u8, i8, i8, Vec<u8>, Option<u8>);
/// One command: kind, and four numbers it draws its details from.
type Raw = (u8, u8, u8, u8, (i8, i8));

fn specs(rs: &Ruleset, sheets: &[Sheet]) -> Vec<CombatantSpec> {
    sheets
        .iter()
        .enumerate()
        .map(|(i, (side, (x, y), hp, str_, dex, picks, cond))| {
            let mut stats = BTreeMap::new();
            stats.insert("STR".to_string(), i32::from(*str_));
            stats.insert("DEX".to_string(), i32::from(*dex));
            stats.insert("AC".to_string(), 12);
            let abilities: Vec<String> = picks
                .iter()
                .map(|p| rs.abilities[*p as usize % rs.abilities.len()].id.clone())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let conditions =
                cond.map(|c| rs.conditions[c as usize % rs.conditions.len()].id.clone()).into_iter().collect();
            let mut movement = BTreeMap::new();
            for a in &rs.abilities {
                if let skirmish::rules::ruleset::Effect::MoveAs { mode } = &a.effect {
                    movement.insert(mode.clone(), 4);
                }
            }
            CombatantSpec {
                name: format!("C{i}"),
                names: BTreeMap::new(),
                side: if *side { "a".into() } else { "b".into() },
                stats,
                hp: i32::from(*hp) + 1,
                abilities,
                initiative: InitiativeSetup::Rolled,
                at: (i32::from(*x), i32::from(*y)),
                movement,
                controller: Controller::Script,
                conditions,
                traits: vec![],
                aware: i % 3 != 2,
                items: BTreeMap::new(),
                loadouts: BTreeMap::new(),
                movement_for: BTreeMap::new(),
            }
        })
        .collect()
}

/// Turn raw numbers into a command, mostly aimed at creatures and abilities that exist.
fn command(c: &Combat, raw: &Raw) -> Command {
    let (kind, a, b, d, (x, y)) = *raw;
    let n = c.len().max(1);
    // Now and then an id that names nobody.
    let cid = |v: u8| Cid(if v == 255 { 99 } else { u32::from(v) % n as u32 });
    let active = match c.status() {
        EngineStatus::AwaitingCommand(w) => w,
        _ => cid(a),
    };
    let actor = if a % 4 == 0 { cid(a / 4) } else { active };
    let rs = c.ruleset();
    let ability = rs.abilities[b as usize % rs.abilities.len()].id.clone();
    let to = Some(GridPos { x: i32::from(x) / 8, y: i32::from(y) / 8 });
    match kind % 12 {
        0..=3 => {
            let targets = match d % 4 {
                0 => vec![],
                1 | 2 => vec![cid(d / 4)],
                _ => vec![cid(d / 4), cid(d / 16)],
            };
            Command::Act(ActIntent { actor, ability, targets, to, mode: None, surprise: d % 7 == 0 })
        }
        4 => Command::EndTurn { actor },
        5 => Command::Hold {
            actor,
            ability,
            targets: if d % 2 == 0 { vec![] } else { vec![cid(d / 2)] },
            trigger: HeldTrigger { by: (d % 3 == 0).then(|| cid(d / 3)), on: TriggerOn::AnyAction },
        },
        6 => match d % 3 {
            0 => Command::Delay { actor },
            1 => Command::ReturnFromDelay { actor: cid(d) },
            _ => Command::Release { actor: cid(d) },
        },
        7..=9 => {
            let by = c.world.resource::<Pending>().0.as_ref().map_or(Decider::Gm, |p| p.by);
            let choice = match d % 9 {
                0 => Choice::Defend(
                    [DefenseMethod::Dodge, DefenseMethod::Parry, DefenseMethod::NoDefense][b as usize % 3],
                ),
                1 => Choice::Opportunity((b % 2 == 0).then_some(ability)),
                2 => {
                    Choice::Opening((b % 2 == 0).then(|| OpeningUse { ability, targets: vec![cid(a)], to, mode: None }))
                }
                3 => Choice::Approve(b % 2 == 0),
                4 => Choice::Triggered((b % 2 == 0).then_some(ability)),
                5 => Choice::LoseFirst(if b % 2 == 0 { ActionLoss::Restricted } else { ActionLoss::Regular }),
                6 => Choice::Order((0..n as u32).rev().map(Cid).collect()),
                7 => Choice::HoldCast(b % 2 == 0),
                _ => {
                    return ai::next_command(c, AiScope { gm: true, all_creatures: true })
                        .unwrap_or(Command::EndTurn { actor });
                }
            };
            Command::Decide { by, choice }
        }
        10 => {
            let cond = rs.conditions[b as usize % rs.conditions.len()].id.clone();
            Command::Gm(match d % 7 {
                0 => GmInput::ApplyCondition {
                    who: cid(a),
                    condition: cond,
                    rounds: (b % 2 == 0).then_some(u32::from(b % 4)),
                    value: (b % 3 == 0).then_some(i32::from(x)),
                },
                1 => GmInput::Interrupt { who: cid(a) },
                2 => GmInput::HitBy { who: cid(a), kind: if b % 2 == 0 { HitKind::Ranged } else { HitKind::Surprise } },
                3 => GmInput::PermanentWound { who: cid(a) },
                4 => GmInput::SetAware { who: cid(a), aware: b % 2 == 0 },
                5 => GmInput::AreaAssist { who: cid(a) },
                _ => GmInput::Opening { eligible: if b % 2 == 0 { vec![] } else { vec![cid(a)] } },
            })
        }
        // What a sensible player would do next, so that fights move on.
        _ => ai::next_command(c, AiScope { gm: true, all_creatures: true }).unwrap_or(Command::EndTurn { actor }),
    }
}

/// What a ruleset's budget allows at most: (regular actions in the pool, restricted bonus actions,
/// all actions available at once). A per-round or per-turn pool holds its `actions`; a pf2e regain
/// adds at most every condition's `regain_bonus` (quickened: +1, P2-12), and a condition's value
/// only ever takes actions away (G-P2-07); one timed action per turn is one; typed slots are a
/// standard, a move and a swift action (G-P1-01), with no pool.
fn action_ceiling(rs: &Ruleset) -> (u8, u8, u8) {
    let bonus: u8 = rs.conditions.iter().map(|d| d.regain_bonus).sum();
    match rs.budget {
        ActionBudget::PerRoundPool { actions } => (actions, 0, actions),
        ActionBudget::OneTimedActionPerTurn => (1, 0, 1),
        ActionBudget::PerTurnPool { actions, .. } => (actions, bonus, actions + bonus),
        ActionBudget::TypedSlots { standard, moves, swift } => (0, 0, standard + moves + swift),
    }
}

fn check_bounds(c: &Combat) -> Result<(), TestCaseError> {
    let (regular, restricted, all) = action_ceiling(c.ruleset());
    for i in 0..c.len() as u32 {
        let h = c.get::<Health>(Cid(i)).unwrap();
        prop_assert!(h.hp <= h.max, "hp {} over max {}", h.hp, h.max);
        let p = c.get::<ActionPool>(Cid(i)).unwrap();
        prop_assert!(p.max <= regular, "{} regular actions, the budget allows {regular}: {p:?}", p.max);
        prop_assert!(
            p.restricted_left <= restricted,
            "{} bonus actions, at most {restricted}: {p:?}",
            p.restricted_left
        );
        prop_assert!(p.available() <= all, "{} actions available, the budget allows {all}: {p:?}", p.available());
        prop_assert!(p.spent <= p.max, "spent {} of {}: {p:?}", p.spent, p.max);
    }
    prop_assert!(c.turn().round <= CAP, "round {} past the cap", c.turn().round);
    check_count(c)
}

/// Each side's count of creatures still in the fight (what decides when a side has lost) is the
/// number of its creatures standing: not defeated, and, where 0 hit points is not the end (pf2e's
/// dying), above 0. (A GM putting a side's last creatures out left them counted; a dying creature
/// healed and felled again was counted out twice, and its side lost with an ally standing.)
/// Nobody is counted before initiative is settled, and the counts stop mattering once it is over.
fn check_count(c: &Combat) -> Result<(), TestCaseError> {
    let t = c.turn();
    if t.alive_by_side.is_empty() || t.ended {
        return Ok(());
    }
    let rs = c.ruleset();
    let mut standing: BTreeMap<String, u32> = BTreeMap::new();
    for i in 0..c.len() as u32 {
        let who = Cid(i);
        let down = c.get::<Conditions>(who).is_some_and(|k| k.has(&rs.defeated_condition));
        let hp = c.get::<Health>(who).unwrap().hp;
        let side = c.get::<Side>(who).unwrap().0.clone();
        let n = standing.entry(side).or_default();
        if !down && (rs.at_zero_hp.is_none() || hp > 0) {
            *n += 1;
        }
    }
    for (side, n) in &standing {
        let counted = t.alive_by_side.get(side).copied().unwrap_or(0);
        prop_assert_eq!(counted, *n, "side {} counted {} standing, {} stand", side, counted, n);
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

#[test]
fn fuzzed_commands_keep_every_invariant() {
    let cases = cases();
    let config = ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() };
    let strategy = (
        0usize..4,
        any::<u64>(),
        prop::collection::vec(
            (
                any::<bool>(),
                (0i8..6, 0i8..6),
                0u8..30,
                -2i8..5,
                -2i8..5,
                prop::collection::vec(any::<u8>(), 0..4),
                prop::option::weighted(0.15, any::<u8>()),
            ),
            2..6,
        ),
        prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), (any::<i8>(), any::<i8>())), 0..40),
    );
    // Cases whose set-up succeeded: only those test anything.
    let ran = std::sync::atomic::AtomicU32::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&strategy, |(r, seed, sheets, raws)| {
        let rs = rulesets()[r].clone();
        let mut specs = specs(&rulesets()[r], &sheets);
        // Half the fights with the regeneration mod (the rules schedule, not the fused driver),
        // one creature in three regenerating: healing at the start of its turns, dying or not.
        let regenerate = seed % 2 == 0;
        let set_up = if regenerate {
            for s in specs.iter_mut().step_by(3) {
                s.stats.insert("regeneration".into(), 2);
            }
            let mods = skirmish::modding::ModList::new().with(skirmish::modding::builtin::RegenerationMod);
            Combat::with_mods(rs, seed, &specs, skirmish::rules::map::BattleMap::default(), &[], &mods)
        } else {
            Combat::new(rs, seed, &specs)
        };
        let Ok(mut c) = set_up else {
            // Two creatures on one square, or one that starts down: refused at set-up.
            return Ok(());
        };
        ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        check_bounds(&c)?;
        for raw in &raws {
            let cmd = command(&c, raw);
            let before = c.state_hash();
            if c.submit(cmd.clone()).is_err() {
                prop_assert_eq!(c.state_hash(), before, "a rejected {:?} changed the state", cmd);
            }
            check_bounds(&c)?;
        }
        // The AI plays it out, a command at a time, every invariant checked after each. A step
        // that changed nothing (a refused decision, where `ai::play` stops) would only repeat.
        let mut sent = 0;
        loop {
            let before = (c.state_hash(), c.log().events.len());
            if sent >= 20_000 || ai::play(&mut c, AiScope { gm: true, all_creatures: true }, 1) == 0 {
                break;
            }
            sent += 1;
            check_bounds(&c)?;
            if (c.state_hash(), c.log().events.len()) == before {
                break;
            }
        }
        check_bounds(&c)?;
        let st = c.status();
        prop_assert!(
            matches!(st, EngineStatus::Ended | EngineStatus::AwaitingReturn),
            "not over after the AI played on: {:?} in round {}",
            st,
            c.turn().round
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // About seven in eight set-ups succeed (measured: 1,728 to 1,751 of 2,000; the rest put two
    // creatures on one square of 36, or start one with a condition that refuses it). Fewer than
    // half means the set-ups broke; half also holds at small case counts (ten cases: one run in
    // a thousand would fall short).
    let ran = ran.into_inner();
    eprintln!("fuzz: {ran} of {cases} set-ups succeeded");
    assert!(ran * 2 >= cases, "only {ran} of {cases} fuzzed set-ups succeeded: the cases tested almost nothing");
}
