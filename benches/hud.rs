//! The HUD's CPU per frame with 100 units on the board and a 10,000-entry combat log, headless:
//! the view-models kept up to date ([`HudCache::refresh`]) and the egui panels laid out and
//! tessellated on a headless egui context at 1280×800, without a window or a GPU. The goal is
//! under 2 ms per frame.
//!
//! - `steady frame`: a frame in which nothing in the combat changed (the usual case: the
//!   view-models are cached), drawn in full: tracker, card, log, ability bar.
//! - `rebuild`: the view-models built again after a command, including the ability bar's dry
//!   runs of every ability on every creature.
//! - `frame after a command`: both together.
//!
//! Each in English and in Korean (issue 24): the Korean log's sentences, the HUD's words and
//! egui with the game's Hangul fallback font (Nanum Gothic), as the game installs it.

// criterion_group! generates a public function without docs.
#![allow(missing_docs)]

use bevy_egui::egui;
use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::ai::{self, AiScope};
use skirmish::encounter::Encounter;
use skirmish::game::hud_panels::{HudCache, HudUi, draw_ability_bar_in, draw_panels_in};
use skirmish::i18n::Tr;
use skirmish::rules::driver::Combat;
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::state::EngineStatus;

/// 100 units on two sides, in melee lines on a 20 × 20 board; nobody dies, so the log grows.
fn encounter(n: usize) -> Encounter {
    let side = 20;
    let rows: Vec<String> = (0..side).map(|_| ".".repeat(side)).collect();
    let mut s = format!(
        "(name: \"hud bench\", map: {rows:?}, sides: [(name: \"a\", controller: Ai), (name: \"b\", controller: Ai)], combatants: [\n"
    );
    for i in 0..n {
        let team = if i % 2 == 0 { "a" } else { "b" };
        let (x, y) = (i / 2 % side, 8 + (i % 2) + 4 * (i / 2 / side));
        s += &format!(
            "(name: \"u{i}\", side: \"{team}\", hp: 1000000, abilities: [\"sword\", \"bow\"], at: ({x}, {y})),\n"
        );
    }
    s += "], max_rounds: 10000)";
    Encounter::from_ron_str("hud-bench.ron", &s).expect("bench encounter")
}

fn setup(tr: &Tr) -> (Combat, HudCache) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rs = Ruleset::load(&root.join("assets/rulesets/homebrew-d20.ron")).expect("ruleset");
    let mut combat = encounter(100).start(rs, 3).expect("start");
    let mut cache = HudCache::default();
    cache.log.set_language(tr);
    while cache.log.entries().len() < 10_000 {
        ai::play(&mut combat, AiScope { gm: true, all_creatures: true }, 200);
        cache.log.update(&combat);
    }
    (combat, cache)
}

fn active(c: &Combat) -> Option<skirmish::rules::components::Cid> {
    match c.status() {
        EngineStatus::AwaitingCommand(w) => Some(w),
        _ => c.turn().active,
    }
}

fn frame(ctx: &egui::Context, cache: &HudCache, st: &mut HudUi, tr: &Tr) -> usize {
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        ..Default::default()
    };
    let out = ctx.run_ui(raw, |root| {
        egui::Panel::bottom("abilities").show_inside(root, |ui| {
            let _ = draw_ability_bar_in(ui, cache, None, st, tr);
        });
        let _ = draw_panels_in(root, cache, st, tr);
    });
    ctx.tessellate(out.shapes, out.pixels_per_point).len()
}

fn bench(cr: &mut Criterion) {
    for code in ["en", "ko"] {
        bench_in(cr, code);
    }
}

fn bench_in(cr: &mut Criterion, code: &str) {
    let tr = Tr::shipped(code);
    let (mut combat, mut cache) = setup(&tr);
    let who = active(&combat);
    let keys: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
    cache.refresh_in(&mut combat, who, None, None, &keys, &tr);
    eprintln!(
        "hud bench ({code}): {} units, {} log entries ({} events), {} abilities on the bar",
        combat.len(),
        cache.log.entries().len(),
        combat.log().events.len(),
        cache.bar.len()
    );
    let ctx = egui::Context::default();
    // The game's fallback font for Hangul, installed as the game does.
    ctx.add_font(skirmish::game::language::hangul_fallback());
    let mut st = HudUi::default();
    // Warm egui's text layout caches, as a running game has.
    for _ in 0..3 {
        frame(&ctx, &cache, &mut st, &tr);
    }
    let mut g = cr.benchmark_group(format!("hud-{code}"));
    g.bench_function("steady frame, 100 units, 10k log", |b| {
        b.iter(|| {
            cache.refresh_in(&mut combat, who, None, None, &keys, &tr);
            frame(&ctx, &cache, &mut st, &tr)
        })
    });
    g.bench_function("rebuild view-models, 100 units", |b| {
        b.iter(|| {
            cache.invalidate();
            cache.refresh_in(&mut combat, who, None, None, &keys, &tr);
        })
    });
    g.bench_function("frame after a command, 100 units, 10k log", |b| {
        b.iter(|| {
            cache.invalidate();
            cache.refresh_in(&mut combat, who, None, None, &keys, &tr);
            frame(&ctx, &cache, &mut st, &tr)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
