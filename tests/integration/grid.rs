//! The battle map driving the rules: terrain costs, walls, occupied squares, line of sight,
//! engagement on a bounded map, and the queries the game uses (`reachable`, `threatened`,
//! `check_act`).

use std::collections::BTreeSet;

use skirmish::rules::command::{ActIntent, Command, Rejection};
use skirmish::rules::components::{Cid, GridPos};
use skirmish::rules::driver::Combat;
use skirmish::rules::map::BattleMap;
use skirmish::rules::setup::CombatantSpec;

use crate::common::*;

fn g(x: i32, y: i32) -> GridPos {
    GridPos { x, y }
}

fn map(rows: &[&str]) -> BattleMap {
    BattleMap::from_rows(rows).expect("valid rows")
}

/// A homebrew-d20 fight on a map.
fn on_map(rows: &[&str], specs: Vec<CombatantSpec>) -> Fight {
    Fight(Combat::with_map(homebrew(), 1, &specs, map(rows), &[]).expect("valid set-up"))
}

fn with_speed(mut s: CombatantSpec, speed: u32) -> CombatantSpec {
    s.movement.insert("walk".into(), speed);
    s
}

fn invalid(r: Result<(), Rejection>) -> String {
    match r {
        Err(Rejection::InvalidTarget(why)) => why,
        other => panic!("expected InvalidTarget, got {other:?}"),
    }
}

// ------------------------------------------------------------------ the map itself

#[test]
fn rows_make_a_map_and_bad_rows_are_refused() {
    let m = map(&["..#", "~..", "..."]);
    assert_eq!((m.width, m.height), (3, 3));
    assert!(m.blocked.contains(&g(2, 0)) && m.difficult.contains(&g(0, 1)));
    assert!(m.in_bounds(g(2, 2)) && !m.in_bounds(g(3, 0)) && !m.in_bounds(g(0, -1)));
    assert!(!m.passable(g(2, 0)) && m.passable(g(0, 1)));
    assert_eq!((m.enter_cost(g(0, 1)), m.enter_cost(g(1, 1))), (2, 1));
    assert_eq!(m.to_rows(), vec!["..#", "~..", "..."]);
    assert!(BattleMap::from_rows(&["...", ".."]).unwrap_err().contains("row 1 has 2 squares"));
    assert!(BattleMap::from_rows(&["..x"]).unwrap_err().contains("`x`"));
    assert_eq!(BattleMap::from_rows(&[]).unwrap(), BattleMap::default());
    let open = BattleMap::default();
    assert!(open.in_bounds(g(-5000, 9000)) && open.passable(g(1, 1)));
    // The side bound is inclusive (found by cargo-mutants: `>` read as `>=` survived).
    let side = skirmish::rules::map::MAX_MAP_SIDE;
    let rows = vec!["."; side];
    assert_eq!(BattleMap::from_rows(&rows).unwrap().height as usize, side);
    let rows = vec!["."; side + 1];
    assert!(BattleMap::from_rows(&rows).unwrap_err().contains("1001 rows"));
    let wide = ".".repeat(side);
    assert_eq!(BattleMap::from_rows(&[wide.as_str()]).unwrap().width as usize, side);
}

#[test]
fn line_of_sight_on_agrees_with_line_of_sight_without_a_terrain_grid() {
    // A caller without the terrain grid (an empty slice) gets the same answers, read from the
    // walls (found by cargo-mutants: the grid was indexed without one).
    let m = map(&["..........", "....#.....", "....#.....", "....#.....", ".........."]);
    let t = m.terrain_costs();
    for (a, b) in [(g(0, 2), g(9, 2)), (g(0, 0), g(9, 0)), (g(3, 1), g(5, 3)), (g(0, 4), g(9, 1))] {
        let seen = m.line_of_sight(a, b);
        assert_eq!(m.line_of_sight_on(&t, a, b), seen, "{a:?} {b:?}");
        assert_eq!(m.line_of_sight_on(&[], a, b), seen, "{a:?} {b:?} without the grid");
    }
    assert!(!m.line_of_sight(g(0, 2), g(9, 2)) && m.line_of_sight(g(0, 0), g(9, 0)));
}

#[test]
fn reachable_costs_two_for_difficult_terrain_and_counts_diagonals_as_one() {
    let m = map(&[".....", ".~~~.", "....."]);
    let r = m.reachable(g(0, 1), 3, |_| true, |_| true);
    assert_eq!(r.get(&g(1, 1)), Some(&2), "entering mud costs 2");
    assert_eq!(r.get(&g(1, 0)), Some(&1), "a diagonal step costs 1");
    assert_eq!(r.get(&g(2, 1)), Some(&3), "round the mud and in: 1 + 2");
    assert_eq!(r.get(&g(3, 0)), Some(&3));
    assert_eq!(r.get(&g(4, 1)), None, "4 squares of movement away");
    assert!(!r.contains_key(&g(0, 1)), "the start is not a destination");
    // The open plane: the budget bounds the search; every square within it costs its distance.
    let open = BattleMap::default().reachable(g(0, 0), 2, |_| true, |_| true);
    assert_eq!(open.len(), 24);
    assert!(open.iter().all(|(p, c)| *c == p.distance(g(0, 0))));
}

#[test]
fn a_path_goes_round_a_wall_and_is_the_same_every_time() {
    let rows = ["......", "..#...", "..#...", "..#...", "......"];
    let m = map(&rows);
    let p = m.path(g(1, 2), g(3, 2), 10, |_| true, |_| true).expect("a way round");
    assert_eq!(m.path_cost(&p), 4, "up, over the wall's end and down");
    assert_eq!((p[0], *p.last().unwrap()), (g(1, 2), g(3, 2)));
    assert!(p.iter().all(|s| m.passable(*s)));
    assert!(p.windows(2).all(|w| w[0].distance(w[1]) == 1));
    assert_eq!(m.path(g(1, 2), g(3, 2), 10, |_| true, |_| true), Some(p));
    assert_eq!(m.path(g(1, 2), g(3, 2), 3, |_| true, |_| true), None, "not within 3");
    let costs = m.reachable(g(1, 2), 10, |_| true, |_| true);
    assert_eq!(costs[&g(3, 2)], 4, "Dijkstra and A* agree");
}

#[test]
fn line_of_sight_is_blocked_by_walls_between_and_symmetric() {
    let m = map(&[".......", "...#...", "......."]);
    assert!(!m.line_of_sight(g(0, 1), g(6, 1)));
    assert!(!m.line_of_sight(g(6, 1), g(0, 1)));
    assert!(m.line_of_sight(g(0, 0), g(6, 0)), "a clear row");
    assert!(m.line_of_sight(g(2, 1), g(3, 0)), "adjacent squares always see each other");
    assert!(m.line_of_sight(g(3, 1), g(3, 1)));
    // Symmetric for every pair on the map.
    for a in 0..21 {
        for b in 0..21 {
            let (pa, pb) = (g(a % 7, a / 7), g(b % 7, b / 7));
            assert_eq!(m.line_of_sight(pa, pb), m.line_of_sight(pb, pa), "{pa:?} {pb:?}");
        }
    }
    let line = BattleMap::line(g(0, 0), g(4, 2));
    assert_eq!((line[0], *line.last().unwrap(), line.len()), (g(0, 0), g(4, 2), 5));
}

// ------------------------------------------------------------------ movement in the rules

#[test]
fn difficult_terrain_costs_two_squares_of_movement() {
    let rows = ["~~~~~~", "~~~~~~", "~~~~~~"];
    let mut f = on_map(&rows, vec![with_speed(who("A", "h", 20, (0, 1)), 3), who("E", "m", 10, (5, 2))]);
    assert_eq!(f.move_to("A", (2, 1)), Err(Rejection::OutOfRange { distance: 4, max: 3 }));
    assert_eq!(f.pos("A"), (0, 1));
    f.move_to("A", (1, 1)).unwrap();
    assert_eq!(f.pos("A"), (1, 1));
    let r = f.0.reachable(f.id("A"), "move");
    assert_eq!(r.get(&g(2, 1)), Some(&2));
    assert_eq!(r.get(&g(3, 1)), None);
}

#[test]
fn walls_and_the_map_edge_cannot_be_entered() {
    let rows = ["....", ".#..", "...."];
    let mut f = on_map(&rows, vec![who("A", "h", 20, (0, 0)), who("E", "m", 10, (3, 2))]);
    assert!(invalid(f.move_to("A", (1, 1))).contains("square (1, 1) is blocked"));
    assert!(invalid(f.move_to("A", (-1, 0))).contains("off the map"));
    assert!(invalid(f.move_to("A", (0, 3))).contains("off the map"));
    assert_eq!(f.move_to("A", (3, 2)), Err(Rejection::Occupied(g(3, 2))));
    f.move_to("A", (2, 1)).unwrap();
    assert_eq!(f.pos("A"), (2, 1));
}

#[test]
fn moving_round_a_wall_costs_the_way_round() {
    let rows = ["......", "..#...", "..#...", "..#...", "......"];
    let specs = |speed| vec![with_speed(who("A", "h", 20, (1, 2)), speed), who("E", "m", 10, (5, 4))];
    let mut f = on_map(&rows, specs(3));
    assert_eq!(f.move_to("A", (3, 2)), Err(Rejection::OutOfRange { distance: 4, max: 3 }));
    let mut f = on_map(&rows, specs(4));
    f.move_to("A", (3, 2)).unwrap();
    assert_eq!(f.pos("A"), (3, 2));
}

#[test]
fn allies_may_be_passed_but_enemies_bar_the_way() {
    let rows = ["#####", ".....", "#####"];
    let mut f = on_map(&rows, vec![who("A", "h", 20, (0, 1)), who("B", "h", 15, (1, 1)), who("E", "m", 10, (4, 1))]);
    f.move_to("A", (2, 1)).unwrap();
    assert_eq!(f.pos("A"), (2, 1), "through the ally's square");
    let mut f = on_map(&rows, vec![who("A", "h", 20, (0, 1)), who("E", "m", 10, (1, 1))]);
    let why = invalid(f.move_to("A", (2, 1)));
    assert!(why.contains("no way to square (2, 1)"), "{why}");
    assert!(f.0.reachable(f.id("A"), "move").is_empty(), "boxed in by the wall and the enemy");
}

#[test]
fn a_step_and_a_disengage_respect_the_map() {
    // pf2e Step: one square; into mud it costs 2, so not at all.
    let rows = [".~..", "....", "...."];
    let specs = vec![pc("A", "h", 20, (0, 0)), pc("E", "m", 10, (3, 2))];
    let mut f = Fight(Combat::with_map(pf2e(), 1, &specs, map(&rows), &[]).unwrap());
    assert_eq!(f.act_to("A", "step", &[], (1, 0), None), Err(Rejection::OutOfRange { distance: 2, max: 1 }));
    f.act_to("A", "step", &[], (0, 1), None).unwrap();
    // homebrew Disengage: one square, not onto a wall.
    let rows = ["....", ".#..", "...."];
    let mut f = on_map(&rows, vec![who("A", "h", 20, (0, 0)), who("E", "m", 10, (1, 0)).with(&["sword"])]);
    assert!(invalid(f.act_to("A", "disengage", &[], (1, 1), None)).contains("blocked"));
    f.act_to("A", "disengage", &[], (0, 1), None).unwrap();
    assert_eq!(f.pos("A"), (0, 1));
}

#[test]
fn set_up_refuses_a_combatant_off_the_map_or_on_a_wall() {
    let m = map(&["...", ".#.", "..."]);
    let e = Combat::with_map(homebrew(), 1, &[who("A", "h", 1, (1, 1)), who("B", "m", 1, (0, 0))], m.clone(), &[])
        .err()
        .unwrap();
    assert_eq!(e.combatant.as_deref(), Some("A"));
    assert!(e.message.contains("blocked"), "{e}");
    let e =
        Combat::with_map(homebrew(), 1, &[who("A", "h", 1, (0, 0)), who("B", "m", 1, (3, 0))], m, &[]).err().unwrap();
    assert_eq!(e.combatant.as_deref(), Some("B"));
    assert!(e.message.contains("off the 3×3 map"), "{e}");
}

// ------------------------------------------------------------------ line of sight in the rules

#[test]
fn a_wall_blocks_a_shot_and_a_spell_but_not_a_clear_line() {
    let rows = [".......", "...#...", "......."];
    let specs = vec![
        who("Archer", "h", 20, (0, 1)).stat("DEX", 2).with(&["bow", "hold_person"]),
        who("Orc", "m", 10, (6, 1)),
        who("Imp", "m", 5, (6, 0)),
    ];
    let mut f = on_map(&rows, specs);
    let before = f.0.state_hash();
    assert_eq!(f.act("Archer", "bow", &["Orc"]), Err(Rejection::InvalidTarget("no line of sight to Orc".into())));
    assert_eq!(
        f.act("Archer", "hold_person", &["Orc"]),
        Err(Rejection::InvalidTarget("no line of sight to Orc".into()))
    );
    assert_eq!(f.0.state_hash(), before, "a rejected shot changes nothing");
    f.act("Archer", "bow", &["Imp"]).unwrap();
    assert!(f.saw(0, "AbilityUsed", "targets: [Imp]"), "{:?}", f.text());
}

#[test]
fn a_held_shot_at_an_enemy_behind_a_wall_is_not_used() {
    // The archer holds a shot for whoever acts; the orc, behind the wall, moves and stays hidden.
    let rows = [".......", "...#...", "......."];
    let specs = vec![
        who("Archer", "h", 20, (0, 1)).stat("DEX", 2).with(&["bow"]),
        who("Orc", "m", 10, (6, 1)),
        who("Ally", "h", 5, (0, 2)),
    ];
    let mut f = on_map(&rows, specs);
    let a = f.id("Archer");
    f.hold(a, "bow", vec![], None, skirmish::rules::components::TriggerOn::AnyAction).unwrap();
    f.end("Archer");
    let m = f.mark();
    f.move_to("Orc", (5, 1)).unwrap();
    assert!(f.saw(m, "ReadyNotUsed", "Archer"), "{:?}", f.since(m));
    assert!(!f.saw(m, "AttackRolled", "attacker: Archer"));
}

// ------------------------------------------------------------------ engagement on a bounded map

#[test]
fn leaving_reach_provokes_on_a_bounded_map() {
    let rows = ["....", "....", "...."];
    let mut f =
        on_map(&rows, vec![who("X", "h", 20, (0, 0)).stat("DEX", 1), who("Y", "m", 10, (1, 0)).with(&["sword"])]);
    let m = f.mark();
    f.move_to("X", (0, 2)).unwrap();
    assert!(f.saw(m, "OpportunityProvoked", "from: Y"));
    assert_eq!(f.pending(), Some(("Y".into(), "Opportunity".into())));
    f.opportunity("Y", None).unwrap();
    assert_eq!(f.pos("X"), (0, 2));
}

#[test]
fn a_flanked_enemy_makes_no_attack_of_opportunity_on_a_bounded_map() {
    // HB-48 on a 3-wide corridor: Y between X and W is flanked.
    let rows = ["#####", ".....", "#####"];
    let mut f = on_map(
        &rows,
        vec![
            who("X", "h", 20, (1, 1)),
            who("Y", "m", 10, (2, 1)).with(&["sword"]),
            who("W", "h", 5, (3, 1)).with(&["sword"]),
        ],
    );
    assert!(f.0.threatened(f.id("X")).is_empty(), "a flanked Y threatens nothing");
    f.move_to("X", (0, 1)).unwrap();
    assert!(f.saw(0, "NoOpportunity", "mover: X, from: Y, reason: Flanked"));
    assert_eq!(f.pos("X"), (0, 1));
}

#[test]
fn threatened_squares_are_the_enemies_reach_until_disengaged() {
    let rows = [".....", ".....", "....#"];
    let mut f = on_map(
        &rows,
        vec![who("X", "h", 20, (0, 0)), who("Y", "m", 10, (3, 1)).with(&["sword"]), who("Z", "m", 5, (0, 2))],
    );
    let x = f.id("X");
    let want: BTreeSet<GridPos> =
        [(2, 0), (3, 0), (4, 0), (2, 1), (4, 1), (2, 2), (3, 2)].into_iter().map(|(x, y)| g(x, y)).collect();
    assert_eq!(f.0.threatened(x), want, "Y's reach on the map, minus the wall; Z has no attack");
    assert!(f.0.threatened(f.id("Y")).is_empty(), "X and its side have no attack either");
    f.move_to("X", (2, 0)).unwrap();
    f.act_to("X", "disengage", &["Y"], (1, 0), None).unwrap();
    assert!(f.0.threatened(x).is_empty(), "disengaged from Y (HB-17)");
}

// ------------------------------------------------------------------ the game's queries

#[test]
fn reachable_lists_exactly_the_moves_the_engine_accepts() {
    let rows = ["........", "..##....", "..#~~...", "..#.....", "........"];
    let mut f = on_map(
        &rows,
        vec![with_speed(who("A", "h", 20, (1, 2)), 4), who("B", "h", 15, (1, 3)), who("E", "m", 10, (1, 1))],
    );
    let a = f.id("A");
    let r = f.0.reachable(a, "move");
    assert!(!r.is_empty());
    for y in -2..8 {
        for x in -2..10 {
            let mut i = ActIntent::new(a, "move", vec![]);
            i.to = Some(g(x, y));
            let ok = f.0.check_act(&i).is_ok();
            assert_eq!(ok, r.contains_key(&g(x, y)), "({x}, {y}): check_act {ok}, reachable {r:?}");
        }
    }
    assert!(f.0.reachable(a, "assist").is_empty(), "not a movement ability");
    assert!(f.0.reachable(f.id("B"), "move").is_empty(), "not B's turn");
    assert!(f.0.reachable(Cid(99), "move").is_empty());
    assert!(f.0.map().blocked.contains(&g(2, 1)));
}

#[test]
fn reachable_lists_exactly_the_moves_the_engine_accepts_for_every_kind_of_move() {
    // Issue 26 (the rules sample): the HUD's reachable squares for a Step were empty (deleting
    // `reachable_now`'s Step arm passed every test). Every movement ability of every ruleset:
    // Move, Disengage, Step, MoveAs.
    let rows = ["........", "..##....", "..#~~...", "..#.....", "........"];
    let moves = [
        (homebrew(), &["move", "disengage"][..]),
        (pf2e(), &["stride", "step"][..]),
        (pf1e(), &["move", "five_foot_step"][..]),
        (segments(), &["shift", "skirmish", "sprint"][..]),
    ];
    for (rs, abilities) in moves {
        let mut a = who("A", "h", 20, (1, 2));
        a.movement = [("shift".to_string(), 1), ("skirmish".to_string(), 3), ("sprint".to_string(), 6)].into();
        if rs.name != "segments" {
            a.movement = [(rs.default_movement_mode.clone(), 4)].into();
        }
        let specs = vec![a, who("B", "h", 15, (1, 3)), who("E", "m", 10, (6, 4))];
        let name = rs.name.clone();
        let mut f = Fight(Combat::with_map(rs, 1, &specs, map(&rows), &[]).expect("valid set-up"));
        let a = f.id("A");
        for &ability in abilities {
            let r = f.0.reachable(a, ability);
            assert!(!r.is_empty(), "{name}: {ability}");
            for y in -2..8 {
                for x in -2..10 {
                    let mut i = ActIntent::new(a, ability, vec![]);
                    i.to = Some(g(x, y));
                    let ok = f.0.check_act(&i).is_ok();
                    assert_eq!(ok, r.contains_key(&g(x, y)), "{name}: {ability} to ({x}, {y}): check_act {ok}, {r:?}");
                }
            }
        }
    }
}

#[test]
fn check_act_changes_nothing_and_agrees_with_submit() {
    let rows = ["........", "..##....", "..#~~...", "..#.....", "........"];
    let specs = vec![
        who("A", "h", 20, (1, 2)).stat("DEX", 2).stat("STR", 1).with(&["bow", "sword"]),
        who("E", "m", 10, (6, 2)).stat("DEX", 1).with(&["sword"]),
        who("F", "m", 5, (1, 4)),
    ];
    let mut f = on_map(&rows, specs);
    let (a, e, fc) = (f.id("A"), f.id("E"), f.id("F"));
    let to = |x, y, who: Cid, ability: &str, targets: Vec<Cid>| {
        let mut i = ActIntent::new(who, ability, targets);
        i.to = Some(g(x, y));
        i
    };
    let intents = vec![
        ActIntent::new(a, "bow", vec![e]),     // behind the wall: no line of sight
        ActIntent::new(a, "sword", vec![e]),   // out of reach
        ActIntent::new(e, "sword", vec![a]),   // not E's turn
        to(2, 2, a, "move", vec![]),           // a wall
        to(1, 4, a, "move", vec![]),           // occupied
        ActIntent::new(a, "bow", vec![fc]),    // a clear shot
        to(4, 0, a, "move", vec![]),           // round the wall's top
        ActIntent::new(a, "nonsense", vec![]), // unknown ability
        ActIntent::new(a, "bow", vec![e]),     // from (4, 0): a clear shot, the last action
        ActIntent::new(a, "bow", vec![e]),     // the turn has passed to E
    ];
    for i in intents {
        let before = f.0.state_hash();
        let log = f.0.log().events.len();
        let dry = f.0.check_act(&i);
        let dry_again = f.0.check_act(&i);
        assert_eq!(f.0.state_hash(), before, "check_act changed the state for {i:?}");
        assert_eq!(f.0.log().events.len(), log);
        assert_eq!(dry, dry_again);
        let real = f.0.submit(Command::Act(i.clone()));
        assert_eq!(dry, real, "dry run and submit disagree on {i:?}");
        // Answer anything the action set off (defence rolls) so the next intent is looked at.
        while let Some((by, _)) = f.pending() {
            f.defend(&by, skirmish::rules::command::DefenseMethod::NoDefense).unwrap();
        }
    }
    assert_eq!(f.pos("A"), (4, 0));
}

#[test]
fn check_act_agrees_with_submit_off_turn_in_pf1e() {
    // An immediate action outside your turn (G-P1-01) goes through the same validation.
    let specs = vec![p1("A", "h", 20, (0, 0)), p1("B", "m", 10, (5, 0)).with(&["feather_fall"])];
    let mut f = Fight(Combat::with_map(pf1e(), 1, &specs, map(&["......", "......"]), &[]).unwrap());
    let i = ActIntent::new(f.id("B"), "feather_fall", vec![]);
    let before = f.0.state_hash();
    let dry = f.0.check_act(&i);
    assert_eq!(f.0.state_hash(), before);
    assert_eq!(dry, f.0.submit(Command::Act(i)));
}
