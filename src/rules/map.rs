//! The battlefield grid: its bounds, walls and difficult terrain, the cheapest paths across it and
//! line of sight.
//!
//! A [`BattleMap`] of width and height 0 is an open, unbounded plane with no terrain: the default,
//! on which every move costs its Chebyshev distance (G-HB-14's grid, diagonals counting 1). A
//! bounded map has the squares `0..width` × `0..height`; a blocked square (a wall) can be neither
//! entered nor seen through, and entering a difficult square costs 2 squares of movement.
//!
//! Every search here is deterministic: frontiers and results are `BTreeSet`s and `BTreeMap`s
//! keyed by (cost, square), or on a bounded map arrays indexed by square with a bucket queue or
//! a heap ordered by the same keys, and costs are integers.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::components::GridPos;

/// The eight neighbours of a square, in a fixed order.
const NEIGHBOURS: [(i32, i32); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The largest movement budget searched on an open map: four times the longest speed data may
/// give ([`super::limits::MAX_SQUARES`]), enough for a charge at double speed with a detour. A
/// safety net so that an open plane is never searched without end.
pub const MAX_OPEN_BUDGET: u32 = 4 * super::limits::MAX_SQUARES;

/// The most squares a map's side may have when it is written as rows.
pub const MAX_MAP_SIDE: usize = 1_000;

/// Bounded maps of at most this many squares are searched for a path over arrays the size of
/// the map ([`BattleMap::path`]); on larger ones the search keeps to the squares it visits.
const MAX_DENSE_PATH_SQUARES: i64 = 1 << 16;

/// Movement cost of entering a difficult square.
pub const DIFFICULT_COST: u32 = 2;

/// The battlefield: bounds, blocked squares and difficult terrain.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleMap {
    /// Squares across (x); 0 with `height` 0 = an open, unbounded plane.
    pub width: i32,
    /// Squares down (y); 0 with `width` 0 = an open, unbounded plane.
    pub height: i32,
    /// Walls: squares nobody may enter and that block line of sight.
    pub blocked: BTreeSet<GridPos>,
    /// Difficult terrain: entering one costs [`DIFFICULT_COST`] squares of movement.
    pub difficult: BTreeSet<GridPos>,
}

impl BattleMap {
    /// An open, unbounded plane (the default).
    pub fn open() -> Self {
        Self::default()
    }

    /// Whether this is the open, unbounded plane (no bounds; it may still list terrain).
    pub(crate) fn is_unbounded(&self) -> bool {
        self.width <= 0 || self.height <= 0
    }

    /// Whether the square is on the map (always, on an open plane).
    pub fn in_bounds(&self, p: GridPos) -> bool {
        self.is_unbounded() || (0..self.width).contains(&p.x) && (0..self.height).contains(&p.y)
    }

    /// Whether a creature may enter or stand on the square: on the map and not blocked.
    pub fn passable(&self, p: GridPos) -> bool {
        self.in_bounds(p) && !self.blocked.contains(&p)
    }

    /// Squares of movement it costs to enter the square: 1, or [`DIFFICULT_COST`] on difficult
    /// terrain.
    pub fn enter_cost(&self, p: GridPos) -> u32 {
        if self.difficult.contains(&p) { DIFFICULT_COST } else { 1 }
    }

    /// The movement cost of a path as [`BattleMap::path`] returns it (the first square is where
    /// the mover starts and costs nothing).
    pub fn path_cost(&self, path: &[GridPos]) -> u32 {
        path.iter().skip(1).fold(0u32, |c, p| c.saturating_add(self.enter_cost(*p)))
    }

    /// A budget clamped so that a search on an open plane stays bounded.
    fn clamp_budget(&self, budget: u32) -> u32 {
        if self.is_unbounded() { budget.min(MAX_OPEN_BUDGET) } else { budget }
    }

    /// The squares one step from `p` that a mover may enter: on the map, not blocked, and allowed
    /// by `can_pass` (which rules out, say, squares held by enemies).
    fn steps<'a>(&'a self, p: GridPos, can_pass: &'a impl Fn(GridPos) -> bool) -> impl Iterator<Item = GridPos> + 'a {
        NEIGHBOURS.iter().filter_map(move |(dx, dy)| {
            let q = GridPos { x: p.x.checked_add(*dx)?, y: p.y.checked_add(*dy)? };
            (self.passable(q) && can_pass(q)).then_some(q)
        })
    }

    /// Every square a mover starting on `from` can reach for at most `budget` squares of
    /// movement, with the cheapest cost, where it may stop (`can_stop`). Dijkstra over the eight
    /// neighbours: a diagonal step costs like an orthogonal one (Chebyshev distance, as
    /// [`GridPos::distance`]), and each step costs the entered square's [`BattleMap::enter_cost`].
    /// A mover passes only through passable squares that `can_pass` allows. The start square is
    /// not in the result. On an open plane the budget is capped at [`MAX_OPEN_BUDGET`].
    pub fn reachable(
        &self,
        from: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
    ) -> BTreeMap<GridPos, u32> {
        let budget = self.clamp_budget(budget);
        if !self.is_unbounded() && self.in_bounds(from) {
            return self.reachable_dense(from, budget, can_pass, can_stop);
        }
        let mut best: BTreeMap<GridPos, u32> = BTreeMap::from([(from, 0)]);
        let mut frontier: BTreeSet<(u32, GridPos)> = BTreeSet::from([(0, from)]);
        // An entry a cheaper path replaces leaves the frontier (below), so the one taken is always
        // the square's best: no stale entries to skip (cargo-mutants found such a check a no-op).
        while let Some((cost, p)) = frontier.pop_first() {
            for q in self.steps(p, &can_pass) {
                let c = cost.saturating_add(self.enter_cost(q));
                if c > budget || best.get(&q).is_some_and(|b| *b <= c) {
                    continue;
                }
                if let Some(old) = best.insert(q, c) {
                    frontier.remove(&(old, q));
                }
                frontier.insert((c, q));
            }
        }
        best.remove(&from);
        best.retain(|p, _| can_stop(*p));
        best
    }

    /// [`BattleMap::reachable`] on a bounded map: the same search over arrays indexed by square
    /// instead of ordered maps (the simulator's hottest loop). The cheapest cost of each square
    /// does not depend on the order of equal-cost steps, so the result is the same.
    fn reachable_dense(
        &self,
        from: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
    ) -> BTreeMap<GridPos, u32> {
        let w = self.width as usize;
        let best = self.dense_costs(&self.terrain_costs(), from, budget, can_pass);
        best.iter()
            .enumerate()
            .filter(|(_, c)| **c != u32::MAX)
            .map(|(i, c)| (GridPos { x: (i % w) as i32, y: (i / w) as i32 }, *c))
            .filter(|(p, _)| can_stop(*p))
            .collect()
    }

    /// The squares of [`BattleMap::reachable`] without their costs, in the same (square) order,
    /// written into `out` (cleared first): for callers that only need where a mover can end.
    pub fn reachable_squares(
        &self,
        from: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
        out: &mut Vec<GridPos>,
    ) {
        out.clear();
        let budget = self.clamp_budget(budget);
        if self.is_unbounded() || !self.in_bounds(from) {
            out.extend(self.reachable(from, budget, can_pass, can_stop).into_keys());
            return;
        }
        let (w, h) = (self.width as usize, self.height as usize);
        let best = self.dense_costs(&self.terrain_costs(), from, budget, can_pass);
        // `GridPos` orders by column, then row.
        for x in 0..w {
            for y in 0..h {
                if best[y * w + x] != u32::MAX {
                    let p = GridPos { x: x as i32, y: y as i32 };
                    if can_stop(p) {
                        out.push(p);
                    }
                }
            }
        }
    }

    /// On a bounded map with `from` on it: the cheapest cost of every square within `budget`, row
    /// by row (`u32::MAX`: out of reach, and `from` itself), under the rules of
    /// [`BattleMap::reachable`] (which lists those squares where a mover may stop). None on an
    /// open plane.
    pub fn reachable_costs(&self, from: GridPos, budget: u32, can_pass: impl Fn(GridPos) -> bool) -> Option<Vec<u32>> {
        (!self.is_unbounded() && self.in_bounds(from))
            .then(|| self.dense_costs(&self.terrain_costs(), from, budget, can_pass))
    }

    /// [`BattleMap::reachable_costs`] with the map's [`BattleMap::terrain_costs`] worked out
    /// already (a caller searching many times keeps them; a slice of the wrong size is ignored).
    pub fn reachable_costs_on(
        &self,
        terrain: &[u8],
        from: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
    ) -> Option<Vec<u32>> {
        if self.is_unbounded() || !self.in_bounds(from) {
            return None;
        }
        let own;
        let terrain = if terrain.len() == self.width as usize * self.height as usize {
            terrain
        } else {
            own = self.terrain_costs();
            &own
        };
        Some(self.dense_costs(terrain, from, budget, can_pass))
    }

    /// The cheapest cost of every square of a bounded map from `from` (in bounds) within
    /// `budget`, row by row; `u32::MAX` where out of reach and on `from` itself. Dijkstra with a
    /// bucket queue: entering a square costs 1 or [`DIFFICULT_COST`], so three buckets of costs
    /// d, d+1, d+2 hold the whole frontier.
    fn dense_costs(&self, terrain: &[u8], from: GridPos, budget: u32, can_pass: impl Fn(GridPos) -> bool) -> Vec<u32> {
        const _: () = assert!(DIFFICULT_COST < 3);
        let (width, height) = (self.width, self.height);
        let w = width as usize;
        // Entering each square costs (`terrain`): 0 = a wall, else 1 or DIFFICULT_COST (read once,
        // not per step).
        let mut best = vec![u32::MAX; terrain.len()];
        let start = from.y as usize * w + from.x as usize;
        best[start] = 0;
        let mut buckets: [Vec<usize>; 3] = [vec![start], Vec::new(), Vec::new()];
        let mut queued = 1usize;
        let mut d = 0u32;
        while queued > 0 {
            let b = (d % 3) as usize;
            while let Some(i) = buckets[b].pop() {
                queued -= 1;
                if best[i] != d {
                    continue;
                }
                let (x, y) = ((i % w) as i32, (i / w) as i32);
                // NEIGHBOURS is symmetric and the costs do not depend on the order squares are
                // relaxed in, so cargo-mutants' `y + dy` → `y - dy` here is equivalent.
                for (dx, dy) in NEIGHBOURS {
                    let q = GridPos { x: x + dx, y: y + dy };
                    if q.x < 0 || q.y < 0 || q.x >= width || q.y >= height {
                        continue;
                    }
                    let qi = q.y as usize * w + q.x as usize;
                    let enter = terrain[qi];
                    if enter == 0 {
                        continue;
                    }
                    let c = d.saturating_add(u32::from(enter));
                    if c > budget || best[qi] <= c || !can_pass(q) {
                        continue;
                    }
                    best[qi] = c;
                    buckets[(c % 3) as usize].push(qi);
                    queued += 1;
                }
            }
            d += 1;
        }
        best[start] = u32::MAX;
        best
    }

    /// A bounded map's squares row by row: 0 for a wall, else the cost of entering the square
    /// ([`BattleMap::enter_cost`]). Empty on an open plane.
    pub fn terrain_costs(&self) -> Vec<u8> {
        if self.is_unbounded() {
            return Vec::new();
        }
        let w = self.width as usize;
        let mut out = vec![1u8; w * self.height as usize];
        for p in &self.difficult {
            if self.in_bounds(*p) {
                out[p.y as usize * w + p.x as usize] = DIFFICULT_COST as u8;
            }
        }
        for p in &self.blocked {
            if self.in_bounds(*p) {
                out[p.y as usize * w + p.x as usize] = 0;
            }
        }
        out
    }

    /// The cheapest path from `from` to `to` costing at most `budget` squares of movement, under
    /// the same rules as [`BattleMap::reachable`], or none. The path lists every square from
    /// `from` (first) to `to` (last); [`BattleMap::path_cost`] gives its cost. A* with the
    /// Chebyshev distance as its (consistent) estimate, so the cost is the one `reachable` gives;
    /// ties break by (estimate, depth, square) order, so the same query always gives the same
    /// path. On an open plane the budget is capped at [`MAX_OPEN_BUDGET`].
    pub fn path(
        &self,
        from: GridPos,
        to: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
    ) -> Option<Vec<GridPos>> {
        self.path_with(from, to, budget, can_pass, can_stop, true)
    }

    /// [`BattleMap::path`] over ordered maps and sets on every map, never the arrays of
    /// `path_dense`: what the tests check the array version against.
    #[doc(hidden)]
    pub fn path_ordered(
        &self,
        from: GridPos,
        to: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
    ) -> Option<Vec<GridPos>> {
        self.path_with(from, to, budget, can_pass, can_stop, false)
    }

    fn path_with(
        &self,
        from: GridPos,
        to: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
        can_stop: impl Fn(GridPos) -> bool,
        arrays: bool,
    ) -> Option<Vec<GridPos>> {
        if from == to {
            return Some(vec![from]);
        }
        // A shortcut: both searches enter only squares that are passable and `can_pass` allows, so
        // they never reach such a `to` either (cargo-mutants' first `||` → `&&` here is
        // equivalent: the same answer after a search).
        if !self.passable(to) || !can_pass(to) || !can_stop(to) {
            return None;
        }
        let budget = self.clamp_budget(budget);
        if from.distance(to) > budget {
            return None;
        }
        if arrays
            && !self.is_unbounded()
            && self.in_bounds(from)
            && i64::from(self.width) * i64::from(self.height) <= MAX_DENSE_PATH_SQUARES
        {
            return self.path_dense(from, to, budget, can_pass);
        }
        let mut best: BTreeMap<GridPos, u32> = BTreeMap::from([(from, 0)]);
        let mut came_from: BTreeMap<GridPos, GridPos> = BTreeMap::new();
        // (estimated total, u32::MAX - cost so far: deeper first among equals, square)
        let mut frontier: BTreeSet<(u32, u32, GridPos)> = BTreeSet::from([(from.distance(to), u32::MAX, from)]);
        let mut done: BTreeSet<GridPos> = BTreeSet::new();
        while let Some((_, inv, p)) = frontier.pop_first() {
            let cost = u32::MAX - inv;
            if p == to {
                let mut out = vec![to];
                let mut at = to;
                while let Some(prev) = came_from.get(&at) {
                    out.push(*prev);
                    at = *prev;
                }
                out.reverse();
                return Some(out);
            }
            if !done.insert(p) {
                continue;
            }
            for q in self.steps(p, &can_pass) {
                let c = cost.saturating_add(self.enter_cost(q));
                let estimate = c.saturating_add(q.distance(to));
                if estimate > budget || done.contains(&q) || best.get(&q).is_some_and(|b| *b <= c) {
                    continue;
                }
                if let Some(old) = best.insert(q, c) {
                    frontier.remove(&(old.saturating_add(q.distance(to)), u32::MAX - old, q));
                }
                came_from.insert(q, p);
                frontier.insert((estimate, u32::MAX - c, q));
            }
        }
        None
    }

    /// [`BattleMap::path`] on a bounded map of at most [`MAX_DENSE_PATH_SQUARES`] squares with
    /// `from` on it (`to` is passable, so on it too): the same A* over arrays indexed by square
    /// instead of ordered maps, with a binary heap whose stale entries are skipped instead of
    /// removed. The valid entries come off the heap
    /// in the order they come off the ordered set, so the path is the same. (A stale entry, left
    /// when a cheaper way to its square was found, has the higher estimate: it comes off after
    /// the square is done, and is skipped as done.)
    fn path_dense(
        &self,
        from: GridPos,
        to: GridPos,
        budget: u32,
        can_pass: impl Fn(GridPos) -> bool,
    ) -> Option<Vec<GridPos>> {
        use std::cmp::Reverse;
        let (width, height) = (self.width, self.height);
        let w = width as usize;
        let terrain = self.terrain_costs();
        let idx = |p: GridPos| p.y as usize * w + p.x as usize;
        let mut best = vec![u32::MAX; terrain.len()];
        let mut came_from = vec![usize::MAX; terrain.len()];
        let mut done = vec![false; terrain.len()];
        best[idx(from)] = 0;
        let mut frontier = std::collections::BinaryHeap::from([Reverse((from.distance(to), u32::MAX, from))]);
        while let Some(Reverse((_, inv, p))) = frontier.pop() {
            let cost = u32::MAX - inv;
            let pi = idx(p);
            if done[pi] {
                continue;
            }
            if p == to {
                let mut out = vec![to];
                let mut at = pi;
                while came_from[at] != usize::MAX {
                    at = came_from[at];
                    out.push(GridPos { x: (at % w) as i32, y: (at / w) as i32 });
                }
                out.reverse();
                return Some(out);
            }
            done[pi] = true;
            // The heap orders entries by their whole key, so the order neighbours are pushed in
            // does not matter: cargo-mutants' `p.x + dx` → `p.x - dx` (NEIGHBOURS is symmetric)
            // is equivalent.
            for (dx, dy) in NEIGHBOURS {
                let q = GridPos { x: p.x + dx, y: p.y + dy };
                if q.x < 0 || q.y < 0 || q.x >= width || q.y >= height {
                    continue;
                }
                let qi = idx(q);
                let enter = terrain[qi];
                if enter == 0 || !can_pass(q) {
                    continue;
                }
                let c = cost.saturating_add(u32::from(enter));
                let estimate = c.saturating_add(q.distance(to));
                if estimate > budget || done[qi] || best[qi] <= c {
                    continue;
                }
                best[qi] = c;
                came_from[qi] = pi;
                frontier.push(Reverse((estimate, u32::MAX - c, q)));
            }
        }
        None
    }

    /// Whether `a` sees `b`: no blocked square lies strictly between them on the integer
    /// (Bresenham) line between their centres. The line is always traced from the smaller square
    /// to the larger, so `a` sees `b` exactly when `b` sees `a`. Creatures do not block it.
    pub fn line_of_sight(&self, a: GridPos, b: GridPos) -> bool {
        if self.blocked.is_empty() {
            return true;
        }
        let (p, q) = if a <= b { (a, b) } else { (b, a) };
        let mut clear = true;
        for_line(p, q, |c| {
            if c != p && c != q && self.blocked.contains(&c) {
                clear = false;
            }
        });
        clear
    }

    /// [`BattleMap::line_of_sight`] reading walls from `terrain`, this map's
    /// [`BattleMap::terrain_costs`] (for callers that ask many times).
    pub fn line_of_sight_on(&self, terrain: &[u8], a: GridPos, b: GridPos) -> bool {
        if self.blocked.is_empty() {
            return true;
        }
        let (p, q) = if a <= b { (a, b) } else { (b, a) };
        // The line stays inside the box its ends span: with no wall in that box, nothing is in the
        // way. (A shortcut only, exact either way: so cargo-mutants' `<=` → `>` on the wall count
        // is equivalent.)
        if self.blocked.len() <= 16 && self.no_wall_between_in_box(p, q) {
            return true;
        }
        let w = self.width as usize;
        let grid = !self.is_unbounded() && terrain.len() == w * self.height as usize;
        let wall = |c: GridPos| {
            if grid && self.in_bounds(c) {
                terrain[c.y as usize * w + c.x as usize] == 0
            } else {
                self.blocked.contains(&c)
            }
        };
        let mut clear = true;
        for_line(p, q, |c| {
            if clear && c != p && c != q && wall(c) {
                clear = false;
            }
        });
        clear
    }

    /// Whether no blocked square stands in the box whose corners are `p` and `q`, the two
    /// corners aside (a line's ends never block it).
    fn no_wall_between_in_box(&self, p: GridPos, q: GridPos) -> bool {
        let (x0, x1) = (p.x.min(q.x), p.x.max(q.x));
        let (y0, y1) = (p.y.min(q.y), p.y.max(q.y));
        let inside = |c: &GridPos| c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1 && *c != p && *c != q;
        !self.blocked.iter().any(inside)
    }

    /// The squares of the line [`BattleMap::line_of_sight`] traces between `a` and `b`, from `a`
    /// to `b`, both included.
    pub fn line(a: GridPos, b: GridPos) -> Vec<GridPos> {
        let (p, q) = if a <= b { (a, b) } else { (b, a) };
        let mut out = Vec::new();
        for_line(p, q, |c| out.push(c));
        if p != a {
            out.reverse();
        }
        out
    }

    /// A map from rows of text, for designers: `.` open, `#` blocked, `~` difficult. Every row has
    /// the same length; the width is a row's length and the height the number of rows, row 0
    /// being y = 0 and its first character x = 0. No rows at all is the open plane.
    pub fn from_rows(rows: &[&str]) -> Result<BattleMap, String> {
        if rows.is_empty() {
            return Ok(BattleMap::default());
        }
        if rows.len() > MAX_MAP_SIDE {
            return Err(format!("{} rows: at most {MAX_MAP_SIDE}", rows.len()));
        }
        let width = rows[0].chars().count();
        if width == 0 {
            return Err("row 0 is empty: a row needs at least one square".into());
        }
        if width > MAX_MAP_SIDE {
            return Err(format!("row 0 has {width} squares: at most {MAX_MAP_SIDE}"));
        }
        let mut map = BattleMap { width: width as i32, height: rows.len() as i32, ..Default::default() };
        for (y, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width {
                return Err(format!("row {y} has {n} squares, row 0 has {width}: every row must be as long"));
            }
            for (x, ch) in row.chars().enumerate() {
                let p = GridPos { x: x as i32, y: y as i32 };
                match ch {
                    '.' => {}
                    '#' => {
                        map.blocked.insert(p);
                    }
                    '~' => {
                        map.difficult.insert(p);
                    }
                    other => {
                        return Err(format!(
                            "row {y}, column {x}: `{other}` is not a square; use `.` (open), `#` (blocked) or `~` \
                             (difficult)"
                        ));
                    }
                }
            }
        }
        Ok(map)
    }

    /// The map as rows of text (the inverse of [`BattleMap::from_rows`]); none for the open
    /// plane.
    pub fn to_rows(&self) -> Vec<String> {
        if self.is_unbounded() {
            return Vec::new();
        }
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| {
                        let p = GridPos { x, y };
                        if self.blocked.contains(&p) {
                            '#'
                        } else if self.difficult.contains(&p) {
                            '~'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// Visit the squares of the Bresenham line from `a` to `b`, both included, in order. Integer
/// arithmetic in 64 bits, so no coordinate the data allows can overflow.
fn for_line(a: GridPos, b: GridPos, mut visit: impl FnMut(GridPos)) {
    let (mut x, mut y) = (i64::from(a.x), i64::from(a.y));
    let (x1, y1) = (i64::from(b.x), i64::from(b.y));
    let dx = (x1 - x).abs();
    let dy = -(y1 - y).abs();
    let sx = if x < x1 { 1 } else { -1 };
    let sy = if y < y1 { 1 } else { -1 };
    let mut err = dx + dy;
    loop {
        visit(GridPos { x: x as i32, y: y as i32 });
        if x == x1 && y == y1 {
            return;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line of sight's shortcut: a wall inside the box counts, one on either corner or outside
    /// does not (issue 26: cargo-mutants' `*c != p && *c != q` → `||` counted a wall on a corner,
    /// which only made the shortcut never fire, so no line of sight showed it).
    #[test]
    fn the_box_between_two_squares_ignores_walls_on_its_corners_and_outside() {
        let p = GridPos { x: 0, y: 0 };
        let q = GridPos { x: 3, y: 2 };
        let with = |walls: &[(i32, i32)]| {
            let blocked = walls.iter().map(|&(x, y)| GridPos { x, y }).collect();
            BattleMap { blocked, ..BattleMap::default() }.no_wall_between_in_box(p, q)
        };
        assert!(with(&[]));
        assert!(with(&[(0, 0)]), "a wall on the first corner");
        assert!(with(&[(3, 2)]), "a wall on the second corner");
        assert!(with(&[(4, 1), (-1, 0), (1, 3), (2, -1)]), "walls just outside each side");
        assert!(!with(&[(1, 1)]), "a wall inside");
        assert!(!with(&[(3, 0)]), "a wall on another corner of the box");
        assert!(!with(&[(0, 0), (3, 2), (0, 2)]));
    }
}
