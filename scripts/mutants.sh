#!/bin/sh
# Mutation testing (issues 13 and 26; results and survivors in docs/testing.md).
#
#   scripts/mutants.sh                    the rules core's reproducible sample: shard 3/6 of
#                                         src/rules/ (427 mutants), about six hours on 2 cores
#   SHARD=3/24 scripts/mutants.sh         a quarter of it (107 mutants, about 90 min): round-robin
#                                         shards 3/24, 9/24, 15/24 and 21/24 of the same code are
#                                         exactly shard 3/6, so quarters run apart add up to it
#   AREA=stats scripts/mutants.sh         src/sim/stats.rs, every mutant (159)
#   AREA=save scripts/mutants.sh          src/save/, every mutant (227)
#   AREA=hud scripts/mutants.sh           src/hud_model/, shard 1/3 (156 of 468)
#   AREA=ai scripts/mutants.sh            src/ai/, shard 1/11 (151 of 1,664)
#   SHARD=0/1 scripts/mutants.sh          every mutant of the area
#   SHARD=0/1 scripts/mutants.sh --re 'actions.rs:1115'   only the mutants whose names match
#
# Shards are round-robin, so a sample reaches every file of its area. Mutants are built with the
# `mutants` profile (opt-level 1) and --no-default-features, and only the library, its unit tests and
# the integration tests are built (not the examples or benches). Each area runs the
# library's unit tests and the integration tests that exercise it (below), with 100 fuzz cases:
# a mutant those miss may still be caught by another test, so an area's score is a lower bound.
# The rules core runs every integration test but the long loops. The unmutated tree is tested
# first; a mutant whose tests hang is stopped (`--timeout`) and counts as caught.
# Outputs go to mutants.out/ (git-ignored); AREA=x writes mutants.out/ as well, so move it away
# before the next area.
set -e
cd "$(dirname "$0")/.."
export PROPTEST_CASES="${PROPTEST_CASES:-100}"
long="--skip determinism --skip mutate::mutated --skip ai_strength --skip save_at_a_random_point \
 --skip a_save_at_any_point --skip tactical_finishes_every_shipped --skip sim_output_is_the_same_for_jobs \
 --skip sim_four_shards_merged --skip an_encounter_past_the_combatant_limit --skip the_fused_driver_plays_the_bench"
case "${AREA:-rules}" in
  rules) files='src/rules/**/*.rs'; shard="${SHARD:-3/6}"; tests="" ;;
  stats) files='src/sim/stats.rs'; shard="${SHARD:-0/1}"; tests="sim:: compare_ai:: gm_policy::" ;;
  save)  files='src/save/*.rs'; shard="${SHARD:-0/1}"; tests="save hardening_writers:: golden::" ;;
  hud)   files='src/hud_model/**/*.rs'; shard="${SHARD:-1/3}"; tests="hud language:: i18n::" ;;
  ai)    files='src/ai/**/*.rs'; shard="${SHARD:-1/11}"; tests="ai:: ai_tactics:: ai_choices:: compare_ai:: perf:: encounters:: gm_policy::" ;;
  *) echo "AREA: one of rules, stats, save, hud, ai" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
exec cargo mutants --in-place --profile mutants --no-default-features -f "$files" \
  --shard "$shard" --sharding round-robin --timeout "${TIMEOUT:-60}" --build-timeout 400 "$@" \
  -C --lib -C --test -C integration -- -- $tests $long
