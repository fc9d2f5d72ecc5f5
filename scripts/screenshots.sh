#!/usr/bin/env bash
# Start the real game under Xvfb, let the AI play both sides for a full round under every
# installed ruleset, save PNGs with Bevy's Screenshot, and check that they are not blank.
#
#   scripts/screenshots.sh [OUT_DIR]       (default: target/screenshots)
#
# Needs xvfb-run and a Vulkan driver (Debian: xvfb, mesa-vulkan-drivers); .ci/run installs them.
# Uses the dev profile's binary, which `cargo test` has already built: CI builds the render stack once.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/screenshots}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/skirmish/target}"
bin="$CARGO_TARGET_DIR/debug/skirmish"
# A no-op after `cargo test` (it builds this binary); it relinks the game if a headless
# (--no-default-features) build replaced it.
cargo build --quiet
rm -rf "$out"
mkdir -p "$out"
shots=()
for rs in homebrew-d20 pf2e pf1e segments; do
    echo "screenshots: $rs"
    if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" \
        "$bin" play --all-ai --ruleset "$rs" --seed 7 --screenshots "$out/$rs" --rounds 1 \
        > "$out/$rs.log" 2>&1; then
        echo "screenshots: the game failed under $rs; its output:"
        tail -40 "$out/$rs.log"
        exit 1
    fi
    shots+=("$out/$rs/start.png" "$out/$rs/battle.png")
done
# A person's turn: the movement chosen, reachable and threatened squares highlighted.
echo "screenshots: your turn"
if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" play --seed 7 --screenshots "$out/your-turn" > "$out/your-turn.log" 2>&1; then
    echo "screenshots: the game failed on a person's turn; its output:"
    tail -40 "$out/your-turn.log"
    exit 1
fi
shots+=("$out/your-turn/your-turn.png")
# The HUD at four moments, each set up by a scenario file (the battle opens after its steps):
# a homebrew-d20 opening prompt mid-round, a pf2e end-of-turn sequence, a pf1e surprise round,
# a segments timeline with a cast pending and the what-if preview, and pf2e's attack math (a
# critical hit in the log, "Strike −10" on the ability bar: issue 50).
for moment in hud-hb-opening hud-p2-end-of-turn hud-p1-surprise hud-sg-cast hud-p2-attack-math; do
    echo "screenshots: $moment"
    if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" \
        "$bin" play --scenario "tests/scenarios/$moment.ron" --screenshots "$out/$moment" \
        > "$out/$moment.log" 2>&1; then
        echo "screenshots: the game failed on $moment; its output:"
        tail -40 "$out/$moment.log"
        exit 1
    fi
    shots+=("$out/$moment/moment.png")
done
# The session windows: the saves list (after a quick save and a named save, kept beside the PNG),
# the Simulate window with its charts once its 200 runs are done, and the F12 inspector showing a
# mod's component (the regeneration scenario, at the Troll's turn).
run_shot() {
    local name="$1"; shift
    echo "screenshots: $name"
    if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" "$bin" play "$@" --screenshots "$out/$name" \
        > "$out/$name.log" 2>&1; then
        echo "screenshots: the game failed on $name; its output:"
        tail -40 "$out/$name.log"
        exit 1
    fi
}
run_shot saves --seed 7 --open saves
shots+=("$out/saves/your-turn.png")
test -f "$out/saves/saves/quicksave.ron" || { echo "screenshots: the quick save was not written"; exit 1; }
run_shot simulate --seed 7 --open simulate
shots+=("$out/simulate/your-turn.png")
run_shot inspector-mod --scenario tests/scenarios/mod-regeneration-hb.ron --open inspector
shots+=("$out/inspector-mod/moment.png")
# The GM (issue 27): the GM window with the policy's suggestion, a person in the GM's seat; and the
# prompt of an opening the AI GM offers a person's creature.
run_shot gm-window --all-ai --gm human --ruleset homebrew-d20 --seed 7
shots+=("$out/gm-window/gm.png")
run_shot gm-opening --ai monsters --ruleset homebrew-d20 --seed 7 --open opening
shots+=("$out/gm-opening/opening.png")
# Languages (issue 24): the HUD mid-fight in Spanish under homebrew-d20 and in Korean under pf2e.
run_shot lang-es --all-ai --ruleset homebrew-d20 --seed 7 --rounds 1 --lang es
shots+=("$out/lang-es/battle.png")
run_shot lang-ko --all-ai --ruleset pf2e --seed 7 --rounds 1 --lang ko
shots+=("$out/lang-ko/battle.png")
# pf2e's attack math (issue 50) in Spanish and Korean too: "Golpe −10", "타격 −10" on the bar.
run_shot attack-math-es --scenario tests/scenarios/hud-p2-attack-math.ron --lang es
shots+=("$out/attack-math-es/moment.png")
run_shot attack-math-ko --scenario tests/scenarios/hud-p2-attack-math.ron --lang ko
shots+=("$out/attack-math-ko/moment.png")
# The 3D view (issue 23): the battle under every ruleset, and (low.png) a low camera with walls
# between it and the creatures. Their board region (between the panels) must not be blank.
shots3d=()
for rs in homebrew-d20 pf2e pf1e segments; do
    run_shot "3d-$rs" --all-ai --ruleset "$rs" --seed 7 --rounds 1 --view 3d
    shots3d+=("$out/3d-$rs/battle.png" "$out/3d-$rs/low.png")
done
python3 scripts/png_check.py "${shots[@]}" --board 0.35,0.3,0.65,0.7 "${shots3d[@]}"
