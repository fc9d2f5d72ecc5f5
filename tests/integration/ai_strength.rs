//! How strong the tactical AI is: seeded fights under every ruleset, the tactical AI
//! ([`Brain::Tactical`]) against the first one ([`Brain::Basic`]). The tactical AI plays side A on
//! even seeds and side B on odd seeds, so any advantage of a side cancels out. Two encounters:
//! the default one, `assets/encounters/skirmish-4v4.ron` (a map with walls and mud, two fighters,
//! an archer and a caster a side), and two mirrored teams on the open plane built here from the
//! combatants of the shipped AI brawls.
//!
//! CI plays 400 seeds per ruleset and encounter, and in each of the eight cells the Wilson 95%
//! lower bound of the tactical AI's win rate must clear that cell's floor ([`FLOORS`], derived
//! from the long mode's rates as written there). The long mode plays more and prints the rates:
//!
//! ```sh
//! SKIRMISH_AI_RUNS=2000 cargo test --test integration ai_strength_tactical -- --nocapture
//! ```
//!
//! One fight's log, or a match's statistics, come from the simulator, whose `--ai tactical,basic`
//! plays this tournament's skirmish-4v4 fights (seed k: the tactical AI on the heroes' side for even k here,
//! so `--ai basic,tactical` for odd k); see the README's `sim` options.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use skirmish::ai::{self, AiScope, Brain};
use skirmish::encounter::Encounter;
use skirmish::rules::components::{Controller, InitiativeSetup};
use skirmish::rules::driver::Combat;
use skirmish::rules::map::BattleMap;
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::EngineStatus;

/// The four shipped rulesets.
pub const RULESETS: [&str; 4] = ["homebrew-d20", "pf2e", "pf1e", "segments"];
/// The two sides of the encounter.
pub const SIDES: [&str; 2] = ["heroes", "monsters"];
const SCOPE: AiScope = AiScope { gm: true, all_creatures: true };
/// Commands one fight may take before it counts as stuck.
const MAX_COMMANDS: usize = 50_000;

/// A shipped ruleset.
pub fn ruleset(name: &str) -> Ruleset {
    Ruleset::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{name}.ron")))
        .expect("shipped ruleset loads")
}

fn sheet(name: &str, side: &str, at: (i32, i32), hp: i32, stats: &[(&str, i32)], abilities: &[&str]) -> CombatantSpec {
    CombatantSpec {
        name: name.into(),
        names: Default::default(),
        side: side.into(),
        stats: stats.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        hp,
        abilities: abilities.iter().map(|s| s.to_string()).collect(),
        initiative: InitiativeSetup::Rolled,
        at,
        movement: BTreeMap::new(),
        controller: Controller::Ai,
        conditions: vec![],
        traits: vec![],
        aware: true,
        items: BTreeMap::new(),
        loadouts: BTreeMap::new(),
        movement_for: BTreeMap::new(),
    }
}

/// One side's four creatures under a ruleset: two in melee, one with a ranged weapon, one caster
/// (a second archer where the ruleset has no attack spell). Built from the combatants of the
/// shipped AI brawls.
fn team(rs: &str, side: &str, front: i32, back: i32) -> Vec<CombatantSpec> {
    let n = |s: &str| format!("{s} ({side})");
    let mut t = match rs {
        "homebrew-d20" => vec![
            sheet(&n("Knight"), side, (front, 0), 24, &[("STR", 3), ("DEX", 1)], &["sword"]),
            sheet(&n("Orc"), side, (front, 3), 22, &[("STR", 3), ("DEX", 0)], &["heavy_blow", "sword"]),
            sheet(&n("Ranger"), side, (back, 1), 16, &[("STR", 1), ("DEX", 3)], &["dagger", "bow"]),
            sheet(
                &n("Mage"),
                side,
                (back, 2),
                12,
                &[("STR", 0), ("DEX", 2), ("WIS", 1)],
                &["dagger", "firebomb", "fireball", "hold_person"],
            ),
        ],
        "pf2e" => vec![
            sheet(
                &n("Fighter"),
                side,
                (front, 0),
                20,
                &[("PER", 6), ("STR", 4), ("DEX", 1), ("AC", 18), ("REF", 1)],
                &["reactive_strike"],
            ),
            sheet(&n("Ogre"), side, (front, 3), 28, &[("PER", 5), ("STR", 5), ("AC", 17)], &["reactive_strike"]),
            sheet(
                &n("Archer"),
                side,
                (back, 1),
                16,
                &[("PER", 7), ("STR", 1), ("DEX", 4), ("AC", 16), ("REF", 4)],
                &["shortbow"],
            ),
            sheet(
                &n("Wizard"),
                side,
                (back, 2),
                14,
                &[("PER", 5), ("INT", 4), ("AC", 14), ("REF", 2)],
                &["force_bolt", "electric_arc"],
            ),
        ],
        "pf1e" => vec![
            sheet(
                &n("Paladin"),
                side,
                (front, 0),
                24,
                &[("INIT", 1), ("MELEE", 6), ("STR", 3), ("DEX", 1), ("AC", 19)],
                &[],
            ),
            sheet(
                &n("Chief"),
                side,
                (front, 3),
                22,
                &[("INIT", 3), ("MELEE", 6), ("STR", 3), ("DEX", 1), ("AC", 17)],
                &[],
            ),
            sheet(
                &n("Ranger"),
                side,
                (back, 1),
                18,
                &[("INIT", 4), ("MELEE", 3), ("RANGED", 6), ("DEX", 4), ("AC", 16)],
                &["ranged_attack"],
            ),
            sheet(
                &n("Wizard"),
                side,
                (back, 2),
                12,
                &[("INIT", 2), ("DEX", 2), ("AC", 13), ("CONC", 5)],
                &["magic_missile"],
            ),
        ],
        _ => vec![
            sheet(&n("Duelist"), side, (front, 0), 18, &[("INIT", 4), ("MELEE", 4), ("AC", 14)], &["dagger"]),
            sheet(&n("Brute"), side, (front, 3), 26, &[("INIT", 1), ("MELEE", 5), ("AC", 13)], &["longsword"]),
            sheet(&n("Archer"), side, (back, 1), 14, &[("INIT", 3), ("RANGED", 4), ("AC", 12)], &["bow"]),
            sheet(
                &n("Caster"),
                side,
                (back, 2),
                12,
                &[("INIT", 2), ("SPELL", 4), ("AC", 11), ("WIS", 1)],
                &["magic_missile", "ray_of_frost", "sleep"],
            ),
        ],
    };
    if rs == "pf1e" {
        t[2].traits.push("combat_reflexes".into());
    }
    if rs == "segments" {
        for s in &mut t {
            s.movement =
                [("shift", 1), ("skirmish", 3), ("sprint", 6)].iter().map(|(m, v)| (m.to_string(), *v)).collect();
        }
    }
    t
}

/// A fight to set up: ruleset, combatants and map.
pub struct Setup {
    /// The ruleset, with the encounter's round cap.
    pub ruleset: Ruleset,
    /// The combatants as they play under it.
    pub specs: Vec<CombatantSpec>,
    /// The battle map.
    pub map: BattleMap,
}

impl Setup {
    /// Start the fight with a seed.
    pub fn start(&self, seed: u64) -> Combat {
        Combat::with_map(self.ruleset.clone(), seed, &self.specs, self.map.clone(), &[]).expect("valid encounter")
    }
}

/// The default encounter, `assets/encounters/skirmish-4v4.ron`, under a ruleset.
pub fn encounter(rs: &str) -> Setup {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/skirmish-4v4.ron");
    let e = Encounter::load(&path).expect("the default encounter loads");
    let mut ruleset = ruleset(rs);
    if let Some(cap) = e.max_rounds {
        ruleset.round_cap = cap;
    }
    let specs = e.specs_for(&ruleset);
    Setup { ruleset, specs, map: e.battle_map() }
}

/// Two mirrored teams nine squares apart on the open plane.
pub fn mirrored(rs: &str) -> Setup {
    let mut specs = team(rs, SIDES[0], 0, -2);
    specs.extend(team(rs, SIDES[1], 9, 11));
    Setup { ruleset: ruleset(rs), specs, map: BattleMap::open() }
}

/// How one fight went for the tactical AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The tactical AI's side won.
    Won,
    /// The basic AI's side won.
    Lost,
    /// Nobody won.
    Drawn,
}

/// Totals over many fights.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Fights the tactical AI won.
    pub won: u32,
    /// Fights the basic AI won.
    pub lost: u32,
    /// Draws.
    pub drawn: u32,
    /// Commands sent.
    pub commands: usize,
    /// Commands of the tactical AI the engine rejected.
    pub rejected: usize,
    /// Tactical candidates a dry run turned down.
    pub declined: usize,
    /// Rounds played.
    pub rounds: u64,
}

/// Play one fight: the tactical AI on `tactical_side`, the basic AI on the other.
pub fn duel(setup: &Setup, seed: u64, tactical_side: &str, tally: &mut Tally) -> Outcome {
    let rs = &setup.ruleset;
    let mut c = setup.start(seed);
    let stats =
        ai::play_sides(
            &mut c,
            SCOPE,
            MAX_COMMANDS,
            |side| if side == tactical_side { Brain::Tactical } else { Brain::Basic },
        );
    assert_eq!(c.status(), EngineStatus::Ended, "{} seed {seed}: the fight did not end", rs.name);
    tally.commands += stats.sent;
    tally.rejected += stats.rejected_tactical;
    tally.declined += stats.declined;
    tally.rounds += u64::from(c.turn().round);
    let o = match c.turn().winner.as_deref() {
        Some(w) if w == tactical_side => Outcome::Won,
        Some(_) => Outcome::Lost,
        None => Outcome::Drawn,
    };
    match o {
        Outcome::Won => tally.won += 1,
        Outcome::Lost => tally.lost += 1,
        Outcome::Drawn => tally.drawn += 1,
    }
    o
}

/// Play `runs` seeded fights of a set-up, the tactical AI on side A for even seeds and side B
/// for odd ones.
pub fn measure(setup: &Setup, runs: u64) -> Tally {
    let mut tally = Tally::default();
    for seed in 0..runs {
        let side = SIDES[(seed % 2) as usize];
        duel(setup, seed, side, &mut tally);
    }
    tally
}

/// Average time the tactical AI takes to choose a command, over the first `runs` seeds.
fn decision_cost(setup: &Setup, runs: u64) -> (Duration, usize) {
    let mut spent = Duration::ZERO;
    let mut n = 0;
    for seed in 0..runs {
        let mut c = setup.start(seed);
        for _ in 0..MAX_COMMANDS {
            let t0 = Instant::now();
            let cmd = ai::next_command_with(&c, SCOPE, Brain::Tactical);
            spent += t0.elapsed();
            n += 1;
            if cmd.is_none() || ai::play_with(&mut c, SCOPE, 1, Brain::Tactical) == 0 {
                break;
            }
        }
    }
    (spent, n)
}

/// The long mode's rates (2,000 fights a cell, seeds 0..2000): set-up, ruleset, tactical wins.
/// Measured 2026-12-03, after the shipped abilities said how many creatures they pick (G-X-05,
/// issue 28), the tactical AI picked those worth the most and rated a power by the creatures it
/// may pick. Before, a one-creature spell hit every enemy, and the tactical AI gained more from
/// that than the basic one: pf1e 1995 and 1995, segments 2000 and 1998, mirrored homebrew-d20
/// 1897 and mirrored pf2e 1576 (da1af4c). With the counts but the nearest creatures picked:
/// 1902, 1863, 1964, 2000, 1695 and 1344. The skirmish-4v4 homebrew-d20 and pf2e cells did not
/// move. The pf2e and pf1e cells measured again 2026-12-08, after each game's attack math (issue
/// 50: pf2e's multiple attack penalty, degrees, criticals and basic saves; pf1e's natural 20 and
/// 1 and confirmed criticals): skirmish-4v4 pf2e 1695 → 1760, pf1e 1934 → 1879; mirrored pf2e
/// 1364 → 1752, pf1e 1918 → 1890. The tactical AI prices the penalty and the basic AI does not,
/// so pf2e's cells rose; criticals and natural 20s make every fight less certain, so pf1e's fell.
/// Each cell's floor is the Wilson 95% lower bound that a sample of n fights would show if it
/// came out three standard errors below this rate (the standard error at no less than a 5% loss
/// rate, so a cell the tactical AI always wins still allows a few losses). As the bound rises
/// with the rate, this asks the sample's rate to be no more than three standard errors under the
/// long mode's: a sample of a tactical AI as strong as measured fails about once in 700 draws,
/// one three standard errors weaker about half the time, one five weaker almost always. CI plays
/// 400 fights a cell, where the bar is 7.1 points under the long mode's rate in the 71% cell, 5.6
/// in the 85% one, 5.0 and 5.1 in the 88% ones (pf2e), 3.7 and 3.5 in the 94% ones (pf1e), 3.4
/// and 3.5 in those near 100%. Made by hand against the
/// earlier floors, `APPROACH` 0.3 instead of 0.03 (a tuning the AI's comments tell of) fell to 62%
/// on skirmish-4v4 under homebrew-d20 (bar: 256 wins of 400, 64%, the same now) and failed here,
/// where the check this replaced (more wins than losses) passed; at 200 fights a cell it passed
/// here too.
const LONG_MODE: [(&str, &str, u64); 8] = [
    ("skirmish-4v4", "homebrew-d20", 1421),
    ("skirmish-4v4", "pf2e", 1760),
    ("skirmish-4v4", "pf1e", 1879),
    ("skirmish-4v4", "segments", 1997),
    ("mirrored", "homebrew-d20", 1697),
    ("mirrored", "pf2e", 1752),
    ("mirrored", "pf1e", 1890),
    ("mirrored", "segments", 2000),
];
/// Fights per cell in [`LONG_MODE`].
const LONG_RUNS: u64 = 2000;

/// The floor of a cell for a sample of `n` fights: see [`LONG_MODE`].
fn floor(setup: &str, ruleset: &str, n: u64) -> f64 {
    let &(_, _, won) = LONG_MODE.iter().find(|(s, r, _)| *s == setup && *r == ruleset).expect("a measured cell");
    let p = won as f64 / LONG_RUNS as f64;
    let se = ((p * (1.0 - p)).max(0.05 * 0.95) / n as f64).sqrt();
    let low = ((p - 3.0 * se) * n as f64).floor().max(0.0) as u64;
    skirmish::sim::stats::wilson(low, n).unwrap().low
}

/// The floors at CI's 400 fights a cell, as numbers for the reader (a test keeps them equal to
/// [`floor`]). As the bound rises with the wins, each is a number of wins out of 400: 256, 332,
/// 361 and 386 on skirmish-4v4 (homebrew-d20, pf2e, pf1e, segments), 317, 330, 364 and 386 on the
/// mirrored teams.
pub const FLOORS: [(&str, &str, f64); 8] = [
    ("skirmish-4v4", "homebrew-d20", 0.5918),
    ("skirmish-4v4", "pf2e", 0.7901),
    ("skirmish-4v4", "pf1e", 0.8695),
    ("skirmish-4v4", "segments", 0.9421),
    ("mirrored", "homebrew-d20", 0.7501),
    ("mirrored", "pf2e", 0.7847),
    ("mirrored", "pf1e", 0.8779),
    ("mirrored", "segments", 0.9421),
];

#[test]
fn ai_strength_floors_are_derived_from_the_long_mode() {
    for (setup, rs, f) in FLOORS {
        let got = floor(setup, rs, 400);
        assert!((got - f).abs() < 0.0005, "{setup} {rs}: floor {got:.4}, written {f}");
    }
    // The issue's example: pf2e mirrored falling 22 points (from 79% to 57% then; from 68% to 46%
    // before issue 50's attack math, from 88% to 66% now) fails, at 100 fights or 400, and its
    // measured rate passes.
    for n in [100, 400] {
        let at = |pct: u64| skirmish::sim::stats::wilson(pct * n / 100, n).unwrap().low;
        assert!(at(66) < floor("mirrored", "pf2e", n));
        assert!(at(88) >= floor("mirrored", "pf2e", n));
    }
    // The long mode's own rates clear their floors at the long mode's size.
    for (setup, rs, won) in LONG_MODE {
        assert!(skirmish::sim::stats::wilson(won, LONG_RUNS).unwrap().low >= floor(setup, rs, LONG_RUNS));
    }
}

fn runs() -> u64 {
    std::env::var("SKIRMISH_AI_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(400)
}

fn pct(n: u32, of: u64) -> f64 {
    100.0 * f64::from(n) / of.max(1) as f64
}

/// The set-ups measured, by name.
fn setups() -> [(&'static str, fn(&str) -> Setup); 2] {
    [("skirmish-4v4", encounter), ("mirrored", mirrored)]
}

#[test]
fn ai_strength_tactical_beats_basic_under_every_ruleset() {
    let runs = runs();
    let mut failures = Vec::new();
    // SKIRMISH_AI_RULESETS=pf2e,pf1e measures only those; SKIRMISH_AI_ENCOUNTERS=mirrored only that.
    let only = std::env::var("SKIRMISH_AI_RULESETS").unwrap_or_default();
    let only_setup = std::env::var("SKIRMISH_AI_ENCOUNTERS").unwrap_or_default();
    for (setup_name, make) in setups() {
        if !only_setup.is_empty() && !only_setup.split(',').any(|o| o == setup_name) {
            continue;
        }
        println!(
            "{setup_name}: tactical AI against basic AI, {runs} seeded fights per ruleset (sides swapped every seed)"
        );
        for name in RULESETS.into_iter().filter(|n| only.is_empty() || only.split(',').any(|o| o == *n)) {
            let setup = make(name);
            let t0 = Instant::now();
            let t = measure(&setup, runs);
            let wall = t0.elapsed();
            let (ai_time, decisions) = decision_cost(&setup, runs.min(10));
            println!(
                "  {name:13} tactical {:5.1}%  basic {:5.1}%  draws {:5.1}%  ({} / {} / {})  {:.1} rounds/fight  {:.0} commands/fight  {} rejected  {} declined  {:.1} µs/decision  {:.1} ms/fight",
                pct(t.won, runs),
                pct(t.lost, runs),
                pct(t.drawn, runs),
                t.won,
                t.lost,
                t.drawn,
                t.rounds as f64 / runs as f64,
                t.commands as f64 / runs as f64,
                t.rejected,
                t.declined,
                ai_time.as_secs_f64() * 1e6 / decisions.max(1) as f64,
                wall.as_secs_f64() * 1e3 / runs as f64,
            );
            let low = skirmish::sim::stats::wilson(u64::from(t.won), runs).unwrap().low;
            let floor = floor(setup_name, name, runs);
            println!("  {:13} Wilson 95% lower bound {:.3}, floor {floor:.3}", "", low);
            if low < floor {
                failures.push(format!(
                    "{setup_name} {name}: tactical won {} of {runs} (lower bound {low:.3}), under the floor {floor:.3}",
                    t.won
                ));
            }
            // A rejected command wastes the AI's time: almost none of the tactical AI's may be.
            if t.rejected * 100 > t.commands {
                failures.push(format!("{setup_name} {name}: {} of {} commands rejected", t.rejected, t.commands));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn ai_strength_mirrored_teams_are_mirrored() {
    // Side bias cancels only if the two sides are the same creatures in mirror image.
    for name in RULESETS {
        let specs = mirrored(name).specs;
        let (a, b) = specs.split_at(specs.len() / 2);
        for (x, y) in a.iter().zip(b) {
            assert_eq!((x.stats.clone(), x.hp, x.abilities.clone()), (y.stats.clone(), y.hp, y.abilities.clone()));
            assert_eq!(x.at.1, y.at.1);
            assert_eq!(x.at.0 + y.at.0, 9);
        }
    }
}

#[test]
fn ai_strength_a_fights_log_is_the_simulators_match() {
    // The command the README gives for reading one of these fights:
    // `skirmish sim assets/encounters/skirmish-4v4.ron --ruleset pf2e --ai tactical,basic --replay-run K`
    // (even K: the tactical AI is the heroes; odd K: `--ai basic,tactical`) prints fight K's log.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/skirmish-4v4.ron");
    for (rs, seed) in RULESETS.iter().flat_map(|rs| [(*rs, 0u64), (*rs, 1)]) {
        let setup = encounter(rs);
        let side = SIDES[(seed % 2) as usize];
        let mut c = setup.start(seed);
        ai::play_sides(&mut c, SCOPE, MAX_COMMANDS, |s| if s == side { Brain::Tactical } else { Brain::Basic });
        let want: Vec<String> = c.log().events.iter().map(|e| c.log().describe(e)).collect();
        let pair = if seed % 2 == 0 { "tactical,basic" } else { "basic,tactical" };
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(["sim", file.to_str().unwrap(), "--ruleset", rs, "--ai", pair, "--replay-run", &seed.to_string()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let got: Vec<&str> = text.lines().filter(|l| !l.starts_with("== ")).collect();
        assert!(want.len() > 50, "{}", want.len());
        assert_eq!(got, want, "{rs} seed {seed}");
    }
}
