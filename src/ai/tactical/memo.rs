//! The memos kept across decisions, per thread: path searches and sight lines on one battle map,
//! creatures' ratings, the fast hasher of the memo tables, and the dense path search itself.

use std::rc::Rc;

use crate::rules::components::GridPos;
use crate::rules::driver::ChangeStamp;
use crate::rules::map::BattleMap;

use super::pricing::Rating;

/// Sight lines on one map, by pair of squares (from, then to; row by row): 0 not yet known,
/// 1 blocked, 2 clear.
pub(super) type SightTable = Rc<std::cell::RefCell<Vec<u8>>>;

/// What a remembered search was asked: everything its answer depends on besides the map.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum SearchKey {
    /// [`View::approach_field`](super::read::View::approach_field) from these squares.
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
pub(super) struct Searches {
    map: Option<BattleMap>,
    /// That map's [`BattleMap::terrain_costs`].
    terrain: Rc<Vec<u8>>,
    /// Sight lines on that map as found so far (maps of at most [`Searches::MAX_SIGHT_SQUARES`]).
    sight: Option<SightTable>,
    entries: std::collections::HashMap<SearchKey, Rc<Vec<u32>>, FxBuild>,
    /// Counts the changes of `map`: a view that found its map the same while this held the same
    /// count needs no comparison of the maps again ([`Searches::get_in`]).
    pub(super) era: u64,
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
        // Equivalent mutant (issue 26, docs/testing.md): `get` returning None only makes the AI search again.
        if !self.same_map(map) {
            return None;
        }
        self.entries.get(key).cloned()
    }

    /// [`Searches::get`] for a view that read `era` after its map was compared ([`View::new`](super::read::View::new)): while
    /// the map has not changed since, it is the view's (a view's map does not change).
    pub(super) fn get_in(&mut self, era: u64, map: &BattleMap, key: &SearchKey) -> Option<Rc<Vec<u32>>> {
        if self.era == era && self.map.is_some() {
            return self.entries.get(key).cloned();
        }
        self.get(map, key)
    }

    /// Whether the remembered answers are for `map`; if not, forget them and remember `map`
    /// (when it is small enough).
    fn same_map(&mut self, map: &BattleMap) -> bool {
        // Equivalent mutant (issue 26, docs/testing.md): `same_map` → true, and `era += 1` → `*=` below: one combat has one
        // map, so the memo never meets another; only a search again or not differs.
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
    pub(super) fn sight(&mut self, map: &BattleMap) -> Option<SightTable> {
        self.same_map(map);
        let area = i64::from(map.width) * i64::from(map.height);
        if self.map.is_none() || map.is_unbounded() || area > Self::MAX_SIGHT_SQUARES {
            return None;
        }
        let area = area as usize;
        Some(self.sight.get_or_insert_with(|| Rc::new(std::cell::RefCell::new(vec![0; area * area]))).clone())
    }

    /// `map`'s [`BattleMap::terrain_costs`], worked out once per map.
    pub(super) fn terrain(&mut self, map: &BattleMap) -> Rc<Vec<u8>> {
        self.same_map(map);
        if self.map.is_none() {
            return Rc::new(map.terrain_costs());
        }
        self.terrain.clone()
    }

    pub(super) fn put(&mut self, key: SearchKey, costs: Rc<Vec<u32>>) {
        if self.map.is_none() {
            return;
        }
        if self.entries.len() >= Self::MAX_KEPT
            // Equivalent mutant (issue 26, docs/testing.md): `+` → `*` only changes when the memo is cleared.
            || (self.entries.len() + 1) * costs.len().max(1) > Self::MAX_KEPT_SQUARES
        {
            self.entries.clear();
        }
        self.entries.insert(key, costs);
    }
}

thread_local! {
    pub(super) static SEARCHES: std::cell::RefCell<Searches> = Default::default();
    pub(super) static RATINGS: std::cell::RefCell<Ratings> = Default::default();
}

/// What a creature's rating was worked out from, besides the ruleset and its number of foes: the
/// creature (its entity: a reset spawns new ones), and when its stats and listed abilities were
/// set or last changed (added and changed ticks, as [`Combat::combatant`](crate::rules::driver::Combat::combatant) reads them).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct RatingKey {
    pub(super) entity: bevy::ecs::entity::Entity,
    pub(super) stats: (u32, u32),
    pub(super) abilities: (u32, u32),
}

/// A creature's rating as last worked out: the abilities it knows (their places in the ruleset's
/// list, in [`query::known_abilities`](crate::rules::query::known_abilities)' order), the foes it
/// was rated against, and the rating.
pub(super) struct RatingRow {
    pub(super) key: RatingKey,
    pub(super) known: Rc<[u32]>,
    pub(super) foes: usize,
    pub(super) rating: Rating,
}

/// Creatures' ratings kept across decisions (per thread): a rating depends only on the ruleset,
/// the abilities the creature lists, its stats and its number of foes, and those change far less
/// often than decisions are made (about 64 an encounter). Rows are by combatant id, for one
/// ruleset of one world ([`Combat::ruleset_stamp`](crate::rules::driver::Combat::ruleset_stamp));
/// a row counts only while its key is the creature's. Whoever stores rows or a stamp seals the
/// world's changes afterwards ([`Combat::seal_changes`](crate::rules::driver::Combat::seal_changes)),
/// so that a later change in place shows as a new tick.
#[derive(Default)]
pub(super) struct Ratings {
    pub(super) stamp: Option<ChangeStamp>,
    pub(super) rows: Vec<Option<RatingRow>>,
}

impl Ratings {
    /// Forget every row unless they were worked out under `stamp` (None: nothing is kept).
    pub(super) fn under(&mut self, stamp: Option<ChangeStamp>) {
        if stamp.is_none() || self.stamp != stamp {
            self.rows.clear();
            self.stamp = stamp;
        }
    }

    /// The row of creature `slot` if it was worked out for `key`.
    pub(super) fn row(&self, slot: usize, key: Option<RatingKey>) -> Option<&RatingRow> {
        let key = key?;
        self.stamp?;
        self.rows.get(slot)?.as_ref().filter(|r| r.key == key)
    }

    /// Keep `row` for creature `slot` (under the stamp of [`Ratings::under`]; not without one).
    pub(super) fn put(&mut self, slot: usize, row: RatingRow) {
        if self.stamp.is_none() {
            return;
        }
        if self.rows.len() <= slot {
            self.rows.resize_with(slot + 1, || None);
        }
        self.rows[slot] = Some(row);
    }
}

/// A small, fast hasher for the memo tables of small integer keys (FxHash's mixing step): not
/// for untrusted keys, and the tables are never iterated, so their order does not matter.
#[derive(Default, Clone, Copy)]
pub(super) struct FxBuild;

pub(super) struct Fx(u64);

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
        // Equivalent mutant (issue 26, docs/testing.md): a hash of 0 puts every key in one bucket: slower, same answers.
        self.0
    }
}

/// The cheapest movement cost of every square of a bounded `w` × `h` map from the squares
/// `starts` (cost 0), within `budget`, row by row (`u32::MAX`: out of reach): `terrain` gives the
/// cost of entering each square (0: a wall), `walls` more squares nobody may enter. Eight
/// neighbours, a diagonal step costing like an orthogonal one. Dijkstra with a bucket queue (a step
/// costs 1 or 2) over a copy of the terrain with a border of walls, so that no step tests the
/// bounds; the buffers are kept per thread. The cheapest cost of a square is the same whichever
/// Dijkstra finds it: these are [`BattleMap::reachable_costs_on`]'s costs (with `walls` as squares
/// the mover may not pass; it also leaves out the start) and [`View::field_search`](super::read::View::field_search)'s.
pub(super) fn dense_search(
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
