//! Integration tests: one binary (each extra test binary links Bevy again).
//!
//! - `hb_rules`: one test per homebrew-d20 rule ID (HB-01..HB-54) and the gap defaults it uses.
//! - `scenarios`: every file under `tests/scenarios/`.
//! - `determinism`: 1,000 seeds, every scenario and an AI skirmish run twice, logs compared byte for byte.
//! - `data_errors`: malformed rulesets and scenarios give `file:line:col: message`.
//! - `engine`: the schedule, the plugin, the timeline and the headless boundary.
//! - `game`: the game's own plugins headless: AI-vs-AI to the end, keys and clicks via leafwing mocking.
//! - `fuzz`: proptest command sequences against random encounters, every ruleset.
//! - `hardening`: termination, load-time limits, confined and bounded file reads, rejected nonsense
//!   commands, the CLI on a closed pipe.
//! - `mutate`: thousands of mutated rulesets and scenarios, each rejected with a position and a
//!   field path or run to the end.
//! - `grid`: the battle map in the rules: terrain costs, walls, occupied squares, line of sight,
//!   engagement on a bounded map, `reachable`, `threatened` and `check_act`.
//! - `encounters`: every shipped encounter loads and plays to the end under every ruleset; bad
//!   encounter data names file, line, column and field; a scenario naming an encounter.
//! - `gx_rules`: one test per interaction default that crosses rules (G-X-01..G-X-04), per ruleset.
//! - `ai_strength`: the tactical AI against the basic one, seeded 4v4 fights under every ruleset.
//! - `ai_tactics`: what the tactical AI does in set situations, and that it finishes every fight.
//! - `modding`: the modding surface, the example mods, data mods and hot reload (issue 14).

mod ai_strength;
mod ai_tactics;
mod common;
mod data_errors;
mod determinism;
mod encounters;
mod engine;
mod fuzz;
#[cfg(feature = "game")]
mod game;
mod grid;
mod gx_rules;
mod hardening;
mod hb_rules;
mod modding;
mod mutate;
mod p1_rules;
mod p2_rules;
mod scenarios;
mod sg_rules;
