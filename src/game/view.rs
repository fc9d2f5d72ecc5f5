//! The board: squares coloured by terrain, tokens with side colour, name, HP bar and condition
//! badges, highlights (whose turn, where the chosen movement reaches, valid targets, squares
//! where leaving provokes), floating numbers, and a camera that pans, zooms and follows the
//! creature whose turn it is. It only reads the battle; it never changes rules state.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{ScalingMode, Viewport};
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::ActionState;

use super::app_state::{Screen, ViewMode};
use super::battle::{Battle, Highlights, Playback};
use super::input::{CursorCell, GameAction, PlayerInput};
use crate::i18n::Tr;
use crate::rules::components::{Cid, Conditions, GridPos, Health, Side};

/// The screen rectangles (logical pixels: left, top, right, bottom) the HUD's panels cover: the
/// board ignores the pointer there.
#[derive(Resource, Debug, Default, Clone)]
pub struct BannerRect(pub Vec<(f32, f32, f32, f32)>);

/// Pixels per square.
pub const CELL: f32 = 64.0;

/// The board's plugin.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_camera)
            .init_resource::<BoardArea>()
            // The board stays on screen behind the end screen; a new battle replaces it.
            .add_systems(OnEnter(Screen::Battle), |mut commands: Commands| commands.remove_resource::<BoardSpawned>())
            .add_systems(
                Update,
                (
                    spawn_board.run_if(not(resource_exists::<BoardSpawned>)).before(sync_tokens),
                    (cursor_cell.before(super::input::handle_input), camera_control.after(board_area))
                        .run_if(view_is(ViewMode::TwoD)),
                    (sync_tokens, paint_cells, spawn_floats)
                        .after(super::battle::update_highlights)
                        .run_if(view_is(ViewMode::TwoD)),
                    relabel_tokens.after(spawn_board),
                )
                    // The end screen keeps the board live: V, the camera and the last events.
                    .run_if(in_state(Screen::Battle).or_else(in_state(Screen::End))),
            )
            .add_systems(Update, (board_area, switch_cameras.after(board_area)))
            .add_systems(Update, move_floats);
    }
}

/// The centre of a square in world coordinates (row 0 at the top).
pub fn to_world(p: Vec2) -> Vec2 {
    Vec2::new(p.x * CELL, -p.y * CELL)
}

/// The square under a world position.
pub(crate) fn to_cell(w: Vec2) -> GridPos {
    GridPos { x: (w.x / CELL).round() as i32, y: (-w.y / CELL).round() as i32 }
}

/// The camera of the 2D board. It draws into [`BoardArea`], the space the HUD's panels leave.
#[derive(Component)]
struct MainCamera;

/// The camera egui draws with: the whole window, after the board's cameras, seeing no board
/// (its render layer is [`UI_LAYER`]), so that switching views never touches the HUD.
#[derive(Component)]
pub(crate) struct UiCamera;

/// The render layer nothing but the HUD's camera looks at.
pub(crate) const UI_LAYER: usize = 31;

/// The screen's free area: the window less the HUD's panels, in logical pixels (issue 23, fault
/// 1: the board was under the right panel). Both views' cameras draw into it and frame the
/// board in it.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BoardArea {
    /// The free rectangle (logical pixels, origin top left).
    pub rect: Rect,
    /// The window's logical size.
    pub window: Vec2,
    /// Physical pixels per logical one.
    pub scale: f32,
}

impl Default for BoardArea {
    fn default() -> Self {
        let window = Vec2::new(1280.0, 800.0);
        BoardArea { rect: Rect::from_corners(Vec2::ZERO, window), window, scale: 1.0 }
    }
}

impl BoardArea {
    /// The camera viewport for this area (none: the whole window).
    pub(crate) fn viewport(&self) -> Option<Viewport> {
        if self.rect.min == Vec2::ZERO && self.rect.max == self.window {
            return None;
        }
        let lo = (self.rect.min * self.scale).round().max(Vec2::ZERO);
        let hi = (self.rect.max * self.scale).round().min(self.window * self.scale);
        let size = (hi - lo).max(Vec2::ONE);
        Some(Viewport { physical_position: lo.as_uvec2(), physical_size: size.as_uvec2(), ..default() })
    }
}

/// The free area of a window of `window` logical pixels once `panels` (left, top, right, bottom)
/// are drawn: a panel across the window takes its height from the top or the bottom (whichever
/// half it lies in: segments' timeline sits under the banner, not at the window's top edge), one
/// against the left or right edge its width. Too little left (under 240 × 160): the whole window.
pub fn free_area(window: Vec2, panels: &[(f32, f32, f32, f32)]) -> Rect {
    let (mut l, mut t, mut r, mut b) = (0.0f32, 0.0f32, window.x, window.y);
    let near = |a: f32, b: f32| (a - b).abs() <= 2.0;
    for &(pl, pt, pr, pb) in panels {
        let across = near(pl, 0.0) && near(pr, window.x);
        if across && pt + pb <= window.y {
            t = t.max(pb);
        } else if across {
            b = b.min(pt);
        } else if near(pl, 0.0) {
            l = l.max(pr);
        } else if near(pr, window.x) {
            r = r.min(pl);
        } else if near(pt, 0.0) {
            // A banner that stops short of an edge still covers the top.
            t = t.max(pb);
        }
    }
    if r - l < 240.0 || b - t < 160.0 {
        return Rect::from_corners(Vec2::ZERO, window);
    }
    Rect::from_corners(Vec2::new(l, t), Vec2::new(r, b))
}

/// The zoom (orthographic scale) at which a board of `size` squares fills `area` (logical
/// pixels) with a little margin; the 2D camera shows [`VIEW_ROWS`] squares' height at scale 1.
pub fn fit_scale(size: Vec2, area: Vec2) -> f32 {
    let aspect = area.x / area.y.max(1.0);
    let need_h = (size.y + 0.6) * CELL;
    let need_w = (size.x + 0.6) * CELL;
    (need_h / (VIEW_ROWS * CELL)).max(need_w / (VIEW_ROWS * CELL * aspect)).clamp(0.35, 4.0)
}

/// How many squares' height the 2D camera shows at zoom 1.
pub const VIEW_ROWS: f32 = 14.0;

/// Keep [`BoardArea`] to the window and the panels drawn last frame.
fn board_area(
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    banner: Option<Res<BannerRect>>,
    screen: Option<Res<State<Screen>>>,
    mut area: ResMut<BoardArea>,
) {
    let Some(window) = window else { return };
    let size = Vec2::new(window.width(), window.height());
    // The start screen has no panels: the board (from the last battle) is not shown then anyway.
    let panels = match (screen, banner) {
        (Some(s), Some(b)) if *s.get() != Screen::Start => b.0.clone(),
        _ => Vec::new(),
    };
    let next = BoardArea { rect: free_area(size, &panels), window: size, scale: window.scale_factor() };
    if *area != next {
        *area = next;
    }
}

/// Which view's camera draws (the 2D board's or the 3D scene's), into the free area.
fn switch_cameras(mode: Res<ViewMode>, area: Res<BoardArea>, mut board: Query<&mut Camera, With<MainCamera>>) {
    if !(mode.is_changed() || area.is_changed()) {
        return;
    }
    for mut cam in &mut board {
        let on = *mode == ViewMode::TwoD;
        if cam.is_active != on {
            cam.is_active = on;
        }
        cam.viewport = area.viewport();
    }
}

/// A run condition: the board is drawn in this view.
pub(crate) fn view_is(mode: ViewMode) -> impl Fn(Option<Res<ViewMode>>) -> bool + Clone {
    move |m: Option<Res<ViewMode>>| m.map_or(mode == ViewMode::TwoD, |m| *m == mode)
}

/// The board of the current battle is on screen, with its bounds in squares.
#[derive(Resource)]
struct BoardSpawned(GridPos, GridPos);

/// Everything the board puts on screen: gone when the start screen returns or a battle begins.
#[derive(Component)]
#[require(DespawnOnEnter::<Screen>(Screen::Start))]
struct BoardPart;

/// A square of the board.
#[derive(Component)]
pub struct Tile(pub GridPos);

/// The highlight over a square.
#[derive(Component)]
struct TileOverlay(GridPos);

/// A creature's token.
#[derive(Component)]
pub struct Token(pub Cid);

/// A token's side colour, restored if a downed creature gets up again.
#[derive(Component)]
struct SideColor(Color);

#[derive(Component)]
struct HpBar(Cid);

#[derive(Component)]
struct Badges(Cid);

#[derive(Component)]
struct Ring(Cid, RingKind);

#[derive(Clone, Copy, PartialEq, Eq)]
enum RingKind {
    Active,
    Target,
}

/// A floating text (a damage number, "miss"): it rises and fades ([`move_floats`]), in either
/// view.
#[derive(Component)]
pub(crate) struct Float {
    pub(crate) age: f32,
}

/// The camera's own state: whether the player took over from follow, and whether the whole
/// board is framed (at the start, after Home; zooming leaves it).
#[derive(Resource)]
struct CameraState {
    manual: f32,
    focus_seen: Option<Cid>,
    framed: bool,
}

impl Default for CameraState {
    fn default() -> Self {
        CameraState { manual: 0.0, focus_seen: None, framed: true }
    }
}

fn spawn_camera(mut commands: Commands) {
    // egui's camera first: the HUD over whichever view draws the board.
    commands.spawn((
        Camera2d,
        Camera { order: 10, clear_color: ClearColorConfig::None, ..default() },
        RenderLayers::layer(UI_LAYER),
        UiCamera,
        bevy_egui::PrimaryEguiContext,
    ));
    commands.spawn((
        Camera2d,
        Camera { order: 0, ..default() },
        MainCamera,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::FixedVertical { viewport_height: VIEW_ROWS * CELL },
            ..OrthographicProjection::default_2d()
        }),
    ));
    commands.init_resource::<CameraState>();
}

/// Side colours: the first side blue, the second red, then others; the HUD's dots take theirs
/// from the same table ([`crate::hud_model::side_rgb`]).
pub(crate) fn side_color(index: usize) -> Color {
    let [r, g, b] = crate::hud_model::side_rgb(index);
    Color::srgb_u8(r, g, b)
}

/// The board's bounds in squares: the map's, or around the combatants on an open map.
pub fn bounds(battle: &Battle) -> (GridPos, GridPos) {
    let map = battle.combat.map();
    if map.width > 0 && map.height > 0 {
        return (GridPos { x: 0, y: 0 }, GridPos { x: map.width - 1, y: map.height - 1 });
    }
    let ps: Vec<GridPos> =
        (0..battle.combat.len() as u32).filter_map(|i| battle.combat.get::<GridPos>(Cid(i)).copied()).collect();
    let (minx, maxx) = (ps.iter().map(|p| p.x).min().unwrap_or(0), ps.iter().map(|p| p.x).max().unwrap_or(0));
    let (miny, maxy) = (ps.iter().map(|p| p.y).min().unwrap_or(0), ps.iter().map(|p| p.y).max().unwrap_or(0));
    (GridPos { x: minx - 3, y: miny - 3 }, GridPos { x: maxx + 3, y: maxy + 3 })
}

fn spawn_board(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut cam: Query<&mut Transform, With<MainCamera>>,
    old: Query<Entity, With<BoardPart>>,
) {
    let Some(battle) = battle else { return };
    for e in &old {
        commands.entity(e).despawn();
    }
    let (lo, hi) = bounds(&battle);
    commands.insert_resource(BoardSpawned(lo, hi));
    let map = battle.combat.map().clone();
    for y in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let p = GridPos { x, y };
            let shade = if (x + y) % 2 == 0 { 0.0 } else { 0.015 };
            let color = if map.blocked.contains(&p) {
                Color::srgb(0.22, 0.20, 0.18)
            } else if map.difficult.contains(&p) {
                Color::srgb(0.20 + shade, 0.27 + shade, 0.17 + shade)
            } else {
                Color::srgb(0.15 + shade, 0.17 + shade, 0.19 + shade)
            };
            let at = to_world(Vec2::new(x as f32, y as f32));
            commands.spawn((
                Sprite::from_color(color, Vec2::splat(CELL - 2.0)),
                Transform::from_translation(at.extend(0.0)),
                Tile(p),
                BoardPart,
            ));
            if map.blocked.contains(&p) {
                // A raised block: a lighter top face.
                commands.spawn((
                    Sprite::from_color(Color::srgb(0.34, 0.31, 0.27), Vec2::new(CELL - 12.0, CELL - 16.0)),
                    Transform::from_translation((at + Vec2::new(0.0, 3.0)).extend(0.1)),
                    BoardPart,
                ));
            } else if map.difficult.contains(&p) {
                for (dx, dy) in [(-12.0, -10.0), (8.0, 6.0), (-4.0, 12.0), (14.0, -12.0)] {
                    commands.spawn((
                        Sprite::from_color(Color::srgb(0.36, 0.46, 0.26), Vec2::new(6.0, 10.0)),
                        Transform::from_translation((at + Vec2::new(dx, dy)).extend(0.1)),
                        BoardPart,
                    ));
                }
            }
            commands.spawn((
                Sprite::from_color(Color::NONE, Vec2::splat(CELL - 2.0)),
                Transform::from_translation(at.extend(0.2)),
                TileOverlay(p),
                BoardPart,
            ));
        }
    }
    // Within a square, top to bottom: condition badges, the token, its HP bar, its name.
    let circle = meshes.add(Circle::new(CELL * 0.28));
    let ring = meshes.add(Annulus::new(CELL * 0.31, CELL * 0.37));
    let gold = materials.add(Color::srgb(1.0, 0.84, 0.3));
    let orange = materials.add(Color::srgb(1.0, 0.45, 0.15));
    for i in 0..battle.combat.len() as u32 {
        let who = Cid(i);
        let side = battle.combat.get::<Side>(who).map(|s| s.0.clone()).unwrap_or_default();
        let idx = crate::hud_model::side_index(&battle.combat, &side);
        let name = battle.combat.name(who);
        let fill = materials.add(side_color(idx));
        commands
            .spawn((
                Token(who),
                SideColor(side_color(idx)),
                Mesh2d(circle.clone()),
                MeshMaterial2d(fill),
                Transform::from_xyz(0.0, 0.0, 2.0),
                BoardPart,
            ))
            .with_children(|t| {
                t.spawn((
                    Mesh2d(ring.clone()),
                    MeshMaterial2d(gold.clone()),
                    Transform::from_xyz(0.0, 0.0, -0.05),
                    Ring(who, RingKind::Active),
                ));
                t.spawn((
                    Mesh2d(ring.clone()),
                    MeshMaterial2d(orange.clone()),
                    Transform::from_xyz(0.0, 0.0, -0.04),
                    Ring(who, RingKind::Target),
                ));
                // Worded by `relabel_tokens` in the player's language.
                t.spawn((
                    Text2d::new(initials(&name)),
                    TextFont { font_size: FontSize::Px(15.0), ..default() },
                    TextColor(Color::srgb(0.05, 0.05, 0.08)),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                    TokenLabel { who, initials: true },
                ));
                t.spawn((
                    Text2d::new(short(&name, 9)),
                    TextFont { font_size: FontSize::Px(10.0), ..default() },
                    TextColor(Color::srgb(0.92, 0.92, 0.92)),
                    Transform::from_xyz(0.0, -CELL * 0.44, 0.3),
                    TokenLabel { who, initials: false },
                ));
                t.spawn((
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(CELL * 0.62, 4.0)),
                    Transform::from_xyz(0.0, -CELL * 0.33, 0.3),
                ));
                t.spawn((
                    Sprite::from_color(Color::srgb(0.3, 0.85, 0.35), Vec2::new(CELL * 0.62, 4.0)),
                    Anchor::CENTER_LEFT,
                    Transform::from_xyz(-CELL * 0.31, -CELL * 0.33, 0.35),
                    HpBar(who),
                ));
                t.spawn((
                    Text2d::new(""),
                    TextFont { font_size: FontSize::Px(9.0), ..default() },
                    TextColor(Color::srgb(1.0, 0.85, 0.4)),
                    Transform::from_xyz(0.0, CELL * 0.40, 0.3),
                    Badges(who),
                ));
            });
    }
    if let Ok(mut t) = cam.single_mut() {
        let c = to_world(Vec2::new((lo.x + hi.x) as f32 / 2.0, (lo.y + hi.y) as f32 / 2.0));
        t.translation = c.extend(t.translation.z);
    }
    // A new board is framed whole (issue 23, fault 1).
    commands.insert_resource(CameraState::default());
}

/// A name cut to fit over a square.
pub(crate) fn short(name: &str, n: usize) -> String {
    if name.chars().count() <= n {
        name.to_string()
    } else {
        format!("{}.", name.chars().take(n - 1).collect::<String>())
    }
}

/// A creature's condition badges, its defeat left out, in the language of `tr` (`DP F2`).
pub(crate) fn badges_of(c: &crate::rules::driver::Combat, who: Cid, tr: &Tr) -> String {
    let down = &c.ruleset().defeated_condition;
    c.get::<Conditions>(who)
        .map(|k| {
            k.0.iter()
                .filter(|(id, _)| *id != down)
                // The initials of the condition's name in the player's language.
                .map(|(id, st)| badge(&crate::hud_model::log::condition_name(c.ruleset(), tr, id), st.value))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// How full an HP bar is (0..1) and its colour: green, then amber under 60%, red under 30%.
pub(crate) fn hp_fill(h: &Health) -> (f32, Color) {
    let f = (h.hp.max(0) as f32 / h.max.max(1) as f32).clamp(0.0, 1.0);
    let colour = if f > 0.6 {
        Color::srgb(0.3, 0.85, 0.35)
    } else if f > 0.3 {
        Color::srgb(0.95, 0.75, 0.2)
    } else {
        Color::srgb(0.95, 0.3, 0.25)
    };
    (f, colour)
}

/// A condition as a badge: the initials of its name, and its value when it has one
/// (`frightened` 2 → `F2`, `posición defensiva` → `PD`, `무방비` → `무`).
pub(crate) fn badge(name: &str, value: i32) -> String {
    let letters: String =
        name.split(['_', ' ', '-']).filter_map(|w| w.chars().next()).collect::<String>().to_uppercase();
    if value > 1 { format!("{letters}{value}") } else { letters }
}

/// A token's name or initials, worded in the player's language.
#[derive(Component, Debug, Clone, Copy)]
pub(crate) struct TokenLabel {
    who: Cid,
    initials: bool,
}

/// The tokens' names in the player's language (the encounter's `names`), with the Hangul font
/// for a name that needs it: when the board is new or the language changes.
fn relabel_tokens(
    tr: Res<Tr>,
    battle: Option<Res<Battle>>,
    fonts: Option<Res<crate::game::language::BoardFonts>>,
    mut labels: Query<(Ref<TokenLabel>, &mut Text2d, &mut TextFont)>,
) {
    let Some(battle) = battle else { return };
    for (label, mut text, mut font) in &mut labels {
        if !(tr.is_changed() || label.is_added()) {
            continue;
        }
        let name = battle.combat.name_in(label.who, tr.code());
        let words = if label.initials {
            // Initials of Hangul are whole syllables: one reads better than two.
            let i = initials(&name);
            if i.chars().any(|c| c as u32 > 0x024F) { i.chars().take(1).collect() } else { i }
        } else {
            short(&name, 9)
        };
        font.font = fonts.as_ref().map(|f| f.for_text(&words)).unwrap_or_default().into();
        text.0 = words;
    }
}

pub(crate) fn initials(name: &str) -> String {
    name.split_whitespace().filter_map(|w| w.chars().next()).take(2).collect::<String>().to_uppercase()
}

/// The creatures whose name and badges are not drawn because another lies or stands on their
/// square: a downed creature under a standing one (whose token covers its own), and of several
/// downed on one square all but the last in id order. Both names would run into each other.
pub(crate) fn names_hidden(c: &crate::rules::driver::Combat) -> std::collections::BTreeSet<Cid> {
    // Who shows on each square: the one standing, else the downed one with the highest id.
    let mut shown: std::collections::BTreeMap<GridPos, Cid> = Default::default();
    for w in (0..c.len() as u32).map(Cid) {
        let Some(p) = c.get::<GridPos>(w) else { continue };
        match shown.get(p) {
            Some(&o) if !c.is_down(o) => {}
            _ => {
                shown.insert(*p, w);
            }
        }
    }
    (0..c.len() as u32).map(Cid).filter(|w| c.get::<GridPos>(*w).is_some_and(|p| shown.get(p) != Some(w))).collect()
}

fn sync_tokens(
    battle: Option<Res<Battle>>,
    playback: Res<Playback>,
    hl: Res<Highlights>,
    mut tokens: Query<(&Token, &SideColor, &mut Transform, &MeshMaterial2d<ColorMaterial>)>,
    mut bars: Query<(&HpBar, &mut Transform, &mut Sprite), Without<Token>>,
    mut badges: Query<(&Badges, &mut Text2d, &mut TextFont)>,
    mut rings: Query<(&Ring, &mut Visibility)>,
    mut names: Query<(&TokenLabel, &mut Visibility), Without<Ring>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    (tr, fonts): (Res<Tr>, Option<Res<crate::game::language::BoardFonts>>),
) {
    let Some(battle) = battle else { return };
    let c = &battle.combat;
    for (tok, side, mut t, mat) in &mut tokens {
        if let Some(p) = playback.display.get(&tok.0) {
            let w = to_world(*p + playback.lunge(tok.0));
            t.translation.x = w.x;
            t.translation.y = w.y + CELL * 0.04;
        }
        let is_down = c.is_down(tok.0);
        t.translation.z = if is_down { 1.5 } else { 2.0 };
        let want = if is_down { Color::srgb(0.35, 0.35, 0.38) } else { side.0 };
        if materials.get(&mat.0).is_some_and(|m| m.color != want)
            && let Some(mut m) = materials.get_mut(&mat.0)
        {
            m.color = want;
        }
    }
    for (bar, mut t, mut s) in &mut bars {
        let Some(h) = c.get::<Health>(bar.0) else { continue };
        let (f, colour) = hp_fill(h);
        t.scale.x = f.max(0.001);
        s.color = colour;
    }
    let hidden = names_hidden(c);
    for (label, mut vis) in &mut names {
        let want =
            if !label.initials && hidden.contains(&label.who) { Visibility::Hidden } else { Visibility::Inherited };
        if *vis != want {
            *vis = want;
        }
    }
    for (b, mut text, mut font) in &mut badges {
        let s = if hidden.contains(&b.0) { String::new() } else { badges_of(c, b.0, &tr) };
        if text.0 != s {
            font.font = fonts.as_ref().map(|f| f.for_text(&s)).unwrap_or_default().into();
            text.0 = s;
        }
    }
    for (ring, mut vis) in &mut rings {
        let on = match ring.1 {
            RingKind::Active => hl.active == Some(ring.0),
            RingKind::Target => hl.targets.contains(&ring.0),
        };
        let want = if on { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}

fn paint_cells(
    hl: Res<Highlights>,
    cursor: Res<CursorCell>,
    battle: Option<Res<Battle>>,
    mut cells: Query<(&TileOverlay, &mut Sprite)>,
) {
    // The hovered square shows only when a person is to act.
    let human = battle.is_some_and(|b| b.human_waiting().is_some());
    for (o, mut s) in &mut cells {
        let reach = hl.reachable.contains_key(&o.0);
        let threat = hl.threatened.contains(&o.0);
        let hover = human && cursor.0 == Some(o.0);
        let color = match (reach, threat) {
            (true, true) => Color::srgba(0.75, 0.35, 0.85, 0.24),
            (true, false) => Color::srgba(0.25, 0.6, 1.0, 0.20),
            (false, true) => Color::srgba(1.0, 0.25, 0.2, 0.14),
            (false, false) => Color::NONE,
        };
        let color = if hover { color.mix(&Color::srgba(1.0, 1.0, 1.0, 0.35), 0.5) } else { color };
        if s.color != color {
            s.color = color;
        }
    }
}

/// The height of one floating text line, with a gap: a line of 18–20 px text in Bevy's font or
/// Nanum Gothic (Hangul's is taller: at 22 Korean floats touched, issue 23).
pub(crate) const FLOAT_LINE: f32 = 26.0;

/// How far apart (in x) two floating texts must be not to collide: about the width of the widest
/// ("attack 13", "frightened") at 18 px.
pub(crate) const FLOAT_WIDTH: f32 = CELL * 1.6;

/// Where a new floating text over a creature goes: the lowest line at or above the token's top
/// edge that no text still rising near it (its own or a neighbour's) is within a line of (those drift up as they age, so
/// counting them is not enough: issue 23 saw "dying" drawn over "down" and over the token's
/// initial). Lines free up as older texts rise, so a creature hit many times does not build an
/// ever higher column.
pub(crate) fn float_height(base: f32, rising: impl Iterator<Item = f32>) -> f32 {
    let taken: Vec<f32> = rising.collect();
    let mut y = base;
    // At most one step per text: each step clears the text that blocked it.
    for _ in 0..=taken.len() {
        match taken
            .iter()
            .filter(|t| (**t - y).abs() < FLOAT_LINE)
            .fold(None, |m: Option<f32>, t| Some(m.map_or(*t, |m| m.max(*t))))
        {
            Some(t) => y = t + FLOAT_LINE,
            None => break,
        }
    }
    y
}

/// Where across a new floating text over a creature standing at `x` goes: over it, or, at the
/// board's edge, moved in just enough that a text as wide as the widest stays over the board
/// (`board`: its left and right edges). Centred over a creature in the edge column, "attack 21"
/// ran a third of a square off the board, up to the turn-order panel.
pub(crate) fn float_x(x: f32, board: (f32, f32)) -> f32 {
    let (lo, hi) = (board.0 + FLOAT_WIDTH / 2.0, board.1 - FLOAT_WIDTH / 2.0);
    if lo > hi {
        // A board narrower than a text: over the creature.
        return x;
    }
    x.clamp(lo, hi)
}

fn spawn_floats(
    mut commands: Commands,
    playback: Res<Playback>,
    existing: Query<(&Float, &Transform)>,
    battle: Option<Res<Battle>>,
    board: Option<Res<BoardSpawned>>,
    tr: Res<Tr>,
    fonts: Option<Res<crate::game::language::BoardFonts>>,
) {
    // Texts spawned this frame, with their x (they are not in the query yet).
    let mut placed: Vec<(f32, f32)> = Vec::new();
    let rs = battle.as_ref().map(|b| b.combat.ruleset());
    // The board's left and right edges.
    let edges = board.map(|b| {
        (to_world(Vec2::new(b.0.x as f32, 0.0)).x - CELL / 2.0, to_world(Vec2::new(b.1.x as f32, 0.0)).x + CELL / 2.0)
    });
    for (who, text, rgb) in playback.floats.iter() {
        let Some(p) = playback.display.get(who) else { continue };
        let at = to_world(*p);
        let at = Vec2::new(edges.map_or(at.x, |e| float_x(at.x, e)), at.y);
        let base = at.y + CELL * 0.5 + 4.0;
        // Texts still rising near this square, whoever they are over: a text is wider than a
        // square, so a neighbour's "attack 13" would run into this creature's "miss".
        let near = |x: f32| (x - at.x).abs() < FLOAT_WIDTH;
        let rising = existing
            .iter()
            .filter(|(f, t)| f.age < 1.0 && near(t.translation.x))
            .map(|(_, t)| t.translation.y)
            .chain(placed.iter().filter(|(x, _)| near(*x)).map(|(_, y)| *y));
        let y = float_height(base, rising);
        placed.push((at.x, y));
        let w = Vec2::new(at.x, y);
        let words = text.words(rs, &tr);
        // Hangul needs the Hangul font; Latin keeps Bevy's own.
        let font = fonts.as_ref().map(|f| f.for_text(&words)).unwrap_or_default();
        commands.spawn((
            Text2d::new(words),
            TextFont { font: font.into(), font_size: FontSize::Px(18.0), ..default() },
            TextColor(Color::srgb(rgb[0], rgb[1], rgb[2])),
            float_plate(),
            Transform::from_translation(w.extend(5.0)),
            Float { age: 0.0 },
            BoardPart,
        ));
    }
}

/// How opaque the dark plate behind a floating text is when it appears: a text that rises over
/// a neighbour's token or name stays readable (issue 23, fault 4).
const PLATE_ALPHA: f32 = 0.75;

/// The dark plate behind a floating text, in either view.
pub(crate) fn float_plate() -> bevy::text::TextBackgroundColor {
    bevy::text::TextBackgroundColor(Color::srgba(0.05, 0.06, 0.08, PLATE_ALPHA))
}

fn move_floats(
    mut commands: Commands,
    time: Res<Time>,
    mut q: Query<(Entity, &mut Float, &mut Transform, &mut TextColor, Option<&mut bevy::text::TextBackgroundColor>)>,
) {
    for (e, mut f, mut t, mut c, plate) in &mut q {
        f.age += time.delta_secs();
        t.translation.y += 30.0 * time.delta_secs();
        let alpha = (1.0 - f.age / 1.2).max(0.0);
        c.0.set_alpha(alpha);
        if let Some(mut p) = plate {
            p.0.set_alpha(PLATE_ALPHA * alpha);
        }
        if f.age > 1.2 {
            commands.entity(e).despawn();
        }
    }
}

/// The point of the 2D board's world under the window point `cursor`, for a camera at `cam`
/// with zoom `scale` drawing into `area` (logical pixels): the camera shows [`VIEW_ROWS`]
/// squares' height times `scale` over the area's height, centred on `cam`.
pub(crate) fn cursor_to_world(cursor: Vec2, area: Rect, cam: Vec2, scale: f32) -> Vec2 {
    let k = VIEW_ROWS * CELL * scale / area.height().max(1.0);
    let d = cursor - area.center();
    cam + Vec2::new(d.x * k, -d.y * k)
}

/// Whether the window point `pos` is over one of the HUD's panels (they are on egui's background
/// layer: egui does not count the pointer as over them, so the board checks their rectangles).
pub(crate) fn over_panel(banner: Option<&BannerRect>, pos: Vec2) -> bool {
    banner.is_some_and(|b| b.0.iter().any(|(l, t, r, bt)| pos.x >= *l && pos.x <= *r && pos.y >= *t && pos.y <= *bt))
}

/// The wheel turned this frame over something other than the board (a panel, the log): its zoom
/// actions are the panel's scrolling, not the camera's.
pub(crate) fn wheel_off_board(
    scroll: Option<&bevy::input::mouse::AccumulatedMouseScroll>,
    window: Option<&Window>,
    area: &BoardArea,
    banner: Option<&BannerRect>,
    egui: Option<&bevy_egui::input::EguiWantsInput>,
) -> bool {
    scroll.is_some_and(|s| s.delta != Vec2::ZERO)
        && (egui.is_some_and(|e| e.wants_any_pointer_input())
            || window.and_then(|w| w.cursor_position()).is_none_or(|p| !area.rect.contains(p) || over_panel(banner, p)))
}

fn cursor_cell(
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&Transform, &Projection), With<MainCamera>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    banner: Option<Res<BannerRect>>,
    area: Res<BoardArea>,
    mut cell: ResMut<CursorCell>,
) {
    let over_ui = egui.is_some_and(|e| e.wants_any_pointer_input());
    let found = (|| {
        if over_ui {
            return None;
        }
        let (t, proj) = *camera?;
        let pos = window?.cursor_position()?;
        if over_panel(banner.as_deref(), pos) || !area.rect.contains(pos) {
            return None;
        }
        let scale = match proj {
            Projection::Orthographic(o) => o.scale,
            _ => 1.0,
        };
        // The camera draws into the free area, centred on its position.
        Some(to_cell(cursor_to_world(pos, area.rect, t.translation.truncate(), scale)))
    })();
    if cell.0 != found {
        cell.0 = found;
    }
}

/// The smallest square (in pixels) the whole board is framed at; a board that would be smaller
/// is followed instead (the camera centres on the creature whose turn it is).
pub const MIN_SQUARE_PX: f32 = 20.0;

fn camera_control(
    actions: Single<&ActionState<GameAction>, With<PlayerInput>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
    mut state: ResMut<CameraState>,
    playback: Res<Playback>,
    board: Option<Res<BoardSpawned>>,
    area: Res<BoardArea>,
    time: Res<Time>,
    typing: Res<super::input::TypingInUi>,
    (scroll, window, banner, egui): (
        Option<Res<bevy::input::mouse::AccumulatedMouseScroll>>,
        Option<Single<&Window, With<PrimaryWindow>>>,
        Option<Res<BannerRect>>,
        Option<Res<bevy_egui::input::EguiWantsInput>>,
    ),
) {
    if typing.0 {
        // WASD and = - go to the text field being typed in.
        return;
    }
    let Ok((mut t, mut proj)) = cam.single_mut() else { return };
    let dt = time.delta_secs();
    let mut pan = Vec2::ZERO;
    for (a, d) in [
        (GameAction::PanUp, Vec2::Y),
        (GameAction::PanDown, Vec2::NEG_Y),
        (GameAction::PanLeft, Vec2::NEG_X),
        (GameAction::PanRight, Vec2::X),
    ] {
        if actions.pressed(&a) {
            pan += d;
        }
    }
    if actions.just_pressed(&GameAction::FrameBoard) {
        *state = CameraState { focus_seen: state.focus_seen, ..default() };
    }
    let size = area.rect.size();
    // The whole board in the free area, if its squares stay readable there: recomputed every
    // frame, so opening or closing a panel frames it again.
    let fit = board
        .as_ref()
        .map(|b| fit_scale(Vec2::new((b.1.x - b.0.x + 1) as f32, (b.1.y - b.0.y + 1) as f32), size))
        .filter(|f| *f <= size.y / (VIEW_ROWS * MIN_SQUARE_PX));
    let wheel_off =
        wheel_off_board(scroll.as_deref(), window.as_deref().copied(), &area, banner.as_deref(), egui.as_deref());
    if let Projection::Orthographic(o) = proj.as_mut() {
        if state.framed {
            // Too big to frame readably: squares at zoom 1, following the turns.
            let want = fit.unwrap_or(1.0);
            if (o.scale - want).abs() > 1e-4 {
                o.scale = want;
            }
        }
        if actions.just_pressed(&GameAction::ZoomIn) && !wheel_off {
            o.scale = (o.scale / 1.15).max(0.35);
            state.framed = false;
        }
        if actions.just_pressed(&GameAction::ZoomOut) && !wheel_off {
            o.scale = (o.scale * 1.15).min(4.0);
            state.framed = false;
        }
        pan *= o.scale;
    }
    if pan != Vec2::ZERO {
        t.translation += (pan * 9.0 * CELL * dt).extend(0.0);
        // The player steers: follow again at the next turn.
        state.manual = 1.0;
        state.framed = false;
    }
    if playback.focus != state.focus_seen {
        state.focus_seen = playback.focus;
        state.manual = 0.0;
    }
    // A board that fits on screen stays centred; a larger one follows the creature whose turn it is.
    let scale = match proj.as_ref() {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let fits = fit.is_some_and(|f| f <= scale + 1e-4);
    let target = if fits {
        board.as_ref().map(|b| to_world(Vec2::new((b.0.x + b.1.x) as f32 / 2.0, (b.0.y + b.1.y) as f32 / 2.0)))
    } else {
        playback.focus.and_then(|c| playback.display.get(&c)).map(|p| to_world(*p))
    };
    if state.manual == 0.0
        && let Some(target) = target
    {
        let cur = t.translation.truncate();
        let next = cur.lerp(target, (dt * 4.0).min(1.0));
        t.translation.x = next.x;
        t.translation.y = next.y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A downed creature's name is not drawn under a standing one on its square, nor under
    /// another downed one lying there with a higher id: two names there ran into each other
    /// (seen in CI's 2D screenshot, "Wolf" over "Orc").
    #[test]
    fn a_downed_creature_under_another_shows_no_name() {
        use crate::rules::components::InitiativeSetup;
        use crate::rules::setup::CombatantSpec;
        let spec = |name: &str, side: &str, x: i32| CombatantSpec {
            name: name.into(),
            side: side.into(),
            at: (x, 0),
            hp: 10,
            initiative: InitiativeSetup::Total(10 + x),
            ..Default::default()
        };
        let rs = crate::rules::ruleset::Ruleset::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron"),
        )
        .expect("the shipped ruleset loads");
        let down = rs.defeated_condition.clone();
        let specs = [spec("A", "heroes", 0), spec("B", "foes", 1), spec("C", "foes", 2), spec("D", "heroes", 3)];
        let mut c = crate::rules::driver::Combat::new(rs, 1, &specs).expect("valid set-up");
        assert!(names_hidden(&c).is_empty(), "one creature a square");
        let roster = c.world.resource::<crate::rules::state::Roster>().entities.clone();
        let mut put = |who: usize, x: i32, fell: bool| {
            if fell {
                c.world
                    .get_mut::<Conditions>(roster[who])
                    .unwrap()
                    .0
                    .insert(down.clone(), crate::rules::components::ConditionState::plain(1));
            }
            *c.world.get_mut::<GridPos>(roster[who]).unwrap() = GridPos { x, y: 0 };
        };
        // B falls and A steps onto its square; C falls, then D falls on C's square.
        put(1, 1, true);
        put(0, 1, false);
        put(2, 2, true);
        put(3, 2, true);
        assert_eq!(names_hidden(&c), [Cid(1), Cid(2)].into_iter().collect());
    }

    /// The 2D cursor's square is Bevy's: `cursor_to_world` gives the point Bevy's own
    /// orthographic camera (the game's scaling, at some zoom) puts under the pointer, in a
    /// viewport between panels.
    #[test]
    fn the_2d_cursor_agrees_with_bevys_orthographic_camera() {
        use bevy::camera::CameraProjection;
        let area = Rect::new(230.0, 60.0, 950.0, 800.0);
        for scale in [1.0f32, 0.7, 1.9] {
            let mut proj = OrthographicProjection {
                scaling_mode: ScalingMode::FixedVertical { viewport_height: VIEW_ROWS * CELL },
                scale,
                ..OrthographicProjection::default_2d()
            };
            proj.update(area.width(), area.height());
            let mut cam = Camera {
                viewport: Some(Viewport {
                    physical_position: UVec2::new(230, 60),
                    physical_size: UVec2::new(720, 740),
                    ..default()
                }),
                ..default()
            };
            cam.computed.clip_from_view = proj.get_clip_from_view();
            cam.computed.target_info =
                Some(bevy::camera::RenderTargetInfo { physical_size: UVec2::new(1280, 800), scale_factor: 1.0 });
            let at = Vec2::new(300.0, -200.0);
            let gt = GlobalTransform::from(Transform::from_translation(at.extend(0.0)));
            for cursor in [Vec2::new(240.0, 70.0), Vec2::new(590.0, 430.0), Vec2::new(940.0, 790.0)] {
                let bevy = cam.viewport_to_world_2d(&gt, cursor).unwrap();
                let mine = cursor_to_world(cursor, area, at, scale);
                assert!((mine - bevy).length() < 0.05, "zoom {scale}: {cursor} -> {mine} vs {bevy}");
            }
        }
    }

    /// Floating texts over one creature never overlap (issue 23): each new one goes a line above
    /// the highest still rising, whether it started frames ago and drifted, or this frame.
    #[test]
    fn floating_texts_over_a_creature_stack_a_line_apart() {
        let base = 100.0;
        assert_eq!(float_height(base, std::iter::empty()), base, "alone: just above the token");
        // "down" rose 9 px since it appeared: "dying" goes a full line above where it is now.
        assert_eq!(float_height(base, [base + 9.0].into_iter()), base + 9.0 + FLOAT_LINE);
        // Three in one frame, each placed above the last.
        let mut placed: Vec<f32> = Vec::new();
        for _ in 0..3 {
            let y = float_height(base, placed.iter().copied());
            placed.push(y);
        }
        for w in placed.windows(2) {
            assert!(w[1] - w[0] >= FLOAT_LINE, "{placed:?}");
        }
        // A line an older text has risen out of is free again: no ever higher column.
        assert_eq!(float_height(base, [base + 40.0].into_iter()), base);
        let (l, far, near) = (FLOAT_LINE, base + 10.0 + 2.0 * FLOAT_LINE + 1.0, base + 10.0 + FLOAT_LINE + 5.0);
        assert_eq!(float_height(base, [base + 10.0, far].into_iter()), base + 10.0 + l);
        assert_eq!(float_height(base, [base + 10.0, near].into_iter()), near + l);
        // Whatever the texts, the new one is a full line from each of them.
        let rising = [base + 3.0, base + 24.0, base + 47.0, base + 90.0];
        let y = float_height(base, rising.into_iter());
        assert!(rising.iter().all(|t| (t - y).abs() >= FLOAT_LINE), "{y}");
    }

    /// A floating text over a creature in the board's edge column stays over the board, moved in
    /// no further than that; one over a creature inside the board stays over it.
    #[test]
    fn a_floating_text_at_the_boards_edge_stays_over_the_board() {
        // Twelve squares, as the 2D board draws them: centres 0, CELL, ..., 11 CELL.
        let board = (-CELL / 2.0, 11.0 * CELL + CELL / 2.0);
        let half = FLOAT_WIDTH / 2.0;
        for x in 0..12 {
            let c = x as f32 * CELL;
            let at = float_x(c, board);
            assert!(at - half >= board.0 - 1e-3 && at + half <= board.1 + 1e-3, "square {x}: {at}");
            // Moved only as far as the edge asks.
            if c - half >= board.0 && c + half <= board.1 {
                assert_eq!(at, c, "square {x} is not at an edge");
            } else {
                assert!((at - half - board.0).abs() < 1e-3 || (at + half - board.1).abs() < 1e-3, "square {x}: {at}");
            }
        }
        // The edge columns are the ones moved.
        assert!(float_x(0.0, board) > 0.0);
        assert!(float_x(11.0 * CELL, board) < 11.0 * CELL);
        // A board narrower than a text: the text stays over its creature.
        assert_eq!(float_x(0.0, (-CELL / 2.0, CELL / 2.0)), 0.0);
    }
}
