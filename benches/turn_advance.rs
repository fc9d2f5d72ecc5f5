//! The cost of advancing one turn with 10, 100 and 1,000 combatants.
//!
//! Each measured step ends the active creature's turn and starts the next one: the command goes
//! in as a message, the rules schedule runs until the next creature waits for a command, the
//! timeline pops the next turn, and at each round boundary every pool is refilled (amortized over
//! the round's turns). The goal is a per-turn cost that grows no faster than O(log n).

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use skirmish::rules::command::Command;
use skirmish::rules::components::InitiativeSetup;
use skirmish::rules::driver::Combat;
use skirmish::rules::log::{CombatLog, CommandOutcomes};
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::EngineStatus;

fn combat(n: usize) -> Combat {
    let mut rs =
        Ruleset::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rulesets/homebrew-d20.ron")))
            .expect("shipped ruleset");
    // Nobody attacks here: the longest round cap, and a fresh combat before it is reached.
    rs.round_cap = skirmish::rules::limits::MAX_ROUNDS;
    let specs: Vec<CombatantSpec> = (0..n)
        .map(|i| CombatantSpec {
            name: format!("c{i}"),
            names: Default::default(),
            side: if i % 2 == 0 { "heroes" } else { "monsters" }.into(),
            stats: [("DEX".to_string(), (i % 5) as i32)].into(),
            hp: 10,
            abilities: vec!["sword".into()],
            initiative: InitiativeSetup::Rolled,
            at: ((i % 100) as i32 * 3, (i / 100) as i32 * 3),
            movement: Default::default(),
            controller: Default::default(),
            conditions: vec![],
            traits: vec![],
            aware: true,
            items: Default::default(),
            loadouts: Default::default(),
            movement_for: Default::default(),
        })
        .collect();
    Combat::new(rs, 7, &specs).expect("valid set-up")
}

fn end_turns(c: &mut Combat, n: usize, turns: u64) -> Duration {
    // The log and the outcome list grow with every turn; clear them between timed chunks so a
    // long run measures turns, not memory growth.
    const CHUNK: u64 = 10_000;
    let mut total = Duration::ZERO;
    let mut left = turns;
    while left > 0 {
        let k = left.min(CHUNK);
        if u64::from(c.turn().round) + k / n as u64 + 2 >= u64::from(skirmish::rules::limits::MAX_ROUNDS) {
            *c = combat(n);
        }
        let start = Instant::now();
        for _ in 0..k {
            let EngineStatus::AwaitingCommand(actor) = c.status() else { panic!("waits for a command") };
            black_box(c.submit(Command::EndTurn { actor })).expect("end turn");
        }
        total += start.elapsed();
        c.world.resource_mut::<CombatLog>().events.clear();
        c.world.resource_mut::<CommandOutcomes>().entries.clear();
        left -= k;
    }
    total
}

fn bench(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("advance_one_turn");
    for n in [10usize, 100, 1_000] {
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            let mut c = combat(n);
            b.iter_custom(|iters| end_turns(&mut c, n, iters));
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
