//! The tactical AI: a one-turn planner over the public command interface.
//!
//! On its turn it weighs plans and sends the first step of the best one:
//!
//! - **Kills first.** An attack is worth the expected damage it deals, capped at what the target
//!   has left, times the target's threat per hit point (its expected damage per round divided by
//!   its hit points). Finishing a weak or dangerous target is worth the most; overkill is worth
//!   nothing.
//! - **No free attacks for the enemy.** Moving out of engagement costs the expected attacks of
//!   opportunity it provokes, so the planner prefers to Disengage or Step first, or not to move.
//! - **Defend when threatened.** A self-buff (Defend, Raise a Shield, Total Defense, Shield) is
//!   worth the damage it is expected to prevent before it ends; it is used when nothing better is.
//! - **Range.** A creature whose best attacks are ranged (or spells) counts being in enemy reach
//!   as a cost, steps away when that pays, and shoots; on a map with walls it moves to see a
//!   target when it sees none. Spells that take several targets (saves, damage, conditions) are
//!   aimed at every enemy in sight, buffs at every ally they help.
//! - **Who is out.** Down or dying creatures are left alone; one that recovered at 0 hit points
//!   (pf2e) still fights, and any hit puts it down again.
//! - **The whole budget.** Plans are scored by what the whole turn achieves under the ruleset's
//!   budget strategy (`ActionBudget`): a pool of actions filled greedily by value per action,
//!   typed slots (a full-round action against a standard plus a move, a 5-foot step first), or
//!   one timed action chosen by value per segment of recovery time (`TurnModel::RecoveryTime`).
//!   Left-over actions of a round pool are held for an enemy's approach when the ruleset holds
//!   actions (`ReorderPolicy::HoldForPriority`).
//!
//! It answers its decisions too: the better defence by the odds of blocking, every attack of
//! opportunity (with its best attack), openings (its best affordable attack), triggered abilities
//! only when they help (a reaction is kept for Reactive Strike), the restricted action lost first,
//! casts released at once, a return from Delay or a release when nothing else is scheduled, and
//! the Recovery Action when a condition a save can end stops it.
//!
//! Cost: one decision reads each combatant once, prices every ability against every target, finds
//! the squares each movement ability reaches (the engine's own path search on the battle map) and
//! prices a full turn only from the squares next to enemies and the best few others; no world is
//! cloned. The map is read through `Combat::map` (paths, line of sight), so a command it sends is
//! one the engine takes; `play_by` dry-runs each candidate with `Combat::check_act` anyway.
//! Within a decision it remembers what is a pure function of what it read (a budget filled from a
//! square, a square's value, the squares within a range and their shortlist); across decisions,
//! per thread, path searches by their inputs (up to 16,384 of them) and every sight line on the
//! map. About 9 µs a decision in release on the 4v4 bench (docs/performance.md).

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::rules::command::{ActIntent, ActionLoss, Choice, Command, DefenseMethod, OpeningUse};
use crate::rules::components::{
    Abilities, ActionPool, AssistBonuses, Casting, Cid, Conditions, DisengagedFrom, GridPos, Health, HeldTrigger,
    Initiative, Inventory, Movement, Side, Stats, Traits, TriggerOn,
};
use crate::rules::dice::DiceExpr;
use crate::rules::driver::Combat;
use crate::rules::map::BattleMap;
use crate::rules::query;
use crate::rules::ruleset::{
    AbilityDef, ActionBudget, ActionType, AttackKind, ConditionDef, DefenseRule, Effect, Lasts, MultiTurnActivities,
    ReactionBudget, ReorderPolicy, Ruleset, Timing, TurnModel,
};
use crate::rules::state::{DecisionKind, Pending, Roster};

/// Values at or below this are "nothing worth doing".
const EPS: f32 = 1e-3;
/// Rounds a lasting effect is counted for: fights rarely last longer once it matters.
const HORIZON: f32 = 3.0;
/// Weights measured against the basic AI (`tests/integration/ai_strength.rs`, 400 seeds a
/// ruleset). A ranged creature standing in enemy reach pays this share of the damage it expects
/// there. A melee creature pays nothing for it: shying from contact cost pf2e wins (mirrored 4v4:
/// 57% → 73%).
const RANGED_EXPOSURE: f32 = 0.6;
/// Each move a melee creature still needs before it can strike costs this share of one attack,
/// and each square of the way this much: enough to close in when there is nothing better to do,
/// little enough not to run ahead of its side into the enemy's shots (skirmish-4v4 under
/// homebrew-d20: 60% at 0.3, 72% at 0.03; the open plane unchanged).
const APPROACH: f32 = 0.03;
/// See [`APPROACH`].
const APPROACH_PER_SQUARE: f32 = 0.003;
/// Damage a buff is expected to prevent counts at this weight against damage dealt: enemies pick
/// other targets, and a dead enemy prevents more. At full weight Raise a Shield crowded out
/// strides towards the next target (pf2e 57% → 79% at 0.1; the other rulesets unchanged).
const DEFENSE_WEIGHT: f32 = 0.1;
/// Plans kept for falling back when the first is not possible.
const MAX_PLANS: usize = 6;

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/// The command for `who`'s turn: the first of [`turn_candidates`].
pub fn turn_command(combat: &Combat, who: Cid) -> Command {
    turn_candidates(combat, who).into_iter().next().unwrap_or(Command::EndTurn { actor: who })
}

/// The commands for `who`'s turn, best first, ending with `EndTurn`: a driver that can dry-run
/// commands (`Combat::check_act`) sends the first the engine would take.
pub fn turn_candidates(combat: &Combat, who: Cid) -> Vec<Command> {
    let mut out = match View::new(combat, who) {
        Some(v) => v.turn(),
        None => Vec::new(),
    };
    out.push(Command::EndTurn { actor: who });
    out
}

/// The answer to the decision `who` must make now.
pub fn decision(combat: &Combat, who: Cid) -> Option<Choice> {
    let p = combat.world.resource::<Pending>().0.as_ref()?;
    Some(match &p.kind {
        DecisionKind::Defense { options, attack_total, .. } => {
            Choice::Defend(best_defense(combat, who, options, *attack_total))
        }
        DecisionKind::Opportunity { mover, options } => {
            let pick = View::new(combat, who).and_then(|v| v.best_opportunity(*mover, options));
            Choice::Opportunity(pick.or_else(|| options.first().cloned()))
        }
        DecisionKind::Opening { .. } => Choice::Opening(View::new(combat, who).and_then(|v| v.opening())),
        DecisionKind::Triggered { options, .. } => Choice::Triggered(triggered(combat, who, options)),
        // Keep the flexible action: the restricted one can only pay for some abilities.
        DecisionKind::ActionLoss => Choice::LoseFirst(ActionLoss::Restricted),
        // Holding a cast only delays its effect: release it now.
        DecisionKind::CastComplete { .. } => Choice::HoldCast(false),
        DecisionKind::AssistApproval { .. } | DecisionKind::InitiativeTie { .. } => return None,
    })
}

/// Nothing is scheduled (segments): bring back a creature this AI plays that is delaying or
/// readying, or release a held cast.
pub fn return_command(combat: &Combat, plays: impl Fn(Cid) -> bool) -> Option<Command> {
    let turn = combat.turn();
    if let Some(c) = turn.delayed.iter().copied().find(|c| plays(*c)) {
        return Some(Command::ReturnFromDelay { actor: c });
    }
    for i in 0..combat.len() as u32 {
        let c = Cid(i);
        if !plays(c) {
            continue;
        }
        if combat.get::<Casting>(c).and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding) {
            return Some(Command::Release { actor: c });
        }
        if turn.off_schedule.contains(&c)
            && combat.get::<crate::rules::components::HeldActions>(c).is_some_and(|h| !h.0.is_empty())
        {
            return Some(Command::ReturnFromDelay { actor: c });
        }
    }
    None
}

/// The defence with the better odds of blocking `attack_total` (Dodge on a tie).
fn best_defense(combat: &Combat, who: Cid, options: &[DefenseMethod], total: i32) -> DefenseMethod {
    let DefenseRule::ActiveRoll { dodge_stat, parry_stat, dice, defender_wins_ties, .. } = &combat.ruleset().defense
    else {
        return DefenseMethod::NoDefense;
    };
    let stats = combat.get::<Stats>(who);
    let adv = combat.get::<Conditions>(who).is_some_and(|k| query::has_defense_advantage(combat.ruleset(), k));
    let odds = |m: DefenseMethod| -> f32 {
        let stat = match m {
            DefenseMethod::Dodge => stats.map_or(0, |s| s.get(dodge_stat)),
            DefenseMethod::Parry => stats.map_or(0, |s| s.get(parry_stat)),
            DefenseMethod::NoDefense => return -1.0,
        };
        // Blocked when the defence total reaches the attack (or passes it).
        let need = if *defender_wins_ties { total } else { total + 1 };
        let p = p_at_least(dice, stat, need);
        if adv { 1.0 - (1.0 - p) * (1.0 - p) } else { p }
    };
    let mut best = DefenseMethod::NoDefense;
    let mut best_p = f32::MIN;
    for m in options {
        let p = odds(*m);
        if p > best_p + 1e-6 {
            best = *m;
            best_p = p;
        }
    }
    best
}

/// Triggered free actions are taken when they do something; a triggered reaction only when it
/// does more than the reaction is worth kept (an attack of opportunity).
fn triggered(combat: &Combat, who: Cid, options: &[String]) -> Option<String> {
    let rs = combat.ruleset();
    let listed = combat.get::<Abilities>(who).map_or(&[][..], |a| &a.0[..]);
    let keeps_reaction =
        query::known_abilities(rs, listed).filter_map(|id| rs.ability(id)).any(|d| query::is_opportunity_attack(rs, d));
    options
        .iter()
        .filter_map(|a| rs.ability(a))
        .find(|d| {
            let useful = match &d.effect {
                Effect::SelfCondition { condition, .. } => rs.condition(condition).is_some_and(condition_matters),
                Effect::Narrative => false,
                _ => true,
            };
            match d.timing {
                Timing::Free => useful || d.cost == 0,
                _ => useful && !keeps_reaction,
            }
        })
        .map(|d| d.id.clone())
}

// ---------------------------------------------------------------------------------------------
// Reading the combat
// ---------------------------------------------------------------------------------------------

/// The components the AI reads of every creature, read at once when the engine allows
/// ([`Combat::combatant`]), else one by one.
struct Read<'a> {
    health: Option<&'a Health>,
    conds: Option<&'a Conditions>,
    pos: Option<&'a GridPos>,
    side: Option<&'a Side>,
    stats: Option<&'a Stats>,
    casting: Option<&'a Casting>,
    movement: Option<&'a Movement>,
    initiative: Option<&'a Initiative>,
    abilities: Option<&'a Abilities>,
}

impl<'a> Read<'a> {
    fn of(c: &'a Combat, id: Cid) -> Self {
        match c.combatant(id) {
            Some(d) => Read {
                health: Some(d.health),
                conds: Some(d.conditions),
                pos: Some(d.pos),
                side: Some(d.side),
                stats: Some(d.stats),
                casting: Some(d.casting),
                movement: Some(d.movement),
                initiative: Some(d.initiative),
                abilities: Some(d.abilities),
            },
            None => Read {
                health: c.get(id),
                conds: c.get(id),
                pos: c.get(id),
                side: c.get(id),
                stats: c.get(id),
                casting: c.get(id),
                movement: c.get(id),
                initiative: c.get(id),
                abilities: c.get(id),
            },
        }
    }
}

/// A standing creature as the AI sees it.
struct Unit<'a> {
    id: Cid,
    pos: GridPos,
    /// On another side than the creature deciding.
    enemy: bool,
    hp: i32,
    /// Maximum hit points.
    max_hp: i32,
    stats: &'a Stats,
    conds: Option<&'a Conditions>,
    can_act: bool,
    busy: bool,
    /// Fastest movement speed.
    speed: u32,
    /// The abilities on its sheet.
    abilities: Option<&'a Abilities>,
    /// Expected damage it deals in a round with its best option, at least 0.5.
    threat: f32,
    /// Threat per hit point: what a point of damage to it is worth.
    w: f32,
    /// Its best melee attack on its turn, and how many it makes in a round.
    melee: Option<(&'a AbilityDef, f32)>,
    /// [`nominal`] of that melee attack (0 without one).
    melee_per: f32,
    /// Its best ranged attack (or damaging power), and how many in a round.
    shot: Option<(&'a AbilityDef, f32)>,
    /// [`nominal`] of that shot (0 without one).
    shot_per: f32,
    /// Its best attack of opportunity.
    aoo: Option<&'a AbilityDef>,
    /// Prefers to fight from range.
    ranged: bool,
    rank: u32,
    /// A condition gives it advantage on defence rolls.
    adv: bool,
    /// Its dodge and parry stats under an active defence roll (0 otherwise).
    dodge: i32,
    parry: i32,
}

/// The decider's side of an attack roll: its attack stat and the damage range.
struct AttackRoll {
    stat: i32,
    range: (i32, i32, f32),
}

/// A change to a defender's defences, for pricing a buff.
#[derive(Clone, Copy, Default)]
struct DefMod {
    ac: i32,
    adv: bool,
}

/// How a step's targets are chosen when the command is built.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tgt {
    None,
    One(Cid),
    AllEnemies,
    Allies,
}

/// One thing the creature can do from where it stands (or will stand).
#[derive(Clone, Copy)]
enum Kind<'a> {
    Attack { kind: AttackKind, stat: &'a str, dmg: &'a DiceExpr, iterative: &'a [i32] },
    SelfBuff { cond: &'a ConditionDef, lasts: Option<Lasts> },
    OnAllies { cond: &'a ConditionDef, value: i32, lasts: Option<Lasts> },
    OnEnemies { cond: &'a ConditionDef, value: i32, lasts: Option<Lasts> },
    Save { stat: &'a str, dc: i32, dmg: Option<&'a DiceExpr>, on_fail: &'a [String], lasts: Option<Lasts> },
    Damage { dmg: &'a DiceExpr },
    Heal { amount: &'a DiceExpr },
    Assist { bonus: i32 },
}

#[derive(Clone, Copy)]
struct Opt<'a> {
    def: &'a AbilityDef,
    kind: Kind<'a>,
    /// Its effect needs line of sight to each target ([`Effect::needs_sight`]).
    sight: bool,
}

/// A movement ability: how far it goes and whether it provokes.
#[derive(Clone, Copy)]
struct Mover<'a> {
    def: &'a AbilityDef,
    range: u32,
    mode: Option<&'a str>,
    provokes: bool,
    disengage: bool,
    charge: Option<(&'a str, &'a DiceExpr, i32)>,
}

/// What is left to spend this turn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Budget {
    /// A pool of actions (and restricted bonus actions).
    Pool { regular: u8, restricted: u8 },
    /// Typed slots (G-P1-01).
    Typed { standard: u8, moves: u8, swift: u8, moved: bool, stepped: bool, one_of: bool },
    /// One timed action.
    Timed { left: bool },
}

impl Budget {
    /// The budget as one number, different for different budgets (for comparing memo keys).
    fn key(&self) -> u64 {
        match *self {
            Budget::Pool { regular, restricted } => u64::from(regular) << 8 | u64::from(restricted) << 16,
            Budget::Typed { standard, moves, swift, moved, stepped, one_of } => {
                1 | u64::from(standard) << 8
                    | u64::from(moves) << 16
                    | u64::from(swift) << 24
                    | u64::from(moved) << 32
                    | u64::from(stepped) << 33
                    | u64::from(one_of) << 34
            }
            Budget::Timed { left } => 2 | u64::from(left) << 8,
        }
    }
}

/// A square as one number, different for different squares.
fn square_key(p: GridPos) -> u64 {
    u64::from(p.x as u32) | u64::from(p.y as u32) << 32
}

/// A step to send, with the plan's value.
#[derive(Clone, Debug)]
struct Plan {
    value: f32,
    ability: usize,
    tgt: Tgt,
    to: Option<GridPos>,
}

/// Everything one decision needs, read once.
struct View<'a> {
    c: &'a Combat,
    rs: &'a Ruleset,
    me: usize,
    units: Vec<Unit<'a>>,
    occupied: &'a BTreeMap<GridPos, Cid>,
    /// The decider's cast in progress and movement modes, as read with the creatures.
    my_casting: Option<&'a Casting>,
    my_movement: Option<&'a Movement>,
    /// Squares held by creatures hostile to the decider (standing or not yet removed, such as
    /// pf2e's dying): a path may not pass them.
    hostile_squares: Vec<GridPos>,
    map: &'a BattleMap,
    /// The map has walls or difficult terrain: paths and sight matter.
    terrain: bool,
    reach: u32,
    pool: &'a ActionPool,
    opts: Vec<Opt<'a>>,
    movers: Vec<Mover<'a>>,
    /// Every ability the decider knows, for building commands.
    abilities: Vec<&'a AbilityDef>,
    disengaged: &'a [Cid],
    /// What one good attack of mine is worth, for positional terms.
    v0: f32,
    /// The enemies' mean threat per hit point.
    mean_w: f32,
    /// The decider's Assist bonus on its next attack.
    assist: i32,
    /// Odds of beating an active defence, by attack bonus minus defence bonus (+ 60) and
    /// advantage: they depend on nothing else. NaN until computed.
    p_active: Option<PSlots>,
    /// Whether an enemy is in sight from a square, as computed so far this decision.
    sight: std::cell::RefCell<BTreeMap<GridPos, bool>>,
    casting: bool,
    /// Armour classes computed so far this decision: (creature, AC change, AC).
    ac_memo: std::cell::RefCell<Vec<(Cid, i32, i32)>>,
    /// The decider's cheapest movement cost to every square (bounded maps), searched once with
    /// the longest mover's range: (that range, costs row by row).
    reach_memo: std::cell::RefCell<Option<(u32, Rc<Vec<u32>>)>>,
    /// The map's [`BattleMap::terrain_costs`].
    terrain_grid: Rc<Vec<u8>>,
    /// [`View::sees_enemy`] by square on a bounded map.
    sight_grid: std::cell::RefCell<Vec<u8>>,
    /// Damage ranges computed so far this decision, by expression and stat block.
    dmg_memo: std::cell::RefCell<Vec<(*const DiceExpr, *const Stats, (i32, i32, f32))>>,
    /// [`View::incoming`] computed so far this decision: (creature, square, defence change, value).
    incoming_memo: std::cell::RefCell<Vec<(Cid, GridPos, i32, bool, f32)>>,
    /// [`View::pos_value`] by square on a bounded map (NaN: not yet). A decision has one
    /// approach field ([`View::turn`]), so a square's value is the same each time it is asked.
    pos_memo: std::cell::RefCell<Vec<f32>>,
    /// Who stands where as [`View::occupant`] reads it, on a small bounded map: by square, row by
    /// row, the index in `units` plus one of the creature standing there (0: nobody; `u16::MAX`:
    /// a creature the AI does not count, such as a downed one).
    occ_grid: Vec<u16>,
    /// [`View::sees`] on this map so far, shared by every decision on it (see
    /// [`Searches::sight`]).
    sight_table: Option<SightTable>,
    /// [`Searches::era`] once the map was compared in [`View::new`].
    searches_era: u64,
    /// [`View::squares_within`] and [`View::shortlist_within`] so far, by range.
    squares_memo: std::cell::RefCell<Vec<(u32, Rc<Vec<GridPos>>)>>,
    shortlist_memo: std::cell::RefCell<Vec<(u32, Rc<Vec<(f32, GridPos)>>)>>,
    /// [`View::fill`] answers so far: it depends only on the square and the budget.
    fill_memo: std::cell::RefCell<Vec<((u64, u64), Filled)>>,
    /// [`View::flank_squares`] by index in `units`, as worked out so far.
    flank_memo: std::cell::RefCell<Vec<Option<Flank>>>,
    /// [`View::greedy`]'s expected damage by option and target (a buffer reused by every fill).
    per_target: std::cell::RefCell<Vec<f32>>,
    /// Self-buff values so far, by ability: [`View::condition_value`] on the decider.
    self_buff_memo: std::cell::RefCell<Vec<(*const AbilityDef, f32)>>,
    /// Squares within melee reach of an enemy, row by row, on a small bounded map (empty until
    /// asked for; see [`View::near_enemy`]).
    near_enemy_grid: std::cell::RefCell<Vec<bool>>,
    /// [`View::greedy`]'s values by option (a buffer reused by every fill).
    greedy_known: std::cell::RefCell<Vec<Option<(f32, Tgt, Option<(usize, f32)>)>>>,
    /// Buffers of [`View::nearest_first`] (marks and bucket starts) and its answer.
    near_scratch: std::cell::RefCell<(Vec<bool>, Vec<usize>)>,
    near_order: std::cell::RefCell<Vec<GridPos>>,
}

/// [`View::flank_squares`] of a creature.
#[derive(Clone, Copy)]
struct Flank {
    always: bool,
    squares: [GridPos; 8],
    n: u8,
}

/// What [`View::fill`] finds: the total value, the first option and its targets, the segments.
type Filled = (f32, Option<(usize, Tgt)>, f32);

/// Squares of movement to the nearest enemy, by square.
enum Field {
    /// The whole bounded map, row by row (`u32::MAX`: no way there).
    Grid { width: i32, dist: Rc<Vec<u32>> },
    /// Squares around the enemies on an open plane with terrain.
    Sparse(BTreeMap<GridPos, u32>),
}

impl Field {
    fn get(&self, q: GridPos) -> Option<u32> {
        match self {
            Field::Grid { width, dist } => {
                if q.x < 0 || q.y < 0 || q.x >= *width {
                    return None;
                }
                dist.get((q.y * width + q.x) as usize).copied().filter(|d| *d != u32::MAX)
            }
            Field::Sparse(m) => m.get(&q).copied(),
        }
    }
}

/// [`query::known_abilities`] with names resolved once per decision: [`Ruleset::ability`]
/// compares names one by one, and every creature is read each decision. The ruleset's basic
/// abilities are looked up once, and each distinct list of listed abilities once (mirrored
/// creatures list the same).
struct Known<'a> {
    rs: &'a Ruleset,
    basic: Vec<Option<&'a AbilityDef>>,
    /// Listed abilities (as on the sheet) and the abilities they know.
    lists: Vec<(&'a [String], Vec<&'a AbilityDef>)>,
}

impl<'a> Known<'a> {
    fn new(rs: &'a Ruleset) -> Self {
        Known { rs, basic: rs.basic_abilities.iter().map(|id| rs.ability(id)).collect(), lists: Vec::new() }
    }

    /// The abilities a creature listing `listed` knows, in [`query::known_abilities`]' order.
    fn of(&mut self, listed: Option<&'a Abilities>) -> &[&'a AbilityDef] {
        let at = self.index(listed);
        &self.lists[at].1
    }

    /// Where [`Known::of`] keeps `listed`'s abilities (the same place for the same list).
    fn index(&mut self, listed: Option<&'a Abilities>) -> usize {
        let listed: &'a [String] = listed.map_or(&[], |a| a.0.as_slice());
        match self.lists.iter().position(|(l, _)| *l == listed) {
            Some(i) => i,
            None => {
                let rs = self.rs;
                let basic = &rs.basic_abilities;
                let out: Vec<&'a AbilityDef> = query::known_abilities(rs, listed)
                    .filter_map(|id| match basic.iter().position(|b| std::ptr::eq(b, id)) {
                        // A basic ability, looked up once in `Known::new`.
                        Some(k) => self.basic[k],
                        None => rs.ability(id),
                    })
                    .collect();
                self.lists.push((listed, out));
                self.lists.len() - 1
            }
        }
    }
}

/// Usable on your own turn (not a reaction or a triggered ability).
fn on_turn(d: &AbilityDef) -> bool {
    d.timing != Timing::Reaction && d.trigger.is_none()
}

/// Whether a condition changes anything a rule looks at.
fn condition_matters(d: &ConditionDef) -> bool {
    d.blocks_actions
        || d.defense_advantage
        || d.regain_bonus > 0
        || d.regain_loses_value
        || d.ac_bonus != 0
        || d.ac_loses_stat.is_some()
        || d.rt_add != 0
        || d.persistent_damage.is_some()
        || !d.blocks_components.is_empty()
}

/// What the AI reads for a creature without the component (the rules' queries take references).
static NO_CONDITIONS: Conditions = Conditions(BTreeMap::new());
static NO_ITEMS: Inventory = Inventory(BTreeMap::new());
static NO_TRAITS: Traits = Traits(Vec::new());

/// Sum of a dice expression's stat terms for a creature.
fn stat_terms(e: &DiceExpr, stats: &Stats) -> i32 {
    e.stats.iter().fold(0i32, |a, (sign, s)| a.saturating_add(sign.saturating_mul(stats.get(s))))
}

/// Lowest, highest and mean of a damage expression (never below 0).
fn dmg_range(e: &DiceExpr, stats: &Stats) -> (i32, i32, f32) {
    let base = e.flat.saturating_add(stat_terms(e, stats));
    let (dlo, dhi, dmean) = e.dice_range();
    let (lo, hi, mean) = (base.saturating_add(dlo), base.saturating_add(dhi), base as f32 + dmean);
    (lo.max(0), hi.max(0), mean.max(0.0))
}

/// Expected value of min(D, h), D spread evenly over lo..=hi (exact for one die).
fn emin(lo: i32, hi: i32, mean: f32, h: i32) -> f32 {
    if h <= 0 {
        return 0.0;
    }
    if hi <= h {
        return mean;
    }
    if h <= lo {
        return h as f32;
    }
    let (lo, hi, h) = (i64::from(lo), i64::from(hi), i64::from(h));
    let below = (lo + h - 1) * (h - lo) / 2;
    let above = (hi - h + 1) * h;
    (below + above) as f32 / (hi - lo + 1) as f32
}

/// P(die + flat + bonus ≥ need) for a one-die expression (a d20 otherwise).
fn p_at_least(die: &DiceExpr, bonus: i32, need: i32) -> f32 {
    let sides = die.single_die().map_or(20, |s| s.min(1000) as i32);
    let roll_needed = need.saturating_sub(bonus).saturating_sub(die.flat);
    let n = (sides - roll_needed + 1).clamp(0, sides);
    n as f32 / sides as f32
}

/// P(attack beats an active defence): attack die + a against defence die (best of two with
/// advantage) + d.
fn p_active(atk: &DiceExpr, a: i32, def: &DiceExpr, d: i32, adv: bool, ties_block: bool) -> f32 {
    // A pure function of the two dice (sides and flat part), the bonuses and the flags, asked
    // the same questions over and over: remembered per thread.
    type Key = (Option<u32>, i32, i32, Option<u32>, i32, i32, bool, bool);
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<Key, f32, FxBuild>> = Default::default();
    }
    let key: Key = (atk.single_die(), atk.flat, a, def.single_die(), def.flat, d, adv, ties_block);
    if let Some(p) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return p;
    }
    let p = p_active_uncached(atk, a, def, d, adv, ties_block);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1 << 16 {
            m.clear();
        }
        m.insert(key, p);
    });
    p
}

/// [`p_active`] with no defence bonus, by attack bonus minus defence bonus (+ 60) and advantage
/// (121 slots each), for one pair of dice and tie rule (NaN: not yet).
type PSlots = Rc<std::cell::RefCell<Vec<f32>>>;

/// The [`PSlots`] of these dice and tie rule: [`p_active`] is a pure function of them and of the
/// slot, so the table is kept per thread for every decision (a few dice pairs at most).
fn p_active_slots(atk: &DiceExpr, def: &DiceExpr, ties_block: bool) -> PSlots {
    type Key = (Option<u32>, i32, Option<u32>, i32, bool);
    thread_local! {
        static SLOTS: std::cell::RefCell<Vec<(Key, PSlots)>> = Default::default();
    }
    let key: Key = (atk.single_die(), atk.flat, def.single_die(), def.flat, ties_block);
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        if let Some((_, t)) = s.iter().find(|(k, _)| *k == key) {
            return t.clone();
        }
        if s.len() >= 64 {
            s.clear();
        }
        let t: PSlots = Rc::new(std::cell::RefCell::new(vec![f32::NAN; 2 * 121]));
        s.push((key, t.clone()));
        t
    })
}

/// Sight lines on one map, by pair of squares (from, then to; row by row): 0 not yet known,
/// 1 blocked, 2 clear.
type SightTable = Rc<std::cell::RefCell<Vec<u8>>>;

/// What a remembered search was asked: everything its answer depends on besides the map.
#[derive(Clone, PartialEq, Eq, Hash)]
enum SearchKey {
    /// [`View::approach_field`] from these squares.
    Field(Vec<GridPos>),
    /// The decider's movement costs: from a square, within a budget, past these hostile squares.
    Reach { from: GridPos, budget: u32, hostile: Vec<GridPos> },
}

/// Path searches on one battle map (per thread): between commands of a turn, between creatures
/// of a side, and between the runs of a simulation (which all start from the same squares), a
/// search on the same map with the same inputs gives the same costs. The whole map is compared
/// before any answer is reused. At most [`Searches::MAX_KEPT`] answers and
/// [`Searches::MAX_KEPT_SQUARES`] costs are kept: when full, every answer is forgotten (an answer
/// is the same whenever it is worked out, so what is kept changes only the time taken).
#[derive(Default)]
struct Searches {
    map: Option<BattleMap>,
    /// That map's [`BattleMap::terrain_costs`].
    terrain: Rc<Vec<u8>>,
    /// Sight lines on that map as found so far (maps of at most [`Searches::MAX_SIGHT_SQUARES`]).
    sight: Option<SightTable>,
    entries: std::collections::HashMap<SearchKey, Rc<Vec<u32>>, FxBuild>,
    /// Counts the changes of `map`: a view that found its map the same while this held the same
    /// count needs no comparison of the maps again ([`Searches::get_in`]).
    era: u64,
}

impl Searches {
    /// Answers kept at most.
    const MAX_KEPT: usize = 16_384;
    /// Squares of the answers kept at most (4 bytes each: 16 MiB a thread, besides the keys).
    const MAX_KEPT_SQUARES: usize = 1 << 22;
    /// Maps with more squares are not remembered.
    const MAX_SQUARES: i64 = 1 << 16;
    /// Sight lines are remembered on maps of at most this many squares (a byte per pair: 1 MiB).
    const MAX_SIGHT_SQUARES: i64 = 1 << 10;

    fn get(&mut self, map: &BattleMap, key: &SearchKey) -> Option<Rc<Vec<u32>>> {
        if !self.same_map(map) {
            return None;
        }
        self.entries.get(key).cloned()
    }

    /// [`Searches::get`] for a view that read `era` after its map was compared ([`View::new`]): while
    /// the map has not changed since, it is the view's (a view's map does not change).
    fn get_in(&mut self, era: u64, map: &BattleMap, key: &SearchKey) -> Option<Rc<Vec<u32>>> {
        if self.era == era && self.map.is_some() {
            return self.entries.get(key).cloned();
        }
        self.get(map, key)
    }

    /// Whether the remembered answers are for `map`; if not, forget them and remember `map`
    /// (when it is small enough).
    fn same_map(&mut self, map: &BattleMap) -> bool {
        if i64::from(map.width) * i64::from(map.height) > Self::MAX_SQUARES {
            self.map = None;
            self.entries.clear();
            self.era += 1;
            return false;
        }
        if self.map.as_ref() != Some(map) {
            self.era += 1;
            self.map = Some(map.clone());
            self.terrain = Rc::new(map.terrain_costs());
            self.sight = None;
            self.entries.clear();
            return false;
        }
        true
    }

    /// The sight lines found so far on `map` (a small bounded one), shared by every decision on it.
    fn sight(&mut self, map: &BattleMap) -> Option<SightTable> {
        self.same_map(map);
        let area = i64::from(map.width) * i64::from(map.height);
        if self.map.is_none() || map.is_unbounded() || area > Self::MAX_SIGHT_SQUARES {
            return None;
        }
        let area = area as usize;
        Some(self.sight.get_or_insert_with(|| Rc::new(std::cell::RefCell::new(vec![0; area * area]))).clone())
    }

    /// `map`'s [`BattleMap::terrain_costs`], worked out once per map.
    fn terrain(&mut self, map: &BattleMap) -> Rc<Vec<u8>> {
        self.same_map(map);
        if self.map.is_none() {
            return Rc::new(map.terrain_costs());
        }
        self.terrain.clone()
    }

    fn put(&mut self, key: SearchKey, costs: Rc<Vec<u32>>) {
        if self.map.is_none() {
            return;
        }
        if self.entries.len() >= Self::MAX_KEPT
            || (self.entries.len() + 1) * costs.len().max(1) > Self::MAX_KEPT_SQUARES
        {
            self.entries.clear();
        }
        self.entries.insert(key, costs);
    }
}

thread_local! {
    static SEARCHES: std::cell::RefCell<Searches> = Default::default();
}

/// A small, fast hasher for the memo tables of small integer keys (FxHash's mixing step): not
/// for untrusted keys, and the tables are never iterated, so their order does not matter.
#[derive(Default, Clone, Copy)]
struct FxBuild;

struct Fx(u64);

impl std::hash::BuildHasher for FxBuild {
    type Hasher = Fx;
    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_i32(&mut self, i: i32) {
        self.write_u64(u64::from(i as u32));
    }
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn p_active_uncached(atk: &DiceExpr, a: i32, def: &DiceExpr, d: i32, adv: bool, ties_block: bool) -> f32 {
    let sides = atk.single_die().map_or(20, |s| s.min(100) as i32);
    let mut hits = 0.0;
    for r in 1..=sides {
        let total = r.saturating_add(a).saturating_add(atk.flat);
        // The attack hits when the defence total stays below it (or at most equals it).
        let need = if ties_block { total } else { total.saturating_add(1) };
        let block = p_at_least(def, d, need);
        hits += if adv { (1.0 - block) * (1.0 - block) } else { 1.0 - block };
    }
    hits / sides as f32
}

impl<'a> View<'a> {
    fn new(c: &'a Combat, who: Cid) -> Option<Self> {
        let rs = c.ruleset();
        let roster = c.world.resource::<Roster>();
        let my_side = &c.get::<Side>(who)?.0;
        let down = &rs.defeated_condition;
        let reach = rs.engagement.melee_reach;
        let mut units = Vec::with_capacity(roster.entities.len());
        let mut me = None;
        let mut n_enemies = 0usize;
        let mut foe = vec![false; roster.entities.len()];
        let (mut my_casting, mut my_movement) = (None, None);
        for i in 0..roster.entities.len() as u32 {
            let id = Cid(i);
            let r = Read::of(c, id);
            // On another side (or on none), as `hostile_squares` reads the occupants.
            let enemy = r.side.is_none_or(|s| s.0 != *my_side);
            foe[i as usize] = enemy;
            let Some(h) = r.health else { continue };
            let conds = r.conds;
            // Out of the fight: down, or at 0 hit points and unable to act (pf2e's dying). One that
            // recovered at 0 hit points still acts, and any hit puts it back down: it stays, with
            // 1 hit point for pricing.
            let out = conds.is_some_and(|k| k.has(down))
                || (h.hp <= 0 && conds.is_some_and(|k| query::blocks_actions(rs, k)));
            if out && id != who {
                continue;
            }
            let Some(pos) = r.pos.copied() else { continue };
            n_enemies += usize::from(enemy);
            if id == who {
                me = Some(units.len());
                my_casting = r.casting;
                my_movement = r.movement;
            }
            let stats = r.stats?;
            units.push(Unit {
                id,
                pos,
                enemy,
                hp: h.hp.max(1),
                max_hp: h.max,
                stats,
                conds,
                can_act: !conds.is_some_and(|k| query::blocks_actions(rs, k)),
                busy: r.casting.is_some_and(|k| k.0.is_some()),
                speed: r.movement.and_then(|m| m.0.values().copied().max()).unwrap_or(0),
                abilities: r.abilities,
                threat: 0.5,
                w: 0.0,
                melee: None,
                melee_per: 0.0,
                shot: None,
                shot_per: 0.0,
                aoo: None,
                ranged: false,
                rank: r.initiative.map_or(0, |k| k.rank),
                adv: conds.is_some_and(|k| query::has_defense_advantage(rs, k)),
                dodge: match &rs.defense {
                    DefenseRule::ActiveRoll { dodge_stat, .. } => stats.get(dodge_stat),
                    DefenseRule::StaticAc { .. } => 0,
                },
                parry: match &rs.defense {
                    DefenseRule::ActiveRoll { parry_stat, .. } => stats.get(parry_stat),
                    DefenseRule::StaticAc { .. } => 0,
                },
            });
        }
        let me = me?;
        let n_allies = units.iter().filter(|u| !u.enemy).count();
        let mut known = Known::new(rs);
        // Creatures with the same abilities, stats and number of foes rate the same (mirrored
        // sides): (abilities in `known`, stats, foes, rating).
        let mut rated: Vec<(usize, &Stats, usize, Rating)> = Vec::with_capacity(units.len());
        for u in units.iter_mut() {
            let foes = if u.enemy { n_allies } else { n_enemies }.max(1);
            let list = known.index(u.abilities);
            let same = |(l, s, f, _): &&(usize, &Stats, usize, Rating)| {
                *l == list && *f == foes && (std::ptr::eq(*s, u.stats) || **s == *u.stats)
            };
            let r = match rated.iter().find(same) {
                Some(&(_, _, _, r)) => r,
                None => {
                    let r = rating(rs, &known.lists[list].1, u.stats, foes);
                    rated.push((list, u.stats, foes, r));
                    r
                }
            };
            r.apply(u);
        }
        let pool = c.get::<ActionPool>(who)?;
        let (terrain_grid, sight_table, searches_era) = SEARCHES.with(|m| {
            let mut m = m.borrow_mut();
            let terrain = m.terrain(c.map());
            let sight = m.sight(c.map());
            (terrain, sight, m.era)
        });
        let mut v = View {
            c,
            rs,
            me,
            units,
            occupied: &roster.occupied,
            my_casting,
            my_movement,
            hostile_squares: roster
                .occupied
                .iter()
                .filter(|(_, o)| **o != who && foe.get(o.0 as usize).copied().unwrap_or(true))
                .map(|(p, _)| *p)
                .collect(),
            map: c.map(),
            terrain: !c.map().blocked.is_empty() || !c.map().difficult.is_empty() || !c.map().is_unbounded(),
            reach,
            pool,
            opts: Vec::new(),
            movers: Vec::new(),
            abilities: Vec::new(),
            disengaged: c.get::<DisengagedFrom>(who).map_or(&[], |d| d.0.as_slice()),
            v0: 0.0,
            mean_w: 0.0,
            assist: c.get::<AssistBonuses>(who).map_or(0, |a| a.0.iter().fold(0i32, |b, x| b.saturating_add(x.bonus))),
            p_active: match &rs.defense {
                DefenseRule::ActiveRoll { attack_dice, dice, defender_wins_ties, .. } => {
                    Some(p_active_slots(attack_dice, dice, *defender_wins_ties))
                }
                DefenseRule::StaticAc { .. } => None,
            },
            sight: std::cell::RefCell::new(BTreeMap::new()),
            casting: my_casting.is_some_and(|k| k.0.is_some()),
            ac_memo: std::cell::RefCell::new(Vec::new()),
            reach_memo: std::cell::RefCell::new(None),
            terrain_grid,
            sight_grid: std::cell::RefCell::new(Vec::new()),
            dmg_memo: std::cell::RefCell::new(Vec::new()),
            incoming_memo: std::cell::RefCell::new(Vec::new()),
            pos_memo: Default::default(),
            fill_memo: std::cell::RefCell::new(Vec::with_capacity(32)),
            flank_memo: Default::default(),
            per_target: Default::default(),
            self_buff_memo: Default::default(),
            near_enemy_grid: Default::default(),
            greedy_known: Default::default(),
            near_scratch: Default::default(),
            near_order: Default::default(),
            occ_grid: Vec::new(),
            squares_memo: Default::default(),
            shortlist_memo: Default::default(),
            sight_table,
            searches_era,
        };
        v.read_abilities(&mut known);
        v.index_occupants();
        let mean_w = {
            let (n, s) = v.units.iter().filter(|u| u.enemy).fold((0.0f32, 0.0f32), |(n, s), u| (n + 1.0, s + u.w));
            if n > 0.0 { s / n } else { 0.0 }
        };
        let me_u = &v.units[v.me];
        let per_use =
            me_u.melee.map_or(0.0, |(_, n)| me_u.melee_per * n).max(me_u.shot.map_or(0.0, |(_, n)| me_u.shot_per * n));
        let uses = me_u.melee.map_or(1.0, |m| m.1).max(me_u.shot.map_or(1.0, |s| s.1)).max(1.0);
        v.v0 = (per_use / uses).max(0.5) * mean_w;
        v.mean_w = mean_w;
        Some(v)
    }

    /// Fill `occ_grid` from the roster's occupancy (small bounded maps only).
    fn index_occupants(&mut self) {
        let map = self.map;
        if map.is_unbounded() || i64::from(map.width) * i64::from(map.height) > 1 << 16 {
            return;
        }
        let w = map.width as usize;
        let mut grid = vec![0u16; w * map.height as usize];
        for (p, o) in self.occupied {
            if !map.in_bounds(*p) {
                continue;
            }
            let i = self.units.iter().position(|u| u.id == *o);
            grid[p.y as usize * w + p.x as usize] = i.and_then(|i| u16::try_from(i + 1).ok()).unwrap_or(u16::MAX);
        }
        self.occ_grid = grid;
    }

    /// The creature the AI counts standing on `p`, if any (standing creatures only: a downed
    /// creature's square reads as empty).
    fn occupant(&self, p: GridPos) -> Option<&Unit<'a>> {
        if !self.occ_grid.is_empty() && self.map.in_bounds(p) {
            let i = self.occ_grid[p.y as usize * self.map.width as usize + p.x as usize];
            return (i > 0 && i < u16::MAX).then(|| &self.units[usize::from(i) - 1]);
        }
        let o = self.occupied.get(&p)?;
        self.units.iter().find(|u| u.id == *o)
    }

    /// Whether `p` is free for `who` to stop on: nobody there, or `who` itself.
    fn free_for(&self, p: GridPos, who: Cid) -> bool {
        if !self.occ_grid.is_empty() && self.map.in_bounds(p) {
            return match self.occ_grid[p.y as usize * self.map.width as usize + p.x as usize] {
                0 => true,
                u16::MAX => false,
                i => self.units[usize::from(i) - 1].id == who,
            };
        }
        self.occupied.get(&p).is_none_or(|o| *o == who)
    }

    /// Sort the decider's abilities into options and movers.
    fn read_abilities(&mut self, known: &mut Known<'a>) {
        let rs = self.rs;
        let who = self.units[self.me].id;
        let items = self.c.get::<Inventory>(who);
        let holding = self.my_casting.and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding);
        let conds = self.units[self.me].conds;
        let modes = self.my_movement;
        for &d in known.of(self.units[self.me].abilities) {
            self.abilities.push(d);
            if !on_turn(d) || (holding && d.hold_surcharge.is_none()) {
                continue;
            }
            if d.cast_time.is_some()
                && query::missing_component(rs, d, conds.unwrap_or(&NO_CONDITIONS), items.unwrap_or(&NO_ITEMS))
                    .is_some()
            {
                continue;
            }
            if matches!(rs.multi_turn, MultiTurnActivities::OnlyIfOwnTimeAtLeastOneRound) && d.casting_rounds.is_some()
            {
                // Its effect comes a round later: nothing the planner prices.
                continue;
            }
            if let Some(limit) = d.limit_per_turn
                && self.pool.uses_this_turn.get(&d.id).copied().unwrap_or(0) >= limit
            {
                continue;
            }
            let kind = match &d.effect {
                Effect::Attack { kind, stat, damage, iterative } => {
                    Some(Kind::Attack { kind: *kind, stat, dmg: damage, iterative })
                }
                Effect::SelfCondition { condition, duration } => {
                    rs.condition(condition).map(|cond| Kind::SelfBuff { cond, lasts: *duration })
                }
                Effect::TargetCondition { condition, value, duration } => rs.condition(condition).map(|cond| {
                    if cond.negative || cond.blocks_actions || cond.regain_loses_value || cond.rt_add > 0 {
                        Kind::OnEnemies { cond, value: value.unwrap_or(1), lasts: *duration }
                    } else {
                        Kind::OnAllies { cond, value: value.unwrap_or(1), lasts: *duration }
                    }
                }),
                Effect::Save { stat, dc, damage, on_fail, duration } => {
                    Some(Kind::Save { stat, dc: *dc, dmg: damage.as_ref(), on_fail, lasts: *duration })
                }
                Effect::Damage { amount } => Some(Kind::Damage { dmg: amount }),
                Effect::Heal { amount } => Some(Kind::Heal { amount }),
                Effect::Assist { bonus, .. } => Some(Kind::Assist { bonus: *bonus }),
                Effect::Move | Effect::MoveAs { .. } | Effect::Step | Effect::Disengage | Effect::Charge { .. } => {
                    let fastest = modes.and_then(|m| m.0.iter().max_by_key(|(k, s)| (**s, std::cmp::Reverse(*k))));
                    let several = modes.is_some_and(|m| m.0.len() > 1);
                    let mover = match &d.effect {
                        Effect::Move => fastest.map(|(m, s)| Mover {
                            def: d,
                            range: *s,
                            mode: several.then_some(m.as_str()),
                            provokes: true,
                            disengage: false,
                            charge: None,
                        }),
                        Effect::MoveAs { mode } => modes.and_then(|m| m.0.get(mode)).map(|s| Mover {
                            def: d,
                            range: *s,
                            mode: None,
                            provokes: true,
                            disengage: false,
                            charge: None,
                        }),
                        Effect::Step => Some(Mover {
                            def: d,
                            range: rs.engagement.step_squares,
                            mode: None,
                            provokes: false,
                            disengage: false,
                            charge: None,
                        }),
                        Effect::Disengage => Some(Mover {
                            def: d,
                            range: rs.engagement.disengage_squares,
                            mode: None,
                            provokes: false,
                            disengage: true,
                            charge: None,
                        }),
                        Effect::Charge { stat, damage, bonus } => fastest.map(|(m, s)| Mover {
                            def: d,
                            range: s.saturating_mul(2),
                            mode: several.then_some(m.as_str()),
                            provokes: true,
                            disengage: false,
                            charge: Some((stat.as_str(), damage, *bonus)),
                        }),
                        _ => None,
                    };
                    if let Some(m) = mover
                        && m.range > 0
                    {
                        self.movers.push(m);
                    }
                    None
                }
                _ => None,
            };
            if let Some(kind) = kind {
                self.opts.push(Opt { def: d, kind, sight: d.effect.needs_sight() });
            }
        }
    }

    fn me(&self) -> &Unit<'a> {
        &self.units[self.me]
    }

    fn budget(&self) -> Budget {
        let p = self.pool;
        match self.rs.budget {
            ActionBudget::TypedSlots { .. } => Budget::Typed {
                standard: p.standard,
                moves: p.moves,
                swift: p.swift,
                moved: p.moved,
                stepped: p.stepped,
                one_of: p.one_of,
            },
            ActionBudget::OneTimedActionPerTurn => Budget::Timed { left: p.spent == 0 },
            _ => Budget::Pool { regular: p.regular(), restricted: p.restricted_left },
        }
    }

    /// Time until the next turn if `d` is used now (segments).
    fn time_of(&self, d: &AbilityDef) -> f32 {
        if d.timing == Timing::Free {
            return 0.0;
        }
        let rt = query::recovery_time(self.rs, self.me().conds.unwrap_or(&NO_CONDITIONS), d.recovery.unwrap_or(1));
        (rt + d.cast_time.unwrap_or(0) + d.focus_time.unwrap_or(0)) as f32
    }

    /// The cost of `d` in plan units and the budget after it, or None if it cannot be paid.
    fn spend(&self, b: Budget, d: &AbilityDef) -> Option<(f32, Budget)> {
        match b {
            Budget::Pool { regular, restricted } => {
                if d.timing == Timing::Free || d.cost == 0 {
                    return Some((0.0, b));
                }
                let rto = &self.pool.restricted_to;
                let r = if rto.is_empty() || rto.contains(&d.id) { restricted } else { 0 };
                if d.cost > regular.saturating_add(r) {
                    return None;
                }
                let from_r = r.min(d.cost);
                Some((
                    f32::from(d.cost),
                    Budget::Pool { regular: regular - (d.cost - from_r), restricted: restricted - from_r },
                ))
            }
            Budget::Typed { mut standard, mut moves, mut swift, mut moved, mut stepped, one_of } => {
                let movement = d.effect.excludes_five_foot_step();
                if movement && stepped {
                    return None;
                }
                let cost = match d.action {
                    ActionType::Standard if standard > 0 => {
                        standard -= 1;
                        1.0
                    }
                    ActionType::Move if moves > 0 || standard > 0 => {
                        if moves > 0 {
                            moves -= 1
                        } else {
                            standard -= 1
                        }
                        1.0
                    }
                    ActionType::FullRound if !one_of && standard > 0 && moves > 0 && !moved => {
                        standard = 0;
                        moves = 0;
                        2.0
                    }
                    ActionType::Swift | ActionType::Immediate if swift > 0 => {
                        swift -= 1;
                        0.3
                    }
                    ActionType::Free => 0.1,
                    ActionType::FiveFootStep if !one_of && !moved && !stepped => {
                        stepped = true;
                        0.2
                    }
                    _ => return None,
                };
                if one_of && matches!(d.action, ActionType::Standard | ActionType::Move) {
                    standard = 0;
                    moves = 0;
                }
                moved |= movement;
                Some((cost, Budget::Typed { standard, moves, swift, moved, stepped, one_of }))
            }
            Budget::Timed { left } => {
                if d.timing == Timing::Free {
                    return Some((0.0, b));
                }
                left.then(|| (self.time_of(d), Budget::Timed { left: false }))
            }
        }
    }

    // ---- odds -----------------------------------------------------------------------------

    /// [`query::armor_class`] of `u` with a change of `m.ac`, remembered for the decision.
    fn ac(&self, u: &Unit, ac_stat: &str, m: DefMod) -> i32 {
        if let Some(&(_, _, ac)) = self.ac_memo.borrow().iter().find(|(id, mac, _)| *id == u.id && *mac == m.ac) {
            return ac;
        }
        let base = u.stats.get(ac_stat).saturating_add(m.ac);
        let ac = query::armor_class(self.rs, base, u.stats, u.conds.unwrap_or(&NO_CONDITIONS));
        self.ac_memo.borrow_mut().push((u.id, m.ac, ac));
        ac
    }

    /// P(an attack with this bonus hits `t`).
    fn p_hit(&self, bonus: i32, melee: bool, opportunity: bool, t: &Unit, m: DefMod) -> f32 {
        match &self.rs.defense {
            DefenseRule::StaticAc { attack_dice, ac_stat } => p_at_least(attack_dice, bonus, self.ac(t, ac_stat, m)),
            DefenseRule::ActiveRoll { attack_dice, dice, defender_wins_ties, .. } => {
                if !t.can_act {
                    return 1.0;
                }
                let (dodge, parry) = (t.dodge, t.parry);
                let mut best = None;
                if dodge > 0 {
                    best = Some(dodge);
                }
                if melee && !opportunity && parry > 0 {
                    best = Some(best.map_or(parry, |b: i32| b.max(parry)));
                }
                let Some(d) = best else { return 1.0 };
                let adv = m.adv || t.adv;
                let diff = bonus.saturating_sub(d);
                if !(-60..=60).contains(&diff) {
                    return p_active(attack_dice, bonus, dice, d, adv, *defender_wins_ties);
                }
                let slot = (diff + 60) as usize + 121 * usize::from(adv);
                let Some(slots) = self.p_active.as_ref() else {
                    return p_active(attack_dice, diff, dice, 0, adv, *defender_wins_ties);
                };
                let cached = slots.borrow()[slot];
                if cached.is_nan() {
                    let p = p_active(attack_dice, diff, dice, 0, adv, *defender_wins_ties);
                    slots.borrow_mut()[slot] = p;
                    p
                } else {
                    cached
                }
            }
        }
    }

    /// Whether `t` is flanked if the decider stands on `from` (two of its enemies on opposite
    /// sides, one of them possibly the decider): [`query::flanked`] with the decider moved to
    /// `from`, by way of [`View::flank_squares`].
    fn flanked_from(&self, t: &Unit, from: GridPos) -> bool {
        if self.rs.engagement.flanking_attack_bonus == 0 {
            return false;
        }
        // Remembered for the units themselves; a copy (moved, say) is worked out afresh.
        let f = match self.unit_index(t) {
            Some(i) => {
                let mut memo = self.flank_memo.borrow_mut();
                if memo.len() != self.units.len() {
                    memo.clear();
                    memo.resize(self.units.len(), None);
                }
                *memo[i].get_or_insert_with(|| self.flank_squares(t))
            }
            None => self.flank_squares(t),
        };
        f.always || f.squares[..usize::from(f.n)].contains(&from)
    }

    /// The index in `units` of `t`, if it is one of them (not a copy).
    fn unit_index(&self, t: &Unit) -> Option<usize> {
        let size = std::mem::size_of::<Unit>();
        let at = (t as *const Unit as usize).wrapping_sub(self.units.as_ptr() as usize);
        (size > 0 && at.is_multiple_of(size) && at / size < self.units.len()).then_some(at / size)
    }

    /// Where [`View::flanked_from`] holds for `t` whatever the decider's square (`always`), else the
    /// squares the decider would flank it from: opposite a foe of `t` across it. (Two squares
    /// opposite each other across `t` differ, so the decider stands on at most one of them.)
    fn flank_squares(&self, t: &Unit) -> Flank {
        let me = self.me().id;
        let foe_at = |p: GridPos| self.occupant(p).is_some_and(|u| u.id != me && u.enemy != t.enemy);
        let mut f = Flank { always: false, squares: [GridPos::default(); 8], n: 0 };
        for (n, o) in query::opposite_squares(t.pos) {
            match (foe_at(n), foe_at(o)) {
                (true, true) => f.always = true,
                (false, true) => {
                    f.squares[usize::from(f.n)] = n;
                    f.n += 1;
                }
                _ => {}
            }
        }
        f
    }

    /// The decider's attack stat and damage range for an attack with `stat` and `dmg`, looked up
    /// once for pricing it against every target from many squares.
    fn attack_roll(&self, stat: &str, dmg: &DiceExpr) -> AttackRoll {
        let me = self.me();
        AttackRoll { stat: me.stats.get(stat), range: self.dmg(dmg, me.stats) }
    }

    /// Expected damage (capped at `left` hit points) of an attack by the decider from `from`.
    fn attack_dmg(
        &self,
        from: GridPos,
        roll: &AttackRoll,
        mods: &[i32],
        extra: i32,
        melee: bool,
        t: &Unit,
        left: i32,
    ) -> f32 {
        let mut bonus = roll.stat.saturating_add(extra);
        if melee && self.flanked_from(t, from) {
            bonus = bonus.saturating_add(self.rs.engagement.flanking_attack_bonus);
        }
        bonus = bonus.saturating_add(self.assist);
        let (lo, hi, mean) = roll.range;
        let mut left = left as f32;
        let mut total = 0.0;
        for m in std::iter::once(&0).chain(mods.iter()) {
            if left <= 0.0 {
                break;
            }
            let p = self.p_hit(bonus.saturating_add(*m), melee, false, t, DefMod::default());
            let e = p * emin(lo, hi, mean, left.ceil() as i32);
            total += e;
            left -= e;
        }
        total
    }

    /// Expected damage per round `e` deals to `a` with its best attack, given a defence change.
    fn dpr_against(&self, e: &Unit, a: &Unit, m: DefMod) -> f32 {
        if !e.can_act || e.busy {
            return 0.0;
        }
        let d = e.pos.distance(a.pos);
        let mut best = 0.0f32;
        let reach_next = e.speed.saturating_mul(2).saturating_add(self.reach);
        if let Some((def, n)) = e.melee
            && d <= reach_next
        {
            best = best.max(self.attack_by(e, def, a, false, m) * n);
        }
        if let Some((def, n)) = e.shot {
            best = best.max(self.attack_by(e, def, a, false, m) * n);
        }
        best
    }

    /// Expected damage of one use of `def` by `e` on `a`.
    fn attack_by(&self, e: &Unit, def: &AbilityDef, a: &Unit, opportunity: bool, m: DefMod) -> f32 {
        match &def.effect {
            Effect::Attack { kind, stat, damage, iterative } => {
                let bonus = e.stats.get(stat);
                let (_, _, mean) = self.dmg(damage, e.stats);
                let melee = *kind == AttackKind::Melee;
                std::iter::once(&0)
                    .chain(iterative.iter())
                    .map(|x| self.p_hit(bonus.saturating_add(*x), melee, opportunity, a, m) * mean)
                    .sum()
            }
            Effect::Damage { amount } => self.dmg(amount, e.stats).2,
            Effect::Save { stat, dc, damage: Some(d), .. } => {
                let p_fail = 1.0 - p_at_least(&self.rs.saves.dice, a.stats.get(stat), self.save_need(*dc));
                p_fail * self.dmg(d, e.stats).2
            }
            _ => 0.0,
        }
    }

    fn save_need(&self, dc: i32) -> i32 {
        if self.rs.saves.saver_wins_ties { dc } else { dc.saturating_add(1) }
    }

    /// Chance that `e` picks `a` among its side's targets next round.
    fn targets_me(&self, e: &Unit, a: &Unit) -> f32 {
        let d = e.pos.distance(a.pos);
        if d <= self.reach {
            let adjacent =
                self.units.iter().filter(|u| u.enemy != e.enemy && u.pos.distance(e.pos) <= self.reach).count();
            return 1.0 / adjacent.max(1) as f32;
        }
        let side = self.units.iter().filter(|u| u.enemy == a.enemy).count();
        1.0 / side.max(1) as f32
    }

    /// [`dmg_range`], remembered for the decision (the expressions and stat blocks live as long
    /// as the view, so their addresses name them).
    fn dmg(&self, e: &DiceExpr, stats: &Stats) -> (i32, i32, f32) {
        let key = (e as *const DiceExpr, stats as *const Stats);
        if let Some(&(_, _, r)) = self.dmg_memo.borrow().iter().find(|(a, b, _)| (*a, *b) == key) {
            return r;
        }
        let r = dmg_range(e, stats);
        self.dmg_memo.borrow_mut().push((key.0, key.1, r));
        r
    }

    /// Damage `a` expects before its next turn, with a defence change.
    fn incoming(&self, a: &Unit, m: DefMod) -> f32 {
        let hit = self
            .incoming_memo
            .borrow()
            .iter()
            .find(|(id, pos, ac, adv, _)| *id == a.id && *pos == a.pos && *ac == m.ac && *adv == m.adv)
            .map(|x| x.4);
        if let Some(v) = hit {
            return v;
        }
        let v = self.incoming_uncached(a, m);
        self.incoming_memo.borrow_mut().push((a.id, a.pos, m.ac, m.adv, v));
        v
    }

    fn incoming_uncached(&self, a: &Unit, m: DefMod) -> f32 {
        self.units
            .iter()
            .filter(|e| e.enemy != a.enemy)
            .map(|e| self.dpr_against(e, a, m) * self.targets_me(e, a))
            .sum()
    }

    /// Rounds an effect lasting `lasts` is counted for.
    fn rounds(&self, lasts: Option<Lasts>, save_ends: bool) -> f32 {
        match lasts {
            None if save_ends => 1.5,
            None => HORIZON,
            Some(Lasts::Rounds(n)) | Some(Lasts::OwnerTurns(n)) => (n as f32).min(HORIZON),
            Some(Lasts::Sustained) => 1.0,
            Some(Lasts::UntilEndOfTurn) => 0.0,
        }
    }

    /// What putting `cond` (at `value`) on `u` is worth, friend or foe.
    fn condition_value(&self, u: &Unit, cond: &ConditionDef, value: i32, lasts: Option<Lasts>) -> f32 {
        if u.conds.is_some_and(|k| k.0.get(&cond.id).is_some_and(|s| s.value >= value || !cond.stacks)) {
            return 0.0;
        }
        let rounds = self.rounds(lasts, cond.save_ends.is_some());
        let mut v = 0.0;
        if u.enemy {
            if cond.blocks_actions && u.can_act {
                v += u.threat * rounds / HORIZON;
            }
            if cond.regain_loses_value {
                let actions = match self.rs.budget {
                    ActionBudget::PerTurnPool { actions, .. } | ActionBudget::PerRoundPool { actions } => actions,
                    _ => 3,
                };
                v += u.threat * (value.max(0) as f32 / f32::from(actions.max(1))).min(1.0) * rounds / HORIZON;
            }
            if cond.rt_add > 0 {
                v += u.threat * (cond.rt_add as f32 / (cond.rt_add as f32 + 3.0)) * rounds / HORIZON;
            }
            if let Some(d) = &cond.persistent_damage {
                v += self.dmg(d, u.stats).2 * u.w * rounds;
            }
            if cond.ac_bonus < 0 || cond.ac_loses_stat.is_some() {
                v += 0.1 * u.threat * rounds / HORIZON;
            }
        } else {
            if cond.ac_bonus > 0 || cond.defense_advantage {
                let m = DefMod { ac: cond.ac_bonus.max(0), adv: cond.defense_advantage };
                let prevented = (self.incoming(u, DefMod::default()) - self.incoming(u, m)).max(0.0);
                v += DEFENSE_WEIGHT * prevented * u.w * rounds;
            }
            if cond.regain_bonus > 0 {
                // One more action a turn, spent on its best attack.
                let per = u.melee.map_or(0.0, |(_, n)| u.melee_per * n.min(1.0));
                let restricted_ok = cond.bonus_restricted_to.is_empty()
                    || u.melee.is_some_and(|(d, _)| cond.bonus_restricted_to.contains(&d.id));
                if restricted_ok {
                    v += per * f32::from(cond.regain_bonus) * self.mean_enemy_w() * rounds;
                }
            }
        }
        v
    }

    /// The mean threat per hit point of the enemies (worked out once, in [`View::new`]).
    fn mean_enemy_w(&self) -> f32 {
        self.mean_w
    }

    // ---- pricing one option ------------------------------------------------------------------

    /// The value of using option `o` from `from`, its targets, and the expected damage it adds to
    /// each enemy (written into `dealt` when `commit`).
    fn eval(&self, o: &Opt, from: GridPos, dealt: &mut [f32], commit: bool) -> (f32, Tgt) {
        let (v, t, _) = self.eval_hit(o, from, dealt, commit, None);
        (v, t)
    }

    /// [`View::eval`], also returning, for an attack, the one target (its index in `units`) and
    /// the expected damage that taking it adds to `dealt`. For an attack, `known` (one entry a
    /// creature) keeps the expected damage on each target worked out so far under this `dealt`
    /// (NaN: not yet; negative infinity: not a target), so that after one target's `dealt`
    /// changes only it is priced again.
    fn eval_hit(
        &self,
        o: &Opt,
        from: GridPos,
        dealt: &mut [f32],
        commit: bool,
        mut known: Option<&mut [f32]>,
    ) -> (f32, Tgt, Option<(usize, f32)>) {
        let me = self.me();
        let (v, t) = match o.kind {
            Kind::Attack { kind, stat, dmg, iterative } => {
                let melee = kind == AttackKind::Melee;
                let mut best: Option<(f32, usize, f32)> = None;
                let mut roll = None;
                for (i, t) in self.units.iter().enumerate() {
                    let kept = known.as_deref().and_then(|k| k.get(i)).copied().filter(|e| !e.is_nan());
                    let e = match kept {
                        Some(f32::NEG_INFINITY) => continue,
                        Some(e) => e,
                        None => {
                            let left = t.hp - dealt[i].ceil() as i32;
                            let target = t.enemy
                                && (!melee || from.distance(t.pos) <= self.reach)
                                && self.aims(o, from, t.pos)
                                && left > 0;
                            let e = if target {
                                let roll = roll.get_or_insert_with(|| self.attack_roll(stat, dmg));
                                self.attack_dmg(from, roll, iterative, 0, melee, t, left)
                            } else {
                                f32::NEG_INFINITY
                            };
                            if let Some(slot) = known.as_deref_mut().and_then(|k| k.get_mut(i)) {
                                *slot = e;
                            }
                            if !target {
                                continue;
                            }
                            e
                        }
                    };
                    let v = e * t.w;
                    if best.is_none_or(|(bv, _, _)| v > bv + 1e-6) {
                        best = Some((v, i, e));
                    }
                }
                return match best {
                    Some((v, i, e)) => {
                        if commit {
                            dealt[i] += e;
                        }
                        (v, Tgt::One(self.units[i].id), Some((i, e)))
                    }
                    None => (0.0, Tgt::None, None),
                };
            }
            Kind::SelfBuff { cond, lasts } => {
                // Worth the same from every square (it reads where the decider stands now).
                let key = o.def as *const AbilityDef;
                let kept = self.self_buff_memo.borrow().iter().find(|(d, _)| *d == key).map(|x| x.1);
                let v = kept.unwrap_or_else(|| {
                    let v = self.condition_value(me, cond, 1, lasts);
                    self.self_buff_memo.borrow_mut().push((key, v));
                    v
                });
                (v, Tgt::None)
            }
            Kind::OnAllies { cond, value, lasts } => {
                let v: f32 = self
                    .units
                    .iter()
                    .filter(|u| !u.enemy && (u.id == me.id || self.aims(o, from, u.pos)))
                    .map(|u| self.condition_value(u, cond, value, lasts))
                    .sum();
                (v, Tgt::Allies)
            }
            Kind::OnEnemies { cond, value, lasts } => {
                let v: f32 = self
                    .units
                    .iter()
                    .filter(|u| u.enemy && self.aims(o, from, u.pos))
                    .map(|u| self.condition_value(u, cond, value, lasts))
                    .sum();
                (v, Tgt::AllEnemies)
            }
            Kind::Save { stat, dc, dmg, on_fail, lasts } => {
                let mut v = 0.0;
                for (i, t) in self.units.iter().enumerate() {
                    if !t.enemy || !self.aims(o, from, t.pos) {
                        continue;
                    }
                    let left = t.hp - dealt[i].ceil() as i32;
                    if left <= 0 {
                        continue;
                    }
                    let p_fail = 1.0 - p_at_least(&self.rs.saves.dice, t.stats.get(stat), self.save_need(dc));
                    let mut e = 0.0;
                    if let Some(d) = dmg {
                        let (lo, hi, mean) = self.dmg(d, me.stats);
                        e = p_fail * emin(lo, hi, mean, left);
                    }
                    let conds: f32 = on_fail
                        .iter()
                        .filter_map(|c| self.rs.condition(c))
                        .map(|c| self.condition_value(t, c, 1, lasts))
                        .sum();
                    v += e * t.w + p_fail * conds;
                    if commit {
                        dealt[i] += e;
                    }
                }
                (v, Tgt::AllEnemies)
            }
            Kind::Damage { dmg } => {
                let (lo, hi, mean) = self.dmg(dmg, me.stats);
                let mut v = 0.0;
                for (i, t) in self.units.iter().enumerate() {
                    if !t.enemy || !self.aims(o, from, t.pos) {
                        continue;
                    }
                    let left = t.hp - dealt[i].ceil() as i32;
                    let e = emin(lo, hi, mean, left);
                    v += e * t.w;
                    if commit {
                        dealt[i] += e;
                    }
                }
                (v, Tgt::AllEnemies)
            }
            Kind::Heal { amount } => {
                let (lo, hi, mean) = self.dmg(amount, me.stats);
                let v = self
                    .units
                    .iter()
                    .filter(|u| !u.enemy && (u.id == me.id || self.aims(o, from, u.pos)))
                    .filter_map(|u| {
                        let max = u.max_hp;
                        let missing = max - u.hp;
                        (missing > 0).then(|| emin(lo, hi, mean, missing) * u.threat / max.max(1) as f32)
                    })
                    .sum();
                (v, Tgt::Allies)
            }
            Kind::Assist { bonus } => {
                // A bonus on an ally's next roll: worth a share of one of its attacks.
                let mut best: Option<(f32, Cid)> = None;
                for a in self.units.iter().filter(|u| !u.enemy && u.id != me.id && u.can_act) {
                    let engaged = self.units.iter().any(|e| e.enemy && e.pos.distance(a.pos) <= self.reach);
                    let per = match (engaged, a.melee, a.shot) {
                        (true, Some(_), _) => a.melee_per,
                        (false, _, Some(_)) => a.shot_per,
                        _ => continue,
                    };
                    let v = per * (bonus.max(0) as f32 / 20.0) * self.mean_enemy_w();
                    if best.is_none_or(|(bv, _)| v > bv + 1e-6) {
                        best = Some((v, a.id));
                    }
                }
                best.map_or((0.0, Tgt::None), |(v, id)| (v, Tgt::One(id)))
            }
        };
        (v, t, None)
    }

    /// Fill a budget from `from` with the best options. Returns the total value, the first
    /// option's index and targets, and (for one timed action) the segments it takes.
    fn fill(&self, from: GridPos, b: Budget, dealt: &mut Vec<f32>) -> Filled {
        // A pure function of the square and the budget within a decision (`dealt` is scratch).
        let key = (square_key(from), b.key());
        if let Some(&(_, r)) = self.fill_memo.borrow().iter().find(|(k, _)| *k == key) {
            return r;
        }
        let r = self.fill_uncached(from, b, dealt);
        self.fill_memo.borrow_mut().push((key, r));
        r
    }

    fn fill_uncached(&self, from: GridPos, b: Budget, dealt: &mut Vec<f32>) -> Filled {
        dealt.clear();
        dealt.resize(self.units.len(), 0.0);
        let mut used: u64 = 0;
        match b {
            Budget::Typed { .. } => {
                // A full-round option against a standard action and whatever is left after it.
                let mut best_full: Option<(f32, usize, Tgt)> = None;
                for (i, o) in self.opts.iter().enumerate() {
                    if o.def.action != ActionType::FullRound || self.spend(b, o.def).is_none() {
                        continue;
                    }
                    let (v, t) = self.eval(o, from, dealt, false);
                    if v > EPS && best_full.is_none_or(|(bv, _, _)| v > bv + 1e-6) {
                        best_full = Some((v, i, t));
                    }
                }
                let (rest, rest_first) = self.greedy(from, b, dealt, &mut used, true);
                match best_full {
                    Some((v, i, t)) if v > rest + 1e-6 => (v, Some((i, t)), 0.0),
                    _ => (rest, rest_first, 0.0),
                }
            }
            Budget::Timed { .. } => {
                // One action: the best value per segment.
                let mut best: Option<(f32, f32, f32, usize, Tgt)> = None;
                for (i, o) in self.opts.iter().enumerate() {
                    let Some((time, _)) = self.spend(b, o.def) else { continue };
                    let (v, t) = self.eval(o, from, dealt, false);
                    if v <= EPS {
                        continue;
                    }
                    let rate = v / time.max(0.5);
                    if best.is_none_or(|(br, ..)| rate > br + 1e-6) {
                        best = Some((rate, v, time.max(0.5), i, t));
                    }
                }
                best.map_or((0.0, None, 0.0), |(_, v, time, i, t)| (v, Some((i, t)), time))
            }
            Budget::Pool { .. } => {
                let (v, f) = self.greedy(from, b, dealt, &mut used, false);
                (v, f, 0.0)
            }
        }
    }

    /// Greedy fill by value per cost; full-round options skipped when `no_full`.
    fn greedy(
        &self,
        from: GridPos,
        mut b: Budget,
        dealt: &mut [f32],
        used: &mut u64,
        no_full: bool,
    ) -> (f32, Option<(usize, Tgt)>) {
        let mut total = 0.0;
        let mut first = None;
        let mut first_is_attack = false;
        // Values found so far by option (the first 32): an option whose value does not read
        // `dealt` keeps it for the whole fill; the others until an option that adds to `dealt`
        // is taken.
        let mut known_buf = self.greedy_known.borrow_mut();
        known_buf.clear();
        known_buf.resize(self.opts.len().min(32), None);
        let known = &mut *known_buf;
        // An attack option's expected damage on each creature (see `View::eval_hit`), for the
        // first 32 options: after an attack is taken only its target is priced again.
        let n = self.units.len();
        let mut scratch = self.per_target.borrow_mut();
        scratch.clear();
        scratch.resize(self.opts.len().min(32) * n, f32::NAN);
        let per_target = &mut *scratch;
        for _ in 0..8 {
            let mut best: Option<(f32, f32, usize, Tgt, Budget, Option<(usize, f32)>)> = None;
            for (i, o) in self.opts.iter().enumerate() {
                if no_full && o.def.action == ActionType::FullRound {
                    continue;
                }
                let once =
                    !matches!(o.kind, Kind::Attack { .. } | Kind::Damage { .. } | Kind::Save { dmg: Some(_), .. });
                let Some((cost, nb)) = self.spend(b, o.def) else { continue };
                if (cost < 0.05 || once) && i < 64 && *used & (1 << i) != 0 {
                    continue;
                }
                let (v, t, hit) = match known.get(i).copied().flatten() {
                    Some(vt) => vt,
                    None => {
                        let slots = matches!(o.kind, Kind::Attack { .. })
                            .then(|| per_target.get_mut(i * n..(i + 1) * n))
                            .flatten();
                        let vt = self.eval_hit(o, from, dealt, false, slots);
                        if let Some(k) = known.get_mut(i) {
                            *k = Some(vt);
                        }
                        vt
                    }
                };
                if v <= EPS {
                    continue;
                }
                let rate = v / cost.max(0.5);
                if best.is_none_or(|(br, ..)| rate > br + 1e-6) {
                    best = Some((rate, v, i, t, nb, hit));
                }
            }
            let Some((_, v, i, t, nb, hit)) = best else { break };
            if reads_dealt(&self.opts[i].kind) {
                // Taking it adds its expected damage to `dealt` (an attack's one target is known
                // already): the values that read it change.
                match hit {
                    Some((k, e)) => {
                        dealt[k] += e;
                        for slot in per_target.iter_mut().skip(k).step_by(n.max(1)) {
                            *slot = f32::NAN;
                        }
                    }
                    None => {
                        self.eval(&self.opts[i], from, dealt, true);
                        per_target.fill(f32::NAN);
                    }
                }
                for (k, o) in known.iter_mut().zip(&self.opts) {
                    if reads_dealt(&o.kind) {
                        *k = None;
                    }
                }
            }
            if i < 64 {
                *used |= 1 << i;
            }
            total += v;
            b = nb;
            // Attacks go first: a kill may make the rest of the plan (a shield) unnecessary.
            let attack = matches!(self.opts[i].kind, Kind::Attack { .. });
            if first.is_none() || (attack && !first_is_attack) {
                first = Some((i, t));
                first_is_attack = attack;
            }
        }
        (total, first)
    }

    // ---- where to stand ------------------------------------------------------------------------

    /// Squares of movement from each square to the nearest enemy, around walls and through mud
    /// (the costs paths have), when the map has terrain; on the open plane the Chebyshev distance
    /// is exact. One search from every enemy at once over the map's squares.
    fn approach_field(&self) -> Option<Field> {
        if !self.terrain {
            return None;
        }
        let map = self.map;
        if map.is_unbounded() || (map.width as i64) * (map.height as i64) > 1 << 20 {
            // Terrain on the open plane: searched from each enemy within a bounded budget.
            let budget = self.me().speed.saturating_mul(4).clamp(12, 200);
            let mut field: BTreeMap<GridPos, u32> = BTreeMap::new();
            for e in self.units.iter().filter(|u| u.enemy) {
                for (q, d) in map.reachable(e.pos, budget, |_| true, |_| true) {
                    let x = field.entry(q).or_insert(d);
                    *x = (*x).min(d);
                }
            }
            return Some(Field::Sparse(field));
        }
        let w = map.width;
        let sources: Vec<GridPos> =
            self.units.iter().filter(|u| u.enemy && map.in_bounds(u.pos)).map(|u| u.pos).collect();
        let dist = SEARCHES
            .with(|m| m.borrow_mut().get_in(self.searches_era, map, &SearchKey::Field(sources.clone())))
            .unwrap_or_else(|| {
                let d = Rc::new(self.field_search(&sources));
                SEARCHES.with(|m| m.borrow_mut().put(SearchKey::Field(sources), d.clone()));
                d
            });
        Some(Field::Grid { width: w, dist })
    }

    /// [`View::approach_field`]'s search on a bounded map from the enemies' squares.
    fn field_search(&self, sources: &[GridPos]) -> Vec<u32> {
        let (w, h) = (self.map.width as usize, self.map.height as usize);
        if self.terrain_grid.len() == w * h {
            let starts = sources.iter().map(|p| p.y as usize * w + p.x as usize);
            return dense_search(&self.terrain_grid, w, h, std::iter::empty(), starts, u32::MAX);
        }
        self.field_search_on_map(sources)
    }

    fn field_search_on_map(&self, sources: &[GridPos]) -> Vec<u32> {
        let map = self.map;
        let (w, h) = (map.width, map.height);
        let idx = |p: GridPos| (p.y * w + p.x) as usize;
        let mut dist = vec![u32::MAX; (w * h) as usize];
        let terrain = &self.terrain_grid;
        // Dijkstra with a bucket queue: a step costs 1 or 2, so buckets for d, d+1 and d+2
        // hold the frontier (the cheapest costs are those of any Dijkstra).
        let mut buckets: [Vec<GridPos>; 3] = Default::default();
        let mut queued = 0usize;
        for &pos in sources {
            dist[idx(pos)] = 0;
            buckets[0].push(pos);
            queued += 1;
        }
        let mut d = 0u32;
        while queued > 0 {
            let b = (d % 3) as usize;
            while let Some(p) = buckets[b].pop() {
                queued -= 1;
                if dist[idx(p)] != d {
                    continue;
                }
                for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
                    let q = GridPos { x: p.x + dx, y: p.y + dy };
                    if q.x < 0 || q.y < 0 || q.x >= w || q.y >= h || terrain[idx(q)] == 0 {
                        continue;
                    }
                    let step = u32::from(terrain[idx(q)]);
                    debug_assert!(step < 3);
                    let c = d.saturating_add(step);
                    if c < dist[idx(q)] {
                        dist[idx(q)] = c;
                        buckets[(c % 3) as usize].push(q);
                        queued += 1;
                    }
                }
            }
            d += 1;
        }
        dist
    }

    /// What standing on `q` is worth apart from the attacks made there: exposure to enemy melee
    /// (heavier for a ranged creature) and, for a melee creature, how soon it can strike.
    fn pos_value(&self, q: GridPos, field: Option<&Field>) -> f32 {
        let small = !self.map.is_unbounded() && i64::from(self.map.width) * i64::from(self.map.height) <= 1 << 16;
        let cell = (small && self.map.in_bounds(q)).then(|| q.y as usize * self.map.width as usize + q.x as usize);
        if let Some(i) = cell {
            let mut memo = self.pos_memo.borrow_mut();
            if memo.is_empty() {
                memo.resize(self.map.width as usize * self.map.height as usize, f32::NAN);
            }
            if !memo[i].is_nan() {
                return memo[i];
            }
        }
        let v = self.pos_value_uncached(q, field);
        if let Some(i) = cell {
            self.pos_memo.borrow_mut()[i] = v;
        }
        v
    }

    fn pos_value_uncached(&self, q: GridPos, field: Option<&Field>) -> f32 {
        let me = self.me();
        let mut v = 0.0;
        // A ranged creature pays for standing in enemy reach. Out of reach but within a move is
        // not counted: the enemy closes that gap as fast as it opens, so stepping back from it
        // would only trade shots for nothing. On a segment clock (one timed action) nothing
        // outruns a creature that follows, so it does not step back at all.
        let kites = me.ranged && !matches!(self.rs.budget, ActionBudget::OneTimedActionPerTurn);
        if kites {
            for e in self.units.iter().filter(|u| u.enemy && u.can_act && u.pos.distance(q) <= self.reach) {
                let Some((def, n)) = e.melee else { continue };
                let moved = Unit { pos: q, ..*me };
                v -= self.attack_by(e, def, &moved, false, DefMod::default()) * n * RANGED_EXPOSURE * me.w;
            }
        }
        // A melee creature closes in; so does a ranged one that sees no enemy from there.
        let blind = me.ranged && self.terrain && !self.sees_enemy(q);
        if (!me.ranged || blind) && me.speed > 0 {
            let gap = match field {
                Some(f) => f.get(q).map_or(200, |d| d.saturating_sub(self.reach)),
                None => {
                    let dmin = self.units.iter().filter(|u| u.enemy).map(|u| u.pos.distance(q)).min().unwrap_or(0);
                    dmin.saturating_sub(self.reach)
                }
            };
            if gap > 0 {
                let steps = gap.div_ceil(me.speed.max(1));
                v -= APPROACH * self.v0 * (steps as f32).min(4.0);
                // Closer is better, even past one move.
                v -= APPROACH_PER_SQUARE * self.v0 * gap.min(200) as f32;
            }
        }
        v
    }

    /// Expected cost of the attacks of opportunity a move from here provokes.
    fn aoo_cost(&self) -> f32 {
        let me = self.me();
        let mut cost = 0.0;
        for e in self.units.iter().filter(|u| u.enemy && u.pos.distance(me.pos) <= self.reach) {
            if !self.can_aoo(e) {
                continue;
            }
            if let Some(def) = e.aoo {
                cost += self.attack_by(e, def, me, true, DefMod::default()) * me.w;
            }
        }
        cost
    }

    /// Whether `e` would get an attack of opportunity on the decider moving away now.
    fn can_aoo(&self, e: &Unit) -> bool {
        if !e.can_act || e.busy || e.aoo.is_none() || self.disengaged.contains(&e.id) {
            return false;
        }
        if self.rs.engagement.no_opportunity_from_flanked && self.flanked_by_us(e) {
            return false;
        }
        let pool = self.c.get::<ActionPool>(e.id);
        if self.rs.reactions != ReactionBudget::Unlimited && pool.is_none_or(|p| p.reactions_left == 0) {
            return false;
        }
        if self.c.turn().delayed.contains(&e.id) {
            return false;
        }
        let traits = self.c.get::<Traits>(e.id).unwrap_or(&NO_TRAITS);
        !e.conds.is_some_and(|k| query::flat_footed_no_aoo(self.rs, k, traits))
    }

    /// Whether enemy `e` is flanked by the decider's side as things stand.
    fn flanked_by_us(&self, e: &Unit) -> bool {
        query::flanked(e.pos, |p| self.occupant(p).is_some_and(|u| !u.enemy))
    }

    /// The squares a mover can end on, as the engine finds paths: walls and standing enemies bar
    /// the way, difficult terrain costs double, the square must be free.
    fn squares(&self, range: u32, out: &mut Vec<GridPos>) {
        let who = self.me().id;
        let stop = |p: GridPos| self.free_for(p, who);
        // On a bounded map one search with the longest range serves every mover: a square's
        // cheapest cost within a budget is its cheapest cost, whatever the budget above it.
        let longest = self.movers.iter().map(|m| m.range).max().unwrap_or(0).max(range);
        let mut memo = self.reach_memo.borrow_mut();
        let costs = match &*memo {
            Some((b, c)) if *b == longest => c,
            _ => match self.reach_costs(longest) {
                Some(c) => &memo.insert((longest, c)).1,
                None => {
                    drop(memo);
                    let pass = |p: GridPos| !self.hostile_squares.contains(&p);
                    self.map.reachable_squares(self.me().pos, range, pass, stop, out);
                    return;
                }
            },
        };
        out.clear();
        let (w, h) = (self.map.width as usize, self.map.height as usize);
        if self.occ_grid.len() == w * h && costs.len() == w * h {
            // [`View::free_for`] read straight from the occupancy grid: nobody there, or the
            // decider (the index in `units` plus one; `u16::MAX` is never a unit's).
            let mine = u16::try_from(self.me + 1).unwrap_or(u16::MAX);
            let occ = &self.occ_grid;
            out.reserve(64);
            // `GridPos` orders by column, then row, as `BattleMap::reachable_squares` lists them.
            for x in 0..w {
                for y in 0..h {
                    let i = y * w + x;
                    if costs[i] <= range && (occ[i] == 0 || (occ[i] != u16::MAX && occ[i] == mine)) {
                        out.push(GridPos { x: x as i32, y: y as i32 });
                    }
                }
            }
            return;
        }
        out.reserve(costs.iter().filter(|c| **c <= range).count());
        // `GridPos` orders by column, then row, as `BattleMap::reachable_squares` lists them.
        for x in 0..w {
            for y in 0..h {
                if costs[y * w + x] <= range {
                    let p = GridPos { x: x as i32, y: y as i32 };
                    if stop(p) {
                        out.push(p);
                    }
                }
            }
        }
    }

    /// [`BattleMap::reachable_costs`] from the decider's square, past no hostile square,
    /// remembered across decisions on the same map with the same hostile squares. (The search
    /// runs on the terrain grid with the hostile squares made walls: a wall and a square the
    /// mover may not pass are skipped alike, and a grid is cheaper to read than a test per step.)
    fn reach_costs(&self, budget: u32) -> Option<Rc<Vec<u32>>> {
        let from = self.me().pos;
        if self.map.is_unbounded() || !self.map.in_bounds(from) {
            return None;
        }
        let key = SearchKey::Reach { from, budget, hostile: self.hostile_squares.clone() };
        if let Some(c) = SEARCHES.with(|m| m.borrow_mut().get_in(self.searches_era, self.map, &key)) {
            return Some(c);
        }
        let (w, h) = (self.map.width as usize, self.map.height as usize);
        let own;
        let terrain = if self.terrain_grid.len() == w * h {
            &self.terrain_grid[..]
        } else {
            own = self.map.terrain_costs();
            &own
        };
        let walls =
            self.hostile_squares.iter().filter(|q| self.map.in_bounds(**q)).map(|q| q.y as usize * w + q.x as usize);
        let start = from.y as usize * w + from.x as usize;
        let mut costs = dense_search(terrain, w, h, walls, std::iter::once(start), budget);
        // As `BattleMap::reachable_costs_on`: the start is not a square to move to.
        costs[start] = u32::MAX;
        let c = Rc::new(costs);
        SEARCHES.with(|m| m.borrow_mut().put(key, c.clone()));
        Some(c)
    }

    /// The squares worth a full look among `all`: those within reach of an enemy (for melee), and
    /// the best few by position alone.
    fn shortlist(&self, all: &[GridPos], field: Option<&Field>, out: &mut Vec<(f32, GridPos)>) {
        out.clear();
        let me = self.me().pos;
        let melee = self.opts.iter().any(|o| matches!(o.kind, Kind::Attack { kind: AttackKind::Melee, .. }));
        let shoots = self.me().shot.is_some();
        out.reserve(all.len());
        let order = |a: &(f32, GridPos), b: &(f32, GridPos)| {
            b.0.total_cmp(&a.0).then_with(|| (me.distance(a.1), a.1.y, a.1.x).cmp(&(me.distance(b.1), b.1.y, b.1.x)))
        };
        // The best 4 of the other squares, best first: the order is total (squares differ), so
        // keeping the best 4 as they come gives the first 4 of everything sorted.
        let mut rest: Vec<(f32, GridPos)> = Vec::with_capacity(5);
        let mut sighted: Vec<(f32, GridPos)> = Vec::new();
        // Nearest squares first, so that looking for a line of sight can stop early.
        let mut near = std::mem::take(&mut *self.near_order.borrow_mut());
        self.nearest_first(all, &mut near);
        for &q in &near {
            let pv = self.pos_value(q, field);
            if melee && self.near_enemy(q) {
                out.push((pv, q));
            } else if shoots && self.terrain && sighted.len() < 12 && self.sees_enemy(q) {
                sighted.push((pv, q));
            } else if rest.len() < 4 || order(&(pv, q), &rest[3]).is_lt() {
                let at = rest.iter().position(|r| order(&(pv, q), r).is_lt()).unwrap_or(rest.len());
                rest.insert(at, (pv, q));
                rest.truncate(4);
            }
        }
        // The best few squares with a shot at someone, nearest first among equals.
        sighted.sort_by(|a, b| {
            b.0.total_cmp(&a.0).then_with(|| (me.distance(a.1), a.1.y, a.1.x).cmp(&(me.distance(b.1), b.1.y, b.1.x)))
        });
        out.extend(sighted.into_iter().take(3));
        out.extend(rest);
        *self.near_order.borrow_mut() = near;
    }

    /// Whether an enemy stands within melee reach of `q`. On a small bounded map, worked out for
    /// every square at once (each enemy marks the squares around it).
    fn near_enemy(&self, q: GridPos) -> bool {
        let area = self.occ_grid.len();
        if area == 0 || !self.map.in_bounds(q) {
            return self.units.iter().any(|u| u.enemy && u.pos.distance(q) <= self.reach);
        }
        let (w, h) = (i64::from(self.map.width), i64::from(self.map.height));
        let mut grid = self.near_enemy_grid.borrow_mut();
        if grid.is_empty() {
            grid.resize(area, false);
            let r = i64::from(self.reach);
            for u in self.units.iter().filter(|u| u.enemy) {
                let (x, y) = (i64::from(u.pos.x), i64::from(u.pos.y));
                for yy in (y - r).max(0)..=(y + r).min(h - 1) {
                    for xx in (x - r).max(0)..=(x + r).min(w - 1) {
                        grid[(yy * w + xx) as usize] = true;
                    }
                }
            }
        }
        grid[(i64::from(q.y) * w + i64::from(q.x)) as usize]
    }

    /// `all` (distinct squares) ordered by (distance from the decider, row, column). On a small
    /// bounded map a pass over the map's rows buckets them by distance (row order within a
    /// bucket comes free); otherwise a sort.
    fn nearest_first(&self, all: &[GridPos], order: &mut Vec<GridPos>) {
        let me = self.me().pos;
        let map = self.map;
        let w = map.width as usize;
        let area = self.occ_grid.len();
        let dense = area > 0 && area <= 4 * all.len() + 64 && all.iter().all(|q| map.in_bounds(*q));
        order.clear();
        if dense {
            let mut scratch = self.near_scratch.borrow_mut();
            let (mark, start) = &mut *scratch;
            mark.clear();
            mark.resize(area, false);
            start.clear();
            let mut distinct = true;
            for q in all {
                let i = q.y as usize * w + q.x as usize;
                distinct &= !mark[i];
                mark[i] = true;
                let d = me.distance(*q) as usize;
                if start.len() < d + 2 {
                    start.resize(d + 2, 0usize);
                }
                start[d + 1] += 1;
            }
            if distinct {
                for d in 1..start.len() {
                    start[d] += start[d - 1];
                }
                order.resize(all.len(), GridPos::default());
                for (i, _) in mark.iter().enumerate().filter(|(_, m)| **m) {
                    let q = GridPos { x: (i % w) as i32, y: (i / w) as i32 };
                    let d = me.distance(q) as usize;
                    order[start[d]] = q;
                    start[d] += 1;
                }
                return;
            }
        }
        order.extend_from_slice(all);
        // The keys differ square by square, so an unstable sort gives the one order.
        order.sort_unstable_by_key(|q| (me.distance(*q), q.y, q.x));
    }

    /// Whether some enemy is in sight from `q` (memoized for the decision).
    fn sees_enemy(&self, q: GridPos) -> bool {
        // On a bounded map, remembered square by square (0: not yet, 1: no, 2: yes).
        let w = self.map.width;
        let cell = (!self.terrain_grid.is_empty() && self.map.in_bounds(q)).then(|| (q.y * w + q.x) as usize);
        if let Some(i) = cell {
            let mut dense = self.sight_grid.borrow_mut();
            if dense.is_empty() {
                dense.resize(self.terrain_grid.len(), 0);
            }
            if dense[i] != 0 {
                return dense[i] == 2;
            }
            drop(dense);
            let v = self.units.iter().any(|u| u.enemy && self.sees(q, u.pos));
            self.sight_grid.borrow_mut()[i] = if v { 2 } else { 1 };
            return v;
        }
        if let Some(v) = self.sight.borrow().get(&q) {
            return *v;
        }
        let v = self.units.iter().any(|u| u.enemy && self.sees(q, u.pos));
        self.sight.borrow_mut().insert(q, v);
        v
    }

    /// Whether option `o` can be aimed from `from` at a creature on `to`: with line of sight when
    /// its effect needs it ([`Effect::needs_sight`]).
    fn aims(&self, o: &Opt, from: GridPos, to: GridPos) -> bool {
        !o.sight || self.sees(from, to)
    }

    /// Whether a target at `to` can be aimed at from `from` (line of sight past walls).
    /// Remembered for the map (on a small bounded map): sight lines depend on nothing else.
    fn sees(&self, from: GridPos, to: GridPos) -> bool {
        if !self.terrain || self.map.blocked.is_empty() {
            return true;
        }
        let Some(table) = self.sight_table.as_ref().filter(|_| self.map.in_bounds(from) && self.map.in_bounds(to))
        else {
            return self.map.line_of_sight_on(&self.terrain_grid, from, to);
        };
        let w = self.map.width as usize;
        let area = w * self.map.height as usize;
        let i = (from.y as usize * w + from.x as usize) * area + to.y as usize * w + to.x as usize;
        let known = table.borrow()[i];
        if known != 0 {
            return known == 2;
        }
        let v = self.map.line_of_sight_on(&self.terrain_grid, from, to);
        table.borrow_mut()[i] = if v { 2 } else { 1 };
        v
    }

    // ---- the turn --------------------------------------------------------------------------------

    /// The commands worth sending, best first (empty: end the turn).
    fn turn(&self) -> Vec<Command> {
        let me = self.me();
        let who = me.id;
        if self.my_casting.and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding) {
            return vec![Command::Release { actor: who }];
        }
        if !me.can_act {
            return self.recover().into_iter().collect();
        }
        if self.casting || !self.units.iter().any(|u| u.enemy) {
            return Vec::new();
        }
        let field = self.approach_field();
        let mut plans = self.plans(field.as_ref());
        // Stable: equal values keep the order plans were made in.
        plans.sort_by(|a, b| b.value.total_cmp(&a.value));
        let mut out: Vec<Command> = Vec::new();
        for p in &plans {
            if p.value <= EPS || out.len() >= MAX_PLANS {
                break;
            }
            if let Some(cmd) = self.command(p)
                && !out.contains(&cmd)
            {
                out.push(cmd);
            }
        }
        if out.is_empty() {
            out.extend(self.hold_leftover());
        }
        out
    }

    /// [`View::squares`] within `range`, remembered for the decision (Disengage's second move
    /// asks for the squares of the Move the planner looks at anyway).
    fn squares_within(&self, range: u32) -> Rc<Vec<GridPos>> {
        if let Some((_, s)) = self.squares_memo.borrow().iter().find(|(r, _)| *r == range) {
            return s.clone();
        }
        let mut out = Vec::new();
        self.squares(range, &mut out);
        let out = Rc::new(out);
        self.squares_memo.borrow_mut().push((range, out.clone()));
        out
    }

    /// [`View::shortlist`] of [`View::squares_within`] `range`, remembered for the decision (which
    /// has one approach field, [`View::turn`]).
    fn shortlist_within(&self, range: u32, field: Option<&Field>) -> Rc<Vec<(f32, GridPos)>> {
        if let Some((_, s)) = self.shortlist_memo.borrow().iter().find(|(r, _)| *r == range) {
            return s.clone();
        }
        let mut out = Vec::new();
        self.shortlist(&self.squares_within(range), field, &mut out);
        let out = Rc::new(out);
        self.shortlist_memo.borrow_mut().push((range, out.clone()));
        out
    }

    /// Every plan worth considering, valued against ending the turn where it stands.
    fn plans(&self, field: Option<&Field>) -> Vec<Plan> {
        let me = self.me();
        let b = self.budget();
        let mut dealt = Vec::with_capacity(self.units.len());
        let mut plans = Vec::new();
        let base = self.pos_value(me.pos, field);
        let timed = matches!(b, Budget::Timed { .. });
        // Stay and act.
        let (v, first, time) = self.fill(me.pos, b, &mut dealt);
        if let Some((i, tgt)) = first {
            let value = if timed { v / time.max(0.5) } else { v };
            plans.push(Plan { value, ability: i, tgt, to: None });
        }
        // After a timed move the next action comes on a later turn, with a fresh budget.
        let next_turn = Budget::Timed { left: true };
        let mover_offset = self.opts.len();
        let provoked = self.aoo_cost();
        for (mi, m) in self.movers.iter().enumerate() {
            let Some((cost, after)) = self.spend(b, m.def) else { continue };
            let aoo = if m.provokes { provoked } else { 0.0 };
            let ability = mover_offset + mi;
            let all = self.squares_within(m.range);
            if let Some((stat, dmg, bonus)) = m.charge {
                // A charge: to a square next to the target, then one attack with its bonus.
                for t in self.units.iter().filter(|u| u.enemy) {
                    if me.pos.distance(t.pos) <= self.reach {
                        continue;
                    }
                    let mut best: Option<(f32, GridPos)> = None;
                    let roll = self.attack_roll(stat, dmg);
                    for q in all.iter().filter(|q| q.distance(t.pos) <= self.reach) {
                        let e = self.attack_dmg(*q, &roll, &[], bonus, true, t, t.hp);
                        let v = e * t.w + self.pos_value(*q, field);
                        if best.is_none_or(|(bv, _)| v > bv + 1e-6) {
                            best = Some((v, *q));
                        }
                    }
                    if let Some((v, q)) = best {
                        plans.push(Plan { value: v - aoo - base, ability, tgt: Tgt::One(t.id), to: Some(q) });
                    }
                }
                continue;
            }
            if m.disengage && provoked > EPS {
                // Disengage where it stands, then a Move that provokes nobody.
                if let Some(mv) = self.movers.iter().find(|x| x.provokes && x.charge.is_none())
                    && let Some((c2, after2)) = self.spend(after, mv.def)
                {
                    let sh2 = self.shortlist_within(mv.range, field);
                    let mut best = f32::MIN;
                    for (pv, q) in sh2.iter() {
                        let (f, _, _) = self.fill(*q, after2, &mut dealt);
                        best = best.max(f + pv);
                    }
                    if best > f32::MIN {
                        let value = if timed { (best - base) / (cost + c2) } else { best - base };
                        plans.push(Plan { value, ability, tgt: Tgt::None, to: None });
                    }
                }
            }
            let short = self.shortlist_within(m.range, field);
            let mut best: Option<(f32, GridPos)> = None;
            for (pv, q) in short.iter() {
                let v = if timed {
                    // Value per segment over the move and the action it leads to.
                    let (f, _, t) = self.fill(*q, next_turn, &mut dealt);
                    let gain = pv - base - aoo;
                    if f > EPS { (gain + f) / (cost + t).max(0.5) } else { gain / cost.max(0.5) }
                } else {
                    let (f, _, _) = self.fill(*q, after, &mut dealt);
                    f + pv - aoo - base
                };
                let better = match best {
                    None => true,
                    Some((bv, bq)) => {
                        v > bv + 1e-6
                            || ((v - bv).abs() <= 1e-6
                                && (me.pos.distance(*q), q.y, q.x) < (me.pos.distance(bq), bq.y, bq.x))
                    }
                };
                if better {
                    best = Some((v, *q));
                }
            }
            if let Some((v, q)) = best {
                plans.push(Plan { value: v, ability, tgt: Tgt::None, to: Some(q) });
            }
        }
        plans
    }

    /// The command for a plan.
    fn command(&self, p: &Plan) -> Option<Command> {
        let me = self.me();
        let who = me.id;
        let (def, mode) = if p.ability < self.opts.len() {
            (self.opts[p.ability].def, None)
        } else {
            let m = self.movers.get(p.ability - self.opts.len())?;
            (m.def, m.mode)
        };
        let o = self.opts.get(p.ability);
        // As priced: in sight unless the option's effect needs none (a mover is no option).
        let aims = |u: &Unit| o.is_some_and(|o| !o.sight) || self.sees(me.pos, u.pos);
        let targets = match p.tgt {
            Tgt::None => vec![],
            Tgt::One(c) => vec![c],
            Tgt::AllEnemies => self.units.iter().filter(|u| u.enemy && aims(u)).map(|u| u.id).collect(),
            Tgt::Allies => self
                .units
                .iter()
                .filter(|u| !u.enemy && (u.id == who || aims(u)))
                .filter(|u| match o.map(|o| o.kind) {
                    Some(Kind::OnAllies { cond, value, lasts }) => self.condition_value(u, cond, value, lasts) > EPS,
                    Some(Kind::Heal { .. }) => self.c.get::<Health>(u.id).is_some_and(|h| h.hp < h.max),
                    _ => true,
                })
                .map(|u| u.id)
                .collect(),
        };
        if matches!(p.tgt, Tgt::AllEnemies | Tgt::Allies) && targets.is_empty() {
            return None;
        }
        Some(Command::Act(ActIntent {
            actor: who,
            ability: def.id.clone(),
            targets,
            to: p.to,
            mode: mode.map(str::to_string),
            surprise: false,
        }))
    }

    /// Unable to act: a Recovery Action against the condition that stops it, if it has one.
    fn recover(&self) -> Option<Command> {
        let me = self.me();
        let rs = self.rs;
        let cond = me
            .conds?
            .0
            .keys()
            .find(|id| rs.condition(id).is_some_and(|d| d.save_ends.is_some() && d.blocks_actions))
            .or_else(|| me.conds?.0.keys().find(|id| rs.condition(id).is_some_and(|d| d.save_ends.is_some())))?;
        let ability = self.abilities.iter().find(|d| d.usable_when_prevented && d.effect == Effect::RecoverySave)?;
        self.spend(self.budget(), ability)?;
        Some(Command::Act(ActIntent {
            actor: me.id,
            ability: ability.id.clone(),
            targets: vec![],
            to: None,
            mode: Some(cond.clone()),
            surprise: false,
        }))
    }

    /// Actions a round pool would forfeit: hold an attack for an enemy still to act this round
    /// (`ReorderPolicy::HoldForPriority`).
    fn hold_leftover(&self) -> Option<Command> {
        if !matches!(self.rs.reorder, ReorderPolicy::HoldForPriority { .. })
            || !matches!(self.rs.budget, ActionBudget::PerRoundPool { .. })
        {
            return None;
        }
        let me = self.me();
        let b = self.budget();
        let (i, o) = self
            .opts
            .iter()
            .enumerate()
            .filter(|(_, o)| o.def.cost > 0 && matches!(o.kind, Kind::Attack { .. }))
            .filter(|(_, o)| self.spend(b, o.def).is_some())
            .max_by(|(ia, a), (ib, b2)| {
                let na = self.units[self.me].stats.get(attack_stat(a));
                let nb = self.units[self.me].stats.get(attack_stat(b2));
                na.cmp(&nb).then(ib.cmp(ia))
            })?;
        let melee = matches!(o.kind, Kind::Attack { kind: AttackKind::Melee, .. });
        let e = self
            .units
            .iter()
            .filter(|u| u.enemy && u.can_act && u.rank > me.rank)
            .filter(|u| !melee || u.pos.distance(me.pos) <= u.speed.saturating_mul(3).saturating_add(self.reach))
            .min_by_key(|u| (u.pos.distance(me.pos), u.id))?;
        let trigger = HeldTrigger { by: Some(e.id), on: if melee { TriggerOn::Moves } else { TriggerOn::AnyAction } };
        let _ = i;
        Some(Command::Hold { actor: me.id, ability: o.def.id.clone(), targets: vec![], trigger })
    }

    /// The best attack of opportunity on `mover` among `options`.
    fn best_opportunity(&self, mover: Cid, options: &[String]) -> Option<String> {
        let me = self.me();
        let t = self.units.iter().find(|u| u.id == mover)?;
        options
            .iter()
            .filter_map(|a| self.rs.ability(a))
            .map(|d| (self.attack_by(me, d, t, true, DefMod::default()), d))
            .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.id.cmp(&a.1.id)))
            .map(|(_, d)| d.id.clone())
    }

    /// An opening: the best attack the pool can pay for now, else pass.
    fn opening(&self) -> Option<OpeningUse> {
        let b = Budget::Pool { regular: self.pool.available(), restricted: 0 };
        let mut dealt = vec![0.0; self.units.len()];
        let mut best: Option<(f32, usize, Tgt)> = None;
        for (i, o) in self.opts.iter().enumerate() {
            if !matches!(o.kind, Kind::Attack { .. }) || o.def.cost == 0 || self.spend(b, o.def).is_none() {
                continue;
            }
            let (v, t) = self.eval(o, self.me().pos, &mut dealt, false);
            if v > EPS && best.is_none_or(|(bv, _, _)| v > bv + 1e-6) {
                best = Some((v, i, t));
            }
        }
        let (_, i, Tgt::One(t)) = best? else { return None };
        Some(OpeningUse { ability: self.opts[i].def.id.clone(), targets: vec![t], to: None, mode: None })
    }
}

/// The cheapest movement cost of every square of a bounded `w` × `h` map from the squares
/// `starts` (cost 0), within `budget`, row by row (`u32::MAX`: out of reach): `terrain` gives the
/// cost of entering each square (0: a wall), `walls` more squares nobody may enter. Eight
/// neighbours, a diagonal step costing like an orthogonal one. Dijkstra with a bucket queue (a step
/// costs 1 or 2) over a copy of the terrain with a border of walls, so that no step tests the
/// bounds; the buffers are kept per thread. The cheapest cost of a square is the same whichever
/// Dijkstra finds it: these are [`BattleMap::reachable_costs_on`]'s costs (with `walls` as squares
/// the mover may not pass; it also leaves out the start) and [`View::field_search`]'s.
fn dense_search(
    terrain: &[u8],
    w: usize,
    h: usize,
    walls: impl Iterator<Item = usize>,
    starts: impl Iterator<Item = usize>,
    budget: u32,
) -> Vec<u32> {
    struct Buffers {
        grid: Vec<u8>,
        best: Vec<u32>,
        buckets: [Vec<u32>; 3],
    }
    thread_local! {
        static BUFFERS: std::cell::RefCell<Buffers> =
            std::cell::RefCell::new(Buffers { grid: Vec::new(), best: Vec::new(), buckets: Default::default() });
    }
    debug_assert_eq!(terrain.len(), w * h);
    let pw = w + 2;
    let padded = |i: usize| (i / w + 1) * pw + i % w + 1;
    BUFFERS.with(|b| {
        let b = &mut *b.borrow_mut();
        b.grid.clear();
        b.grid.resize(pw * (h + 2), 0);
        for y in 0..h {
            b.grid[(y + 1) * pw + 1..(y + 1) * pw + 1 + w].copy_from_slice(&terrain[y * w..(y + 1) * w]);
        }
        for i in walls {
            b.grid[padded(i)] = 0;
        }
        b.best.clear();
        b.best.resize(b.grid.len(), u32::MAX);
        for bucket in b.buckets.iter_mut() {
            bucket.clear();
        }
        let mut queued = 0usize;
        for i in starts {
            let p = padded(i);
            b.best[p] = 0;
            b.buckets[0].push(p as u32);
            queued += 1;
        }
        let pw = pw as isize;
        let steps = [-pw, 1, pw, -1, 1 - pw, 1 + pw, pw - 1, -pw - 1];
        let mut d = 0u32;
        while queued > 0 {
            let k = (d % 3) as usize;
            while let Some(p) = b.buckets[k].pop() {
                queued -= 1;
                let p = p as usize;
                if b.best[p] != d {
                    continue;
                }
                for s in steps {
                    // A square on the map has the border around it, so every step stays in the grid.
                    let q = p.wrapping_add_signed(s);
                    let enter = b.grid[q];
                    if enter == 0 {
                        continue;
                    }
                    let c = d.saturating_add(u32::from(enter));
                    if c > budget || b.best[q] <= c {
                        continue;
                    }
                    b.best[q] = c;
                    b.buckets[(c % 3) as usize].push(q as u32);
                    queued += 1;
                }
            }
            d += 1;
        }
        let mut out = Vec::with_capacity(w * h);
        for y in 0..h {
            out.extend_from_slice(&b.best[(y + 1) * pw as usize + 1..(y + 1) * pw as usize + 1 + w]);
        }
        out
    })
}

/// Whether [`View::eval`] of this kind reads (and, taken, adds to) the damage dealt so far: the
/// damaging kinds. The others are worth the same whatever the rest of the turn deals.
fn reads_dealt(k: &Kind) -> bool {
    matches!(k, Kind::Attack { .. } | Kind::Save { .. } | Kind::Damage { .. })
}

fn attack_stat<'a>(o: &Opt<'a>) -> &'a str {
    match o.kind {
        Kind::Attack { stat, .. } => stat,
        _ => "",
    }
}

/// Expected damage of one use against a nominal defender (AC 15, or a +2 defence roll).
fn nominal(rs: &Ruleset, stats: &Stats, d: &AbilityDef) -> f32 {
    let p = |bonus: i32, melee: bool| match &rs.defense {
        DefenseRule::StaticAc { attack_dice, .. } => p_at_least(attack_dice, bonus, 15),
        DefenseRule::ActiveRoll { attack_dice, dice, defender_wins_ties, .. } => {
            p_active(attack_dice, bonus, dice, if melee { 2 } else { 1 }, false, *defender_wins_ties)
        }
    };
    match &d.effect {
        Effect::Attack { kind, stat, damage, iterative } => {
            let mean = dmg_range(damage, stats).2;
            let b = stats.get(stat);
            std::iter::once(&0)
                .chain(iterative.iter())
                .map(|m| p(b.saturating_add(*m), *kind == AttackKind::Melee) * mean)
                .sum()
        }
        Effect::Charge { stat, damage, bonus } => {
            p(stats.get(stat).saturating_add(*bonus), true) * dmg_range(damage, stats).2
        }
        Effect::Damage { amount } => dmg_range(amount, stats).2,
        Effect::Save { damage: Some(dmg), .. } => 0.6 * dmg_range(dmg, stats).2,
        _ => 0.0,
    }
}

/// Uses of `d` a creature gets in a round under the ruleset's budget.
fn uses_per_round(rs: &Ruleset, d: &AbilityDef) -> f32 {
    match rs.budget {
        ActionBudget::PerRoundPool { actions } | ActionBudget::PerTurnPool { actions, .. } => {
            if d.cost == 0 {
                1.0
            } else {
                f32::from(actions) / f32::from(d.cost)
            }
        }
        ActionBudget::TypedSlots { .. } => 1.0,
        ActionBudget::OneTimedActionPerTurn => {
            let spr = match rs.turn_model {
                TurnModel::RecoveryTime { segments_per_round } => segments_per_round as f32,
                TurnModel::FixedCycle => 1.0,
            };
            let t = d.recovery.unwrap_or(1).max(1) + d.cast_time.unwrap_or(0) + d.focus_time.unwrap_or(0);
            spr / t as f32
        }
    }
}

/// What [`rating`] finds of a creature: [`Unit`]'s fields of the same names.
#[derive(Clone, Copy)]
struct Rating<'a> {
    threat: f32,
    melee: Option<(&'a AbilityDef, f32)>,
    melee_per: f32,
    shot: Option<(&'a AbilityDef, f32)>,
    shot_per: f32,
    aoo: Option<&'a AbilityDef>,
    ranged: bool,
}

impl<'a> Rating<'a> {
    fn apply(&self, u: &mut Unit<'a>) {
        u.threat = self.threat;
        u.w = u.threat / u.hp.max(1) as f32;
        u.melee = self.melee;
        u.melee_per = self.melee_per;
        u.shot = self.shot;
        u.shot_per = self.shot_per;
        u.aoo = self.aoo;
        u.ranged = self.ranged;
    }
}

/// A creature's threat, best melee and ranged attacks, attack of opportunity and role, from the
/// abilities it knows, its stats and how many foes it faces.
fn rating<'a>(rs: &'a Ruleset, known: &[&'a AbilityDef], stats: &Stats, foes: usize) -> Rating<'a> {
    // (ability, uses a round, value a round, value a use)
    let mut best_melee: Option<(&AbilityDef, f32, f32, f32)> = None;
    let mut best_shot: Option<(&AbilityDef, f32, f32, f32)> = None;
    let mut aoo: Option<(&AbilityDef, f32)> = None;
    for &d in known {
        let per = nominal(rs, stats, d);
        if per <= 0.0 {
            continue;
        }
        if query::is_opportunity_attack(rs, d) && aoo.is_none_or(|(_, v)| per > v) {
            aoo = Some((d, per));
        }
        if !on_turn(d) {
            continue;
        }
        let n = uses_per_round(rs, d);
        match &d.effect {
            Effect::Attack { kind: AttackKind::Melee, .. } | Effect::Charge { .. } => {
                if matches!(d.effect, Effect::Attack { .. }) && best_melee.is_none_or(|(_, _, v, _)| per * n > v) {
                    best_melee = Some((d, n, per * n, per));
                }
            }
            Effect::Damage { .. } | Effect::Save { .. } => {
                let total = per * n * foes as f32;
                if best_shot.is_none_or(|(_, _, v, _)| total > v) {
                    best_shot = Some((d, n, total, per));
                }
            }
            _ => {
                if best_shot.is_none_or(|(_, _, v, _)| per * n > v) {
                    best_shot = Some((d, n, per * n, per));
                }
            }
        }
    }
    let m = best_melee.map_or(0.0, |x| x.2);
    let s = best_shot.map_or(0.0, |x| x.2);
    Rating {
        threat: m.max(s).max(0.5),
        melee: best_melee.map(|(d, n, _, _)| (d, n)),
        melee_per: best_melee.map_or(0.0, |m| m.3),
        shot: best_shot.map(|(d, n, _, _)| (d, n)),
        shot_per: best_shot.map_or(0.0, |s| s.3),
        aoo: aoo.map(|(d, _)| d),
        ranged: best_shot.is_some() && s >= 0.75 * m,
    }
}
