//! The fused driver (issue 22) against the rules schedule it stands in for: `Combat::settle`
//! calls the schedule's steps in its order without the schedule for combats without mods; the
//! same combats run on the schedule (`Combat::with_map_on_schedule`, `Combat::use_schedule`) must
//! give the same logs, state hashes after every command, schedule runs, outcomes and statuses,
//! and mark the same resources and components changed.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::message::Messages;
use skirmish::ai::{self, Brain};
use skirmish::rules::command::Command;
use skirmish::rules::components::*;
use skirmish::rules::dice::Dice;
use skirmish::rules::driver::Combat;
use skirmish::rules::log::{CombatLog, CommandOutcomes};
use skirmish::rules::map::BattleMap;
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::state::{CommandQueue, EngineStatus, Pending, Roster, TurnState, WorkQueue};
use skirmish::rules::timeline::Timeline;
use skirmish::sim::run::SCOPE;
use skirmish::sim::{self, MAX_COMMANDS, SimConfig};

use crate::sim::{bench_4v4, root};

/// Seeds played a ruleset.
const SEEDS: u64 = 40;

/// The bench encounter prepared under every ruleset in `assets/rulesets/`, each with the
/// encounter's round cap (as the simulator's runner plays it).
fn bench_rulesets() -> (sim::Prepared, Vec<Ruleset>) {
    let prep = sim::prepare(&SimConfig::new(bench_4v4(), None, 1)).expect("the bench encounter loads");
    let mut shipped: Vec<String> = std::fs::read_dir(root().join("assets/rulesets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    shipped.sort();
    let mut names: Vec<String> = prep.rulesets.iter().map(|r| r.name.clone()).collect();
    names.sort();
    assert_eq!(names, shipped, "every shipped ruleset is played");
    let rulesets = prep
        .rulesets
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(cap) = prep.encounter.max_rounds {
                r.round_cap = cap;
            }
            r
        })
        .collect();
    (prep, rulesets)
}

/// What a driver may not change, compared after set-up and after every command.
#[derive(Debug, PartialEq)]
struct Seen {
    hash: u64,
    runs: u64,
    status: EngineStatus,
    events: usize,
    last_outcome: Option<(Command, Result<(), skirmish::rules::command::Rejection>)>,
    outcomes: usize,
    outcome: (Option<String>, u32, bool),
    /// Each rules resource, then each component of each combatant: changed since the tick given.
    changed: Vec<bool>,
}

/// Which rules resources and combatant components changed since `since` (change detection).
fn changed_since(c: &Combat, since: Tick) -> Vec<bool> {
    let w = &c.world;
    let now = w.read_change_tick();
    let mut v = Vec::new();
    macro_rules! resources {
        ($($t:ty),*) => {$(
            v.push(w.get_resource_change_ticks::<$t>().expect("a rules resource").is_changed(since, now));
        )*};
    }
    resources!(
        CommandQueue,
        CommandOutcomes,
        TurnState,
        Pending,
        WorkQueue,
        EngineStatus,
        Roster,
        CombatLog,
        BattleMap,
        Timeline,
        Dice,
        Ruleset,
        Messages<Command>
    );
    for e in &w.resource::<Roster>().entities {
        let e = w.entity(*e);
        macro_rules! components {
            ($($t:ty),*) => {$(
                v.push(e.get_change_ticks::<$t>().expect("a rules component").is_changed(since, now));
            )*};
        }
        components!(
            Cid,
            CombatantName,
            Side,
            Stats,
            Health,
            GridPos,
            Movement,
            Abilities,
            Controller,
            InitiativeSetup,
            Initiative,
            ActionPool,
            Conditions,
            Casting,
            HeldActions,
            AssistBonuses,
            DisengagedFrom,
            CreatedEffects,
            Traits,
            Aware,
            Inventory
        );
    }
    v
}

/// What `c` shows now; `since`: the world's change tick before the last step.
fn seen(c: &Combat, since: Tick) -> Seen {
    let outcomes = c.world.resource::<CommandOutcomes>();
    Seen {
        hash: c.state_hash(),
        runs: c.runs(),
        status: c.status(),
        events: c.log().events.len(),
        last_outcome: outcomes.entries.last().cloned(),
        outcomes: outcomes.entries.len(),
        outcome: (c.turn().winner.clone(), c.turn().round, c.turn().ended),
        changed: changed_since(c, since),
    }
}

/// The last run of an observer that ran just now (the next system or system state fetched gets
/// the world's change tick as it is, so an observer's last run is one less): what it would see
/// changed after a step.
fn tick(c: &Combat) -> Tick {
    Tick::new(c.world.read_change_tick().get().wrapping_sub(1))
}

/// Play `fused` and `scheduled` in lockstep, one AI command at a time, comparing after each.
/// `mixed`, if given, plays along too, switching between the fused driver and the schedule.
fn lockstep(fused: &mut Combat, scheduled: &mut Combat, mut mixed: Option<&mut Combat>, what: &str) -> usize {
    let zero = Tick::new(0);
    assert_eq!(seen(fused, zero), seen(scheduled, zero), "{what}: after set-up");
    if let Some(m) = mixed.as_deref() {
        assert_eq!(seen(fused, zero), seen(m, zero), "{what}: after set-up (switching)");
    }
    let mut sent = 0;
    while sent < MAX_COMMANDS {
        let (ta, tb) = (tick(fused), tick(scheduled));
        let a = ai::play_by(fused, SCOPE, 1, |_| Brain::Tactical).sent;
        let b = ai::play_by(scheduled, SCOPE, 1, |_| Brain::Tactical).sent;
        assert_eq!(a, b, "{what}: command {sent} sent on one driver only");
        assert_eq!(fused.journal().last(), scheduled.journal().last(), "{what}: command {sent}");
        let expected = seen(fused, ta);
        assert_eq!(expected, seen(scheduled, tb), "{what}: after command {sent}");
        if let Some(m) = mixed.as_deref_mut() {
            m.use_schedule(sent % 3 == 1);
            let tm = tick(m);
            let c = ai::play_by(m, SCOPE, 1, |_| Brain::Tactical).sent;
            assert_eq!(a, c, "{what}: command {sent} (switching)");
            assert_eq!(expected, seen(m, tm), "{what}: after command {sent} (switching)");
        }
        if a == 0 {
            break;
        }
        sent += 1;
    }
    assert!(fused.log() == scheduled.log(), "{what}: the combat logs differ");
    assert_eq!(fused.journal(), scheduled.journal(), "{what}");
    if let Some(m) = mixed {
        assert!(fused.log() == m.log(), "{what}: the combat logs differ (switching)");
    }
    sent
}

#[test]
fn the_fused_driver_plays_the_bench_as_the_schedule_does_under_every_ruleset() {
    let (prep, rulesets) = bench_rulesets();
    let map = prep.encounter.battle_map();
    for rs in &rulesets {
        let specs = prep.encounter.specs_for(rs);
        let mut spare: Option<(Combat, Combat, Combat)> = None;
        let mut commands = 0;
        let mut ended = 0;
        for seed in 0..SEEDS {
            let what = format!("{} seed {seed}", rs.name);
            // Fresh combats on even seeds; on odd ones the last seed's, reset (as the simulator
            // plays every run after its first).
            let (mut f, mut s, mut m) = match spare.take() {
                Some((mut f, mut s, mut m)) if seed % 2 == 1 => {
                    assert!(f.reset(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("resets"));
                    assert!(s.reset(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("resets"));
                    m.use_schedule(seed % 4 == 1);
                    assert!(m.reset(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("resets"));
                    (f, s, m)
                }
                _ => (
                    Combat::with_map(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("sets up"),
                    Combat::with_map_on_schedule(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("sets up"),
                    Combat::with_map(rs.clone(), seed, &specs, map.clone(), &prep.dice).expect("sets up"),
                ),
            };
            // The switching combat plays along on a quarter of the seeds.
            let mixed = (seed % 4 < 2).then_some(&mut m);
            commands += lockstep(&mut f, &mut s, mixed, &what);
            ended += usize::from(f.status() == EngineStatus::Ended);
            spare = Some((f, s, m));
        }
        // The comparison saw whole fights.
        assert!(commands > 40 * SEEDS as usize, "{}: {commands} commands", rs.name);
        assert!(ended as u64 == SEEDS, "{}: {ended} of {SEEDS} fights ended", rs.name);
    }
}

#[test]
fn commands_written_as_messages_are_taken_in_as_the_schedule_takes_them() {
    let (prep, rulesets) = bench_rulesets();
    let map = prep.encounter.battle_map();
    for rs in &rulesets {
        let specs = prep.encounter.specs_for(rs);
        let mut fused = Combat::with_map(rs.clone(), 5, &specs, map.clone(), &prep.dice).expect("sets up");
        let mut scheduled =
            Combat::with_map_on_schedule(rs.clone(), 5, &specs, map.clone(), &prep.dice).expect("sets up");
        // `fused` switches drivers between settles, so that one driver's settle follows the
        // other's: no message may be taken in twice or lost.
        let mut turn = 0;
        let mut switch = |c: &mut Combat| {
            turn += 1;
            c.use_schedule(turn % 3 == 0);
        };
        for step in 0..12 {
            let what = format!("{} step {step}", rs.name);
            let (ta, tb) = (tick(&fused), tick(&scheduled));
            for (k, c) in [&mut fused, &mut scheduled].into_iter().enumerate() {
                let EngineStatus::AwaitingCommand(who) = c.status() else {
                    ai::play_by(c, SCOPE, 1, |_| Brain::Tactical);
                    continue;
                };
                let other = Cid((who.0 + 1) % c.len() as u32);
                // A message left for the engine, then a command sent: the message comes first
                // (the command of someone whose turn it is not is rejected).
                c.world.write_message(Command::EndTurn { actor: other });
                let _ = c.submit(Command::EndTurn { actor: who });
                for _ in 0..3 {
                    if k == 0 {
                        switch(c);
                    }
                    // A message on its own, taken in by the next settle, and a settle with none.
                    c.world.write_message(Command::EndTurn { actor: other });
                    c.settle();
                    if k == 0 {
                        switch(c);
                    }
                    c.settle();
                }
            }
            assert_eq!(seen(&fused, ta), seen(&scheduled, tb), "{what}");
            assert_eq!(
                fused.world.resource::<CommandOutcomes>().entries,
                scheduled.world.resource::<CommandOutcomes>().entries,
                "{what}"
            );
        }
        assert!(fused.log() == scheduled.log(), "{}: the combat logs differ", rs.name);
        assert!(fused.world.resource::<CommandOutcomes>().entries.len() > 12, "{}", rs.name);
    }
}
