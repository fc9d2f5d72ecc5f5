//! The 3D view of the battle (issue 23): the same board as [`super::view`], as a scene. A ground
//! of squares (mud its own material, with tufts so that it reads without colour), walls as
//! raised blocks, tokens as capsules on a base ring in their side's colour, the active
//! creature's ring, reachable, threatened and hovered squares as overlays on the ground, and
//! names, HP bars and condition badges drawn over the tokens facing the camera. The camera
//! orbits, tilts, zooms, pans, follows the creature whose turn it is and frames the whole board
//! in the space the HUD's panels leave.
//!
//! One battle, two views: this module reads the same [`Battle`], [`Playback`] (walks, lunges,
//! floating texts) and [`Highlights`] as the 2D board, and sets the same [`CursorCell`] the
//! player's clicks become `Command`s from. `V` switches at any moment. The camera's geometry
//! ([`Orbit`]) is plain math, so that picking and framing are tested without a GPU.

use bevy::camera::visibility::RenderLayers;
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::ActionState;

use super::app_state::{PlayOptions, Screen, Selection, ViewMode};
use super::battle::{Battle, Highlights, Playback};
use super::input::{CursorCell, GameAction, PlayerInput, PointerDrag, TypingInUi};
use super::view::{BannerRect, BoardArea, Float, badges_of, bounds, float_height, hp_fill, short, side_color, view_is};
use crate::i18n::Tr;
use crate::rules::components::{Cid, GridPos, Health, Side};

mod geometry;
pub use geometry::*;

/// The render layer of the labels and floating texts drawn over the 3D scene.
const LABEL_LAYER: usize = 1;

/// The camera's vertical field of view (radians).
pub const FOV: f32 = 0.8;

/// How high a wall block stands (a square is 1 × 1).
pub const WALL_HEIGHT: f32 = 0.9;

/// A standing token's height, and its half width for picking.
const TOKEN_HEIGHT: f32 = 1.1;
const TOKEN_HALF: f32 = 0.34;

/// The 3D view's plugin.
pub struct View3dPlugin;

/// The 3D camera's update (who sets the camera before it, such as the screenshots, runs before).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct View3dCamera;

impl Plugin for View3dPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Orbit>()
            .init_resource::<LabelSpots>()
            .add_systems(Startup, (initial_view, spawn_cameras3d))
            .add_systems(OnEnter(Screen::Battle), |mut commands: Commands| commands.remove_resource::<Board3dSpawned>())
            .add_systems(
                Update,
                (
                    toggle_view.run_if(in_state(Screen::Battle).or_else(in_state(Screen::End))),
                    switch_cameras3d.after(toggle_view),
                ),
            )
            .add_systems(
                Update,
                (
                    spawn_board3d.run_if(not(resource_exists::<Board3dSpawned>)),
                    camera3d.in_set(View3dCamera),
                    cursor_cell3d.before(super::input::handle_input),
                    (sync_tokens3d, paint_cells3d, labels3d, floats3d).after(super::battle::update_highlights),
                )
                    .chain()
                    // The end screen keeps the scene live: V, the camera and the last events.
                    .run_if(in_state(Screen::Battle).or_else(in_state(Screen::End)))
                    .run_if(view_is(ViewMode::ThreeD)),
            );
    }
}

/// The board of the current battle is in the scene, with its bounds in squares.
#[derive(Resource)]
struct Board3dSpawned(GridPos, GridPos);

/// Everything the 3D view puts in the scene or over it.
#[derive(Component)]
#[require(DespawnOnEnter::<Screen>(Screen::Start))]
struct Part3d;

/// The 3D scene's camera.
#[derive(Component)]
struct SceneCamera;

/// The camera that draws the labels and floating texts over the scene (window pixels).
#[derive(Component)]
struct LabelCamera;

/// The overlay over a square (reachable, threatened, hovered).
#[derive(Component)]
struct Overlay3d(GridPos);

/// A creature's token: its base ring stays flat, its body lies down when it is downed.
#[derive(Component)]
struct Token3d(Cid);

#[derive(Component)]
struct Body3d {
    side: Handle<StandardMaterial>,
}

#[derive(Component)]
struct Ring3d(Cid, bool);

/// The labels over a token, in window pixels: name, HP bar, badges.
#[derive(Component)]
struct Label3d(Cid);

#[derive(Component)]
struct Name3d(Cid);

#[derive(Component)]
struct Hp3d(Cid);

/// A token's HP bar, in window pixels just over its head.
#[derive(Component)]
struct HpTag3d(Cid);

/// Where each creature's name label was put this frame (window pixels, from the area's corner):
/// floating texts rise from above it.
#[derive(Resource, Default)]
struct LabelSpots(bevy::platform::collections::HashMap<Cid, Vec2>);

#[derive(Component)]
struct Badges3d(Cid);

/// The overlay materials: by (reachable, threatened, hovered).
#[derive(Resource)]
struct OverlayMaterials([Handle<StandardMaterial>; 8]);

/// Startup: the view the game starts in: `play --view`, else the settings file, else 2D.
fn initial_view(mut commands: Commands, options: Option<Res<PlayOptions>>) {
    let saved = crate::i18n::Settings::load(&super::app_state::saves_dir())
        .ok()
        .and_then(|s| s.view)
        .and_then(|v| ViewMode::from_code(&v));
    // A screenshot run takes the view it is given (2D unless `--view`), whatever the player's
    // settings say.
    let shots = options.as_ref().is_some_and(|o| o.screenshots.is_some());
    let mode = options.and_then(|o| o.view).or(saved.filter(|_| !shots)).unwrap_or_default();
    commands.insert_resource(mode);
}

/// Remember the view in the settings file of the saves folder `dir` (the other settings stay; a
/// file that does not read is left as it is, and says why).
pub(crate) fn remember_view(mode: ViewMode, dir: &std::path::Path) {
    match crate::i18n::Settings::load(dir) {
        Ok(mut s) if s.view.as_deref() != Some(mode.code()) => {
            s.view = Some(mode.code().to_string());
            if let Err(e) = s.save(dir) {
                warn!("the view was not remembered: {e}");
            }
        }
        Ok(_) => {}
        Err(e) => warn!("the view was not remembered: {e}"),
    }
}

fn spawn_cameras3d(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Camera { order: 0, is_active: false, ..default() },
        Projection::Perspective(PerspectiveProjection { fov: FOV, ..default() }),
        Orbit::default().transform(),
        SceneCamera,
    ));
    commands.spawn((
        Camera2d,
        Camera { order: 5, is_active: false, clear_color: ClearColorConfig::None, ..default() },
        RenderLayers::layer(LABEL_LAYER),
        LabelCamera,
    ));
    commands.spawn((
        DirectionalLight { illuminance: 7_000.0, shadow_maps_enabled: true, ..default() },
        Transform::from_xyz(-4.0, 12.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight { brightness: 450.0, ..default() });
}

/// `V`: the other view, mid-turn included; nothing else changes.
fn toggle_view(
    actions: Single<&ActionState<GameAction>, With<PlayerInput>>,
    typing: Res<TypingInUi>,
    mut mode: ResMut<ViewMode>,
) {
    if typing.0 || !actions.just_pressed(&GameAction::ToggleView) {
        return;
    }
    *mode = mode.toggled();
}

/// The scene's cameras draw in 3D only, the scene's into the free area.
fn switch_cameras3d(
    mode: Res<ViewMode>,
    area: Res<BoardArea>,
    mut scene: Query<&mut Camera, (With<SceneCamera>, Without<LabelCamera>)>,
    mut labels: Query<&mut Camera, (With<LabelCamera>, Without<SceneCamera>)>,
) {
    if !(mode.is_changed() || area.is_changed()) {
        return;
    }
    let on = *mode == ViewMode::ThreeD;
    for mut cam in &mut scene {
        if cam.is_active != on {
            cam.is_active = on;
        }
        cam.viewport = area.viewport();
    }
    for mut cam in &mut labels {
        if cam.is_active != on {
            cam.is_active = on;
        }
    }
}

fn spawn_board3d(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    old: Query<Entity, With<Part3d>>,
    area: Res<BoardArea>,
    mut orbit: ResMut<Orbit>,
) {
    let Some(battle) = battle else { return };
    for e in &old {
        commands.entity(e).despawn();
    }
    let (lo, hi) = bounds(&battle);
    commands.insert_resource(Board3dSpawned(lo, hi));
    orbit.frame(lo, hi, area.rect.size());
    let map = battle.combat.map().clone();
    let mat = |materials: &mut Assets<StandardMaterial>, c: Color, rough: f32| {
        materials.add(StandardMaterial { base_color: c, perceptual_roughness: rough, ..default() })
    };
    let floor = [
        mat(&mut materials, Color::srgb(0.30, 0.32, 0.35), 0.9),
        mat(&mut materials, Color::srgb(0.27, 0.29, 0.32), 0.9),
    ];
    let mud = mat(&mut materials, Color::srgb(0.33, 0.25, 0.15), 1.0);
    let tuft = mat(&mut materials, Color::srgb(0.45, 0.55, 0.28), 1.0);
    let stone = mat(&mut materials, Color::srgb(0.52, 0.48, 0.42), 0.8);
    let tile = meshes.add(Cuboid::new(0.96, 0.1, 0.96));
    let wall = meshes.add(Cuboid::new(1.0, WALL_HEIGHT, 1.0));
    let tuft_mesh = meshes.add(Cone { radius: 0.07, height: 0.2 });
    let overlay_mesh = meshes.add(Cuboid::new(0.94, 0.01, 0.94));
    let overlay = |materials: &mut Assets<StandardMaterial>, c: Color| {
        materials.add(StandardMaterial { base_color: c, unlit: true, alpha_mode: AlphaMode::Blend, ..default() })
    };
    // Indexed by reachable + 2 × threatened + 4 × hovered; the same colours as the 2D board.
    let mut overlays = Vec::new();
    for i in 0..8 {
        let (reach, threat, hover) = (i & 1 != 0, i & 2 != 0, i & 4 != 0);
        let c = match (reach, threat) {
            (true, true) => Color::srgba(0.75, 0.35, 0.85, 0.45),
            (true, false) => Color::srgba(0.25, 0.6, 1.0, 0.40),
            (false, true) => Color::srgba(1.0, 0.25, 0.2, 0.32),
            (false, false) => Color::srgba(1.0, 1.0, 1.0, 0.0),
        };
        let c = if hover { c.mix(&Color::srgba(1.0, 1.0, 1.0, 0.5), 0.5) } else { c };
        overlays.push(overlay(&mut materials, c));
    }
    let none = overlays[0].clone();
    commands.insert_resource(OverlayMaterials(overlays.try_into().expect("eight")));
    for y in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let p = GridPos { x, y };
            let at = Vec3::new(x as f32, 0.0, y as f32);
            let m = if map.difficult.contains(&p) { mud.clone() } else { floor[((x + y) & 1) as usize].clone() };
            commands.spawn((
                Mesh3d(tile.clone()),
                MeshMaterial3d(m),
                Transform::from_translation(at - Vec3::Y * 0.05),
                Part3d,
            ));
            if map.blocked.contains(&p) {
                commands.spawn((
                    Mesh3d(wall.clone()),
                    MeshMaterial3d(stone.clone()),
                    Transform::from_translation(at + Vec3::Y * WALL_HEIGHT / 2.0),
                    Part3d,
                ));
                continue;
            }
            if map.difficult.contains(&p) {
                // Tufts: mud reads by its shape too, not by colour alone.
                for (dx, dz) in [(-0.25, -0.2), (0.2, 0.15), (-0.05, 0.28), (0.3, -0.28), (-0.3, 0.22)] {
                    commands.spawn((
                        Mesh3d(tuft_mesh.clone()),
                        MeshMaterial3d(tuft.clone()),
                        Transform::from_translation(at + Vec3::new(dx, 0.1, dz)),
                        Part3d,
                    ));
                }
            }
            commands.spawn((
                Mesh3d(overlay_mesh.clone()),
                MeshMaterial3d(none.clone()),
                Transform::from_translation(at + Vec3::Y * 0.012),
                Visibility::Hidden,
                Overlay3d(p),
                Part3d,
            ));
        }
    }
    let body = meshes.add(Capsule3d::new(0.28, 0.5));
    let base = meshes.add(Torus::new(0.30, 0.40));
    let nose = meshes.add(Cuboid::new(0.12, 0.12, 0.2));
    let active_ring = meshes.add(Torus::new(0.42, 0.50));
    let target_ring = meshes.add(Torus::new(0.50, 0.58));
    let gold = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.84, 0.3),
        emissive: LinearRgba::rgb(0.6, 0.45, 0.1),
        ..default()
    });
    let orange = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.45, 0.15),
        emissive: LinearRgba::rgb(0.6, 0.2, 0.05),
        ..default()
    });
    let dark = mat(&mut materials, Color::srgb(0.08, 0.08, 0.1), 0.6);
    // One material per side, shared by its tokens.
    let mut fills: std::collections::BTreeMap<usize, Handle<StandardMaterial>> = Default::default();
    for i in 0..battle.combat.len() as u32 {
        let who = Cid(i);
        let side = battle.combat.get::<Side>(who).map(|s| s.0.clone()).unwrap_or_default();
        let idx = crate::hud_model::side_index(&battle.combat, &side);
        let fill = fills.entry(idx).or_insert_with(|| mat(&mut materials, side_color(idx), 0.5)).clone();
        commands.spawn((Token3d(who), Transform::default(), Visibility::default(), Part3d)).with_children(|t| {
            t.spawn((Mesh3d(base.clone()), MeshMaterial3d(fill.clone()), Transform::from_xyz(0.0, 0.03, 0.0)));
            t.spawn((
                Mesh3d(body.clone()),
                MeshMaterial3d(fill.clone()),
                Transform::from_xyz(0.0, 0.56, 0.0),
                Body3d { side: fill.clone() },
            ))
            .with_children(|b| {
                // A nose: which way the creature faces (towards its last step or strike).
                b.spawn((Mesh3d(nose.clone()), MeshMaterial3d(dark.clone()), Transform::from_xyz(0.0, 0.18, -0.27)));
            });
            t.spawn((
                Mesh3d(active_ring.clone()),
                MeshMaterial3d(gold.clone()),
                Transform::from_xyz(0.0, 0.04, 0.0),
                Visibility::Hidden,
                Ring3d(who, true),
            ));
            t.spawn((
                Mesh3d(target_ring.clone()),
                MeshMaterial3d(orange.clone()),
                Transform::from_xyz(0.0, 0.05, 0.0),
                Visibility::Hidden,
                Ring3d(who, false),
            ));
        });
        // The labels, in window pixels over the token (worded by `labels3d`): the HP bar stays
        // over the head; the name and badges move apart from their neighbours' when crowded.
        let layer = RenderLayers::layer(LABEL_LAYER);
        commands.spawn((HpTag3d(who), Transform::default(), Visibility::Hidden, layer.clone(), Part3d)).with_children(
            |l| {
                l.spawn((
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(44.0, 6.0)),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                    layer.clone(),
                ));
                l.spawn((
                    Sprite::from_color(Color::srgb(0.3, 0.85, 0.35), Vec2::new(44.0, 6.0)),
                    Anchor::CENTER_LEFT,
                    Transform::from_xyz(-22.0, 0.0, 0.15),
                    layer.clone(),
                    Hp3d(who),
                ));
            },
        );
        commands.spawn((Label3d(who), Transform::default(), Visibility::Hidden, layer.clone(), Part3d)).with_children(
            |l| {
                l.spawn((
                    Text2d::new(""),
                    TextFont { font_size: FontSize::Px(14.0), ..default() },
                    TextColor(Color::srgb(0.95, 0.95, 0.95)),
                    Transform::from_xyz(0.0, 0.0, 0.2),
                    layer.clone(),
                    Name3d(who),
                ));
                l.spawn((
                    Text2d::new(""),
                    TextFont { font_size: FontSize::Px(13.0), ..default() },
                    TextColor(Color::srgb(1.0, 0.85, 0.4)),
                    Transform::from_xyz(0.0, 16.0, 0.2),
                    layer.clone(),
                    Badges3d(who),
                ));
            },
        );
    }
}

/// The camera: keys (orbit Q/R, tilt Page Up/Down, pan WASD and arrows, zoom wheel and = -,
/// Home to frame the board), right-drag to orbit and tilt, middle-drag to pan; it follows the
/// creature whose turn it is, or keeps the whole board framed.
fn camera3d(
    actions: Single<&ActionState<GameAction>, With<PlayerInput>>,
    mut orbit: ResMut<Orbit>,
    board: Option<Res<Board3dSpawned>>,
    playback: Res<Playback>,
    area: Res<BoardArea>,
    time: Res<Time>,
    typing: Res<TypingInUi>,
    (mouse, motion, drag, egui): (
        Res<ButtonInput<MouseButton>>,
        Option<Res<AccumulatedMouseMotion>>,
        Res<PointerDrag>,
        Option<Res<bevy_egui::input::EguiWantsInput>>,
    ),
    (scroll, window, banner): (
        Option<Res<bevy::input::mouse::AccumulatedMouseScroll>>,
        Option<Single<&Window, With<PrimaryWindow>>>,
        Option<Res<BannerRect>>,
    ),
    mut cam: Query<&mut Transform, With<SceneCamera>>,
) {
    let dt = time.delta_secs();
    let size = area.rect.size();
    if size.x < 2.0 || size.y < 2.0 {
        // A minimised window: nothing to frame.
        return;
    }
    let window = window.as_deref().copied();
    // The wheel and drags belong to the board only when the pointer is over it (not over a
    // panel, the log, a window).
    let wheel_off = super::view::wheel_off_board(scroll.as_deref(), window, &area, banner.as_deref(), egui.as_deref());
    let on_board = !egui.as_deref().is_some_and(|e| e.wants_any_pointer_input())
        && window
            .and_then(|w| w.cursor_position())
            .is_some_and(|p| area.rect.contains(p) && !super::view::over_panel(banner.as_deref(), p));
    let mut o = *orbit;
    if !typing.0 {
        if actions.just_pressed(&GameAction::FrameBoard)
            && let Some(b) = &board
        {
            o.frame(b.0, b.1, size);
        }
        let turn = |a: GameAction| if actions.pressed(&a) { 1.0 } else { 0.0 };
        o.yaw += (turn(GameAction::OrbitRight) - turn(GameAction::OrbitLeft)) * 1.8 * dt;
        o.pitch += (turn(GameAction::TiltUp) - turn(GameAction::TiltDown)) * 1.0 * dt;
        if actions.just_pressed(&GameAction::ZoomIn) && !wheel_off {
            o.distance /= 1.15;
            o.framed = false;
        }
        if actions.just_pressed(&GameAction::ZoomOut) && !wheel_off {
            o.distance *= 1.15;
            o.framed = false;
        }
        // Pan along the ground, as the camera faces.
        let forward = Vec3::new(-o.yaw.sin(), 0.0, -o.yaw.cos());
        let right = Vec3::new(o.yaw.cos(), 0.0, -o.yaw.sin());
        let mut pan = Vec3::ZERO;
        pan += forward * (turn(GameAction::PanUp) - turn(GameAction::PanDown));
        pan += right * (turn(GameAction::PanRight) - turn(GameAction::PanLeft));
        if let Some(m) = motion.filter(|_| on_board) {
            if mouse.pressed(MouseButton::Right) && drag.right_dragged {
                o.yaw -= m.delta.x * 0.008;
                o.pitch += m.delta.y * 0.006;
            }
            if mouse.pressed(MouseButton::Middle) && m.delta != Vec2::ZERO {
                // The ground follows the pointer, about.
                o.focus += (-right * m.delta.x + forward * m.delta.y) * o.distance * 0.0015;
                o.manual = true;
                o.framed = false;
            }
        }
        if pan != Vec3::ZERO {
            o.focus += pan * 0.9 * o.distance * dt;
            o.manual = true;
            o.framed = false;
        }
    }
    o.pitch = o.pitch.clamp(Orbit::MIN_PITCH, Orbit::MAX_PITCH);
    if playback.focus != o.focus_seen {
        o.focus_seen = playback.focus;
        o.manual = false;
    }
    // Framed: the board's centre, from far enough (panels opening or closing change it), if the
    // board is small enough to read whole. Else the creature whose turn it is, unless the player
    // has taken the camera.
    let fit = board.as_ref().map(|b| (b, o.fit_distance_here(b.0, b.1, size))).filter(|(_, d)| *d <= Orbit::MAX_FRAME);
    let follow = || playback.focus.and_then(|c| playback.display.get(&c)).map(|p| square_point(*p));
    let (target, distance) = match fit {
        Some((b, d)) if o.framed => (Some(Orbit::centre(b.0, b.1)), Some(d)),
        None if o.framed => (follow(), Some(Orbit::FOLLOW)),
        _ if !o.manual => (follow(), None),
        _ => (None, None),
    };
    let k = (dt * 4.0).min(1.0);
    if let Some(t) = target {
        o.focus = o.focus.lerp(t, k);
    }
    if let Some(d) = distance {
        o.distance += (d - o.distance) * k;
    }
    o.distance = o.distance.clamp(2.5, 400.0);
    if o != *orbit {
        *orbit = o;
    }
    if let Ok(mut t) = cam.single_mut() {
        let want = o.transform();
        if *t != want {
            *t = want;
        }
    }
}

/// The square under the cursor, by a ray from the camera (before the input reads it).
fn cursor_cell3d(
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    banner: Option<Res<BannerRect>>,
    area: Res<BoardArea>,
    orbit: Res<Orbit>,
    battle: Option<Res<Battle>>,
    selection: Res<Selection>,
    mut cell: ResMut<CursorCell>,
) {
    let found = (|| {
        if egui.is_some_and(|e| e.wants_any_pointer_input()) {
            return None;
        }
        let pos = window?.cursor_position()?;
        if banner
            .is_some_and(|b| b.0.iter().any(|(l, t, r, bt)| pos.x >= *l && pos.x <= *r && pos.y >= *t && pos.y <= *bt))
            || !area.rect.contains(pos)
        {
            return None;
        }
        let battle = battle?;
        let ray = orbit.ray(pos - area.rect.min, area.rect.size());
        let tokens = clickable_tokens(&battle, &selection);
        Some(pick(&ray, &battle.combat.map().blocked, &tokens, !tokens.is_empty()))
    })()
    .flatten();
    if cell.0 != found {
        cell.0 = found;
    }
}

/// The creatures as picking sees them.
fn pick_tokens(battle: &Battle) -> Vec<PickToken> {
    let c = &battle.combat;
    (0..c.len() as u32)
        .map(Cid)
        .filter_map(|who| {
            let at = *c.get::<GridPos>(who)?;
            Some(PickToken { who, at, down: c.is_down(who) })
        })
        .collect()
}

/// The creatures a click now may mean: with an ability aimed at creatures, all of them; with
/// nothing chosen, the enemies of the creature whose turn it is (a click on one attacks it, a
/// click past a friend moves); with a movement or an area, none (the square is wanted).
fn clickable_tokens(battle: &Battle, selection: &Selection) -> Vec<PickToken> {
    let c = &battle.combat;
    match &selection.ability {
        Some(a) if c.ruleset().ability(a).is_some_and(|d| d.effect.targets_square()) => Vec::new(),
        Some(_) => pick_tokens(battle),
        None => {
            let mine = c.turn().active.and_then(|w| c.get::<Side>(w)).cloned();
            pick_tokens(battle).into_iter().filter(|k| c.get::<Side>(k.who).cloned() != mine).collect()
        }
    }
}

fn sync_tokens3d(
    battle: Option<Res<Battle>>,
    playback: Res<Playback>,
    hl: Res<Highlights>,
    mut tokens: Query<(&Token3d, &mut Transform, &Children)>,
    mut bodies: Query<(&Body3d, &mut Transform, &mut MeshMaterial3d<StandardMaterial>), Without<Token3d>>,
    mut rings: Query<(&Ring3d, &mut Visibility)>,
    mut grey: Local<Option<Handle<StandardMaterial>>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(battle) = battle else { return };
    let c = &battle.combat;
    let grey = grey
        .get_or_insert_with(|| {
            materials.add(StandardMaterial {
                base_color: Color::srgba(0.4, 0.4, 0.42, 0.6),
                alpha_mode: AlphaMode::Blend,
                ..default()
            })
        })
        .clone();
    for (tok, mut t, children) in &mut tokens {
        let Some(p) = playback.display.get(&tok.0) else { continue };
        let lunge = playback.lunge(tok.0);
        let at = square_point(*p + lunge);
        if t.translation != at {
            t.translation = at;
        }
        // Facing: the way it lunges, else the way it last walked.
        let mut face = lunge;
        if face == Vec2::ZERO
            && let Some((super::battle::Beat::Walk { who, from, to }, _)) = &playback.current
            && *who == tok.0
        {
            face = Vec2::new((to.x - from.x) as f32, (to.y - from.y) as f32);
        }
        if face != Vec2::ZERO {
            let want = Quat::from_rotation_y((-face.x).atan2(-face.y));
            if t.rotation != want {
                t.rotation = want;
            }
        }
        let is_down = c.is_down(tok.0);
        for child in children.iter() {
            if let Ok((b, mut bt, mut m)) = bodies.get_mut(child) {
                // Downed: lying on the ground, greyed and faded.
                let (want_t, want_m) = if is_down {
                    (Transform::from_xyz(0.0, 0.3, 0.0).with_rotation(Quat::from_rotation_x(-1.45)), grey.clone())
                } else {
                    (Transform::from_xyz(0.0, 0.56, 0.0), b.side.clone())
                };
                if *bt != want_t {
                    *bt = want_t;
                }
                if m.0 != want_m {
                    m.0 = want_m;
                }
            }
        }
    }
    for (ring, mut vis) in &mut rings {
        let on = if ring.1 { hl.active == Some(ring.0) } else { hl.targets.contains(&ring.0) };
        let want = if on { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}

fn paint_cells3d(
    hl: Res<Highlights>,
    cursor: Res<CursorCell>,
    battle: Option<Res<Battle>>,
    mats: Option<Res<OverlayMaterials>>,
    mut cells: Query<(&Overlay3d, &mut MeshMaterial3d<StandardMaterial>, &mut Visibility)>,
) {
    let Some(mats) = mats else { return };
    let human = battle.is_some_and(|b| b.human_waiting().is_some());
    for (o, mut m, mut vis) in &mut cells {
        let reach = hl.reachable.contains_key(&o.0);
        let threat = hl.threatened.contains(&o.0);
        let hover = human && cursor.0 == Some(o.0);
        let i = reach as usize + 2 * threat as usize + 4 * hover as usize;
        let want_vis = if i == 0 { Visibility::Hidden } else { Visibility::Inherited };
        if *vis != want_vis {
            *vis = want_vis;
        }
        if i != 0 && m.0 != mats.0[i] {
            m.0 = mats.0[i].clone();
        }
    }
}

/// A label's box around its anchor (window pixels, y down): the name and a line of badges above
/// it.
const LABEL_BOX: Vec2 = Vec2::new(84.0, 34.0);

/// Where labels go, nearest first (`wanted`: each creature and the point over its head): each at
/// its point, or moved up a step at a time until it covers none placed before it. A label still
/// covering another after two steps is left out (a crowd seen from afar shows its nearest
/// names, not a heap of them, and a name stays near its creature); the creature keeps its HP
/// bar, ring and colour.
pub(crate) fn place_labels(wanted: &[(Cid, Vec2)]) -> Vec<(Cid, Vec2)> {
    let step_size = Vec2::new(LABEL_BOX.x, LABEL_BOX.y * 0.9);
    // A hair's tolerance: a label moved exactly one step above another does not cover it.
    let covers = |a: Vec2, b: Vec2| (a.x - b.x).abs() < step_size.x - 0.01 && (a.y - b.y).abs() < step_size.y - 0.01;
    let cell = |p: Vec2| ((p.x / step_size.x).floor() as i32, (p.y / step_size.y).floor() as i32);
    // Placed labels by the cell of a grid as big as the box: only the 3 × 3 cells around can
    // cover a point (a thousand creatures stay cheap).
    let mut grid: bevy::platform::collections::HashMap<(i32, i32), Vec<Vec2>> = Default::default();
    let mut out: Vec<(Cid, Vec2)> = Vec::with_capacity(wanted.len());
    'label: for (who, at) in wanted {
        let mut p = *at;
        for step in 0..=2 {
            let (cx, cy) = cell(p);
            let top = (cx - 1..=cx + 1)
                .flat_map(|x| (cy - 1..=cy + 1).map(move |y| (x, y)))
                .filter_map(|k| grid.get(&k))
                .flatten()
                .filter(|q| covers(p, **q))
                .map(|q| q.y)
                .reduce(f32::min);
            match top {
                Some(_) if step == 2 => continue 'label,
                Some(top) => p.y = top - step_size.y,
                None => break,
            }
        }
        grid.entry(cell(p)).or_default().push(p);
        out.push((*who, p));
    }
    out
}

/// Window pixels (from the top left) as the label camera's coordinates.
fn to_label_space(p: Vec2, window: Vec2) -> Vec2 {
    Vec2::new(p.x - window.x / 2.0, window.y / 2.0 - p.y)
}

/// The labels over each token: where the token's head is drawn, nearer ones on top, in the
/// player's language.
fn labels3d(
    battle: Option<Res<Battle>>,
    playback: Res<Playback>,
    orbit: Res<Orbit>,
    area: Res<BoardArea>,
    (tr, fonts): (Res<Tr>, Option<Res<crate::game::language::BoardFonts>>),
    mut labels: Query<(&Label3d, &mut Transform, &mut Visibility), Without<HpTag3d>>,
    mut tags: Query<(&HpTag3d, &mut Transform, &mut Visibility), Without<Label3d>>,
    mut names: Query<(Ref<Name3d>, &mut Text2d, &mut TextFont), Without<Badges3d>>,
    mut badges: Query<(&Badges3d, &mut Text2d, &mut TextFont), Without<Name3d>>,
    mut bars: Query<(&Hp3d, &mut Transform, &mut Sprite), (Without<Label3d>, Without<HpTag3d>)>,
    mut spots: ResMut<LabelSpots>,
) {
    let Some(battle) = battle else { return };
    let c = &battle.combat;
    let size = area.rect.size();
    let view = orbit.projector(size);
    // Each token's head as drawn (area pixels) and its depth; none off the area or behind.
    let heads: bevy::platform::collections::HashMap<Cid, (Vec2, f32)> = playback
        .display
        .iter()
        .filter_map(|(who, p)| {
            let is_down = c.is_down(*who);
            let lift = if is_down { 0.5 } else { TOKEN_HEIGHT + 0.1 };
            let head = square_point(*p + playback.lunge(*who)) + Vec3::Y * lift;
            view.project(head).filter(|(px, _)| area.rect.contains(*px + area.rect.min)).map(|h| (*who, h))
        })
        .collect();
    let place = |t: &mut Transform, vis: &mut Visibility, at: Option<(Vec2, f32)>, lift: f32| {
        let want = match at {
            Some((px, depth)) => {
                let w = to_label_space(px + area.rect.min, area.window) + Vec2::Y * lift;
                // Nearer labels over farther ones.
                let at = w.extend(100.0 - depth.min(99.0));
                if t.translation != at {
                    t.translation = at;
                }
                Visibility::Inherited
            }
            None => Visibility::Hidden,
        };
        if *vis != want {
            *vis = want;
        }
    };
    // The HP bar just over the head, always.
    for (tag, mut t, mut vis) in &mut tags {
        place(&mut t, &mut vis, heads.get(&tag.0).copied(), 6.0);
    }
    // The names over the bars, nearest first; one that would cover a name already placed moves
    // up (creatures in melee stand close), or is left out.
    let mut wanted: Vec<(Cid, Vec2, f32)> = heads.iter().map(|(w, (p, d))| (*w, *p, *d)).collect();
    wanted.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
    let placed: bevy::platform::collections::HashMap<Cid, Vec2> =
        place_labels(&wanted.iter().map(|(w, p, _)| (*w, *p)).collect::<Vec<_>>()).into_iter().collect();
    for (l, mut t, mut vis) in &mut labels {
        let at = placed.get(&l.0).zip(heads.get(&l.0)).map(|(p, (_, d))| (*p, *d));
        place(&mut t, &mut vis, at, 20.0);
    }
    spots.0 = placed;
    for (n, mut text, mut font) in &mut names {
        if !(tr.is_changed() || n.is_added()) {
            continue;
        }
        let words = short(&c.name_in(n.0, tr.code()), 12);
        font.font = fonts.as_ref().map(|f| f.for_text(&words)).unwrap_or_default().into();
        text.0 = words;
    }
    for (b, mut text, mut font) in &mut badges {
        let s = badges_of(c, b.0, &tr);
        if text.0 != s {
            font.font = fonts.as_ref().map(|f| f.for_text(&s)).unwrap_or_default().into();
            text.0 = s;
        }
    }
    for (bar, mut t, mut s) in &mut bars {
        let Some(h) = c.get::<Health>(bar.0) else { continue };
        let (f, want) = hp_fill(h);
        if t.scale.x != f.max(0.001) {
            t.scale.x = f.max(0.001);
        }
        if s.color != want {
            s.color = want;
        }
    }
}

/// Damage numbers and the like over the token's head, rising (the 2D view's rules for stacking).
fn floats3d(
    mut commands: Commands,
    playback: Res<Playback>,
    orbit: Res<Orbit>,
    area: Res<BoardArea>,
    spots: Res<LabelSpots>,
    existing: Query<(&Float, &Transform), With<Part3d>>,
    battle: Option<Res<Battle>>,
    tr: Res<Tr>,
    fonts: Option<Res<crate::game::language::BoardFonts>>,
) {
    let mut placed: Vec<(f32, f32)> = Vec::new();
    let rs = battle.as_ref().map(|b| b.combat.ruleset());
    let view = orbit.projector(area.rect.size());
    for (who, text, rgb) in playback.floats.iter() {
        let Some(p) = playback.display.get(who) else { continue };
        let Some((head, _)) = view.project(square_point(*p) + Vec3::Y * (TOKEN_HEIGHT + 0.1)) else {
            continue;
        };
        // Above the creature's name label (wherever crowding moved it), else above its head.
        let at = to_label_space(head + area.rect.min, area.window);
        let top = spots.0.get(who).map_or(at.y + 30.0, |s| to_label_space(*s + area.rect.min, area.window).y + 48.0);
        let base = top.max(at.y + 30.0);
        let near = |x: f32| (x - at.x).abs() < 90.0;
        let rising = existing
            .iter()
            .filter(|(f, t)| f.age < 1.0 && near(t.translation.x))
            .map(|(_, t)| t.translation.y)
            .chain(placed.iter().filter(|(x, _)| near(*x)).map(|(_, y)| *y));
        let y = float_height(base, rising);
        placed.push((at.x, y));
        let words = text.words(rs, &tr);
        let font = fonts.as_ref().map(|f| f.for_text(&words)).unwrap_or_default();
        commands.spawn((
            Text2d::new(words),
            TextFont { font: font.into(), font_size: FontSize::Px(20.0), ..default() },
            TextColor(Color::srgb(rgb[0], rgb[1], rgb[2])),
            super::view::float_plate(),
            Transform::from_xyz(at.x, y, 150.0),
            RenderLayers::layer(LABEL_LAYER),
            Float { age: 0.0 },
            Part3d,
        ));
    }
}

#[cfg(test)]
mod tests;
