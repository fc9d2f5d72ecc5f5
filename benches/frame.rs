//! The CPU cost of one frame's `Update` with 8, 100 and 1,000 units on the board, headless: the
//! game's logic (input, AI pacing, playback, highlights) and the board's sync systems (tokens, HP
//! bars, badges, highlighted squares, camera), without a window or a GPU. The goal is under 2 ms
//! at 100 units.

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use skirmish::encounter::Encounter;
use skirmish::game::library::Library;
use skirmish::game::setup::{BattleSetup, SideControl};
use skirmish::game::{GameLogicPlugin, Screen};

/// An encounter with `n` units on two sides, spread over a square board.
fn encounter(n: usize) -> Encounter {
    let side = ((n as f64).sqrt().ceil() as usize * 2).max(8);
    let rows: Vec<String> = (0..side).map(|_| ".".repeat(side)).collect();
    let mut s = format!(
        "(name: \"bench {n}\", map: {rows:?}, sides: [(name: \"a\", controller: Ai), (name: \"b\", controller: Ai)], combatants: [\n"
    );
    for i in 0..n {
        let (x, y) = ((i * 2) % side, (i * 2) / side * 2 % side + (i * 2) / (side * side / 2));
        let team = if i % 2 == 0 { "a" } else { "b" };
        s += &format!(
            "(name: \"u{i}\", side: \"{team}\", hp: 1000000, abilities: [\"sword\"], at: ({x}, {})),\n",
            y.min(side - 1)
        );
    }
    s += "], max_rounds: 10000)";
    Encounter::from_ron_str("bench.ron", &s).expect("bench encounter")
}

fn app(n: usize) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<ColorMaterial>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(16)))
        .add_plugins((GameLogicPlugin, skirmish::game::view::ViewPlugin));
    app.finish();
    app.cleanup();
    app.update();
    let ruleset = app.world().resource::<Library>().ruleset("homebrew-d20").expect("installed").clone();
    let enc = encounter(n);
    app.world_mut().insert_resource(BattleSetup {
        file: "bench.ron".into(),
        encounter: enc,
        ruleset_name: "homebrew-d20".into(),
        ruleset,
        sides: [("a".to_string(), SideControl::Ai), ("b".to_string(), SideControl::Ai)].into(),
        seed: 1,
        scenario: None,
        mods: Vec::new(),
        from_save: None,
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    for _ in 0..5 {
        app.update();
    }
    app
}

fn bench(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("frame_update");
    g.sample_size(30);
    for n in [8usize, 100, 1_000] {
        let mut a = app(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| b.iter(|| a.update()));
        // What was measured was the battle, not the end screen.
        assert_eq!(*a.world().resource::<State<Screen>>().get(), Screen::Battle, "the fight ended while measuring");
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
