//! The CPU cost of one frame's `Update` with 8, 100 and 1,000 units on the board, headless: the
//! game's logic (input, AI pacing, playback, highlights) and the board's sync systems (tokens, HP
//! bars, badges, highlighted squares, camera), without a window or a GPU. The goal is under 2 ms
//! at 100 units, in each view: `frame_update` is the 2D board, `frame_update_3d` the 3D scene
//! (tokens, rings, ground overlays, labels projected over the tokens, the orbiting camera,
//! picking).

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use skirmish::encounter::Encounter;
use skirmish::game::app_state::{PlayOptions, ViewMode};
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
    // Read without the encounter file's 500-creature limit (the engine takes 10,000): the bench
    // measures the views at 1,000.
    let opts = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let e: Encounter = opts.from_str(&s).expect("bench encounter");
    assert_eq!(e.combatants.len(), n);
    e
}

fn app(n: usize, view: ViewMode) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<ColorMaterial>()
        .init_asset::<StandardMaterial>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(16)))
        .insert_resource(PlayOptions { view: Some(view), ..Default::default() })
        .add_plugins((GameLogicPlugin, skirmish::game::view::ViewPlugin, skirmish::game::view3d::View3dPlugin));
    // A window (without winit) with the pointer over the board: the cursor's square is picked
    // every frame, by a ray in 3D.
    let mut window = Window { resolution: (1280, 800).into(), ..default() };
    window.set_cursor_position(Some(Vec2::new(640.0, 400.0)));
    app.world_mut().spawn((window, bevy::window::PrimaryWindow));
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
    for (group, view) in [("frame_update", ViewMode::TwoD), ("frame_update_3d", ViewMode::ThreeD)] {
        let mut g = cr.benchmark_group(group);
        g.sample_size(30);
        for n in [8usize, 100, 1_000] {
            let mut a = app(n, view);
            assert_eq!(*a.world().resource::<ViewMode>(), view, "the view measured");
            g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| b.iter(|| a.update()));
            // What was measured was the battle, not the end screen.
            assert_eq!(*a.world().resource::<State<Screen>>().get(), Screen::Battle, "the fight ended while measuring");
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
