//! The interaction defaults that cross rules (G-X-01..G-X-04, docs/rules.md): one test per ID and
//! ruleset it applies to.

use skirmish::rules::command::{Command, GmInput};
use skirmish::rules::components::{HeldActions, TriggerOn};
use skirmish::rules::ruleset::Ruleset;

use crate::common::*;

/// How many held actions a creature has.
fn held(f: &Fight, who: &str) -> usize {
    f.0.get::<HeldActions>(f.id(who)).unwrap().0.len()
}

/// How many logged events since `mark` start with `kind` and contain `has`.
fn count(f: &Fight, mark: usize, kind: &str, has: &str) -> usize {
    f.since(mark).iter().filter(|e| e.starts_with(kind) && e.contains(has)).count()
}

// ---------------------------------------------------------------- G-X-01

#[test]
fn g_x_01_a_mover_downed_by_an_attack_of_opportunity_stops_and_loses_its_actions() {
    // homebrew-d20: X (DEX 0, so no Dodge) withdraws from Y, Z and V, who attack in that order.
    let mut f = Fight::new(vec![
        who("X", "heroes", 20, (0, 0)).hp(8),
        who("W", "heroes", 15, (9, 9)),
        who("Y", "monsters", 10, (1, 0)).stat("STR", 1).with(&["sword"]),
        who("Z", "monsters", 5, (0, 1)).stat("STR", 1).with(&["sword"]),
        who("V", "monsters", 3, (-1, 0)).stat("STR", 1).with(&["sword"]),
    ]);
    let m = f.mark();
    f.move_to("X", (3, -3)).unwrap();
    f.force(&[10, 2]);
    f.opportunity("Y", Some("sword")).unwrap();
    assert_eq!(f.hp("X"), 5);
    // Still able to act, X goes on: the next reaction comes.
    assert_eq!(f.pending(), Some(("Z".into(), "Opportunity".into())));
    f.force(&[10, 5]);
    f.opportunity("Z", Some("sword")).unwrap();
    assert!(f.has("X", "down"));
    // Downed before leaving: X stays on its square, and V's reaction does not happen.
    assert_eq!(f.pos("X"), (0, 0));
    assert!(!f.saw(m, "Moved", "who: X"), "{:?}", f.since(m));
    assert!(!f.saw(m, "AbilityUsed", "who: V"));
    // Its turn ends at once; the two unspent actions are lost now, not at the round's end.
    let lost = f.find(m, "ActionsForfeited", "who: X, count: 2").expect("actions lost at once");
    let ended = f.find(m, "TurnEnded", "who: X").unwrap();
    assert!(lost < ended);
    assert_eq!(f.actions("X"), 0);
    assert_eq!(f.active().as_deref(), Some("W"));
    assert_eq!(f.pending(), None);
    assert!(f.saw(m, "MoveStopped", "who: X"), "{:?}", f.since(m));
}

#[test]
fn g_x_01_a_mover_a_held_action_leaves_unable_to_act_stays_put_and_its_turn_ends() {
    // homebrew-d20: A holds Hold Person and B a sword, both for when E moves.
    let mut f = Fight::new(vec![
        who("A", "heroes", 20, (0, 0)).with(&["hold_person"]),
        who("B", "heroes", 15, (4, 1)).stat("STR", 1).with(&["sword"]),
        who("E", "monsters", 10, (5, 5)),
        who("F", "monsters", 5, (9, 0)),
    ]);
    let (a, b, e) = (f.id("A"), f.id("B"), f.id("E"));
    f.hold(a, "hold_person", vec![e], Some(e), TriggerOn::Moves).unwrap();
    f.end("A");
    f.hold(b, "sword", vec![], Some(e), TriggerOn::Moves).unwrap();
    f.end("B");
    let m = f.mark();
    f.force(&[1]); // E fails the save
    f.move_to("E", (4, 2)).unwrap();
    assert!(f.has("E", "stunned"));
    assert!(f.saw(m, "HeldActionTriggered", "who: A"));
    // The move stops where the reaction resolved, before E left its square.
    assert_eq!(f.pos("E"), (5, 5));
    assert!(!f.saw(m, "Moved", "who: E"), "{:?}", f.since(m));
    // B's held attack, also set off by the move, does not happen: B still holds it.
    assert!(!f.saw(m, "HeldActionTriggered", "who: B"), "{:?}", f.since(m));
    assert!(!f.saw(m, "AttackRolled", "attacker: B"));
    assert_eq!(held(&f, "B"), 1);
    // E's turn ends at once and its two unspent actions are lost then (G-HB-04 overridden).
    let lost = f.find(m, "ActionsForfeited", "who: E, count: 2").expect("actions lost at once");
    let ended = f.find(m, "TurnEnded", "who: E").unwrap();
    assert!(lost < ended, "{:?}", f.since(m));
    assert_eq!(count(&f, m, "ActionsForfeited", "who: E"), 1);
    assert_eq!(f.active().as_deref(), Some("F"));
    assert!(f.saw(m, "MoveStopped", "who: E"), "the log says why it did not move");
}

#[test]
fn g_x_01_a_mover_dying_from_reactive_strike_stops_and_loses_its_actions() {
    // pf2e: A Strides out of B's and C's reach; B's Reactive Strike takes it to 0 HP (dying: it
    // can't act, though it is not out of the fight).
    let mut f = Fight::pf2e(vec![
        pc("A", "heroes", 20, (0, 0)).hp(5),
        pc("D", "heroes", 15, (9, 9)),
        pc("B", "monsters", 10, (1, 0)).stat("STR", 3).with(&["reactive_strike"]),
        pc("C", "monsters", 5, (0, 1)).stat("STR", 3).with(&["reactive_strike"]),
    ]);
    let m = f.mark();
    f.act_to("A", "stride", &[], (-3, -3), None).unwrap();
    assert_eq!(f.pending(), Some(("B".into(), "Opportunity".into())));
    f.force(&[15, 5]);
    f.opportunity("B", Some("reactive_strike")).unwrap();
    assert_eq!(f.value("A", "dying"), Some(1));
    assert_eq!(f.pos("A"), (0, 0), "the dying creature does not finish its Stride");
    assert!(!f.saw(m, "Moved", "who: A"), "{:?}", f.since(m));
    // C's Reactive Strike does not happen: no decision, and C keeps its reaction.
    assert_eq!(f.pending(), None, "C is not asked");
    assert!(!f.saw(m, "AbilityUsed", "who: C"));
    assert_eq!(f.reactions("C"), 1);
    // The Stride stays paid; the other two actions are lost at once and the turn ends.
    let lost = f.find(m, "ActionsForfeited", "who: A, count: 2").expect("actions lost at once");
    let ended = f.find(m, "TurnEnded", "who: A").unwrap();
    assert!(lost < ended);
    assert_eq!(f.active().as_deref(), Some("D"));
    assert!(f.saw(m, "MoveStopped", "who: A"), "the log says why it did not move");
}

/// A mover the GM leaves unable to act while an enemy decides on its Reactive Strike stops when
/// the move resumes, and its unspent actions are lost then, before its turn ends (issue 26: with
/// the rules schedule's `may_end_turn` `&&` → `||`, the turn's end was queued while the decision
/// was pending, so the move stopped on a turn already ending and nothing was forfeited).
#[test]
fn g_x_01_a_mover_the_gm_paralyses_during_a_reaction_decision_stops_and_loses_its_actions() {
    let mut f = Fight::pf2e(vec![
        pc("A", "heroes", 20, (0, 0)),
        pc("D", "heroes", 15, (9, 9)),
        pc("B", "monsters", 10, (1, 0)).stat("STR", 3).with(&["reactive_strike"]),
    ]);
    let m = f.mark();
    f.act_to("A", "stride", &[], (-3, -3), None).unwrap();
    assert_eq!(f.pending(), Some(("B".into(), "Opportunity".into())));
    f.put("A", "paralyzed", None, None);
    assert!(!f.saw(m, "TurnEnded", "who: A"), "the decision is still pending: {:?}", f.since(m));
    f.opportunity("B", None).unwrap();
    assert_eq!(f.pos("A"), (0, 0));
    assert!(f.saw(m, "MoveStopped", "who: A"), "{:?}", f.since(m));
    let lost = f.find(m, "ActionsForfeited", "who: A, count: 2").expect("actions lost at once");
    let ended = f.find(m, "TurnEnded", "who: A").unwrap();
    assert!(lost < ended, "{:?}", f.since(m));
    assert_eq!(f.active().as_deref(), Some("D"));
}

#[test]
fn g_x_01_a_charger_downed_by_an_attack_of_opportunity_makes_no_attack() {
    // pf1e: M charges T, leaving G's reach; G's attack of opportunity downs M before it leaves,
    // and the charge's attack does not happen either.
    let mut f = Fight::pf1e(vec![
        p1("G", "monsters", 25, (1, 0)).stat("MELEE", 1),
        p1("M", "heroes", 20, (0, 0)).hp(1).with(&["charge"]),
        p1("T", "monsters", 15, (-4, 0)),
        p1("H", "heroes", 10, (9, 9)),
    ]);
    f.end("G");
    let m = f.mark();
    f.act_to("M", "charge", &["T"], (-3, 0), None).unwrap();
    assert_eq!(f.pending(), Some(("G".into(), "Opportunity".into())), "{:?}", f.since(m));
    f.force(&[15, 4]);
    f.opportunity("G", Some("melee_attack")).unwrap();
    assert!(f.has("M", "down"));
    assert_eq!(f.pos("M"), (0, 0));
    assert!(!f.saw(m, "AttackRolled", "attacker: M"), "{:?}", f.since(m));
    assert!(f.saw(m, "MoveStopped", "who: M"), "{:?}", f.since(m));
}

#[test]
fn g_x_01_a_mover_downed_by_an_attack_of_opportunity_loses_its_typed_actions() {
    // pf1e: the guards have had their turns (no longer flat-footed); M moves out of both reaches.
    let mut f = Fight::pf1e(vec![
        p1("G", "monsters", 25, (1, 0)).stat("MELEE", 1),
        p1("G2", "monsters", 24, (0, 1)).stat("MELEE", 1),
        p1("M", "heroes", 20, (0, 0)).hp(1),
        p1("H", "heroes", 15, (9, 9)),
    ]);
    f.end("G");
    f.end("G2");
    let m = f.mark();
    f.act_to("M", "move", &[], (-3, 0), None).unwrap();
    assert_eq!(f.pending(), Some(("G".into(), "Opportunity".into())));
    f.force(&[15, 4]);
    f.opportunity("G", Some("melee_attack")).unwrap();
    assert!(f.has("M", "down"));
    assert_eq!(f.pos("M"), (0, 0));
    assert!(!f.saw(m, "AbilityUsed", "who: G2"), "G2's attack of opportunity does not happen");
    assert_eq!(f.reactions("G2"), 1);
    // The move action stays spent; the standard and swift actions are lost at once.
    let lost = f.find(m, "ActionsForfeited", "who: M, count: 2").expect("actions lost at once");
    let ended = f.find(m, "TurnEnded", "who: M").unwrap();
    assert!(lost < ended, "{:?}", f.since(m));
    assert_eq!(f.actions("M"), 0);
    assert_eq!(f.active().as_deref(), Some("H"));
    assert!(f.saw(m, "MoveStopped", "who: M"), "the log says why it did not move");
}

#[test]
fn g_x_01_a_mover_downed_by_a_readied_shot_stops_and_later_readied_actions_do_not_fire() {
    // segments: Cara and Dev both ready a bow shot for when O moves; Cara's comes first.
    let mut f = Fight::segments(vec![
        sg("Cara", "heroes", 18, (0, 0)).stat("RANGED", 3).with(&["bow"]),
        sg("Dev", "heroes", 16, (0, 2)).stat("RANGED", 3).with(&["bow"]),
        sg("O", "monsters", 12, (9, 0)).hp(1),
        sg("P", "monsters", 5, (9, 9)),
    ]);
    let (c, d, o) = (f.id("Cara"), f.id("Dev"), f.id("O"));
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Moves).unwrap();
    f.hold(d, "bow", vec![o], Some(o), TriggerOn::Moves).unwrap();
    let m = f.mark();
    f.force(&[12, 3]);
    f.act_to("O", "skirmish", &[], (7, 0), None).unwrap();
    assert!(f.has("O", "down"));
    assert!(f.saw(m, "HeldActionTriggered", "who: Cara"));
    assert_eq!(f.pos("O"), (9, 0));
    assert!(!f.saw(m, "Moved", "who: O"));
    assert!(!f.saw(m, "HeldActionTriggered", "who: Dev"), "{:?}", f.since(m));
    assert_eq!(held(&f, "Dev"), 1, "Dev keeps its readied shot");
    assert_eq!(f.active().as_deref(), Some("P"));
    assert!(f.saw(m, "MoveStopped", "who: O"), "the log says why it did not move");
}

// ---------------------------------------------------------------- G-X-02

/// A (3 hp) with two persistent damages, an affliction and frightened, and a Parting Shot; an
/// ally D keeps its side standing unless `alone`.
fn burning(rs: Ruleset, alone: bool) -> Fight {
    let mut specs = vec![pc("A", "heroes", 20, (0, 0)).hp(3).with(&["parting_shot"])];
    if !alone {
        specs.push(pc("D", "heroes", 15, (9, 9)));
    }
    specs.push(pc("B", "monsters", 10, (5, 0)));
    let mut f = Fight::with_ruleset(rs, specs);
    f.put("A", "persistent_bleed", None, None);
    f.put("A", "persistent_fire", None, None);
    f.put("A", "poisoned", Some(1), None);
    f.put("A", "frightened", Some(2), None);
    f
}

#[test]
fn g_x_02_dropping_to_0_hp_in_step_3_makes_it_dying_and_the_other_items_still_resolve() {
    let mut f = burning(pf2e(), false);
    let m = f.mark();
    // Bleed 4 (to -1 hp: dying 1), fire 1 + 1 (dying 2), flat checks 5 and 16, the save 20.
    f.force(&[4, 1, 1, 5, 16, 20]);
    f.end("A");
    let downed = f.find(m, "Downed", "who: A").expect("dying at once");
    assert_eq!(count(&f, m, "Downed", "who: A"), 1);
    assert_eq!(f.value("A", "dying"), Some(2), "the later damage raised dying by 1");
    let flat = f.find(m, "FlatCheck", "condition: \"persistent_bleed\"").unwrap();
    let fire = f.find(m, "FlatCheck", "condition: \"persistent_fire\", roll: 16").unwrap();
    let save = f.find(m, "SaveRolled", "who: A, stat: \"FORT\"").unwrap();
    assert!(downed < flat && flat < fire && fire < save);
    assert!(!f.has("A", "persistent_fire") && !f.has("A", "poisoned"));
    assert_eq!(f.value("A", "frightened"), Some(1), "frightened still goes down");
    // P2-25: a dying creature is offered no reaction; its recovery checks wait for its Step 1.
    assert!(f.saw(m, "TurnStepBegan", "who: A, step: TurnEndsTrigger"));
    assert!(!f.saw(m, "DecisionRequested", "Triggered"));
    assert!(!f.saw(m, "RecoveryCheck", ""));
    assert_eq!(f.active().as_deref(), Some("D"));
    assert_eq!(f.reactions("A"), 1);
}

#[test]
fn g_x_02_with_no_one_left_standing_on_its_side_the_combat_ends_at_once() {
    let mut f = burning(pf2e(), true);
    let m = f.mark();
    f.force(&[4, 1, 1, 5, 16, 20]);
    f.end("A");
    let downed = f.find(m, "Downed", "who: A").unwrap();
    let ended = f.find(m, "CombatEnded", "").expect("the combat ends");
    assert_eq!(ended, downed + 2, "{:?}", f.since(m)); // Downed, ConditionApplied (dying), CombatEnded
    assert_eq!(f.mark(), ended + 1, "nothing after the end: {:?}", f.since(m));
    assert_eq!(count(&f, m, "Damaged", "who: A"), 1, "the fire does not burn after the end");
}

#[test]
fn g_x_02_reaching_the_dead_threshold_in_step_3_skips_the_remaining_items() {
    let mut f = burning(shipped_with("pf2e.ron", "death_at: 4", "death_at: 2"), false);
    let m = f.mark();
    f.force(&[4, 1, 1]);
    f.end("A");
    assert!(f.has("A", "dead"));
    assert!(!f.saw(m, "FlatCheck", ""));
    assert!(!f.saw(m, "SaveRolled", ""));
    assert_eq!(f.steps_since(m, "A"), ["EndUntilEndOfTurn", "TickOwnerTurns", "PersistentDamage"]);
    assert_eq!(f.value("A", "frightened"), Some(2));
    assert_eq!(f.active().as_deref(), Some("D"));
}

// ---------------------------------------------------------------- G-X-03

/// C holds a completed Shield (RT 4) in segment 2; O is far away.
fn holding_shield() -> Fight {
    let mut f =
        Fight::segments(vec![sg("C", "heroes", 18, (0, 0)).with(&["shield_spell"]), sg("O", "monsters", 12, (9, 0))]);
    f.act("C", "shield_spell", &[]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.hold_cast("C", true).unwrap();
    f
}

#[test]
fn g_x_03_each_rt_while_holding_uses_the_modifier_in_force_when_it_is_incurred() {
    let mut f = holding_shield();
    assert_eq!(f.clock(), (1, 2));
    f.act_to("C", "shift", &[], (1, 0), None).unwrap();
    assert!(f.saw(0, "HoldAccrued", "who: C, rt: 2, total: 2"));
    // Slowed (+2) from now on: the Shift already made keeps its RT.
    f.put("C", "slowed", None, None);
    f.act_to("C", "skirmish", &[], (4, 0), None).unwrap();
    assert!(f.saw(0, "HoldAccrued", "who: C, rt: 7, total: 9"), "{:?}", f.text());
    f.act("C", "speak", &[]).unwrap();
    assert!(f.saw(0, "HoldAccrued", "who: C, rt: 0, total: 9"), "a free action accrues nothing");
    // Release: the power's RT under Slowed, 4 + 2 = 6, plus 9 owed: 2 + 15 = 17.
    f.release("C").unwrap();
    assert!(
        f.saw(0, "CastReleased", "who: C, ability: \"shield_spell\", next_round: 2, next_segment: 7"),
        "{:?}",
        f.text()
    );
    assert!(f.forecast(3).contains(&("C".to_string(), 2, 7)), "{:?}", f.forecast(3));
}

#[test]
fn g_x_03_concentration_broken_while_holding_counts_the_accrued_total_as_it_stands() {
    let mut f = holding_shield();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap(); // 3 + 2 = 5
    f.put("C", "hasted", None, None); // -1 from now on
    f.act_to("C", "shift", &[], (4, 0), None).unwrap(); // 1 + 1 - 1 = 1
    assert!(f.saw(0, "HoldAccrued", "who: C, rt: 1, total: 6"), "{:?}", f.text());
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    // 2 + max(1, 6) = 8.
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"shield_spell\", next_round: 1, next_segment: 8"));
}

#[test]
fn g_x_03_a_modifier_lost_mid_hold_changes_only_the_release() {
    let mut f = holding_shield();
    // Slowed for a round (to segment 12), in force for the Shift: (1 + 1) + 2 = 4.
    f.put("C", "slowed", None, Some(1));
    f.act_to("C", "shift", &[], (1, 0), None).unwrap();
    assert!(f.saw(0, "HoldAccrued", "who: C, rt: 4, total: 4"));
    f.end("C"); // still holding: off the schedule until it releases (G-SG-09)
    f.act_to("O", "sprint", &[], (9, 6), None).unwrap(); // segment 3, RT 5
    f.act_to("O", "sprint", &[], (9, 0), None).unwrap(); // segment 8, RT 5
    assert_eq!(f.clock(), (2, 3));
    assert!(f.saw(0, "ExpiredBeforeCount", "who: C, condition: \"slowed\""));
    f.release("C").unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    // Released in segment 13, no longer slowed: 13 + 4 + 4 = 21, round 3 segment 1.
    assert!(
        f.saw(0, "CastReleased", "who: C, ability: \"shield_spell\", next_round: 3, next_segment: 1"),
        "{:?}",
        f.text()
    );
}

// ---------------------------------------------------------------- G-X-04

/// A (first) and C, heroes, around B.
fn delayers() -> Fight {
    Fight::pf2e(vec![pc("A", "heroes", 20, (0, 0)), pc("B", "monsters", 15, (5, 0)), pc("C", "heroes", 10, (0, 5))])
}

#[test]
fn g_x_04_persistent_damage_gained_after_a_delay_resolves_at_the_end_of_the_returned_turn() {
    let mut f = delayers();
    f.put("A", "persistent_bleed", None, None);
    let m = f.mark();
    f.force(&[4, 9]);
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    // At the Delay: the bleed and its flat check.
    assert!(f.saw(m, "Damaged", "who: A, amount: 4"));
    assert!(f.saw(m, "FlatCheck", "who: A, condition: \"persistent_bleed\", roll: 9"));
    assert_eq!(f.active().as_deref(), Some("B"));
    f.put("A", "persistent_fire", None, None);
    // Another creature's condition ends meanwhile: what the Delay resolved for A still counts
    // (found by cargo-mutants: ending any condition could wipe A's record).
    f.put("B", "frightened", Some(1), None);
    f.0.submit(Command::ReturnFromDelay { actor: f.id("A") }).unwrap();
    f.end("B");
    assert!(f.saw(m, "ConditionEnded", "who: B, condition: \"frightened\""), "{:?}", f.since(m));
    assert_eq!(f.active().as_deref(), Some("A"));
    let back = f.mark();
    f.force(&[3, 3, 9]);
    f.end("A");
    // At the end of the returned turn: the fire, gained after the Delay, with its flat check;
    // not the bleed again.
    assert_eq!(count(&f, back, "Damaged", "who: A"), 1, "{:?}", f.since(back));
    assert!(f.saw(back, "Damaged", "who: A, amount: 6"));
    assert!(f.saw(back, "FlatCheck", "who: A, condition: \"persistent_fire\", roll: 9"));
    assert!(!f.saw(back, "FlatCheck", "persistent_bleed"));
    assert_eq!(f.hp("A"), 30 - 4 - 6);
}

/// An effect the Delay resolved that ends is forgotten: gained again, it is a new effect for the
/// returned turn's end, while the Delay's other effects stay resolved (issue 26: cargo-mutants'
/// `*on == who` → `!=` kept the ended bleed's record, so the new bleed was skipped; `&&` → `||`
/// dropped the fire's record with it, so the fire burned twice).
#[test]
fn g_x_04_an_effect_ended_after_the_delay_resolved_it_counts_again_when_gained_again() {
    let mut f = delayers();
    f.put("A", "persistent_bleed", None, None);
    f.put("A", "persistent_fire", None, None);
    let m = f.mark();
    // Damage first, the bleed's 4 and the fire's 3 + 3; then the flat checks, the bleed's 20 (it
    // ends) and the fire's 9 (it stays).
    f.force(&[4, 3, 3, 20, 9]);
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    assert!(f.saw(m, "ConditionEnded", "who: A, condition: \"persistent_bleed\""), "{:?}", f.since(m));
    assert!(f.has("A", "persistent_fire"));
    assert_eq!(f.hp("A"), 30 - 4 - 6);
    f.put("A", "persistent_bleed", None, None);
    f.0.submit(Command::ReturnFromDelay { actor: f.id("A") }).unwrap();
    f.end("B");
    assert_eq!(f.active().as_deref(), Some("A"));
    let back = f.mark();
    f.force(&[5, 9]);
    f.end("A");
    // The new bleed burns; the fire, resolved at the Delay, does not again.
    assert_eq!(count(&f, back, "Damaged", "who: A"), 1, "{:?}", f.since(back));
    assert!(f.saw(back, "Damaged", "who: A, amount: 5"), "{:?}", f.since(back));
    assert!(!f.saw(back, "FlatCheck", "persistent_fire"));
    assert_eq!(f.hp("A"), 30 - 4 - 6 - 5);
}

#[test]
fn g_x_04_negative_until_end_of_turn_effects_and_decreases_wait_for_the_returned_turn() {
    let mut f = Fight::pf2e(vec![
        pc("B", "monsters", 25, (5, 0)).with(&["taunt"]),
        pc("A", "heroes", 20, (0, 0)).with(&["battle_cry"]),
        pc("C", "heroes", 10, (0, 5)),
    ]);
    f.act("B", "taunt", &["A"]).unwrap();
    f.end("B");
    f.triggered("A", Some("battle_cry")).unwrap();
    assert!(f.has("A", "inspired") && f.has("A", "taunted"));
    f.put("A", "frightened", Some(2), None);
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    // At the Delay the beneficial effect ends; the negative one and frightened wait.
    assert!(!f.has("A", "inspired"));
    assert!(f.has("A", "taunted"), "{:?}", f.text());
    assert_eq!(f.value("A", "frightened"), Some(2));
    assert_eq!(f.active().as_deref(), Some("C"));
    f.0.submit(Command::ReturnFromDelay { actor: f.id("A") }).unwrap();
    f.end("C");
    assert_eq!(f.active().as_deref(), Some("A"));
    assert!(f.has("A", "taunted"));
    let back = f.mark();
    f.end("A");
    assert!(!f.has("A", "taunted"), "it ends at the end of the returned turn");
    assert_eq!(f.value("A", "frightened"), Some(1));
    assert_eq!(count(&f, back, "ConditionValueChanged", "who: A, condition: \"frightened\""), 1);
}

#[test]
fn g_x_04_a_delay_that_lapses_resolves_nothing_more_for_that_turn() {
    let mut f = Fight::pf2e(vec![pc("B", "monsters", 25, (5, 0)).with(&["taunt"]), pc("A", "heroes", 20, (0, 0))]);
    f.act("B", "taunt", &["A"]).unwrap();
    f.end("B");
    f.put("A", "frightened", Some(2), None);
    f.put("A", "persistent_bleed", None, None);
    f.force(&[4, 9]);
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    let m = f.mark();
    f.end("B");
    assert!(f.saw(m, "DelayLapsed", "who: A"));
    // Nothing of the delayed turn's end resolved: A's next turn starts with Step 1.
    assert_eq!(f.steps_since(m, "A")[0], "TickOwnEffects");
    assert!(f.has("A", "taunted"));
    assert_eq!(f.value("A", "frightened"), Some(2));
    assert_eq!(f.hp("A"), 26);
    // A's next turn ends as any turn does.
    let next = f.mark();
    f.force(&[4, 9]);
    f.end("A");
    assert!(!f.has("A", "taunted"));
    assert_eq!(f.value("A", "frightened"), Some(1));
    assert!(f.saw(next, "Damaged", "who: A, amount: 4"));
}

// ---------------------------------------------------------------- G-X-05

#[test]
fn g_x_05_every_shipped_ability_that_picks_creatures_says_how_many() {
    let want = [
        ("homebrew-d20", "fireball", "All"),
        ("homebrew-d20", "hold_person", "UpTo(1)"),
        ("pf1e", "magic_missile", "UpTo(1)"),
        ("pf1e", "bless", "All"),
        ("pf2e", "electric_arc", "UpTo(2)"),
        ("pf2e", "heal", "All"),
        ("pf2e", "fear", "UpTo(1)"),
        ("pf2e", "slow", "UpTo(1)"),
        ("pf2e", "haste", "UpTo(1)"),
        ("pf2e", "demoralize", "UpTo(1)"),
        ("pf2e", "hampering_hex", "UpTo(1)"),
        ("pf2e", "taunt", "UpTo(1)"),
        ("segments", "magic_missile", "UpTo(1)"),
        ("segments", "sleep", "All"),
        ("segments", "mind_spike", "UpTo(1)"),
    ];
    let mut picking = 0;
    for (name, rs) in [("homebrew-d20", homebrew()), ("pf1e", pf1e()), ("pf2e", pf2e()), ("segments", segments())] {
        for a in rs.abilities.iter().filter(|a| a.effect.picks_creatures()) {
            picking += 1;
            let said = format!("{:?}", a.targets);
            let expected = want.iter().find(|(r, id, _)| *r == name && *id == a.id).map(|w| w.2);
            assert_eq!(Some(said.as_str()), expected, "{name} {}", a.id);
        }
    }
    assert_eq!(picking, want.len(), "every ability in the table picks creatures");
    // A ruleset file whose picking ability does not say it is refused at the ability.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf1e.ron");
    let text = std::fs::read_to_string(path).unwrap().replacen("targets: UpTo(1), ", "", 1);
    let e = Ruleset::from_ron_str("pf1e.ron", &text).unwrap_err();
    let line = text.lines().position(|l| l.contains("(id: \"magic_missile\"")).unwrap() + 1;
    assert_eq!(e.line, line, "{e}");
    assert!(
        e.message
            .starts_with("abilities[magic_missile].targets: the ability picks creatures but does not say how many"),
        "{e}"
    );
}

#[test]
fn g_x_05_bless_takes_every_creature_named() {
    // Bless is said to take every creature named (`targets: All`): three at once go through.
    let mut f = Fight::pf1e(vec![
        p1("Cleric", "heroes", 20, (0, 0)).with(&["bless"]),
        p1("Ann", "heroes", 15, (1, 0)),
        p1("Bo", "heroes", 14, (0, 1)),
        p1("Orc", "monsters", 10, (8, 8)),
    ]);
    let m = f.mark();
    f.act("Cleric", "bless", &["Cleric", "Ann", "Bo"]).unwrap();
    for who in ["Cleric", "Ann", "Bo"] {
        assert!(f.has(who, "blessed"), "{who}");
    }
    assert_eq!(count(&f, m, "ConditionApplied", "condition: \"blessed\""), 3, "{:?}", f.text());
}

#[test]
fn g_x_05_magic_missile_picks_one_creature() {
    let specs = || {
        vec![
            p1("Mage", "heroes", 20, (0, 0)).stat("SPELL", 5).with(&["magic_missile"]),
            p1("Orc", "monsters", 10, (5, 0)),
            p1("Wolf", "monsters", 5, (5, 2)),
        ]
    };
    let mut f = Fight::pf1e(specs());
    let e = f.act("Mage", "magic_missile", &["Orc", "Wolf"]).unwrap_err();
    assert!(f.0.explain(&e).contains("picks at most 1 creature (2 named)"), "{}", f.0.explain(&e));
    let m = f.mark();
    f.act("Mage", "magic_missile", &["Orc"]).unwrap();
    assert_eq!(count(&f, m, "Damaged", "who: Orc"), 1);
    assert_eq!(count(&f, m, "Damaged", "who: Wolf"), 0);
}

// ---------------------------------------------------------------- G-X-06

#[test]
fn g_x_06_homebrew_d20_and_segments_roll_no_critical_hits() {
    // Their sources are silent: no attack math, so a natural 20 is a roll like another and
    // damage is never multiplied (RULES.md §5.6). homebrew-d20: 20 against no defence, 1d6+STR.
    assert!(homebrew().attack_math.is_plain());
    assert!(segments().attack_math.is_plain());
    let mut f = Fight::new(vec![
        who("A", "heroes", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
        who("B", "monsters", 10, (1, 0)).hp(40),
    ]);
    let m = f.mark();
    f.force(&[20, 4]);
    f.act("A", "sword", &["B"]).unwrap();
    assert!(f.saw(m, "AttackHit", ""), "{:?}", f.since(m));
    assert!(!f.saw(m, "CriticalHit", "") && !f.saw(m, "DamageScaled", ""), "{:?}", f.since(m));
    // segments: a natural 1 with MELEE 20 still hits AC 10; a natural 20 deals plain damage.
    let mut g = Fight::segments(vec![
        sg("A", "heroes", 15, (0, 0)).stat("MELEE", 20).with(&["longsword"]),
        sg("B", "monsters", 5, (1, 0)),
    ]);
    let m = g.mark();
    g.force(&[1, 5]);
    g.act("A", "longsword", &["B"]).unwrap();
    assert!(g.saw(m, "AttackHit", ""), "{:?}", g.since(m));
    assert_eq!(g.hp("B"), 25);
}
