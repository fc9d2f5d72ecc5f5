use std::collections::BTreeSet;

use super::*;

const SIZE: Vec2 = Vec2::new(700.0, 620.0);

fn framed(lo: GridPos, hi: GridPos) -> Orbit {
    let mut o = Orbit::default();
    o.frame(lo, hi, SIZE);
    o
}

/// The ray through the point where a square is drawn comes back to that square, at any
/// angle the camera can take.
#[test]
fn a_ray_through_a_drawn_square_picks_it_at_any_angle() {
    let (lo, hi) = (GridPos { x: 0, y: 0 }, GridPos { x: 11, y: 9 });
    for yaw in [0.0f32, 0.7, 1.6, 3.1, -2.4] {
        for pitch in [Orbit::MIN_PITCH + 0.1, 0.6, Orbit::START_PITCH, Orbit::MAX_PITCH] {
            let mut o = framed(lo, hi);
            o.yaw = yaw;
            o.pitch = pitch;
            for (x, y) in [(0, 0), (5, 4), (11, 9), (3, 8)] {
                let (px, _) = o.project(Vec3::new(x as f32, 0.0, y as f32), SIZE).expect("in front");
                let got = pick(&o.ray(px, SIZE), &BTreeSet::new(), &[], false);
                assert_eq!(got, Some(GridPos { x, y }), "yaw {yaw} pitch {pitch}");
            }
        }
    }
}

/// Framed, every corner of every board size is drawn inside the viewport, from any angle:
/// at the distance framing picks for that angle (as the camera does when turned while
/// framed), and at the distance that fits every angle.
#[test]
fn a_framed_board_is_whole_in_the_viewport_at_any_angle() {
    for (w, h) in [(8, 8), (16, 12), (30, 6), (40, 40)] {
        let (lo, hi) = (GridPos { x: 0, y: 0 }, GridPos { x: w - 1, y: h - 1 });
        for yaw in [0.0f32, 0.8, 2.0, -1.0] {
            for (pitch, any) in [Orbit::MIN_PITCH, Orbit::START_PITCH, Orbit::MAX_PITCH]
                .into_iter()
                .flat_map(|p| [(p, false), (p, true)])
            {
                let mut o = framed(lo, hi);
                o.yaw = yaw;
                o.pitch = pitch;
                o.distance = if any { Orbit::fit_distance(lo, hi, SIZE) } else { o.fit_distance_here(lo, hi, SIZE) };
                assert!(o.distance <= Orbit::fit_distance(lo, hi, SIZE) + 1e-3);
                for (x, y) in
                    [(-0.5, -0.5), (w as f32 - 0.5, -0.5), (-0.5, h as f32 - 0.5), (w as f32 - 0.5, h as f32 - 0.5)]
                {
                    let (px, _) = o.project(Vec3::new(x, 0.0, y), SIZE).expect("in front");
                    assert!(
                        px.x >= 0.0 && px.y >= 0.0 && px.x <= SIZE.x && px.y <= SIZE.y,
                        "{w}×{h} yaw {yaw} pitch {pitch}: corner ({x}, {y}) at {px}"
                    );
                }
            }
        }
    }
}

fn tok(who: u32, x: i32, y: i32) -> PickToken {
    PickToken { who: Cid(who), at: GridPos { x, y }, down: false }
}

/// A token in front of a square does not steal the click when the square is what the action
/// wants; when a creature is wanted, the token the ray meets first is picked.
#[test]
fn a_token_in_front_steals_no_square_but_is_picked_as_a_creature() {
    // From a low angle, looking along the column x = 5: the token on (5, 6) stands in front
    // of (5, 5) and (5, 4).
    let o = Orbit { focus: Vec3::new(5.0, 0.0, 5.0), yaw: 0.0, pitch: 0.35, distance: 8.0, ..Orbit::default() };
    let square = GridPos { x: 5, y: 5 };
    let (px, _) = o.project(Vec3::new(5.0, 0.0, 5.0), SIZE).unwrap();
    let ray = o.ray(px, SIZE);
    let front = [tok(0, 5, 6)];
    // The ray to (5, 5)'s centre passes through the token standing on (5, 6).
    assert_eq!(pick(&ray, &BTreeSet::new(), &front, true), Some(GridPos { x: 5, y: 6 }), "a creature is wanted");
    assert_eq!(pick(&ray, &BTreeSet::new(), &front, false), Some(square), "a square is wanted");
    // Two tokens in a line: the nearer one.
    let both = [tok(1, 5, 3), tok(0, 5, 6)];
    let (px3, _) = o.project(Vec3::new(5.0, 0.1, 3.0), SIZE).unwrap();
    assert_eq!(pick(&o.ray(px3, SIZE), &BTreeSet::new(), &both, true), Some(GridPos { x: 5, y: 6 }));
    // A wall in front hides what is behind it, for squares and creatures alike.
    let walls: BTreeSet<GridPos> = [GridPos { x: 5, y: 6 }].into();
    assert_eq!(pick(&ray, &walls, &[], false), Some(GridPos { x: 5, y: 6 }));
    assert_eq!(pick(&ray, &walls, &[tok(2, 5, 5)], true), Some(GridPos { x: 5, y: 6 }));
}

/// Labels of creatures standing close never cover each other: each moves up until it is
/// clear of the nearer ones.
#[test]
fn crowded_labels_are_moved_apart() {
    let wanted: Vec<(Cid, Vec2)> =
        (0..5).map(|i| (Cid(i), Vec2::new(300.0 + 20.0 * i as f32, 400.0 + 5.0 * i as f32))).collect();
    let placed = place_labels(&wanted);
    assert_eq!(placed[0].1, wanted[0].1, "the nearest stays over its creature");
    assert!(placed.len() >= 3, "{placed:?}");
    // A crowd: the nearest names only, none covering another.
    let crowd: Vec<(Cid, Vec2)> = (0..200).map(|i| (Cid(i), Vec2::new(300.0 + (i % 7) as f32, 400.0))).collect();
    let shown = place_labels(&crowd);
    assert!(shown.len() <= 4, "{}", shown.len());
    for (i, a) in shown.iter().enumerate() {
        for b in &shown[i + 1..] {
            assert!((a.1.y - b.1.y).abs() >= LABEL_BOX.y * 0.9 - 0.02, "{a:?} covers {b:?}");
        }
    }
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            let apart = (a.1.x - b.1.x).abs() >= LABEL_BOX.x || (a.1.y - b.1.y).abs() >= LABEL_BOX.y * 0.9 - 0.02;
            assert!(apart, "{a:?} covers {b:?}");
        }
    }
    // Far apart, nobody moves.
    let spread = [(Cid(0), Vec2::new(100.0, 100.0)), (Cid(1), Vec2::new(400.0, 100.0))];
    assert_eq!(place_labels(&spread), spread.to_vec());
}

/// The view chosen is kept in the settings file with the language left as it was; a file that
/// does not read is not overwritten.
#[test]
fn the_view_is_remembered_beside_the_language_and_a_broken_file_is_kept() {
    let dir = std::env::temp_dir().join(format!("skirmish-view-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = crate::i18n::Settings { lang: Some("ko".into()), view: None };
    s.save(&dir).unwrap();
    remember_view(ViewMode::ThreeD, &dir);
    let back = crate::i18n::Settings::load(&dir).unwrap();
    assert_eq!((back.lang.as_deref(), back.view.as_deref()), (Some("ko"), Some("3d")));
    let path = crate::i18n::Settings::path(&dir);
    std::fs::write(&path, "(lang: Some(\"es\"), view: Some(\"2d\"),, )").unwrap();
    remember_view(ViewMode::TwoD, &dir);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "(lang: Some(\"es\"), view: Some(\"2d\"),, )");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A camera drawing into a viewport between panels, as the game sets it up.
fn bevy_camera(clip_from_view: Mat4) -> Camera {
    let mut cam = Camera {
        viewport: Some(bevy::camera::Viewport {
            physical_position: UVec2::new(230, 60),
            physical_size: UVec2::new(720, 740),
            ..default()
        }),
        ..default()
    };
    cam.computed.clip_from_view = clip_from_view;
    cam.computed.target_info =
        Some(bevy::camera::RenderTargetInfo { physical_size: UVec2::new(1280, 800), scale_factor: 1.0 });
    cam
}

/// The view's projection is Bevy's: the same points land on the same window pixels as
/// through Bevy's own perspective camera with the game's field of view, in a viewport between
/// panels (its corner added), at several angles.
#[test]
fn orbit_projection_agrees_with_bevys_perspective_camera() {
    use bevy::camera::CameraProjection;
    let area = Rect::new(230.0, 60.0, 950.0, 800.0);
    let mut proj = PerspectiveProjection { fov: FOV, ..default() };
    proj.update(area.width(), area.height());
    let cam = bevy_camera(proj.get_clip_from_view());
    for (yaw, pitch) in [(0.0f32, 0.95f32), (0.8, 0.4), (2.5, 1.3)] {
        let o = Orbit { focus: Vec3::new(7.0, 0.0, 5.0), yaw, pitch, distance: 14.0, ..Orbit::default() };
        let gt = GlobalTransform::from(o.transform());
        for p in [Vec3::new(0.0, 0.0, 0.0), Vec3::new(15.0, 0.0, 11.0), Vec3::new(3.0, 1.1, 8.0)] {
            let Some((mine, _)) = o.project(p, area.size()) else { continue };
            let bevy = cam.world_to_viewport(&gt, p).expect("in view");
            assert!((mine + area.min - bevy).length() < 0.05, "yaw {yaw}: {p} at {mine} + corner vs {bevy}");
            // And Bevy's ray through that pixel is ours.
            let theirs = cam.viewport_to_world(&gt, bevy).unwrap();
            let ours = o.ray(mine, area.size());
            assert!((*theirs.direction - *ours.direction).length() < 1e-3);
        }
    }
}

/// Projection and rays agree with Bevy's own camera: the transform looks at the focus.
#[test]
fn the_focus_is_drawn_at_the_viewport_centre() {
    let o = Orbit { focus: Vec3::new(3.0, 0.0, 7.0), yaw: 1.0, pitch: 0.7, distance: 9.0, ..Orbit::default() };
    let (px, d) = o.project(o.focus, SIZE).unwrap();
    assert!((px - SIZE / 2.0).length() < 0.01, "{px}");
    assert!((d - 9.0).abs() < 1e-3);
    let f = o.transform().forward();
    assert!((*f - (o.focus - o.transform().translation).normalize()).length() < 1e-4);
}
