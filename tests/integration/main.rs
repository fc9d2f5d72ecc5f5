//! Integration tests: one binary (each extra test binary links Bevy again).
//!
//! - `hb_rules`: one test per homebrew-d20 rule ID (HB-01..HB-54) and the gap defaults it uses.
//! - `scenarios`: every file under `tests/scenarios/`.
//! - `determinism`: 1,000 seeds, every scenario and an AI skirmish run twice, logs compared byte for byte.
//! - `data_errors`: malformed rulesets and scenarios give `file:line:col: message`.
//! - `engine`: the schedule, the plugin, the timeline and the headless boundary.

mod common;
mod data_errors;
mod determinism;
mod engine;
mod hb_rules;
mod p1_rules;
mod p2_rules;
mod scenarios;
mod sg_rules;
