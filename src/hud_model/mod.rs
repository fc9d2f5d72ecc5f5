//! The HUD's view-models: plain structs computed from the rules state and the combat log, with no
//! egui in them. The game's widgets (`crate::game::hud_panels`) only draw these; the headless tests
//! check them under every ruleset.
//!
//! Everything here reads the [`Combat`]; nothing writes rules state. Where the HUD must know
//! whether something is allowed (the ability bar), it asks the engine's own dry run
//! ([`Combat::check_acts`]) and shows the engine's reason.
//!
//! - [`tracker`] (`turn_order.rs`): the initiative tracker (round-based rulesets) and the segment
//!   timeline; [`what_if`]: where a creature would act next if it used an ability now.
//! - [`card`] (`creature_card.rs`): one creature's action economy under its ruleset's budget,
//!   conditions with their expiry in words, and its cast or activity in progress.
//! - [`ability_buttons`] (`abilities.rs`): the active creature's abilities, costs, hotkeys, and the
//!   engine's reason when one can't be used.
//! - [`log`]: the combat log as sentences with dice and rule IDs, filters, and JSON lines.
//! - [`rules_ref`]: rule IDs for events and conditions, and their text from `docs/rules.md`.

// The view-models are drawn by the game (the `game` feature); a headless build still compiles
// them for the HUD tests and benchmarks.
#![cfg_attr(not(feature = "game"), allow(dead_code))]

pub mod gm;
pub mod log;
pub mod prompt;
pub mod rules_ref;

use crate::i18n::Tr;
use crate::rules::components::*;
use crate::rules::driver::Combat;
use crate::rules::state::EngineStatus;
use crate::tr;

mod abilities;
mod creature_card;
mod turn_order;
mod words;
pub use abilities::*;
pub use creature_card::*;
pub use turn_order::*;
pub use words::rejection_words;

/// A side's place among the sides, in the order their first creature appears in the combat (the
/// encounter's order of combatants); past the end for a side nobody is on. Side i has colour
/// [`side_rgb`]`(i)` on the board and in the HUD alike.
pub(crate) fn side_index(combat: &Combat, side: &str) -> usize {
    let mut seen: Vec<&str> = Vec::new();
    for i in 0..combat.len() as u32 {
        let Some(s) = combat.get::<Side>(Cid(i)) else { continue };
        if s.0 == side {
            return seen.iter().position(|x| *x == side).unwrap_or(seen.len());
        }
        if !seen.contains(&s.0.as_str()) {
            seen.push(&s.0);
        }
    }
    seen.len()
}

pub(super) fn side_of(combat: &Combat, who: Cid) -> usize {
    combat.get::<Side>(who).map_or(0, |s| side_index(combat, &s.0))
}

/// The colour of side `index` ([`side_index`]), as sRGB bytes: blue, red, green, gold, then again.
/// The board's tokens and the HUD's dots both take their colour from here.
pub(crate) fn side_rgb(index: usize) -> [u8; 3] {
    const C: [[u8; 3]; 4] = [[64, 140, 242], [224, 77, 71], [89, 199, 102], [217, 179, 64]];
    C[index % C.len()]
}

/// Whose input the engine waits for, in words.
pub(crate) fn status_line_in(combat: &Combat, tr: &Tr) -> String {
    match combat.status() {
        EngineStatus::AwaitingCommand(c) => tr!(tr, "status-to-act", who = combat.name_in(c, tr.code())),
        EngineStatus::AwaitingDecision(d) => tr!(tr, "status-waiting-for", who = words::decider_words(combat, d, tr)),
        EngineStatus::AwaitingReturn => tr.t("status-awaiting-return"),
        EngineStatus::Ended => tr.t("status-ended"),
        EngineStatus::Busy | EngineStatus::NotStarted => "…".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fight under a shipped ruleset, set up in code (the HUD stands below the scenario
    /// runner): `(name, side, at, initiative)`, each with 20 hp (and a sword where the ruleset has one).
    pub(crate) fn fight(ruleset: &str, who: &[(&str, &str, (i32, i32), i32)]) -> Combat {
        use crate::rules::components::InitiativeSetup;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{ruleset}.ron"));
        let rs = crate::rules::ruleset::Ruleset::load(&path).unwrap();
        let sword: Vec<String> = rs.ability("sword").map(|_| "sword".to_string()).into_iter().collect();
        let specs: Vec<crate::rules::setup::CombatantSpec> = who
            .iter()
            .map(|(name, side, at, init)| crate::rules::setup::CombatantSpec {
                name: name.to_string(),
                side: side.to_string(),
                at: *at,
                hp: 20,
                abilities: sword.clone(),
                initiative: InitiativeSetup::Total(*init),
                ..Default::default()
            })
            .collect();
        Combat::new(rs, 1, &specs).unwrap()
    }

    /// A creature for [`fight_with`]: `(name, side, at, initiative, stats, abilities)`.
    pub(crate) type Who<'a> = (&'a str, &'a str, (i32, i32), i32, &'a [(&'a str, i32)], &'a [&'a str]);

    /// A fight under a shipped ruleset with each creature's stats and abilities, 40 hp each.
    pub(crate) fn fight_with(ruleset: &str, who: &[Who<'_>]) -> Combat {
        use crate::rules::components::InitiativeSetup;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{ruleset}.ron"));
        let rs = crate::rules::ruleset::Ruleset::load(&path).unwrap();
        let specs: Vec<crate::rules::setup::CombatantSpec> = who
            .iter()
            .map(|(name, side, at, init, stats, abilities)| crate::rules::setup::CombatantSpec {
                name: name.to_string(),
                side: side.to_string(),
                at: *at,
                hp: 40,
                stats: stats.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
                abilities: abilities.iter().map(|a| a.to_string()).collect(),
                initiative: InitiativeSetup::Total(*init),
                ..Default::default()
            })
            .collect();
        Combat::new(rs, 1, &specs).unwrap()
    }

    #[test]
    fn a_persons_area_spell_names_every_creature_of_the_clicked_side_and_a_single_one_names_one() {
        use crate::rules::components::InitiativeSetup;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron");
        let rs = crate::rules::ruleset::Ruleset::load(&path).unwrap();
        let spec = |name: &str, side: &str, at: (i32, i32), init: i32| crate::rules::setup::CombatantSpec {
            name: name.into(),
            side: side.into(),
            at,
            hp: 20,
            abilities: vec!["fireball".into(), "hold_person".into()],
            initiative: InitiativeSetup::Total(init),
            ..Default::default()
        };
        let specs = [
            spec("Mage", "heroes", (0, 0), 20),
            spec("Knight", "heroes", (1, 0), 15),
            spec("Orc", "monsters", (5, 0), 10),
            spec("Wolf", "monsters", (5, 2), 5),
            spec("Goblin", "monsters", (6, 4), 3),
        ];
        let mut c = Combat::new(rs, 1, &specs).unwrap();
        // Fireball (`targets: All`) on the Wolf: the three monsters; on the Knight: heroes only.
        assert_eq!(targets_of_use(&mut c, Cid(0), "fireball", Cid(3)), vec![Cid(2), Cid(3), Cid(4)]);
        let heroes = targets_of_use(&mut c, Cid(0), "fireball", Cid(1));
        assert!(heroes.contains(&Cid(1)) && heroes.iter().all(|t| t.0 <= 1), "{heroes:?}");
        // Hold Person (`UpTo(1)`): the creature clicked.
        assert_eq!(targets_of_use(&mut c, Cid(0), "hold_person", Cid(3)), vec![Cid(3)]);
    }

    /// Side colours: blue, red, green, gold, then again from blue. Found by cargo-mutants (issue 26).
    #[test]
    fn side_colours_cycle_through_four() {
        assert_eq!(side_rgb(0), [64, 140, 242]);
        assert_eq!(side_rgb(1), [224, 77, 71]);
        assert_eq!(side_rgb(2), [89, 199, 102]);
        assert_eq!(side_rgb(3), [217, 179, 64]);
        assert_eq!(side_rgb(4), [64, 140, 242]);
        assert_eq!(side_rgb(9), [224, 77, 71]);
    }

    /// The status line names whose input the engine waits for. Found by cargo-mutants (issue 26).
    #[test]
    fn status_line_names_whose_input_the_engine_waits_for() {
        let tr = Tr::default();
        let mut c = fight("homebrew-d20", &[("Orc", "monsters", (1, 0), 20), ("Knight", "heroes", (0, 0), 5)]);
        assert_eq!(status_line_in(&c, &tr), "Orc to act");
        // An opening the GM gives the Knight waits for the Knight's choice.
        let knight = c.cid("Knight").unwrap();
        c.submit(crate::rules::command::Command::Gm(crate::rules::command::GmInput::Opening {
            eligible: vec![knight],
        }))
        .unwrap();
        assert_eq!(status_line_in(&c, &tr), "waiting for Knight");
    }

    /// Where a charge at the Orc (8, 1) could end, nearest to the Fighter (1, 3) first: the eight
    /// squares around it. Found by cargo-mutants (issue 26).
    #[test]
    fn charge_squares_surround_the_target_nearest_first() {
        let c = fight("pf1e", &[("Fighter", "heroes", (1, 3), 20), ("Orc", "monsters", (8, 1), 5)]);
        let (fighter, orc) = (c.cid("Fighter").unwrap(), c.cid("Orc").unwrap());
        let squares: Vec<(i32, i32)> = charge_squares(&c, fighter, orc).iter().map(|q| (q.x, q.y)).collect();
        assert_eq!(squares, [(7, 0), (7, 1), (7, 2), (8, 0), (8, 2), (9, 0), (9, 1), (9, 2)]);
    }
}
