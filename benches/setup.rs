//! The cost of starting a combat from a scenario file with 100, 1,000 and 10,000 combatants:
//! parsing and checking the file, setting up the world, rolling and sorting initiative, and the
//! runner's readable log. The goal is near-linear growth (10× the combatants, about 10× the time).

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use skirmish::scenario;

/// A scenario text with `n` combatants on two sides, spread over the grid.
fn scenario_text(n: usize) -> String {
    let mut s = String::from("(name: \"big\", ruleset: \"homebrew-d20\", combatants: [\n");
    for i in 0..n {
        let side = if i % 2 == 0 { "a" } else { "b" };
        s += &format!("(name: \"c{i}\", side: \"{side}\", at: ({}, {})),\n", (i % 100) * 3, (i / 100) * 3);
    }
    s + "], steps: [Expect(Round(1))])"
}

fn bench(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("start_combat_from_file");
    g.sample_size(10);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/big.ron");
    for n in [100usize, 1_000, 10_000] {
        let text = scenario_text(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                let ls = scenario::load_str(&path, &text).expect("valid");
                black_box(scenario::run(&ls, None))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
