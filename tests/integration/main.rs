//! Integration tests: one binary (each extra test binary links Bevy again).
//!
//! - `hb_rules`: one test per homebrew-d20 rule ID (HB-01..HB-54) and the gap defaults it uses.
//! - `scenarios`: every file under `tests/scenarios/`.
//! - `determinism`: every scenario and an AI brawl per ruleset run twice under 50 seeds (1,000 with
//!   `SKIRMISH_DETERMINISM_SEEDS=1000`), logs compared byte for byte.
//! - `gm_policy`: the AI GM's openings (issue 27): the ruleset's policy, who is eligible, the
//!   per-round limit, "never", the simulator's opening counts with forced dice, bad policies.
//! - `golden`: a fresh CLI process reproduces the committed log of each ruleset's AI brawl
//!   (`tests/fixtures/golden-logs/`; re-bless with `SKIRMISH_BLESS=1`).
//! - `ai_choices`: both AIs' choices in 10 seeded runs of every shipped encounter under every
//!   ruleset, pinned by digest (`tests/fixtures/ai-choices.txt`; re-bless with `SKIRMISH_BLESS=1`).
//! - `data_errors`: malformed rulesets and scenarios give `file:line:col: message`.
//! - `engine`: the schedule, the plugin, the timeline and the headless boundary.
//! - `game`: the game's own plugins headless: AI-vs-AI to the end, keys and clicks via leafwing mocking.
//! - `fuzz`: proptest command sequences against random encounters, every ruleset.
//! - `hardening`: termination, load-time limits, confined and bounded file reads, rejected nonsense
//!   commands, the CLI on a closed pipe.
//! - `hardening_writers`, `hardening_mods`, `hardening_sim`, `hardening_saves`: hardening round two
//!   (issue 29): writers that refuse devices and their own inputs, mod names that are names and
//!   confined mod folders, `sim merge` that checks its shards, `replay --verify` that checks what it
//!   says, and limits that hold in time.
//! - `mutate`: thousands of mutated rulesets and scenarios, each rejected with a position and a
//!   field path or run to the end.
//! - `grid`: the battle map in the rules: terrain costs, walls, occupied squares, line of sight,
//!   engagement on a bounded map, `reachable`, `threatened` and `check_act`.
//! - `encounters`: every shipped encounter loads and plays to the end under every ruleset; bad
//!   encounter data names file, line, column and field; a scenario naming an encounter.
//! - `gx_rules`: one test per interaction default that crosses rules (G-X-01..G-X-04), per ruleset.
//! - `ai_strength`: the tactical AI against the basic one, seeded 4v4 fights under every ruleset.
//! - `ai_tactics`: what the tactical AI does in set situations, and that it finishes every fight.
//! - `hud`: the HUD's view-models under every ruleset: tracker order, pips, expiry wording,
//!   disabled abilities with the engine's reasons, log sentences with dice and rule IDs.
//! - `hud_words`: the HUD's words for the engine's refusals, in the player's language.
//! - `docs`: `docs/rulesets.md` lists every field of the ruleset types, its worked example plays,
//!   the README links the references, nothing points outside the repository.
//! - `rules_doc`: `docs/rules.md` against the code: a test named after every rule, real links, every
//!   cited rule ID and every condition described.
//! - `saves`: saves and replays round-trip at any moment, undo/redo, the v1 fixture, golden
//!   replays per ruleset, damaged files, interrupted writes.
//! - `sim`: the simulator: statistics with forced dice, `--jobs` and shards give identical output,
//!   replays, bad input.
//! - `modding`: the modding surface, the example mods, data mods and hot reload (issue 14).
//! - `mods_round_two`: modding round two (issue 28): conflicts between mods are errors unless
//!   declared, a Rust mod's own conditions, abilities, roll modifiers and typed durations.
//! - `compare_ai`: the AI tiers (`--ai`, recorded in `summary.json`) and the equivalence check
//!   `sim --compare-ai`, which passes a tier against itself and fails one that plays differently.
//! - `perf`: the simulator's fast paths (a reset combat, dense path searches) match the plain ones.
//! - `cli`: the command line: every command's `--help`, "did you mean" on a misspelt option (exit
//!   2), shell completions, and every option the README and the docs show.
//! - `views`: the board's 2D and 3D views (issue 23): AI fights to the end in 3D while V switches,
//!   a 3D click picked by a ray becoming the same command, every shipped board framed between the
//!   default panels.
//! - `fused_driver`: the fused driver against the rules schedule it stands in for: the bench
//!   encounter under every ruleset, logs, state hashes and runs compared after every command.

mod ai_choices;
mod ai_strength;
mod ai_tactics;
mod architecture;
mod cli;
mod common;
mod compare_ai;
mod data_errors;
mod determinism;
mod docs;
mod encounters;
mod engine;
mod fused_driver;
mod fuzz;
#[cfg(feature = "game")]
mod game;
mod gm_policy;
mod golden;
mod grid;
mod gx_rules;
mod hardening;
mod hardening_mods;
mod hardening_saves;
mod hardening_sim;
mod hardening_writers;
mod hb_reactions;
mod hb_rules;
mod hud;
mod hud_words;
mod i18n;
mod language;
mod modding;
mod mods_round_two;
mod mutate;
mod p1_rules;
mod p2_rules;
mod perf;
mod rules_doc;
mod saves;
mod scenarios;
mod sg_rules;
mod sim;
#[cfg(feature = "game")]
mod views;
