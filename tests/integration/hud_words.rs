//! The engine's refusals in the player's words (`hud_model::rejection_words`): a refused target
//! and a missing typed action, as the engine gives them, read in English and in Spanish.

use skirmish::hud_model::rejection_words;
use skirmish::i18n::Tr;
use skirmish::rules::command::{ActIntent, Rejection};

use crate::common::*;

/// A refused target reads in the player's language: an attack or an Assist without exactly one
/// target, and an attack on an ally, as the engine refuses them, in English and in Spanish.
/// Found by cargo-mutants (issue 26).
#[test]
fn a_refused_target_reads_in_the_players_language() {
    let mut f = Fight::new(vec![
        who("A", "heroes", 20, (0, 0)).with(&["sword"]),
        who("B", "monsters", 10, (1, 0)),
        who("C", "heroes", 15, (0, 1)),
    ]);
    let (a, c) = (f.id("A"), f.id("C"));
    let no_target = f.0.check_act(&ActIntent::new(a, "sword", vec![])).expect_err("an attack on nobody");
    assert_eq!(no_target, Rejection::InvalidTarget("an attack needs exactly one target".into()));
    let no_ally = f.0.check_act(&ActIntent::new(a, "assist", vec![])).expect_err("an Assist for nobody");
    assert_eq!(no_ally, Rejection::InvalidTarget("an Assist needs exactly one ally".into()));
    let friend = f.0.check_act(&ActIntent::new(a, "sword", vec![c])).expect_err("an attack on an ally");
    assert_eq!(friend, Rejection::InvalidTarget("C is not an enemy".into()));

    let (en, es) = (Tr::default(), Tr::shipped("es"));
    let said = |tr: &Tr| [&no_target, &no_ally, &friend].map(|r| rejection_words(&f.0, r, tr));
    assert_eq!(
        said(&en),
        [
            "invalid target: an attack needs exactly one target",
            "invalid target: an Assist needs exactly one ally",
            "invalid target: C is not an enemy",
        ]
    );
    assert_eq!(
        said(&es),
        [
            "objetivo no válido: un ataque necesita exactamente un objetivo",
            "objetivo no válido: una asistencia necesita exactamente un aliado",
            "objetivo no válido: C no es un enemigo",
        ]
    );
}

/// pf1e: a missing typed action reads in the player's language (after two moves no standard
/// action is left); a reason the HUD does not know stays as the engine gave it.
/// Found by cargo-mutants (issue 26).
#[test]
fn a_missing_typed_action_reads_in_the_players_language() {
    let mut f = Fight::pf1e(vec![
        p1("A", "heroes", 20, (0, 0)).stat("MELEE", 4).stat("STR", 2),
        p1("B", "monsters", 15, (1, 0)).stat("MELEE", 3),
        p1("C", "monsters", 10, (6, 6)),
    ]);
    f.act_to("A", "move", &[], (-1, -1), None).expect("the first move");
    f.act_to("A", "move", &[], (-2, -2), None).expect("the second move, in place of the standard action");
    let none_left = f.act("A", "total_defense", &[]).expect_err("no standard action left");
    assert_eq!(none_left, Rejection::NoActionOfType("no standard action left this turn".into()));
    let unknown = Rejection::NoActionOfType("a reason of a mod".into());

    let (en, es) = (Tr::default(), Tr::shipped("es"));
    assert_eq!(rejection_words(&f.0, &none_left, &en), "no standard action left this turn");
    assert_eq!(rejection_words(&f.0, &none_left, &es), "no queda acción estándar este turno");
    assert_eq!(rejection_words(&f.0, &unknown, &es), "a reason of a mod");
}
