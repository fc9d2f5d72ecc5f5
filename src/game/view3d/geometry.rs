//! The 3D view's geometry, plain math without a GPU: the orbiting camera ([`Orbit`]), projecting
//! points onto the viewport, picking a square or a token by a ray, and the low angle over walls
//! that frames the board.

use std::collections::BTreeSet;

use bevy::math::Ray3d;
use bevy::prelude::*;

use super::{FOV, TOKEN_HALF, TOKEN_HEIGHT, WALL_HEIGHT, pick_tokens};
use crate::game::battle::Battle;
use crate::game::view::bounds;
use crate::rules::components::{Cid, GridPos};

/// The camera around the board: it looks at `focus` from `distance` away, turned `yaw` about
/// the vertical (0: from the side of the last row, the first row at the top, as in 2D) and
/// raised `pitch` above the ground. A square (x, y) is the point (x, 0, y).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// The point looked at.
    pub focus: Vec3,
    /// Turned about the vertical (radians).
    pub yaw: f32,
    /// Raised above the ground (radians, between [`Orbit::MIN_PITCH`] and [`Orbit::MAX_PITCH`]).
    pub pitch: f32,
    /// From the focus.
    pub distance: f32,
    /// The whole board is framed (at the start and after Home; zooming leaves it).
    pub framed: bool,
    /// The player moved the camera: it stops following until the next turn.
    pub manual: bool,
    /// The creature last followed.
    pub focus_seen: Option<Cid>,
}

impl Default for Orbit {
    fn default() -> Self {
        Orbit {
            focus: Vec3::ZERO,
            yaw: 0.0,
            pitch: Self::START_PITCH,
            distance: 12.0,
            framed: true,
            manual: false,
            focus_seen: None,
        }
    }
}

impl Orbit {
    /// The lowest the camera goes (a view almost from the side).
    pub const MIN_PITCH: f32 = 0.2;
    /// The highest (almost from above).
    pub const MAX_PITCH: f32 = 1.5;
    /// The angle a battle starts at and Home returns to.
    pub const START_PITCH: f32 = 0.95;
    /// The farthest the camera frames a whole board from; a larger board is followed instead.
    pub const MAX_FRAME: f32 = 45.0;
    /// How far the camera follows from when the board is too large to frame.
    pub const FOLLOW: f32 = 16.0;

    /// The camera's transform.
    pub(crate) fn transform(&self) -> Transform {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let eye = self.focus + self.distance * Vec3::new(sy * cp, sp, cy * cp);
        Transform::from_translation(eye).looking_at(self.focus, Vec3::Y)
    }

    /// The camera's projection onto a viewport of `size`, worked out once for many points.
    pub(crate) fn projector(&self, size: Vec2) -> Projector {
        let tr = self.transform();
        let t = (FOV / 2.0).tan();
        Projector { eye: tr.translation, inverse: tr.rotation.inverse(), size, tx: t * size.x / size.y.max(1.0), ty: t }
    }

    /// The ray from the camera through the point `at` of a viewport of `size` (logical pixels,
    /// from its top left corner).
    pub(crate) fn ray(&self, at: Vec2, size: Vec2) -> Ray3d {
        let aspect = size.x / size.y.max(1.0);
        let ndc = Vec2::new(2.0 * at.x / size.x.max(1.0) - 1.0, 1.0 - 2.0 * at.y / size.y.max(1.0));
        let t = (FOV / 2.0).tan();
        let tr = self.transform();
        let dir = tr.rotation * Vec3::new(ndc.x * t * aspect, ndc.y * t, -1.0);
        Ray3d::new(tr.translation, Dir3::new(dir).unwrap_or(Dir3::NEG_Z))
    }

    /// Where a point of the scene is drawn in a viewport of `size` (logical pixels from its top
    /// left corner), and how far in front of the camera it is; none behind the camera.
    pub fn project(&self, p: Vec3, size: Vec2) -> Option<(Vec2, f32)> {
        self.projector(size).project(p)
    }

    /// The distance from which a board of squares `lo..=hi` (walls included) is seen whole in a
    /// viewport of `size`, whatever the camera's angle: its bounding sphere fits the narrower
    /// field of view.
    pub(crate) fn fit_distance(lo: GridPos, hi: GridPos, size: Vec2) -> f32 {
        // A viewport squeezed to nothing (a minimised window) frames as a square one would.
        let size = if size.x < 1.0 || size.y < 1.0 { Vec2::ONE } else { size };
        let aspect = size.x / size.y;
        let half = Vec2::new((hi.x - lo.x + 1) as f32, (hi.y - lo.y + 1) as f32) / 2.0;
        let r = half.length().max(1.0) + 0.3;
        let vfov = FOV;
        let hfov = 2.0 * ((FOV / 2.0).tan() * aspect).atan();
        r / (vfov.min(hfov) / 2.0).sin()
    }

    /// The nearest distance from which the board `lo..=hi` (its walls' height included) is seen
    /// whole in a viewport of `size` at this camera's angle, with a small margin: the corners of
    /// its box all drawn inside. Never farther than [`Orbit::fit_distance`], which fits any angle.
    pub(crate) fn fit_distance_here(&self, lo: GridPos, hi: GridPos, size: Vec2) -> f32 {
        let far = Self::fit_distance(lo, hi, size);
        let (x0, x1) = (lo.x as f32 - 0.5, hi.x as f32 + 0.5);
        let (z0, z1) = (lo.y as f32 - 0.5, hi.y as f32 + 0.5);
        let corners = [
            Vec3::new(x0, 0.0, z0),
            Vec3::new(x1, 0.0, z0),
            Vec3::new(x0, 0.0, z1),
            Vec3::new(x1, 0.0, z1),
            Vec3::new(x0, WALL_HEIGHT, z0),
            Vec3::new(x1, WALL_HEIGHT, z0),
            Vec3::new(x0, WALL_HEIGHT, z1),
            Vec3::new(x1, WALL_HEIGHT, z1),
        ];
        let margin = size * 0.04;
        let fits = |d: f32| {
            let o = Orbit { focus: Self::centre(lo, hi), distance: d, ..*self }.projector(size);
            corners.iter().all(|c| {
                o.project(*c).is_some_and(|(p, _)| {
                    p.x >= margin.x && p.y >= margin.y && p.x <= size.x - margin.x && p.y <= size.y - margin.y
                })
            })
        };
        if !fits(far) {
            return far;
        }
        let (mut a, mut b) = (0.5f32, far);
        for _ in 0..24 {
            let m = (a + b) / 2.0;
            if fits(m) { b = m } else { a = m }
        }
        b
    }

    /// The centre of a board of squares `lo..=hi`, on the ground.
    pub(crate) fn centre(lo: GridPos, hi: GridPos) -> Vec3 {
        Vec3::new((lo.x + hi.x) as f32 / 2.0, 0.0, (lo.y + hi.y) as f32 / 2.0)
    }

    /// Frame the board `lo..=hi` in a viewport of `size`: centred, whole, from the starting angle.
    pub fn frame(&mut self, lo: GridPos, hi: GridPos, size: Vec2) {
        *self = Orbit { focus: Self::centre(lo, hi), focus_seen: self.focus_seen, ..Orbit::default() };
        self.distance = self.fit_distance_here(lo, hi, size);
    }
}

/// An [`Orbit`]'s projection onto a viewport, for many points a frame.
#[derive(Debug, Clone, Copy)]
pub struct Projector {
    eye: Vec3,
    inverse: Quat,
    size: Vec2,
    tx: f32,
    ty: f32,
}

impl Projector {
    /// Where `p` is drawn (logical pixels from the viewport's top left corner) and how far in
    /// front of the camera it is; none behind the camera.
    pub(crate) fn project(&self, p: Vec3) -> Option<(Vec2, f32)> {
        let local = self.inverse * (p - self.eye);
        let depth = -local.z;
        if depth < 0.05 {
            return None;
        }
        let x = local.x / depth / self.tx;
        let y = local.y / depth / self.ty;
        Some((Vec2::new((x + 1.0) / 2.0 * self.size.x, (1.0 - y) / 2.0 * self.size.y), depth))
    }
}

/// The point of the scene a square's centre is (on the ground).
pub(crate) fn square_point(p: Vec2) -> Vec3 {
    Vec3::new(p.x, 0.0, p.y)
}

/// Where the ray enters the box `lo..hi`, if it does (the slab test).
fn ray_box(ray: &Ray3d, lo: Vec3, hi: Vec3) -> Option<f32> {
    let (o, d) = (ray.origin, *ray.direction);
    let mut t0 = 0.0f32;
    let mut t1 = f32::INFINITY;
    for i in 0..3 {
        if d[i].abs() < 1e-9 {
            if o[i] < lo[i] || o[i] > hi[i] {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo[i] - o[i]) / d[i], (hi[i] - o[i]) / d[i]);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

/// A creature as picking sees it: where its token stands (its square), and whether it lies down.
#[derive(Debug, Clone, Copy)]
pub struct PickToken {
    /// Whom.
    pub who: Cid,
    /// Its square.
    pub at: GridPos,
    /// Downed: it lies flat, lower.
    pub down: bool,
}

/// The square a click along `ray` means (issue 23: picking by a ray works at any angle).
///
/// The ray stops at the first wall block or the ground, whichever it meets first: that square.
/// When the action wants a creature (`creatures`: an attack, a spell on someone, or no ability
/// chosen), a token the ray meets before that is picked, the nearest first. When it wants a
/// square (a movement, an area), tokens are passed through: a token in front does not steal the
/// click from the square behind it.
pub(crate) fn pick(ray: &Ray3d, walls: &BTreeSet<GridPos>, tokens: &[PickToken], creatures: bool) -> Option<GridPos> {
    let mut best: Option<(f32, GridPos)> = None;
    let d = *ray.direction;
    if d.y < -1e-6 {
        let t = -ray.origin.y / d.y;
        if t >= 0.0 {
            let p = ray.get_point(t);
            best = Some((t, GridPos { x: p.x.round() as i32, y: p.z.round() as i32 }));
        }
    }
    for w in walls {
        let c = Vec3::new(w.x as f32, 0.0, w.y as f32);
        if let Some(t) = ray_box(ray, c - Vec3::new(0.5, 0.0, 0.5), c + Vec3::new(0.5, WALL_HEIGHT, 0.5))
            && best.is_none_or(|(b, _)| t < b)
        {
            best = Some((t, *w));
        }
    }
    if creatures {
        let mut hit: Option<(f32, GridPos)> = None;
        for k in tokens {
            let c = Vec3::new(k.at.x as f32, 0.0, k.at.y as f32);
            let (half, height) = if k.down { (0.5, 0.45) } else { (TOKEN_HALF, TOKEN_HEIGHT) };
            if let Some(t) = ray_box(ray, c - Vec3::new(half, 0.0, half), c + Vec3::new(half, height, half))
                && best.is_none_or(|(b, _)| t <= b + 1e-4)
                && hit.is_none_or(|(h, _)| t < h)
            {
                hit = Some((t, k.at));
            }
        }
        if hit.is_some() {
            return hit.map(|(_, p)| p);
        }
    }
    best.map(|(_, p)| p)
}

/// A low camera (for the screenshot of walls in front of tokens): of eight directions around
/// the board, the one from which the most creatures stand behind a wall, raised only a little
/// above the ground and framing the board.
pub(crate) fn low_angle_over_walls(battle: &Battle, size: Vec2) -> Orbit {
    let (lo, hi) = bounds(battle);
    let walls = &battle.combat.map().blocked;
    let tokens = pick_tokens(battle);
    let mut best = (0usize, Orbit::default());
    for i in 0..8 {
        let mut o = Orbit::default();
        o.frame(lo, hi, size);
        o.yaw = i as f32 * std::f32::consts::FRAC_PI_4;
        o.pitch = 0.3;
        o.distance = o.fit_distance_here(lo, hi, size);
        // A creature is hidden when the ray to its middle meets a wall first.
        let hidden = tokens
            .iter()
            .filter(|k| {
                let mid = Vec3::new(k.at.x as f32, 0.4, k.at.y as f32);
                let eye = o.transform().translation;
                let ray = Ray3d::new(eye, Dir3::new(mid - eye).unwrap_or(Dir3::NEG_Z));
                pick(&ray, walls, &tokens, true) != Some(k.at)
            })
            .count();
        if i == 0 || hidden > best.0 {
            best = (hidden, o);
        }
    }
    best.1
}
