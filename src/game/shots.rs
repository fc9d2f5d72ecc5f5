//! Screenshots for `scripts/screenshots.sh`: with `--screenshots DIR` the game photographs the
//! start screen, starts the battle, lets it play (AI on the sides the options say), photographs
//! the board once the given number of rounds has been played, and exits. When a person's side is
//! to act first, it chooses that creature's movement instead, so the picture shows where it can
//! go and which squares provoke, and photographs that (`your-turn.png`).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::app_state::{PlayOptions, Screen};
use super::battle::{Battle, Pacing};

/// The screenshot plugin (does nothing without `--screenshots`).
pub struct ShotsPlugin;

impl Plugin for ShotsPlugin {
    fn build(&self, app: &mut App) {
        // Before the 3D camera: a held picture's camera is the one drawn that frame.
        app.init_resource::<ShotState>().add_systems(Update, take_shots.before(super::view3d::View3dCamera));
    }
}

#[derive(Resource, Default)]
struct ShotState {
    frames: u32,
    stage: u8,
    wait: u32,
    previewed: bool,
    /// The picture stage 5 takes once its wait is over.
    shot: &'static str,
    /// The 3D camera to hold until then (the low angle), whatever turn starts meanwhile.
    hold: Option<super::view3d::Orbit>,
}

fn shoot(commands: &mut Commands, options: &PlayOptions, name: &str, exit: bool) {
    let Some(dir) = &options.screenshots else { return };
    let _ = std::fs::create_dir_all(dir);
    let path = dir.join(format!("{name}.png"));
    // Only a new path or a regular file (issue 29): never a device, FIFO, link or folder there.
    if let Err(why) = crate::outfile::check_target(&path, &[]) {
        error!("screenshot not taken: {why}");
        if exit {
            commands.write_message(AppExit::error());
        }
        return;
    }
    info!("screenshot {}", path.display());
    let mut e = commands.spawn(Screenshot::primary_window());
    e.observe(save_to_disk(path));
    if exit {
        e.observe(|_: On<ScreenshotCaptured>, mut out: MessageWriter<AppExit>| {
            out.write(AppExit::Success);
        });
    }
}

fn take_shots(
    mut commands: Commands,
    options: Res<PlayOptions>,
    mut state: ResMut<ShotState>,
    screen: Res<State<Screen>>,
    battle: Option<Res<Battle>>,
    mut pacing: ResMut<Pacing>,
    mut selection: ResMut<super::app_state::Selection>,
    mut policies: ResMut<super::battle::Policies>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut hud_ui: ResMut<super::hud_panels::HudUi>,
    cache: Res<super::hud_panels::HudCache>,
    (mut session, sim, mut requests, mut human, queued, playback): (
        ResMut<super::session::Session>,
        Res<super::session::SimPanel>,
        MessageWriter<super::session::SessionRequest>,
        MessageWriter<super::battle::HumanCommand>,
        Res<super::battle::HumanQueue>,
        Res<super::battle::Playback>,
    ),
    (view, mut orbit, area): (
        Res<super::app_state::ViewMode>,
        ResMut<super::view3d::Orbit>,
        Res<super::view::BoardArea>,
    ),
) {
    let Some(dir) = &options.screenshots else { return };
    state.frames += 1;
    if state.frames == 1 {
        // Saves made for a screenshot stay beside it, not in the player's saves folder.
        session.dir = dir.join("saves");
    }
    // A screenshot of the Simulate window waits for its result.
    if sim.job.is_some() {
        return;
    }
    if options.scenario.is_some() {
        if state.frames > 3_000 {
            error!("screenshots: the scenario's battle never came up");
            exit.write(AppExit::error());
            return;
        }
        scenario_shot(&mut commands, &options, &mut state, screen.get(), battle.as_deref(), &mut hud_ui, &cache);
        return;
    }
    let want_opening = options.open.iter().any(|w| w == "opening");
    if state.frames == 1 {
        // Nobody is at the keyboard: decisions on the way are answered the AI's way (but an
        // opening is asked when its prompt is what the picture is for).
        for (kind, v) in policies.0.iter_mut() {
            *v = if want_opening && *kind == "Opening" {
                super::battle::Policy::Ask
            } else {
                super::battle::Policy::Always
            };
        }
    }
    // A safety net: never hang a CI run.
    if state.frames > 20_000 {
        error!("screenshots: gave up waiting");
        exit.write(AppExit::error());
        return;
    }
    // Held for the low 3D picture: the fight all but waits (it is photographed a few frames on).
    pacing.speed = if state.hold.is_some() { 0.1 } else { 3.0 };
    if let Some(o) = state.hold {
        *orbit = super::view3d::Orbit { focus_seen: orbit.focus_seen, ..o };
    }
    match (state.stage, screen.get()) {
        (0, Screen::Start) if state.frames >= 30 => {
            shoot(&mut commands, &options, "start", false);
            state.stage = 1;
            state.wait = state.frames + 20;
        }
        (1, Screen::Start) if state.frames >= state.wait => {
            next.set(Screen::Battle);
            state.stage = 2;
        }
        (2, Screen::Battle | Screen::End) => {
            let rounds = options.exit_after_rounds.unwrap_or(1);
            let Some(b) = battle else { return };
            // A person in the GM's seat: the GM window once the policy suggests an opening.
            if options.gm_human {
                if b.gm.suggestion_now(&b.combat).is_some() {
                    state.stage = 5;
                    state.shot = "gm";
                    state.wait = state.frames + 40;
                }
                return;
            }
            // The prompt of an opening the AI GM offers a person's creature.
            if want_opening {
                let pending = b.combat.world.resource::<crate::rules::state::Pending>().0.as_ref();
                if let Some(p) = pending
                    && matches!(p.kind, crate::rules::state::DecisionKind::Opening { .. })
                    && let crate::rules::command::Decider::Creature(c) = p.by
                    && b.control(c) == super::setup::SideControl::Human
                {
                    state.stage = 5;
                    state.shot = "opening";
                    state.wait = state.frames + 40;
                } else if pending.is_none()
                    && let Some(who) = b.human_waiting()
                    && let Some(cmd) =
                        crate::ai::next_command(&b.combat, crate::ai::AiScope { gm: false, all_creatures: true })
                    && cmd.actor() == Some(who)
                    && queued.0.is_empty()
                    && !playback.busy()
                    && state.frames >= state.wait
                {
                    // Until then the person's turns are played the AI's way, one command a frame.
                    human.write(super::battle::HumanCommand(cmd));
                    state.wait = state.frames + 2;
                }
                return;
            }
            if let Some(who) = b.human_waiting().filter(|w| b.combat.turn().active == Some(*w)) {
                let bar = crate::hud_model::abilities_of(&b.combat, who);
                selection.ability = bar.into_iter().find(|a| {
                    b.combat.ruleset().ability(a).is_some_and(|d| {
                        matches!(
                            d.effect,
                            crate::rules::ruleset::Effect::Move | crate::rules::ruleset::Effect::MoveAs { .. }
                        )
                    })
                });
                if options.open.iter().any(|w| w == "saves") {
                    // Something to list: a quick save and a named one.
                    requests.write(super::session::SessionRequest::QuickSave);
                    requests.write(super::session::SessionRequest::SaveAs(format!(
                        "{} before the fight",
                        b.setup.encounter.name
                    )));
                }
                state.stage = 5;
                state.shot = "your-turn";
                state.wait = state.frames + 40;
                return;
            }
            let done = b.combat.turn().round > rounds || b.combat.status() == crate::rules::state::EngineStatus::Ended;
            if done {
                state.stage = 3;
                state.wait = state.frames + 30;
            }
        }
        (3, _) if state.frames >= state.wait => {
            // In 3D, then a low camera with walls between it and the creatures (issue 23).
            let low = *view == super::app_state::ViewMode::ThreeD;
            shoot(&mut commands, &options, "battle", !low);
            state.stage = if low { 6 } else { 4 };
            state.wait = state.frames + 5;
        }
        (6, _) if state.frames >= state.wait => {
            // Once the picture above is taken: the low camera, held there whatever turn starts.
            let Some(b) = battle else { return };
            let mut o = super::view3d::low_angle_over_walls(&b, area.rect.size());
            o.manual = true;
            o.framed = false;
            o.focus_seen = orbit.focus_seen;
            info!("screenshots: low camera {o:?}");
            *orbit = o;
            state.hold = Some(o);
            state.stage = 5;
            state.shot = "low";
            state.wait = state.frames + 10;
        }
        (5, _) if state.frames >= state.wait => {
            shoot(&mut commands, &options, state.shot, true);
            state.stage = 4;
        }
        _ => {}
    }
}

/// `--scenario FILE --screenshots DIR`: the battle opens at the scenario's last step with its
/// prompt, if any, still waiting. The person's creature (if it is its turn) previews its first
/// usable ability other than movement (else its first usable one), so the picture shows the
/// what-if preview; then `moment.png`, and exit.
fn scenario_shot(
    commands: &mut Commands,
    options: &PlayOptions,
    state: &mut ShotState,
    screen: &Screen,
    battle: Option<&Battle>,
    hud_ui: &mut super::hud_panels::HudUi,
    cache: &super::hud_panels::HudCache,
) {
    if *screen != Screen::Battle || battle.is_none() {
        return;
    }
    match state.stage {
        0 => {
            state.stage = 1;
            state.wait = state.frames + 90;
        }
        1 if state.frames >= state.wait.saturating_sub(40) && !state.previewed => {
            state.previewed = true;
            let Some(b) = battle else { return };
            let rs = b.combat.ruleset();
            let movement = |id: &str| rs.ability(id).is_some_and(|d| d.effect.targets_square());
            hud_ui.preview = cache
                .bar
                .iter()
                .find(|x| x.enabled && !movement(&x.id))
                .or_else(|| cache.bar.iter().find(|x| x.enabled))
                .map(|x| x.id.clone());
        }
        1 if state.frames >= state.wait => {
            shoot(commands, options, "moment", true);
            state.stage = 4;
        }
        _ => {}
    }
}
