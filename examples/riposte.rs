//! The `riposte` mod in action: fencers that strike back at a melee attack that misses them, in
//! the shipped 4v4 skirmish, played by the AI under a ruleset of your choice.
//!
//! ```text
//! cargo run --no-default-features --example riposte [RULESET] [SEED]
//! ```
//!
//! The mod itself is `skirmish::modding::builtin::riposte`: a reflected `Riposte` component, put on
//! every combatant with the trait `riposte`, and one system in `TurnSystems::Reactions` that
//! hears `AttackRolled` then `AttackMissed`/`AttackBlocked` and deals the bearer's own melee
//! damage through `ModRules::deal_damage` (rolled on the engine's dice, logged as the mod's).

use std::path::Path;

use skirmish::ai::{self, AiScope};
use skirmish::encounter::Encounter;
use skirmish::modding::{Combat, CombatEvent, ModList, ModRegistry};
use skirmish::rules::ruleset::Ruleset;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ruleset = args.first().map_or("homebrew-d20", String::as_str);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rs = Ruleset::load(&root.join(format!("assets/rulesets/{ruleset}.ron"))).unwrap_or_else(|e| panic!("{e}"));
    let enc = Encounter::load(&root.join("assets/encounters/skirmish-4v4.ron")).unwrap_or_else(|e| panic!("{e}"));
    let mut specs = enc.specs_for(&rs);
    for s in &mut specs {
        s.traits.push("riposte".into());
    }
    let mods: ModList = ModRegistry::builtin().list(&["riposte".into()]).expect("shipped mod");
    let mut combat = Combat::with_mods(rs, seed, &specs, enc.battle_map(), &[], &mods).expect("valid set-up");
    ai::play(&mut combat, AiScope { gm: true, all_creatures: true }, 5000);
    let log = combat.log();
    println!("everyone ripostes ({ruleset}, seed {seed}); mods: {:?}", combat.mods());
    let mut n = 0;
    for (i, e) in log.events.iter().enumerate() {
        if matches!(e, CombatEvent::ModEffect { .. }) {
            n += 1;
            println!("  {}", log.describe(&log.events[i - 1]));
            println!("  {}", log.describe(e));
            println!("  {}", log.describe(&log.events[i + 1]));
        }
    }
    println!("{n} ripostes; {}", log.describe(log.events.last().expect("a log")));
}
