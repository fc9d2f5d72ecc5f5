//! The simulator's costs on `assets/encounters/bench-4v4.ron`: setting up one combat (world,
//! schedule, initiative), one whole 4v4 encounter played by the tactical AI, and the engine's
//! share of such an encounter alone (the commands of eight played runs sent again to a reset
//! combat, no AI), per ruleset. `skirmish sim --bench` gives the whole encounter as encounters
//! per second.

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use skirmish::rules::driver::Combat;
use skirmish::sim::{self, SimConfig};

// The allocator the `skirmish` binary uses, so the figures are the simulator's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(cr: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/bench-4v4.ron");
    let prep = sim::prepare(&SimConfig::new(&path, None, 1)).expect("the bench encounter loads");
    let mut g = cr.benchmark_group("sim_4v4");
    g.sample_size(20);
    for (ri, rs) in prep.rulesets.iter().enumerate() {
        let specs = prep.encounter.specs_for(rs);
        let map = prep.encounter.battle_map();
        g.bench_with_input(BenchmarkId::new("setup", &rs.name), &ri, |b, _| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(Combat::with_map(rs.clone(), seed, &specs, map.clone(), &[]).expect("sets up"))
            })
        });
        g.bench_with_input(BenchmarkId::new("encounter", &rs.name), &ri, |b, &ri| {
            let mut runner = sim::run::Runner::new(&prep, ri).expect("runner");
            let mut k = 0;
            b.iter(|| {
                k += 1;
                black_box(runner.run(k, k).expect("plays"))
            })
        });
        // The engine alone: the journals of runs 1..=8, replayed in turn on a reset combat.
        let mut runner = sim::run::Runner::new(&prep, ri).expect("runner");
        let played: Vec<_> = (1..=8u64).map(|seed| (seed, runner.play(seed).expect("plays").0)).collect();
        let (rs2, map2, specs2) = {
            let c = &played[0].1;
            (c.ruleset().clone(), c.map().clone(), c.origin().specs.clone())
        };
        let journals: Vec<_> = played.iter().map(|(seed, c)| (*seed, c.journal().to_vec(), c.state_hash())).collect();
        let mut combat = Combat::with_map(rs2, 1, &specs2, map2.clone(), &[]).expect("sets up");
        // Reset as the simulator resets between runs: the same world, keeping the ruleset
        // (cloning it for every replay would count work no simulator run does).
        let replay = |combat: &mut Combat, seed: u64, journal: &[skirmish::rules::journal::Entry]| {
            assert!(combat.reset_keeping_ruleset(seed, &specs2, map2.clone(), &[]).expect("resets"));
            for e in journal {
                let _ = combat.apply_entry(e);
            }
        };
        // A replay is its run: the same state at the end.
        for (seed, journal, hash) in &journals {
            replay(&mut combat, *seed, journal);
            assert_eq!(combat.state_hash(), *hash, "replay of run {seed}");
        }
        let mut i = 0;
        g.bench_with_input(BenchmarkId::new("engine", &rs.name), &ri, |b, _| {
            b.iter(|| {
                let (seed, journal, _) = &journals[i % journals.len()];
                i += 1;
                replay(&mut combat, *seed, journal);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
