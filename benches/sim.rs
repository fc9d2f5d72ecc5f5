//! The simulator's costs on `assets/encounters/bench-4v4.ron`: setting up one combat (world,
//! schedule, initiative) and one whole 4v4 encounter played by the tactical AI, per ruleset.
//! `skirmish sim --bench` gives the same as encounters per second.

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
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
