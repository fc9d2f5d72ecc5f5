//! Positions: where to stand. The approach field, what standing on a square is worth, the squares a
//! mover reaches and the shortlist worth a full look, attacks of opportunity and lines of sight.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::rules::components::{ActionPool, GridPos, Traits};
use crate::rules::query;
use crate::rules::ruleset::{ActionBudget, AttackKind, ReactionBudget};

use super::memo::{SEARCHES, SearchKey, dense_search};
use super::odds::DefMod;
use super::read::{Kind, NO_TRAITS, Opt, Unit, View};
use super::{APPROACH, APPROACH_PER_SQUARE, RANGED_EXPOSURE};

/// Squares of movement to the nearest enemy, by square.
pub(super) enum Field {
    /// The whole bounded map, row by row (`u32::MAX`: no way there).
    Grid { width: i32, dist: Rc<Vec<u32>> },
    /// Squares around the enemies on an open plane with terrain.
    Sparse(BTreeMap<GridPos, u32>),
}

impl Field {
    pub(super) fn get(&self, q: GridPos) -> Option<u32> {
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

impl<'a> View<'a> {
    /// Squares of movement from each square to the nearest enemy, around walls and through mud
    /// (the costs paths have), when the map has terrain; on the open plane the Chebyshev distance
    /// is exact. One search from every enemy at once over the map's squares.
    pub(super) fn approach_field(&self) -> Option<Field> {
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
        // Equivalent mutant (issue 26, docs/testing.md): `==` → `!=` runs the other search; both give the same distances
        // (`both_approach_searches_go_around_walls_and_pay_for_mud`).
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
    pub(super) fn pos_value(&self, q: GridPos, field: Option<&Field>) -> f32 {
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
                // G-P2-23: its n attacks at the penalties of a turn.
                v -= self.attack_by_uses(e, def, &moved, DefMod::default(), n) * RANGED_EXPOSURE * me.w;
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
    pub(super) fn aoo_cost(&self) -> f32 {
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
    pub(super) fn squares(&self, range: u32, out: &mut Vec<GridPos>) {
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

    /// [`BattleMap::reachable_costs`](crate::rules::map::BattleMap::reachable_costs) from the decider's square, past no hostile square,
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
        // Equivalent mutant (issue 26, docs/testing.md): `w * h` → `w + h` reads the map's own terrain costs, the same
        // numbers as the grid.
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
    pub(super) fn shortlist(&self, all: &[GridPos], field: Option<&Field>, out: &mut Vec<(f32, GridPos)>) {
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
        // Equivalent mutant (issue 26, docs/testing.md): `<=` → `>` only picks the other way of ordering; both give the same
        // order (`the_grid_and_the_square_by_square_ways_find_the_same_squares`).
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
    /// its effect needs it ([`Effect::needs_sight`](crate::rules::ruleset::Effect::needs_sight)).
    pub(super) fn aims(&self, o: &Opt, from: GridPos, to: GridPos) -> bool {
        (!o.sight || self.sees(from, to)) && o.def.range.is_none_or(|r| from.distance(to) <= r)
    }

    /// For an ability limited to a few creatures (issue 28: `targets: UpTo(n)`), the units it
    /// picks among those `eligible`: those worth the most by `worth` (an index into `units`),
    /// then the nearest to `from`, then in unit order. `None` when it is not limited (every
    /// eligible unit; `worth` is not asked).
    pub(super) fn limited(
        &self,
        o: &Opt,
        from: GridPos,
        eligible: impl Fn(&Unit) -> bool,
        worth: impl Fn(usize) -> f32,
    ) -> Option<Vec<usize>> {
        let most = o.def.targets.most().filter(|_| o.def.effect.picks_creatures())?;
        let mut v: Vec<(f32, usize)> =
            (0..self.units.len()).filter(|&i| eligible(&self.units[i])).map(|i| (worth(i), i)).collect();
        v.sort_by(|(a, i), (b, j)| {
            b.total_cmp(a)
                .then_with(|| (self.units[*i].pos.distance(from), *i).cmp(&(self.units[*j].pos.distance(from), *j)))
        });
        let mut v: Vec<usize> = v.into_iter().map(|(_, i)| i).collect();
        v.truncate(most);
        v.sort_unstable();
        Some(v)
    }

    /// Whether a target at `to` can be aimed at from `from` (line of sight past walls).
    /// Remembered for the map (on a small bounded map): sight lines depend on nothing else.
    pub(super) fn sees(&self, from: GridPos, to: GridPos) -> bool {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::components::{Cid, InitiativeSetup};
    use crate::rules::map::BattleMap;
    use crate::rules::setup::CombatantSpec;

    /// A pf2e creature of `side` on `at`: 20 hit points, initiative 10.
    fn spec(name: &str, side: &str, at: (i32, i32)) -> CombatantSpec {
        CombatantSpec {
            name: name.into(),
            side: side.into(),
            at,
            hp: 20,
            initiative: InitiativeSetup::Total(10),
            ..Default::default()
        }
    }

    /// A pf2e fight on `map`.
    fn fight(map: BattleMap, specs: &[CombatantSpec]) -> crate::rules::driver::Combat {
        crate::rules::driver::Combat::with_map(super::super::fixture::ruleset("pf2e"), 1, specs, map, &[])
            .expect("valid set-up")
    }

    /// Six by four: a wall across row 1 and down column 1, two squares of mud beside it.
    fn walled() -> BattleMap {
        BattleMap::from_rows(&[
            "......", //
            ".####.", //
            ".#~~..", //
            ".#....", //
        ])
        .expect("the map parses")
    }

    /// The approach field's two searches, over the map's own costs and over the AI's copy of the
    /// terrain, give the same distances: around walls, with mud costing 2 (issue 26: the search
    /// over the map's costs is the fallback, which no fight reached, so its mutants survived).
    #[test]
    fn both_approach_searches_go_around_walls_and_pay_for_mud() {
        let map = walled();
        let specs = [spec("a", "heroes", (0, 3)), spec("foe", "foes", (2, 3))];
        let c = fight(map, &specs);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let sources = [GridPos { x: 2, y: 3 }];
        let on_map = v.field_search_on_map(&sources);
        assert_eq!(on_map, v.field_search(&sources));
        let at = |x: i32, y: i32| on_map[(y * 6 + x) as usize];
        assert_eq!(at(2, 3), 0);
        assert_eq!(at(3, 3), 1);
        assert_eq!(at(4, 2), 2, "a diagonal step after a straight one");
        assert_eq!(at(3, 2), 2, "mud costs 2");
        // a, behind the wall: round its right end and back along the top, 10 squares (mud on
        // the left leads nowhere).
        assert_eq!(at(5, 1), 3);
        assert_eq!(at(0, 3), 10);
        assert_eq!(at(1, 1), u32::MAX, "a wall");
        // A map of one row (the search pads the grid with a row above and below).
        let row = BattleMap::from_rows(&["..~..."]).expect("the map parses");
        let specs = [spec("a", "heroes", (0, 0)), spec("foe", "foes", (5, 0))];
        let c = fight(row, &specs);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let sources = [GridPos { x: 5, y: 0 }];
        assert_eq!(v.field_search(&sources), vec![6, 5, 4, 2, 1, 0]);
        assert_eq!(v.field_search_on_map(&sources), vec![6, 5, 4, 2, 1, 0]);
    }

    /// The squares a mover can end on, read from the occupancy grid (small bounded maps) or
    /// square by square (larger ones), are the same squares; and so is their order nearest first
    /// (issue 26: the second ways survived their mutants, no test map being large).
    #[test]
    fn the_grid_and_the_square_by_square_ways_find_the_same_squares() {
        let map = walled();
        let specs = [spec("a", "heroes", (4, 2)), spec("ally", "heroes", (5, 3)), spec("foe", "foes", (2, 3))];
        let c = fight(map, &specs);
        let mut v = View::new(&c, Cid(0)).expect("a reads the fight");
        assert!(!v.occ_grid.is_empty(), "a small map has an occupancy grid");
        let (mut grid, mut order) = (Vec::new(), Vec::new());
        v.squares(3, &mut grid);
        v.nearest_first(&grid, &mut order);
        let at = |x, y| GridPos { x, y };
        // Three squares of movement from (4, 2): not the ally's, the foe's or a wall's, and mud
        // costs 2.
        assert!(grid.contains(&at(5, 0)) && grid.contains(&at(3, 2)) && grid.contains(&at(3, 3)));
        assert!(!grid.contains(&at(4, 2)), "where a stands is no move");
        assert!(!grid.contains(&at(5, 3)) && !grid.contains(&at(2, 3)) && !grid.contains(&at(4, 1)));
        assert!(grid.contains(&at(2, 2)), "a step, then mud: 3");
        assert!(!grid.contains(&at(0, 3)) && !grid.contains(&at(1, 0)), "behind the wall, or too far");
        let from = at(4, 2);
        assert!(order.windows(2).all(|w| w[0].distance(from) <= w[1].distance(from)), "{order:?}");
        v.occ_grid.clear();
        *v.reach_memo.borrow_mut() = None;
        let (mut each, mut order_each) = (Vec::new(), Vec::new());
        v.squares(3, &mut each);
        v.nearest_first(&each, &mut order_each);
        assert_eq!(each, grid);
        assert_eq!(order_each, order);
    }

    /// On the open plane with walls the approach field is searched around each enemy, within a
    /// budget (issue 26: `||` as `&&` sent the open plane to the bounded map's search).
    #[test]
    fn on_the_open_plane_with_walls_the_approach_field_is_searched_around_each_enemy() {
        let mut map = BattleMap::default();
        map.blocked.insert(GridPos { x: 1, y: 0 });
        let c = fight(map, &[spec("a", "heroes", (0, 0)), spec("foe", "foes", (3, 0))]);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let Some(Field::Sparse(field)) = v.approach_field() else { panic!("a field around the foe") };
        assert_eq!(field.get(&GridPos { x: 2, y: 0 }), Some(&1));
        assert_eq!(field.get(&GridPos { x: 0, y: 0 }), Some(&3), "round the wall");
        assert_eq!(field.get(&GridPos { x: 1, y: 0 }), None, "the wall");
    }
}
