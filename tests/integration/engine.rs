//! The engine's shape: one scheduler for every turn model, the schedule and its sets, the plugin
//! on `MinimalPlugins` + `StatesPlugin`, and the headless boundary.

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use skirmish::rules::command::{ActIntent, Command};
use skirmish::rules::components::Cid;
use skirmish::rules::log::CombatLog;
use skirmish::rules::ruleset::{ActionBudget, TurnModel};
use skirmish::rules::state::EngineStatus;
use skirmish::rules::timeline::{Timeline, TurnKey};
use skirmish::rules::{RulesPlugin, RulesSchedule};

use crate::common::*;

#[test]
fn segments_clock_orders_turns_by_time_then_initiative() {
    // 10 segments per round; next turn = now + recovery time.
    let mut tl = Timeline::new(TurnModel::RecoveryTime { segments_per_round: 10 });
    let (a, b, c) = (Cid(0), Cid(1), Cid(2));
    for (rank, who) in [a, b, c].into_iter().enumerate() {
        tl.schedule(TurnKey { time: tl.first_time(), rank: rank as u32, who });
    }
    let recovery = |w: Cid| match w.0 {
        0 => 5, // A: a slow weapon
        1 => 3, // B: a skirmish move
        _ => 2, // C: a quick action
    };
    let mut turns = Vec::new();
    while turns.len() < 10 {
        let k = tl.pop().unwrap();
        turns.push((k.who.0, tl.round_and_segment(k.time)));
        let next = tl.next_time(k.time, Some(recovery(k.who)));
        tl.schedule(TurnKey { time: next, ..k });
    }
    let expected = vec![
        (0, (1, 1)),
        (1, (1, 1)),
        (2, (1, 1)),
        (2, (1, 3)),
        (1, (1, 4)),
        (2, (1, 5)),
        (0, (1, 6)),
        (1, (1, 7)),
        (2, (1, 7)), // same segment: initiative order, B before C
        (2, (1, 9)),
    ];
    assert_eq!(turns, expected);
    // Segment 10 is still round 1; time 11 is round 2, segment 1.
    assert_eq!(tl.round_and_segment(10), (1, 10));
    assert_eq!(tl.round_and_segment(11), (2, 1));
    assert_eq!(tl.upcoming(2).len(), 2);
}

#[test]
fn segments_clock_drives_the_engine_by_recovery_time() {
    let mut rs = homebrew();
    rs.turn_model = TurnModel::RecoveryTime { segments_per_round: 10 };
    rs.budget = ActionBudget::OneTimedActionPerTurn;
    for a in &mut rs.abilities {
        a.recovery = Some(match a.id.as_str() {
            "sword" => 5,
            "move" => 3,
            _ => 2,
        });
    }
    let mut f = Fight::with_ruleset(
        rs,
        vec![
            who("A", "h", 20, (0, 0)).with(&["sword"]),
            who("B", "m", 15, (1, 0)).with(&["sword"]),
            who("C", "h", 10, (5, 5)).with(&["shout"]),
        ],
    );
    f.force(&[10]);
    // B has neither Dodge nor Parry (stats 0): the attack simply hits.
    f.act("A", "sword", &["B"]).unwrap();
    f.move_to("B", (3, 0)).unwrap();
    f.opportunity("A", None).unwrap();
    f.act("C", "shout", &[]).unwrap();
    f.act("C", "shout", &[]).unwrap();
    f.act("B", "move", &[]).unwrap_err();
    let starts: Vec<String> = f.text().into_iter().filter(|e| e.starts_with("TurnStarted")).collect();
    assert_eq!(
        starts,
        [
            "TurnStarted { who: A, round: 1, time: 1 }",
            "TurnStarted { who: B, round: 1, time: 1 }",
            "TurnStarted { who: C, round: 1, time: 1 }",
            "TurnStarted { who: C, round: 1, time: 3 }",
            "TurnStarted { who: B, round: 1, time: 4 }",
        ]
    );
}

fn plugin_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, RulesPlugin));
    let specs = vec![who("A", "h", 20, (0, 0)), who("B", "m", 10, (5, 0))];
    skirmish::rules::setup::setup_world(app.world_mut(), homebrew(), 7, &specs).unwrap();
    app
}

#[test]
fn the_rules_plugin_runs_on_minimal_plugins_and_states_from_update() {
    let mut app = plugin_app();
    app.update();
    assert_eq!(*app.world().resource::<EngineStatus>(), EngineStatus::AwaitingCommand(Cid(0)));
    app.world_mut().write_message(Command::Act(ActIntent::new(Cid(0), "defend", vec![])));
    app.world_mut().write_message(Command::EndTurn { actor: Cid(0) });
    app.update();
    let log = app.world().resource::<CombatLog>();
    let text: Vec<String> = log.events.iter().map(|e| log.describe(e)).collect();
    assert!(
        text.iter().any(|e| e.starts_with("ConditionApplied { who: A, condition: \"defensive_position\"")),
        "{text:?}"
    );
    assert_eq!(*app.world().resource::<EngineStatus>(), EngineStatus::AwaitingCommand(Cid(1)));
}

#[test]
fn the_rules_schedule_has_no_ambiguities() {
    let mut app = plugin_app();
    app.world_mut().schedule_scope(RulesSchedule, |world, schedule| {
        schedule.initialize(world).expect("ambiguity detection is an error, and there are none");
    });
}

#[test]
fn the_ambiguity_check_does_catch_an_ambiguity() {
    #[derive(Resource, Default)]
    struct Counter(u32);
    let mut world = World::new();
    world.init_resource::<Counter>();
    let mut s = Schedule::new(RulesSchedule);
    s.set_executor(SingleThreadedExecutor::new());
    s.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    s.add_systems((|mut c: ResMut<Counter>| c.0 += 1, |mut c: ResMut<Counter>| c.0 *= 2));
    assert!(s.initialize(&mut world).is_err());
    // And the engine's own schedule is built with that setting: two conflicting systems in one of
    // its sets make it refuse to build (a mutant dropping `ambiguity_detection` survived otherwise).
    let mut world = World::new();
    world.init_resource::<Counter>();
    let mut s = skirmish::rules::rules_schedule();
    s.add_systems(
        ((|mut c: ResMut<Counter>| c.0 += 1), (|mut c: ResMut<Counter>| c.0 *= 2))
            .in_set(skirmish::rules::TurnSystems::Spend),
    );
    assert!(s.initialize(&mut world).is_err(), "rules_schedule() reports ambiguities as errors");
}

#[test]
fn the_rules_modules_reach_no_window_render_egui_or_input_crate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let forbidden = [
        "bevy::render",
        "bevy::window",
        "bevy::winit",
        "bevy::input",
        "bevy::sprite",
        "bevy::ui",
        "bevy_egui",
        "egui",
        "leafwing",
        "DefaultPlugins",
    ];
    let mut checked = 0;
    // Every file under src/rules/, its folders (actions/, ruleset/) included.
    let mut files = Vec::new();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() { dirs.push(p) } else { files.push(p) }
        }
    }
    for p in files {
        // Code only: the docs may say what the rules do not use.
        let text: String = std::fs::read_to_string(&p)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for f in forbidden {
            assert!(!text.contains(f), "{} mentions {f}", p.display());
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} files read");
}

#[test]
fn a_changed_ruleset_file_changes_behaviour_without_recompiling() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron"),
    )
    .unwrap()
    .replace("budget: PerRoundPool(actions: 3)", "budget: PerRoundPool(actions: 4)");
    let rs = skirmish::rules::ruleset::Ruleset::from_ron_str("four.ron", &text).unwrap();
    let f = Fight::with_ruleset(rs, vec![who("A", "h", 20, (0, 0)), who("B", "m", 10, (5, 0))]);
    assert_eq!(f.actions("A"), 4);
    // A field left out takes its documented default (found by cargo-mutants: `default_mode`).
    let text = text.replace("default_movement_mode: \"walk\",", "");
    let rs = skirmish::rules::ruleset::Ruleset::from_ron_str("no-mode.ron", &text).unwrap();
    assert_eq!(rs.default_movement_mode, "walk");
}

#[test]
fn a_combat_counts_its_combatants() {
    // (Found by cargo-mutants: `Combat::is_empty` was never asked.)
    // A combat needs combatants: set-up refuses none, so a combat is never empty.
    let none = skirmish::rules::driver::Combat::new(homebrew(), 1, &[]).err().expect("refused");
    assert!(none.message.contains("no combatants"), "{}", none.message);
    // And no more than the files may hold: initiative ranks are spaced out by id in a u32.
    let max = skirmish::rules::limits::MAX_COMBATANTS;
    let crowd: Vec<_> =
        (0..=max).map(|i| who(&format!("C{i}"), "heroes", 10, ((i % 200) as i32, (i / 200) as i32))).collect();
    let many = skirmish::rules::driver::Combat::new(homebrew(), 1, &crowd).err().expect("refused");
    assert_eq!(many.message, format!("{} combatants: at most {max}", max + 1));
    let two = skirmish::rules::driver::Combat::new(
        homebrew(),
        1,
        &[who("A", "heroes", 10, (0, 0)), who("B", "monsters", 5, (1, 0))],
    )
    .unwrap();
    assert!(!two.is_empty());
    assert_eq!(two.len(), 2);
    // The log knows their names, for exports and sentences (found by cargo-mutants:
    // `CombatLog::name` was only read by the game's export).
    assert_eq!(two.log().name(Cid(1)), "B");
    assert_eq!(two.log().name(Cid(7)), "?");
}

/// `Combat::try_submit_as` (the AI tries its candidates with it, issue 22): a refused command
/// leaves no trace at all (journal, log, state), and a taken one is exactly `submit_as`'s.
#[test]
fn a_refused_try_leaves_no_trace_and_a_taken_one_is_sent_as_submit_as_sends_it() {
    use skirmish::rules::driver::Combat;
    use skirmish::rules::journal::Issuer;
    let load = |name: &str| {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{name}.ron"));
        skirmish::rules::ruleset::Ruleset::load(&p).unwrap()
    };
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = load(name);
        let melee = rs
            .abilities
            .iter()
            .find(|d| {
                matches!(
                    &d.effect,
                    skirmish::rules::ruleset::Effect::Attack { kind: skirmish::rules::ruleset::AttackKind::Melee, .. }
                )
            })
            .map(|d| d.id.clone())
            .expect("a melee attack");
        let specs = vec![who("A", "a", 20, (0, 0)).with(&[&melee]), who("B", "b", 10, (1, 0)).with(&[&melee])];
        let mut tried = Combat::new(load(name), 7, &specs).unwrap();
        let mut sent = Combat::new(load(name), 7, &specs).unwrap();
        let (a, b) = (tried.cid("A").unwrap(), tried.cid("B").unwrap());
        let (journal, log, hash) = (tried.journal().len(), tried.log().events.len(), tried.state_hash());
        // Not B's turn: refused, and nothing shows it was tried.
        let refused = Command::Act(ActIntent::new(b, melee.clone(), vec![a]));
        assert!(tried.try_submit_as(refused, Issuer::Ai).is_err(), "{name}");
        assert_eq!(tried.journal().len(), journal, "{name}: a refused try is not journalled");
        assert_eq!(tried.log().events.len(), log, "{name}");
        assert_eq!(tried.state_hash(), hash, "{name}");
        // Taken: the same journal, log and state as the same command sent by `submit_as` (the
        // command the AI would send now).
        let scope = skirmish::ai::AiScope { gm: true, all_creatures: true };
        let cmd = skirmish::ai::next_command(&tried, scope).expect("A's turn");
        assert!(matches!(cmd, Command::Act(_)), "{name}: {cmd:?}");
        assert_eq!(tried.try_submit_as(cmd.clone(), Issuer::Ai), Ok(()), "{name}");
        assert_eq!(sent.submit_as(cmd, Issuer::Ai), Ok(()), "{name}");
        assert_eq!(tried.journal(), sent.journal(), "{name}");
        assert_eq!(tried.log().events, sent.log().events, "{name}");
        assert_eq!(tried.state_hash(), sent.state_hash(), "{name}");
        assert_eq!(tried.journal().len(), journal + 1, "{name}: the taken command is journalled");
        // With mods (the rules schedule): a refused action is dry-run first, so not even a
        // schedule run (where mod systems run) happens.
        let mods = skirmish::modding::ModList::new().with(skirmish::modding::builtin::RegenerationMod);
        let map = skirmish::rules::map::BattleMap::default();
        let mut modded = Combat::with_mods(load(name), 7, &specs, map, &[], &mods).unwrap();
        let (runs, journal) = (modded.runs(), modded.journal().len());
        let refused = Command::Act(ActIntent::new(b, melee.clone(), vec![a]));
        assert!(modded.try_submit_as(refused, Issuer::Ai).is_err(), "{name}");
        assert_eq!((modded.runs(), modded.journal().len()), (runs, journal), "{name}: with mods, nothing ran");
    }
}
