//! homebrew-d20, the second half of [`super::hb_rules`]: defensive rolls (HB-38..HB-44), attacks
//! of opportunity (HB-45..HB-48), held actions (HB-49..HB-51, G-HB-12), saving throws
//! (HB-52..HB-54), durations, and the strategy fields. One test per rule ID, in rule order.

use skirmish::rules::command::DefenseMethod::{Dodge, NoDefense, Parry};
use skirmish::rules::command::{GmInput, Rejection};
use skirmish::rules::components::{Casting, HeldActions, TriggerOn};
use skirmish::rules::log::CombatEvent;
use skirmish::rules::ruleset::HitKind;

use crate::common::*;

use super::hb_rules::duel;

// ---------------------------------------------------------------- defensive rolls

#[test]
fn hb_38_an_attack_is_answered_by_a_defensive_roll() {
    let mut f = duel();
    f.act("A", "sword", &["B"]).unwrap();
    assert_eq!(f.pending(), Some(("B".into(), "Defense".into())));
}

#[test]
fn hb_39_the_defender_declares_a_method_and_rolls_1d20_plus_its_bonus() {
    let mut f = duel();
    f.force(&[10, 7]);
    let m = f.mark();
    f.act("A", "sword", &["B"]).unwrap();
    f.defend("B", Parry).unwrap();
    let declared = f.find(m, "DefenseDeclared", "who: B, method: Parry").expect("declared");
    let rolled = f.find(m, "DefenseRolled", "who: B, method: Parry, rolls: [7], bonus: 2, total: 9").expect("rolled");
    assert!(declared < rolled);
}

#[test]
fn hb_40_a_defensive_roll_equal_to_the_attack_blocks_it() {
    let mut f = duel();
    f.force(&[10, 10]);
    let m = f.mark();
    f.act("A", "sword", &["B"]).unwrap();
    f.defend("B", Parry).unwrap();
    assert!(f.saw(m, "AttackBlocked", "attacker: A, target: B"));
    f.force(&[10, 9, 1]);
    let m = f.mark();
    f.act("A", "sword", &["B"]).unwrap();
    f.defend("B", Parry).unwrap();
    assert!(f.saw(m, "AttackHit", "attacker: A, target: B"), "{:?}", f.since(m));
    // A variant with `defender_wins_ties: false`: the same tie hits, and only a higher roll blocks
    // (found by cargo-mutants: `>` read as `>=` there survived).
    let mut rs = homebrew();
    let skirmish::rules::ruleset::DefenseRule::ActiveRoll { defender_wins_ties, .. } = &mut rs.defense else {
        panic!("homebrew-d20 rolls its defence");
    };
    *defender_wins_ties = false;
    let duel_under = |rs| {
        Fight::with_ruleset(
            rs,
            vec![
                who("A", "heroes", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
                who("B", "monsters", 10, (1, 0)).stat("STR", 1),
            ],
        )
    };
    let mut g = duel_under(rs.clone());
    g.force(&[10, 10, 1]);
    let m = g.mark();
    g.act("A", "sword", &["B"]).unwrap();
    g.defend("B", Parry).unwrap();
    assert!(g.saw(m, "AttackHit", "attacker: A, target: B"), "a tie: {:?}", g.since(m));
    let mut g = duel_under(rs);
    g.force(&[10, 11]);
    let m = g.mark();
    g.act("A", "sword", &["B"]).unwrap();
    g.defend("B", Parry).unwrap();
    assert!(g.saw(m, "AttackBlocked", "attacker: A, target: B"), "higher: {:?}", g.since(m));
}

#[test]
fn hb_41_every_creature_can_parry_and_dodge() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).with(&["sword"]),
        who("B", "m", 10, (1, 0)).stat("STR", 1).stat("DEX", 1),
    ]);
    f.act("A", "sword", &["B"]).unwrap();
    assert_eq!(f.defense_options(), vec![Dodge, Parry, NoDefense]);
}

#[test]
fn hb_42_dodge_answers_ranged_and_area_parry_only_melee() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).with(&["bow", "firebomb"]),
        who("B", "m", 10, (4, 0)).stat("STR", 3).stat("DEX", 1),
    ]);
    f.act("A", "bow", &["B"]).unwrap();
    assert_eq!(f.defense_options(), vec![Dodge, NoDefense]);
    assert_eq!(
        f.defend("B", Parry),
        Err(Rejection::InvalidChoice("Parry is not allowed here; allowed: [Dodge, NoDefense]".into()))
    );
    f.defend("B", Dodge).unwrap();
    f.act("A", "firebomb", &["B"]).unwrap();
    assert_eq!(f.defense_options(), vec![Dodge, NoDefense]);
}

#[test]
fn hb_43_dodge_adds_dex_and_parry_adds_str() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).with(&["sword"]),
        who("B", "m", 10, (1, 0)).stat("STR", 4).stat("DEX", 1).hp(50),
    ]);
    f.force(&[20, 5, 1]);
    let m = f.mark();
    f.act("A", "sword", &["B"]).unwrap();
    f.defend("B", Dodge).unwrap();
    assert!(f.saw(m, "DefenseRolled", "method: Dodge, rolls: [5], bonus: 1, total: 6"));
    f.force(&[20, 5, 1]);
    let m = f.mark();
    f.act("A", "sword", &["B"]).unwrap();
    f.defend("B", Parry).unwrap();
    assert!(f.saw(m, "DefenseRolled", "method: Parry, rolls: [5], bonus: 4, total: 9"));
}

#[test]
fn hb_44_no_dodge_at_dex_zero_or_less_no_parry_at_str_zero_or_less() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (1, 1)).with(&["sword"]),
        who("NoStr", "m", 10, (0, 1)).stat("STR", 0).stat("DEX", 2),
        who("NoDex", "m", 9, (2, 1)).stat("STR", 2).stat("DEX", -1),
        who("None", "m", 8, (1, 2)).stat("STR", -1).stat("DEX", 0),
    ]);
    f.act("A", "sword", &["NoStr"]).unwrap();
    assert_eq!(f.defense_options(), vec![Dodge, NoDefense]);
    f.defend("NoStr", NoDefense).unwrap();
    f.act("A", "sword", &["NoDex"]).unwrap();
    assert_eq!(f.defense_options(), vec![Parry, NoDefense]);
    f.defend("NoDex", NoDefense).unwrap();
    let m = f.mark();
    f.act("A", "sword", &["None"]).unwrap();
    assert_eq!(f.pending(), None);
    assert!(f.saw(m, "NoDefensePossible", "who: None"));
    assert!(f.saw(m, "AttackHit", "target: None"));
}

// ---------------------------------------------------------------- attacks of opportunity

#[test]
fn hb_45_an_attack_of_opportunity_is_an_attack_used_as_a_reaction() {
    let mut f = Fight::new(vec![
        who("X", "h", 20, (0, 0)).stat("DEX", 1),
        who("Y", "m", 10, (1, 0)).stat("STR", 1).with(&["sword", "bow"]),
    ]);
    f.move_to("X", (-2, 0)).unwrap();
    // Only melee attacks are offered.
    assert_eq!(
        f.opportunity("Y", Some("bow")),
        Err(Rejection::InvalidChoice("`bow` is not one of [\"sword\"]".into()))
    );
    f.force(&[12]);
    f.opportunity("Y", Some("sword")).unwrap();
    assert!(f.saw(0, "AttackRolled", "attacker: Y, target: X, ability: \"sword\""));
    assert_eq!(f.actions("Y"), 3);
}

#[test]
fn hb_46_withdrawing_without_disengage_provokes() {
    let mut f = Fight::new(vec![
        who("X", "h", 20, (0, 0)),
        who("Y", "m", 10, (1, 0)).with(&["sword"]),
        who("Far", "m", 5, (9, 9)).with(&["sword"]),
    ]);
    f.move_to("X", (-3, 0)).unwrap();
    assert!(f.saw(0, "OpportunityProvoked", "mover: X, from: Y"));
    assert!(!f.saw(0, "OpportunityProvoked", "from: Far"), "only creatures X is engaged with");
    assert_eq!(f.pos("X"), (0, 0), "the attack comes before the move");
}

#[test]
fn hb_47_only_dodge_answers_an_attack_of_opportunity() {
    let mut f = Fight::new(vec![
        who("X", "h", 20, (0, 0)).stat("STR", 5).stat("DEX", 1),
        who("Y", "m", 10, (1, 0)).with(&["sword"]),
    ]);
    f.move_to("X", (-3, 0)).unwrap();
    f.opportunity("Y", Some("sword")).unwrap();
    assert_eq!(f.defense_options(), vec![Dodge, NoDefense]);
}

#[test]
fn hb_48_no_attack_of_opportunity_from_a_flanked_enemy() {
    let mut f = Fight::new(vec![
        who("X", "h", 20, (0, 0)),
        who("Y", "m", 10, (1, 0)).with(&["sword"]),
        who("W", "h", 5, (2, 0)).with(&["sword"]),
    ]);
    f.move_to("X", (-3, 0)).unwrap();
    assert!(f.saw(0, "NoOpportunity", "mover: X, from: Y, reason: Flanked"));
    assert_eq!(f.pos("X"), (-3, 0));
    // Its own allies on both sides do not flank it (found by cargo-mutants: any creature but
    // itself counted as a flanker).
    let mut g = Fight::new(vec![
        who("X", "h", 20, (1, 1)),
        who("Y", "m", 10, (1, 0)).with(&["sword"]),
        who("M", "m", 8, (0, 0)),
        who("N", "m", 6, (2, 0)),
    ]);
    g.move_to("X", (1, 4)).unwrap();
    assert_eq!(g.pending(), Some(("Y".into(), "Opportunity".into())), "{:?}", g.text());
}

// ---------------------------------------------------------------- held actions

#[test]
fn hb_49_a_held_action_can_be_used_as_an_attack_of_opportunity() {
    let mut f =
        Fight::new(vec![who("A", "h", 20, (0, 0)).stat("STR", 1).with(&["sword"]), who("E", "m", 10, (3, 0)).hp(30)]);
    let a = f.id("A");
    let r = f.hold(a, "shout", vec![], None, TriggerOn::AnyAction);
    assert_eq!(r, Err(Rejection::AbilityNotKnown("shout".into())));
    hold(&mut f, "A", "sword", Some("E"));
    assert_eq!(f.actions("A"), 2, "holding reserves the cost (G-HB-12)");
    f.end("A");
    f.force(&[15]);
    f.move_to("E", (1, 0)).unwrap();
    assert!(f.saw(0, "HeldActionTriggered", "who: A, ability: \"sword\", by: E"));
    assert!(f.saw(0, "AttackRolled", "attacker: A, target: E"));
}

fn hold(f: &mut Fight, actor: &str, ability: &str, by: Option<&str>) {
    let (a, by) = (f.id(actor), by.map(|b| f.id(b)));
    f.hold(a, ability, vec![], by, TriggerOn::AnyAction).expect("hold");
}

#[test]
fn hb_50_a_held_attack_resolves_before_the_enemys_action() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
        who("E", "m", 10, (1, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]).hp(30),
    ]);
    hold(&mut f, "A", "sword", Some("E"));
    f.end("A");
    let m = f.mark();
    f.force(&[12]);
    f.act("E", "sword", &["A"]).unwrap();
    // E may still defend against the held attack (HB-39).
    assert_eq!(f.pending(), Some(("E".into(), "Defense".into())));
    f.force(&[3, 2]);
    f.defend("E", Dodge).unwrap();
    let held = f.find(m, "AttackRolled", "attacker: A").expect("held attack");
    let own = f.find(m, "AttackRolled", "attacker: E").expect("E's attack");
    assert!(held < own, "{:?}", f.since(m));
}

#[test]
fn g_hb_09_interrupting_one_creature_leaves_the_others_queued_actions() {
    // E's attack waits behind A's held attack; the GM interrupts C meanwhile. Only C's work is
    // cancelled (found by cargo-mutants: a disruption dropping everyone's queued effects survived).
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
        who("E", "m", 10, (1, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]).hp(30),
        who("C", "h", 5, (0, 5)),
    ]);
    hold(&mut f, "A", "sword", Some("E"));
    f.end("A");
    let m = f.mark();
    f.force(&[12]);
    f.act("E", "sword", &["A"]).unwrap();
    assert_eq!(f.pending(), Some(("E".into(), "Defense".into())));
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    f.force(&[3, 2]);
    f.defend("E", Dodge).unwrap();
    assert!(f.find(m, "AttackRolled", "attacker: E").is_some(), "E's attack still happens: {:?}", f.since(m));
    assert!(!f.saw(m, "ActionDisrupted", "who: E"));
}

#[test]
fn hb_50_a_holder_left_unable_to_act_before_its_turn_to_fire_keeps_its_held_action() {
    // H1 and H2 hold attacks for E's next action. H1's fires first and waits on E's defence; the
    // GM stuns H2 meanwhile. H2's held attack does not happen, it keeps it, and E's turn
    // goes on.
    let mut f = Fight::new(vec![
        who("H1", "h", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
        who("H2", "h", 15, (2, 0)).stat("STR", 1).with(&["sword"]),
        who("E", "m", 10, (1, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]).hp(30),
    ]);
    hold(&mut f, "H1", "sword", Some("E"));
    f.end("H1");
    hold(&mut f, "H2", "sword", Some("E"));
    f.end("H2");
    let m = f.mark();
    f.force(&[12]);
    f.act("E", "sword", &["H1"]).unwrap();
    assert_eq!(f.pending(), Some(("E".into(), "Defense".into())));
    f.gm(GmInput::ApplyCondition { who: f.id("H2"), condition: "stunned".into(), rounds: None, value: None }).unwrap();
    f.force(&[3, 2, 12]);
    f.defend("E", Dodge).unwrap();
    assert!(f.saw(m, "HeldActionTriggered", "who: H1"));
    assert!(!f.saw(m, "HeldActionTriggered", "who: H2"), "{:?}", f.since(m));
    assert!(!f.saw(m, "AttackRolled", "attacker: H2"));
    assert_eq!(f.0.get::<HeldActions>(f.id("H2")).unwrap().0.len(), 1);
    assert!(f.saw(m, "AttackRolled", "attacker: E"), "{:?}", f.since(m));
    assert_eq!(f.active().as_deref(), Some("E"));
}

#[test]
fn hb_51_a_ranged_or_surprise_hit_loses_all_held_actions() {
    let mut g = Fight::new(vec![
        who("A", "h", 20, (0, 0)).with(&["sword"]).hp(50),
        who("E", "m", 10, (4, 0)).stat("DEX", 2).with(&["bow"]),
    ]);
    let (a, e) = (g.id("A"), g.id("E"));
    g.hold(a, "sword", vec![], Some(e), TriggerOn::Moves).unwrap();
    g.hold(a, "sword", vec![], Some(e), TriggerOn::Moves).unwrap();
    g.end("A");
    g.force(&[15, 1, 2]);
    // A has DEX 0: no Dodge against the arrow, so it hits.
    g.act("E", "bow", &["A"]).unwrap();
    assert!(g.saw(0, "HeldActionsLost", "who: A, count: 2, kind: Ranged"), "{:?}", g.text());
    assert!(g.0.get::<HeldActions>(a).unwrap().0.is_empty());
    // A surprise melee hit does it too; a plain melee hit does not.
    let mut h = Fight::new(vec![
        who("A", "h", 20, (0, 0)).with(&["sword"]).hp(50),
        who("E", "m", 10, (1, 0)).stat("STR", 2).with(&["sword"]),
    ]);
    let (a, e) = (h.id("A"), h.id("E"));
    h.hold(a, "sword", vec![], Some(e), TriggerOn::Moves).unwrap();
    h.end("A");
    h.force(&[15, 1]);
    h.act("E", "sword", &["A"]).unwrap();
    assert_eq!(h.0.get::<HeldActions>(a).unwrap().0.len(), 1, "a plain melee hit keeps held actions");
    h.gm(GmInput::HitBy { who: a, kind: HitKind::Surprise }).unwrap();
    assert!(h.saw(0, "HeldActionsLost", "count: 1, kind: Surprise"));
}

#[test]
fn g_hb_12_held_actions_lapse_at_round_end() {
    let mut f = duel();
    hold(&mut f, "A", "sword", Some("B"));
    f.end("A");
    f.end("B");
    assert!(f.saw(0, "HeldActionsLapsed", "who: A, count: 1"));
    assert_eq!(f.0.get::<HeldActions>(f.id("A")).unwrap().0.len(), 0);
}

// ---------------------------------------------------------------- saving throws

#[test]
fn hb_52_a_saving_throw_against_the_abilitys_dc_decides_its_effect() {
    let mut f = duel();
    f.end("A");
    f.force(&[10]);
    f.act("B", "hold_person", &["A"]).unwrap();
    assert!(f.saw(0, "SaveRolled", "who: A, stat: \"WIS\", roll: 10, bonus: 0, total: 10, dc: 12, success: false"));
    assert!(f.has("A", "stunned"));
    f.end("B");
    let mut g = duel();
    g.end("A");
    g.force(&[12]);
    g.act("B", "hold_person", &["A"]).unwrap();
    assert!(g.saw(0, "SaveRolled", "success: true"));
    assert!(!g.has("A", "stunned"));
}

#[test]
fn hb_53_a_save_uses_any_stat_ties_succeed_and_defence_bonuses_do_not_apply() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).stat("DEX", 3).hp(40),
        who("B", "m", 10, (5, 0)).with(&["fireball"]),
    ]);
    f.act("A", "defend", &[]).unwrap();
    f.end("A");
    f.force(&[10]);
    f.act("B", "fireball", &["A"]).unwrap();
    assert!(
        f.saw(0, "SaveRolled", "who: A, stat: \"DEX\", roll: 10, bonus: 3, total: 13, dc: 13, success: true"),
        "{:?}",
        f.text()
    );
    assert_eq!(f.hp("A"), 40, "a successful save avoids the damage");
}

#[test]
fn hb_54_the_saving_throw_stat_comes_from_the_abilitys_data() {
    let rs = homebrew();
    let stat = |id: &str| match &rs.ability(id).unwrap().effect {
        skirmish::rules::ruleset::Effect::Save { stat, .. } => stat.clone(),
        e => panic!("{e:?}"),
    };
    assert_eq!(stat("fireball"), "DEX");
    assert_eq!(stat("hold_person"), "WIS");
    let mut f = duel();
    f.end("A");
    f.force(&[1, 1, 1, 1]);
    f.act("B", "fireball", &["A"]).unwrap();
    assert!(f.saw(0, "SaveRolled", "stat: \"DEX\""));
}

// ---------------------------------------------------------------- other gap defaults

#[test]
fn g_hb_17_durations_tick_at_round_end() {
    let mut f = duel();
    f.gm(GmInput::ApplyCondition { who: f.id("B"), condition: "blessed".into(), rounds: Some(2), value: None })
        .unwrap();
    f.end("A");
    f.end("B");
    assert!(f.has("B", "blessed"), "1 round left after round 1");
    f.end("A");
    f.end("B");
    assert!(!f.has("B", "blessed"));
    assert!(f.saw(0, "ConditionEnded", "who: B, condition: \"blessed\", reason: Expired"));
}

#[test]
fn g_hb_19_a_creature_unable_to_act_takes_no_actions() {
    let mut f = duel();
    f.gm(GmInput::ApplyCondition { who: f.id("B"), condition: "stunned".into(), rounds: Some(1), value: None })
        .unwrap();
    f.end("A");
    assert!(f.saw(0, "TurnSkipped", "who: B"));
    assert_eq!(f.active().as_deref(), Some("A"));
}

#[test]
fn every_rejected_command_leaves_state_untouched() {
    let mut f = duel();
    let cases: Vec<Box<dyn Fn(&mut Fight) -> Result<(), Rejection>>> = vec![
        Box::new(|f| f.act("A", "nope", &[])),
        Box::new(|f| f.act("A", "hold_person", &["B"])),
        Box::new(|f| f.act("A", "sword", &[])),
        Box::new(|f| f.act("A", "sword", &["A"])),
        Box::new(|f| f.move_to("A", (20, 20))),
        Box::new(|f| f.move_to("A", (1, 0))),
        Box::new(|f| f.act("A", "assist", &["B"])),
        Box::new(|f| f.defend("A", Dodge)),
        Box::new(|f| f.opening("A", None, &[])),
        Box::new(|f| f.approve(true)),
        Box::new(|f| {
            let b = f.id("B");
            f.gm(GmInput::ApplyCondition { who: b, condition: "nope".into(), rounds: None, value: None })
        }),
        Box::new(|f| f.gm(GmInput::Interrupt { who: skirmish::rules::components::Cid(99) })),
    ];
    for (i, case) in cases.iter().enumerate() {
        let before = f.snapshot();
        assert!(case(&mut f).is_err(), "case {i} should be rejected");
        assert_eq!(f.snapshot(), before, "case {i} changed state");
    }
    // While a decision waits, other commands are rejected and change nothing.
    f.act("A", "sword", &["B"]).unwrap();
    let before = f.snapshot();
    assert_eq!(
        f.act("A", "shout", &[]),
        Err(Rejection::AwaitingDecision { by: skirmish::rules::command::Decider::Creature(f.id("B")) })
    );
    assert_eq!(
        f.defend("A", Dodge),
        Err(Rejection::WrongDecider { expected: skirmish::rules::command::Decider::Creature(f.id("B")) })
    );
    assert_eq!(f.snapshot(), before);
    let _ = CombatEvent::RoundEnded { round: 0 };
}

#[test]
fn g_hb_12_a_held_action_names_what_it_needs_and_fires_only_in_reach() {
    let mut f = Fight::new(vec![
        who("A", "h", 20, (0, 0)).stat("STR", 1).with(&["sword"]),
        who("P", "h", 18, (0, 2)).with(&["sword"]),
        who("E", "m", 10, (6, 0)),
    ]);
    let a = f.id("A");
    let hold = |f: &mut Fight, ability: &str| f.hold(a, ability, vec![], None, TriggerOn::AnyAction);
    // An Assist or a Move held with nothing named is refused: it would help the enemy, or go nowhere.
    assert!(matches!(hold(&mut f, "assist"), Err(Rejection::InvalidTarget(_))));
    assert!(matches!(hold(&mut f, "move"), Err(Rejection::NotHoldable(_))));
    hold(&mut f, "sword").unwrap();
    f.end("A");
    f.end("P");
    // E moves further away: out of reach, the held attack does not fire.
    f.move_to("E", (9, 0)).unwrap();
    assert!(f.saw(0, "ReadyNotUsed", "who: A, ability: \"sword\""));
    assert!(!f.saw(0, "AttackRolled", "attacker: A"));
}

#[test]
fn hb_23_suffering_a_negative_effect_again_still_ends_defensive_position() {
    let mut f = duel();
    f.gm(GmInput::ApplyCondition { who: f.id("A"), condition: "poisoned".into(), rounds: None, value: None }).unwrap();
    f.act("A", "defend", &[]).unwrap();
    assert!(f.has("A", "defensive_position"));
    f.gm(GmInput::ApplyCondition { who: f.id("A"), condition: "poisoned".into(), rounds: Some(2), value: None })
        .unwrap();
    assert!(!f.has("A", "defensive_position"));
    let left = f.0.get::<skirmish::rules::components::Conditions>(f.id("A")).unwrap().0["poisoned"].left;
    assert_eq!(left, Some(2), "the new duration replaces the old");
}

#[test]
fn strategy_fields_change_behaviour_without_code() {
    use skirmish::rules::ruleset::{DisruptionPolicy, MultiTurnActivities, Openings};
    // Openings not paid from the pool are free.
    let mut rs = homebrew();
    rs.openings = Openings::OneAbilityPerOpening { paid_from_pool: false };
    let mut f = Fight::with_ruleset(
        rs,
        vec![
            who("A", "h", 20, (0, 0)).stat("STR", 2).with(&["sword"]),
            who("B", "m", 10, (1, 0)).stat("STR", 2).with(&["sword"]),
        ],
    );
    f.end("A");
    f.gm(GmInput::Opening { eligible: vec![f.id("A")] }).unwrap();
    f.force(&[1]);
    f.opening("A", Some("sword"), &["B"]).unwrap();
    f.defend("B", NoDefense).unwrap_or(());
    assert_eq!(f.actions("A"), 3);
    // An activity that does not fail on interruption carries on.
    let mut rs = homebrew();
    rs.multi_turn = MultiTurnActivities::SpreadCost { exclusive: true, fails_on_interrupt: false };
    let mut g = Fight::with_ruleset(rs, vec![who("A", "h", 20, (0, 0)).with(&["ritual"]), who("B", "m", 10, (5, 0))]);
    g.act("A", "ritual", &[]).unwrap();
    g.gm(GmInput::Interrupt { who: g.id("A") }).unwrap();
    assert!(g.0.get::<Casting>(g.id("A")).unwrap().0.is_some());
    // Spent actions not lost on interruption come back to the pool.
    let mut rs = homebrew();
    rs.disruption = DisruptionPolicy::ActivityFails { spent_lost: false, on_hit: true, on_negative_status: true };
    let mut h = Fight::with_ruleset(
        rs,
        vec![who("A", "h", 20, (0, 0)).with(&["ritual", "shout"]), who("B", "m", 10, (5, 0)), who("C", "h", 5, (0, 5))],
    );
    h.act("A", "ritual", &[]).unwrap();
    h.gm(GmInput::Interrupt { who: h.id("A") }).unwrap();
    assert!(h.saw(0, "ActivityInterrupted", "actions_lost: 0"));
    assert_eq!(h.actions("A"), 3, "usable in openings for the rest of the round");
}

#[test]
fn g_hb_19_a_creature_unable_to_act_is_offered_no_opportunity_and_no_opening() {
    // "Can't act" covers attacks of opportunity and openings too (issue 13).
    let mut f = duel();
    f.gm(GmInput::ApplyCondition { who: f.id("B"), condition: "stunned".into(), rounds: Some(2), value: None })
        .unwrap();
    f.move_to("A", (-3, 0)).unwrap();
    assert!(f.saw(0, "NoOpportunity", "from: B, reason: Incapacitated"), "{:?}", f.text());
    assert_eq!(f.pending(), None);
    f.gm(GmInput::Opening { eligible: vec![f.id("B")] }).unwrap();
    assert!(f.saw(0, "OpeningSkipped", "who: B, reason: \"cannot act\""), "{:?}", f.text());
    assert_eq!(f.pending(), None);
}
