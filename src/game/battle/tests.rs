use super::*;
use crate::ai::tactical::fixture::ruleset;
use crate::rules::components::InitiativeSetup;
use crate::rules::setup::CombatantSpec;

/// Issue 23, fault 4: a creature taken out of the fight got "down" (the ruleset's defeated
/// condition) and then "down!" (`Downed`), drawn one over the other. Over real fights under
/// every ruleset (two against two, the AI on every side, to the end), no creature's float
/// says again what the one before it said, and creatures do go down in them.
#[test]
fn a_downed_creature_gets_one_float_saying_so() {
    let tr = Tr::shipped("en");
    // Each ruleset's melee weapon (pf2e's and pf1e's are basic abilities, known anyway).
    for (name, weapon) in
        [("homebrew-d20", "sword"), ("pf2e", "strike"), ("pf1e", "melee_attack"), ("segments", "longsword")]
    {
        let rs = ruleset(name);
        let mut downed = 0;
        for seed in 0..4 {
            let spec = |n: &str, side: &str, at: (i32, i32)| CombatantSpec {
                name: n.into(),
                side: side.into(),
                at,
                hp: 9,
                stats: [("STR", 3), ("DEX", 2), ("MELEE", 6), ("AC", 12)]
                    .map(|(k, v)| (k.to_string(), v))
                    .into_iter()
                    .collect(),
                initiative: InitiativeSetup::Total(10),
                abilities: vec![weapon.to_string()],
                ..Default::default()
            };
            let specs =
                [spec("a", "x", (0, 0)), spec("b", "x", (0, 1)), spec("c", "y", (1, 0)), spec("d", "y", (1, 1))];
            let mut c = Combat::new(rs.clone(), seed, &specs).expect("valid set-up");
            ai::play(&mut c, AiScope { gm: true, all_creatures: true }, 2_000);
            let events = &c.log().events;
            downed += events.iter().filter(|e| matches!(e, CombatEvent::Downed { .. })).count();
            let mut last: BTreeMap<Cid, (usize, String)> = BTreeMap::new();
            for (i, _, beat) in new_beats(events, 0, &rs.defeated_condition) {
                let Some(Beat::Float { who, text, .. }) = beat else { continue };
                let words = text.words(Some(&rs), &tr);
                if let Some((j, before)) = last.get(&who)
                    && *j + 1 == i
                {
                    assert_ne!(
                        before.trim_end_matches('!'),
                        words.trim_end_matches('!'),
                        "{name}, seed {seed}: events {j} and {i} float the same words over one creature"
                    );
                }
                last.insert(who, (i, words));
            }
        }
        assert!(downed > 0, "{name}: nobody went down in 4 fights: the test saw nothing");
    }
}

/// The one repeat [`says_again`] drops: the defeated condition, then `Downed`, for one
/// creature; a `Downed` after anything else is kept.
#[test]
fn only_downed_after_the_defeated_condition_is_dropped() {
    let (a, b) = (Cid(0), Cid(1));
    let cond = |who, c: &str| CombatEvent::ConditionApplied { who, condition: c.into(), value: 1, lasts: None };
    let down = |who| CombatEvent::Downed { who };
    assert!(says_again(Some(&cond(a, "down")), &down(a), "down"));
    assert!(!says_again(Some(&cond(a, "down")), &down(b), "down"), "another creature");
    // pf2e: `Downed` after another condition (at 0 hit points it comes before dying).
    assert!(!says_again(Some(&cond(a, "frightened")), &down(a), "dead"), "not the defeated condition");
    assert!(!says_again(None, &down(a), "down"), "the log's first event");
}
