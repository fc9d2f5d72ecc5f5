#!/usr/bin/env python3
"""What pf2e creatures spend each action of their turns on (issue 50: the share of third-action
Strikes, before and after the multiple attack penalty).

    scripts/third-actions.py BINARY [ENCOUNTER] [RUNS]

Plays runs 0..RUNS-1 of ENCOUNTER (default skirmish-4v4) under pf2e with `BINARY sim ...
--replay-run k` and reads each turn's `AbilityUsed` events on the creature's own turn (`via:
Turn`): an ability costing 2 spends the turn's next two actions. Prints, for the first, second and
third action of a turn, the share of turns spending it on an attack (Strike, a dagger, a bow,
Force Bolt: the abilities tagged `attack` in assets/rulesets/pf2e.ron) and the most common uses;
then, of the turns whose first two actions were attacks, the share whose third was one too (the
third attack of a turn, at -10 under the multiple attack penalty).
"""
import collections
import re
import subprocess
import sys

ATTACKS = {"strike", "dagger", "shortbow", "force_bolt"}


def turns(log):
    """Yield (creature, [ability per action spent]) for each turn in a replay log."""
    who, spent = None, []
    for line in log.splitlines():
        m = re.search(r"TurnStarted \{ who: (\w+)", line)
        if m:
            if who is not None:
                yield who, spent
            who, spent = m.group(1), []
            continue
        m = re.search(r'AbilityUsed \{ who: (\w+), ability: "(\w+)", cost: (\d+),.*via: Turn', line)
        if m and m.group(1) == who:
            spent.extend([m.group(2)] * int(m.group(3)))
    if who is not None:
        yield who, spent


def main():
    binary = sys.argv[1]
    enc = sys.argv[2] if len(sys.argv) > 2 else "assets/encounters/skirmish-4v4.ron"
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    slots = [collections.Counter() for _ in range(3)]
    used = [0, 0, 0]
    # Turns whose three actions were all attacks (the third at -10), of turns that made two
    # attacks with their first two actions.
    two_attacks, three_attacks = 0, 0
    for k in range(runs):
        out = subprocess.run(
            [binary, "sim", enc, "--ruleset", "pf2e", "--replay-run", str(k)],
            check=True, capture_output=True, text=True,
        ).stdout
        for _, spent in turns(out):
            for i in range(3):
                if len(spent) > i:
                    used[i] += 1
                    slots[i][spent[i]] += 1
            if len(spent) >= 3 and spent[0] in ATTACKS and spent[1] in ATTACKS:
                two_attacks += 1
                three_attacks += spent[2] in ATTACKS
    print(f"pf2e, {enc}, runs 0..{runs - 1}")
    print("| action | turns that spent it | on an attack | most common |")
    print("|---|---:|---:|---|")
    for i, c in enumerate(slots):
        attacks = sum(n for a, n in c.items() if a in ATTACKS)
        share = 100.0 * attacks / used[i] if used[i] else 0.0
        common = ", ".join(f"{a} {100.0 * n / used[i]:.0f}%" for a, n in c.most_common(4))
        print(f"| {['first', 'second', 'third'][i]} | {used[i]} | {share:.1f}% | {common} |")
    share = 100.0 * three_attacks / two_attacks if two_attacks else 0.0
    print(f"\nAfter two attacks, a third: {three_attacks} of {two_attacks} turns ({share:.1f}%).")


if __name__ == "__main__":
    main()
