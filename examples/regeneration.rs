//! The `regeneration` mod in action: a troll that heals 3 hit points at the start of each of its
//! turns, in the shipped 4v4 skirmish, played by the AI under a ruleset of your choice.
//!
//! ```text
//! cargo run --no-default-features --example regeneration [RULESET] [SEED]
//! ```
//!
//! The mod itself is `skirmish::modding::builtin::regeneration` (about 40 lines): a reflected
//! `Regeneration(u32)` component, put on every combatant whose sheet has the stat
//! `regeneration`, and one system in `TurnSystems::TurnStart`. The library holds it so that
//! `skirmish scenario --mod regeneration`, the simulator and the game load it by name; this
//! program is a host that installs it with `Combat::with_mods` and prints what it did.

use std::path::Path;

use skirmish::ai::{self, AiScope};
use skirmish::encounter::Encounter;
use skirmish::modding::{Combat, CombatEvent, ModList, ModRegistry};
use skirmish::rules::ruleset::Ruleset;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ruleset = args.first().map_or("pf2e", String::as_str);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rs = Ruleset::load(&root.join(format!("assets/rulesets/{ruleset}.ron"))).unwrap_or_else(|e| panic!("{e}"));
    let enc = Encounter::load(&root.join("assets/encounters/skirmish-4v4.ron")).unwrap_or_else(|e| panic!("{e}"));
    let mut specs = enc.specs_for(&rs);
    // The last combatant becomes a troll: the stat `regeneration` gives it the component.
    let troll = specs.len() - 1;
    specs[troll].stats.insert("regeneration".into(), 3);
    let mods: ModList = ModRegistry::builtin().list(&["regeneration".into()]).expect("shipped mod");
    let mut combat = Combat::with_mods(rs, seed, &specs, enc.battle_map(), &[], &mods).expect("valid set-up");
    ai::play(&mut combat, AiScope { gm: true, all_creatures: true }, 5000);
    let log = combat.log();
    println!("{} regenerates 3 a turn ({ruleset}, seed {seed}); mods: {:?}", specs[troll].name, combat.mods());
    for (i, e) in log.events.iter().enumerate() {
        if matches!(e, CombatEvent::ModEffect { .. }) {
            println!("  {}", log.describe(&log.events[i - 1]));
            println!("  {}", log.describe(e));
            println!("  {}", log.describe(&log.events[i + 1]));
        }
    }
    println!("{}", log.describe(log.events.last().expect("a log")));
}
