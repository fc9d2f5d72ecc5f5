//! The headless driver: a `World` and the rules schedule, run straight with `Schedule::run`, or,
//! for a combat without mods, the schedule's steps called in its order without it (the fused
//! driver: the same rules, fetched once a settle).
//!
//! The simulator, the scenario runner and the tests use this; it is about twenty times cheaper per
//! step than `App::update`.

use std::collections::{BTreeMap, BTreeSet};

use bevy::ecs::query::QueryState;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::command::{ActIntent, Command, OpeningUse, Rejection};
use super::components::*;
use super::dice::Dice;
use super::journal::{Entry, Issuer, Origin};
use super::log::{CombatLog, CommandOutcomes, DrawReason};
use super::map::BattleMap;
use super::ruleset::Ruleset;
use super::setup::{CombatantSpec, SetupError, setup_world_on};
use super::state::{CombatantView, CombatantViewItem, CommandQueue, EngineStatus, Roster, Rules, TurnState};

/// Schedule runs allowed before the driver gives up waiting for the engine to settle.
pub const MAX_RUNS_PER_SETTLE: usize = 100_000;

/// Run the rules schedule (through `run`) until the engine waits for input. Should it still be
/// busy after [`MAX_RUNS_PER_SETTLE`] runs, the combat ends as a draw
/// ([`DrawReason::WorkLimit`]) rather than spin: a safety net that data within the load-time
/// limits never reaches (the round cap and the stalemate rule end combats first).
pub fn settle_with(world: &mut World, mut run: impl FnMut(&mut World)) {
    for _ in 0..MAX_RUNS_PER_SETTLE {
        run(world);
        // With mods installed, one more quiet run lets every mod system hear the last events.
        if settled(world) && super::modding::caught_up(world) {
            return;
        }
    }
    let mut state = SystemState::<Rules>::new(world);
    state.get_mut(world).expect("rules resources exist").draw(DrawReason::WorkLimit);
    state.apply(world);
    world.resource_mut::<CommandQueue>().0.clear();
    run(world);
}

/// Whether the engine waits for input (or has ended) with no command left to apply.
pub fn settled(world: &World) -> bool {
    super::is_settled(world.resource::<CommandQueue>(), world.resource::<EngineStatus>())
}

/// Which ruleset a combat plays under, as [`Combat::ruleset_stamp`] tells: its world and the
/// ruleset's change ticks there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeStamp {
    world: bevy::ecs::world::WorldId,
    added: u32,
    changed: u32,
}

/// One combat: its world and its rules schedule.
pub struct Combat {
    /// The world holding the combatants and the rules resources.
    pub world: World,
    schedule: Schedule,
    runs: u64,
    /// The sheets and pre-initiative dice it was set up from (for saves, replays and undo).
    origin: Origin,
    /// Every command sent and die forced since set-up, in order.
    journal: Vec<Entry>,
    /// The rules' system state for dry runs and queries, built once per world (building it
    /// computes the access of every combatant query: the AI asks many times a turn).
    rules_state: Option<(bevy::ecs::world::WorldId, SystemState<Rules<'static, 'static>>)>,
    /// A query over the components the AI reads of a combatant ([`CombatantView`]), for
    /// [`Combat::combatant`]: built for this world and brought up to date each time the engine
    /// settles.
    read_state: Option<(bevy::ecs::world::WorldId, QueryState<CombatantView>)>,
    /// Set up by [`Combat::with_map`] (no mods, nothing added to the world or the schedule), so
    /// [`Combat::reset`] may start another combat in the same world, and the fused driver may
    /// stand in for the schedule.
    resettable: bool,
    /// The world the combat was set up in (the only one its schedule runs in).
    home: bevy::ecs::world::WorldId,
    /// Run the schedule even where the fused driver could stand in for it (a test's reference).
    on_schedule: bool,
    /// Everything a run of the rules reads or changes, for the fused driver: built once, in the
    /// home world (the fused driver runs in no other: [`Combat::fused`]).
    engine_state: Option<SystemState<super::Engine<'static, 'static>>>,
    /// Where the AI GM (`crate::ai::gm`) has read the log up to: a driver's bookkeeping kept with
    /// the combat, so every driver and every call sees the same, not rules state (not in the state
    /// hash, not saved). `None`: nobody has looked since set-up or since journal entries were
    /// applied (a replay, an undo's rebuild, a redo: those events were judged when first played).
    gm_read: Option<usize>,
}

/// FNV-1a, 64 bits: a hash that is the same on every platform and in every process.
struct Fnv(u64);

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for b in s.bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

impl Combat {
    /// Set up a combat and run it until it first waits for input.
    pub fn new(ruleset: Ruleset, seed: u64, specs: &[CombatantSpec]) -> Result<Self, SetupError> {
        Self::with_forced_dice(ruleset, seed, specs, &[])
    }

    /// As [`Combat::new`], with dice forced before initiative is rolled.
    pub fn with_forced_dice(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        dice: &[i32],
    ) -> Result<Self, SetupError> {
        Self::with_map(ruleset, seed, specs, BattleMap::default(), dice)
    }

    /// Set up a combat on a battle map, with dice forced before initiative is rolled, and run it
    /// until it first waits for input. A combatant placed off the map or on a wall is a set-up
    /// error naming it.
    pub fn with_map(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
    ) -> Result<Self, SetupError> {
        Self::build(ruleset, seed, specs, map, dice, |_, _| {}, true, false)
    }

    /// As [`Combat::with_map`], run on the rules schedule rather than the fused driver (see
    /// [`Combat::use_schedule`]): the reference the fused driver is tested against.
    #[doc(hidden)]
    pub fn with_map_on_schedule(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
    ) -> Result<Self, SetupError> {
        Self::build(ruleset, seed, specs, map, dice, |_, _| {}, true, true)
    }

    /// Run the rules schedule (`true`) or let the fused driver stand in for it (`false`, the
    /// default) from the next settle on. The fused driver runs only for a combat without mods
    /// ([`Combat::with_map`], [`Combat::new`], [`Combat::with_forced_dice`]) in the world it was
    /// set up in; it calls the schedule's steps in its order, with the same results, logs, state
    /// hashes and [`Combat::runs`]. For tests that compare the two.
    #[doc(hidden)]
    pub fn use_schedule(&mut self, on: bool) {
        self.on_schedule = on;
    }

    /// Whether the fused driver stands in for the schedule: no mods (nothing was added to the
    /// world or the schedule), the world the combat was set up in, and not told otherwise.
    fn fused(&self) -> bool {
        self.resettable && !self.on_schedule && self.world.id() == self.home
    }

    /// Start a new combat in this combat's world and schedule, as [`Combat::with_map`] would set
    /// it up: the same log, state and outcomes, without building a world and a schedule again
    /// (the simulator plays thousands of combats a second this way). Every combatant is removed
    /// and every rules resource set afresh. Only for a combat made by [`Combat::with_map`] (or
    /// [`Combat::new`], [`Combat::with_forced_dice`]): one with mods returns `Ok(false)` and
    /// stays as it was, as does one whose world was swapped. On a set-up error the combat is
    /// left without combatants.
    pub fn reset(
        &mut self,
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
    ) -> Result<bool, SetupError> {
        self.reset_with(Some(ruleset), seed, specs, map, dice)
    }

    /// As [`Combat::reset`] under the ruleset the combat already has (as set up or last reset):
    /// the simulator's runs of one encounter, where cloning the ruleset for every run was most
    /// of a reset's cost (issue 22).
    pub fn reset_keeping_ruleset(
        &mut self,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
    ) -> Result<bool, SetupError> {
        self.reset_with(None, seed, specs, map, dice)
    }

    fn reset_with(
        &mut self,
        ruleset: Option<Ruleset>,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
    ) -> Result<bool, SetupError> {
        let built_here = self.rules_state.as_ref().is_none_or(|(w, _)| *w == self.world.id());
        if !self.resettable || !built_here {
            return Ok(false);
        }
        match ruleset.as_ref().or_else(|| self.world.get_resource::<Ruleset>()) {
            Some(rs) => super::setup::validate_on(rs, specs, &map)?,
            None => return Ok(false),
        }
        let w = &mut self.world;
        // (Not `World::clear_entities`: resources are entities too.)
        let old = std::mem::take(&mut w.resource_mut::<Roster>().entities);
        for e in old {
            w.despawn(e);
        }
        // Forget the removals just made, so they never pile up.
        w.clear_trackers();
        // Resources `setup_world_on` only initialises when missing; it inserts the others. The
        // command messages stay: the intake system's reader has read them all.
        w.insert_resource(CommandQueue::default());
        w.insert_resource(CommandOutcomes::default());
        w.insert_resource(super::state::Pending::default());
        w.insert_resource(super::state::WorkQueue::default());
        w.insert_resource(EngineStatus::default());
        setup_world_on(w, ruleset, seed, specs, map)?;
        w.resource_mut::<Dice>().force(dice.iter().copied());
        self.origin = Origin { specs: specs.to_vec(), dice: dice.to_vec() };
        self.journal.clear();
        self.runs = 0;
        self.gm_read = None;
        self.settle();
        Ok(true)
    }

    /// As [`Combat::with_map`], letting `prepare` change the world and the rules schedule once the
    /// combatants are spawned and before the engine first runs (how mods are installed, see
    /// [`super::modding`]).
    pub fn with_map_prepared(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
        prepare: impl FnOnce(&mut World, &mut Schedule),
    ) -> Result<Self, SetupError> {
        Self::build(ruleset, seed, specs, map, dice, prepare, false, true)
    }

    fn build(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
        prepare: impl FnOnce(&mut World, &mut Schedule),
        resettable: bool,
        on_schedule: bool,
    ) -> Result<Self, SetupError> {
        let mut world = World::new();
        setup_world_on(&mut world, Some(ruleset), seed, specs, map)?;
        world.resource_mut::<Dice>().force(dice.iter().copied());
        let origin = Origin { specs: specs.to_vec(), dice: dice.to_vec() };
        let mut schedule = super::rules_schedule();
        prepare(&mut world, &mut schedule);
        let home = world.id();
        let mut c = Self {
            world,
            schedule,
            runs: 0,
            origin,
            journal: Vec::new(),
            rules_state: None,
            read_state: None,
            resettable,
            home,
            on_schedule,
            engine_state: None,
            gm_read: None,
        };
        c.settle();
        Ok(c)
    }

    /// The rules' view of the world, through a system state kept while the world stays the same.
    fn rules(&mut self) -> Rules<'_, '_> {
        let id = self.world.id();
        if self.rules_state.as_ref().is_none_or(|(w, _)| *w != id) {
            self.rules_state = Some((id, SystemState::new(&mut self.world)));
        }
        let (_, state) = self.rules_state.as_mut().expect("set just above");
        state.get_mut(&mut self.world).expect("rules resources exist")
    }

    /// Run the rules until the engine waits for input: the schedule, or for a combat without
    /// mods the fused driver, which calls the schedule's steps in its order without it.
    pub fn settle(&mut self) {
        if self.fused() {
            self.settle_fused(None);
        } else {
            let schedule = &mut self.schedule;
            let runs = &mut self.runs;
            settle_with(&mut self.world, |w| {
                *runs += 1;
                schedule.run(w);
            });
        }
        self.settled_now();
    }

    /// As [`settle_with`] running the schedule, with the fused driver: the rules and the driver's
    /// resources fetched once, then runs of the schedule's steps ([`super::run_fused`]) until the
    /// engine waits, counted as schedule runs, with the same limit and the same draw past it. A
    /// command to send first goes straight into the command queue (as the intake would take it
    /// from its message) unless command messages wait to be taken in before it.
    fn settle_fused(&mut self, cmd: Option<Command>) {
        let world = &mut self.world;
        // As each schedule run does first.
        world.check_change_ticks();
        let state = self.engine_state.get_or_insert_with(|| SystemState::new(world));
        let mut e = state.get_mut(world).expect("rules resources exist");
        if let Some(cmd) = cmd {
            if e.messages.is_empty() {
                e.queue.0.push_back(cmd);
            } else {
                e.messages.write(cmd);
            }
        }
        for _ in 0..MAX_RUNS_PER_SETTLE {
            self.runs += 1;
            super::run_fused(&mut e);
            // (No mods, so no mod system waits to hear the last events: see `settle_with`.)
            if e.settled() {
                return;
            }
        }
        e.rules.draw(DrawReason::WorkLimit);
        e.queue.0.clear();
        self.runs += 1;
        super::run_fused(&mut e);
    }

    /// Bring the combatant reader up to date once the engine has settled.
    fn settled_now(&mut self) {
        // (The schedule and the fused driver run only in the world the combat was set up in, so
        // this is that world.)
        match &mut self.read_state {
            Some((_, q)) => q.update_archetypes(&self.world),
            None => self.read_state = Some((self.world.id(), QueryState::new(&mut self.world))),
        }
    }

    /// Schedule runs so far.
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// A stable hash of the whole rules state, the same across runs, processes and platforms
    /// (64-bit FNV-1a over a fixed text rendering: ordered collections only, no entity ids, no
    /// addresses, no `HashMap` order). It covers:
    ///
    /// - every combatant, in id order, with all its components: id, name, side, stats, hit
    ///   points, square, movement, abilities, controller, initiative set-up and result, action
    ///   pool, conditions with their durations and values, the activity or cast under way (and a
    ///   held cast), held and readied actions, Assist bonuses, disengagements, effects it created,
    ///   traits, awareness and items; and the components of the types mods registered
    ///   (`ModBuilder::register_type`), rendered through reflection;
    /// - the turn state (seed, round, active creature, order, delays, surprise round, timeline-point
    ///   expiries, ...), the timeline, the pending decision, the queued work and commands, who
    ///   stands where and the engine status;
    /// - the dice stream's position (the RNG's word position) and the forced dice still queued;
    /// - the combat log's length.
    ///
    /// Not in it: the ruleset and the battle map (static inputs, stored beside the hash in a
    /// save), the log's text (fixed by the state that produced it), the outcomes of rejected
    /// commands and the journal (a rejected command changes nothing). See `docs/saves.md`.
    pub fn state_hash(&self) -> u64 {
        use std::fmt::Write;
        let w = &self.world;
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        let roster = w.resource::<Roster>();
        for e in &roster.entities {
            let Ok(c) = w.get_entity(*e) else { continue };
            let _ = write!(
                h,
                "{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
                c.get::<Cid>(),
                c.get::<CombatantName>(),
                c.get::<Side>(),
                c.get::<Stats>(),
                c.get::<Health>(),
                c.get::<GridPos>(),
                c.get::<Movement>(),
                c.get::<Abilities>(),
                c.get::<Controller>(),
                c.get::<InitiativeSetup>(),
                c.get::<Initiative>(),
            );
            let _ = write!(
                h,
                "{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
                c.get::<ActionPool>(),
                c.get::<Conditions>(),
                c.get::<Casting>(),
                c.get::<HeldActions>(),
                c.get::<AssistBonuses>(),
                c.get::<DisengagedFrom>(),
                c.get::<CreatedEffects>(),
                c.get::<Traits>(),
                c.get::<Aware>(),
                c.get::<Inventory>(),
            );
            // Mods' components, through reflection (none without mods: the hash is unchanged).
            if let (Some(types), Some(reg)) =
                (w.get_resource::<super::modding::ModHashed>(), w.get_resource::<bevy::ecs::reflect::AppTypeRegistry>())
            {
                let reg = reg.read();
                for t in &types.0 {
                    let Some(r) = reg.get(*t) else { continue };
                    let Some(rc) = r.data::<bevy::ecs::reflect::ReflectComponent>() else { continue };
                    if let Some(v) = rc.reflect(c) {
                        let _ = write!(h, "{}{v:?}", r.type_info().type_path());
                    }
                }
            }
        }
        let _ = write!(
            h,
            "{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{}",
            w.resource::<TurnState>(),
            w.resource::<super::timeline::Timeline>(),
            w.resource::<super::state::Pending>(),
            w.resource::<super::state::WorkQueue>(),
            w.resource::<CommandQueue>().0,
            roster.occupied,
            w.resource::<EngineStatus>(),
            w.resource::<Dice>().position(),
            w.resource::<CombatLog>().events.len(),
        );
        h.0
    }

    /// Send a command and run until the engine waits again; returns the command's outcome. The
    /// journal records it with the issuer its creature's controller stands for (a command naming
    /// no creature: the GM); [`Combat::submit_as`] names the issuer.
    pub fn submit(&mut self, cmd: Command) -> Result<(), Rejection> {
        let by = match cmd.actor() {
            Some(c) => Issuer::of_controller(self.controller(c)),
            None => Issuer::Gm,
        };
        self.submit_as(cmd, by)
    }

    /// As [`Combat::submit`], recording `by` as the command's issuer in the journal (undo goes
    /// back to the last command a [`Issuer::Player`] sent).
    pub fn submit_as(&mut self, cmd: Command, by: Issuer) -> Result<(), Rejection> {
        let result = self.submit_unrecorded(cmd.clone());
        self.journal.push(Entry::Command { by, ok: result.is_ok(), cmd });
        result
    }

    /// [`Self::submit_as`] for a caller with candidates to try in turn (the AI): without mods
    /// the command itself is the dry run. Taken, it is recorded in the journal as `submit_as`
    /// records it; refused, nothing is recorded and, as for any refused command, the combat does
    /// not change (no event, the same state hash; only the engine's own counters move: the
    /// schedule runs, the outcomes kept, the world's change tick). So a taken command costs one
    /// check instead of a dry run and a check. With mods an action is first dry-run
    /// ([`Self::check_act`]) and sent only if it passes: a refusal runs no mod system.
    pub fn try_submit_as(&mut self, cmd: Command, by: Issuer) -> Result<(), Rejection> {
        if !self.fused()
            && let Command::Act(i) = &cmd
        {
            self.check_act(i)?;
        }
        let result = self.submit_unrecorded(cmd.clone());
        if result.is_ok() {
            self.journal.push(Entry::Command { by, ok: true, cmd });
        }
        result
    }

    /// The journal: every command sent and die forced since set-up, in order.
    pub fn journal(&self) -> &[Entry] {
        &self.journal
    }

    /// The sheets and pre-initiative dice this combat was set up from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Apply one journal entry as it was recorded (a replay): a command with its recorded issuer,
    /// or forced dice. Returns the command's outcome (forced dice: `Ok`).
    pub fn apply_entry(&mut self, entry: &Entry) -> Result<(), Rejection> {
        self.gm_read = None;
        match entry {
            Entry::Command { by, cmd, .. } => self.submit_as(cmd.clone(), *by),
            Entry::Force(v) => {
                self.force_dice(v.iter().copied());
                Ok(())
            }
        }
    }

    fn submit_unrecorded(&mut self, cmd: Command) -> Result<(), Rejection> {
        let before = self.world.resource::<CommandOutcomes>().entries.len();
        if self.fused() {
            self.settle_fused(Some(cmd));
            self.settled_now();
        } else {
            self.world.write_message(cmd);
            self.settle();
        }
        let outcomes = self.world.resource::<CommandOutcomes>();
        match outcomes.entries.get(before) {
            Some((_, r)) => r.clone(),
            None => Err(Rejection::CombatOver),
        }
    }

    /// What the engine waits for.
    pub fn status(&self) -> EngineStatus {
        self.world.resource::<EngineStatus>().clone()
    }

    /// The clock now: (round, segment), the segment 0 in a fixed cycle of rounds.
    pub fn clock(&self) -> (u32, u32) {
        let tl = self.world.resource::<super::timeline::Timeline>();
        match tl.model {
            Some(super::ruleset::TurnModel::RecoveryTime { .. }) => tl.round_and_segment(tl.now),
            _ => (self.turn().round, 0),
        }
    }

    /// The combat log.
    pub fn log(&self) -> &CombatLog {
        self.world.resource::<CombatLog>()
    }

    /// The engine's turn state.
    pub fn turn(&self) -> &TurnState {
        self.world.resource::<TurnState>()
    }

    /// The ruleset in force.
    pub fn ruleset(&self) -> &Ruleset {
        self.world.resource::<Ruleset>()
    }

    /// Which ruleset is in force, for a reader that keeps what it works out from the ruleset
    /// across calls (the tactical AI's ratings): the stamp differs once the ruleset is replaced
    /// (a set-up or reset with another) or changed in place (`world.resource_mut::<Ruleset>()`),
    /// provided the change came after [`Combat::seal_changes`] was last called. Before that call
    /// a change made in the same instant as the stamp may not show: Bevy's change tick moves on
    /// only when a system runs or the rules' state is fetched (once a settle under the fused
    /// driver), not between two reads with no settle between. None without a ruleset.
    pub fn ruleset_stamp(&self) -> Option<ChangeStamp> {
        let t = self.world.get_resource_change_ticks::<Ruleset>()?;
        Some(ChangeStamp { world: self.world.id(), added: t.added.get(), changed: t.changed.get() })
    }

    /// Move the world's change tick on, so that every change made from now on (to the ruleset, a
    /// creature's stats or abilities, anything) carries a tick newer than every one read so far:
    /// a reader that stored a [`Combat::ruleset_stamp`] or a component's ticks
    /// ([`CombatantView`]'s `stats` and `abilities`) calls this once after storing them, and
    /// then a stamp or tick equal to the stored one means no change since. Nothing the rules
    /// read or log depends on the tick.
    pub fn seal_changes(&self) {
        self.world.as_unsafe_world_cell_readonly().increment_change_tick();
    }

    /// Force the next dice results.
    pub fn force_dice(&mut self, values: impl IntoIterator<Item = i32>) {
        let values: Vec<i32> = values.into_iter().collect();
        self.world.resource_mut::<Dice>().force(values.iter().copied());
        self.journal.push(Entry::Force(values));
    }

    /// A combatant's id by name.
    pub fn cid(&self, name: &str) -> Option<Cid> {
        self.log().names.iter().position(|n| n == name).map(|i| Cid(i as u32))
    }

    /// A combatant's name.
    pub fn name(&self, c: Cid) -> String {
        self.get::<CombatantName>(c).map(|n| n.0.clone()).unwrap_or_else(|| format!("#{}", c.0))
    }

    /// A combatant's name in a language (`code`): its encounter's `names` entry, else its name.
    pub fn name_in(&self, c: Cid, code: &str) -> String {
        match self.get::<LocalNames>(c).and_then(|n| n.0.get(code)) {
            Some(n) => n.clone(),
            None => self.name(c),
        }
    }

    /// A rejection in words, with the creatures' names.
    pub fn explain(&self, r: &Rejection) -> String {
        r.describe(&|c| self.name(c))
    }

    /// Number of combatants.
    pub fn len(&self) -> usize {
        self.world.resource::<Roster>().entities.len()
    }

    /// Whether there are no combatants.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Read one component of a combatant.
    pub fn get<T: Component>(&self, c: Cid) -> Option<&T> {
        let e = self.world.resource::<Roster>().entity(c)?;
        self.world.get::<T>(e)
    }

    /// The components the AI reads of a combatant ([`CombatantView`]), at once: cheaper than one
    /// [`Combat::get`] each. None if there is no such combatant, or if the world changed shape
    /// since the engine last settled (a component added from outside the engine): then read with
    /// [`Combat::get`].
    pub fn combatant(&self, c: Cid) -> Option<CombatantViewItem<'_, '_>> {
        let (id, q) = self.read_state.as_ref()?;
        if *id != self.world.id() {
            return None;
        }
        let e = self.world.resource::<Roster>().entity(c)?;
        q.get_manual(&self.world, e).ok()
    }

    /// The next `k` turns as they stand now: creature, round, segment, under every turn model
    /// (see [`Rules::forecast`]: a fixed cycle repeats its order into later rounds).
    pub fn forecast(&mut self, k: usize) -> Vec<super::segments::ForecastTurn> {
        self.rules().forecast(k)
    }

    /// If `who` took `ability` now, the round and segment of its next turn: on a segment clock
    /// from the ability's recovery, cast or focus time (SG-05, SG-11/14, SG-26); in a fixed cycle,
    /// its slot in the next round (segment 0).
    pub fn next_turn_if(&mut self, who: Cid, ability: &str) -> Option<(u32, u32)> {
        if who.0 as usize >= self.len() {
            return None;
        }
        let def = self.ruleset().ability(ability).cloned()?;
        let rules = self.rules();
        let t = rules.next_turn_if(who, &def);
        Some(rules.timeline.round_and_segment(t))
    }

    /// The recovery time a creature holding a cast would owe if it released it now (SG-20,
    /// SG-23, G-X-03): the power's recovery time after every global modifier, plus what the
    /// actions taken while holding accrued. None when it holds no cast.
    pub fn release_owed(&mut self, who: Cid) -> Option<u32> {
        let held = self.get::<Casting>(who)?.0.as_ref().filter(|a| a.holding)?.clone();
        let recovery = self.ruleset().ability(&held.ability).and_then(|d| d.recovery).unwrap_or(0);
        Some(self.rules().effective_rt(who, recovery).saturating_add(held.accrued))
    }

    /// The multiple attack penalty `who`'s next use of `ability` would take now (G-P2-23): 0 off
    /// its own turn, for an ability without the attack trait, or under a ruleset without one.
    /// The HUD shows it on the ability bar ("Strike −5"); the AI prices with it.
    pub fn attack_penalty(&mut self, who: Cid, ability: &str) -> i32 {
        if who.0 as usize >= self.len() {
            return 0;
        }
        self.rules().attack_penalty(who, ability)
    }

    /// The chances that `attacker`'s next use of `ability` on `target` would hit and be a
    /// critical hit now, counted as the engine rolls it (issue 50: the penalty, flanking, assists,
    /// conditions, off-guard, degrees, threats and confirmation). None for an ability without an
    /// attack roll, or under an active defence (homebrew-d20's defensive rolls).
    pub fn attack_odds(&mut self, attacker: Cid, target: Cid, ability: &str) -> Option<super::odds::AttackOdds> {
        if attacker.0 as usize >= self.len() || target.0 as usize >= self.len() {
            return None;
        }
        self.rules().attack_odds(attacker, target, ability)
    }

    /// Out of the fight: the combatant has the ruleset's defeated condition (`Rules::is_down`).
    pub fn is_down(&self, c: Cid) -> bool {
        self.get::<Conditions>(c).is_some_and(|k| k.has(&self.ruleset().defeated_condition))
    }

    /// The controller of a combatant.
    pub fn controller(&self, c: Cid) -> Controller {
        self.get::<Controller>(c).copied().unwrap_or_default()
    }

    /// The battle map (the open plane unless the combat was set up on a map).
    pub fn map(&self) -> &BattleMap {
        self.world.resource::<BattleMap>()
    }

    /// A dry run of `Command::Act(intent)`: the engine's own validation
    /// ([`Rules::check_act`], the same function the engine applies commands through), without
    /// applying anything. `Ok` exactly when submitting the intent now would be accepted.
    pub fn check_act(&mut self, intent: &ActIntent) -> Result<(), Rejection> {
        self.rules().check_act_ok(intent)
    }

    /// A dry run of using `u` in opening `id` (the engine's own checks, `Rules::check_opening_use`):
    /// what it would cost from `who`'s pool, or why it would be refused. The opening itself must
    /// be the decision pending for `who`.
    pub fn check_opening_use(&mut self, who: Cid, id: u32, u: &OpeningUse) -> Result<u8, Rejection> {
        self.rules().check_opening_use(who, id, u).map(|(_, cost)| cost)
    }

    /// Where the AI GM has read the log up to (`None`: it has not looked since set-up or since
    /// journal entries were applied).
    pub fn gm_read(&self) -> Option<usize> {
        self.gm_read
    }

    /// Set where the AI GM has read the log up to.
    pub fn set_gm_read(&mut self, at: Option<usize>) {
        self.gm_read = at;
    }

    /// A dry run of a GM input ([`Rules::check_gm`]): `Ok` if the engine would take it now, or
    /// why not. Nothing changes.
    pub fn check_gm(&mut self, g: &crate::rules::command::GmInput) -> Result<(), Rejection> {
        self.rules().check_gm(g)
    }

    /// The opening the GM policy (`Ruleset::gm_policy`) calls for after the log events from
    /// index `since` on ([`Rules::opening_due`]): what the AI GM sends, and what the game's GM
    /// window suggests to a person.
    pub fn opening_due(&mut self, since: usize) -> Option<crate::rules::gm_policy::OpeningCall> {
        // Equivalent mutant (issue 26, docs/testing.md): `||` → `&&` only drops a shortcut: a policy
        // that never opens one is refused by `Rules::opening_due`, and no event since finds none below.
        if self.ruleset().gm_policy.is_never() || self.log().events.len() <= since {
            return None;
        }
        // Without an event that can call for one, none is due: the engine's state is not fetched
        // (the AI GM asks after every command).
        let rs = self.ruleset();
        if !self.log().events[since..].iter().any(|e| crate::rules::gm_policy::trigger_of(rs, e).is_some()) {
            return None;
        }
        self.rules().opening_due(since)
    }

    /// Dry runs of several intents at once (see [`Combat::check_act`]): the same answers, with
    /// the engine's system state built once. The HUD asks this for every ability and target.
    pub fn check_acts(&mut self, intents: &[ActIntent]) -> Vec<Result<(), Rejection>> {
        let rules = self.rules();
        intents.iter().map(|i| rules.check_act_ok(i)).collect()
    }

    /// The squares `who` could move to with `ability` now, with their movement cost: terrain
    /// along the cheapest path, walls and enemies in the way, free squares only. Empty if the
    /// ability is not a movement ability (`Move`, `MoveAs`, `Step`, `Disengage`, `Charge`) the
    /// creature has, or if using it now would be rejected for another reason than its
    /// destination (not its turn, no action left, unable to act; see [`Rules::check_act`]). For
    /// a `Move` with several movement modes, the fastest mode counts; use
    /// [`Combat::reachable_as`] to name one. A `Charge` lists where its movement could end; the
    /// target and the square next to it are checked when it is used.
    pub fn reachable(&mut self, who: Cid, ability: &str) -> BTreeMap<GridPos, u32> {
        self.reachable_as(who, ability, None)
    }

    /// As [`Combat::reachable`], moving with the named movement mode (none: the only or fastest).
    pub fn reachable_as(&mut self, who: Cid, ability: &str, mode: Option<&str>) -> BTreeMap<GridPos, u32> {
        if who.0 as usize >= self.len() {
            return BTreeMap::new();
        }
        self.rules().reachable_now(who, ability, mode)
    }

    /// The squares where leaving would provoke an attack of opportunity from an enemy of `who`:
    /// every square within melee reach of a hostile standing creature that could make one on it
    /// now (it can act, has a melee attack or reaction for it, a reaction left, is not flanked
    /// where that matters, not busy or flat-footed, and `who` has not disengaged from it; see
    /// `super::movement::no_opportunity`). Only squares on the map and not walls.
    pub fn threatened(&self, who: Cid) -> BTreeSet<GridPos> {
        let mut out = BTreeSet::new();
        let Some(side) = self.get::<Side>(who) else { return out };
        let rs = self.ruleset();
        let map = self.map();
        let roster = self.world.resource::<Roster>();
        let turn = self.turn();
        let reach = rs.engagement.melee_reach as i32;
        let side_of = |c: Cid| self.get::<Side>(c);
        let disengaged = self.get::<DisengagedFrom>(who).map(|d| d.0.clone()).unwrap_or_default();
        for (&at, &enemy) in &roster.occupied {
            if enemy == who || side_of(enemy) == Some(side) {
                continue;
            }
            let (Some(conditions), Some(traits), Some(pool), Some(casting), Some(abilities)) = (
                self.get::<Conditions>(enemy),
                self.get::<Traits>(enemy),
                self.get::<ActionPool>(enemy),
                self.get::<Casting>(enemy),
                self.get::<Abilities>(enemy),
            ) else {
                continue;
            };
            let reactor = super::movement::Reactor {
                conditions,
                traits,
                pool,
                casting,
                abilities,
                delayed: turn.delayed.contains(&enemy),
            };
            let enemy_side = side_of(enemy);
            let flanked = rs.engagement.no_opportunity_from_flanked
                && super::query::flanked(at, |q| {
                    roster.occupied.get(&q).is_some_and(|o| *o != enemy && side_of(*o) != enemy_side)
                });
            if super::movement::no_opportunity(rs, &reactor, flanked, disengaged.contains(&enemy)).is_some() {
                continue;
            }
            for dx in -reach..=reach {
                for dy in -reach..=reach {
                    let p = GridPos { x: at.x.saturating_add(dx), y: at.y.saturating_add(dy) };
                    if p != at && map.passable(p) {
                        out.insert(p);
                    }
                }
            }
        }
        out
    }
}
