//! The game's own plugins, headless (no window, no GPU): AI-vs-AI encounters played to the end
//! under every ruleset, and a player's keys and clicks (leafwing input mocking) turned into a
//! move and an attack.

use std::time::Duration;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use leafwing_input_manager::prelude::Buttonlike;
use skirmish::game::battle::{Battle, BattleSetup, Highlights, Pacing, Policies, Policy, SideControl};
use skirmish::game::input::{Bindings, CursorCell, GameAction};
use skirmish::game::{GameLogicPlugin, PlayOptions, Screen};
use skirmish::rules::command::Command;
use skirmish::rules::components::{Cid, GridPos};
use skirmish::rules::log::CombatEvent;
use skirmish::rules::state::EngineStatus;

fn app(options: PlayOptions) -> App {
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
}

#[test]
fn clicking_an_enemy_in_reach_attacks_it() {
    let mut a = app(PlayOptions { ruleset: Some("homebrew-d20".into()), seed: Some(9), ..default() });
    // A tiny encounter: a knight next to an orc; the orc's side is played by the AI.
    let enc = skirmish::encounter::Encounter::from_ron_str(
        "duel.ron",
        r#"(name: "Duel", map: ["....", "...."],
            sides: [(name: "heroes", controller: Human), (name: "monsters", controller: Ai)],
            combatants: [
              (name: "Knight", side: "heroes", stats: {"STR": 3, "DEX": 1}, hp: 30, abilities: ["sword"], initiative: Total(20), at: (1, 0)),
              (name: "Orc", side: "monsters", stats: {"STR": 2}, hp: 30, abilities: ["sword"], initiative: Total(5), at: (2, 0)),
            ])"#,
    )
    .unwrap();
    let library = a.world().resource::<skirmish::game::library::Library>();
    let ruleset = library.ruleset("homebrew-d20").unwrap().clone();
    a.world_mut().insert_resource(BattleSetup {
        file: "duel.ron".into(),
        encounter: enc,
        ruleset_name: "homebrew-d20".into(),
        ruleset,
        sides: [("heroes".to_string(), SideControl::Human), ("monsters".to_string(), SideControl::Ai)].into(),
        seed: 9,
        scenario: None,
    });
    a.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    a.update();
    let knight = until_human_turn(&mut a);
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
    let dir = std::env::temp_dir().join(format!("skirmish-input-{}", std::process::id()));
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
