//! The simulator's fast paths give what the plain ones give (issue 11's speed-ups): a combat
//! reset in its old world plays exactly as a fresh one, and the dense path searches and sight
//! lines answer as `BattleMap::reachable` and `BattleMap::line_of_sight` do.

use std::collections::BTreeMap;
use std::path::Path;

use skirmish::ai::{self, AiScope};
use skirmish::rules::components::GridPos;
use skirmish::rules::driver::Combat;
use skirmish::rules::map::BattleMap;
use skirmish::sim::{self, SimConfig};

const SCOPE: AiScope = AiScope { gm: true, all_creatures: true };

/// `assets/encounters/bench-4v4.ron` prepared under one ruleset.
fn bench_under(ruleset: &str) -> sim::Prepared {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/bench-4v4.ron");
    sim::prepare(&SimConfig::new(&path, Some(ruleset), 1)).expect("the bench encounter loads")
}

#[test]
fn a_reset_combat_plays_exactly_as_a_fresh_one_under_every_ruleset() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters/skirmish-4v4.ron");
    let prep = sim::prepare(&SimConfig::new(&path, None, 1)).expect("the encounter loads");
    for rs in &prep.rulesets {
        let specs = prep.encounter.specs_for(rs);
        let map = prep.encounter.battle_map();
        let mut reused: Option<Combat> = None;
        for seed in 0..6u64 {
            let mut fresh = Combat::with_map(rs.clone(), seed, &specs, map.clone(), &[]).expect("sets up");
            let fresh_sent = ai::play(&mut fresh, SCOPE, 20_000);
            let mut again = match reused.take() {
                // Every other run keeps the ruleset it has, as the simulator's runs do.
                Some(mut c) if seed % 2 == 0 => {
                    assert!(c.reset(rs.clone(), seed, &specs, map.clone(), &[]).expect("resets"));
                    c
                }
                Some(mut c) => {
                    assert!(c.reset_keeping_ruleset(seed, &specs, map.clone(), &[]).expect("resets"));
                    c
                }
                None => Combat::with_map(rs.clone(), seed, &specs, map.clone(), &[]).expect("sets up"),
            };
            let again_sent = ai::play(&mut again, SCOPE, 20_000);
            let (a, b) = (serde_json::to_string(fresh.log()).unwrap(), serde_json::to_string(again.log()).unwrap());
            assert!(a == b, "{} seed {seed}: the reset combat's log differs", rs.name);
            assert_eq!(fresh.state_hash(), again.state_hash(), "{} seed {seed}", rs.name);
            assert_eq!(fresh_sent, again_sent);
            assert_eq!(fresh.journal(), again.journal());
            assert_eq!(fresh.runs(), again.runs());
            // The count the HUD keys its view-models on: set-up, then at least a run a command
            // (found by cargo-mutants: a count stuck at 0 passed the equality above).
            assert!(fresh.runs() > fresh_sent as u64, "{} runs for {fresh_sent} commands", fresh.runs());
            reused = Some(again);
        }
    }
}

#[test]
fn a_combat_with_mods_is_not_reset() {
    let prep = bench_under("homebrew-d20");
    let rs = &prep.rulesets[0];
    let specs = prep.encounter.specs_for(rs);
    let map = prep.encounter.battle_map();
    let mut c = Combat::with_map_prepared(rs.clone(), 1, &specs, map.clone(), &[], |_, _| {}).expect("sets up");
    let before = c.state_hash();
    assert!(!c.reset(rs.clone(), 2, &specs, map, &[]).expect("no error"));
    assert_eq!(before, c.state_hash(), "left as it was");
}

#[test]
fn combatant_reads_every_component_as_get_does_and_follows_the_world() {
    use skirmish::rules::components::{Cid, Conditions, Health, Side, Stats};
    let prep = bench_under("pf2e");
    let rs = &prep.rulesets[0];
    let specs = prep.encounter.specs_for(rs);
    let mut c = Combat::with_map(rs.clone(), 3, &specs, prep.encounter.battle_map(), &[]).expect("sets up");
    let check = |c: &Combat| {
        for i in 0..c.len() as u32 {
            let id = Cid(i);
            let d = c.combatant(id).expect("a combatant, read at once");
            assert_eq!(*d.cid, id);
            assert_eq!(Some(d.health), c.get::<Health>(id));
            assert_eq!(Some(d.pos), c.get::<GridPos>(id));
            assert_eq!(Some(d.side), c.get::<Side>(id));
            assert_eq!(Some(&*d.stats), c.get::<Stats>(id));
            assert_eq!(Some(d.conditions), c.get::<Conditions>(id));
        }
        assert!(c.combatant(Cid(c.len() as u32)).is_none(), "no such combatant");
    };
    check(&c);
    // After play (hit points, squares and conditions changed) it reads the current state.
    ai::play(&mut c, SCOPE, 40);
    check(&c);
    // A world swapped in from outside (which the schedule cannot run): no answer (callers read
    // with `get`), not a panic.
    let mut other = Combat::with_map(rs.clone(), 4, &specs, prep.encounter.battle_map(), &[]).expect("sets up");
    std::mem::swap(&mut c.world, &mut other.world);
    assert!(c.combatant(Cid(0)).is_none());
}

/// A tiny deterministic generator for test maps.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

fn random_map(g: &mut Lcg) -> BattleMap {
    let (w, h) = (3 + g.next(12) as i32, 3 + g.next(10) as i32);
    let mut m = BattleMap { width: w, height: h, ..BattleMap::default() };
    for y in 0..h {
        for x in 0..w {
            match g.next(10) {
                0 | 1 => {
                    m.blocked.insert(GridPos { x, y });
                }
                2 | 3 => {
                    m.difficult.insert(GridPos { x, y });
                }
                _ => {}
            }
        }
    }
    m
}

/// A random map, a start on it (none when the square drawn is a wall) and 0 to 3 squares held
/// by enemies, which a mover may not pass.
fn random_search(g: &mut Lcg) -> Option<(BattleMap, GridPos, Vec<GridPos>)> {
    let m = random_map(g);
    let square = |g: &mut Lcg| GridPos { x: g.next(m.width as u32) as i32, y: g.next(m.height as u32) as i32 };
    let from = square(g);
    let hostile = (0..g.next(4)).map(|_| square(g)).filter(|p| *p != from).collect();
    m.passable(from).then_some((m, from, hostile))
}

/// Cheapest costs by relaxing every square until nothing changes (no priority queue at all).
fn reference_costs(
    m: &BattleMap,
    from: GridPos,
    budget: u32,
    pass: &impl Fn(GridPos) -> bool,
) -> BTreeMap<GridPos, u32> {
    let mut best: BTreeMap<GridPos, u32> = BTreeMap::from([(from, 0)]);
    loop {
        let mut changed = false;
        for (p, c) in best.clone() {
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
                let q = GridPos { x: p.x + dx, y: p.y + dy };
                if !m.passable(q) || !pass(q) {
                    continue;
                }
                let nc = c + m.enter_cost(q);
                if nc <= budget && best.get(&q).is_none_or(|b| nc < *b) {
                    best.insert(q, nc);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    best.remove(&from);
    best
}

#[test]
fn dense_paths_are_the_ordered_search_s_paths_at_the_cheapest_cost() {
    let mut g = Lcg(23);
    let mut found = 0;
    for _ in 0..60 {
        let Some((m, from, hostile)) = random_search(&mut g) else { continue };
        let pass = |p: GridPos| !hostile.contains(&p);
        for budget in [1, 3, 6, 12, 40] {
            let costs = m.reachable_costs(from, budget, pass).expect("a bounded map");
            for to in (0..m.height).flat_map(|y| (0..m.width).map(move |x| GridPos { x, y })) {
                let path = m.path(from, to, budget, pass, |_| true);
                assert_eq!(
                    path,
                    m.path_ordered(from, to, budget, pass, |_| true),
                    "map {m:?} {from:?} to {to:?} budget {budget}"
                );
                let cost = costs[(to.y * m.width + to.x) as usize];
                match &path {
                    Some(p) if to != from => {
                        found += 1;
                        assert_eq!(m.path_cost(p), cost, "the cheapest way");
                        assert_eq!((p.first(), p.last()), (Some(&from), Some(&to)));
                        assert!(p.windows(2).all(|s| s[0].distance(s[1]) == 1 && m.passable(s[1]) && pass(s[1])));
                    }
                    Some(_) => {}
                    None => assert_eq!(cost, u32::MAX, "{to:?} within {budget} has a path"),
                }
            }
        }
    }
    assert!(found > 1000, "only {found} paths found");
}

#[test]
fn dense_path_searches_match_reachable_and_a_plain_relaxation() {
    let mut g = Lcg(11);
    for _ in 0..60 {
        let Some((m, from, hostile)) = random_search(&mut g) else { continue };
        let pass = |p: GridPos| !hostile.contains(&p);
        let stop = |p: GridPos| (p.x + p.y) % 5 != 0;
        for budget in [0, 1, 2, 3, 6, 12, 40] {
            let reach = m.reachable(from, budget, pass, stop);
            let mut reference = reference_costs(&m, from, budget, &pass);
            reference.retain(|p, _| stop(*p));
            assert_eq!(reach, reference, "map {m:?} from {from:?} budget {budget}");
            let mut squares = Vec::new();
            m.reachable_squares(from, budget, pass, stop, &mut squares);
            assert_eq!(squares, reach.keys().copied().collect::<Vec<_>>());
            let costs = m.reachable_costs(from, budget, pass).expect("a bounded map");
            let w = m.width as usize;
            let listed: BTreeMap<GridPos, u32> = costs
                .iter()
                .enumerate()
                .filter(|(_, c)| **c != u32::MAX)
                .map(|(i, c)| (GridPos { x: (i % w) as i32, y: (i / w) as i32 }, *c))
                .filter(|(p, _)| stop(*p))
                .collect();
            assert_eq!(listed, reach);
            // The same costs with the terrain grid worked out once, and with a grid of the wrong
            // size (ignored: the map's own is used).
            assert_eq!(m.reachable_costs_on(&m.terrain_costs(), from, budget, pass), Some(costs.clone()));
            assert_eq!(m.reachable_costs_on(&[], from, budget, pass), Some(costs.clone()));
            let wrong = vec![1u8; (m.width + m.height) as usize];
            assert_eq!(m.reachable_costs_on(&wrong, from, budget, pass), Some(costs));
        }
    }
    assert!(BattleMap::open().reachable_costs(GridPos { x: 0, y: 0 }, 3, |_| true).is_none());
    assert!(BattleMap::open().reachable_costs_on(&[], GridPos { x: 0, y: 0 }, 3, |_| true).is_none());
}

#[test]
fn sight_lines_through_the_terrain_grid_match_line_of_sight() {
    let mut g = Lcg(5);
    for _ in 0..30 {
        let m = random_map(&mut g);
        let terrain = m.terrain_costs();
        for ay in 0..m.height {
            for ax in 0..m.width {
                for by in 0..m.height {
                    for bx in 0..m.width {
                        let (a, b) = (GridPos { x: ax, y: ay }, GridPos { x: bx, y: by });
                        assert_eq!(m.line_of_sight_on(&terrain, a, b), m.line_of_sight(a, b), "{a:?} {b:?}");
                    }
                }
            }
        }
    }
}
