//! Reading the state: one decision's [`View`] of the combat, read once: every standing creature
//! as a [`Unit`] (stats, conditions, position, its rating), the decider's options and movers, and
//! who stands where.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::rules::components::{
    Abilities, ActionPool, AssistBonuses, Casting, Cid, Conditions, DisengagedFrom, GridPos, Health, Initiative,
    Inventory, Movement, Side, Stats, Traits,
};
use crate::rules::dice::DiceExpr;
use crate::rules::driver::Combat;
use crate::rules::map::BattleMap;
use crate::rules::query;
use crate::rules::ruleset::{
    AbilityDef, AttackKind, ConditionDef, DefenseRule, Effect, Lasts, MultiTurnActivities, RollOn, Ruleset, Timing,
};
use crate::rules::state::Roster;
use bevy::ecs::change_detection::DetectChanges;

use super::memo::{RATINGS, RatingKey, RatingRow, SEARCHES, SightTable};
use super::odds::{DefMod, Flank, PSlots, p_active_slots};
use super::pricing::{FillSig, Filled, Rating, rating};

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
    /// What its rating depends on besides the ruleset and its foes (read at once only).
    key: Option<RatingKey>,
}

impl<'a> Read<'a> {
    fn of(c: &'a Combat, id: Cid, roster: &Roster) -> Self {
        match c.combatant(id) {
            Some(d) => Read {
                health: Some(d.health),
                conds: Some(d.conditions),
                pos: Some(d.pos),
                side: Some(d.side),
                key: roster.entity(id).map(|entity| RatingKey {
                    entity,
                    stats: (d.stats.added().get(), d.stats.last_changed().get()),
                    abilities: (d.abilities.added().get(), d.abilities.last_changed().get()),
                }),
                stats: Some(d.stats.into_inner()),
                casting: Some(d.casting),
                movement: Some(d.movement),
                initiative: Some(d.initiative),
                abilities: Some(d.abilities.into_inner()),
            },
            None => Read {
                key: None,
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
pub(super) struct Unit<'a> {
    pub(super) id: Cid,
    pub(super) pos: GridPos,
    /// On another side than the creature deciding.
    pub(super) enemy: bool,
    pub(super) hp: i32,
    /// Maximum hit points.
    pub(super) max_hp: i32,
    pub(super) stats: &'a Stats,
    pub(super) conds: Option<&'a Conditions>,
    pub(super) can_act: bool,
    pub(super) busy: bool,
    /// Fastest movement speed.
    pub(super) speed: u32,
    /// The abilities on its sheet.
    pub(super) abilities: Option<&'a Abilities>,
    /// Expected damage it deals in a round with its best option, at least 0.5.
    pub(super) threat: f32,
    /// Threat per hit point: what a point of damage to it is worth.
    pub(super) w: f32,
    /// Its best melee attack on its turn, and how many it makes in a round.
    pub(super) melee: Option<(&'a AbilityDef, f32)>,
    /// `pricing::nominal` of that melee attack (0 without one).
    pub(super) melee_per: f32,
    /// Its best ranged attack (or damaging power), and how many in a round.
    pub(super) shot: Option<(&'a AbilityDef, f32)>,
    /// `pricing::nominal` of that shot (0 without one).
    pub(super) shot_per: f32,
    /// Its best attack of opportunity.
    pub(super) aoo: Option<&'a AbilityDef>,
    /// Prefers to fight from range.
    pub(super) ranged: bool,
    pub(super) rank: u32,
    /// A condition gives it advantage on defence rolls.
    pub(super) adv: bool,
    /// Its dodge and parry stats under an active defence roll (0 otherwise).
    pub(super) dodge: i32,
    pub(super) parry: i32,
    /// Its conditions' AC modifiers, which change its defence roll under an active defence
    /// (issue 28; 0 under a static AC, where [`query::armor_class`] counts them).
    pub(super) def_roll: i32,
    /// Its conditions' roll modifiers ([`query::roll_modifier`]), by [`RollOn`] (`on as usize`),
    /// read once a decision.
    pub(super) mods: [i32; 5],
}

/// How a step's targets are chosen when the command is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tgt {
    None,
    One(Cid),
    AllEnemies,
    Allies,
}

/// One thing the creature can do from where it stands (or will stand).
#[derive(Clone, Copy)]
pub(super) enum Kind<'a> {
    Attack {
        kind: AttackKind,
        stat: &'a str,
        dmg: &'a DiceExpr,
        iterative: &'a [i32],
        critical: Option<crate::rules::ruleset::WeaponCritical>,
    },
    SelfBuff {
        cond: &'a ConditionDef,
        lasts: Option<Lasts>,
    },
    OnAllies {
        cond: &'a ConditionDef,
        value: i32,
        lasts: Option<Lasts>,
    },
    OnEnemies {
        cond: &'a ConditionDef,
        value: i32,
        lasts: Option<Lasts>,
    },
    Save {
        stat: &'a str,
        dc: i32,
        dmg: Option<&'a DiceExpr>,
        on_fail: &'a [String],
        lasts: Option<Lasts>,
        /// A basic save (G-P2-26).
        basic: bool,
    },
    Damage {
        dmg: &'a DiceExpr,
    },
    Heal {
        amount: &'a DiceExpr,
    },
    Assist {
        bonus: i32,
    },
}

#[derive(Clone, Copy)]
pub(super) struct Opt<'a> {
    pub(super) def: &'a AbilityDef,
    pub(super) kind: Kind<'a>,
    /// Its effect needs line of sight to each target ([`Effect::needs_sight`]).
    pub(super) sight: bool,
}

/// A movement ability: how far it goes and whether it provokes.
#[derive(Clone, Copy)]
pub(super) struct Mover<'a> {
    pub(super) def: &'a AbilityDef,
    pub(super) range: u32,
    pub(super) mode: Option<&'a str>,
    pub(super) provokes: bool,
    pub(super) disengage: bool,
    pub(super) charge: Option<(&'a str, &'a DiceExpr, i32)>,
}

/// Everything one decision needs, read once.
pub(super) struct View<'a> {
    pub(super) c: &'a Combat,
    pub(super) rs: &'a Ruleset,
    pub(super) me: usize,
    pub(super) units: Vec<Unit<'a>>,
    occupied: &'a BTreeMap<GridPos, Cid>,
    /// The decider's cast in progress and movement modes, as read with the creatures.
    pub(super) my_casting: Option<&'a Casting>,
    my_movement: Option<&'a Movement>,
    /// Squares held by creatures hostile to the decider (standing or not yet removed, such as
    /// pf2e's dying): a path may not pass them.
    pub(super) hostile_squares: Vec<GridPos>,
    pub(super) map: &'a BattleMap,
    /// The map has walls or difficult terrain: paths and sight matter.
    pub(super) terrain: bool,
    pub(super) reach: u32,
    pub(super) pool: &'a ActionPool,
    /// Attacks the decider made on its own turn so far (the multiple attack penalty's count,
    /// G-P2-23; 0 off its turn).
    pub(super) attacks_made: u8,
    /// Attacks the plan being filled took before the option being priced ([`View::greedy`]).
    pub(super) plan_attacks: std::cell::Cell<u8>,
    /// [`View::crit_at`]'s chances by weapon and by bonus minus AC (+ 120), which is all they
    /// depend on (`multiplier` 0: not yet worked out), kept per thread for this attack math and
    /// die ([`super::odds::crit_slots`]); none when the ruleset rolls attacks against AC without
    /// attack math (issue 50), or defends actively.
    pub(super) crit_slots: Option<super::odds::CritSlots>,
    /// Each ability's multiple attack penalty after 0, 1, 2 and 3 or more attacks (G-P2-23),
    /// and whether it counts, by the ability's address ([`View::map_steps`]).
    pub(super) map_memo: std::cell::RefCell<Vec<(*const AbilityDef, bool, [i32; 4])>>,
    pub(super) opts: Vec<Opt<'a>>,
    pub(super) movers: Vec<Mover<'a>>,
    /// Every ability the decider knows, for building commands.
    pub(super) abilities: Vec<&'a AbilityDef>,
    pub(super) disengaged: &'a [Cid],
    /// What one good attack of mine is worth, for positional terms.
    pub(super) v0: f32,
    /// The enemies' mean threat per hit point.
    pub(super) mean_w: f32,
    /// The decider's Assist bonus on its next attack.
    pub(super) assist: i32,
    /// Odds of beating an active defence, by attack bonus minus defence bonus (+ 60) and
    /// advantage: they depend on nothing else. NaN until computed.
    pub(super) p_active: Option<PSlots>,
    /// Whether an enemy is in sight from a square, as computed so far this decision.
    pub(super) sight: std::cell::RefCell<BTreeMap<GridPos, bool>>,
    pub(super) casting: bool,
    /// Armour classes computed so far this decision: (creature, AC change, AC).
    pub(super) ac_memo: std::cell::RefCell<Vec<(Cid, i32, i32)>>,
    /// The decider's cheapest movement cost to every square (bounded maps), searched once with
    /// the longest mover's range: (that range, costs row by row).
    pub(super) reach_memo: std::cell::RefCell<Option<(u32, Rc<Vec<u32>>)>>,
    /// The map's [`BattleMap::terrain_costs`].
    pub(super) terrain_grid: Rc<Vec<u8>>,
    /// [`View::sees_enemy`] by square on a bounded map.
    pub(super) sight_grid: std::cell::RefCell<Vec<u8>>,
    /// Damage ranges computed so far this decision, by expression and stat block.
    pub(super) dmg_memo: std::cell::RefCell<Vec<(*const DiceExpr, *const Stats, (i32, i32, f32))>>,
    /// [`View::incoming`] computed so far this decision: (creature, square, defence change, value).
    pub(super) incoming_memo: std::cell::RefCell<Vec<(Cid, GridPos, DefMod, f32)>>,
    /// [`View::pos_value`] by square on a bounded map (NaN: not yet). A decision has one
    /// approach field ([`View::turn`]), so a square's value is the same each time it is asked.
    pub(super) pos_memo: std::cell::RefCell<Vec<f32>>,
    /// Who stands where as [`View::occupant`] reads it, on a small bounded map: by square, row by
    /// row, the index in `units` plus one of the creature standing there (0: nobody; `u16::MAX`:
    /// a creature the AI does not count, such as a downed one).
    pub(super) occ_grid: Vec<u16>,
    /// [`View::sees`] on this map so far, shared by every decision on it (see
    /// [`Searches::sight`](super::memo::Searches::sight)).
    pub(super) sight_table: Option<SightTable>,
    /// [`Searches::era`](super::memo::Searches::era) once the map was compared in [`View::new`].
    pub(super) searches_era: u64,
    /// [`View::squares_within`] and [`View::shortlist_within`] so far, by range.
    pub(super) squares_memo: std::cell::RefCell<Vec<(u32, Rc<Vec<GridPos>>)>>,
    pub(super) shortlist_memo: std::cell::RefCell<Vec<(u32, Rc<Vec<(f32, GridPos)>>)>>,
    /// [`View::fill`] answers so far: it depends only on the square and the budget.
    pub(super) fill_memo: std::cell::RefCell<Vec<((u64, u64), Filled)>>,
    /// What [`View::fill_key`] reads of the options, once asked (`None`: key by square).
    pub(super) fill_sig: std::cell::OnceCell<Option<FillSig>>,
    /// [`View::flank_squares`] by index in `units`, as worked out so far.
    pub(super) flank_memo: std::cell::RefCell<Vec<Option<Flank>>>,
    /// [`View::greedy`]'s expected damage by option and target (a buffer reused by every fill).
    pub(super) per_target: std::cell::RefCell<Vec<f32>>,
    /// Self-buff values so far, by ability: [`View::condition_value`] on the decider.
    pub(super) self_buff_memo: std::cell::RefCell<Vec<(*const AbilityDef, f32)>>,
    /// Squares within melee reach of an enemy, row by row, on a small bounded map (empty until
    /// asked for; see [`View::near_enemy`]).
    pub(super) near_enemy_grid: std::cell::RefCell<Vec<bool>>,
    /// [`View::greedy`]'s values by option (a buffer reused by every fill).
    pub(super) greedy_known: std::cell::RefCell<Vec<Option<(f32, Tgt, Option<(usize, f32)>)>>>,
    /// Buffers of [`View::nearest_first`] (marks and bucket starts) and its answer.
    pub(super) near_scratch: std::cell::RefCell<(Vec<bool>, Vec<usize>)>,
    pub(super) near_order: std::cell::RefCell<Vec<GridPos>>,
}

/// [`query::known_abilities`] with names resolved once per decision, as places in the ruleset's
/// list of abilities: [`Ruleset::ability`] compares names one by one. The ruleset's basic abilities
/// are looked up once, and each distinct list of listed abilities once (mirrored creatures list
/// the same). Only creatures whose rating is not kept ([`Ratings`]) are looked up.
struct Known<'a> {
    rs: &'a Ruleset,
    /// The basic abilities' places (looked up at the first list).
    basic: Option<Vec<Option<u32>>>,
    /// Listed abilities (as on the sheet) and the abilities they know.
    lists: Vec<(&'a [String], Rc<[u32]>)>,
}

/// [`Ruleset::ability_index`], as the `u32` places [`Known`] keeps.
fn place(rs: &Ruleset, id: &str) -> Option<u32> {
    rs.ability_index(id).map(|i| i as u32)
}

impl<'a> Known<'a> {
    fn new(rs: &'a Ruleset) -> Self {
        Known { rs, basic: None, lists: Vec::new() }
    }

    /// Where [`Known`] keeps `listed`'s abilities (the same place for the same list).
    fn index(&mut self, listed: Option<&'a Abilities>) -> usize {
        let listed: &'a [String] = listed.map_or(&[], |a| a.0.as_slice());
        match self.lists.iter().position(|(l, _)| *l == listed) {
            Some(i) => i,
            None => {
                let rs = self.rs;
                let basic =
                    self.basic.get_or_insert_with(|| rs.basic_abilities.iter().map(|id| place(rs, id)).collect());
                let out: Rc<[u32]> = query::known_ability_slots(rs, listed)
                    .filter_map(|s| match s {
                        query::KnownSlot::Listed(i) => place(rs, &listed[i]),
                        // A basic ability, looked up once.
                        query::KnownSlot::Basic(k) => basic[k],
                    })
                    .collect();
                self.lists.push((listed, out));
                self.lists.len() - 1
            }
        }
    }
}

/// Usable on your own turn (not a reaction or a triggered ability).
pub(super) fn on_turn(d: &AbilityDef) -> bool {
    d.timing != Timing::Reaction && d.trigger.is_none()
}

/// What the AI reads for a creature without the component (the rules' queries take references).
pub(super) static NO_CONDITIONS: Conditions = Conditions(BTreeMap::new());
static NO_ITEMS: Inventory = Inventory(BTreeMap::new());
pub(super) static NO_TRAITS: Traits = Traits(Vec::new());

impl<'a> View<'a> {
    pub(super) fn new(c: &'a Combat, who: Cid) -> Option<Self> {
        let rs = c.ruleset();
        let roster = c.world.resource::<Roster>();
        let my_side = &c.get::<Side>(who)?.0;
        let down = &rs.defeated_condition;
        let reach = rs.engagement.melee_reach;
        let mut units = Vec::with_capacity(roster.entities.len());
        // What each unit's rating depends on (`Read::key`), by place in `units`.
        let mut keys = Vec::with_capacity(roster.entities.len());
        let modifying = query::has_roll_modifiers(rs);
        let mut me = None;
        let mut n_enemies = 0usize;
        let mut foe = vec![false; roster.entities.len()];
        let (mut my_casting, mut my_movement) = (None, None);
        for i in 0..roster.entities.len() as u32 {
            let id = Cid(i);
            let r = Read::of(c, id, roster);
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
            let mods = match conds {
                Some(k) if modifying && !k.0.is_empty() => RollOn::ALL.map(|on| query::roll_modifier(rs, k, on)),
                _ => [0; 5],
            };
            keys.push(r.key);
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
                def_roll: match &rs.defense {
                    DefenseRule::ActiveRoll { .. } => mods[RollOn::Ac as usize],
                    DefenseRule::StaticAc { .. } => 0,
                },
                mods,
            });
        }
        let me = me?;
        let n_allies = units.iter().filter(|u| !u.enemy).count();
        let mut known = Known::new(rs);
        // The decider's abilities (places in `rs.abilities`).
        let mut mine: Rc<[u32]> = Rc::from([]);
        RATINGS.with(|cell| {
            let mut kept = cell.borrow_mut();
            kept.under(c.ruleset_stamp());
            let mut stored = false;
            // Creatures with the same abilities, stats and number of foes rate the same (mirrored
            // sides): (abilities in `known`, stats, foes, rating).
            let mut rated: Vec<(usize, &Stats, usize, Rating)> = Vec::new();
            for (at, u) in units.iter_mut().enumerate() {
                let foes = if u.enemy { n_allies } else { n_enemies }.max(1);
                let slot = u.id.0 as usize;
                let key = keys[at];
                if let Some(row) = kept.row(slot, key)
                    && row.foes == foes
                {
                    row.rating.apply(rs, u);
                    if at == me {
                        mine = row.known.clone();
                    }
                    continue;
                }
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
                r.apply(rs, u);
                let abilities = known.lists[list].1.clone();
                if at == me {
                    mine = abilities.clone();
                }
                if let Some(key) = key {
                    kept.put(slot, RatingRow { key, known: abilities, foes, rating: r });
                    stored = true;
                }
            }
            if stored {
                // A change to the ruleset or a creature from now on carries a newer tick than
                // the ones just kept.
                c.seal_changes();
            }
        });
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
            attacks_made: if c.turn().active == Some(who) { pool.attacks } else { 0 },
            plan_attacks: std::cell::Cell::new(0),
            crit_slots: match &rs.defense {
                DefenseRule::StaticAc { attack_dice, .. } if !rs.attack_math.is_plain() => {
                    Some(super::odds::crit_slots(&rs.attack_math, attack_dice))
                }
                _ => None,
            },
            map_memo: Default::default(),
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
            fill_sig: Default::default(),
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
        v.read_abilities(&mine);
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
        // Equivalent mutant (issue 26, docs/testing.md): `>` → `==` fills the grid on large maps too;
        // the squares read from it are the same (`the_grid_and_the_square_by_square_ways_...`).
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
    pub(super) fn occupant(&self, p: GridPos) -> Option<&Unit<'a>> {
        if !self.occ_grid.is_empty() && self.map.in_bounds(p) {
            let i = self.occ_grid[p.y as usize * self.map.width as usize + p.x as usize];
            return (i > 0 && i < u16::MAX).then(|| &self.units[usize::from(i) - 1]);
        }
        let o = self.occupied.get(&p)?;
        self.units.iter().find(|u| u.id == *o)
    }

    /// Whether `p` is free for `who` to stop on: nobody there, or `who` itself.
    pub(super) fn free_for(&self, p: GridPos, who: Cid) -> bool {
        if !self.occ_grid.is_empty() && self.map.in_bounds(p) {
            return match self.occ_grid[p.y as usize * self.map.width as usize + p.x as usize] {
                0 => true,
                u16::MAX => false,
                i => self.units[usize::from(i) - 1].id == who,
            };
        }
        self.occupied.get(&p).is_none_or(|o| *o == who)
    }

    /// Sort the decider's abilities (`known`: their places in the ruleset's list) into options and
    /// movers.
    fn read_abilities(&mut self, known: &[u32]) {
        let rs = self.rs;
        let who = self.units[self.me].id;
        let items = self.c.get::<Inventory>(who);
        let holding = self.my_casting.and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding);
        let conds = self.units[self.me].conds;
        let modes = self.my_movement;
        for &i in known {
            let d = &rs.abilities[i as usize];
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
                Effect::Attack { kind, stat, damage, iterative, critical } => {
                    Some(Kind::Attack { kind: *kind, stat, dmg: damage, iterative, critical: *critical })
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
                Effect::Save { stat, dc, damage, on_fail, duration, basic } => {
                    Some(Kind::Save { stat, dc: *dc, dmg: damage.as_ref(), on_fail, lasts: *duration, basic: *basic })
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

    pub(super) fn me(&self) -> &Unit<'a> {
        &self.units[self.me]
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::duel;
    use super::*;
    use crate::rules::dice::DiceExpr;

    /// Every unit's rating as [`View::new`] gives it for `who`: (creature, threat, best melee,
    /// best shot, attack of opportunity, ranged).
    type Rated = Vec<(Cid, f32, Option<String>, Option<String>, Option<String>, bool)>;

    fn ratings(c: &Combat, who: Cid) -> Rated {
        let v = View::new(c, who).expect("a view");
        let id = |d: &AbilityDef| d.id.clone();
        v.units
            .iter()
            .map(|u| (u.id, u.threat, u.melee.map(|m| id(m.0)), u.shot.map(|s| id(s.0)), u.aoo.map(id), u.ranged))
            .collect()
    }

    /// [`ratings`] worked out afresh: nothing kept from before.
    fn fresh(c: &Combat, who: Cid) -> Rated {
        RATINGS.with(|r| *r.borrow_mut() = Default::default());
        ratings(c, who)
    }

    fn entity(c: &Combat, who: Cid) -> bevy::ecs::entity::Entity {
        c.world.resource::<Roster>().entity(who).expect("a combatant")
    }

    /// Issue 22: ratings are kept across decisions, keyed on the ruleset's and the creatures'
    /// change ticks. Bevy's change tick does not move on between two decisions with no settle
    /// between, so a second change in place would carry the tick of the first, which the kept
    /// rows were worked out at, unless they were sealed (`Combat::seal_changes`). So each kind of change is made
    /// twice, a view between: each must show at once, and equal what a view that keeps nothing
    /// finds.
    #[test]
    fn kept_ratings_follow_changes_to_the_ruleset_stats_and_abilities_made_in_place() {
        let mut c = duel(20, &[]);
        let start = fresh(&c, Cid(0));
        let kept = || RATINGS.with(|r| r.borrow().rows.iter().flatten().count());
        assert_eq!(kept(), 2, "both creatures' ratings are kept");
        assert_eq!(ratings(&c, Cid(0)), start, "kept while nothing changed");
        assert_eq!(ratings(&c, Cid(1)), fresh(&c, Cid(1)), "from the other side");

        // The ruleset, in place: Strike hits harder, then softer, so both creatures threaten
        // more, then less.
        for (dice, harder) in [("4d8+STR", true), ("1d4", false)] {
            let last = ratings(&c, Cid(0));
            {
                let mut rs = c.world.resource_mut::<Ruleset>();
                let strike = rs.abilities.iter_mut().find(|a| a.id == "strike").expect("pf2e's Strike");
                let Effect::Attack { damage, .. } = &mut strike.effect else { panic!("Strike is an attack") };
                *damage = DiceExpr::parse(dice).expect("dice");
            }
            let now = ratings(&c, Cid(0));
            assert_eq!(now[0].1 > last[0].1, harder, "Strike at {dice} shows: {now:?} after {last:?}");
            assert_ne!(now[0].1, last[0].1, "Strike at {dice} shows: {now:?} after {last:?}");
            assert_eq!(now, fresh(&c, Cid(0)));
        }

        // One creature's stats, in place, twice.
        for str_ in [9, 0] {
            let last = ratings(&c, Cid(0));
            c.world.get_mut::<Stats>(entity(&c, Cid(1))).expect("stats").0.insert("STR".into(), str_);
            let now = ratings(&c, Cid(0));
            assert!(
                now[1].1 != last[1].1 && now[0] == last[0],
                "b's STR {str_} shows, a's rating stays: {now:?} after {last:?}"
            );
            assert_eq!(now, fresh(&c, Cid(0)));
        }

        // One creature's listed abilities, in place: b takes up a shortbow, then puts it down.
        for (bow, len) in [(true, 1), (false, 0)] {
            let last = ratings(&c, Cid(0));
            c.world.get_mut::<Abilities>(entity(&c, Cid(1))).expect("abilities").0.resize(len, "shortbow".into());
            let now = ratings(&c, Cid(0));
            assert_eq!(now[1].3.is_some(), bow, "b's shortbow shows: {now:?} after {last:?}");
            assert_ne!(now[1].3, last[1].3);
            assert_eq!(now, fresh(&c, Cid(0)));
        }

        // A reset keeping the ruleset, with other stats: new creatures, rated afresh.
        let mut specs = c.origin().specs.clone();
        for s in &mut specs {
            s.stats.insert("STR".into(), 1);
        }
        let last = ratings(&c, Cid(0));
        assert!(c.reset_keeping_ruleset(1, &specs, c.map().clone(), &[]).expect("resets"));
        let now = ratings(&c, Cid(0));
        assert!(now[0].1 < last[0].1, "the new creatures' stats show: {now:?} after {last:?}");
        assert_eq!(now, fresh(&c, Cid(0)));
    }
}
