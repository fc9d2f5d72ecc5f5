//! The mods shipped with skirmish, loadable by name (`--mod regeneration`, `--mod riposte`).
//!
//! Each is an ordinary [`crate::modding::RulesMod`] written only against the public
//! [`crate::modding`] surface, as a modder's own crate would be; `examples/regeneration.rs` and
//! `examples/riposte.rs` run them.

pub mod regeneration;
pub mod riposte;

pub use regeneration::{Regeneration, RegenerationMod};
pub use riposte::{Riposte, RiposteMod};
