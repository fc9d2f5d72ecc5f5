//! Dice language: parse and roll, against Avrae's `d20` (18–23 µs for `1d20+5` on this machine,
//! issue 13). Each iteration parses the text and rolls it once with a seeded dice box.

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::rules::dice::{Dice, DiceExpr};
use std::hint::black_box;

fn dice(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice_parse_and_roll");
    for text in ["1d20+5", "2d20kh1+5", "1d20+1d4+3", "4d6kh3"] {
        let mut d = Dice::seeded(7);
        g.bench_function(text, |b| {
            b.iter(|| {
                let e = DiceExpr::parse(black_box(text)).expect("valid");
                d.roll_expr(&e, |_| 3)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, dice);
criterion_main!(benches);
