//! skirmish: a tactical combat engine for tabletop-style games.
//!
//! The rules core ([`rules`]) is headless and data-driven: rulesets in `assets/rulesets/*.ron`
//! select the turn model, budgets, abilities, conditions and strategies. Commands go in, typed
//! combat events come out. The scenario runner, the simulator, the AI and the game all drive it
//! through [`rules::driver::Combat`]; mods extend it through [`modding`].

// The public surface a modder or an embedding program uses: the mod API (`modding`), the
// `Combat` driver and the data types (`rules`' driver, ruleset, components, commands, log, map,
// dice, journal and data modules; encounters). The modules marked `doc(hidden)` are public
// only because the integration tests, benchmarks and the `skirmish` binary (separate crates)
// call into them; what nothing outside calls is `pub(crate)` (issue 25).
#[doc(hidden)]
pub mod ai;
mod cli;
pub mod encounter;
#[cfg(feature = "game")]
#[doc(hidden)]
pub mod game;
#[doc(hidden)]
pub mod hud_model;
#[doc(hidden)]
pub mod i18n;
pub mod modding;
#[doc(hidden)]
pub mod outfile;
pub mod rules;
#[doc(hidden)]
pub mod rules_doc;
#[doc(hidden)]
pub mod save;
#[doc(hidden)]
pub mod scenario;
#[doc(hidden)]
pub mod sim;

/// The Bevy this crate is built on, for mods: a mod crate writes `use skirmish::bevy::prelude::*;`
/// and depends on no `bevy` of its own, so there is one Bevy version (issue 28).
pub use bevy;
pub use cli::run;
/// The allocator the `skirmish` binary uses (the simulator is 11-16% faster with it): a mod
/// crate's binary may use it too, `#[global_allocator] static A: skirmish::MiMalloc = skirmish::MiMalloc;`.
pub use mimalloc::MiMalloc;
