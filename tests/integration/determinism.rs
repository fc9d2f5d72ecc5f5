//! Same seed plus same commands gives a byte-identical log: every scenario, 1,000 seeds, twice.

use skirmish::scenario;

const SEEDS: u64 = 1_000;

#[test]
fn every_scenario_under_1000_seeds_gives_byte_identical_logs() {
    let loaded: Vec<_> = crate::scenarios::files().iter().map(|f| scenario::load(f).unwrap()).collect();
    assert!(loaded.iter().any(|l| l.scenario.name.contains("AI brawl")), "a fully random fight is included");
    let mut distinct_brawls = std::collections::BTreeSet::new();
    for seed in 0..SEEDS {
        for ls in &loaded {
            let a = scenario::run(ls, Some(seed));
            let b = scenario::run(ls, Some(seed));
            assert!(!a.log_ron.is_empty());
            assert_eq!(
                a.log_ron.as_bytes(),
                b.log_ron.as_bytes(),
                "{} differs between two runs with seed {seed}",
                ls.file
            );
            if ls.scenario.name.contains("AI brawl") {
                distinct_brawls.insert(a.log_ron);
            }
        }
    }
    // The seed really drives the dice: different seeds play out differently.
    assert!(distinct_brawls.len() > (SEEDS as usize) * 9 / 10, "only {} distinct fights", distinct_brawls.len());
}

#[test]
fn chacha8_dice_are_portable_golden_values() {
    // ChaCha8 is specified bit for bit; these values must never change across platforms.
    let mut d = skirmish::rules::dice::Dice::seeded(42);
    let rolls: Vec<i32> = (0..8).map(|_| d.roll(20)).collect();
    let mut again = skirmish::rules::dice::Dice::seeded(42);
    assert_eq!(rolls, (0..8).map(|_| again.roll(20)).collect::<Vec<_>>());
    assert_eq!(rolls, GOLDEN, "the RNG stream changed: saved replays would break");
}

const GOLDEN: [i32; 8] = [5, 14, 3, 20, 16, 9, 7, 13];
