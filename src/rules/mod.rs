//! The headless rules core.
//!
//! Builds on `MinimalPlugins` plus `StatesPlugin` and knows no window, renderer, egui or input.
//! The rules run in their own schedule, [`RulesSchedule`], with a single-threaded executor and
//! ordered [`TurnSystems`] sets. Everything in this crate plays through [`driver::Combat`], which
//! owns the combat's own `World`: the game's battle holds one, as do the simulator, the scenario
//! runner, saves and the tests. For a combat without mods it calls the schedule's steps in their
//! order without the schedule (the fused driver: the same functions, the rules fetched once a
//! settle); with mods it runs the schedule. [`RulesPlugin`] runs the same schedule from `Update`
//! inside a host `App`, for a program that embeds the rules in its own world, and for tests of
//! that.

#[doc(hidden)]
pub mod actions;
#[doc(hidden)]
pub mod combat;
pub mod command;
pub mod components;
pub mod data;
pub mod dice;
pub mod driver;
pub mod gm_policy;
pub mod journal;
#[doc(hidden)]
pub mod limits;
pub mod log;
pub mod map;
pub mod modding;
#[doc(hidden)]
pub mod movement;
pub mod odds;
#[doc(hidden)]
pub mod phases;
pub mod query;
pub mod ruleset;
#[doc(hidden)]
pub mod segments;
pub mod setup;
#[doc(hidden)]
pub mod state;
#[doc(hidden)]
pub mod timeline;
#[doc(hidden)]
pub mod turns;

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use command::Command;
use log::CommandOutcomes;
use state::{CommandQueue, EngineStatus, Pending, Rules, TurnState, WorkQueue};

/// The schedule the rules run in.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RulesSchedule;

/// The ordered steps of one run of the rules schedule.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnSystems {
    /// Take command messages into the queue.
    Intake,
    /// Roll and sort initiative (HB-04/05, G-HB-01/02, P1-13..17, G-P2-01, G-SG-01/02), run the
    /// surprise round first (P1-26..29), cross round boundaries (HB-07, G-HB-03/04/17, P1-06),
    /// expire timeline-point effects (P1-12, G-SG-10), resolve casts whose segment has come
    /// (SG-13) and start the next turn off the timeline (SG-05, SG-43), paying spread activities
    /// first (HB-26/27) and queueing pf2e's Step 1 (P2-04..13).
    TurnStart,
    /// Apply one command: spend actions (HB-06/08, HB-28, HB-31, HB-34/35, P2-14..19, G-P1-01,
    /// P1-27, SG-03..05), hold or ready (HB-49, G-P2-11, G-P1-04, SG-37), delay (G-P2-10,
    /// G-P1-03, SG-34..36), announce casts (SG-08..15, SG-26), answer decisions and take GM inputs
    /// (HB-11, HB-15, HB-23, HB-29, HB-51, G-HB-09, G-P2-12, P1-25, SG-18).
    Spend,
    /// Resolve effects, turn steps (P2-04..13, P2-20..26), openings (HB-29..33) and reactions:
    /// defensive rolls (HB-38..44), attacks of opportunity (HB-45..48, P1-21, G-P1-02, G-P2-17),
    /// held and readied actions first (HB-50, G-P1-04, SG-38), saves (HB-52/53), concentration
    /// (G-P1-09, SG-17, SG-25, SG-28).
    Reactions,
    /// End the turn when it is spent or declared done (G-HB-04, P2-18/19) and schedule the next
    /// (fixed cycle, or now + recovery time: SG-05, SG-14, SG-23).
    TurnEnd,
    /// Publish what the engine waits for.
    Advance,
}

/// Registers the rules resources, messages and schedule, and runs the schedule from `Update`
/// whenever a [`ruleset::Ruleset`] resource is present.
pub struct RulesPlugin;

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<Command>();
        init_resources(app.world_mut());
        app.add_schedule(rules_schedule());
        app.add_systems(Update, run_rules.run_if(resource_exists::<ruleset::Ruleset>));
    }
}

/// Insert every rules resource that has a default (the ruleset and dice are set up separately).
pub(crate) fn init_resources(world: &mut World) {
    world.init_resource::<Messages<Command>>();
    world.init_resource::<CommandQueue>();
    world.init_resource::<CommandOutcomes>();
    world.init_resource::<TurnState>();
    world.init_resource::<Pending>();
    world.init_resource::<WorkQueue>();
    world.init_resource::<EngineStatus>();
    world.init_resource::<state::Roster>();
    world.init_resource::<log::CombatLog>();
    world.init_resource::<map::BattleMap>();
}

/// Build the rules schedule: single-threaded, sets chained, ambiguities an error.
pub fn rules_schedule() -> Schedule {
    let mut s = Schedule::new(RulesSchedule);
    s.set_executor(SingleThreadedExecutor::new());
    s.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..default() });
    s.configure_sets(
        (
            TurnSystems::Intake,
            TurnSystems::TurnStart,
            TurnSystems::Spend,
            TurnSystems::Reactions,
            TurnSystems::TurnEnd,
            TurnSystems::Advance,
        )
            .chain(),
    );
    s.add_systems((
        intake_commands.in_set(TurnSystems::Intake),
        // Each rules system runs only when its run condition says it has something to do,
        // without fetching every rules resource otherwise (the simulator runs this schedule
        // about 150 times an encounter). The condition is the one place that asks: the turn
        // steps do not ask again (the executor evaluates it just before the system runs).
        start_next_turn.run_if(turn_may_start).in_set(TurnSystems::TurnStart),
        apply_next_command.run_if(commands_queued).in_set(TurnSystems::Spend),
        resolve_work.run_if(work_queued).in_set(TurnSystems::Reactions),
        end_finished_turn.run_if(turn_may_end).in_set(TurnSystems::TurnEnd),
        (publish_status, recycle_command_messages).chain().in_set(TurnSystems::Advance),
    ));
    s
}

/// Run the rules schedule until the engine waits for input (the game's `Update` hook).
fn run_rules(world: &mut World) {
    driver::settle_with(world, |w| w.run_schedule(RulesSchedule));
}

// The systems of the rules schedule and their run conditions are thin wrappers around the steps
// and tests below. The fused driver ([`run_fused`], used by [`driver::Combat`] for combats without
// mods) calls the same steps, behind the same tests, in the schedule's order: one copy of every
// rule. The steps take the `ResMut`s themselves where a system would, so that what they mark
// changed is what the system would have marked.

fn intake_commands(mut reader: MessageReader<Command>, mut queue: ResMut<CommandQueue>) {
    step_intake(&mut queue, reader.read().cloned());
}

/// [`start_next_turn`] has something to do: the combat has not started, or nothing is under way.
fn turn_may_start(turn: Res<TurnState>, pending: Res<Pending>, work: Res<WorkQueue>) -> bool {
    may_start_turn(&turn, &pending, &work)
}

/// [`apply_next_command`] has a command to look at.
fn commands_queued(queue: Res<CommandQueue>) -> bool {
    has_commands(&queue)
}

/// [`resolve_work`] has work to resolve.
fn work_queued(work: Res<WorkQueue>) -> bool {
    has_work(&work)
}

/// [`end_finished_turn`] may end the active turn: nothing is pending or under way.
fn turn_may_end(turn: Res<TurnState>, pending: Res<Pending>, work: Res<WorkQueue>) -> bool {
    may_end_turn(&turn, &pending, &work)
}

fn start_next_turn(mut r: Rules) {
    step_start_next_turn(&mut r);
}

fn apply_next_command(mut r: Rules, mut queue: ResMut<CommandQueue>, mut outcomes: ResMut<CommandOutcomes>) {
    step_apply_next_command(&mut r, &mut queue, &mut outcomes);
}

fn resolve_work(mut r: Rules) {
    step_resolve_work(&mut r);
}

fn end_finished_turn(mut r: Rules) {
    step_end_finished_turn(&mut r);
}

fn publish_status(
    turn: Res<TurnState>,
    pending: Res<Pending>,
    work: Res<WorkQueue>,
    queue: Res<CommandQueue>,
    timeline: Res<timeline::Timeline>,
    mut status: ResMut<EngineStatus>,
) {
    step_publish_status(&turn, &pending, &work, &queue, &timeline, &mut status);
}

/// Commands are read in the same run they are written for; drop old buffers so they never pile up.
fn recycle_command_messages(mut messages: ResMut<Messages<Command>>) {
    step_recycle(&mut messages);
}

/// Everything one run of the rules schedule reads or changes, fetched at once: the fused driver
/// fetches it once a settle instead of once a system.
#[derive(SystemParam)]
struct Engine<'w, 's> {
    rules: Rules<'w, 's>,
    queue: ResMut<'w, CommandQueue>,
    outcomes: ResMut<'w, CommandOutcomes>,
    status: ResMut<'w, EngineStatus>,
    messages: ResMut<'w, Messages<Command>>,
}

impl Engine<'_, '_> {
    /// As [`driver::settled`].
    fn settled(&self) -> bool {
        is_settled(&self.queue, &self.status)
    }
}

/// Whether the engine waits for input (or has ended) with no command left to apply.
fn is_settled(queue: &CommandQueue, status: &EngineStatus) -> bool {
    queue.0.is_empty() && !matches!(status, EngineStatus::Busy | EngineStatus::NotStarted)
}

/// One run of the rules schedule without the schedule (no mods: nothing else is in it): each
/// system's step in the schedule's order, each behind its run condition's test, evaluated where
/// the executor evaluates it (just before the system, after the ones before it ran).
fn run_fused(e: &mut Engine) {
    // Commands written as messages (the fused driver queues its own commands straight away);
    // taken out of the buffers, so the schedule's intake never reads them again.
    let incoming = (!e.messages.is_empty()).then(|| unread_commands(&mut e.messages));
    step_intake(&mut e.queue, incoming.into_iter().flatten());
    if may_start_turn(&e.rules.turn, &e.rules.pending, &e.rules.work) {
        step_start_next_turn(&mut e.rules);
    }
    if has_commands(&e.queue) {
        step_apply_next_command(&mut e.rules, &mut e.queue, &mut e.outcomes);
    }
    if has_work(&e.rules.work) {
        step_resolve_work(&mut e.rules);
    }
    if may_end_turn(&e.rules.turn, &e.rules.pending, &e.rules.work) {
        step_end_finished_turn(&mut e.rules);
    }
    step_publish_status(&e.rules.turn, &e.rules.pending, &e.rules.work, &e.queue, &e.rules.timeline, &mut e.status);
    step_recycle(&mut e.messages);
}

/// The command messages no intake has read yet, drained with those already read. Every run ends
/// by updating the buffers and nothing in a run writes commands, so the unread ones are those
/// written since the last run: the current update's.
fn unread_commands(messages: &mut Messages<Command>) -> impl Iterator<Item = Command> + '_ {
    let read = messages.len() - messages.iter_current_update_messages().len();
    messages.drain().skip(read)
}

fn step_intake(queue: &mut CommandQueue, incoming: impl IntoIterator<Item = Command>) {
    queue.0.extend(incoming);
}

fn may_start_turn(turn: &TurnState, pending: &Pending, work: &WorkQueue) -> bool {
    !turn.started || !(turn.ended || turn.active.is_some() || pending.0.is_some() || !work.0.is_empty())
}

fn has_commands(queue: &CommandQueue) -> bool {
    !queue.0.is_empty()
}

// Equivalent mutant (issue 26, docs/testing.md): `has_work` → `true` runs `resolve_work` on an empty
// queue, which takes nothing and changes nothing; the test only spares the call.
fn has_work(work: &WorkQueue) -> bool {
    !work.0.is_empty()
}

fn may_end_turn(turn: &TurnState, pending: &Pending, work: &WorkQueue) -> bool {
    turn.active.is_some() && pending.0.is_none() && work.0.is_empty() && !turn.ended
}

/// Runs when [`may_start_turn`] says so (the schedule's run condition, the fused driver's test),
/// which is the one place that asks whether a turn may start. Starting the combat may end it (one
/// side only) or leave a decision pending (G-P2-01's initiative tie); either way no turn is on the
/// timeline yet, or the combat is over, so `begin_next_turn` takes none and need not be asked
/// about. Whether the combat is over is asked where it can change: at its start and wherever a
/// creature falls (`Rules::check_combat_end`'s callers), so a turn that cannot begin needs no
/// check of its own.
fn step_start_next_turn(r: &mut Rules) {
    if !r.turn.started {
        r.start_combat();
    }
    r.begin_next_turn();
}

fn step_apply_next_command(r: &mut Rules, queue: &mut ResMut<CommandQueue>, outcomes: &mut ResMut<CommandOutcomes>) {
    // Effects already under way resolve before the next command is looked at, unless they wait
    // for a decision that this command may answer.
    if !r.work.0.is_empty() && r.pending.0.is_none() {
        return;
    }
    let Some(cmd) = queue.0.pop_front() else {
        return;
    };
    let result = r.apply_command(&cmd);
    if result.is_ok() {
        // A return, a release or any other change: the turns may go on.
        r.turn.waiting_return = false;
    }
    outcomes.entries.push((cmd, result));
}

fn step_resolve_work(r: &mut Rules) {
    r.resolve_work();
}

/// Runs when [`may_end_turn`] says so: nothing pending or under way, the combat on.
fn step_end_finished_turn(r: &mut Rules) {
    let Some(who) = r.turn.active else { return };
    if r.turn_is_over(who) {
        r.end_turn(who);
    }
}

fn step_publish_status(
    turn: &TurnState,
    pending: &Pending,
    work: &WorkQueue,
    queue: &CommandQueue,
    timeline: &timeline::Timeline,
    status: &mut ResMut<EngineStatus>,
) {
    let s = if turn.ended {
        EngineStatus::Ended
    } else if let Some(p) = &pending.0 {
        EngineStatus::AwaitingDecision(p.by)
    } else if !turn.started || !work.0.is_empty() || !queue.0.is_empty() {
        EngineStatus::Busy
    } else if let Some(a) = turn.active {
        EngineStatus::AwaitingCommand(a)
    } else if turn.waiting_return || (timeline.is_empty() && turn.surprise_slots.is_empty()) {
        // Everyone still standing is delaying, readying or holding a cast (segments): nothing
        // happens until one of them returns or releases.
        EngineStatus::AwaitingReturn
    } else {
        EngineStatus::Busy
    };
    // Changed only when it changes.
    if **status != s {
        **status = s;
    }
}

fn step_recycle(messages: &mut Messages<Command>) {
    messages.update();
}
