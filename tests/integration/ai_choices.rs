//! The AIs' choices, pinned run by run (issue 26): a digest of the whole log of several seeded
//! runs of every shipped encounter under every ruleset with the tactical AI on every side, and of
//! the run records with the basic AI. A change that makes either AI choose anything else, in any
//! of those runs, fails here and names the first run that moved.
//!
//! The mutation sample of `src/ai/` showed why this is needed beside the tests of single choices
//! (`ai_tactics.rs`): most of the pricing (how a square, a condition or a roll modifier is worth)
//! could be changed without any test noticing, because each test sets up one choice and a
//! wrong price rarely flips that one. These runs make thousands of choices.
//!
//! A change to the AI's play on purpose (or to the rules, or to the shipped data) re-blesses the
//! digests, after reading what changed with `scripts/exact.sh` or `sim --replay-run`:
//!
//! ```sh
//! SKIRMISH_BLESS=1 cargo test --test integration ai_choices
//! git diff tests/fixtures/ai-choices.txt
//! ```
//!
//! Speed work must leave this file alone: it is `scripts/exact.sh` in the test suite.

use std::fmt::Write as _;
use std::path::Path;

use skirmish::ai::Brain;
use skirmish::sim::{SimConfig, prepare, run::replay, run_batch_records};

const RULESETS: [&str; 4] = ["homebrew-d20", "pf2e", "pf1e", "segments"];
/// Runs of each encounter under each ruleset.
const RUNS: u64 = 10;
/// The first seed: the runs use seeds SEED + k, as `sim --seed` does.
const SEED: u64 = 2026;

/// FNV-1a, 64 bits: a digest that is the same on every machine and build.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every shipped encounter, by file name without `.ron`, sorted: a new one adds lines, which
/// fails the count check until it is blessed.
fn encounters() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_string))
        .filter(|n| dir.join(format!("{n}.ron")).is_file())
        .collect();
    out.sort();
    assert!(out.len() >= 3, "the shipped encounters were not found in {}", dir.display());
    out
}

fn encounter(name: &str) -> String {
    format!("{}/assets/encounters/{name}.ron", env!("CARGO_MANIFEST_DIR"))
}

/// One line per run: the encounter, the ruleset, the AI, the run, the digest of what it did,
/// and (to read a difference at a glance) its rounds and commands.
fn lines() -> String {
    let mut out = String::new();
    for enc in encounters() {
        for rs in RULESETS {
            let mut cfg = SimConfig::new(encounter(&enc), Some(rs), RUNS);
            cfg.seed = SEED;
            cfg.jobs = 1;
            // The tactical AI: the whole log of each run, every event of every choice.
            let prep = prepare(&cfg).unwrap();
            for k in 0..RUNS {
                let (log, rec) = replay(&prep, 0, k, SEED + k).unwrap();
                writeln!(
                    out,
                    "{enc} {rs} tactical run {k}: {:016x} rounds {} commands {} events {}",
                    fnv(log.to_ron().as_bytes()),
                    rec.rounds,
                    rec.commands,
                    log.events.len()
                )
                .unwrap();
            }
            // The basic AI: what each run's record says (outcome, rounds, every creature's counts).
            cfg.ai = Brain::Basic;
            let batch = run_batch_records(&cfg, &|_| {}).unwrap();
            for rec in &batch.records[0] {
                writeln!(
                    out,
                    "{enc} {rs} basic run {}: {:016x} rounds {} commands {}",
                    rec.run,
                    fnv(format!("{rec:?}").as_bytes()),
                    rec.rounds,
                    rec.commands
                )
                .unwrap();
            }
        }
    }
    out
}

/// Both AIs choose, run by run, what they chose when the digests were blessed.
#[test]
fn ai_choices_are_the_blessed_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ai-choices.txt");
    let now = lines();
    if std::env::var("SKIRMISH_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let blessed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{}: {e}; create it with SKIRMISH_BLESS=1 cargo test --test integration ai_choices", path.display())
    });
    // The same runs, in the same order: a missing or extra line is a change to this test.
    assert_eq!(blessed.lines().count(), now.lines().count(), "the runs listed changed: re-bless");
    let moved: Vec<(&str, &str)> = blessed.lines().zip(now.lines()).filter(|(a, b)| a != b).collect();
    assert!(
        moved.is_empty(),
        "{} of {} runs chose differently; the first:\n  blessed: {}\n  now:     {}\n\
         (if on purpose: SKIRMISH_BLESS=1 cargo test --test integration ai_choices)",
        moved.len(),
        now.lines().count(),
        moved[0].0,
        moved[0].1
    );
    // Every run played: nobody's digest is of an empty fight.
    assert!(now.lines().all(|l| !l.contains("commands 0")), "a run with no command:\n{now}");
}
