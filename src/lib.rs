//! skirmish: a tactical combat engine for tabletop-style games.
//!
//! The rules core ([`rules`]) is headless and data-driven: rulesets in `assets/rulesets/*.ron`
//! select the turn model, budgets, abilities, conditions and strategies. Commands go in, typed
//! combat events come out. The scenario runner ([`scenario`]) and the AI ([`ai`]) drive it.

pub mod ai;
pub mod encounter;
#[cfg(feature = "game")]
pub mod game;
pub mod hud_model;
pub mod modding;
pub mod outfile;
pub mod rules;
pub mod rules_doc;
pub mod save;
pub mod scenario;
pub mod sim;
