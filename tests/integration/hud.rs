//! The HUD's view-models, headless, under every ruleset: the tracker's order, the action-economy
//! pips, condition expiry in words, disabled abilities with the engine's reasons, and log
//! sentences with their dice and rule IDs. Each starts from a `tests/scenarios/hud-*.ron` file,
//! the same files `scripts/screenshots.sh` photographs.

use std::path::PathBuf;

use skirmish::hud_model::log::{Category, LogFilter, LogView};
use skirmish::hud_model::{self, Budget, MarkKind, Reactions, TrackerKind};
use skirmish::rules::command::{ActIntent, Command, GmInput};
use skirmish::rules::components::Cid;
use skirmish::rules::driver::Combat;

fn at_end_of(file: &str) -> Combat {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios").join(file);
    let ls = skirmish::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let (report, combat) = skirmish::scenario::run_keeping(&ls, None);
    assert!(report.passed(), "{file}: {:?}", report.checks.iter().find(|c| c.failure.is_some()));
    combat.expect("the scenario sets up")
}

fn id(c: &Combat, name: &str) -> Cid {
    c.cid(name).unwrap_or_else(|| panic!("no {name}"))
}

fn names(c: &Combat, rows: &[hud_model::TrackerRow]) -> Vec<(String, u32)> {
    rows.iter().map(|r| (c.name(r.who), r.round)).collect()
}

#[test]
fn tracker_order_homebrew_mid_round() {
    let mut c = at_end_of("hud-hb-opening.ron");
    let t = hud_model::tracker(&mut c, 5, None);
    assert_eq!(t.kind, TrackerKind::Rounds);
    assert!(!t.show_counts, "homebrew-d20 durations end at round ends, not counts");
    assert_eq!(
        names(&c, &t.order),
        [
            ("Orc".into(), 1),
            ("Knight".into(), 1),
            ("Goblin".into(), 1),
            ("Ranger".into(), 1),
            ("Orc".into(), 2),
            ("Knight".into(), 2)
        ]
    );
    assert!(t.order[0].current && !t.order[1].current);
}

#[test]
fn tracker_order_pf2e_after_a_turn() {
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let t = hud_model::tracker(&mut c, 3, None);
    assert_eq!(
        names(&c, &t.order),
        [("Wizard".into(), 1), ("Ogre".into(), 1), ("Fighter".into(), 2), ("Wizard".into(), 2)]
    );
    let fighter = &t.order[2];
    assert!(fighter.tags.iter().any(|x| x == "frightened 1"), "{:?}", fighter.tags);
    assert!(fighter.tags.iter().any(|x| x == "persistent fire"), "{:?}", fighter.tags);
}

#[test]
fn tracker_pf1e_surprise_round_counts_and_flat_footed() {
    let mut c = at_end_of("hud-p1-surprise.ron");
    let t = hud_model::tracker(&mut c, 8, None);
    assert!(t.surprise_round);
    assert_eq!(t.round, 0);
    assert!(t.show_counts, "pf1e durations end just before initiative counts (P1-12)");
    assert_eq!(
        names(&c, &t.order)[..6],
        [
            ("Rogue".into(), 0),
            ("Goblin".into(), 0),
            ("Orc".into(), 1),
            ("Rogue".into(), 1),
            ("Goblin".into(), 1),
            ("Fighter".into(), 1)
        ]
    );
    assert_eq!(t.order[0].count, 19);
    let orc = t.order.iter().find(|r| c.name(r.who) == "Orc").expect("orc");
    assert!(orc.tags.iter().any(|x| x == "flat footed"), "{:?}", orc.tags);
}

#[test]
fn tracker_segments_timeline_with_cast_and_what_if() {
    let mut c = at_end_of("hud-sg-cast.ron");
    let knight = id(&c, "Knight");
    let t = hud_model::tracker(&mut c, 4, Some((knight, "skirmish")));
    assert_eq!(t.kind, TrackerKind::Segments { per_round: 10 });
    assert_eq!(t.timeline_rounds, (1, 2));
    let mark = |k: MarkKind| t.marks.iter().find(|m| m.kind == k).map(|m| (m.name.clone(), m.round, m.segment));
    assert_eq!(mark(MarkKind::CastResolves), Some(("Mage".into(), 1, 3)), "{:?}", t.marks);
    assert_eq!(mark(MarkKind::Now), Some(("Knight".into(), 1, 1)));
    // Skirmish move: RT 3 from segment 1.
    assert_eq!(mark(MarkKind::WhatIf), Some(("Knight".into(), 1, 4)));
    let w = hud_model::what_if(&mut c, knight, "sprint").expect("what if");
    assert_eq!((w.round, w.segment), (1, 6));
    assert!(w.text.contains("segment 6 of round 1"), "{}", w.text);
}

#[test]
fn forecast_and_next_turn_if_serve_fixed_cycles() {
    let mut c = at_end_of("hud-hb-opening.ron");
    let knight = id(&c, "Knight");
    // Every ability leaves the Knight its own slot in the next round.
    assert_eq!(c.next_turn_if(knight, "sword"), Some((2, 0)));
    let f = c.forecast(8);
    assert_eq!(f.len(), 8, "the order repeats into later rounds");
    assert_eq!(f.iter().filter(|t| t.round == 2).count(), 4);
    let w = hud_model::what_if(&mut c, knight, "sword").expect("what if");
    assert!(w.text.contains("round 2, 2nd in the order"), "{}", w.text);
}

#[test]
fn pips_under_each_budget() {
    let mut c = at_end_of("hud-hb-opening.ron");
    let k = id(&c, "Knight");
    let card = hud_model::card(&mut c, k);
    assert_eq!(
        card.budget,
        Budget::Pool { max: 3, spent: 0, restricted_left: 0, restricted_to: vec![], per_round: true }
    );
    assert_eq!(card.reactions, Reactions::Unlimited);

    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let w = id(&c, "Wizard");
    let card = hud_model::card(&mut c, w);
    assert!(matches!(card.budget, Budget::Pool { max: 3, spent: 0, per_round: false, .. }), "{:?}", card.budget);
    assert_eq!(card.reactions, Reactions::Left(1));
    c.submit(Command::Act(ActIntent::new(w, "fear", vec![id(&c, "Ogre")]))).expect("fear");
    let card = hud_model::card(&mut c, w);
    assert!(matches!(card.budget, Budget::Pool { max: 3, spent: 2, .. }), "{:?}", card.budget);
    // Slowed shows as an economy modifier (P2-12).
    c.submit(Command::Gm(GmInput::ApplyCondition { who: w, condition: "slowed".into(), rounds: None, value: Some(1) }))
        .expect("slowed");
    let card = hud_model::card(&mut c, w);
    assert!(
        card.modifiers.iter().any(|m| m.condition == "slowed" && m.effect.contains("−1 action")),
        "{:?}",
        card.modifiers
    );

    let mut c = at_end_of("hud-p1-surprise.ron");
    let r = id(&c, "Rogue");
    let card = hud_model::card(&mut c, r);
    // Surprise round: one standard or one move action; no full-round action (P1-27).
    assert!(
        matches!(card.budget, Budget::Slots { standard: 1, moves: 1, full_round_open: false, .. }),
        "{:?}",
        card.budget
    );

    let mut c = at_end_of("hud-sg-cast.ron");
    let g = id(&c, "Goblin");
    let card = hud_model::card(&mut c, g);
    assert_eq!(card.budget, Budget::Recovery { acting: false, owed: Some(0), next: Some((1, 1)) });
    let mage = id(&c, "Mage");
    let card = hud_model::card(&mut c, mage);
    let a = card.activity.expect("a cast under way");
    assert_eq!((a.paid, a.total, a.unit, a.concentrating), (0, 2, "segments", true));
    assert!(a.text.contains("resolves at segment 3 of round 1"), "{}", a.text);
}

#[test]
fn expiry_in_words_per_duration_clock() {
    // homebrew-d20: N rounds tick at round ends (G-HB-17).
    let mut c = at_end_of("hud-hb-opening.ron");
    let r = id(&c, "Ranger");
    c.submit(Command::Gm(GmInput::ApplyCondition {
        who: r,
        condition: "poisoned".into(),
        rounds: Some(2),
        value: None,
    }))
    .expect("poisoned");
    let b = hud_model::card(&mut c, r).badges.into_iter().find(|b| b.id == "poisoned").expect("badge");
    assert_eq!(b.expiry.split(';').next(), Some("ends at the end of round 2"));
    assert!(b.rules.contains(&"G-HB-17".to_string()), "{:?}", b.rules);

    // pf2e: Raise a Shield lasts until the start of the Fighter's next turn (P2-05).
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let f = id(&c, "Fighter");
    let badges = hud_model::card(&mut c, f).badges;
    let shield = badges.iter().find(|b| b.id == "shield_raised").expect("shield");
    assert_eq!(shield.expiry, "ends at the start of Fighter's next turn");
    let fire = badges.iter().find(|b| b.id == "persistent_fire").expect("fire");
    assert!(
        fire.expiry.contains("takes 2d6 damage at the end of each of its turns, then a DC 15 flat check ends it"),
        "{}",
        fire.expiry
    );
    assert!(fire.rules.contains(&"P2-23".to_string()));
    let scared = badges.iter().find(|b| b.id == "frightened").expect("frightened");
    assert!(scared.expiry.contains("goes down by 1 at the end of Fighter's turn"), "{}", scared.expiry);
    // The tooltip's texts come from the project's own rules reference (docs/rules.md).
    let text = scared.text.as_deref().expect("frightened is described in docs/rules.md");
    assert!(text.contains("negative valued condition"), "{text}");
    // A condition several systems share: only this ruleset's part of its text.
    let slowed = hud_model::rules_ref::condition_text_for(c.ruleset(), "slowed").expect("slowed");
    assert!(slowed.starts_with("Slowed N regains N fewer actions") && !slowed.contains("segments"), "{slowed}");
    for r in badges.iter().flat_map(|b| &b.rules) {
        let (title, body) = hud_model::rules_ref::rule_text(r).unwrap_or_else(|| panic!("{r} is not in docs/rules.md"));
        assert!(!title.is_empty() && !body.is_empty(), "{r}");
    }

    // pf1e: just before the initiative count it began on (P1-12).
    let mut c = at_end_of("hud-p1-surprise.ron");
    let rogue = id(&c, "Rogue");
    c.submit(Command::Gm(GmInput::ApplyCondition {
        who: rogue,
        condition: "haste_effect".into(),
        rounds: Some(3),
        value: None,
    }))
    .expect("haste");
    let b = hud_model::card(&mut c, rogue).badges.into_iter().find(|b| b.id == "haste_effect").expect("badge");
    assert!(b.expiry.starts_with("ends just before count 19 in round 3"), "{}", b.expiry);
    assert!(b.rules.contains(&"P1-12".to_string()));

    // segments: at a segment, before any turn there (G-SG-10).
    let mut c = at_end_of("hud-sg-cast.ron");
    let k = id(&c, "Knight");
    c.submit(Command::Gm(GmInput::ApplyCondition { who: k, condition: "slowed".into(), rounds: Some(1), value: None }))
        .expect("slowed");
    let b = hud_model::card(&mut c, k).badges.into_iter().find(|b| b.id == "slowed").expect("badge");
    assert!(b.expiry.starts_with("ends at segment 1 of round 2"), "{}", b.expiry);
}

#[test]
fn disabled_abilities_say_the_engines_reason() {
    let mut c = at_end_of("hud-sg-cast.ron");
    let k = id(&c, "Knight");
    let keys: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
    let bar = hud_model::ability_buttons(&mut c, k, &keys);
    let sword = bar.iter().find(|b| b.id == "longsword").expect("longsword");
    assert!(!sword.enabled);
    let goblin = id(&c, "Goblin");
    let engine = c.check_act(&ActIntent::new(k, "longsword", vec![goblin])).expect_err("out of reach");
    assert_eq!(sword.reason.as_deref(), Some(c.explain(&engine).as_str()));
    assert_eq!(sword.hotkey.as_deref(), Some("1"));
    assert_eq!(sword.cost, "RT 3");
    let shift = bar.iter().find(|b| b.id == "shift").expect("shift");
    assert!(shift.enabled && shift.reason.is_none());
    assert!(shift.what_if.as_deref().is_some_and(|w| w.contains("segment 2 of round 1")), "{:?}", shift.what_if);

    // pf2e: after two actions a 2-action ability is refused for the engine's reason.
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let w = id(&c, "Wizard");
    c.submit(Command::Act(ActIntent::new(w, "fear", vec![id(&c, "Ogre")]))).expect("fear");
    let bar = hud_model::ability_buttons(&mut c, w, &keys);
    let fear = bar.iter().find(|b| b.id == "fear").expect("fear");
    assert!(!fear.enabled);
    let engine = c.check_act(&ActIntent::new(w, "fear", vec![id(&c, "Ogre")])).expect_err("no actions");
    // The engine's typed reason, in the player's words (English here).
    let words = hud_model::rejection_words(&c, &engine, &skirmish::i18n::Tr::default());
    assert_eq!(fear.reason.as_deref(), Some(words.as_str()));
    assert_eq!(words, "needs 2 actions, 1 left");
    assert_eq!(fear.cost, "2 actions");
    let bolt = bar.iter().find(|b| b.id == "force_bolt").expect("bolt");
    assert!(bolt.enabled, "{:?}", bolt.reason);
    assert_eq!(bolt.targets, vec![id(&c, "Ogre")]);

    // pf1e: costs in typed slots.
    let c = at_end_of("hud-p1-surprise.ron");
    assert_eq!(hud_model::cost_text(c.ruleset(), "full_attack"), "full-round");
    assert_eq!(hud_model::cost_text(c.ruleset(), "move"), "move");
}

#[test]
fn log_sentences_with_dice_and_rule_ids() {
    let c = at_end_of("hud-hb-opening.ron");
    let mut v = LogView::default();
    v.update(&c);
    let attack = v.entries().iter().find(|e| e.kind == "AttackRolled").expect("attack");
    assert_eq!(
        attack.text,
        "Orc attacks Knight with Sword: 1d20 9 + STR 2 = 11 vs Parry 1d20 14 + STR 3 = 17 — blocked"
    );
    assert_eq!(attack.rule, Some("G-HB-21"));
    assert_eq!(attack.category, Category::Attack);
    let opening = v.entries().iter().find(|e| e.kind == "OpeningCreated").expect("opening");
    assert_eq!((opening.text.as_str(), opening.rule), ("An opening! Knight may act.", Some("HB-29")));

    let c = at_end_of("hud-p2-end-of-turn.ron");
    let mut v = LogView::default();
    v.update(&c);
    let flat = v.entries().iter().find(|e| e.kind == "FlatCheck").expect("flat check");
    assert_eq!(flat.text, "Fighter makes a flat check against persistent fire: 1d20 6 vs DC 15 — it goes on.");
    assert_eq!(flat.rule, Some("P2-23"));
    // The fire's damage: no rule of its own, so the end-of-turn step's (P2-23).
    let burn = v.entries().iter().find(|e| e.kind == "Damaged").expect("damage");
    assert_eq!((burn.text.as_str(), burn.rule), ("Fighter takes 7 damage [2d6 (3, 4)] (33 hp left).", Some("P2-23")));
    // Filters: by creature and by kind.
    let ogre = id(&c, "Ogre");
    let f = LogFilter { who: Some(ogre), hidden: vec![] };
    let kept = v.filtered(&f).count();
    assert!(kept > 0 && kept < v.entries().len(), "{kept} of {}", v.entries().len());
    assert!(v.filtered(&f).all(|e| e.actors.contains(&ogre)));
    let f = LogFilter { who: None, hidden: vec![Category::Turn] };
    let kept = v.filtered(&f).count();
    assert!(kept > 0 && kept < v.entries().len(), "{kept} of {}", v.entries().len());
    assert!(v.filtered(&f).all(|e| e.category != Category::Turn));
    // Rule IDs of the turn steps: frightened going down is P2-24 (Step 3), not a generic tag;
    // a condition an ability applies carries no step's ID.
    let down = v.entries().iter().find(|e| e.kind == "ConditionValueChanged").expect("frightened goes down");
    assert_eq!(down.rule, Some("P2-24"), "{}", down.text);
    let applied =
        v.entries().iter().find(|e| e.kind == "ConditionApplied" && e.text.contains("frightened")).expect("frightened");
    assert!(!matches!(applied.rule, Some("P2-08" | "P2-09" | "HB-24" | "SG-30" | "P1-18")), "{:?}", applied.rule);
    // Put on by the GM after Step 1 regained the actions: not the Regain step's (P2-09), but
    // the rule of what it does (persistent damage, P2-23).
    let fire =
        v.entries().iter().find(|e| e.kind == "ConditionApplied" && e.text.contains("persistent fire")).expect("fire");
    assert_eq!(fire.rule, Some("P2-23"), "{}", fire.text);
    // JSON lines: one object per entry, with its rule and its raw events.
    let jsonl = v.to_jsonl(&c);
    assert_eq!(jsonl.lines().count(), v.entries().len());
    for line in jsonl.lines() {
        let j: serde_json::Value = serde_json::from_str(line).expect("json");
        assert!(j["text"].is_string() && j["events"].is_array() && j.get("rule").is_some(), "{line}");
    }

    // pf1e and segments entries carry their own systems' IDs.
    let c = at_end_of("hud-p1-surprise.ron");
    let mut v = LogView::default();
    v.update(&c);
    let surprise = v.entries().iter().find(|e| e.kind == "SurpriseRound").expect("surprise");
    assert_eq!((surprise.text.as_str(), surprise.rule), ("Surprise round: only Rogue, Goblin may act.", Some("P1-26")));
    // A condition put on outside any step: tagged with the rule of what it does (flat-footed
    // loses its DEX to AC, P1-19).
    let ff = v.entries().iter().find(|e| e.kind == "ConditionApplied").expect("flat-footed");
    assert_eq!((ff.text.as_str(), ff.rule), ("Orc is flat footed 1.", Some("P1-19")));
    let c = at_end_of("hud-sg-cast.ron");
    let mut v = LogView::default();
    v.update(&c);
    let cast = v.entries().iter().find(|e| e.kind == "CastAnnounced").expect("cast");
    assert_eq!(
        (cast.text.as_str(), cast.rule),
        ("Mage begins casting Magic Missile: it resolves at segment 3 of round 1.", Some("SG-10"))
    );
}

#[test]
fn log_view_is_incremental_and_restarts_on_a_shorter_log() {
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let mut v = LogView::default();
    v.update(&c);
    let before = v.entries().len();
    let w = id(&c, "Wizard");
    c.submit(Command::EndTurn { actor: w }).expect("end");
    v.update(&c);
    assert!(v.entries().len() > before);
    let mut fresh = LogView::default();
    fresh.update(&c);
    assert_eq!(fresh.entries(), v.entries(), "reading in steps gives what reading at once gives");
    let other = at_end_of("hud-p1-surprise.ron");
    assert!(other.log().events.len() < c.log().events.len());
    v.update(&other);
    let mut again = LogView::default();
    again.update(&other);
    assert_eq!(again.entries(), v.entries(), "a different (shorter) log is read from the start");
    // Only the new events are read: rename the Wizard between two updates, and the entries read
    // before keep the old name while the new ones use the new one. A view that read the whole
    // log again at every update (same entries, many times the work) would rename them all.
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let mut v = LogView::default();
    v.update(&c);
    let before = v.entries().to_vec();
    let w = id(&c, "Wizard");
    assert!(before.iter().any(|e| e.text.contains("Wizard")), "{before:?}");
    let e = c.world.resource::<skirmish::rules::state::Roster>().entities[w.0 as usize];
    c.world.entity_mut(e).insert(skirmish::rules::components::LocalNames([("en".into(), "Zed".into())].into()));
    c.submit(Command::EndTurn { actor: w }).expect("end");
    v.update(&c);
    assert_eq!(&v.entries()[..before.len()], &before[..], "entries read before are not read again");
    let new = &v.entries()[before.len()..];
    assert!(new.iter().any(|e| e.text.contains("Zed")), "{new:?}");
    let mut fresh = LogView::default();
    fresh.update(&c);
    assert!(!fresh.entries().iter().any(|e| e.text.contains("Wizard")), "read at once, every entry has the new name");
}

#[test]
fn log_dice_words_show_every_die_kept_dropped_and_subtracted() {
    use skirmish::hud_model::log::dice_words;
    use skirmish::rules::dice::DieRoll;
    let d = |sides, value, kept, negative| DieRoll { sides, value, kept, negative };
    assert_eq!(dice_words(&[]), None);
    assert_eq!(dice_words(&[d(20, 14, true, false)]).as_deref(), Some("1d20 14"));
    assert_eq!(dice_words(&[d(20, 17, true, false), d(20, 4, false, false)]).as_deref(), Some("2d20 (17, 4 dropped)"));
    assert_eq!(dice_words(&[d(20, 12, true, false), d(4, 3, true, true)]).as_deref(), Some("1d20 12 − 1d4 3"));
    assert_eq!(dice_words(&[d(6, 2, true, true)]).as_deref(), Some("−1d6 2"));
}

#[test]
fn pf1e_charge_is_offered_with_a_square_next_to_its_target() {
    // A charge needs a destination: the bar asks the engine about the squares around each target,
    // and the game's click uses the nearest one the engine accepts.
    let mut c = at_end_of("hud-p1-surprise.ron");
    let fighter = id(&c, "Fighter");
    let orc = id(&c, "Orc");
    for _ in 0..12 {
        if c.turn().active == Some(fighter) && c.turn().round >= 1 {
            break;
        }
        let Some(a) = c.turn().active else { break };
        let _ = c.submit(Command::EndTurn { actor: a });
    }
    assert_eq!(c.turn().active, Some(fighter), "the Fighter's regular turn");
    let keys: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
    let bar = hud_model::ability_buttons(&mut c, fighter, &keys);
    let charge = bar.iter().find(|b| b.id == "charge").expect("charge");
    assert!(charge.enabled, "{:?}", charge.reason);
    assert!(charge.targets.contains(&orc), "{:?}", charge.targets);
    let to = hud_model::charge_destination(&mut c, fighter, "charge", orc).expect("a square next to the Orc");
    let orc_at = *c.get::<skirmish::rules::components::GridPos>(orc).unwrap();
    assert_eq!(to.distance(orc_at), 1);
    let mut i = ActIntent::new(fighter, "charge", vec![orc]);
    i.to = Some(to);
    c.submit(Command::Act(i)).expect("the charge the bar offered is accepted");
}

#[test]
fn a_stunned_creature_shows_no_reactions() {
    // pf2e stunned: can't act, so no reaction (P2-16), whatever its pool says.
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let ogre = id(&c, "Ogre");
    assert_eq!(hud_model::card(&mut c, ogre).reactions, Reactions::Left(1));
    c.submit(Command::Gm(GmInput::ApplyCondition {
        who: ogre,
        condition: "stunned".into(),
        rounds: None,
        value: Some(1),
    }))
    .expect("stunned");
    assert_eq!(hud_model::card(&mut c, ogre).reactions, Reactions::CannotAct);
}

/// An opening's prompt offers what the engine's own dry run accepts, nothing it would refuse:
/// melee attacks on the adjacent enemy only (not the far one, not an ally), ranged ones on both
/// enemies, nothing costing more than the actions left, and passing last.
#[test]
fn an_openings_choices_are_what_the_engine_would_accept() {
    use crate::common::{Fight, SpecExt, who};
    use skirmish::hud_model::prompt::choices;
    use skirmish::rules::command::Choice;
    use skirmish::rules::state::{DecisionKind, Pending};
    let mut f = Fight::new(vec![
        who("A", "heroes", 20, (0, 0)).stat("STR", 2).stat("DEX", 2).with(&["sword", "bow", "heavy_blow"]),
        who("Ally", "heroes", 5, (0, 1)),
        who("B", "monsters", 10, (1, 0)),
        who("C", "monsters", 8, (6, 0)),
    ]);
    let labels = |f: &mut Fight| {
        let p = f.0.world.resource::<Pending>().0.clone().expect("an opening is pending");
        assert!(matches!(p.kind, DecisionKind::Opening { .. }));
        let by = p.by;
        let list = choices(&mut f.0, &p.kind, by);
        // Every offer is accepted by the engine.
        for (label, choice) in &list {
            let mut probe = skirmish::save::rebuild(&f.0, f.0.journal().len()).expect("a copy");
            let answer = skirmish::rules::command::Command::Decide { by, choice: choice.clone() };
            assert!(probe.submit(answer).is_ok(), "{label}");
        }
        assert_eq!(list.last().map(|(_, c)| c.clone()), Some(Choice::Opening(None)));
        list.into_iter().map(|(l, _)| l).collect::<Vec<_>>()
    };
    f.end("A");
    f.gm(GmInput::Opening { eligible: vec![f.id("A")] }).unwrap();
    let offered = labels(&mut f);
    let on = |what: &str| offered.iter().any(|l| l.starts_with(what));
    assert!(on("Sword on B") && on("Heavy Blow on B") && on("Bow on B") && on("Bow on C"), "{offered:?}");
    assert!(!on("Sword on C") && !offered.iter().any(|l| l.contains("on Ally") || l.contains("on A ")), "{offered:?}");
    // Two actions spent in this opening: the next one cannot pay for the Heavy Blow's 2.
    f.force(&[10]);
    f.opening("A", Some("heavy_blow"), &["B"]).unwrap();
    if f.0.world.resource::<Pending>().0.is_some() {
        f.defend("B", skirmish::rules::command::DefenseMethod::NoDefense).unwrap();
    }
    f.gm(GmInput::Opening { eligible: vec![f.id("A")] }).unwrap();
    let offered = labels(&mut f);
    assert!(offered.iter().any(|l| l.starts_with("Sword on B")), "{offered:?}");
    assert!(!offered.iter().any(|l| l.starts_with("Heavy Blow")), "{offered:?}");
}

// Tests found by cargo-mutants (issue 26): each pins down an effect of the view-models that no
// test above looked at.

/// A combat set up from scenario text (resolved as if it sat in `tests/scenarios/`), at the end
/// of its steps.
fn inline(text: &str) -> Combat {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/inline.ron");
    let ls = skirmish::scenario::load_str(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let (report, combat) = skirmish::scenario::run_keeping(&ls, None);
    assert!(report.passed(), "{:?}", report.checks.iter().find(|c| c.failure.is_some()));
    combat.expect("the scenario sets up")
}

/// Two hits with forced dice: the first leaves the Goblin 4 hp, the second takes it down and the
/// heroes win.
const DUEL_TO_THE_END: &str = r#"Scenario(
    name: "a duel to the end",
    ruleset: "homebrew-d20",
    combatants: [
        (name: "Hero", side: "heroes", stats: {"STR": 2}, abilities: ["sword"], initiative: Total(20), at: (0, 0)),
        (name: "Goblin", side: "monsters", stats: {"DEX": 1}, hp: 10, initiative: Total(5), at: (1, 0)),
    ],
    steps: [
        Force([13]),
        Act(actor: "Hero", ability: "sword", targets: ["Goblin"]),
        Force([9, 4]),
        Defend("Goblin", Dodge),
        Force([13]),
        Act(actor: "Hero", ability: "sword", targets: ["Goblin"]),
        Force([9, 4]),
        Defend("Goblin", Dodge),
        Expect(Count((kind: "CombatEnded"), 1)),
    ],
)"#;

/// A hit's entry holds the Dodge roll with its stat and the damage to the target: one entry per
/// attack, no separate damage entry. Found by cargo-mutants (issue 26).
#[test]
fn an_attack_entry_holds_the_dodge_roll_and_the_damage_to_its_target() {
    let c = inline(DUEL_TO_THE_END);
    let mut v = LogView::default();
    v.update(&c);
    let attacks: Vec<&str> = v.entries().iter().filter(|e| e.kind == "AttackRolled").map(|e| e.text.as_str()).collect();
    assert_eq!(attacks.len(), 2, "{attacks:?}");
    assert_eq!(
        attacks[0],
        "Hero attacks Goblin with Sword: 1d20 13 + STR 2 = 15 vs Dodge 1d20 9 + DEX 1 = 10 — hit, 6 damage [1d8 4] (Goblin 4 hp left)"
    );
    assert!(!v.entries().iter().any(|e| e.kind == "Damaged"), "the damage belongs to the attack's entry");
}

/// The winner is named by the side names given to the view, and switching the language reads the
/// whole log again in it, keeping those names. Found by cargo-mutants (issue 26).
#[test]
fn the_log_names_the_winning_side_and_rereads_itself_in_a_new_language() {
    use skirmish::i18n::Tr;
    let c = inline(DUEL_TO_THE_END);
    let won = |v: &LogView| v.entries().iter().find(|e| e.kind == "CombatEnded").map(|e| e.text.clone());
    let mut plain = LogView::default();
    plain.update(&c);
    assert_eq!(won(&plain).as_deref(), Some("The fight is over: heroes wins."));
    let sides: std::collections::BTreeMap<String, String> = [("heroes".to_string(), "Team Hero".to_string())].into();
    let mut v = LogView::default();
    v.set_side_names(sides.clone());
    v.update(&c);
    assert_eq!(won(&v).as_deref(), Some("The fight is over: Team Hero wins."));
    let es = Tr::shipped("es");
    v.set_language(&es);
    v.update(&c);
    let mut fresh = LogView::in_language(&es);
    fresh.set_side_names(sides);
    fresh.update(&c);
    assert_eq!(v.entries(), fresh.entries(), "the whole log is read again in Spanish");
    assert_ne!(v.entries()[0].text, plain.entries()[0].text, "{}", v.entries()[0].text);
    assert!(won(&v).is_some_and(|t| t.contains("Team Hero")), "{:?}", won(&v));
}

/// An update with no new events reads nothing again: a creature renamed since keeps its old name
/// in the entries already read. Found by cargo-mutants (issue 26).
#[test]
fn an_update_without_new_events_reads_nothing_again() {
    let mut c = inline(DUEL_TO_THE_END);
    let mut v = LogView::default();
    v.update(&c);
    let before = v.entries().to_vec();
    let hero = id(&c, "Hero");
    let e = c.world.resource::<skirmish::rules::state::Roster>().entities[hero.0 as usize];
    c.world.entity_mut(e).insert(skirmish::rules::components::LocalNames([("en".into(), "Zed".into())].into()));
    v.update(&c);
    assert_eq!(v.entries(), &before[..]);
    let mut fresh = LogView::default();
    fresh.update(&c);
    assert!(fresh.entries().iter().any(|e| e.text.contains("Zed")), "read at once, the new name shows");
}

/// A pf2e turn's end steps are over when its `TurnEnded` is logged: a draw at the round cap right
/// after it carries no step's rule (P2-26). Found by cargo-mutants (issue 26).
#[test]
fn a_draw_after_the_last_turn_carries_no_turn_steps_rule() {
    use crate::common::{Fight, pc, pf2e};
    let mut rs = pf2e();
    rs.round_cap = 1;
    let mut f = Fight::with_ruleset(rs, vec![pc("A", "heroes", 20, (0, 0)), pc("B", "monsters", 10, (5, 0))]);
    f.end("A");
    f.end("B");
    let mut v = LogView::default();
    v.update(&f.0);
    let n = v.entries().len();
    let tail: Vec<(&str, &str, Option<&str>)> =
        v.entries()[n - 2..].iter().map(|e| (e.kind.as_str(), e.text.as_str(), e.rule)).collect();
    assert_eq!(
        tail,
        [
            ("CombatDrawn", "The round cap (1) is reached — a draw.", None),
            ("CombatEnded", "The fight is over: a draw.", None)
        ]
    );
}

/// The log filter's category names. Found by cargo-mutants (issue 26).
#[test]
fn log_categories_have_their_names() {
    let tr = skirmish::i18n::Tr::default();
    let labels: Vec<String> = Category::ALL.iter().map(|c| c.label_in(&tr)).collect();
    assert_eq!(labels, ["turns", "attacks", "movement", "conditions", "decisions", "casting", "other"]);
}

fn category_of(v: &LogView, kind: &str) -> Option<Category> {
    v.entries().iter().find(|e| e.kind == kind).map(|e| e.category)
}

/// Entries are filed under their kind's category: openings under decisions, damage and flat
/// checks under attacks. Found by cargo-mutants (issue 26).
#[test]
fn log_entries_are_filed_under_their_category() {
    let c = at_end_of("hud-hb-opening.ron");
    let mut v = LogView::default();
    v.update(&c);
    assert_eq!(category_of(&v, "OpeningCreated"), Some(Category::Decision));
    assert_eq!(category_of(&v, "AttackRolled"), Some(Category::Attack));
    let c = at_end_of("hud-p2-end-of-turn.ron");
    let mut v = LogView::default();
    v.update(&c);
    assert_eq!(category_of(&v, "Damaged"), Some(Category::Attack));
    assert_eq!(category_of(&v, "FlatCheck"), Some(Category::Attack));
    assert_eq!(category_of(&v, "ConditionValueChanged"), Some(Category::Condition));
    assert_eq!(category_of(&v, "TurnEnded"), Some(Category::Turn));
}

/// Sentences whose wording depends on a number or a kind: a skipped turn's reason, an ability's
/// cost (none for a free bonus action, the slot under typed slots), a mod's condition with or
/// without a value, restricted actions regained, actions left unspent, a turn's segment.
/// Found by cargo-mutants (issue 26).
#[test]
fn log_sentences_follow_the_numbers_and_kinds_in_their_event() {
    use crate::common::{homebrew, pf1e, pf2e, segments};
    use skirmish::hud_model::log::{action_kind_words, mode_name, sentence_in};
    use skirmish::rules::components::Via;
    use skirmish::rules::log::{CombatEvent as E, ModAction};
    use skirmish::rules::ruleset::{ActionType, Ruleset};
    let tr = skirmish::i18n::Tr::default();
    let names = |c: Cid| ["Knight", "Orc"][c.0 as usize].to_string();
    let say = |rs: &Ruleset, e: E| sentence_in(rs, &tr, &e, &names).expect("a sentence");
    let (k, o) = (Cid(0), Cid(1));
    let (hb, p2, p1, sg) = (homebrew(), pf2e(), pf1e(), segments());
    assert_eq!(say(&hb, E::TurnSkipped { who: o, reason: "cannot act".into() }), "Orc's turn is skipped: cannot act.");
    assert_eq!(
        say(&hb, E::TurnSkipped { who: o, reason: "busy completing `fireball`".into() }),
        "Orc's turn is skipped: busy completing Fireball."
    );
    let used = |ability: &str, cost: u8, targets: Vec<Cid>| E::AbilityUsed {
        who: k,
        ability: ability.into(),
        cost,
        targets,
        via: Via::Turn,
    };
    assert_eq!(say(&hb, used("shout", 0, vec![])), "Knight uses Battle Shout.");
    assert_eq!(say(&hb, used("sword", 1, vec![o])), "Knight uses Sword on Orc (1 action).");
    assert_eq!(say(&p1, used("full_attack", 0, vec![o])), "Knight uses Full attack on Orc (full-round).");
    let put = |v: i32| E::ModEffect {
        source: "regen".into(),
        who: k,
        action: ModAction::ApplyCondition("frightened".into(), v),
    };
    assert_eq!(say(&p2, put(2)), "Mod regen puts frightened 2 on Knight.");
    assert_eq!(say(&p2, put(0)), "Mod regen puts frightened on Knight.");
    let regained = |restricted: u8| E::ActionsRegained { who: k, actions: 3, restricted, reactions: 1 };
    assert_eq!(say(&p2, regained(1)), "Knight regains 3 actions + 1 restricted and 1 reaction.");
    assert_eq!(say(&p2, regained(0)), "Knight regains 3 actions and 1 reaction.");
    assert_eq!(say(&p2, E::TurnEnded { who: k, actions_left: 2 }), "Knight ends the turn with 2 actions unspent.");
    assert_eq!(say(&p2, E::TurnEnded { who: k, actions_left: 0 }), "Knight ends the turn.");
    // Segment 13 of the clock is round 2, segment 3.
    assert_eq!(say(&sg, E::TurnStarted { who: k, round: 2, time: 13 }), "Knight's turn (round 2, segment 3).");
    assert_eq!(say(&sg, E::TurnStarted { who: k, round: 1, time: 1 }), "Knight's turn.");
    // A disengage with nobody in reach named nobody: "Mage disengages from ." (CI's 3D shot).
    assert_eq!(say(&hb, E::Disengaged { who: k, from: vec![o] }), "Knight disengages from Orc.");
    assert_eq!(say(&hb, E::Disengaged { who: k, from: vec![] }), "Knight disengages, with no enemy in reach.");
    let kinds: Vec<String> = [
        ActionType::Standard,
        ActionType::Move,
        ActionType::FullRound,
        ActionType::Swift,
        ActionType::Immediate,
        ActionType::Free,
        ActionType::FiveFootStep,
    ]
    .into_iter()
    .map(|t| action_kind_words(&tr, t))
    .collect();
    assert_eq!(
        kinds,
        [
            "a standard action",
            "a move action",
            "a full-round action",
            "a swift action",
            "an immediate action",
            "a free action",
            "a 5-foot step"
        ]
    );
    assert_eq!(mode_name(&tr, "fly"), "fly");
    assert_eq!(mode_name(&tr, "burrow"), "burrow", "a mode the catalog lacks keeps its id");
}

/// Each ruleset's rule references follow its strategies; a rule's title and text come from
/// docs/rules.md, and an unknown ID has none. Found by cargo-mutants (issue 26).
#[test]
fn rule_families_and_rule_texts() {
    use crate::common::{homebrew, pf1e, pf2e, segments};
    use skirmish::hud_model::rules_ref::{Family, family, rule_text, rule_text_in};
    assert_eq!(
        [family(&homebrew()), family(&pf2e()), family(&pf1e()), family(&segments())],
        [Family::PerRoundPool, Family::PerTurnPool, Family::TypedSlots, Family::Segments]
    );
    let (title, text) = rule_text("HB-29").expect("HB-29 is in docs/rules.md");
    assert_eq!(title, "The GM opens an opening");
    assert!(text.starts_with("An opening is a window to act outside your turn"), "{text}");
    assert_eq!(rule_text("NOT-A-RULE"), None);
    assert_eq!(rule_text_in("en", "HB-29"), rule_text("HB-29"));
    assert_eq!(rule_text_in("ko", "NOT-A-RULE"), None);
}

/// Every GM call the form spells out, with its words and what it sends; a condition's rounds and
/// value only where they are set. Found by cargo-mutants (issue 26).
#[test]
fn gm_calls_spell_out_the_form() {
    use skirmish::hud_model::gm::{GmForm, gm_calls};
    use skirmish::rules::ruleset::HitKind;
    let mut c = at_end_of("hud-hb-opening.ron");
    let (knight, ranger) = (id(&c, "Knight"), id(&c, "Ranger"));
    let form = GmForm::new(&c);
    assert_eq!((form.who, form.condition.as_str(), form.rounds, form.value), (id(&c, "Orc"), "prone", 1, 0));
    let form = GmForm { who: knight, rounds: 0, eligible: vec![knight, ranger], ..form };
    let calls = gm_calls(&mut c, &form);
    let labels: Vec<&str> = calls.iter().map(|x| x.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Open an opening for Knight, Ranger",
            "Apply prone to Knight",
            "Interrupt Knight",
            "Permanent wound to Knight",
            "Knight is hit by a ranged attack",
            "Knight is aware",
            "Make Knight's Assist an area assist",
        ]
    );
    let inputs: Vec<GmInput> = calls.into_iter().map(|x| x.input).collect();
    assert_eq!(
        inputs,
        [
            GmInput::Opening { eligible: vec![knight, ranger] },
            GmInput::ApplyCondition { who: knight, condition: "prone".into(), rounds: None, value: None },
            GmInput::Interrupt { who: knight },
            GmInput::PermanentWound { who: knight },
            GmInput::HitBy { who: knight, kind: HitKind::Ranged },
            GmInput::SetAware { who: knight, aware: true },
            GmInput::AreaAssist { who: knight },
        ]
    );
    for (rounds, value, label, r, v) in [
        (2, 0, "Apply prone to Knight for 2 rounds", Some(2), None),
        (0, 3, "Apply prone to Knight (value 3)", None, Some(3)),
        (1, 3, "Apply prone to Knight (value 3) for 1 round", Some(1), Some(3)),
    ] {
        let f = GmForm { rounds, value, ..form.clone() };
        let call = gm_calls(&mut c, &f).into_iter().nth(1).expect("the condition call");
        assert_eq!(call.label, label);
        assert_eq!(call.input, GmInput::ApplyCondition { who: knight, condition: "prone".into(), rounds: r, value: v });
    }
}

/// The policy's suggestion in words, one reason per trigger. Found by cargo-mutants (issue 26).
#[test]
fn the_gm_suggestion_gives_every_reason() {
    use skirmish::hud_model::gm::suggestion_words;
    use skirmish::rules::gm_policy::{OpeningCall, OpeningTrigger, Trigger};
    let c = at_end_of("hud-hb-opening.ron");
    let (orc, knight, goblin, ranger) = (id(&c, "Orc"), id(&c, "Knight"), id(&c, "Goblin"), id(&c, "Ranger"));
    let t = |when, subject, by, condition: Option<&str>| Trigger {
        when,
        subject,
        by,
        condition: condition.map(Into::into),
    };
    let call = OpeningCall {
        eligible: vec![knight, ranger],
        because: vec![
            t(OpeningTrigger::Missed, knight, Some(orc), None),
            t(OpeningTrigger::Missed, ranger, None, None),
            t(OpeningTrigger::Debilitating, orc, None, Some("prone")),
            t(OpeningTrigger::Debilitating, goblin, None, None),
        ],
    };
    assert_eq!(
        suggestion_words(&c, &call),
        "The GM may open an opening for Knight, Ranger: Orc missed Knight; an attack missed Ranger; Orc is prone; Goblin is debilitated"
    );
}

/// Each row's side index is its side's place in the encounter: the monsters first here.
/// Found by cargo-mutants (issue 26).
#[test]
fn tracker_rows_and_cards_carry_their_sides_place() {
    let mut c = at_end_of("hud-hb-opening.ron");
    let t = hud_model::tracker(&mut c, 3, None);
    let sides: Vec<(String, usize)> = t.order.iter().map(|r| (c.name(r.who), r.side_index)).collect();
    assert_eq!(sides, [("Orc".into(), 0), ("Knight".into(), 1), ("Goblin".into(), 0), ("Ranger".into(), 1)]);
    let k = id(&c, "Knight");
    assert_eq!(hud_model::card(&mut c, k).side_index, 1);
}

/// A creature holding a cast off the schedule is shown with its held cast, not among the readied.
/// Found by cargo-mutants (issue 26).
#[test]
fn a_held_cast_off_the_schedule_is_not_a_readied_action() {
    let mut c = at_end_of("ex-sg-10-holding-forbids.ron");
    let caster = id(&c, "Caster");
    c.submit(Command::EndTurn { actor: caster }).expect("the holder ends its turn, still holding");
    let t = hud_model::tracker(&mut c, 4, None);
    assert_eq!(names(&c, &t.readied), Vec::<(String, u32)>::new());
    let held: Vec<(String, String)> = t.held.iter().map(|h| (c.name(h.who), h.ability.clone())).collect();
    assert_eq!(held, [("Caster".to_string(), "Shield".to_string())]);
}

/// pf1e: at the start of a regular turn a full-round action and a 5-foot step are both open.
/// Found by cargo-mutants (issue 26).
#[test]
fn pf1e_a_regular_turn_opens_every_slot() {
    let mut c = at_end_of("hud-p1-surprise.ron");
    let orc = id(&c, "Orc");
    for _ in 0..12 {
        if c.turn().active == Some(orc) && c.turn().round >= 1 {
            break;
        }
        let Some(a) = c.turn().active else { break };
        let _ = c.submit(Command::EndTurn { actor: a });
    }
    assert_eq!((c.turn().active, c.turn().round), (Some(orc), 1), "the Orc's first regular turn");
    assert_eq!(
        hud_model::card(&mut c, orc).budget,
        Budget::Slots { standard: 1, moves: 1, swift: 1, full_round_open: true, step_open: true }
    );
}

/// Segments: the card counts the segments until the creature's next turn.
/// Found by cargo-mutants (issue 26).
#[test]
fn segments_card_counts_segments_to_the_next_turn() {
    use skirmish::rules::components::GridPos;
    let mut c = at_end_of("hud-sg-cast.ron");
    let k = id(&c, "Knight");
    let mut shift = ActIntent::new(k, "shift", vec![]);
    shift.to = Some(GridPos { x: 3, y: 1 });
    c.submit(Command::Act(shift)).expect("shift: RT 1");
    assert_eq!(c.clock(), (1, 1), "the Goblin's turn, still in segment 1");
    assert_eq!(
        hud_model::card(&mut c, k).budget,
        Budget::Recovery { acting: false, owed: Some(1), next: Some((1, 2)) }
    );
}

/// pf2e quickened: an economy modifier with the abilities its extra action is for, and its rule
/// (P2-12) on the badge. Found by cargo-mutants (issue 26).
#[test]
fn pf2e_quickened_shows_its_extra_action_and_rule() {
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let w = id(&c, "Wizard");
    c.submit(Command::Gm(GmInput::ApplyCondition { who: w, condition: "quickened".into(), rounds: None, value: None }))
        .expect("quickened");
    let card = hud_model::card(&mut c, w);
    let mods: Vec<(&str, &str)> = card.modifiers.iter().map(|m| (m.condition.as_str(), m.effect.as_str())).collect();
    assert_eq!(mods, [("quickened", "+1 action at the start of each turn, only for Strike, Stride")]);
    let b = card.badges.iter().find(|b| b.id == "quickened").expect("badge");
    assert_eq!(b.rules, ["P2-12"]);
}

/// Segments slowed: its badge lists what it does (G-SG-05, SG-30) and then how it ends (G-SG-10).
/// Found by cargo-mutants (issue 26).
#[test]
fn a_badge_lists_what_the_condition_does_then_how_it_ends() {
    let mut c = at_end_of("hud-sg-cast.ron");
    let k = id(&c, "Knight");
    c.submit(Command::Gm(GmInput::ApplyCondition { who: k, condition: "slowed".into(), rounds: Some(1), value: None }))
        .expect("slowed");
    let b = hud_model::card(&mut c, k).badges.into_iter().find(|b| b.id == "slowed").expect("badge");
    assert_eq!(b.rules, ["G-SG-05", "SG-30", "G-SG-10"]);
}

/// On a segment clock an ability without a recovery time shows none, unless it is a move (its
/// mode sets it). Found by cargo-mutants (issue 26).
#[test]
fn segments_cost_without_a_recovery_time() {
    let mut rs = crate::common::segments();
    for a in rs.abilities.iter_mut().filter(|a| ["speak", "draw_weapon", "shift"].contains(&a.id.as_str())) {
        a.recovery = None;
    }
    assert_eq!(hud_model::cost_text(&rs, "speak"), "free action");
    assert_eq!(hud_model::cost_text(&rs, "draw_weapon"), "");
    assert_eq!(hud_model::cost_text(&rs, "shift"), "RT by movement mode");
    assert_eq!(hud_model::cost_text(&rs, "magic_missile"), "RT 4 · CT 2");
}

/// A and B each have one free square next to them, taken by an enemy: for A it is the one above,
/// for B the one up and to the right (the last the bar's probe reaches). Walls and the map's
/// edge close the rest.
const BOXED_IN: &str = r####"Scenario(
    name: "boxed in",
    ruleset: "homebrew-d20",
    map: [
        "#.#...",
        "#.##.#",
        "#.#.##",
    ],
    combatants: [
        (name: "A", side: "heroes", movement: {"walk": 5}, initiative: Total(20), at: (1, 2)),
        (name: "B", side: "heroes", movement: {"walk": 5}, initiative: Total(15), at: (3, 2)),
        (name: "E", side: "monsters", movement: {"walk": 5}, initiative: Total(10), at: (1, 1)),
        (name: "F", side: "monsters", movement: {"walk": 5}, initiative: Total(5), at: (4, 1)),
    ],
    steps: [Expect(Turn("A"))],
)"####;

/// A creature with nowhere to move: the bar's reason is the engine's answer about its one free
/// neighbouring square. Found by cargo-mutants (issue 26).
#[test]
fn a_boxed_in_creatures_move_says_why_for_its_free_neighbour() {
    let mut c = inline(BOXED_IN);
    let (a, b) = (id(&c, "A"), id(&c, "B"));
    let mv = |c: &mut Combat, who: Cid| {
        hud_model::ability_buttons(c, who, &[]).into_iter().find(|x| x.id == "move").map(|x| (x.enabled, x.reason))
    };
    assert_eq!(mv(&mut c, a), Some((false, Some("square (1, 1) is occupied".to_string()))));
    c.submit(Command::EndTurn { actor: a }).expect("end");
    assert_eq!(mv(&mut c, b), Some((false, Some("square (4, 1) is occupied".to_string()))));
}

/// An ability on oneself (Raise a Shield) is usable as it is, with no creature targets.
/// Found by cargo-mutants (issue 26).
#[test]
fn a_self_ability_on_the_bar_has_no_targets() {
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let w = id(&c, "Wizard");
    let bar = hud_model::ability_buttons(&mut c, w, &[]);
    let shield = bar.iter().find(|b| b.id == "raise_shield").expect("Raise a Shield");
    assert_eq!(
        (shield.enabled, shield.targets.clone(), shield.reason.clone(), shield.cost.as_str()),
        (true, vec![], None, "1 action")
    );
}

/// The Goblin stands in a pocket of walls: no square next to it to end a charge on.
const WALLED_IN: &str = r####"Scenario(
    name: "walled in",
    ruleset: "pf1e",
    map: [
        "###.....",
        "#.#.....",
        "###.....",
    ],
    combatants: [
        (name: "Fighter", side: "heroes", stats: {"AC": 17, "STR": 3}, hp: 20, abilities: ["charge"], initiative: Total(20), at: (5, 1)),
        (name: "Goblin", side: "monsters", stats: {"AC": 14}, hp: 7, initiative: Total(10), at: (1, 1)),
    ],
    steps: [Expect(Turn("Fighter"))],
)"####;

/// A charge at a creature with no free square around it: the bar gives the engine's reason for
/// a charge at it. Found by cargo-mutants (issue 26).
#[test]
fn a_charge_at_a_walled_in_creature_says_the_engines_reason() {
    let mut c = inline(WALLED_IN);
    let (f, g) = (id(&c, "Fighter"), id(&c, "Goblin"));
    let bar = hud_model::ability_buttons(&mut c, f, &[]);
    let charge = bar.iter().find(|b| b.id == "charge").expect("charge");
    let engine = c.check_act(&ActIntent::new(f, "charge", vec![g])).expect_err("no square to end on");
    let words = hud_model::rejection_words(&c, &engine, &skirmish::i18n::Tr::default());
    assert_eq!((charge.enabled, charge.targets.clone(), charge.reason.clone()), (false, vec![], Some(words)));
}

/// A defence prompt names each method's stat; a triggered reaction says it uses the reaction.
/// Found by cargo-mutants (issue 26).
#[test]
fn prompts_name_the_defence_stat_and_the_reaction_cost() {
    use skirmish::hud_model::prompt::choices;
    use skirmish::rules::command::{Decider, DefenseMethod};
    use skirmish::rules::ruleset::TurnStep;
    use skirmish::rules::state::DecisionKind;
    let labels = |c: &mut Combat, kind: DecisionKind, by: Cid| {
        choices(c, &kind, Decider::Creature(by)).into_iter().map(|(l, _)| l).collect::<Vec<_>>()
    };
    let mut c = at_end_of("hud-hb-opening.ron");
    let (orc, knight) = (id(&c, "Orc"), id(&c, "Knight"));
    let options = vec![DefenseMethod::Dodge, DefenseMethod::Parry, DefenseMethod::NoDefense];
    assert_eq!(
        labels(&mut c, DecisionKind::Defense { attacker: orc, attack_total: 11, options }, knight),
        [
            "Dodge: 1d20 + DEX against Orc's 11 — free, no action cost (G-HB-11)",
            "Parry: 1d20 + STR against Orc's 11 — free, no action cost (G-HB-11)",
            "No defence roll: the attack hits against Orc's 11",
        ]
    );
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let fighter = id(&c, "Fighter");
    let kind = DecisionKind::Triggered {
        step: TurnStep::TurnEndsTrigger,
        options: vec!["parting_shot".into(), "strike".into()],
    };
    assert_eq!(
        labels(&mut c, kind, fighter),
        ["Use Parting Shot now (uses your reaction)", "Use Strike now (a free action)", "Use nothing"]
    );
}

/// A log view that starts over on a shorter log (a new combat, an undo) keeps its language and
/// its side names. Found by cargo-mutants (issue 26).
#[test]
fn a_log_read_again_from_the_start_keeps_its_language_and_side_names() {
    let tr = skirmish::i18n::Tr::shipped("es");
    let long = inline(DUEL_TO_THE_END);
    // The same duel won by the first hit: a shorter log, which also names a winner.
    let quick = inline(&DUEL_TO_THE_END.replace("hp: 10", "hp: 1").replacen(
        "Force([13]),\n        Act(actor: \"Hero\", ability: \"sword\", targets: [\"Goblin\"]),\n        Force([9, 4]),\n        Defend(\"Goblin\", Dodge),\n        Expect",
        "Expect",
        1,
    ));
    assert!(quick.log().events.len() < long.log().events.len());
    let names: std::collections::BTreeMap<String, String> = [("heroes".to_string(), "Los héroes".to_string())].into();
    let read = |first: Option<&Combat>, last: &Combat| {
        let mut v = LogView::in_language(&tr);
        v.set_side_names(names.clone());
        if let Some(f) = first {
            v.update(f);
        }
        v.update(last);
        v.entries().iter().map(|e| e.text.clone()).collect::<Vec<_>>()
    };
    // Read after the longer log, the shorter one reads as a fresh view reads it: in Spanish,
    // naming the winners by their Spanish side name.
    let fresh = read(None, &quick);
    assert_eq!(read(Some(&long), &quick), fresh);
    assert!(fresh.last().is_some_and(|t| t.contains("Los héroes")), "{fresh:?}");
    let mut english = LogView::default();
    english.update(&quick);
    let english: Vec<String> = english.entries().iter().map(|e| e.text.clone()).collect();
    assert_ne!(fresh[..fresh.len() - 1], english[..english.len() - 1], "the Spanish view reads in Spanish");
}

#[test]
fn a_condition_badge_names_its_roll_modifiers_at_its_value() {
    // Issue 28: frightened 2 (pf2e) is a −2 status penalty to attack rolls, saves, DCs and AC;
    // the card's badge says so, in the player's language, for its tooltip.
    let mut c = at_end_of("hud-p2-end-of-turn.ron");
    let f = id(&c, "Fighter");
    c.submit(Command::Gm(GmInput::ApplyCondition {
        who: f,
        condition: "frightened".into(),
        rounds: None,
        value: Some(2),
    }))
    .expect("frightened");
    let b = hud_model::card(&mut c, f).badges.into_iter().find(|b| b.id == "frightened").expect("badge");
    assert_eq!(b.modifiers, ["attack roll, saving throw, DC, AC: −2 (status)"]);
    // The amount follows the value.
    c.submit(Command::Gm(GmInput::ApplyCondition {
        who: f,
        condition: "frightened".into(),
        rounds: None,
        value: Some(3),
    }))
    .expect("frightened 3");
    let b = hud_model::card(&mut c, f).badges.into_iter().find(|b| b.id == "frightened").expect("badge");
    assert_eq!(b.modifiers, ["attack roll, saving throw, DC, AC: −3 (status)"]);
}
