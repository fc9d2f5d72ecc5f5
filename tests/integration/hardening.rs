//! Hardening: data that parses must not hang, panic, wrap around or read outside the project, and
//! commands that make no sense are rejected with a reason that names creatures.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use skirmish::ai::{self, AiScope};
use skirmish::rules::command::{ActIntent, Command, Decider, GmInput, Rejection};
use skirmish::rules::components::{GridPos, HeldTrigger, TriggerOn};
use skirmish::rules::data::MAX_DATA_BYTES;
use skirmish::rules::driver::Combat;
use skirmish::rules::log::{CombatEvent, DrawReason};
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::state::EngineStatus;
use skirmish::scenario;

use crate::common::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ruleset_text(name: &str) -> String {
    std::fs::read_to_string(root().join(format!("assets/rulesets/{name}.ron"))).unwrap()
}

fn load_ruleset(name: &str) -> Ruleset {
    Ruleset::load(&root().join(format!("assets/rulesets/{name}.ron"))).unwrap()
}

/// Every shipped scenario file.
pub fn shipped_scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// A condition that stops a creature from acting and that nothing ends by itself.
fn cant_act(rs: &Ruleset) -> String {
    rs.conditions
        .iter()
        .find(|c| {
            c.blocks_actions
                && c.id != rs.defeated_condition
                && c.recovery.is_none()
                && c.save_ends.is_none()
                && rs.at_zero_hp.as_ref().is_none_or(|(z, _)| *z != c.id)
        })
        .map(|c| c.id.clone())
        .expect("every shipped ruleset has a can't-act condition")
}

fn drawn(c: &Combat) -> Option<DrawReason> {
    c.log().events.iter().find_map(|e| match e {
        CombatEvent::CombatDrawn { reason, .. } => Some(*reason),
        _ => None,
    })
}

/// Answer whatever the engine waits for with the AI (GM included), a bounded number of times.
fn play_out(c: &mut Combat, commands: usize) {
    ai::play(c, AiScope { gm: true, all_creatures: true }, commands);
}

#[test]
fn every_shipped_scenario_ends_when_nobody_can_act_from_the_start() {
    for f in shipped_scenarios() {
        let ls = scenario::load(&f).unwrap();
        let cond = cant_act(&ls.ruleset);
        let mut specs = ls.scenario.combatants.clone();
        for s in &mut specs {
            s.conditions.push(cond.clone());
        }
        let mut c = Combat::new(ls.ruleset.clone(), 7, &specs).unwrap();
        play_out(&mut c, 50);
        if c.status() != EngineStatus::Ended {
            // A creature that may still try to shake the condition off (the Recovery Action,
            // SG-32) is not stuck: such a fight goes on to the round cap.
            play_out(&mut c, 100_000);
            assert_eq!(drawn(&c), Some(DrawReason::RoundCap(c.ruleset().round_cap)), "{}", f.display());
            continue;
        }
        assert_eq!(drawn(&c), Some(DrawReason::NobodyCanAct), "{}", f.display());
        assert!(c.runs() < 5_000, "{}: {} schedule runs", f.display(), c.runs());
        assert!(c.turn().round <= 3, "{}: ended in round {}", f.display(), c.turn().round);
    }
}

#[test]
fn every_shipped_scenario_ends_when_the_gm_stuns_everyone_mid_combat() {
    for f in shipped_scenarios() {
        let ls = scenario::load(&f).unwrap();
        let cond = cant_act(&ls.ruleset);
        let mut c = Combat::new(ls.ruleset.clone(), 11, &ls.scenario.combatants).unwrap();
        play_out(&mut c, 6);
        if c.status() == EngineStatus::Ended {
            continue;
        }
        for i in 0..c.len() {
            let who = skirmish::rules::components::Cid(i as u32);
            let g = GmInput::ApplyCondition { who, condition: cond.clone(), rounds: None, value: None };
            let _ = c.submit(Command::Gm(g));
        }
        let before = c.runs();
        play_out(&mut c, 100_000);
        assert_eq!(c.status(), EngineStatus::Ended, "{}: {:?}", f.display(), c.status());
        assert!(drawn(&c).is_some(), "{}", f.display());
        assert!(c.runs() - before < 100_000, "{}: {} schedule runs", f.display(), c.runs() - before);
    }
}

#[test]
fn a_stalemate_is_drawn_only_after_a_whole_round_in_which_nobody_could_act() {
    // The GM leaves both creatures unable to act, for good, during the first turn. That round saw
    // something happen (the conditions); the next one goes by with both turns skipped and nothing
    // else, and the draw comes when it is over, not before.
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = load_ruleset(name);
        let cond = cant_act(&rs);
        let specs = vec![who("A", "a", 20, (0, 0)), who("B", "b", 10, (9_000, 0))];
        let mut c = Combat::new(rs, 3, &specs).unwrap();
        for i in 0..2 {
            let id = skirmish::rules::components::Cid(i);
            let g = GmInput::ApplyCondition { who: id, condition: cond.clone(), rounds: None, value: None };
            c.submit(Command::Gm(g)).unwrap();
        }
        play_out(&mut c, 1_000);
        // Each event with the round it came in.
        let mut round = 0;
        let mut seen = Vec::new();
        for e in &c.log().events {
            if let CombatEvent::RoundStarted { round: r, .. } = e {
                round = *r;
            }
            seen.push((round, e.clone()));
        }
        let stunned_in = seen.iter().rev().find(|(_, e)| matches!(e, CombatEvent::ConditionApplied { .. })).unwrap().0;
        assert_eq!(stunned_in, 1, "{name}");
        let quiet: Vec<&CombatEvent> = seen.iter().filter(|(r, _)| *r == 2).map(|(_, e)| e).collect();
        // Round 2: both creatures' turns came round, skipped (every segment's, under segments)
        // or, under pf2e's turn steps, taken with no actions; nothing else happened.
        for id in [0, 1].map(skirmish::rules::components::Cid) {
            assert!(
                quiet.iter().any(|e| matches!(e,
                    CombatEvent::TurnSkipped { who, .. } | CombatEvent::ActionsRegained { who, actions: 0, .. }
                    if *who == id)),
                "{name}: {id:?}'s turn in round 2: {quiet:?}"
            );
        }
        assert!(
            quiet.iter().all(|e| matches!(
                e,
                CombatEvent::RoundStarted { .. }
                    | CombatEvent::TurnSkipped { .. }
                    | CombatEvent::ActionsForfeited { .. }
                    | CombatEvent::TurnStarted { .. }
                    | CombatEvent::TurnStepBegan { .. }
                    | CombatEvent::ActionsRegained { actions: 0, .. }
                    | CombatEvent::TurnEnded { .. }
                    | CombatEvent::RoundEnded { .. }
                    | CombatEvent::CombatDrawn { .. }
                    | CombatEvent::CombatEnded { .. }
            )),
            "{name}: a quiet round 2: {quiet:?}"
        );
        let drawn_in = seen.iter().find_map(|(_, e)| match e {
            CombatEvent::CombatDrawn { reason: DrawReason::NobodyCanAct, round } => Some(*round),
            _ => None,
        });
        assert_eq!(drawn_in, Some(2), "{name}: drawn when the quiet round 2 was over");
        assert_eq!(c.status(), EngineStatus::Ended, "{name}");
    }
}

#[test]
fn persistent_damage_on_creatures_that_cannot_act_keeps_the_fight_from_being_a_stalemate() {
    // pf2e (P2-23): two paralyzed creatures, far apart; one burns. Nobody can act from the start,
    // but the burning creature takes damage and rolls its flat check at the end of each turn: that
    // is the fight moving on (events other than turn bookkeeping count, `CombatEvent::is_bookkeeping`).
    // The draw comes only when a whole round has gone by after the fire went out.
    for seed in [3, 4, 5, 6] {
        let rs = load_ruleset("pf2e");
        let mut burning = who("A", "a", 20, (0, 0));
        burning.hp = 500;
        burning.conditions = vec!["paralyzed".into(), "persistent_fire".into()];
        let mut still = who("B", "b", 10, (9_000, 0));
        still.conditions = vec!["paralyzed".into()];
        let mut c = Combat::new(rs, seed, &[burning, still]).unwrap();
        play_out(&mut c, 1_000);
        let mut round = 0;
        let mut burned_in = Vec::new();
        let mut out_in = None;
        for e in &c.log().events {
            match e {
                CombatEvent::RoundStarted { round: r, .. } => round = *r,
                CombatEvent::Damaged { who, .. } if who.0 == 0 => burned_in.push(round),
                CombatEvent::FlatCheck { success: true, .. } => out_in = Some(round),
                _ => {}
            }
        }
        let out_in = out_in.unwrap_or_else(|| panic!("seed {seed}: the fire never went out"));
        assert_eq!(burned_in, (1..=out_in).collect::<Vec<_>>(), "seed {seed}: burned once a round until it went out");
        assert_eq!(drawn(&c), Some(DrawReason::NobodyCanAct), "seed {seed}");
        let drawn_in = c.log().events.iter().find_map(|e| match e {
            CombatEvent::CombatDrawn { round, .. } => Some(*round),
            _ => None,
        });
        assert_eq!(drawn_in, Some(out_in + 1), "seed {seed}: drawn after the first quiet round, not while burning");
    }
}

#[test]
fn a_creature_the_gm_puts_out_counts_as_fallen_under_every_ruleset() {
    // The defeated condition put on by the GM (or a mod) left the creature counted on its side,
    // on its square: a side the GM had put out did not lose. Now it falls as at 0 HP.
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = load_ruleset(name);
        let out = rs.defeated_condition.clone();
        let specs = vec![who("A", "a", 20, (0, 0)), who("B", "b", 10, (3, 0)), who("C", "b", 5, (4, 0))];
        let mut c = Combat::new(rs, 3, &specs).unwrap();
        let b = skirmish::rules::components::Cid(1);
        let g = GmInput::ApplyCondition { who: b, condition: out.clone(), rounds: None, value: None };
        c.submit(Command::Gm(g.clone())).unwrap();
        assert!(c.log().events.iter().any(|e| matches!(e, CombatEvent::Downed { who } if *who == b)), "{name}");
        assert_ne!(c.status(), EngineStatus::Ended, "{name}: C still stands for side b");
        let occupied = &c.world.resource::<skirmish::rules::state::Roster>().occupied;
        assert!(!occupied.contains_key(&GridPos { x: 3, y: 0 }), "{name}: B's square is free");
        // Put out again: refused, nothing counted twice.
        let before = c.log().events.len();
        assert_eq!(c.submit(Command::Gm(g)), Err(Rejection::InvalidTarget("B is down".into())), "{name}");
        assert_eq!(c.log().events.len(), before, "{name}");
        // The defeated condition lasts: a number of rounds for it is refused.
        let cc = skirmish::rules::components::Cid(2);
        let timed = GmInput::ApplyCondition { who: cc, condition: out.clone(), rounds: Some(2), value: None };
        assert!(matches!(c.submit(Command::Gm(timed)), Err(Rejection::InvalidChoice(_))), "{name}");
        let g = GmInput::ApplyCondition { who: cc, condition: out, rounds: None, value: None };
        c.submit(Command::Gm(g)).unwrap();
        assert_eq!(c.status(), EngineStatus::Ended, "{name}");
        assert_eq!(c.turn().winner.as_deref(), Some("a"), "{name}");
    }
}

#[test]
fn a_creature_the_gm_puts_out_while_initiative_is_being_settled_is_left_out_of_it() {
    // pf2e (G-P2-01): two heroes tie, and the GM orders them. Meanwhile the GM puts one of the
    // two monsters out: nobody is counted yet, so the combat must not end; once the order is
    // settled the monster is left out of it, and the fight goes on against the other.
    let rs = load_ruleset("pf2e");
    let out = rs.defeated_condition.clone();
    let specs = vec![
        who("P1", "heroes", 15, (0, 0)),
        who("P2", "heroes", 15, (0, 2)),
        who("M1", "monsters", 10, (5, 0)),
        who("M2", "monsters", 5, (5, 2)),
    ];
    let mut c = Combat::new(rs, 1, &specs).unwrap();
    let id = skirmish::rules::components::Cid;
    assert!(c.turn().order.is_empty(), "the GM's tie decision is pending");
    let g = GmInput::ApplyCondition { who: id(2), condition: out, rounds: None, value: None };
    c.submit(Command::Gm(g)).unwrap();
    assert_ne!(c.status(), EngineStatus::Ended);
    let tie = Command::Decide { by: Decider::Gm, choice: skirmish::rules::command::Choice::Order(vec![id(1), id(0)]) };
    c.submit(tie).unwrap();
    assert_ne!(c.status(), EngineStatus::Ended);
    assert_eq!(c.turn().alive_by_side.get("monsters"), Some(&1));
    assert_eq!(c.turn().alive_by_side.get("heroes"), Some(&2));
    assert_eq!(c.turn().active, Some(id(1)), "P2 first, as the GM ordered; M1 is out");
}

#[test]
fn a_combat_that_never_ends_by_itself_is_a_draw_at_the_round_cap() {
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let mut rs = load_ruleset(name);
        rs.round_cap = 4;
        // Far apart and unable to reach each other: nobody ever attacks.
        let specs = vec![who("A", "a", 20, (0, 0)), who("B", "b", 10, (9_000, 0))];
        let mut c = Combat::new(rs, 3, &specs).unwrap();
        play_out(&mut c, 10_000);
        assert_eq!(c.status(), EngineStatus::Ended, "{name}");
        assert_eq!(drawn(&c), Some(DrawReason::RoundCap(4)), "{name}");
        assert_eq!(c.turn().round, 4, "{name}");
    }
}

#[test]
fn a_scenario_sets_its_own_round_cap() {
    let text = std::fs::read_to_string(root().join("tests/scenarios/ai-brawl.ron")).unwrap();
    let text = text.replacen("combatants:", "max_rounds: 1,\n    combatants:", 1);
    let ls = scenario::load_str(&root().join("tests/scenarios/capped.ron"), &text).unwrap();
    assert_eq!(ls.ruleset.round_cap, 1);
    let bad = text.replace("max_rounds: 1,", "max_rounds: 0,");
    let e = scenario::load_str(&root().join("tests/scenarios/capped.ron"), &bad).unwrap_err();
    assert!(e.message.starts_with("max_rounds: "), "{e}");
}

/// Replace `from` (which must occur) in a shipped ruleset, load it, and return the error.
fn ruleset_error(name: &str, from: &str, to: &str) -> skirmish::rules::data::DataError {
    let text = ruleset_text(name);
    assert!(text.contains(from), "{name} has no `{from}`");
    let bad = text.replacen(from, to, 1);
    let e = Ruleset::from_ron_str("bad.ron", &bad).expect_err(to);
    let line = bad[..bad.find(to).unwrap()].matches('\n').count() + 1;
    assert_eq!(e.line, line, "{e}");
    e
}

#[test]
fn out_of_range_numbers_in_a_ruleset_are_load_errors_naming_the_field() {
    let e = ruleset_error("homebrew-d20", "damage: \"1d8+STR\"", "damage: \"1d3000000000\"");
    assert!(e.message.contains("abilities[") && e.message.contains("damage"), "{e}");
    let e = ruleset_error("homebrew-d20", "damage: \"1d8+STR\"", "damage: \"100d2147483647+2147483647\"");
    assert!(e.message.contains("out of range"), "{e}");
    let e = ruleset_error("homebrew-d20", "melee_reach: 1", "melee_reach: 100000");
    assert!(e.message.starts_with("engagement.melee_reach: "), "{e}");
    let e = ruleset_error("pf2e", "PerTurnPool(actions: 3", "PerTurnPool(actions: 0");
    assert!(e.message.starts_with("budget.PerTurnPool.actions: ") || e.message.contains("actions"), "{e}");
    let e = ruleset_error("pf2e", "regain_bonus: 1", "regain_bonus: 255");
    assert!(e.message.contains("regain_bonus") && e.message.contains("out of range"), "{e}");
    let e = ruleset_error("segments", "recovery: Some(3)", "recovery: Some(4294967295)");
    assert!(e.message.contains("recovery"), "{e}");
    let e = ruleset_error("segments", "segments_per_round: 10", "segments_per_round: 0");
    assert!(e.message.contains("segments_per_round"), "{e}");
    let e = ruleset_error("homebrew-d20", "PerParticipant(10)", "PerParticipant(4294967295)");
    assert!(e.message.contains("round_length"), "{e}");
}

#[test]
fn out_of_range_numbers_in_a_scenario_are_load_errors_naming_the_field() {
    let path = root().join("tests/scenarios/ai-brawl.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    for (from, to, field) in [
        ("AiPlay(2000)", "AiPlay(4294967295)", "steps[0]"),
        ("\"STR\": 3, \"DEX\": 1}", "\"STR\": 2147483647, \"DEX\": 1}", "combatants[0].stats"),
        ("hp: 24", "hp: 0", "combatants[0].hp"),
        ("at: (0, 0)", "at: (2147483647, 0)", "combatants[0].at"),
    ] {
        let bad = text.replacen(from, to, 1);
        let e = scenario::load_str(&path, &bad).expect_err(to);
        assert!(e.message.starts_with(field), "{to}: {e}");
        assert!(e.line > 1 && e.col > 1, "{e}");
    }
}

#[test]
fn maps_in_a_scenario_hold_at_most_100_entries() {
    // Exactly 100 loads; 101 is an error naming the field (found by cargo-mutants: the bounds of
    // `stats` and `loadouts` were only tried far away from 100).
    let path = root().join("tests/scenarios/ai-brawl.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let stats = |n: usize| (0..n).map(|i| format!("\"S{i}\": 1")).collect::<Vec<_>>().join(", ");
    let loadouts = |n: usize| (0..n).map(|i| format!("\"r{i}\": [\"sword\"]")).collect::<Vec<_>>().join(", ");
    for (n, ok) in [(100, true), (101, false)] {
        let with_stats = text.replacen("{\"STR\": 3, \"DEX\": 1}", &format!("{{{}}}", stats(n)), 1);
        let with_loadouts = text.replacen("hp: 24,", &format!("hp: 24, loadouts: {{{}}},", loadouts(n)), 1);
        for (field, bad) in [("combatants[0].stats", with_stats), ("combatants[0].loadouts", with_loadouts)] {
            match scenario::load_str(&path, &bad) {
                Ok(_) => assert!(ok, "{field}: {n} entries loaded"),
                Err(e) => {
                    assert!(!ok, "{field}: {n} entries refused: {e}");
                    assert!(e.message.starts_with(field) && e.message.contains("101 entries: at most 100"), "{e}");
                }
            }
        }
    }
}

#[test]
fn syntax_errors_name_the_field_path() {
    let path = root().join("tests/scenarios/ai-brawl.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // A word where a number belongs, an integer too large for its field, a missing comma.
    let bad = text.replacen("\"DEX\": 1}", "\"DEX\": x}", 1);
    let e = scenario::load_str(&path, &bad).unwrap_err();
    assert!(e.message.starts_with("combatants[0].stats"), "{e}");
    let bad = text.replacen("AiPlay(2000)", "AiPlay(99999999999)", 1);
    let e = scenario::load_str(&path, &bad).unwrap_err();
    assert!(e.message.starts_with("steps[0]"), "{e}");
    let rs = ruleset_text("pf1e");
    let bad = rs.replacen("melee_reach: 1,", "melee_reach: 1", 1);
    assert_ne!(bad, rs, "pf1e.ron no longer has `melee_reach: 1,` to take the comma from");
    let Err(e) = Ruleset::from_ron_str("bad.ron", &bad) else {
        panic!("a missing comma after `melee_reach: 1` in pf1e.ron was accepted");
    };
    assert!(e.message.starts_with("engagement"), "{e}");
}

#[test]
fn integer_arithmetic_never_wraps_around() {
    let far = GridPos { x: i32::MAX, y: 0 }.distance(GridPos { x: i32::MIN, y: 0 });
    assert_eq!(far, u32::MAX);
    // A move to the far side of the number line is out of range, not one square away.
    let mut f = Fight::new(vec![who("A", "a", 20, (10_000, 0)), who("B", "b", 10, (0, 5))]);
    let mut i = ActIntent::new(f.id("A"), "move", vec![]);
    i.to = Some(GridPos { x: i32::MIN, y: 0 });
    match f.0.submit(Command::Act(i)) {
        Err(Rejection::OutOfRange { distance, .. }) => assert!(distance > 1_000_000_000),
        other => panic!("{other:?}"),
    }
    // Dice sums saturate even when a forced result is absurd.
    let mut d = skirmish::rules::dice::Dice::seeded(1);
    d.force([i32::MAX, i32::MAX]);
    let e = skirmish::rules::dice::DiceExpr::parse("2d6+5").unwrap();
    assert_eq!(d.roll_expr(&e, |_| 0), i32::MAX);
    // A GM condition value out of range is refused.
    let r = f.gm(GmInput::ApplyCondition {
        who: f.id("B"),
        condition: "stunned".into(),
        rounds: Some(u32::MAX),
        value: None,
    });
    assert!(matches!(r, Err(Rejection::InvalidChoice(_))), "{r:?}");
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = crate::common::tmp_root().join(format!("skirmish-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn brawl_with_ruleset(ruleset: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests/scenarios/ai-brawl.ron")).unwrap();
    text.replacen("\"homebrew-d20\"", &format!("{ruleset:?}"), 1)
}

#[test]
fn a_ruleset_path_cannot_leave_the_scenario_folder_or_assets() {
    let outside = temp_dir("outside");
    std::fs::write(outside.join("secret.ron"), ruleset_text("homebrew-d20")).unwrap();
    let dir = temp_dir("paths");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.ron"), dir.join("link.ron")).unwrap();
    std::fs::write(dir.join("sub/inside.ron"), ruleset_text("homebrew-d20")).unwrap();
    let abs = outside.join("secret.ron").display().to_string();
    for (name, why) in [
        (abs.as_str(), "relative path"),
        ("../skirmish-outside/secret.ron", "without `..`"),
        ("link.ron", "outside the allowed folders"),
    ] {
        let f = dir.join("s.ron");
        std::fs::write(&f, brawl_with_ruleset(name)).unwrap();
        let e = scenario::load(&f).expect_err(name);
        assert!(e.message.contains(why), "{name}: {e}");
        assert!(e.message.starts_with("ruleset: "), "{e}");
        // The error shows the value as written, never a resolved path outside the roots.
        assert!(!e.message.contains(&outside.canonicalize().unwrap().display().to_string()) || name == abs, "{e}");
    }
    let f = dir.join("s.ron");
    std::fs::write(&f, brawl_with_ruleset("sub/inside.ron")).unwrap();
    scenario::load(&f).expect("a ruleset in the scenario's own folder tree loads");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn only_regular_files_of_bounded_size_are_read() {
    let dir = temp_dir("files");
    let fifo = dir.join("fifo.ron");
    let made = Process::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    if made {
        let e = scenario::load(&fifo).unwrap_err();
        assert!(e.message.contains("not a regular file"), "{e}");
    }
    let e = scenario::load(Path::new("/dev/zero")).unwrap_err();
    assert!(e.message.contains("not a regular file"), "{e}");
    let big = dir.join("big.ron");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_DATA_BYTES + 1).unwrap();
    let e = scenario::load(&big).unwrap_err();
    assert!(e.message.contains("larger than"), "{e}");
    // Exactly at the cap is read (and then fails as the bad text it is), not refused as too big
    // (found by cargo-mutants: `>` read as `==` survived).
    let edge = dir.join("edge.ron");
    std::fs::File::create(&edge).unwrap().set_len(MAX_DATA_BYTES).unwrap();
    let e = scenario::load(&edge).unwrap_err();
    assert!(!e.message.contains("larger than"), "{e}");
    // A ruleset named by a scenario goes through the same reader.
    std::fs::write(dir.join("s.ron"), brawl_with_ruleset("big.ron")).unwrap();
    let e = scenario::load(&dir.join("s.ron")).unwrap_err();
    assert!(e.message.contains("larger than"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_check_command_reports_a_fifo_and_dev_zero_without_blocking() {
    use crate::hardening_sim::{cli_within, mkfifo};
    let dir = crate::common::tmp_root().join(format!("skirmish-check-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A FIFO nobody writes to: opening it to read would wait forever.
    let fifo = dir.join("scenario.ron");
    mkfifo(&fifo);
    for file in [fifo.to_str().unwrap(), "/dev/zero"] {
        let out = cli_within(&["check", file], std::time::Duration::from_secs(20));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(stderr.contains(file) && stderr.contains("not a regular file"), "{file}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duplicate_targets_are_rejected_in_every_ruleset() {
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = load_ruleset(name);
        // Any ability that takes several targets.
        let Some(a) = rs.abilities.iter().find(|a| {
            matches!(
                a.effect,
                skirmish::rules::ruleset::Effect::Damage { .. }
                    | skirmish::rules::ruleset::Effect::TargetCondition { .. }
                    | skirmish::rules::ruleset::Effect::Save { .. }
            ) && a.timing == skirmish::rules::ruleset::Timing::Action
                && a.trigger.is_none()
        }) else {
            continue;
        };
        let id = a.id.clone();
        let mut f =
            Fight::with_ruleset(rs, vec![who("A", "a", 20, (0, 0)).with(&[&id]), who("B", "b", 10, (1, 0)).hp(500)]);
        let hash = f.0.state_hash();
        let r = f.act("A", &id, &["B", "B", "B"]);
        assert_eq!(r, Err(Rejection::InvalidTarget("B is named twice".into())), "{name}: {id}");
        assert_eq!(f.0.state_hash(), hash, "{name}: a rejection changes nothing");
    }
}

#[test]
fn a_move_to_your_own_square_is_rejected_and_costs_nothing() {
    for name in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = load_ruleset(name);
        use skirmish::rules::ruleset::Effect;
        let def = rs
            .abilities
            .iter()
            .find(|a| matches!(a.effect, Effect::Move))
            .or_else(|| rs.abilities.iter().find(|a| matches!(a.effect, Effect::MoveAs { .. })))
            .unwrap();
        let mv = def.id.clone();
        let mut a = who("A", "a", 20, (0, 0)).with(&[&mv]);
        if let Effect::MoveAs { mode } = &def.effect {
            a.movement.insert(mode.clone(), 6);
        }
        let mut f = Fight::with_ruleset(rs, vec![a, who("B", "b", 10, (1, 0))]);
        let hash = f.0.state_hash();
        let r = f.act_to("A", &mv, &[], (0, 0), None);
        assert!(matches!(&r, Err(Rejection::InvalidTarget(m)) if m.contains("already on")), "{name}: {r:?}");
        assert_eq!(f.0.state_hash(), hash, "{name}");
    }
}

#[test]
fn a_hold_triggered_by_its_own_holder_is_rejected() {
    let mut f = Fight::new(vec![who("A", "a", 20, (0, 0)).with(&["sword"]), who("B", "b", 10, (1, 0))]);
    let a = f.id("A");
    let r = f.0.submit(Command::Hold {
        actor: a,
        ability: "sword".into(),
        targets: vec![f.id("B")],
        trigger: HeldTrigger { by: Some(a), on: TriggerOn::default() },
    });
    assert!(matches!(&r, Err(Rejection::InvalidTarget(m)) if m.contains("own")), "{r:?}");
}

#[test]
fn gm_inputs_on_a_downed_creature_are_rejected() {
    let mut f = Fight::new(vec![who("A", "a", 20, (0, 0)), who("B", "b", 10, (5, 0)), who("C", "b", 5, (6, 0))]);
    f.gm(GmInput::ApplyCondition { who: f.id("B"), condition: "down".into(), rounds: None, value: None }).unwrap();
    let b = f.id("B");
    let hash = f.0.state_hash();
    for g in [
        GmInput::ApplyCondition { who: b, condition: "stunned".into(), rounds: None, value: None },
        GmInput::Interrupt { who: b },
        GmInput::PermanentWound { who: b },
    ] {
        assert_eq!(f.gm(g), Err(Rejection::InvalidTarget("B is down".into())));
    }
    assert_eq!(f.0.state_hash(), hash);
}

#[test]
fn rejection_messages_name_creatures_not_ids() {
    let mut f = Fight::new(vec![who("Knight", "a", 20, (0, 0)), who("Orc", "b", 10, (5, 0))]);
    let r = f.0.submit(Command::EndTurn { actor: f.id("Orc") }).unwrap_err();
    assert_eq!(f.0.explain(&r), "Orc cannot act: it is Knight's turn");
    let r = Rejection::AwaitingDecision { by: Decider::Creature(f.id("Orc")) };
    assert_eq!(f.0.explain(&r), "a decision by Orc is pending");
    let r = Rejection::WrongDecider { expected: Decider::Gm };
    assert_eq!(f.0.explain(&r), "this decision belongs to the GM");
}

#[test]
fn a_closed_stdout_pipe_ends_the_cli_quietly() {
    // The reading end is closed before the program starts, so its first write to stdout meets a
    // closed pipe every time (no race with a pipe buffer that could take the whole output). A
    // closed pipe is the reader saying "enough" (`| head`): the program stops at once, exit code
    // 0, and says nothing. Each command prints through a different writer: `scenarios` through
    // the CLI's line writer, `sim --replay-run` and the statistics table through the simulator's.
    let bench = root().join("assets/encounters/bench-4v4.ron");
    let bench = bench.to_str().unwrap();
    for args in [
        vec!["scenarios"],
        vec!["sim", bench, "--ruleset", "pf2e", "--runs", "1", "--replay-run", "0"],
        vec!["sim", bench, "--ruleset", "pf2e", "--runs", "2"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Process::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(&args)
            .current_dir(root())
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn a_negative_condition_value_never_adds_actions() {
    // Found by the fuzzer: slowed -77 from a GM input made the regain add 77 actions.
    let mut f = Fight::with_ruleset(load_ruleset("pf2e"), vec![who("A", "a", 20, (0, 0)), who("B", "b", 10, (9, 0))]);
    let a = f.id("A");
    f.gm(GmInput::ApplyCondition { who: a, condition: "slowed".into(), rounds: None, value: Some(-77) }).unwrap();
    f.end("A");
    f.end("B");
    assert_eq!(f.active().as_deref(), Some("A"));
    let pool = f.0.get::<skirmish::rules::components::ActionPool>(a).unwrap().clone();
    assert!(pool.available() <= 3, "{pool:?}");
    assert_eq!(pool.restricted_left, 0, "{pool:?}");
}

#[test]
fn a_creature_free_to_act_keeps_the_fight_going_however_long_its_wait() {
    // Review finding: a knight that Delays (or whose next turn is more than a round away) against
    // a paralyzed statue must not make the fight a stalemate: it can still come back and win.
    let mut statue = sg("Statue", "b", 5, (3, 0));
    statue.conditions.push("paralyzed".into());
    let mut f = Fight::segments(vec![sg("Knight", "a", 20, (0, 0)).with(&["longsword"]), statue]);
    let knight = f.id("Knight");
    f.0.submit(Command::Delay { actor: knight }).unwrap();
    assert!(drawn(&f.0).is_none(), "{:?}", f.0.log().events.last());
    assert_ne!(f.0.status(), EngineStatus::Ended);
    f.0.submit(Command::ReturnFromDelay { actor: knight }).unwrap();
    assert_eq!(f.0.status(), EngineStatus::AwaitingCommand(knight));
    // A long wait between turns (the Sprint's recovery over a two-segment round) is no stalemate
    // either.
    let mut rs = load_ruleset("segments");
    rs.turn_model = skirmish::rules::ruleset::TurnModel::RecoveryTime { segments_per_round: 2 };
    let mut statue = sg("Statue", "b", 5, (9, 0));
    statue.conditions.push("paralyzed".into());
    let mut f = Fight::with_ruleset(rs, vec![sg("Knight", "a", 20, (0, 0)).with(&["longsword"]), statue]);
    f.act_to("Knight", "sprint", &[], (6, 0), None).unwrap();
    assert!(drawn(&f.0).is_none(), "{:?}", f.0.log().events);
    assert_eq!(f.0.status(), EngineStatus::AwaitingCommand(f.id("Knight")));
}

#[test]
fn a_hold_waiting_on_an_ally_or_a_downed_creature_is_rejected() {
    let mut f = Fight::new(vec![
        who("A", "a", 20, (0, 0)).with(&["sword"]),
        who("F", "a", 15, (0, 1)),
        who("B", "b", 10, (1, 0)),
    ]);
    let (a, ally) = (f.id("A"), f.id("F"));
    let r = f.0.submit(Command::Hold {
        actor: a,
        ability: "sword".into(),
        targets: vec![f.id("B")],
        trigger: HeldTrigger { by: Some(ally), on: TriggerOn::default() },
    });
    assert!(matches!(&r, Err(Rejection::InvalidTarget(m)) if m.contains("F is not a standing enemy")), "{r:?}");
    // The second branch of the check: an enemy, but a downed one, can never trigger the hold.
    let mut f = Fight::new(vec![
        who("A", "a", 20, (0, 0)).with(&["sword"]),
        who("B", "b", 10, (1, 0)),
        who("D", "b", 10, (0, 1)),
    ]);
    let (a, downed) = (f.id("A"), f.id("D"));
    f.gm(GmInput::ApplyCondition { who: downed, condition: "down".into(), rounds: None, value: None }).unwrap();
    let hash = f.0.state_hash();
    let r = f.0.submit(Command::Hold {
        actor: a,
        ability: "sword".into(),
        targets: vec![f.id("B")],
        trigger: HeldTrigger { by: Some(downed), on: TriggerOn::default() },
    });
    assert!(matches!(&r, Err(Rejection::InvalidTarget(m)) if m.contains("D is not a standing enemy")), "{r:?}");
    assert_eq!(f.0.state_hash(), hash, "a refused hold changes nothing");
}

#[test]
fn a_ruleset_name_cannot_lead_out_through_a_symlink() {
    let outside = temp_dir("outside-name");
    std::fs::write(outside.join("secret.ron"), ruleset_text("homebrew-d20")).unwrap();
    let dir = temp_dir("names");
    std::fs::create_dir_all(dir.join("assets/rulesets")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.ron"), dir.join("assets/rulesets/evil.ron")).unwrap();
    let f = dir.join("s.ron");
    std::fs::write(&f, brawl_with_ruleset("evil")).unwrap();
    let e = scenario::load(&f).unwrap_err();
    assert!(e.message.contains("outside the allowed folders"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn a_dying_creature_healed_above_zero_stands_again_and_a_second_fall_counts_it_out_once() {
    // pf2e with the regeneration mod: a troll knocked to 0 hit points is dying and counted out of
    // its side; at its next turn it regenerates 3. It had stayed dying with 3 hit points, uncounted,
    // and falling again counted it out a second time: its side lost with the goblin still standing.
    use skirmish::modding::ModList;
    use skirmish::modding::builtin::RegenerationMod;
    use skirmish::rules::components::{Conditions, Health};
    use skirmish::rules::log::EndReason;
    use skirmish::rules::map::BattleMap;
    let specs = vec![
        who("Knight", "heroes", 20, (0, 0)),
        who("Troll", "monsters", 15, (1, 0)).stat("AC", 10).stat("regeneration", 3).hp(5),
        who("Goblin", "monsters", 5, (6, 0)),
    ];
    let mods = ModList::new().with(RegenerationMod);
    let mut c = Combat::with_mods(load_ruleset("pf2e"), 1, &specs, BattleMap::default(), &[], &mods).unwrap();
    let (knight, troll, goblin) = (c.cid("Knight").unwrap(), c.cid("Troll").unwrap(), c.cid("Goblin").unwrap());
    let dying = |c: &Combat| c.get::<Conditions>(troll).is_some_and(|k| k.has("dying"));
    let monsters = |c: &Combat| c.turn().alive_by_side.get("monsters").copied();
    // 15 hits AC 10 (no critical), 5 damage: exactly 0 hit points.
    c.force_dice([15, 5]);
    c.submit(Command::Act(ActIntent::new(knight, "strike", vec![troll]))).unwrap();
    assert_eq!(c.get::<Health>(troll).unwrap().hp, 0);
    assert!(dying(&c));
    assert_eq!(monsters(&c), Some(1), "dying: counted out");
    c.submit(Command::EndTurn { actor: knight }).unwrap();
    // The troll's turn: regenerated to 3 before its recovery check, so dying ends and it acts.
    assert_eq!(c.get::<Health>(troll).unwrap().hp, 3);
    assert!(
        !dying(&c),
        "healed above 0, it is no longer dying: {:?}",
        c.log().events.iter().rev().take(8).collect::<Vec<_>>()
    );
    assert!(c.log().events.iter().any(|e| matches!(
        e,
        CombatEvent::ConditionEnded { who, condition, reason: EndReason::Healed } if *who == troll && condition == "dying"
    )));
    assert_eq!(monsters(&c), Some(2), "standing again: counted for its side");
    assert_eq!(c.turn().active, Some(troll), "its turn, with actions to spend");
    c.submit(Command::EndTurn { actor: troll }).unwrap();
    c.submit(Command::EndTurn { actor: goblin }).unwrap();
    // Down again (3 hit points, 5 damage): counted out once, and the goblin fights on.
    c.force_dice([15, 5]);
    c.submit(Command::Act(ActIntent::new(knight, "strike", vec![troll]))).unwrap();
    assert!(dying(&c));
    assert_eq!(monsters(&c), Some(1));
    assert_ne!(c.status(), EngineStatus::Ended, "the goblin still stands");
}

#[test]
fn a_heal_that_restores_nothing_leaves_a_dying_creature_dying() {
    // pf2e: dying put on by the GM on a creature at full hit points, then a Heal that can restore
    // nothing (the maximum caps it). No hit point regained: dying stays (found by a review of the
    // healed-while-dying fix, which ended it on any heal).
    use skirmish::rules::components::{Conditions, Health};
    let specs = vec![
        who("Cleric", "heroes", 20, (0, 0)).with(&["heal"]),
        who("Fighter", "heroes", 1, (1, 0)),
        who("Orc", "monsters", 5, (6, 0)),
    ];
    // The Fighter acts last: its recovery check waits until after the Orc's turn.
    let mut c = Combat::new(load_ruleset("pf2e"), 1, &specs).unwrap();
    let (cleric, fighter) = (c.cid("Cleric").unwrap(), c.cid("Fighter").unwrap());
    let g = GmInput::ApplyCondition { who: fighter, condition: "dying".into(), rounds: None, value: Some(2) };
    c.submit(Command::Gm(g)).unwrap();
    let full = c.get::<Health>(fighter).unwrap().max;
    c.submit(Command::Act(ActIntent::new(cleric, "heal", vec![fighter]))).unwrap();
    assert!(c.log().events.iter().any(|e| matches!(e, CombatEvent::Healed { who, .. } if *who == fighter)));
    assert_eq!(c.get::<Health>(fighter).unwrap().hp, full);
    assert!(c.get::<Conditions>(fighter).is_some_and(|k| k.has("dying")), "nothing regained: still dying");
    assert_eq!(c.turn().alive_by_side.get("heroes"), Some(&2));
}
