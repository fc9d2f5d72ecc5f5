//! The board's two views (issue 23), headless: the 3D view plays battles to the end under every
//! ruleset while `V` switches views mid-turn; a click in 3D, picked by a ray from the camera
//! through the window's cursor, becomes the same `Command` as in 2D; and every shipped
//! encounter's board is framed in the space the HUD's default panels leave at 1280×800, in
//! both views (fault 1: the board was under the right panel).

use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use leafwing_input_manager::prelude::Buttonlike;
use skirmish::game::app_state::{Selection, ViewMode};
use skirmish::game::battle::{Battle, Highlights, Pacing, Policies, Policy};
use skirmish::game::hud_panels::{HudCache, HudUi, draw_ability_bar_in, draw_panels_in};
use skirmish::game::setup::SideControl;
use skirmish::game::view::{BannerRect, BoardArea, CELL, VIEW_ROWS, fit_scale, free_area};
use skirmish::game::view3d::Orbit;
use skirmish::game::{GameLogicPlugin, PlayOptions, Screen};
use skirmish::i18n::Tr;
use skirmish::rules::components::GridPos;
use skirmish::rules::log::CombatEvent;
use skirmish::rules::state::EngineStatus;

fn app(options: PlayOptions, window: bool) -> App {
    paced_app(options, window, Pacing::instant())
}

fn paced_app(mut options: PlayOptions, window: bool, pacing: Pacing) -> App {
    options.lang.get_or_insert_with(|| "en".into());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<ColorMaterial>()
        .init_asset::<StandardMaterial>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(16)))
        .insert_resource(options)
        .insert_resource(pacing)
        .add_plugins((GameLogicPlugin, skirmish::game::view::ViewPlugin, skirmish::game::view3d::View3dPlugin));
    if window {
        // A window without winit: the cursor is set by hand, as the OS would.
        app.world_mut().spawn((Window { resolution: (1280, 800).into(), ..default() }, PrimaryWindow));
    }
    app.finish();
    app.cleanup();
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn tap(a: &mut App, b: impl Buttonlike) {
    b.press(a.world_mut());
    a.update();
    b.release(a.world_mut());
    a.update();
}

fn installed() -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets"))
            .unwrap()
            .filter_map(|e| e.ok()?.path().file_stem().map(|s| s.to_string_lossy().to_string()))
            .collect();
    v.sort();
    v
}

/// AI against AI in the 3D view under every ruleset, `V` pressed every 97 frames: the fight ends
/// as it does in 2D (same winner, same log), then the end screen restarts a battle in the view
/// last chosen.
#[test]
fn the_3d_view_plays_every_ruleset_to_the_end_while_v_switches_views() {
    for rs in installed() {
        let options = |view| PlayOptions {
            ruleset: Some(rs.clone()),
            all_ai: true,
            start_now: true,
            seed: Some(3),
            view: Some(view),
            ..default()
        };
        // Played at speed 4 (walks, lunges and floating texts take frames), so that V comes
        // mid-turn and mid-animation.
        let mut paced = Pacing::default();
        paced.speed = 4.0;
        let mut flat = paced_app(options(ViewMode::TwoD), false, paced.clone());
        let mut both = paced_app(options(ViewMode::ThreeD), false, paced);
        assert_eq!(*both.world().resource::<ViewMode>(), ViewMode::ThreeD, "{rs}: --view 3d");
        let mut switches = 0;
        for frame in 0..20_000 {
            if screen(&flat) == Screen::End && screen(&both) == Screen::End {
                break;
            }
            flat.update();
            if frame % 97 == 13 {
                let before = *both.world().resource::<ViewMode>();
                tap(&mut both, KeyCode::KeyV);
                assert_ne!(*both.world().resource::<ViewMode>(), before, "{rs}: V did not switch");
                switches += 1;
            } else {
                both.update();
            }
        }
        assert!(switches >= 2, "{rs}: the fight ended before V was tried");
        assert_eq!(screen(&both), Screen::End, "{rs}");
        let (f, b) = (flat.world().resource::<Battle>(), both.world().resource::<Battle>());
        assert_eq!(b.combat.status(), EngineStatus::Ended, "{rs}");
        assert!(b.error.is_none(), "{rs}: {:?}", b.error);
        // One battle, two views: switching changed nothing in the fight.
        assert_eq!(
            format!("{:?}", f.combat.log().events),
            format!("{:?}", b.combat.log().events),
            "{rs}: the views played different fights"
        );
        // On the end screen V still switches, and the 3D scene is there (drawn live).
        if *both.world().resource::<ViewMode>() == ViewMode::TwoD {
            tap(&mut both, KeyCode::KeyV);
        }
        assert_eq!(*both.world().resource::<ViewMode>(), ViewMode::ThreeD, "{rs}: V on the end screen");
        let meshes = |a: &mut App| a.world_mut().query::<&Mesh3d>().iter(a.world()).count();
        let scene = meshes(&mut both);
        assert!(scene > 0, "{rs}: no 3D scene on the end screen");
        // Restart from the end screen: a new battle, its scene built afresh in 3D.
        both.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
        for _ in 0..5 {
            both.update();
        }
        assert_eq!(screen(&both), Screen::Battle, "{rs}: no restart");
        assert_eq!(meshes(&mut both), scene, "{rs}: the restarted battle's scene is not the same board");
    }
}

/// A person's turn in 3D: M chooses the movement, `V` to 2D and back keeps the choice and what it
/// highlights; then the cursor, put where the 3D camera draws a reachable square, picks that
/// square by a ray, at an angle the camera was turned to, and the click moves there.
#[test]
fn a_click_in_3d_is_picked_by_a_ray_and_becomes_the_same_command() {
    // The HUD's panels are reported as egui would (a banner, a tracker on the left, a log on the
    // right): the camera draws in the space between, and the cursor is read relative to it.
    let (mut a, hero) = human_turn(ViewMode::ThreeD);
    assert_eq!(a.world().resource::<BoardArea>().rect, Rect::new(230.0, 60.0, 950.0, 800.0));
    tap(&mut a, KeyCode::KeyM);
    let reach = a.world().resource::<Highlights>().reachable.clone();
    let chosen = a.world().resource::<Selection>().ability.clone();
    assert!(chosen.is_some() && !reach.is_empty());
    // V twice: the choice and the highlights stay, mid-turn.
    tap(&mut a, KeyCode::KeyV);
    assert_eq!(*a.world().resource::<ViewMode>(), ViewMode::TwoD);
    tap(&mut a, KeyCode::KeyV);
    assert_eq!(*a.world().resource::<ViewMode>(), ViewMode::ThreeD);
    assert_eq!(a.world().resource::<Selection>().ability, chosen, "V dropped the chosen ability");
    assert_eq!(a.world().resource::<Highlights>().reachable, reach, "V changed what is highlighted");
    let from = *a.world().resource::<Battle>().combat.get::<GridPos>(hero).unwrap();
    let to = *reach.keys().max_by_key(|p| (p.distance(from), std::cmp::Reverse(**p))).unwrap();
    // Turn the camera first: picking must not depend on the angle.
    {
        let mut o = a.world_mut().resource_mut::<Orbit>();
        o.yaw = 0.9;
        o.pitch = 0.6;
        o.manual = true;
        o.framed = false;
    }
    a.update();
    point_at(&mut a, Vec3::new(to.x as f32, 0.0, to.y as f32));
    a.update();
    assert_eq!(a.world().resource::<skirmish::game::input::CursorCell>().0, Some(to), "the ray picked another square");
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::Moved { who, to: t, .. } if *who == hero && *t == to)),
        "the 3D click did not move the hero: {:?}",
        b.last_rejection
    );
}

/// Put the window's cursor where the 3D camera draws `p`.
fn point_at(a: &mut App, p: Vec3) {
    let area = *a.world().resource::<BoardArea>();
    let orbit = *a.world().resource::<Orbit>();
    let (px, _) = orbit.project(p, area.rect.size()).expect("in front of the camera");
    let at = px + area.rect.min;
    let mut q = a.world_mut().query_filtered::<&mut Window, With<PrimaryWindow>>();
    let mut w = q.single_mut(a.world_mut()).unwrap();
    w.set_cursor_position(Some(at));
}

/// The HUD's default panels at 1280×800, laid out by egui as the game does: the banner, the
/// tracker, the card and log, the ability bar of a person's turn, and the ruleset's own (the
/// segments timeline under the banner).
fn default_panels(file: &str, ruleset: &str) -> (Vec<(f32, f32, f32, f32)>, Battle) {
    let mut a = app(
        PlayOptions {
            encounter: Some(file.into()),
            ruleset: Some(ruleset.into()),
            start_now: true,
            seed: Some(1),
            view: Some(ViewMode::TwoD),
            ..default()
        },
        false,
    );
    for _ in 0..3 {
        a.update();
    }
    let mut battle = a.world_mut().remove_resource::<Battle>().expect("a battle");
    let tr = Tr::shipped("en");
    let who = match battle.combat.status() {
        EngineStatus::AwaitingCommand(w) => Some(w),
        _ => battle.combat.turn().active,
    };
    let mut cache = HudCache::default();
    let keys: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
    cache.refresh_in(&mut battle.combat, who, None, None, &keys, &tr);
    let ctx = egui::Context::default();
    let mut st = HudUi::default();
    let mut rects = Vec::new();
    for _ in 0..3 {
        rects.clear();
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
            ..Default::default()
        };
        let _ = ctx.run_ui(raw, |root| {
            // The banner: one row of words, as big as the game's round counter.
            let r = egui::Panel::top("banner").show_inside(root, |ui| {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("Round 1").strong().size(18.0));
                    ui.label("the encounter · homebrew-d20");
                });
            });
            rects.push(r.response.rect);
            let r = egui::Panel::bottom("abilities").show_inside(root, |ui| {
                let _ = draw_ability_bar_in(ui, &cache, None, &mut st, &tr);
            });
            rects.push(r.response.rect);
            rects.extend(draw_panels_in(root, &cache, &mut st, &tr).1);
        });
    }
    (rects.iter().map(|r| (r.left(), r.top(), r.right(), r.bottom())).collect(), battle)
}

fn overlaps(a: Rect, p: &(f32, f32, f32, f32)) -> bool {
    a.min.x < p.2 - 1.0 && a.max.x > p.0 + 1.0 && a.min.y < p.3 - 1.0 && a.max.y > p.1 + 1.0
}

/// Issue 23, fault 1: every shipped encounter's board, framed at the start, lies in the free
/// area between the default panels at 1280×800, under none of them, in 2D and in 3D, with
/// squares big enough to read (at least 24 pixels in 2D), under every ruleset (segments adds
/// its timeline under the banner: the board was once framed as if it were not there).
#[test]
fn every_shipped_board_is_framed_between_the_default_panels() {
    let window = Vec2::new(1280.0, 800.0);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| Some(e.ok()?.path())).collect();
    files.retain(|f| f.extension().is_some_and(|x| x == "ron"));
    files.sort();
    assert!(files.len() >= 3);
    let rulesets = ["homebrew-d20", "pf2e", "pf1e", "segments"];
    for (f, ruleset) in files.iter().flat_map(|f| rulesets.map(|r| (f, r))) {
        let (panels, battle) = default_panels(&f.display().to_string(), ruleset);
        let f = std::path::PathBuf::from(format!("{} under {ruleset}", f.display()));
        let timeline = ruleset == "segments";
        assert!(
            panels.len() >= 4 + usize::from(timeline),
            "{}: the default panels were not all drawn: {panels:?}",
            f.display()
        );
        let area = free_area(window, &panels);
        // The free area is what the panels leave: it overlaps none, and is not the whole window.
        assert!(area.width() < window.x - 400.0, "{}: the panels were ignored: {area:?}", f.display());
        for p in &panels {
            assert!(!overlaps(area, p), "{}: the free area {area:?} runs under the panel {p:?}", f.display());
        }
        let (lo, hi) = skirmish::game::view::bounds(&battle);
        let size = Vec2::new((hi.x - lo.x + 1) as f32, (hi.y - lo.y + 1) as f32);
        // 2D: the board's rectangle on screen at the framing zoom, centred in the area.
        let scale = fit_scale(size, area.size());
        let px_per_square = area.height() / (VIEW_ROWS * CELL * scale) * CELL;
        let board = Rect::from_center_size(area.center(), size * px_per_square);
        assert!(
            area.contains(board.min) && area.contains(board.max),
            "{}: 2D board {board:?} outside the free area {area:?}",
            f.display()
        );
        assert!(px_per_square >= 24.0, "{}: squares of {px_per_square:.1} px", f.display());
        // 3D: the framed camera draws every corner of the board inside the area.
        let mut o = Orbit::default();
        o.frame(lo, hi, area.size());
        for (x, y) in [
            (lo.x as f32 - 0.5, lo.y as f32 - 0.5),
            (hi.x as f32 + 0.5, lo.y as f32 - 0.5),
            (lo.x as f32 - 0.5, hi.y as f32 + 0.5),
            (hi.x as f32 + 0.5, hi.y as f32 + 0.5),
        ] {
            let (px, _) = o.project(Vec3::new(x, 0.0, y), area.size()).expect("in front");
            let at = px + area.min;
            assert!(area.contains(at), "{}: 3D corner ({x}, {y}) drawn at {at} outside {area:?}", f.display());
            assert!(panels.iter().all(|p| !overlaps(Rect::from_center_size(at, Vec2::ONE * 3.0), p)));
        }
    }
}

/// A person's turn, as [`a_click_in_3d_is_picked_by_a_ray_and_becomes_the_same_command`] sets it
/// up (panels reported, a window with a cursor), in the given view.
fn human_turn(view: ViewMode) -> (App, skirmish::rules::components::Cid) {
    let mut a = app(
        PlayOptions {
            ruleset: Some("homebrew-d20".into()),
            start_now: true,
            seed: Some(5),
            view: Some(view),
            ..default()
        },
        true,
    );
    for v in a.world_mut().resource_mut::<Policies>().0.values_mut() {
        *v = Policy::Always;
    }
    a.world_mut().insert_resource(BannerRect(vec![
        (0.0, 0.0, 1280.0, 60.0),
        (0.0, 60.0, 230.0, 800.0),
        (950.0, 60.0, 1280.0, 800.0),
    ]));
    for _ in 0..400 {
        if let Some(b) = a.world().get_resource::<Battle>()
            && let EngineStatus::AwaitingCommand(c) = b.combat.status()
            && b.control(c) == SideControl::Human
        {
            a.update();
            return (a, c);
        }
        a.update();
    }
    panic!("no human turn came");
}

/// Fault 1, through the cameras themselves: both board cameras draw into the free area (their
/// viewport is the space the panels leave), and in 2D the cursor over a reachable square picks
/// that square (the camera centred on the framed board, at the framing zoom), and the click
/// moves there.
#[test]
fn the_board_cameras_draw_between_the_panels_and_a_2d_click_picks_its_square() {
    let (mut a, hero) = human_turn(ViewMode::TwoD);
    let area = *a.world().resource::<BoardArea>();
    assert_eq!(area.rect, Rect::new(230.0, 60.0, 950.0, 800.0));
    let mut q = a.world_mut().query::<(&Camera, Has<Camera2d>, Has<Camera3d>, &Transform, &Projection)>();
    let cams: Vec<_> = q.iter(a.world()).map(|(c, d2, d3, t, p)| (c.clone(), d2, d3, *t, p.clone())).collect();
    let boards: Vec<_> = cams.iter().filter(|(c, ..)| c.order == 0).collect();
    assert_eq!(boards.len(), 2, "a 2D and a 3D board camera");
    for (c, ..) in &boards {
        let vp = c.viewport.as_ref().expect("a board camera drawing over the whole window");
        assert_eq!((vp.physical_position, vp.physical_size), (UVec2::new(230, 60), UVec2::new(720, 740)));
    }
    let (_, _, _, t, p) = boards.iter().find(|(_, d2, ..)| *d2).unwrap();
    let scale = match p {
        Projection::Orthographic(o) => o.scale,
        _ => unreachable!(),
    };
    tap(&mut a, KeyCode::KeyM);
    let reach = a.world().resource::<Highlights>().reachable.clone();
    let from = *a.world().resource::<Battle>().combat.get::<GridPos>(hero).unwrap();
    let to = *reach.keys().max_by_key(|p| (p.distance(from), std::cmp::Reverse(**p))).unwrap();
    // Where the square is drawn: the camera shows VIEW_ROWS × scale squares over the area's height.
    let px_per_world = area.rect.height() / (VIEW_ROWS * CELL * scale);
    let world = skirmish::game::view::to_world(Vec2::new(to.x as f32, to.y as f32));
    let d = (world - t.translation.truncate()) * px_per_world;
    let at = area.rect.center() + Vec2::new(d.x, -d.y);
    let mut w = a.world_mut().query_filtered::<&mut Window, With<PrimaryWindow>>();
    w.single_mut(a.world_mut()).unwrap().set_cursor_position(Some(at));
    a.update();
    assert_eq!(
        a.world().resource::<skirmish::game::input::CursorCell>().0,
        Some(to),
        "the cursor picked another square"
    );
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::Moved { who, to: t, .. } if *who == hero && *t == to)),
        "the 2D click did not move the hero: {:?}",
        b.last_rejection
    );
}

/// The right button turns the 3D camera: a right-drag keeps the chosen ability, a right click
/// (no drag) drops it, and Escape drops it after a drag too.
#[test]
fn a_right_drag_turns_the_camera_and_keeps_the_choice_a_right_click_or_escape_cancels() {
    let (mut a, _) = human_turn(ViewMode::ThreeD);
    let chosen = |a: &App| a.world().resource::<Selection>().ability.clone();
    let orbit = |a: &App| *a.world().resource::<Orbit>();
    // The pointer over the board.
    let centre = a.world().resource::<BoardArea>().rect.center();
    let mut w = a.world_mut().query_filtered::<&mut Window, With<PrimaryWindow>>();
    w.single_mut(a.world_mut()).unwrap().set_cursor_position(Some(centre));
    tap(&mut a, KeyCode::KeyM);
    assert!(chosen(&a).is_some());
    let before = orbit(&a);
    MouseButton::Right.press(a.world_mut());
    a.update();
    for _ in 0..3 {
        a.world_mut().write_message(bevy::input::mouse::MouseMotion { delta: Vec2::new(15.0, 4.0) });
        a.update();
    }
    MouseButton::Right.release(a.world_mut());
    a.update();
    a.update();
    assert!(chosen(&a).is_some(), "the drag dropped the chosen ability");
    assert_ne!(orbit(&a).yaw, before.yaw, "the drag did not turn the camera");
    // Escape after the drag.
    tap(&mut a, KeyCode::Escape);
    assert!(chosen(&a).is_none(), "Escape after a right-drag did not cancel");
    // A right click, no drag.
    tap(&mut a, KeyCode::KeyM);
    assert!(chosen(&a).is_some());
    tap(&mut a, MouseButton::Right);
    assert!(chosen(&a).is_none(), "a right click did not cancel");
}

/// With nothing chosen, a click means "attack that enemy" or "move there": the pointer over a
/// friend's token (here the hero's own) passes it and picks the square behind, where the ray meets
/// the ground; an enemy's token is picked as the creature.
#[test]
fn with_nothing_chosen_friends_tokens_do_not_take_the_click() {
    let (mut a, hero) = human_turn(ViewMode::ThreeD);
    let area = *a.world().resource::<BoardArea>();
    let b = a.world().resource::<Battle>();
    let at = *b.combat.get::<GridPos>(hero).unwrap();
    let side = b.combat.get::<skirmish::rules::components::Side>(hero).cloned();
    let enemy = (0..b.combat.len() as u32)
        .map(skirmish::rules::components::Cid)
        .find(|c| b.combat.get::<skirmish::rules::components::Side>(*c).cloned() != side)
        .unwrap();
    let enemy_at = *b.combat.get::<GridPos>(enemy).unwrap();
    {
        let mut o = a.world_mut().resource_mut::<Orbit>();
        o.pitch = 0.5;
        o.manual = true;
        o.framed = false;
    }
    a.update();
    let orbit = *a.world().resource::<Orbit>();
    let put = |a: &mut App, p: Vec3| {
        let (px, _) = orbit.project(p, area.rect.size()).unwrap();
        let mut w = a.world_mut().query_filtered::<&mut Window, With<PrimaryWindow>>();
        w.single_mut(a.world_mut()).unwrap().set_cursor_position(Some(px + area.rect.min));
        a.update();
        a.world().resource::<skirmish::game::input::CursorCell>().0
    };
    // The hero's chest: high enough that the ground behind is another square.
    let got = put(&mut a, Vec3::new(at.x as f32, 0.9, at.y as f32));
    assert!(got.is_some() && got != Some(at), "the hero's own token took the click: {got:?}");
    // Nor does any other friend's.
    let friends: Vec<GridPos> = {
        let b = a.world().resource::<Battle>();
        (0..b.combat.len() as u32)
            .map(skirmish::rules::components::Cid)
            .filter(|c| *c != hero && b.combat.get::<skirmish::rules::components::Side>(*c).cloned() == side)
            .map(|c| *b.combat.get::<GridPos>(c).unwrap())
            .collect()
    };
    assert!(!friends.is_empty());
    let mut behind = 0;
    for f in friends {
        // The square behind it, or none when behind it is off the board.
        let got = put(&mut a, Vec3::new(f.x as f32, 0.9, f.y as f32));
        assert_ne!(got, Some(f), "a friend's token at {f:?} took the click");
        behind += usize::from(got.is_some());
    }
    assert!(behind > 0, "every friend's ray left the board: nothing was tried");
    let got = put(&mut a, Vec3::new(enemy_at.x as f32, 0.9, enemy_at.y as f32));
    // That enemy, or one standing in front of it.
    let b = a.world().resource::<Battle>();
    let on = got.and_then(|g| b.creature_at(g));
    assert!(
        on.is_some_and(|c| b.combat.get::<skirmish::rules::components::Side>(c).cloned() != side),
        "an enemy's token was not picked: {got:?}"
    );
}
