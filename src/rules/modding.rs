//! The modding surface of the rules core: what a Rust mod may add, hear and change.
//!
//! A mod is a [`RulesMod`]: a name and a `build` function that receives a [`ModBuilder`]. Through
//! it the mod registers its components (for reflection: the F12 inspector), adds systems to the
//! ordered [`TurnSystems`] sets, and says which components to put on combatants when a combat is
//! set up. Its systems read what happened through [`ModRules::heard`] (or [`ModEvents`]) and
//! change the rules state only through [`ModRules`], whose every change is logged as a
//! [`CombatEvent::ModEffect`] naming the mod, followed by the engine's own events, and whose
//! every roll goes through the engine's seeded [`super::dice::Dice`]. Nothing else of the engine is reachable
//! from a mod: `ModRules` keeps the engine's `Rules` private.
//!
//! The order within one schedule run (see `docs/modding.md`):
//!
//! ```text
//! Intake → TurnStart: engine, then mods → Spend: engine, then mods
//!        → Reactions: engine, then mods → TurnEnd: engine, then mods → Advance
//! ```
//!
//! Within one set, mods run in load order, and one mod's systems in the order it added them.
//! With mods installed the driver runs the schedule once more after the engine settles, so every
//! mod system has heard every event before a command is awaited.

use std::sync::Arc;

use bevy::ecs::reflect::AppTypeRegistry;
use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::{ScheduleSystem, SystemParam};
use bevy::prelude::*;
use bevy::reflect::GetTypeRegistration;

use super::RulesSchedule;
pub use super::TurnSystems;
use super::combat::NewCondition;
use super::components::{Cid, Conditions, GridPos, Health};
use super::dice::DiceExpr;
use super::driver::Combat;
use super::log::{CombatEvent, CombatLog, EndReason, ModAction};
use super::map::BattleMap;
use super::ruleset::{AbilityDef, ConditionDef, Lasts, RollModifier, Ruleset};
use super::setup::{CombatantSpec, SetupError};
use super::state::Rules;
use super::timeline::TurnKey;

/// A Rust mod: a name and what it adds to a combat.
pub trait RulesMod: Send + Sync + 'static {
    /// The mod's name, as `--mod NAME` and the combat log show it.
    fn name(&self) -> &str;
    /// The mod's version.
    fn version(&self) -> &str {
        "0.1.0"
    }
    /// Register components, add systems, attach components to combatants.
    fn build(&self, m: &mut ModBuilder);
}

/// The mods to install, in load order.
#[derive(Resource, Clone, Default)]
pub struct ModList(pub Vec<Arc<dyn RulesMod>>);

impl std::fmt::Debug for ModList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl ModList {
    /// No mods.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a mod at the end of the load order.
    pub fn with(mut self, m: impl RulesMod) -> Self {
        self.0.push(Arc::new(m));
        self
    }

    /// The mods' names, in load order.
    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|m| m.name().to_string()).collect()
    }

    /// Whether no mod is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why a mod could not be installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModInstallError {
    /// The mod.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ModInstallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mod `{}`: {}", self.name, self.message)
    }
}

/// A set of one mod's systems: where it runs, and its place in the set.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModSlot {
    /// The turn set it runs in.
    pub step: TurnSystems,
    /// Its place among all mod slots (install order).
    pub index: u32,
}

/// What is installed in a world: the mods' names, and where their systems go.
#[derive(Resource, Debug, Clone, Default)]
pub struct InstalledMods {
    /// Mod names with their versions, in load order.
    pub names: Vec<(String, String)>,
    /// Every slot added, in order.
    pub slots: Vec<ModSlot>,
    log_mark: usize,
}

type Attach = Box<dyn Fn(&mut EntityWorldMut) + Send + Sync>;

/// The types mods registered, in registration order: their components join the state hash
/// (see `Combat::state_hash`).
#[derive(Resource, Default, Debug, Clone)]
pub struct ModHashed(pub Vec<std::any::TypeId>);

/// Functions that put mod components on each combatant when a combat is set up.
#[derive(Resource, Default)]
struct ModAttachers(Vec<Attach>);

/// The conditions and abilities mods define ([`ModBuilder::condition`], [`ModBuilder::ability`]),
/// each with the name of the mod that defines it, in load order.
#[derive(Resource, Default, Debug, Clone)]
pub struct ModContent {
    /// Conditions.
    pub conditions: Vec<(String, ConditionDef)>,
    /// Abilities.
    pub abilities: Vec<(String, AbilityDef)>,
}

/// What a mod's `build` gets: where to register types, add systems and attach components.
pub struct ModBuilder<'a> {
    world: &'a mut World,
    schedule: Option<&'a mut Schedule>,
    name: String,
    error: Option<String>,
}

impl ModBuilder<'_> {
    /// The mod being built.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Register a reflected component or type (so the F12 inspector can show and edit it). A
    /// registered component with `#[reflect(Component)]` is part of the combat's state hash
    /// (saves, replays and undo check it), read through its reflected `Debug` text: keep its
    /// fields in ordered types (`BTreeMap`, `Vec`), never a `HashMap`, or the hash would differ
    /// from one process to the next.
    pub fn register_type<T: GetTypeRegistration>(&mut self) -> &mut Self {
        self.world.get_resource_or_init::<AppTypeRegistry>().write().register::<T>();
        let mut hashed = self.world.get_resource_or_init::<ModHashed>();
        let id = std::any::TypeId::of::<T>();
        if !hashed.0.contains(&id) {
            hashed.0.push(id);
        }
        self
    }

    /// Add systems to one of the turn sets, after the engine's own system there and after every
    /// mod system added to that set before. Systems given together run in the order given.
    /// Mods may use `TurnStart`, `Spend`, `Reactions` and `TurnEnd`; `Intake` and `Advance` are
    /// the engine's alone (an error when the mod is installed).
    pub fn add_systems<M>(
        &mut self,
        step: TurnSystems,
        systems: impl IntoScheduleConfigs<ScheduleSystem, M>,
    ) -> &mut Self {
        if matches!(step, TurnSystems::Intake | TurnSystems::Advance) {
            self.error.get_or_insert(format!(
                "systems may go in TurnStart, Spend, Reactions or TurnEnd, not {step:?} (the engine's alone)"
            ));
            return self;
        }
        let Some(schedule) = self.schedule.as_deref_mut() else { return self };
        let mut installed = self.world.get_resource_or_init::<InstalledMods>();
        let slot = ModSlot { step, index: installed.slots.len() as u32 };
        let previous = installed.slots.iter().rev().find(|s| s.step == step).cloned();
        installed.slots.push(slot.clone());
        schedule.configure_sets(slot.clone().in_set(step));
        match previous {
            Some(p) => {
                schedule.configure_sets(slot.clone().after(p));
            }
            None => after_engine(schedule, slot.clone()),
        }
        let configs: ScheduleConfigs<ScheduleSystem> = systems.into_configs();
        schedule.add_systems(configs.chain().in_set(slot));
        self
    }

    /// Define a condition of the mod's own (a buff, a debuff, a roll modifier's source), added to
    /// the ruleset of every combat the mod is installed in, and checked as a data file's would be
    /// (the same ranges and cross-references; an id the ruleset already has is an error).
    /// [`ModRules::apply_condition_for`] and abilities then name it by its id.
    pub fn condition(&mut self, def: ConditionDef) -> &mut Self {
        let name = self.name.clone();
        self.world.get_resource_or_init::<ModContent>().conditions.push((name, def));
        self
    }

    /// Define a condition `id` that only carries a roll modifier (`rallied`: +1 status to attack
    /// rolls per value): [`Self::condition`] with nothing else set.
    pub fn modifier(&mut self, id: &str, modifier: RollModifier) -> &mut Self {
        self.condition(ConditionDef { modifiers: vec![modifier], ..ConditionDef::named(id) })
    }

    /// Define an ability of the mod's own, added to the ruleset as [`Self::condition`] adds a
    /// condition; creatures list it by id in their sheets.
    pub fn ability(&mut self, def: AbilityDef) -> &mut Self {
        let name = self.name.clone();
        self.world.get_resource_or_init::<ModContent>().abilities.push((name, def));
        self
    }

    /// Run `f` on every combatant, in id order, when a combat is set up (before initiative): read
    /// its sheet (`Traits`, `Stats`, ...) and insert the mod's components.
    pub fn on_combatant(&mut self, f: impl Fn(&mut EntityWorldMut) + Send + Sync + 'static) -> &mut Self {
        self.world.get_resource_or_init::<ModAttachers>().0.push(Box::new(f));
        self
    }
}

/// Order a mod slot after the engine's own system in its set.
fn after_engine(schedule: &mut Schedule, slot: ModSlot) {
    match slot.step {
        TurnSystems::TurnStart => schedule.configure_sets(slot.after(super::start_next_turn)),
        TurnSystems::Spend => schedule.configure_sets(slot.after(super::apply_next_command)),
        TurnSystems::Reactions => schedule.configure_sets(slot.after(super::resolve_work)),
        TurnSystems::TurnEnd => schedule.configure_sets(slot.after(super::end_finished_turn)),
        TurnSystems::Intake | TurnSystems::Advance => schedule,
    };
}

/// Install mods into a world and, if given, its rules schedule: types, systems and attach
/// functions, in load order. Without a schedule only the types are registered (the game's
/// inspector). Components are attached by [`attach_components`].
pub fn install(world: &mut World, mut schedule: Option<&mut Schedule>, mods: &ModList) -> Result<(), ModInstallError> {
    for m in &mods.0 {
        let mut b = ModBuilder {
            world: &mut *world,
            schedule: schedule.as_deref_mut(),
            name: m.name().to_string(),
            error: None,
        };
        m.build(&mut b);
        if let Some(message) = b.error {
            return Err(ModInstallError { name: m.name().to_string(), message });
        }
        world.get_resource_or_init::<InstalledMods>().names.push((m.name().to_string(), m.version().to_string()));
    }
    Ok(())
}

/// `ruleset` with the conditions and abilities the mods define ([`ModBuilder::condition`],
/// [`ModBuilder::ability`]), in load order. Each definition is checked as data is: it goes
/// through the data files' own reader (so the same ranges apply), and the whole ruleset is then
/// checked again (unknown condition ids in an ability, and the like). A definition the ruleset
/// already has word for word is left as it is (a ruleset the mods were applied to before); an id
/// the ruleset has with another definition is an error naming the mod.
pub fn ruleset_with_mods(mut ruleset: Ruleset, mods: &ModList) -> Result<Ruleset, ModInstallError> {
    if mods.is_empty() {
        return Ok(ruleset);
    }
    let mut scratch = World::new();
    install(&mut scratch, None, mods)?;
    let Some(content) = scratch.remove_resource::<ModContent>() else { return Ok(ruleset) };
    let fail = |name: &str, message: String| ModInstallError { name: name.to_string(), message };
    let rs_name = ruleset.name.clone();
    // Which mod of this list defined each id: a second mod defining it is a conflict even word for
    // word (one the ruleset had before is this list applied again, as undo and saves do).
    let mut by: std::collections::BTreeMap<(&str, String), String> = Default::default();
    let mut clash = |kind: &'static str, id: &str, name: &str| match by.get(&(kind, id.to_string())) {
        Some(first) if first != name => Err(fail(
            name,
            format!(
                "defines the {kind} `{id}`, which the Rust mod `{first}` defines too: two mods may not define one id \
                 (give one of them another id)"
            ),
        )),
        _ => {
            by.insert((kind, id.to_string()), name.to_string());
            Ok(())
        }
    };
    for (name, def) in content.conditions {
        clash("condition", &def.id, &name)?;
        add_checked(&mut ruleset.conditions, |c| &c.id, "condition", &rs_name, def, |_| Ok(()))
            .map_err(|m| fail(&name, m))?;
    }
    for (name, def) in content.abilities {
        clash("ability", &def.id, &name)?;
        let says_how_many = |d: &AbilityDef| super::query::unsaid_targets(d).map_or(Ok(()), Err);
        add_checked(&mut ruleset.abilities, |a| &a.id, "ability", &rs_name, def, says_how_many)
            .map_err(|m| fail(&name, m))?;
    }
    let text = ron::ser::to_string_pretty(&ruleset, ron::ser::PrettyConfig::default()).unwrap_or_default();
    let names = mods.names().join(", ");
    ruleset.validate(&format!("{} with the mods {names}", ruleset.name), &text).map_err(|e| fail(&names, e.message))?;
    Ok(ruleset)
}

/// Add a mod's definition to `list`, read back through the data reader first (the same ranges
/// as a data file) and checked by `check`; one the list has word for word is kept as it is,
/// another of the same id is an error.
fn add_checked<T: serde::Serialize + serde::de::DeserializeOwned>(
    list: &mut Vec<T>,
    id: impl Fn(&T) -> &String,
    kind: &str,
    ruleset: &str,
    def: T,
    check: impl Fn(&T) -> Result<(), String>,
) -> Result<(), String> {
    let text = ron::to_string(&def).map_err(|e| format!("{kind} `{}`: {e}", id(&def)))?;
    let def: T = super::data::parse_ron(&format!("{kind} `{}`", id(&def)), &text).map_err(|e| e.to_string())?;
    check(&def)?;
    match list.iter().find(|have| id(have) == id(&def)) {
        Some(have) if ron::to_string(have).ok().as_deref() == Some(text.as_str()) => Ok(()),
        Some(_) => Err(format!(
            "defines the {kind} `{}`, which the ruleset `{ruleset}` already has (from its file or a data mod): a Rust \
             mod adds {kind}s, it does not replace them (give it another id)",
            id(&def)
        )),
        None => {
            list.push(def);
            Ok(())
        }
    }
}

/// Put the mods' components on every combatant, in id order, each mod in load order.
pub fn attach_components(world: &mut World) {
    let Some(attachers) = world.remove_resource::<ModAttachers>() else { return };
    let entities = world.resource::<super::state::Roster>().entities.clone();
    for e in entities {
        if let Ok(mut ew) = world.get_entity_mut(e) {
            for f in &attachers.0 {
                f(&mut ew);
            }
        }
    }
    world.insert_resource(attachers);
}

/// Whether every mod system has heard every event: true without mods; with mods, true once a
/// schedule run appended nothing (the driver then stops).
pub fn caught_up(world: &mut World) -> bool {
    let len = world.resource::<CombatLog>().events.len();
    let Some(mut m) = world.get_resource_mut::<InstalledMods>() else { return true };
    if m.slots.is_empty() {
        return true;
    }
    let quiet = m.log_mark == len;
    m.log_mark = len;
    quiet
}

impl Combat {
    /// Set up a combat with mods installed (in load order), and run it until it first waits for
    /// input. The mods' components are on the combatants before initiative is rolled.
    pub fn with_mods(
        ruleset: Ruleset,
        seed: u64,
        specs: &[CombatantSpec],
        map: BattleMap,
        dice: &[i32],
        mods: &ModList,
    ) -> Result<Combat, SetupError> {
        let ruleset =
            ruleset_with_mods(ruleset, mods).map_err(|e| SetupError { combatant: None, message: e.to_string() })?;
        let mut failed = None;
        let c = Combat::with_map_prepared(ruleset, seed, specs, map, dice, |world, schedule| {
            match install(world, Some(schedule), mods) {
                Ok(()) => attach_components(world),
                Err(e) => failed = Some(e),
            }
        })?;
        match failed {
            Some(e) => Err(SetupError { combatant: None, message: e.to_string() }),
            None => {
                let mut c = c;
                // Kept so that undo (which rebuilds the combat from its set-up) installs them again.
                c.world.insert_resource(mods.clone());
                Ok(c)
            }
        }
    }

    /// The installed mods (name, version), in load order.
    pub fn mods(&self) -> Vec<(String, String)> {
        self.world.get_resource::<InstalledMods>().map(|m| m.names.clone()).unwrap_or_default()
    }
}

/// Installs a [`ModList`] into an `App`: registers the mods' types (for the inspector), keeps the
/// list as a resource (to pass to [`Combat::with_mods`]), and adds their systems to the
/// [`RulesSchedule`] if the app has one ([`super::RulesPlugin`] added first).
pub struct ModPlugin(pub ModList);

impl Plugin for ModPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.0.clone());
        let world = app.world_mut();
        let has_rules = world.get_resource::<Schedules>().is_some_and(|s| s.contains(RulesSchedule));
        let result = if has_rules {
            world.resource_scope(|world, mut schedules: Mut<Schedules>| {
                install(world, schedules.get_mut(RulesSchedule), &self.0)
            })
        } else {
            install(world, None, &self.0)
        };
        if let Err(e) = result {
            error!("{e}");
        }
    }
}

/// Why a mod's change was refused (nothing was changed or logged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModRefusal {
    /// No combatant has this id.
    UnknownCreature(Cid),
    /// The combat is over.
    CombatOver,
    /// The creature is out of the fight.
    Down(Cid),
    /// The ruleset has no such condition.
    UnknownCondition(String),
    /// The creature does not have this condition.
    NoSuchCondition(String),
    /// The creature has no turn on the timeline (active, delaying, off the schedule).
    NotScheduled(Cid),
    /// The duration never runs out under this ruleset (it lacks the end-of-turn step that counts
    /// it down: [`super::query::duration_ends`]).
    DurationNeverEnds(Lasts),
    /// [`ModRules::add_modifier`]: the condition carries no roll modifier.
    NotAModifier(String),
}

impl std::fmt::Display for ModRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModRefusal::UnknownCreature(c) => write!(f, "no combatant has the id {}", c.0),
            ModRefusal::CombatOver => write!(f, "the combat is over"),
            ModRefusal::Down(c) => write!(f, "combatant {} is out of the fight", c.0),
            ModRefusal::UnknownCondition(id) => write!(
                f,
                "the ruleset has no condition `{id}`: define it with ModBuilder::condition (or \
                 ModBuilder::modifier) in the mod's build, or in a data mod"
            ),
            ModRefusal::NoSuchCondition(id) => write!(f, "the creature does not have the condition `{id}`"),
            ModRefusal::NotScheduled(c) => write!(f, "combatant {} has no turn on the timeline", c.0),
            ModRefusal::DurationNeverEnds(l) => write!(
                f,
                "{l:?} would never run out under this ruleset (its turn_phases.end lacks the step that counts \
                 it down); use Lasts::Rounds"
            ),
            ModRefusal::NotAModifier(id) => write!(f, "the condition `{id}` carries no roll modifier"),
        }
    }
}

impl std::error::Error for ModRefusal {}

/// What a mod system reads and changes: the rules state, through checked, logged calls.
///
/// Every change first logs `CombatEvent::ModEffect { source, who, action }` with the mod's name
/// as `source`, then makes the change through the engine's own function (so `Damaged`,
/// `Healed`, `ConditionApplied`, `Downed`, the end of the combat... follow as they would for any
/// other cause).
#[derive(SystemParam)]
pub struct ModRules<'w, 's> {
    rules: Rules<'w, 's>,
    cursor: Local<'s, LogCursor>,
}

/// Where a system is in the combat log.
#[derive(Debug, Default)]
pub struct LogCursor(usize);

impl LogCursor {
    fn take<'a>(&mut self, events: &'a [CombatEvent]) -> &'a [CombatEvent] {
        if self.0 > events.len() {
            // A new combat in the same world: start over.
            self.0 = 0;
        }
        let new = &events[self.0..];
        self.0 = events.len();
        new
    }
}

/// A read-only listener for systems that only hear and never change the rules state.
#[derive(SystemParam)]
pub struct ModEvents<'w, 's> {
    log: Res<'w, CombatLog>,
    cursor: Local<'s, LogCursor>,
}

impl ModEvents<'_, '_> {
    /// The events logged since this system last asked, in order.
    pub fn heard(&mut self) -> Vec<CombatEvent> {
        self.cursor.take(&self.log.events).to_vec()
    }
}

impl ModRules<'_, '_> {
    /// The events logged since this system last asked, in order (each system has its own place).
    /// What a mod typically listens for: `RoundStarted`, `TurnStarted`, `TurnEnded`,
    /// `AbilityUsed`, `AttackRolled`, `AttackHit`, `AttackMissed`, `AttackBlocked`, `Damaged`,
    /// `Healed`, `Downed`, `ConditionApplied`, `ConditionEnded` (its `reason` says why: `Expired` when a duration ran out),
    /// `CombatEnded`, and other mods' `ModEffect`.
    pub fn heard(&mut self) -> Vec<CombatEvent> {
        self.cursor.take(&self.rules.log.events).to_vec()
    }

    // ----- reading -----

    /// Every combatant id, in id order.
    pub fn combatants(&self) -> Vec<Cid> {
        (0..self.rules.roster.entities.len() as u32).map(Cid).collect()
    }

    /// A combatant's entity (to read the mod's own components with a `Query`).
    pub fn entity(&self, who: Cid) -> Option<Entity> {
        self.rules.roster.entity(who)
    }

    /// The combatant an entity is, if it is one.
    pub fn cid_of(&self, e: Entity) -> Option<Cid> {
        self.rules.q.get(e).ok().map(|c| *c.cid)
    }

    /// A combatant's name.
    pub fn name(&self, who: Cid) -> String {
        self.rules.name_of(who)
    }

    /// Hit points.
    pub fn health(&self, who: Cid) -> Option<Health> {
        self.rules.exists(who).then(|| *self.rules.c(who).health)
    }

    /// Conditions.
    pub fn conditions(&self, who: Cid) -> Option<Conditions> {
        self.rules.exists(who).then(|| self.rules.conds(who).clone())
    }

    /// Square.
    pub fn position(&self, who: Cid) -> Option<GridPos> {
        self.rules.exists(who).then(|| *self.rules.c(who).pos)
    }

    /// Side.
    pub fn side(&self, who: Cid) -> Option<String> {
        self.rules.exists(who).then(|| self.rules.c(who).side.0.clone())
    }

    /// Whether two creatures are enemies.
    pub fn hostile(&self, a: Cid, b: Cid) -> bool {
        self.rules.exists(a) && self.rules.exists(b) && self.rules.hostile(a, b)
    }

    /// Out of the fight (the ruleset's defeated condition).
    pub fn is_down(&self, who: Cid) -> bool {
        !self.rules.exists(who) || self.rules.is_down(who)
    }

    /// Unable to act (a condition blocks actions).
    pub fn cannot_act(&self, who: Cid) -> bool {
        !self.rules.exists(who) || self.rules.cannot_act(who)
    }

    /// Every ability the creature can use, listed first, then the ruleset's basic ones.
    pub fn known_abilities(&self, who: Cid) -> Vec<String> {
        if self.rules.exists(who) { self.rules.known_abilities(who) } else { Vec::new() }
    }

    /// Actions the creature could still spend now.
    pub fn actions_left(&self, who: Cid) -> u8 {
        if self.rules.exists(who) { self.rules.c(who).pool.available() } else { 0 }
    }

    /// Whose turn is running.
    pub fn active(&self) -> Option<Cid> {
        self.rules.turn.active
    }

    /// The current round (0 before the first).
    pub fn round(&self) -> u32 {
        self.rules.turn.round
    }

    /// Whether the combat is over.
    pub fn ended(&self) -> bool {
        self.rules.turn.ended
    }

    /// The ruleset in force (read only).
    pub fn ruleset(&self) -> &Ruleset {
        &self.rules.ruleset
    }

    /// A creature's next scheduled turn: (timeline time, initiative rank).
    pub fn next_turn(&self, who: Cid) -> Option<(u32, u32)> {
        self.rules.timeline.scheduled(who).map(|k| (k.time, k.rank))
    }

    // ----- rolling (the engine's seeded dice) -----

    /// Roll a dice expression (`2d6+STR`), stats read from `who`'s sheet.
    pub fn roll(&mut self, expr: &DiceExpr, who: Cid) -> i32 {
        let stats = if self.rules.exists(who) { self.rules.c(who).stats.clone() } else { Default::default() };
        self.rules.dice.roll_expr(expr, |k| stats.get(k))
    }

    /// Roll one die with `sides` sides.
    pub fn roll_die(&mut self, sides: u32) -> i32 {
        self.rules.dice.roll(sides)
    }

    // ----- changing (each logged with the mod as its source) -----

    fn check(&self, who: Cid) -> Result<(), ModRefusal> {
        if !self.rules.exists(who) {
            return Err(ModRefusal::UnknownCreature(who));
        }
        if self.rules.turn.ended {
            return Err(ModRefusal::CombatOver);
        }
        Ok(())
    }

    fn standing(&self, who: Cid) -> Result<(), ModRefusal> {
        self.check(who)?;
        if self.rules.is_down(who) { Err(ModRefusal::Down(who)) } else { Ok(()) }
    }

    fn log(&mut self, source: &str, who: Cid, action: ModAction) {
        self.rules.emit(CombatEvent::ModEffect { source: source.to_string(), who, action });
    }

    /// Deal `amount` damage (negative counts as 0), as any damage: the creature may go down and
    /// the combat end. Returns the damage dealt.
    pub fn deal_damage(&mut self, source: &str, who: Cid, amount: i32) -> Result<i32, ModRefusal> {
        self.standing(who)?;
        let amount = amount.max(0);
        self.log(source, who, ModAction::Damage(amount));
        self.rules.take_damage(who, amount);
        Ok(amount)
    }

    /// Restore up to `amount` hit points (never above the maximum). Returns what was restored;
    /// nothing is logged when that is 0.
    pub fn heal(&mut self, source: &str, who: Cid, amount: i32) -> Result<i32, ModRefusal> {
        self.standing(who)?;
        let h = *self.rules.c(who).health;
        let n = amount.max(0).min(h.max.saturating_sub(h.hp).max(0));
        if n > 0 {
            self.log(source, who, ModAction::Heal(n));
            self.rules.heal(who, n);
        }
        Ok(n)
    }

    /// Put a condition of the ruleset on a creature, with a value (1 when none) and a duration in
    /// rounds (none: until something ends it), as the engine would (stacking, immunities and
    /// negative-status consequences apply). The ruleset's defeated condition puts the creature out
    /// of the fight for good, as falling does (its value and rounds do not apply).
    pub fn apply_condition(
        &mut self,
        source: &str,
        who: Cid,
        condition: &str,
        value: Option<i32>,
        rounds: Option<u32>,
    ) -> Result<(), ModRefusal> {
        self.standing(who)?;
        if self.rules.ruleset.condition(condition).is_none() {
            return Err(ModRefusal::UnknownCondition(condition.to_string()));
        }
        let value = value.map(|v| v.clamp(1, super::limits::MAX_VALUE));
        self.log(source, who, ModAction::ApplyCondition(condition.to_string(), value.unwrap_or(1)));
        let lasts = rounds.map(|n| Lasts::Rounds(n.clamp(1, super::limits::MAX_ROUNDS)));
        self.rules.apply_condition(who, condition, NewCondition { lasts, value, creator: None });
        Ok(())
    }

    /// Put a condition of the ruleset (or one the mod defined with [`ModBuilder::condition`]) on a
    /// creature, with a value (1 when none), a typed duration (none: until something ends it) and
    /// the creature that made it. The duration is the data's own [`Lasts`]: `Rounds(n)`,
    /// `OwnerTurns(n)` ("until the end of its n-th next turn", counted at the owner's end of
    /// turn), `UntilEndOfTurn` or `Sustained` (by `creator`). A creator's rounds tick at its
    /// start of turn under turn hooks (P2-05, G-P2-18). A duration the ruleset never counts down
    /// is refused ([`ModRefusal::DurationNeverEnds`]).
    pub fn apply_condition_for(
        &mut self,
        source: &str,
        who: Cid,
        condition: &str,
        value: Option<i32>,
        lasts: Option<Lasts>,
        creator: Option<Cid>,
    ) -> Result<(), ModRefusal> {
        self.standing(who)?;
        if self.rules.ruleset.condition(condition).is_none() {
            return Err(ModRefusal::UnknownCondition(condition.to_string()));
        }
        if let Some(l) = lasts
            && !super::query::duration_ends(&self.rules.ruleset, l)
        {
            return Err(ModRefusal::DurationNeverEnds(l));
        }
        if let Some(c) = creator {
            self.check(c)?;
        }
        let value = value.map(|v| v.clamp(1, super::limits::MAX_VALUE));
        let lasts = lasts.map(|l| match l {
            Lasts::Rounds(n) => Lasts::Rounds(n.clamp(1, super::limits::MAX_ROUNDS)),
            Lasts::OwnerTurns(n) => Lasts::OwnerTurns(n.clamp(1, super::limits::MAX_ROUNDS)),
            other => other,
        });
        self.log(source, who, ModAction::ApplyCondition(condition.to_string(), value.unwrap_or(1)));
        self.rules.apply_condition(who, condition, NewCondition { lasts, value, creator });
        Ok(())
    }

    /// Give a creature a roll modifier: a condition that carries one (defined with
    /// [`ModBuilder::modifier`] or in data), with a value (the modifier's amount is multiplied by
    /// it when `per_value`), a typed duration and its creator, as [`Self::apply_condition_for`].
    /// The rolls it changes log it (`RollModified`) and the game's log names it in their sums.
    pub fn add_modifier(
        &mut self,
        source: &str,
        who: Cid,
        condition: &str,
        value: Option<i32>,
        lasts: Lasts,
        creator: Option<Cid>,
    ) -> Result<(), ModRefusal> {
        match self.rules.ruleset.condition(condition) {
            None => return Err(ModRefusal::UnknownCondition(condition.to_string())),
            Some(d) if d.modifiers.is_empty() => return Err(ModRefusal::NotAModifier(condition.to_string())),
            Some(_) => {}
        }
        self.apply_condition_for(source, who, condition, value, Some(lasts), creator)
    }

    /// Remove a condition (logged as `ConditionEnded { reason: RemovedByMod }`). The ruleset's
    /// defeated condition is refused: a creature out of the fight is out for good (its side
    /// counted one fewer, its square freed, its turns gone), as falling puts it.
    pub fn remove_condition(&mut self, source: &str, who: Cid, condition: &str) -> Result<(), ModRefusal> {
        self.check(who)?;
        if *condition == self.rules.ruleset.defeated_condition && self.rules.is_down(who) {
            return Err(ModRefusal::Down(who));
        }
        if !self.rules.conds(who).has(condition) {
            return Err(ModRefusal::NoSuchCondition(condition.to_string()));
        }
        self.log(source, who, ModAction::RemoveCondition(condition.to_string()));
        self.rules.end_condition(who, condition, EndReason::RemovedByMod);
        Ok(())
    }

    /// Give back up to `count` actions spent from the creature's pool (per-round or per-turn
    /// pools and one timed action; typed slots are not touched). Returns how many came back.
    pub fn grant_actions(&mut self, source: &str, who: Cid, count: u8) -> Result<u8, ModRefusal> {
        self.standing(who)?;
        let n = count.min(self.rules.c(who).pool.spent);
        if n > 0 {
            self.log(source, who, ModAction::GrantActions(n));
            self.rules.cm(who).pool.spent -= n;
        }
        Ok(n)
    }

    /// Spend up to `count` of the creature's unrestricted actions. Returns how many were spent.
    pub fn spend_actions(&mut self, source: &str, who: Cid, count: u8) -> Result<u8, ModRefusal> {
        self.standing(who)?;
        let n = count.min(self.rules.c(who).pool.regular());
        if n > 0 {
            self.log(source, who, ModAction::SpendActions(n));
            self.rules.cm(who).pool.spent += n;
        }
        Ok(n)
    }

    /// Move a creature's next scheduled turn to timeline time `time` (a round, or an absolute
    /// segment under a recovery-time model), never earlier than it was. Returns the new time.
    pub fn reschedule(&mut self, source: &str, who: Cid, time: u32) -> Result<u32, ModRefusal> {
        self.standing(who)?;
        let Some(k) = self.rules.timeline.scheduled(who) else { return Err(ModRefusal::NotScheduled(who)) };
        let t = time.max(k.time);
        self.log(source, who, ModAction::Reschedule(t));
        self.rules.timeline.unschedule(&k);
        self.rules.timeline.schedule(TurnKey { time: t, ..k });
        Ok(t)
    }
}
