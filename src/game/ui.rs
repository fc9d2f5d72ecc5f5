//! The egui screens: the start screen (encounter, ruleset, who plays each side), the turn banner,
//! the decision prompts with their "always / never / ask" policy, a combat log, and the end
//! screen. They read the battle and act only by writing `HumanCommand`s and changing screens.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::battle::{Battle, BattleSetup, HumanCommand, Pacing, Policies, Policy, SideControl};
use super::input::{BindingsNote, GameAction, PlayerInput, Selection, ability_bar};
use super::library::Library;
use super::{PlayOptions, Screen};
use crate::rules::command::{ActionLoss, Choice, Command, Decider, DefenseMethod};
use crate::rules::components::{ActionPool, Health};
use crate::rules::state::{DecisionKind, EngineStatus, Pending};

/// The egui screens' plugin.
pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StartForm>().init_resource::<LogPanel>().init_resource::<BannerRect>().add_systems(
            EguiPrimaryContextPass,
            (
                start_screen.run_if(in_state(Screen::Start)),
                (banner, prompt, log_panel).run_if(in_state(Screen::Battle)),
                end_screen.run_if(in_state(Screen::End)),
            ),
        );
    }
}

/// The start screen's choices.
#[derive(Resource, Debug, Default)]
pub struct StartForm {
    encounter: usize,
    ruleset: usize,
    sides: BTreeMap<String, SideControl>,
    seed: u64,
    ready: bool,
    error: Option<String>,
}

/// The screen rectangle (logical pixels) the banner covers: the board ignores the pointer there.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct BannerRect(pub Option<(f32, f32)>);

/// Whether the log is shown (hidden at first: `L` or the banner's button shows it).
#[derive(Resource, Debug, Default)]
pub struct LogPanel(pub bool);

fn style(ctx: &egui::Context) {
    ctx.global_style_mut(|s| {
        s.visuals.window_corner_radius = egui::CornerRadius::same(6);
        s.spacing.item_spacing = egui::vec2(8.0, 6.0);
    });
}

fn start_screen(
    mut contexts: EguiContexts,
    library: Option<Res<Library>>,
    options: Res<PlayOptions>,
    note: Option<Res<BindingsNote>>,
    mut form: ResMut<StartForm>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(library) = library else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    style(ctx);
    let encounters: Vec<(String, bool)> = library
        .encounters
        .iter()
        .map(|(f, e)| (e.as_ref().map_or_else(|_| format!("{} (error)", f.display()), |e| e.name.clone()), e.is_ok()))
        .collect();
    let rulesets: Vec<(String, bool)> = library.rulesets.iter().map(|(n, r)| (n.clone(), r.is_ok())).collect();
    if !form.ready {
        form.ready = true;
        form.seed = options.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs() % 100_000)
        });
        let wanted_rs = options.ruleset.clone().unwrap_or_else(|| super::library::DEFAULT_RULESET_NAME.into());
        form.ruleset = rulesets.iter().position(|(n, _)| *n == wanted_rs).unwrap_or(0);
        let wanted = options.encounter.clone().unwrap_or_else(|| "skirmish-4v4.ron".into());
        form.encounter = library
            .encounters
            .iter()
            .position(|(f, _)| *f == wanted || f.file_name() == wanted.file_name())
            .unwrap_or(0);
        if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
            for s in &enc.sides {
                form.sides.insert(s.name.clone(), super::battle::side_control(&options, s));
            }
        }
    }
    egui::Window::new("skirmish")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .min_width(460.0)
        .show(ctx, |ui| {
            ui.heading("A tactical skirmish");
            ui.label("Your side against the AI, or hot seat, under any installed turn system.");
            ui.separator();
            egui::Grid::new("start").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
                ui.label("Encounter");
                egui::ComboBox::from_id_salt("enc")
                    .width(280.0)
                    .selected_text(encounters.get(form.encounter).map_or("", |e| e.0.as_str()))
                    .show_ui(ui, |ui| {
                        for (i, (n, _)) in encounters.iter().enumerate() {
                            ui.selectable_value(&mut form.encounter, i, n);
                        }
                    });
                ui.end_row();
                ui.label("Ruleset");
                egui::ComboBox::from_id_salt("rs")
                    .width(280.0)
                    .selected_text(rulesets.get(form.ruleset).map_or("", |r| r.0.as_str()))
                    .show_ui(ui, |ui| {
                        for (i, (n, _)) in rulesets.iter().enumerate() {
                            ui.selectable_value(&mut form.ruleset, i, n);
                        }
                    });
                ui.end_row();
                if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
                    for s in &enc.sides {
                        let entry = form.sides.entry(s.name.clone()).or_insert(if s.controller == crate::encounter::SideController::Human { SideControl::Human } else { SideControl::Ai });
                        ui.label(format!("Side \"{}\"", s.name));
                        ui.horizontal(|ui| {
                            ui.selectable_value(entry, SideControl::Human, "Human");
                            ui.selectable_value(entry, SideControl::Ai, "AI");
                        });
                        ui.end_row();
                    }
                }
                ui.label("Dice seed");
                ui.add(egui::DragValue::new(&mut form.seed));
                ui.end_row();
            });
            if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
                ui.label(egui::RichText::new(enc.description.clone()).italics());
            }
            ui.separator();
            let chosen_ok = encounters.get(form.encounter).is_some_and(|e| e.1) && rulesets.get(form.ruleset).is_some_and(|r| r.1);
            if ui.add_enabled(chosen_ok, egui::Button::new(egui::RichText::new("  Fight!  ").size(18.0))).clicked() {
                let (file, enc) = &library.encounters[form.encounter];
                let (name, rs) = &library.rulesets[form.ruleset];
                if let (Ok(enc), Ok(rs)) = (enc, rs) {
                    let sides = enc
                        .sides
                        .iter()
                        .map(|s| (s.name.clone(), form.sides.get(&s.name).copied().unwrap_or(SideControl::Ai)))
                        .collect();
                    match enc.start(rs.clone(), form.seed) {
                        Ok(_) => {
                            commands.insert_resource(BattleSetup {
                                file: file.display().to_string(),
                                encounter: enc.clone(),
                                ruleset_name: name.clone(),
                                ruleset: rs.clone(),
                                sides,
                                seed: form.seed,
                            });
                            form.error = None;
                            next.set(Screen::Battle);
                        }
                        // The same error the command line gives; the game stays on this screen.
                        Err(e) => form.error = Some(format!("{}: {e}", file.display())),
                    }
                }
            }
            if let Some(e) = &form.error {
                ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
            }
            let errors = library.errors();
            if !errors.is_empty() {
                ui.separator();
                ui.label("These files could not be loaded:");
                for e in errors {
                    ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
                }
            }
            if let Some(n) = note.as_ref().and_then(|n| n.0.clone()) {
                ui.colored_label(egui::Color32::from_rgb(255, 200, 100), n);
            }
            ui.separator();
            ui.small("Click a square to move, an enemy to attack; 1–9 choose an ability, M movement, Enter uses it, Tab cycles targets, E ends the turn, Esc cancels. WASD/arrows pan, wheel zooms, Space fast-forwards, L shows the log.");
        });
    Ok(())
}

fn banner(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut selection: ResMut<Selection>,
    mut pacing: ResMut<Pacing>,
    mut out: MessageWriter<HumanCommand>,
    mut next: ResMut<NextState<Screen>>,
    mut log_toggle: ResMut<LogPanel>,
    mut banner_rect: ResMut<BannerRect>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    // The game's keys (Tab, Enter, Space) must not move egui's focus or press its buttons.
    if let Some(id) = ctx.memory(|m| m.focused()) {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let c = &battle.combat;
    let shown = egui::Panel::top("banner").show_inside(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("Round {}", c.turn().round)).strong().size(18.0));
            ui.separator();
            ui.label(format!("{} · {}", battle.setup.encounter.name, battle.setup.ruleset_name));
            ui.separator();
            match c.status() {
                EngineStatus::AwaitingCommand(who) => {
                    let whose = if battle.control(who) == SideControl::Human { "your turn" } else { "AI" };
                    let left = c.get::<ActionPool>(who).map_or(0, ActionPool::available);
                    let hp = c.get::<Health>(who).map_or(0, |h| h.hp);
                    ui.label(
                        egui::RichText::new(format!("{} ({whose})", c.name(who)))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 214, 90)),
                    );
                    ui.label(format!("{left} action(s) left · {hp} hp"));
                }
                EngineStatus::AwaitingDecision(d) => {
                    ui.label(format!("waiting for {}", d.describe(&|x| c.name(x))));
                }
                EngineStatus::Ended => {
                    ui.label("the fight is over");
                }
                s => {
                    ui.label(format!("{s:?}"));
                }
            }
            ui.separator();
            ui.add(egui::Slider::new(&mut pacing.speed, 0.25..=4.0).text("speed"));
            if ui.button("Log (L)").clicked() {
                log_toggle.0 = !log_toggle.0;
            }
            if ui.button("Quit to start").clicked() {
                next.set(Screen::Start);
            }
        });
        if let Some(who) = battle.human_waiting().filter(|w| c.turn().active == Some(*w)) {
            ui.horizontal_wrapped(|ui| {
                for (i, a) in ability_bar(c, who).iter().enumerate().take(9) {
                    let name = c
                        .ruleset()
                        .ability(a)
                        .map(|d| if d.name.is_empty() { a.clone() } else { d.name.clone() })
                        .unwrap_or_default();
                    let chosen = selection.ability.as_deref() == Some(a.as_str());
                    let label = egui::RichText::new(format!("{} {name}", i + 1));
                    if ui.add(egui::Button::selectable(chosen, if chosen { label.strong() } else { label })).clicked() {
                        selection.ability = if chosen { None } else { Some(a.clone()) };
                        selection.target = None;
                    }
                }
                if ui.button("End turn (E)").clicked() {
                    out.write(HumanCommand(Command::EndTurn { actor: who }));
                }
                // Delay (pf2e, pf1e, segments): the engine refuses it where the ruleset has none.
                if ui.button("Delay").clicked() {
                    out.write(HumanCommand(Command::Delay { actor: who }));
                }
            });
        }
        // Delaying or holding creatures of the player's: come back, or release the held cast.
        let turn = c.turn();
        let mine: Vec<_> = (0..c.len() as u32)
            .map(crate::rules::components::Cid)
            .filter(|x| battle.control(*x) == SideControl::Human)
            .collect();
        let delayed: Vec<_> = mine.iter().copied().filter(|x| turn.delayed.contains(x)).collect();
        let holding: Vec<_> = mine
            .iter()
            .copied()
            .filter(|x| {
                c.get::<crate::rules::components::Casting>(*x).is_some_and(|k| k.0.as_ref().is_some_and(|a| a.holding))
            })
            .collect();
        if !delayed.is_empty() || !holding.is_empty() {
            ui.horizontal_wrapped(|ui| {
                for x in delayed {
                    if ui.button(format!("{} returns from Delay", c.name(x))).clicked() {
                        out.write(HumanCommand(Command::ReturnFromDelay { actor: x }));
                    }
                }
                for x in holding {
                    if ui.button(format!("{} releases the held cast", c.name(x))).clicked() {
                        out.write(HumanCommand(Command::Release { actor: x }));
                    }
                }
            });
        }
        if let Some(r) = &battle.last_rejection {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), format!("Refused: {r}"));
        }
        if let Some(e) = &battle.error {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), e);
        }
    });
    let r = shown.response.rect;
    banner_rect.0 = Some((r.top(), r.bottom()));
    Ok(())
}

/// The choices of a pending decision: label, cost or effect in words, and the answer.
fn choices(battle: &Battle, kind: &DecisionKind) -> Vec<(String, Choice)> {
    let c = &battle.combat;
    match kind {
        DecisionKind::Defense { attacker, attack_total, options } => options
            .iter()
            .map(|m| {
                let what = match m {
                    DefenseMethod::Dodge => "Dodge: 1d20 + DEX",
                    DefenseMethod::Parry => "Parry: 1d20 + STR",
                    DefenseMethod::NoDefense => "No defence roll",
                };
                (format!("{what} against {}'s {attack_total}", c.name(*attacker)), Choice::Defend(*m))
            })
            .collect(),
        DecisionKind::Opportunity { mover, options } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    (
                        format!("Attack {} with {a} (uses your reaction)", c.name(*mover)),
                        Choice::Opportunity(Some(a.clone())),
                    )
                })
                .collect();
            v.push((format!("Let {} go", c.name(*mover)), Choice::Opportunity(None)));
            v
        }
        DecisionKind::Opening { .. } => vec![("Pass the opening".into(), Choice::Opening(None))],
        DecisionKind::AssistApproval { from, to } => vec![
            (format!("Approve {}'s Assist to {}", c.name(*from), c.name(*to)), Choice::Approve(true)),
            ("Deny it".into(), Choice::Approve(false)),
        ],
        DecisionKind::Triggered { options, .. } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| (format!("Use {a} now (free / reaction)"), Choice::Triggered(Some(a.clone()))))
                .collect();
            v.push(("Use nothing".into(), Choice::Triggered(None)));
            v
        }
        DecisionKind::ActionLoss => vec![
            ("Lose the bonus (restricted) action first".into(), Choice::LoseFirst(ActionLoss::Restricted)),
            ("Lose a regular action first".into(), Choice::LoseFirst(ActionLoss::Regular)),
        ],
        DecisionKind::CastComplete { ability } => vec![
            (format!("Release {ability} now"), Choice::HoldCast(false)),
            (format!("Hold {ability} (concentrate; release later)"), Choice::HoldCast(true)),
        ],
        DecisionKind::InitiativeTie { tied } => {
            vec![(
                format!("Keep the order {}", tied.iter().map(|t| c.name(*t)).collect::<Vec<_>>().join(", ")),
                Choice::Order(tied.clone()),
            )]
        }
    }
}

/// A choice in words.
fn describe_choice(battle: &Battle, c: &Choice) -> String {
    let names =
        |v: &[crate::rules::components::Cid]| v.iter().map(|t| battle.combat.name(*t)).collect::<Vec<_>>().join(", ");
    match c {
        Choice::Opening(Some(u)) if u.targets.is_empty() => format!("Use {}", u.ability),
        Choice::Opening(Some(u)) => format!("Use {} on {}", u.ability, names(&u.targets)),
        Choice::Triggered(Some(a)) | Choice::Opportunity(Some(a)) => format!("Use {a}"),
        Choice::Defend(m) => format!("{m:?}"),
        other => format!("{other:?}"),
    }
}

fn prompt(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut policies: ResMut<Policies>,
    mut out: MessageWriter<HumanCommand>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let Some(who) = battle.human_waiting() else { return Ok(()) };
    let Some(p) = battle.combat.world.resource::<Pending>().0.clone() else { return Ok(()) };
    let Decider::Creature(_) = p.by else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut options = choices(&battle, &p.kind);
    // The AI's own answer, for choices the list above cannot spell out (which ability, on whom).
    if let Some(Command::Decide { choice, .. }) =
        crate::ai::next_command(&battle.combat, crate::ai::AiScope { gm: false, all_creatures: true })
        && !options.iter().any(|(_, c)| *c == choice)
    {
        options.insert(0, (format!("{} (the AI's pick)", describe_choice(&battle, &choice)), choice));
    }
    let kind = p.kind.name();
    // Keyboard: 1..9 pick a choice.
    let keys = [egui::Key::Num1, egui::Key::Num2, egui::Key::Num3, egui::Key::Num4, egui::Key::Num5, egui::Key::Num6];
    let pressed = ctx.input(|i| keys.iter().position(|k| i.key_pressed(*k)));
    egui::Window::new(format!("{}: {kind}", battle.combat.name(who)))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -24.0))
        .show(ctx, |ui| {
            for (i, (label, choice)) in options.iter().enumerate() {
                if ui.button(format!("{}. {label}", i + 1)).clicked() || pressed == Some(i) {
                    out.write(HumanCommand(Command::Decide { by: p.by, choice: choice.clone() }));
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(format!("{kind} from now on:"));
                let entry = policies.0.entry(kind).or_insert(Policy::Ask);
                ui.selectable_value(entry, Policy::Ask, "ask");
                ui.selectable_value(entry, Policy::Always, "always");
                ui.selectable_value(entry, Policy::Never, "never");
            });
        });
    Ok(())
}

fn log_panel(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    actions: Single<&leafwing_input_manager::prelude::ActionState<GameAction>, With<PlayerInput>>,
    mut panel: ResMut<LogPanel>,
) -> Result {
    if actions.just_pressed(&GameAction::ToggleLog) {
        panel.0 = !panel.0;
    }
    let Some(battle) = battle else { return Ok(()) };
    if !panel.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let log = battle.combat.log();
    egui::Window::new("Combat log")
        .default_pos(egui::pos2(ctx.viewport_rect().right() - 380.0, ctx.viewport_rect().bottom() - 280.0))
        .default_size(egui::vec2(360.0, 240.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
                let start = log.events.len().saturating_sub(200);
                for e in &log.events[start..] {
                    if e.is_bookkeeping()
                        && !matches!(
                            e,
                            crate::rules::log::CombatEvent::TurnStarted { .. }
                                | crate::rules::log::CombatEvent::RoundStarted { .. }
                        )
                    {
                        continue;
                    }
                    ui.label(egui::RichText::new(log.describe(e)).size(11.5));
                }
            });
        });
    Ok(())
}

fn end_screen(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let humans: Vec<&String> =
        battle.setup.sides.iter().filter(|(_, c)| **c == SideControl::Human).map(|(s, _)| s).collect();
    let everyone_human = humans.len() == battle.setup.sides.len();
    let title = match &battle.combat.turn().winner {
        // Hot seat: somebody at this screen won and somebody lost.
        Some(_) if everyone_human || humans.is_empty() => "The fight is over",
        Some(w) if humans.contains(&w) => "Victory!",
        Some(_) => "Defeat",
        None => "Draw",
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            for line in super::battle::summary(&battle) {
                ui.label(line);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Restart").clicked() {
                    let mut setup = battle.setup.clone();
                    setup.seed = setup.seed.wrapping_add(1);
                    commands.insert_resource(setup);
                    next.set(Screen::Battle);
                }
                if ui.button("Back to the start screen").clicked() {
                    next.set(Screen::Start);
                }
            });
        });
    Ok(())
}
