//! The game's own plugins, headless (no window, no GPU): AI-vs-AI encounters played to the end
//! under every ruleset, and a player's keys and clicks (leafwing input mocking) turned into a
//! move and an attack.

use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use leafwing_input_manager::prelude::Buttonlike;
use skirmish::game::battle::{Battle, Highlights, Pacing, Policies, Policy};
use skirmish::game::input::{Bindings, CursorCell, GameAction};
use skirmish::game::setup::{BattleSetup, SideControl};
use skirmish::game::{GameLogicPlugin, PlayOptions, Screen};
use skirmish::rules::command::Command;
use skirmish::rules::components::{Cid, GridPos};
use skirmish::rules::log::CombatEvent;
use skirmish::rules::state::EngineStatus;

fn app(mut options: PlayOptions) -> App {
    // English, whatever the machine's LANG or a saves/settings.ron says: the tests read words.
    options.lang.get_or_insert_with(|| "en".into());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(16)))
        .insert_resource(options)
        .insert_resource(Pacing::instant())
        .add_plugins(GameLogicPlugin);
    app.finish();
    app.cleanup();
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn ai_against_ai_plays_the_default_encounter_to_the_end_under_every_ruleset() {
    let installed: Vec<String> =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets"))
            .unwrap()
            .filter_map(|e| e.ok()?.path().file_stem().map(|s| s.to_string_lossy().to_string()))
            .collect();
    assert!(installed.len() >= 4);
    for rs in &installed {
        let mut a =
            app(PlayOptions { ruleset: Some(rs.clone()), all_ai: true, start_now: true, seed: Some(3), ..default() });
        for _ in 0..200 {
            if screen(&a) == Screen::End {
                break;
            }
            a.update();
        }
        assert_eq!(screen(&a), Screen::End, "{rs}");
        let b = a.world().resource::<Battle>();
        assert_eq!(b.combat.status(), EngineStatus::Ended, "{rs}");
        assert!(
            b.combat
                .log()
                .events
                .iter()
                .any(|e| matches!(e, CombatEvent::AttackRolled { .. } | CombatEvent::Damaged { .. })),
            "{rs}: nobody fought"
        );
        assert!(b.error.is_none(), "{rs}: {:?}", b.error);
    }
}

/// Press and release a button through leafwing's input mocking, one frame each.
fn tap(a: &mut App, b: impl Buttonlike) {
    b.press(a.world_mut());
    a.update();
    b.release(a.world_mut());
    a.update();
}

/// Run frames until a human creature waits for a command (the AI plays the other side). The
/// player's decisions on the way (defence rolls...) are answered by the "always" policy.
fn until_human_turn(a: &mut App) -> Cid {
    for v in a.world_mut().resource_mut::<Policies>().0.values_mut() {
        *v = Policy::Always;
    }
    for _ in 0..400 {
        if let Some(b) = a.world().get_resource::<Battle>()
            && let EngineStatus::AwaitingCommand(c) = b.combat.status()
            && b.control(c) == SideControl::Human
        {
            return c;
        }
        a.update();
    }
    panic!("no human turn came");
}

#[test]
fn keys_and_clicks_move_and_attack_through_the_game_plugins() {
    let mut a = app(PlayOptions { ruleset: Some("homebrew-d20".into()), start_now: true, seed: Some(5), ..default() });
    assert_eq!(screen(&a), Screen::Battle);
    let hero = until_human_turn(&mut a);
    // M chooses the movement ability: the board shows where it reaches.
    tap(&mut a, KeyCode::KeyM);
    let reach = a.world().resource::<Highlights>().reachable.clone();
    assert!(!reach.is_empty(), "no reachable squares shown");
    let from = *a.world().resource::<Battle>().combat.get::<GridPos>(hero).unwrap();
    let to = *reach.keys().max_by_key(|p| (p.distance(from), std::cmp::Reverse(**p))).unwrap();
    a.world_mut().resource_mut::<CursorCell>().0 = Some(to);
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::Moved { who, to: t, .. } if *who == hero && *t == to)),
        "the click did not move {}: {:?}",
        b.combat.name(hero),
        b.last_rejection
    );
    // M chose the plain Move (not a one-square Disengage), and the click went further than one.
    assert!(to.distance(from) > 1, "moved only {} square(s)", to.distance(from));
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::AbilityUsed { who, ability, .. } if *who == hero && ability == "move")),
        "the move was not a Move"
    );
    // E ends the turn.
    let before = b.combat.log().events.len();
    tap(&mut a, KeyCode::KeyE);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat.log().events[before..].iter().any(|e| matches!(e, CombatEvent::TurnEnded { who, .. } if *who == hero)),
        "E did not end the turn"
    );
    // Attacking by keys: a number picks that ability of the bar, Tab a target, Enter sends it.
    let (mut a, knight) = knight_and_orc(r#"["....", "...."]"#, (1, 0), (2, 0));
    let orc = a.world().resource::<Battle>().combat.cid("Orc").unwrap();
    let keys: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
    let bar: Vec<String> =
        skirmish::hud_model::ability_buttons(&mut a.world_mut().resource_mut::<Battle>().combat, knight, &keys)
            .into_iter()
            .map(|b| b.id)
            .collect();
    for ability in ["sword", "bow"] {
        let i = bar.iter().position(|x| x == ability).unwrap_or_else(|| panic!("{ability} in {bar:?}"));
        let digit = [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3, KeyCode::Digit4, KeyCode::Digit5][i];
        let before = a.world().resource::<Battle>().combat.log().events.len();
        tap(&mut a, digit);
        tap(&mut a, KeyCode::Tab);
        tap(&mut a, KeyCode::Enter);
        let b = a.world().resource::<Battle>();
        let rolled = b.combat.log().events[before..].iter().find_map(|e| match e {
            CombatEvent::AttackRolled { attacker, target, ability, .. } if *attacker == knight => {
                Some((*target, ability.clone()))
            }
            _ => None,
        });
        assert_eq!(rolled, Some((orc, ability.to_string())), "key {} then Tab, Enter: {:?}", i + 1, b.last_rejection);
        until_human_turn(&mut a);
    }
}

#[test]
fn clicking_an_enemy_in_reach_attacks_it() {
    // A tiny encounter: a knight next to an orc; the orc's side is played by the AI.
    let (mut a, knight) = knight_and_orc(r#"["....", "...."]"#, (1, 0), (2, 0));
    a.world_mut().resource_mut::<CursorCell>().0 = Some(GridPos { x: 2, y: 0 });
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::AttackRolled { attacker, .. } if *attacker == knight)),
        "the click did not attack: {:?}",
        b.last_rejection
    );
}

#[test]
fn a_bad_bindings_file_falls_back_to_the_defaults_with_a_message() {
    let dir = crate::common::tmp_root().join(format!("skirmish-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("input.ron");
    std::fs::write(&f, "({ EndTurn: [Key(NotAKey)] })").unwrap();
    let (b, note) = Bindings::load(&f);
    assert_eq!(b, Bindings::default());
    let note = note.unwrap();
    assert!(note.contains("input.ron:1:") && note.contains("default bindings"), "{note}");
    std::fs::write(&f, "({ EndTurn: [Key(KeyX)] })").unwrap();
    let (b, note) = Bindings::load(&f);
    assert!(note.is_none());
    assert_eq!(b.0[&GameAction::EndTurn], vec![skirmish::game::input::Binding::Key(KeyCode::KeyX)]);
    assert_eq!(b.0[&GameAction::Select], Bindings::default().0[&GameAction::Select]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_bindings_file_loads() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/input.ron");
    let (_, note) = Bindings::load(&f);
    assert!(note.is_none(), "{note:?}");
}

#[test]
fn the_player_never_writes_rules_state_except_through_commands() {
    // Commands the game sends are the engine's own: a refused one changes nothing and says why.
    let mut a = app(PlayOptions { ruleset: Some("pf2e".into()), start_now: true, seed: Some(2), ..default() });
    let hero = until_human_turn(&mut a);
    let hash = a.world().resource::<Battle>().combat.state_hash();
    a.world_mut().write_message(skirmish::game::HumanCommand(Command::EndTurn { actor: Cid(hero.0 + 100) }));
    a.update();
    let b = a.world().resource::<Battle>();
    assert_eq!(b.combat.state_hash(), hash);
    assert!(b.last_rejection.as_deref().is_some_and(|r| r.contains("no combatant")), "{:?}", b.last_rejection);
    // Looking is not acting: over many frames the pointer visits every creature and square while
    // keys choose abilities, cycle targets and cancel; the HUD's dry runs (reach, targets, hovers)
    // leave the rules state and the journal as they were.
    let (hash, len) = (b.combat.state_hash(), b.combat.journal().len());
    let keys =
        [KeyCode::KeyM, KeyCode::Digit1, KeyCode::Tab, KeyCode::Digit2, KeyCode::Tab, KeyCode::Escape, KeyCode::Digit3];
    let mut cells: Vec<GridPos> =
        (0..b.combat.len() as u32).filter_map(|c| b.combat.get::<GridPos>(Cid(c)).copied()).collect();
    cells.extend((0..12).flat_map(|x| (0..8).map(move |y| GridPos { x, y })));
    for (i, cell) in cells.iter().enumerate() {
        a.world_mut().resource_mut::<CursorCell>().0 = Some(*cell);
        tap(&mut a, keys[i % keys.len()]);
        let b = a.world().resource::<Battle>();
        assert_eq!((b.combat.state_hash(), b.combat.journal().len()), (hash, len), "frame {i}, over {cell:?}");
    }
    // One command, E: the journal's next entry is the player's, the only one of the player's.
    tap(&mut a, KeyCode::KeyE);
    let b = a.world().resource::<Battle>();
    let new = &b.combat.journal()[len..];
    use skirmish::rules::journal::{Entry, Issuer};
    assert!(
        matches!(&new[0], Entry::Command { by: Issuer::Player, ok: true, cmd: Command::EndTurn { actor } } if *actor == hero),
        "{:?}",
        &new[..new.len().min(3)]
    );
    assert_eq!(new.iter().filter(|e| matches!(e, Entry::Command { by: Issuer::Player, .. })).count(), 1);
}

#[test]
fn clicking_an_empty_square_with_nothing_chosen_uses_the_plain_move() {
    let mut a = app(PlayOptions { ruleset: Some("homebrew-d20".into()), start_now: true, seed: Some(5), ..default() });
    let hero = until_human_turn(&mut a);
    let (from, to) = {
        let mut b = a.world_mut().resource_mut::<Battle>();
        let from = *b.combat.get::<GridPos>(hero).unwrap();
        let reach = b.combat.reachable(hero, "move");
        let to = *reach.keys().filter(|p| p.distance(from) >= 3).min().expect("a square 3 away");
        (from, to)
    };
    a.world_mut().resource_mut::<CursorCell>().0 = Some(to);
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::AbilityUsed { who, ability, .. } if *who == hero && ability == "move")),
        "a click {} squares away was not a Move: {:?}",
        to.distance(from),
        b.last_rejection
    );
    assert_eq!(*b.combat.get::<GridPos>(hero).unwrap(), to);
}

/// The state hash of the battle under way.
fn hash(a: &App) -> u64 {
    a.world().resource::<Battle>().combat.state_hash()
}

fn chord(a: &mut App, key: KeyCode) {
    KeyCode::ControlLeft.press(a.world_mut());
    key.press(a.world_mut());
    a.update();
    key.release(a.world_mut());
    KeyCode::ControlLeft.release(a.world_mut());
    a.update();
}

/// A fresh folder for the session's saves.
fn saves_dir(a: &mut App, name: &str) -> std::path::PathBuf {
    let dir = crate::common::tmp_root().join(format!("skirmish-game-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    a.world_mut().resource_mut::<skirmish::game::session::Session>().dir = dir.clone();
    dir
}

#[test]
fn ctrl_z_undoes_the_players_command_and_the_ai_turns_after_it_and_ctrl_y_redoes_them() {
    let mut a = app(PlayOptions {
        ruleset: Some("pf2e".into()),
        ai_sides: vec!["monsters".into()],
        start_now: true,
        seed: Some(5),
        ..default()
    });
    let me = until_human_turn(&mut a);
    let before = hash(&a);
    let journal = a.world().resource::<Battle>().combat.journal().len();
    a.world_mut().write_message(skirmish::game::HumanCommand(Command::EndTurn { actor: me }));
    a.update();
    let _ = until_human_turn(&mut a);
    let after = hash(&a);
    assert_ne!(before, after);
    assert!(a.world().resource::<Battle>().combat.journal().len() > journal + 1, "the AI played in between");
    chord(&mut a, KeyCode::KeyZ);
    assert_eq!(hash(&a), before, "undo is back at the player's decision point");
    assert_eq!(a.world().resource::<Battle>().combat.journal().len(), journal);
    let note = a.world().resource::<skirmish::game::session::Session>().note.clone().unwrap();
    assert!(note.ok && note.text.starts_with("Undid"), "{note:?}");
    // Nothing plays on by itself: the player's turn waits.
    for _ in 0..10 {
        a.update();
    }
    assert_eq!(hash(&a), before);
    chord(&mut a, KeyCode::KeyY);
    assert_eq!(hash(&a), after, "redo gives the same state, the same dice");
    // Nothing left to redo: a note, no change.
    chord(&mut a, KeyCode::KeyY);
    assert_eq!(hash(&a), after);
    assert!(!a.world().resource::<skirmish::game::session::Session>().note.as_ref().unwrap().ok);
}

#[test]
fn f5_quick_saves_f9_loads_and_a_damaged_save_leaves_the_battle_alone() {
    let mut a = app(PlayOptions {
        ruleset: Some("segments".into()),
        ai_sides: vec!["monsters".into()],
        start_now: true,
        seed: Some(7),
        ..default()
    });
    let dir = saves_dir(&mut a, "quick");
    let me = until_human_turn(&mut a);
    let saved = hash(&a);
    tap(&mut a, KeyCode::F5);
    let slot = dir.join(skirmish::game::session::QUICK_SLOT);
    assert!(slot.is_file(), "{:?}", a.world().resource::<skirmish::game::session::Session>().note);
    a.world_mut().write_message(skirmish::game::HumanCommand(Command::EndTurn { actor: me }));
    a.update();
    let _ = until_human_turn(&mut a);
    assert_ne!(hash(&a), saved);
    tap(&mut a, KeyCode::F9);
    assert_eq!(hash(&a), saved, "quick load restores the saved moment");
    // The list the saves window shows: encounter, ruleset, round.
    let mut s = a.world_mut().resource_mut::<skirmish::game::session::Session>();
    s.refresh_list();
    let m = s.listed[0].meta.as_ref().unwrap().clone();
    assert_eq!((m.ruleset.as_str(), m.round), ("segments", a.world().resource::<Battle>().combat.turn().round));
    // A damaged slot: a clear note, and the battle is untouched.
    let text = std::fs::read_to_string(&slot).unwrap();
    std::fs::write(&slot, &text[..text.len() / 2]).unwrap();
    tap(&mut a, KeyCode::F9);
    assert_eq!(hash(&a), saved);
    let note = a.world().resource::<skirmish::game::session::Session>().note.clone().unwrap();
    assert!(!note.ok && note.text.contains("quicksave.ron"), "{note:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_started_with_a_mod_runs_it() {
    // The default encounter with regenerating creatures, played by the AI with the mod loaded:
    // the mod is listed, and the log shows it healing a hurt creature.
    let dir = crate::common::tmp_root().join(format!("skirmish-game-mod-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/skirmish-4v4.ron"),
    )
    .unwrap();
    let file = dir.join("regenerating.ron");
    std::fs::write(&file, text.replace("stats: {", "stats: {\"regeneration\": 2, ")).unwrap();
    let mut a = app(PlayOptions {
        encounter: Some(file),
        ruleset: Some("homebrew-d20".into()),
        all_ai: true,
        start_now: true,
        seed: Some(2),
        mods: vec!["regeneration".into()],
        ..default()
    });
    a.update();
    let b = a.world().resource::<Battle>();
    assert!(b.error.is_none(), "{:?}", b.error);
    assert_eq!(b.combat.mods().first().map(|m| m.0.as_str()), Some("regeneration"));
    let healed = |a: &App| {
        let events = &a.world().resource::<Battle>().combat.log().events;
        events.windows(2).any(|w| {
            matches!(&w[0], CombatEvent::ModEffect { source, .. } if source == "regeneration")
                && matches!(&w[1], CombatEvent::Healed { .. })
        })
    };
    for _ in 0..3000 {
        if healed(&a) {
            break;
        }
        a.update();
    }
    let b = a.world().resource::<Battle>();
    assert!(a.world().resource::<BattleSetup>().file.ends_with("regenerating.ron"));
    assert!(healed(&a), "no regeneration healed anybody in {} events", b.combat.log().events.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_encounter_edited_while_playing_waits_for_restart_with_changes_and_a_broken_edit_is_shown() {
    use skirmish::modding::watch::{CombatData, HotData};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join(format!("test-hot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hot-duel.ron");
    let duel = |hp: u32| {
        format!(
            r#"Encounter(name: "Hot duel", map: ["....", "...."],
            sides: [(name: "heroes", controller: Ai), (name: "monsters", controller: Ai)],
            combatants: [
              (name: "Knight", side: "heroes", stats: {{"STR": 3}}, hp: {hp}, abilities: ["sword"], initiative: Total(20), at: (0, 0)),
              (name: "Orc", side: "monsters", stats: {{"STR": 2}}, hp: 30, abilities: ["sword"], initiative: Total(5), at: (3, 1)),
            ])"#
        )
    };
    std::fs::write(&file, duel(30)).unwrap();
    let mut a = app(PlayOptions {
        encounter: Some(file.clone()),
        ruleset: Some("homebrew-d20".into()),
        start_now: true,
        seed: Some(4),
        ..default()
    });
    a.world_mut().insert_resource(Pacing::default());
    a.update();
    let hp = |a: &App| {
        let c = &a.world().resource::<Battle>().combat;
        c.get::<skirmish::rules::components::Health>(c.cid("Knight").unwrap()).unwrap().max
    };
    assert_eq!(hp(&a), 30);
    std::fs::write(&file, duel(300)).unwrap();
    for _ in 0..40 {
        a.update();
    }
    assert!(a.world().resource::<HotData<CombatData>>().has_pending(), "the edit was not noticed");
    assert_eq!(hp(&a), 30, "the running battle is untouched");
    // A broken edit: an error to show, the good data still waiting, the battle untouched.
    std::fs::write(&file, duel(300).replace("hp: 300", "hp: \"lots\"")).unwrap();
    for _ in 0..40 {
        a.update();
    }
    let err = a.world().resource::<HotData<CombatData>>().error().map(|e| e.to_string()).expect("an error");
    assert!(err.contains("hot-duel.ron:") && err.contains("hp"), "{err}");
    assert_eq!(hp(&a), 30);
    std::fs::write(&file, duel(300)).unwrap();
    for _ in 0..40 {
        a.update();
    }
    assert!(a.world().resource::<HotData<CombatData>>().error().is_none());
    // "Restart with changes": the banner's button does this.
    let setup = a.world().resource::<Battle>().setup.clone();
    a.world_mut().insert_resource(setup);
    a.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    a.update();
    a.update();
    assert_eq!(hp(&a), 300, "the next start uses the edited file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undo_never_takes_back_the_steps_that_set_a_scenario_battle_up() {
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/hud-p2-end-of-turn.ron");
    let mut a = app(PlayOptions { scenario: Some(scenario), start_now: true, ..default() });
    for _ in 0..5 {
        a.update();
    }
    let before = hash(&a);
    {
        let b = a.world().resource::<Battle>();
        assert!(b.combat.journal().len() > 3, "the scenario's steps are in the journal");
        assert!(!a.world().resource::<skirmish::game::session::Session>().can_undo(&b.combat));
    }
    chord(&mut a, KeyCode::KeyZ);
    assert_eq!(hash(&a), before);
    let note = a.world().resource::<skirmish::game::session::Session>().note.clone().unwrap();
    assert!(!note.ok && note.text.contains("nothing of yours"), "{note:?}");
}

#[test]
fn a_loaded_save_restarts_from_the_save_and_keys_wait_while_a_text_field_is_typed_in() {
    let mut a = app(PlayOptions {
        ruleset: Some("pf1e".into()),
        ai_sides: vec!["monsters".into()],
        start_now: true,
        seed: Some(11),
        ..default()
    });
    let dir = saves_dir(&mut a, "restart");
    let me = until_human_turn(&mut a);
    tap(&mut a, KeyCode::F5);
    a.world_mut().write_message(skirmish::game::HumanCommand(Command::EndTurn { actor: me }));
    a.update();
    let _ = until_human_turn(&mut a);
    tap(&mut a, KeyCode::F9);
    let saved = hash(&a);
    let b = a.world().resource::<Battle>();
    assert_eq!(b.setup.from_save.as_deref(), Some(dir.join(skirmish::game::session::QUICK_SLOT).as_path()));
    // Typing in a text field: F5 and E go to the field, not to the game.
    a.world_mut().resource_mut::<skirmish::game::input::TypingInUi>().0 = true;
    let _ = std::fs::remove_file(dir.join(skirmish::game::session::QUICK_SLOT));
    tap(&mut a, KeyCode::F5);
    tap(&mut a, KeyCode::KeyE);
    assert!(!dir.join(skirmish::game::session::QUICK_SLOT).exists(), "F5 saved while typing");
    assert_eq!(hash(&a), saved, "E ended the turn while typing");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run frames until the GM policy suggests an opening to the person in the GM's seat.
fn until_gm_suggestion(a: &mut App) -> skirmish::rules::gm_policy::OpeningCall {
    for _ in 0..400 {
        let b = a.world().resource::<Battle>();
        if let Some(call) = b.gm.suggestion_now(&b.combat) {
            return call.clone();
        }
        a.update();
    }
    panic!("no opening was suggested");
}

#[test]
fn a_human_gm_opens_the_suggested_opening_from_the_gm_window_and_undo_save_and_replay_carry_it() {
    use skirmish::hud_model::gm::{GmForm, gm_calls, suggestion_words};
    use skirmish::rules::command::GmInput;
    use skirmish::rules::journal::{Entry, Issuer};
    let mut a = app(PlayOptions {
        ruleset: Some("homebrew-d20".into()),
        all_ai: true,
        start_now: true,
        seed: Some(4),
        gm_human: true,
        ..default()
    });
    assert!(a.world().resource::<skirmish::game::battle::GmSeat>().0, "--gm human takes the seat");
    let dir = saves_dir(&mut a, "gm");
    let call = until_gm_suggestion(&mut a);
    let words = {
        let b = a.world().resource::<Battle>();
        suggestion_words(&b.combat, &call)
    };
    assert!(words.starts_with("The GM may open an opening for ") && words.contains(" missed "), "{words}");
    // The battle waits for the GM's answer.
    let before = hash(&a);
    let journal = a.world().resource::<Battle>().combat.journal().len();
    for _ in 0..5 {
        a.update();
    }
    assert_eq!(hash(&a), before, "the AI waits while the GM decides");
    // The GM window's opening call for the suggested creatures: the engine's dry run takes it.
    let sent = {
        let mut b = a.world_mut().resource_mut::<Battle>();
        let mut form = GmForm::new(&b.combat);
        form.eligible = call.eligible.clone();
        let calls = gm_calls(&mut b.combat, &form);
        let open = calls.iter().find(|c| matches!(c.input, GmInput::Opening { .. })).unwrap().clone();
        assert_eq!(open.verdict, Ok(()), "{}", open.label);
        // Every other call is there too, each with the dry run's verdict.
        assert_eq!(calls.len(), 7);
        // Area assist on a creature with no Assist waiting: refused, in the engine's words.
        let area = calls.iter().find(|c| matches!(c.input, GmInput::AreaAssist { .. })).unwrap();
        assert!(area.verdict.as_ref().is_err_and(|e| e.contains("has no Assist waiting")), "{:?}", area.verdict);
        open.input
    };
    assert_eq!(sent, GmInput::Opening { eligible: call.eligible.clone() });
    a.world_mut().write_message(skirmish::game::HumanCommand(Command::Gm(sent.clone())));
    a.update();
    let opened = |a: &App| {
        a.world()
            .resource::<Battle>()
            .combat
            .log()
            .events
            .iter()
            .filter(|e| matches!(e, CombatEvent::OpeningCreated { .. }))
            .count()
    };
    assert_eq!(opened(&a), 1, "the opening shows in the log");
    let entry = a.world().resource::<Battle>().combat.journal().get(journal).cloned();
    assert_eq!(entry, Some(Entry::Command { by: Issuer::Player, ok: true, cmd: Command::Gm(sent.clone()) }));
    // Undo takes the GM's call back, and the suggestion is there again.
    chord(&mut a, KeyCode::KeyZ);
    for _ in 0..5 {
        a.update();
    }
    assert_eq!(hash(&a), before, "undone, and waiting for the GM again");
    assert_eq!(opened(&a), 0);
    {
        let b = a.world().resource::<Battle>();
        assert_eq!(b.gm.suggestion_now(&b.combat), Some(&call), "the suggestion is back");
    }
    assert_eq!(a.world().resource::<Battle>().combat.journal().len(), journal);
    // Redo, save: the save's replay has the same opening and the same state.
    chord(&mut a, KeyCode::KeyY);
    assert_eq!(opened(&a), 1);
    tap(&mut a, KeyCode::F5);
    let loaded = skirmish::save::load(&dir.join(skirmish::game::session::QUICK_SLOT)).unwrap();
    assert_eq!(loaded.combat.state_hash(), hash(&a), "the save's replay reproduces the battle");
    assert_eq!(loaded.combat.log().to_ron(), a.world().resource::<Battle>().combat.log().to_ron());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ai_gm_opens_openings_in_the_game_when_no_person_holds_the_seat() {
    let mut a = app(PlayOptions {
        ruleset: Some("homebrew-d20".into()),
        all_ai: true,
        start_now: true,
        seed: Some(4),
        ..default()
    });
    for _ in 0..200 {
        if screen(&a) == Screen::End {
            break;
        }
        a.update();
    }
    let b = a.world().resource::<Battle>();
    assert_eq!(b.combat.status(), EngineStatus::Ended);
    let openings = b.combat.log().events.iter().filter(|e| matches!(e, CombatEvent::OpeningCreated { .. })).count();
    assert!(openings > 0, "the AI GM opened none");
    assert!(
        b.combat.journal().iter().any(|e| matches!(
            e,
            skirmish::rules::journal::Entry::Command {
                by: skirmish::rules::journal::Issuer::Gm,
                ok: true,
                cmd: Command::Gm(_)
            }
        )),
        "the AI GM's openings are journaled as the GM's"
    );
}

/// A battle of one Knight (the person's) against one Orc (the AI's) on a small map.
fn knight_and_orc(map: &str, knight_at: (i32, i32), orc_at: (i32, i32)) -> (App, Cid) {
    let mut a = app(PlayOptions { ruleset: Some("homebrew-d20".into()), seed: Some(9), ..default() });
    let enc = skirmish::encounter::Encounter::from_ron_str(
        "duel.ron",
        &format!(
            r#"(name: "Duel", map: {map},
            sides: [(name: "heroes", controller: Human), (name: "monsters", controller: Ai)],
            combatants: [
              (name: "Knight", side: "heroes", stats: {{"STR": 3, "DEX": 1}}, hp: 30, abilities: ["sword", "bow"], initiative: Total(20), at: {knight_at:?}),
              (name: "Orc", side: "monsters", stats: {{"STR": 2}}, hp: 30, abilities: ["sword"], initiative: Total(5), at: {orc_at:?}),
            ])"#
        ),
    )
    .unwrap();
    let ruleset = a.world().resource::<skirmish::game::library::Library>().ruleset("homebrew-d20").unwrap().clone();
    a.world_mut().insert_resource(BattleSetup {
        file: "duel.ron".into(),
        encounter: enc,
        ruleset_name: "homebrew-d20".into(),
        ruleset,
        sides: [("heroes".to_string(), SideControl::Human), ("monsters".to_string(), SideControl::Ai)].into(),
        seed: 9,
        scenario: None,
        mods: Vec::new(),
        from_save: None,
    });
    a.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    a.update();
    let knight = until_human_turn(&mut a);
    (a, knight)
}

#[test]
fn a_click_the_engine_would_refuse_says_why_in_its_words_and_sends_nothing() {
    // The bow chosen, the Orc behind a wall: "Orc: ... no line of sight".
    let (mut a, _) = knight_and_orc(r#"["..#..", "....."]"#, (0, 0), (4, 0));
    a.world_mut().resource_mut::<skirmish::game::Selection>().ability = Some("bow".into());
    let journal = a.world().resource::<Battle>().combat.journal().len();
    a.world_mut().resource_mut::<CursorCell>().0 = Some(GridPos { x: 4, y: 0 });
    // Hovering says why first.
    a.update();
    let hover = a.world().resource::<skirmish::game::input::HoverReason>().text.clone().unwrap_or_default();
    assert!(hover.starts_with("Orc: ") && hover.contains("no line of sight"), "{hover:?}");
    tap(&mut a, MouseButton::Left);
    let b = a.world().resource::<Battle>();
    let said = b.last_rejection.clone().unwrap_or_default();
    assert!(said.starts_with("Orc: ") && said.contains("no line of sight"), "{said:?}");
    assert_eq!(b.combat.journal().len(), journal, "nothing was sent");
    assert_eq!(
        a.world().resource::<skirmish::game::Selection>().ability.as_deref(),
        Some("bow"),
        "the bow stays chosen for another target"
    );
    // Nothing chosen, the Orc out of the sword's reach and behind a wall for the bow: the first
    // attack's refusal, with the distance.
    let (mut a, _) = knight_and_orc(r#"[".#..", "...."]"#, (0, 0), (3, 0));
    a.world_mut().resource_mut::<CursorCell>().0 = Some(GridPos { x: 3, y: 0 });
    tap(&mut a, MouseButton::Left);
    let said = a.world().resource::<Battle>().last_rejection.clone().unwrap_or_default();
    assert!(said.starts_with("Orc: sword: ") && said.contains("squares away, at most"), "{said:?}");
}

#[test]
fn a_click_whose_press_and_release_fall_in_one_frame_still_counts() {
    // The Orc next to the Knight: a click on it attacks (as `clicking_an_enemy_in_reach_attacks_it`),
    // here with the press and the release injected before one and the same frame.
    let (mut a, knight) = knight_and_orc(r#"["....", "...."]"#, (1, 0), (2, 0));
    a.world_mut().resource_mut::<CursorCell>().0 = Some(GridPos { x: 2, y: 0 });
    MouseButton::Left.press(a.world_mut());
    MouseButton::Left.release(a.world_mut());
    a.update();
    a.update();
    let b = a.world().resource::<Battle>();
    assert!(
        b.combat
            .log()
            .events
            .iter()
            .any(|e| matches!(e, CombatEvent::AttackRolled { attacker, .. } if *attacker == knight)),
        "the quick click was lost: {:?}",
        b.last_rejection
    );
}
