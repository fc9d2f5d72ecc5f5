//! Engine state: whose turn it is, the pending decision, queued work, and the `Rules` system param
//! through which every rule function reads and changes the world.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::command::{Command, Decider, DefenseMethod};
use super::components::*;
use super::dice::{Dice, DiceExpr};
use super::log::{CombatEvent, CombatLog, Via};
use super::ruleset::{AttackKind, Ruleset};
use super::timeline::Timeline;

/// Combatant entities indexed by [`Cid`], and who stands where.
#[derive(Resource, Debug, Clone, Default)]
pub struct Roster {
    /// Entity of each combatant, by `Cid`.
    pub entities: Vec<Entity>,
    /// Standing combatants by square.
    pub occupied: BTreeMap<GridPos, Cid>,
}

impl Roster {
    /// The entity of a combatant.
    pub(crate) fn entity(&self, c: Cid) -> Option<Entity> {
        self.entities.get(c.0 as usize).copied()
    }
}

/// The turn engine's own state.
#[derive(Resource, Debug, Clone, Default)]
pub struct TurnState {
    /// Initiative has been rolled.
    pub started: bool,
    /// Only one side is left.
    pub ended: bool,
    /// The winning side.
    pub winner: Option<String>,
    /// RNG seed, for the log.
    pub seed: u64,
    /// Current round (0 before the first).
    pub round: u32,
    /// Whose turn is running.
    pub active: Option<Cid>,
    /// The active creature said it is done.
    pub end_requested: bool,
    /// Initiative order, first to last.
    pub order: Vec<Cid>,
    /// Standing combatants per side.
    pub alive_by_side: BTreeMap<String, u32>,
    /// Creatures with held actions, by initiative rank.
    pub holders: BTreeSet<(u32, Cid)>,
    /// Id of the next opening.
    pub next_opening: u32,
    /// Who is eligible for an opening by default (G-HB-10): the target of the last missed attack or
    /// the enemies engaged with a creature that just became debilitated.
    pub opening_hint: Vec<Cid>,
    /// Recovery time of the action that ends the current turn (recovery-time model).
    pub last_recovery: Option<u32>,
    /// The active turn is running its end-of-turn steps.
    pub ending: bool,
    /// Creatures that have Delayed and not yet returned (G-P2-10).
    pub delayed: BTreeSet<Cid>,
    /// A delayed creature returning after the current turn.
    pub returning: Option<Cid>,
    /// A held cast to release once the current turn ends (G-SG-09: between turns).
    pub releasing: Option<Cid>,
    /// The active turn resumes a delayed turn (Step 1 was already done).
    pub resuming: bool,
    /// The surprise round (round 0) is running (P1-26).
    pub surprise_round: bool,
    /// Timeline-point expiries (P1-12): (time, rank, seq) → (owner, condition, count it began on).
    pub expiries: BTreeMap<(u32, u32, u64), (Cid, String, i32)>,
    /// Sequence for expiry keys.
    pub next_seq: u64,
    /// Surprise-round turns still to come, in initiative order.
    pub surprise_slots: Vec<super::timeline::TurnKey>,
    /// Creatures that leave the schedule when their turn ends (segments Delay and Ready, a
    /// cast still held, G-SG-09/11/12).
    pub off_schedule: BTreeSet<Cid>,
    /// Only creatures unable to act are scheduled while one free to act is delaying or off the
    /// schedule: the engine waits for it to return or release instead of skipping turns on.
    pub waiting_return: bool,
    /// The last round in which something happened beyond turn bookkeeping: a creature able to
    /// act took a turn, or an event changed the fight (the stalemate rule).
    pub last_progress_round: u32,
    /// G-X-04: the end-of-turn effects a Delay already resolved this turn, as (delaying creature,
    /// step, creature the effect is on, condition id); the end of the returned turn skips them.
    pub delay_resolved: Vec<(Cid, super::ruleset::TurnStep, Cid, String)>,
}

/// What the engine is waiting for, for drivers and the HUD.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum EngineStatus {
    /// Combat has not begun.
    #[default]
    NotStarted,
    /// The engine has work to do on its next run.
    Busy,
    /// The active creature's controller must send a command.
    AwaitingCommand(Cid),
    /// A decision must be answered.
    AwaitingDecision(Decider),
    /// No turn is scheduled: a delaying or readying creature must return, or a held cast be
    /// released (G-SG-09/11/12).
    AwaitingReturn,
    /// The combat is over.
    Ended,
}

/// Commands taken in from messages, applied one per schedule run.
#[derive(Resource, Debug, Clone, Default)]
pub struct CommandQueue(pub VecDeque<Command>);

/// An attack being resolved.
#[derive(Clone, PartialEq, Eq)]
pub struct AttackCtx {
    /// Attacker.
    pub attacker: Cid,
    /// Target.
    pub target: Cid,
    /// Ability id.
    pub ability: String,
    /// Attack type.
    pub kind: AttackKind,
    /// Attack stat.
    pub stat: String,
    /// Damage dice.
    pub damage: DiceExpr,
    /// An attack of opportunity (HB-47: only Dodge answers it).
    pub opportunity: bool,
    /// A surprise attack (HB-51).
    pub surprise: bool,
    /// An assisted attack made an area attack by the GM (HB-15).
    pub area_assist: bool,
    /// Assist damage bonus on a hit (HB-14).
    pub damage_bonus: i32,
    /// The attack roll's total.
    pub total: i32,
    /// A modifier of this attack (iterative attacks, a charge).
    pub modifier: i32,
    /// Its multiple attack penalty (G-P2-23), part of its bonus.
    pub penalty: i32,
    /// A critical hit's damage multiplier (G-P2-25, G-P1-18); 0 for a plain hit.
    pub critical: u8,
}

/// As derived, but issue 50's fields only when set: the state hash ([`super::driver::Combat::state_hash`])
/// reads this text, and a ruleset without attack math (every save made before it) hashes as before.
impl std::fmt::Debug for AttackCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("AttackCtx");
        d.field("attacker", &self.attacker)
            .field("target", &self.target)
            .field("ability", &self.ability)
            .field("kind", &self.kind)
            .field("stat", &self.stat)
            .field("damage", &self.damage)
            .field("opportunity", &self.opportunity)
            .field("surprise", &self.surprise)
            .field("area_assist", &self.area_assist)
            .field("damage_bonus", &self.damage_bonus)
            .field("total", &self.total)
            .field("modifier", &self.modifier);
        if self.penalty != 0 {
            d.field("penalty", &self.penalty);
        }
        if self.critical != 0 {
            d.field("critical", &self.critical);
        }
        d.finish()
    }
}

/// A unit of resolution. The queue runs front to back and stops at a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// An ability's effect, after it was paid for.
    Effect {
        /// User.
        who: Cid,
        /// Ability id.
        ability: String,
        /// Targets.
        targets: Vec<Cid>,
        /// Destination.
        to: Option<GridPos>,
        /// Movement mode.
        mode: Option<String>,
        /// How it was used.
        via: Via,
        /// Marked as a surprise attack.
        surprise: bool,
    },
    /// Roll an attack and ask for the defence.
    Attack(AttackCtx),
    /// Resolve the declared defence.
    Defense(AttackCtx, DefenseMethod),
    /// Deal damage (halved for a blocked area assist).
    Damage(AttackCtx, bool),
    /// A Move: ask each provoked enemy, then move.
    Move {
        /// Mover.
        who: Cid,
        /// Destination.
        to: GridPos,
        /// Mode.
        mode: String,
        /// Enemies still to ask; none = not computed yet.
        provokers: Option<VecDeque<Cid>>,
    },
    /// A held or readied action set off by an action, fired when it comes up in the queue: one
    /// fired earlier may already have stopped the move that set it off (G-X-01).
    HeldTrigger {
        /// The holder.
        holder: Cid,
        /// The held action, taken off the holder.
        held: Held,
        /// The creature whose action set it off.
        actor: Cid,
        /// Where that action moves the actor, if anywhere.
        to: Option<GridPos>,
        /// The action that set it off is a move.
        movement: bool,
    },
    /// Offer an opening to each eligible creature in turn.
    Opening {
        /// Opening id.
        id: u32,
        /// Creatures still to ask.
        queue: VecDeque<Cid>,
    },
    /// A start- or end-of-turn step.
    Step {
        /// Whose turn.
        who: Cid,
        /// Which step.
        step: super::ruleset::TurnStep,
    },
    /// The regain step, after a P2-13 choice: lose the restricted action first or not.
    Regain {
        /// Whose turn.
        who: Cid,
        /// The answer, once given.
        lose_restricted_first: bool,
    },
    /// The end of a turn, after its end-of-turn steps.
    FinishTurn {
        /// Whose turn.
        who: Cid,
    },
    /// A completed cast: release it now, or hold it (SG-19).
    CastDone {
        /// The caster.
        who: Cid,
        /// Hold instead of releasing.
        hold: bool,
    },
    /// Initiative, once the players have ordered their ties (G-P2-01).
    FinishInitiative {
        /// The order so far.
        order: Vec<Cid>,
        /// Tie groups the players still have to order.
        tied: Vec<Vec<Cid>>,
    },
    /// An Assist, approved or not yet decided.
    Assist {
        /// Assister.
        from: Cid,
        /// Ally.
        to: Cid,
        /// Bonus.
        bonus: i32,
        /// Damage bonus.
        same_type_damage: i32,
        /// The GM's answer, if asked.
        approved: Option<bool>,
    },
}

impl Activity {
    /// The effect this activity has once it completes.
    pub(crate) fn effect(self, who: Cid) -> Work {
        Work::Effect {
            who,
            ability: self.ability,
            targets: self.targets,
            to: self.dest,
            mode: self.mode,
            via: Via::Turn,
            surprise: false,
        }
    }
}

/// What a pending decision is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DecisionKind {
    /// Choose Dodge, Parry or no defence against an attack.
    Defense {
        /// Attacker.
        attacker: Cid,
        /// The attack roll to beat.
        attack_total: i32,
        /// Allowed methods.
        options: Vec<DefenseMethod>,
    },
    /// Take an attack of opportunity on a moving creature, or not.
    Opportunity {
        /// The mover.
        mover: Cid,
        /// Attack abilities that may be used.
        options: Vec<String>,
    },
    /// Use one ability in an opening, or pass.
    Opening {
        /// Opening id.
        id: u32,
    },
    /// Approve or deny an Assist (GM, HB-11).
    AssistApproval {
        /// Assister.
        from: Cid,
        /// Ally.
        to: Cid,
    },
    /// Use one triggered free action or reaction at this step, or none (P2-06, P2-25).
    Triggered {
        /// The step.
        step: super::ruleset::TurnStep,
        /// Abilities that may be used.
        options: Vec<String>,
    },
    /// Gaining and losing actions at once: which to lose first (P2-13).
    ActionLoss,
    /// A cast is complete: hold it or release it (SG-19).
    CastComplete {
        /// The power.
        ability: String,
    },
    /// Order creatures tied on initiative (G-P2-01).
    InitiativeTie {
        /// The tied creatures, in roster order.
        tied: Vec<Cid>,
    },
}

impl DecisionKind {
    /// Every kind's [`name`](Self::name), in declaration order: what a scenario's
    /// `Expect(Pending(..))` and the game's decision policies may name.
    pub const NAMES: &[&str] = &[
        "Defense",
        "Opportunity",
        "Opening",
        "AssistApproval",
        "Triggered",
        "ActionLoss",
        "InitiativeTie",
        "CastComplete",
    ];

    /// A short name: `Defense`, `Opportunity`, `Opening`, `AssistApproval`, `Triggered`,
    /// `ActionLoss`, `InitiativeTie`, `CastComplete`.
    pub fn name(&self) -> &'static str {
        match self {
            DecisionKind::Defense { .. } => "Defense",
            DecisionKind::Opportunity { .. } => "Opportunity",
            DecisionKind::Opening { .. } => "Opening",
            DecisionKind::AssistApproval { .. } => "AssistApproval",
            DecisionKind::Triggered { .. } => "Triggered",
            DecisionKind::ActionLoss => "ActionLoss",
            DecisionKind::InitiativeTie { .. } => "InitiativeTie",
            DecisionKind::CastComplete { .. } => "CastComplete",
        }
    }
}

/// A decision the engine waits for, with what to do once it is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDecision {
    /// Who must answer.
    pub by: Decider,
    /// About what.
    pub kind: DecisionKind,
    /// The work that continues after the answer.
    pub resume: Option<Work>,
    /// The attack in question, for defence decisions.
    pub attack: Option<AttackCtx>,
}

/// The decision the engine waits for, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct Pending(pub Option<PendingDecision>);

/// Resolution work still to do.
#[derive(Resource, Debug, Clone, Default)]
pub struct WorkQueue(pub VecDeque<Work>);

/// Everything a rule may read or change on one combatant, but its conditions: those, the
/// component read most often (is it down, can it act), have their own query, [`Rules::conds`]
/// (issue 22: one component is read in a tenth of the time all of them are).
#[derive(QueryData)]
#[query_data(mutable)]
pub struct CombatantData {
    /// Id.
    pub cid: &'static Cid,
    /// Side.
    pub side: &'static Side,
    /// Stats.
    pub stats: &'static Stats,
    /// Hit points.
    pub health: &'static mut Health,
    /// Square.
    pub pos: &'static mut GridPos,
    /// Movement modes.
    pub movement: &'static Movement,
    /// Listed abilities.
    pub abilities: &'static Abilities,
    /// Initiative set-up.
    pub setup: &'static InitiativeSetup,
    /// Initiative.
    pub initiative: &'static mut Initiative,
    /// Action pool.
    pub pool: &'static mut ActionPool,
    /// Activity in progress.
    pub casting: &'static mut Casting,
    /// Held actions.
    pub held: &'static mut HeldActions,
    /// Assists received.
    pub assists: &'static mut AssistBonuses,
    /// Disengage protection.
    pub disengaged: &'static mut DisengagedFrom,
    /// Effects it created.
    pub created: &'static mut CreatedEffects,
    /// Traits.
    pub traits: &'static Traits,
    /// Awareness at combat start.
    pub aware: &'static mut Aware,
    /// Items carried.
    pub items: &'static mut Inventory,
}

/// What a reader outside the rules (the AI) takes of one combatant at once
/// ([`super::driver::Combat::combatant`]): the components it reads, and no more (each one read
/// costs time).
#[derive(QueryData)]
pub struct CombatantView {
    /// Id.
    pub cid: &'static Cid,
    /// Side.
    pub side: &'static Side,
    /// Stats, with when they were set or last changed (a reader that keeps what it works out
    /// from them across calls compares those ticks; see [`super::driver::Combat::seal_changes`]).
    pub stats: Ref<'static, Stats>,
    /// Hit points.
    pub health: &'static Health,
    /// Square.
    pub pos: &'static GridPos,
    /// Movement modes.
    pub movement: &'static Movement,
    /// Listed abilities, with their ticks (as `stats`).
    pub abilities: Ref<'static, Abilities>,
    /// Initiative.
    pub initiative: &'static Initiative,
    /// Conditions.
    pub conditions: &'static Conditions,
    /// Activity in progress.
    pub casting: &'static Casting,
}

/// The rules' view of the world: one system param shared by every rules system.
#[derive(SystemParam)]
pub struct Rules<'w, 's> {
    /// The ruleset.
    pub ruleset: Res<'w, Ruleset>,
    /// Combatant index and occupancy.
    pub roster: ResMut<'w, Roster>,
    /// Combatants.
    pub q: Query<'w, 's, CombatantData>,
    /// Their conditions ([`Rules::conds`], [`Rules::conds_mut`]).
    pub conditions: Query<'w, 's, &'static mut Conditions>,
    /// Their sides and stats, read alone ([`Rules::hostile`], [`Rules::stat`]; `CombatantData`
    /// reads them too).
    pub sides: Query<'w, 's, &'static Side>,
    /// See [`Rules::sides`].
    pub stat_blocks: Query<'w, 's, &'static Stats>,
    /// Turn state.
    pub turn: ResMut<'w, TurnState>,
    /// The scheduler.
    pub timeline: ResMut<'w, Timeline>,
    /// Dice.
    pub dice: ResMut<'w, Dice>,
    /// The log.
    pub log: ResMut<'w, CombatLog>,
    /// Resolution queue.
    pub work: ResMut<'w, WorkQueue>,
    /// Pending decision.
    pub pending: ResMut<'w, Pending>,
    /// The battlefield: bounds, walls and difficult terrain.
    pub map: Res<'w, super::map::BattleMap>,
}

impl<'w, 's> Rules<'w, 's> {
    /// The ruleset, borrowed for as long as the world is rather than from `self`: a rule can hold
    /// an ability or condition definition while it changes other state, without copying it.
    pub(crate) fn rs(&self) -> &'w Ruleset {
        Res::clone(&self.ruleset).into_inner()
    }

    /// Read one combatant. Panics only on a roster bug (ids come from the roster).
    pub(crate) fn c(&self, who: Cid) -> CombatantDataReadOnlyItem<'_, 's> {
        let e = self.roster.entities[who.0 as usize];
        self.q.get(e).expect("roster entity is a combatant")
    }

    /// Change one combatant.
    pub(crate) fn cm(&mut self, who: Cid) -> CombatantDataItem<'_, 's> {
        let e = self.roster.entities[who.0 as usize];
        self.q.get_mut(e).expect("roster entity is a combatant")
    }

    /// A combatant's conditions.
    pub(crate) fn conds(&self, who: Cid) -> &Conditions {
        let e = self.roster.entities[who.0 as usize];
        self.conditions.get(e).expect("roster entity is a combatant")
    }

    /// Change a combatant's conditions.
    pub(crate) fn conds_mut(&mut self, who: Cid) -> Mut<'_, Conditions> {
        let e = self.roster.entities[who.0 as usize];
        self.conditions.get_mut(e).expect("roster entity is a combatant")
    }

    /// A combatant's side.
    pub(crate) fn side(&self, who: Cid) -> &Side {
        let e = self.roster.entities[who.0 as usize];
        self.sides.get(e).expect("roster entity is a combatant")
    }

    /// A combatant's name, for messages.
    pub(crate) fn name_of(&self, who: Cid) -> String {
        self.log.names.get(who.0 as usize).cloned().unwrap_or_else(|| format!("#{}", who.0))
    }

    /// Whether the id names a combatant.
    pub(crate) fn exists(&self, who: Cid) -> bool {
        (who.0 as usize) < self.roster.entities.len()
    }

    /// Append an event to the log. Anything but turn bookkeeping counts as progress for the
    /// stalemate rule (`Rules::start_round`).
    pub(crate) fn emit(&mut self, e: CombatEvent) {
        if !e.is_bookkeeping() {
            self.turn.last_progress_round = self.turn.round;
        }
        self.log.push(e);
    }

    /// Queue work to run next, in the given order, before anything already queued.
    pub(crate) fn push_front_all(&mut self, items: Vec<Work>) {
        for w in items.into_iter().rev() {
            self.work.0.push_front(w);
        }
    }

    /// Out of the fight (the ruleset's defeated condition).
    pub(crate) fn is_down(&self, who: Cid) -> bool {
        self.conds(who).has(&self.ruleset.defeated_condition)
    }

    /// Standing, as its side counts it (`TurnState::alive_by_side`): not defeated and, where 0
    /// hit points is not the end (pf2e's dying), above 0.
    pub(crate) fn is_standing(&self, who: Cid) -> bool {
        !self.is_down(who) && (self.ruleset.at_zero_hp.is_none() || self.c(who).health.hp > 0)
    }

    /// Initiative is settled: `finish_initiative` has set the order (naming every creature) and
    /// counted each side. Before (a GM's tie decision pending) nobody is counted.
    pub(crate) fn initiative_settled(&self) -> bool {
        !self.turn.order.is_empty()
    }

    /// Unable to act: a condition blocks actions (G-HB-19).
    pub(crate) fn cannot_act(&self, who: Cid) -> bool {
        super::query::blocks_actions(&self.ruleset, self.conds(who))
    }

    /// Unable to use a reaction, free action, opening or attack of opportunity (see
    /// [`super::query::blocks_reactions`]).
    pub(crate) fn cannot_react(&self, who: Cid) -> bool {
        super::query::blocks_reactions(&self.ruleset, self.conds(who))
    }

    /// Paying for a spread activity (HB-27).
    pub(crate) fn busy_with(&self, who: Cid) -> Option<String> {
        self.c(who).casting.0.as_ref().map(|a| a.ability.clone())
    }

    /// Whether two creatures are on different sides.
    pub(crate) fn hostile(&self, a: Cid, b: Cid) -> bool {
        self.side(a) != self.side(b)
    }

    /// Initiative rank (0 first).
    pub(crate) fn rank(&self, who: Cid) -> u32 {
        self.c(who).initiative.rank
    }

    /// Whether the creature has the ability, listed or basic (HB-09).
    pub(crate) fn knows(&self, who: Cid, ability: &str) -> bool {
        self.ruleset.basic_abilities.iter().any(|b| b == ability)
            || self.c(who).abilities.0.iter().any(|a| a == ability)
    }

    /// Every ability the creature can use, listed first, then basic ones.
    pub(crate) fn known_abilities(&self, who: Cid) -> Vec<String> {
        super::query::known_abilities(&self.ruleset, &self.c(who).abilities.0).cloned().collect()
    }

    /// The attack types a creature can make (for HB-14).
    pub(crate) fn attack_kinds(&self, who: Cid) -> Vec<AttackKind> {
        let mut kinds: Vec<AttackKind> = self
            .known_abilities(who)
            .iter()
            .filter_map(|a| match self.ruleset.ability(a).map(|d| &d.effect) {
                Some(super::ruleset::Effect::Attack { kind, .. }) => Some(*kind),
                _ => None,
            })
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// A stat of a creature.
    pub(crate) fn stat(&self, who: Cid, stat: &str) -> i32 {
        let e = self.roster.entities[who.0 as usize];
        self.stat_blocks.get(e).expect("roster entity is a combatant").get(stat)
    }

    /// Standing creatures within `reach` squares, in initiative order. (The square is symmetric and
    /// the result sorted, so cargo-mutants' `p.y + dy` → `p.y - dy` below is equivalent.)
    pub(crate) fn within(&self, who: Cid, reach: u32) -> Vec<Cid> {
        let p = *self.c(who).pos;
        let r = reach as i32;
        let mut out = Vec::new();
        for dx in -r..=r {
            for dy in -r..=r {
                if dx == 0 && dy == 0 {
                    continue;
                }
                if let Some(&o) = self.roster.occupied.get(&GridPos { x: p.x + dx, y: p.y + dy })
                    && o != who
                {
                    out.push(o);
                }
            }
        }
        out.sort_by_key(|c| (self.rank(*c), *c));
        out
    }

    /// Hostile standing creatures within melee reach: the creatures this one is engaged with
    /// (G-HB-14: engagement from grid adjacency).
    pub(crate) fn engaged_enemies(&self, who: Cid) -> Vec<Cid> {
        self.within(who, self.ruleset.engagement.melee_reach).into_iter().filter(|o| self.hostile(who, *o)).collect()
    }

    /// Flanked: two enemies adjacent on opposite sides (G-HB-14, from positions on the grid).
    pub(crate) fn is_flanked(&self, who: Cid) -> bool {
        let occupied = &self.roster.occupied;
        super::query::flanked(*self.c(who).pos, |q| {
            occupied.get(&q).is_some_and(|o| *o != who && self.hostile(who, *o))
        })
    }

    /// Flanked by `by` (G-P2-27, G-P1-19): `by` stands next to `who`, and a creature hostile to
    /// `who` stands on the square opposite it across `who`.
    pub(crate) fn is_flanked_by(&self, who: Cid, by: Cid) -> bool {
        let (at, me) = (*self.c(who).pos, *self.c(by).pos);
        let occupied = &self.roster.occupied;
        super::query::opposite_squares(at)
            .any(|(a, b)| a == me && occupied.get(&b).is_some_and(|o| *o != who && *o != by && self.hostile(who, *o)))
    }

    /// Whether a melee attack by `by` on `who` counts as flanking it: under `flanker_only`
    /// (pf2e, pf1e) only when `by` is one of the flankers ([`Self::is_flanked_by`]); otherwise
    /// whenever `who` is flanked (homebrew-d20, HB-12).
    pub(crate) fn flanks_for_attack(&self, who: Cid, by: Cid) -> bool {
        if self.ruleset.engagement.flanker_only { self.is_flanked_by(who, by) } else { self.is_flanked(who) }
    }

    /// Whether `a` sees `b` across the map (walls block line of sight; see
    /// [`super::map::BattleMap::line_of_sight`]).
    pub(crate) fn sees(&self, a: Cid, b: Cid) -> bool {
        self.map.line_of_sight(*self.c(a).pos, *self.c(b).pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `DecisionKind::NAMES` lists every kind's name once, in declaration order: a new kind
    /// missing from it could not be named by a scenario or given a policy in the game.
    #[test]
    fn decision_kind_names_list_every_kind() {
        let every = [
            DecisionKind::Defense { attacker: Cid(0), attack_total: 0, options: vec![] },
            DecisionKind::Opportunity { mover: Cid(0), options: vec![] },
            DecisionKind::Opening { id: 0 },
            DecisionKind::AssistApproval { from: Cid(0), to: Cid(1) },
            DecisionKind::Triggered { step: super::super::ruleset::TurnStep::TickOwnEffects, options: vec![] },
            DecisionKind::ActionLoss,
            DecisionKind::InitiativeTie { tied: vec![] },
            DecisionKind::CastComplete { ability: String::new() },
        ];
        let names: Vec<&str> = every.iter().map(DecisionKind::name).collect();
        assert_eq!(names, DecisionKind::NAMES);
    }
}
