# English: the game's words. Every message here must exist in every other catalog with the same
# variables ($who, $n ...): `cargo test i18n` checks it. Plurals use Fluent's CLDR categories:
#   { $n -> [one] ... *[other] ... }
# How to add a language: docs/languages.md.

language-name = English

## Counts used in several places

n-actions = { $n ->
    [one] { $n } action
   *[other] { $n } actions
}
n-reactions = { $n ->
    [one] { $n } reaction
   *[other] { $n } reactions
}
n-rounds = { $n ->
    [one] { $n } round
   *[other] { $n } rounds
}
n-squares = { $n ->
    [one] { $n } square
   *[other] { $n } squares
}
n-effects = { $n ->
    [one] { $n } effect
   *[other] { $n } effects
}
n-held-actions = { $n ->
    [one] { $n } held action
   *[other] { $n } held actions
}

## The combat log (one sentence per event; the dice and totals are placed by each language)

log-combat-started = The fight begins under { $ruleset } (dice seed { $seed }).
log-initiative-rolled = { $who } rolls initiative: { $roll }.
log-roll-off = Tie broken by a roll-off: { $rolls }.
log-initiative-order = Initiative order: { $order }.
log-round-started = Round { $round } begins ({ $seconds } s).
log-turn-started = { $who }'s turn.
log-turn-started-segment = { $who }'s turn (round { $round }, segment { $segment }).
log-turn-skipped = { $who }'s turn is skipped: { $reason }.
log-ability-used = { $who } uses { $ability }.
log-ability-used-on = { $who } uses { $ability } on { $targets }.
log-ability-used-cost = { $who } uses { $ability } ({ $cost }).
log-ability-used-on-cost = { $who } uses { $ability } on { $targets } ({ $cost }).
log-activity-started = { $who } begins { $ability } over turns: { $paid } of { $cost } actions paid.
log-activity-progressed = { $who } keeps at { $ability }: { $paid } more paid, { $remaining } to go.
log-activity-completed = { $who } completes { $ability }.
log-activity-interrupted = { $who }'s { $ability } is interrupted; { n-actions } lost.
log-ability-resolved = { $who }'s { $ability } resolves.
log-action-held = { $who } holds { $ability } ({ n-actions } reserved).
log-held-triggered = { $who }'s held { $ability } goes off, triggered by { $by }.
log-held-lost-ranged = { $who } loses { n-held-actions } to a ranged hit.
log-held-lost-surprise = { $who } loses { n-held-actions } to a surprise hit.
log-held-lapsed = { $who }'s { n-held-actions } lapse.
log-damaged = { $who } takes { $amount } damage ({ $hp } hp left).
log-damaged-dice = { $who } takes { $amount } damage [{ $dice }] ({ $hp } hp left).
log-downed = { $who } is down.
log-moved = { $who } moves ({ $mode }) from ({ $fx }, { $fy }) to ({ $tx }, { $ty }).
log-move-stopped = { $who }'s move stops at ({ $x }, { $y }).
log-disengaged = { $who } disengages from { $from }.
log-disengaged-none = { $who } disengages, with no enemy in reach.
log-opportunity-provoked = { $mover } provokes an attack of opportunity from { $from }.
log-opportunity-declined = { $who } lets the chance go.
log-no-opportunity = { $from } gets no attack of opportunity on { $mover }: { $why }.
no-opportunity-flanked = it is flanked
no-opportunity-disengaged = the mover disengaged from it
no-opportunity-busy = it is busy with an activity
no-opportunity-incapacitated = it cannot act
no-opportunity-no-attack = it has no attack for it
no-opportunity-flat-footed = it is flat-footed
no-opportunity-none-left = it has no reaction left
log-assist-granted = { $from } assists { $to } (+{ $bonus }).
log-assist-denied = { $from }'s Assist to { $to } is denied.
log-assist-area = { $who }'s assisted attack counts as an area attack.
log-condition-applied = { $who } is { $condition }{ $value }.
log-condition-applied-rounds = { $who } is { $condition }{ $value } for { n-rounds }.
log-condition-applied-turns = { $who } is { $condition }{ $value } for { $n } of its turns.
log-condition-applied-end-of-turn = { $who } is { $condition }{ $value } until the end of its turn.
log-condition-applied-sustained = { $who } is { $condition }{ $value } while sustained.
log-condition-value = { $who }'s { $condition } is now { $value }.
log-condition-unchanged = { $who } is already { $condition }: no further effect.
log-condition-ended = { $who }'s { $condition } ends: { $why }.
end-expired = its time is up
end-permanent-wound = a permanent wound ends it
end-negative-status = a negative status ends it
end-first-turn = its first turn has come
end-removed-by-mod = a mod removed it
end-recovered = it recovered
end-healed = it was healed
end-save-succeeded = a successful save ends it
end-flat-check-passed = a successful flat check ends it
end-wore-off = it wore off
end-actions-lost = the actions it took away used it up
end-not-sustained = nobody sustained it
badge-modifier = { $what }: { $amount } ({ $kind })
bonus-kind-untyped = untyped
bonus-kind-status = status
bonus-kind-circumstance = circumstance
bonus-kind-item = item
bonus-kind-morale = morale
log-roll-modified = { $who }'s { $roll }: { $parts }.
roll-on-attack = attack roll
roll-on-save = saving throw
roll-on-dc = DC
roll-on-damage = damage
roll-on-ac = AC
log-mod-damage = Mod { $source } deals { $n } damage to { $who }.
log-mod-heal = Mod { $source } heals { $who } by { $n }.
log-mod-apply-value = Mod { $source } puts { $condition } { $n } on { $who }.
log-mod-apply = Mod { $source } puts { $condition } on { $who }.
log-mod-remove = Mod { $source } removes { $condition } from { $who }.
log-mod-grant = Mod { $source } gives { $who } { n-actions } back.
log-mod-spend = Mod { $source } spends { $n } of { $who }'s actions.
log-mod-reschedule = Mod { $source } moves { $who }'s next turn to time { $n }.
log-expired-before-count = { $who }'s { $condition } ends just before count { $count } of round { $round }.
log-actions-regained = { $who } regains { n-actions } and { $reactions ->
    [one] { $reactions } reaction
   *[other] { $reactions } reactions
}.
log-actions-regained-restricted = { $who } regains { n-actions } + { $restricted } restricted and { $reactions ->
    [one] { $reactions } reaction
   *[other] { $reactions } reactions
}.
log-recovery-check = { $who } makes a recovery check: { $roll } vs DC { $dc } — { $degree }; dying { $value }.
degree-critical-failure = critical failure
degree-failure = failure
degree-success = success
degree-critical-success = critical success
log-flat-check-ends = { $who } makes a flat check against { $condition }: { $roll } vs DC { $dc } — it ends.
log-flat-check-goes-on = { $who } makes a flat check against { $condition }: { $roll } vs DC { $dc } — it goes on.
log-healed = { $who } heals { $amount } ({ $hp } hp).
log-healed-dice = { $who } heals { $amount } [{ $dice }] ({ $hp } hp).
log-sustained = { $who } sustains { n-effects }.
log-action-disrupted = { $who }'s { $ability } is disrupted.
log-delayed = { $who } delays.
log-returned-from-delay = { $who } returns from Delay after { $after }.
log-delay-lapsed = { $who } delayed too long and loses the turn.
log-ready-not-used = { $who }'s readied { $ability } was not used.
log-cast-announced = { $who } begins casting { $ability }: it resolves at segment { $segment } of round { $round }.
log-cast-held = { $who } holds { $ability }.
log-hold-accrued = { $who } acts while holding: +{ $rt } recovery owed ({ $total } in all).
log-cast-released = { $who } releases { $ability }; next turn at segment { $segment } of round { $round }.
log-concentration-broken = { $who }'s concentration on { $ability } breaks; next turn at segment { $segment } of round { $round }.
log-component-consumed = { $who } uses up { $item }.
log-surprise-round = Surprise round: only { $aware } may act.
log-initiative-moved = { $who } now acts before { $before }.
log-aware = { $who } is aware of its foes.
log-unaware = { $who } is unaware (surprised).
log-permanent-wound = { $who } suffers a permanent wound.
log-save-success = { $who } saves with { $stat }: { $roll } vs DC { $dc } — success.
log-save-failure = { $who } saves with { $stat }: { $roll } vs DC { $dc } — failure.
log-save-degree-result = { $who } saves with { $stat }: { $roll } vs DC { $dc } — { $degree }.
log-save-degree = { $who }'s saving throw: { $degree }.
log-crit-confirm = { $attacker } rolls to confirm a critical hit on { $target }: { $roll } vs AC { $ac } — { $result }.
log-critical-hit = { $attacker } scores a critical hit on { $target } (×{ $n }).
log-critical-miss = { $attacker }'s attack on { $target } is a critical failure.
log-damage-scaled = { $who }'s damage: { $how } ({ $amount } in all).
log-opening-created = An opening! { $who } may act.
log-opening-passed = { $who } passes the opening.
log-opening-skipped = { $who } can't use the opening: { $reason }.
log-opening-closed = The opening closes.
reason-cannot-act = cannot act
reason-busy-completing = busy completing { $ability }
log-decision-opportunity = { $who } takes the attack of opportunity with { $ability }.
log-decision-no-opportunity = { $who } lets the mover go.
log-decision-opening = { $who } uses the opening: { $ability }.
log-decision-approve = { $who } approves the Assist.
log-decision-deny = { $who } denies the Assist.
log-decision-triggered = { $who } uses { $ability }.
log-decision-triggered-none = { $who } uses nothing.
log-decision-lose-first = { $who } loses { $kind } first.
log-decision-order = { $who } orders the tie: { $order }.
log-decision-hold-cast = { $who } holds the cast.
log-decision-release-cast = { $who } releases the cast at once.
log-turn-ended = { $who } ends the turn.
log-turn-ended-unspent = { $who } ends the turn with { n-actions } unspent.
log-actions-forfeited = { $who } forfeits { n-actions }.
log-round-ended = Round { $round } ends.
log-combat-won = The fight is over: { $side } wins.
log-combat-draw = The fight is over: a draw.
log-draw-nobody-can-act = Round { $round }: nobody can act any more — a draw.
log-draw-round-cap = The round cap ({ $n }) is reached — a draw.
log-draw-work-limit = The engine's work limit is reached — a draw.
the-gm = the GM
action-kind-standard = a standard action
action-kind-move = a move action
action-kind-swift = a swift action
action-kind-immediate = an immediate action
action-kind-full-round = a full-round action
action-kind-free = a free action

## The attack entry: the attack, then each answer (defence, hit or miss, damage) added on

log-attack = { $attacker } attacks { $target } with { $ability }: { $roll }
log-attack-vs-defense = {" "}vs { $method } { $roll }
log-attack-no-defense-possible = {" "}(no defensive roll possible)
log-attack-no-defense = {" "}(no defensive roll)
log-attack-miss-ac = {" "}vs AC { $ac } — miss
log-attack-blocked = {" "}— blocked
log-attack-hit = {" "}— hit
log-attack-damage = , { $amount } damage ({ $who } { $hp } hp left)
log-attack-damage-dice = , { $amount } damage [{ $dice }] ({ $who } { $hp } hp left)
log-attack-assist = {" "}(Assist +{ $bonus })
log-attack-critical-miss-ac = {" "}vs AC { $ac } — critical failure
log-attack-critical-hit = {" "}— critical hit (×{ $n })
log-attack-threat = {" "}— threat: confirmation { $roll } vs AC { $ac }, { $result }
threat-confirmed = confirmed
threat-not-confirmed = not confirmed (a plain hit)
roll-multiple-attack-penalty = multiple attack penalty
damage-scale-times = { $rolled } ×{ $n }
damage-scale-dice-times = dice ×{ $n }
damage-scale-half = { $rolled } halved
defense-dodge = Dodge
defense-parry = Parry
defense-none = no defence
roll-flanking = flanking
roll-dropped = { $value } dropped
roll-keep = keep { $value }
# A d20 that came up 20 or 1 where that means something (pf1e, pf2e: issue 50).
roll-natural = natural { $value }
action-kind-five-foot-step = a 5-foot step
loss-restricted = a restricted action
loss-regular = a regular action
move-mode-walk = walk
move-mode-land = land
move-mode-fly = fly
move-mode-skirmish = skirmish
move-mode-shift = shift
move-mode-sprint = sprint

## The HUD's view-models: tracker, what-if, card, badges, costs, ability bar, status

tracker-acting-now = { $who }: acting now
tracker-next-turn = { $who }: next turn
tracker-resolves = { $who }: { $ability } resolves
what-if-round = { $ability }: next turn in round { $round }, { NUMBER($place, type: "ordinal") ->
    [one] { $place }st
    [two] { $place }nd
    [few] { $place }rd
   *[other] { $place }th
} in the order
what-if-segment = { $ability }: next turn at segment { $segment } of round { $round }
what-if-segment-after = { $ability }: next turn at segment { $segment } of round { $round }, after { $after }
card-regain-bonus = +{ n-actions } at the start of each turn
card-regain-bonus-only = +{ n-actions } at the start of each turn, only for { $only }
card-regain-loses = −{ n-actions } when actions are regained
card-regain-loses-consumed = −{ n-actions } when actions are regained (goes down by the actions it takes)
card-cannot-act = can't act: no actions, no reactions
card-rt-add = { $signed } segment(s) on every recovery time
activity-holding = holding { $ability }: concentrating; releasing it owes { $n ->
    [one] { $n } segment
   *[other] { $n } segments
} of recovery
activity-cast = cast { $ability }: resolves at segment { $segment } of round { $round } ({ $left } to go); concentrating
activity-focus = focus { $ability }: resolves at segment { $segment } of round { $round } ({ $left } to go); concentrating
activity-casting = casting { $ability }: { $paid } of { $cost } rounds paid, { $left } to go
activity-spreading = spreading { $ability }: { $paid } of { $cost } actions paid, { $left } to go
badge-goes-down = ; goes down by { $n } at the end of { $owner }'s turn
badge-persistent = ; { $owner } takes { $dice } damage at the end of each of its turns
badge-persistent-check = ; { $owner } takes { $dice } damage at the end of each of its turns, then a DC { $dc } flat check ends it
badge-ends-on-wound = ; also ends on a permanent wound
badge-ends-on-negative = ; also ends on a negative status effect
badge-ends-on-both = ; also ends on a permanent wound or a negative status effect
badge-save-ends = ; a saving throw (the Recovery Action) can end it
badge-rounds-short = { $n } rd
badge-turns-short = { $n ->
    [one] { $n } turn
   *[other] { $n } turns
}
badge-no-duration = no set duration
badge-ends-end-of-turn = ends at the end of { $owner }'s turn
badge-ends-unless-sustained = ends at the end of { $creator }'s turn unless { $creator } sustains it
badge-ends-end-of-owner-turn = ends at the end of { $owner }'s { $n ->
    [one] next turn
   *[other] turn { $n } turns from now
}
badge-ends-end-of-round = ends at the end of round { $round }
badge-ends-start-of-turn = ends at the start of { $creator }'s { $n ->
    [one] next turn
   *[other] turn { $n } turns from now
}
badge-ends-at-segment = ends at segment { $segment } of round { $round }, before any turn there
badge-ends-before-count = ends just before count { $count } in round { $round }
badge-rounds-left = { n-rounds } left
cost-reaction = reaction
cost-free-action = free action
cost-bonus-action = bonus action (no cost)
cost-full-round-cast = full-round, { n-rounds } to cast
cost-standard = standard
cost-move = move
cost-full-round = full-round
cost-swift = swift
cost-immediate = immediate
cost-free = free
cost-five-foot-step = 5-foot step
cost-rt-by-mode = RT by movement mode
bar-nowhere-to-move = nowhere to move from here
bar-refused-now = the engine refuses it now
status-to-act = { $who } to act
status-waiting-for = waiting for { $who }
status-awaiting-return = waiting for a delaying creature to return
status-ended = the fight is over

## Why the engine refuses a command (the banner, the ability bar, hover reasons)

reject-combat-over = the combat is over
reject-unknown-combatant = no combatant #{ $id }
reject-not-your-turn = { $who } cannot act: it is { $active }'s turn
reject-no-turn = { $who } cannot act: no turn is running
reject-awaiting-decision = a decision by { $by } is pending
reject-no-decision = no decision is pending
reject-wrong-decider = this decision belongs to { $by }
reject-invalid-choice = invalid choice: { $why }
reject-unknown-ability = the ruleset has no ability `{ $ability }`
reject-ability-not-known = the creature does not have { $ability }
reject-not-enough-actions = needs { n-actions }, { $left } left
reject-busy = busy completing { $ability }: no other action until it completes
reject-unable-to-act = the creature cannot act
reject-limit-reached = { $ability } has no uses left this turn
reject-invalid-target = invalid target: { $why }
reject-out-of-range = { n-squares } away, at most { $max }
reject-occupied = square ({ $x }, { $y }) is occupied
reject-mode-required = name a movement mode: { $modes }
reject-unknown-mode = no movement mode `{ $mode }`
reject-openings-disabled = this ruleset has no openings
reject-holding-disabled = this ruleset does not hold actions
reject-not-holdable = { $ability } costs no actions and cannot be held
reject-unknown-condition = the ruleset has no condition { $condition }
reject-reaction-only = { $ability } is used only when its trigger happens
reject-delay-disabled = this ruleset has no Delay
reject-cannot-delay-now = Delay only as your turn begins, before acting
reject-not-delayed = the creature is not delaying
reject-not-while-holding = { $ability } is not allowed while holding a cast
reject-missing-component = missing cast component: { $component }
reject-not-holding = the creature holds no cast
reject-ready-standard = Ready takes a standard action
reject-swift-used = your next swift action is already used
reject-immediate-flat-footed = no immediate action while flat-footed
reject-after-step = no other movement after a 5-foot step
reject-no-standard = no standard action left this turn
reject-no-move = no move action left this turn
reject-surprise-one = only one standard or one move action in the surprise round
reject-full-round = a full-round action needs the whole turn
reject-no-swift = no swift action left this turn
reject-step-only = a 5-foot step only when you make no other movement
target-no-sight = no line of sight to { $who }
target-down = { $who } is down
target-not-enemy = { $who } is not an enemy
target-not-ally = { $who } is not an ally
target-twice = { $who } is named twice
target-not-engaged = not engaged with { $who }
target-charge-next-to = the charge must end next to { $who }
target-already-there = { $who } is already there: a move needs another square
target-no-way = no way to square ({ $x }, { $y }) within { n-squares } of movement: walls or enemies block it
target-off-map = square ({ $x }, { $y }) is off the map
target-blocked = square ({ $x }, { $y }) is blocked
target-attack-one = an attack needs exactly one target
target-charge-one = a charge needs exactly one target
target-needs-square = it needs a square to go to
target-assist-one = an Assist needs exactly one ally
target-needs-targets = this ability needs targets
target-no-eligible = no creature is eligible for this opening

## The log's filter

category-turns = turns
category-attacks = attacks
category-movement = movement
category-conditions = conditions
category-decisions = decisions
category-casting = casting
category-other = other

## Decision prompts

prompt-reaction-free = a reaction: no action cost
prompt-uses-reaction = uses your reaction
prompt-defend = { $method }: 1d20 + { $stat } against { $attacker }'s { $total } — free, no action cost (G-HB-11)
prompt-no-defense = No defence roll: the attack hits against { $attacker }'s { $total }
prompt-opportunity-attack = Attack { $who } with { $ability } ({ $cost })
prompt-let-go = Let { $who } go (keeps your reaction)
prompt-approve = Approve { $from }'s Assist to { $to } (HB-11)
prompt-deny = Deny it: the Assist's action is still spent
prompt-a-free-action = a free action
prompt-use-now = Use { $ability } now ({ $cost })
prompt-use-nothing = Use nothing
prompt-lose-restricted = Lose the restricted (bonus) action first: keep a regular one
prompt-lose-regular = Lose a regular action first: keep the restricted one
prompt-release = Release { $ability } now: its recovery time starts now (SG-13/14)
prompt-hold = Hold { $ability }: recovery suspended, keep concentrating; each action while holding adds its RT + surcharge (SG-19..23)
prompt-then = , then{" "}
prompt-order = { $names } (free)
prompt-no-action-cost = no action cost
prompt-opening-cost = costs { $n } of your { $left ->
    [one] { $left } action
   *[other] { $left } actions
} left this round
prompt-opening-on = { $ability } on { $who } ({ $cost })
prompt-opening-use = { $ability } ({ $cost })
prompt-pass-opening = Pass the opening (costs nothing)
choice-use = Use { $ability }
choice-use-on = Use { $ability } on { $targets }
choice-order = Order { $order }
choice-pass = Pass
choice-nothing = Nothing
choice-let-go = Let go
choice-approve = Approve
choice-deny = Deny
choice-hold = Hold the cast
choice-release = Release the cast
summary-defense = { $attacker } attacks with a total of { $total }: a defensive roll that meets it blocks the attack (HB-40).
summary-opportunity = { $who } leaves your reach.
summary-opening = An opening: you may use one ability now, paid from this round's actions (HB-30, HB-31, HB-33).
summary-assist = { $from } wants to assist { $to }: the GM decides whether the help is plausible (HB-11).
summary-triggered = Something triggers your free action or reaction.
summary-action-loss = You lose an action: which kind goes first (G-P2-07)?
summary-cast-complete = Your casting time is complete (SG-13, SG-19).
summary-initiative-tie = These creatures tied for initiative: who goes first?
kind-defense = defensive roll
kind-opportunity = attack of opportunity
kind-opening = an opening
kind-assist-approval = approve an Assist
kind-triggered = a triggered action
kind-action-loss = which action to lose
kind-initiative-tie = initiative tie
kind-cast-complete = hold or release the cast
kind-decision = a decision

## The GM's calls (the GM window)

gm-call-opening-default = Open an opening (default: the last missed or the debilitated one's foes)
gm-call-opening-for = Open an opening for { $who }
gm-call-apply = Apply { $condition } to { $who }
gm-call-apply-value = Apply { $condition } to { $who } (value { $value })
gm-call-apply-rounds = Apply { $condition } to { $who } for { n-rounds }
gm-call-apply-value-rounds = Apply { $condition } to { $who } (value { $value }) for { n-rounds }
gm-call-interrupt = Interrupt { $who }
gm-call-wound = Permanent wound to { $who }
gm-call-hit-ranged = { $who } is hit by a ranged attack
gm-call-hit-surprise = { $who } is hit by a surprise attack
gm-call-aware = { $who } is aware
gm-call-unaware = { $who } is unaware
gm-call-area-assist = Make { $who }'s Assist an area assist
gm-because-missed-by = { $by } missed { $who }
gm-because-missed = an attack missed { $who }
gm-because-condition = { $who } is { $condition }
gm-because-debilitated = { $who } is debilitated
gm-suggestion = The GM may open an opening for { $who }: { $reasons }

## Key names (the controls help)

key-enter = Enter
key-tab = Tab
key-esc = Esc
key-space = Space

## The start screen (src/game/screens/start.rs)

start-window-title = skirmish
start-heading = A tactical skirmish
start-intro = Your side against the AI, or hot seat, under any installed turn system.
start-encounter = Encounter
start-encounter-error = { $file } (error)
start-ruleset = Ruleset
start-side = Side "{ $side }"
start-human = Human
start-ai = AI
start-seed = Dice seed
start-gm = Game master
start-gm-person = a person here: the GM window, openings, Assist approvals, ties
start-gm-person-hover = Off: the AI GM answers the GM's calls with its defaults and opens openings as the ruleset's GM policy says
start-mods = Mods
start-mods-none = none installed
start-mod-rust = { $name } (Rust mod)
start-mod-data = { $name } (data mod { $manifest } { $version })
start-mod-broken = { $name } (broken: { $error })
start-mod-broken-hover = broken: { $error }
start-mod-given = { $name } (given with --mod)
start-fight = Fight!
start-error-mods = mods: { $error }
start-load-errors = These files could not be loaded:
start-controls = Click a square to move, an enemy to attack; 1–9 choose an ability, M movement, { $enter } uses it, { $tab } cycles targets, E ends the turn, { $esc } cancels. WASD/arrows pan, wheel zooms, { $space } fast-forwards, L shows the log.

## The end screen (src/game/screens/end.rs)

end-over = The fight is over
end-victory = Victory!
end-defeat = Defeat
end-draw = Draw
end-restart = Restart
end-back-to-start = Back to the start screen
end-undo = Undo your last command (Ctrl+Z)
end-undo-none = Nothing of yours to undo
end-saves = Saves… (F6)

## The turn banner (src/game/screens/battle_screen.rs)

banner-round = Round { $round }
banner-turn-human = { $who } (your turn)
banner-turn-ai = { $who } (AI)
banner-speed = speed
banner-tracker = Tracker
banner-tracker-hover = Show or hide the initiative tracker
banner-card = Card
banner-card-hover = Show or hide the creature card
banner-log = Log (L)
banner-log-hover = Show or hide the combat log
banner-inspector-hover = The world inspector, for modders
banner-zoom = UI ×
banner-zoom-hover = HUD scale, on top of the system's scale factor
banner-quit = Quit to start
banner-undo = Undo
banner-undo-hover = Ctrl+Z: take back your last command and what the AI did since
banner-undo-none = Nothing of yours to undo yet
banner-redo = Redo
banner-redo-hover = Ctrl+Y: give it back, with the same dice
banner-quick-save = Quick save
banner-quick-save-hover = F5: save to the quick-save slot
banner-quick-load = Quick load
banner-quick-load-hover = F9: load the quick-save slot
banner-saves = Saves (F6)
banner-simulate = Simulate (F7)
banner-simulate-hover = Play this encounter many times, AI against AI, in the background
banner-data-error = Data file error (this battle goes on unchanged): { $error }
banner-data-changed = Encounter, ruleset or mod files changed on disk.
banner-restart-changes = Restart with changes
banner-refused = Refused: { $reason }
banner-not-here = Not here: { $reason }

## The ability bar and the turn's buttons (src/game/screens/battle_screen.rs)

bar-abilities = { $who }'s abilities
bar-hint = hover for the what-if preview; greyed ones say why
bar-save-against = Save against:
bar-save-none = nothing a save can end
bar-save-button = { $condition } ({ $stat } DC { $dc })
bar-end-turn = End turn (E)
bar-delay = Delay
bar-delay-none-hover = This ruleset has no Delay; the engine will say so
bar-delay-hover = Leave the order now and come back after any later turn
bar-return-from-delay = { $who } returns from Delay
bar-release-held-cast = { $who } releases the held cast

## The log export's note (src/game/screens/battle_screen.rs)

export-log-written = log written to { $path }
export-log-no-folder = log not written: { $dir }: cannot make the folder: { $error }
export-log-failed = log not written: { $error }

## The decision prompt (src/game/screens/prompt.rs)

prompt-ai-pick = { $choice } (the AI's pick)
prompt-title = { $who }: { $kind }
prompt-title-gm = GM: { $kind }
prompt-policy = { $kind } from now on:
prompt-ask = ask
prompt-always = always
prompt-always-hover = Take it the way the AI would
prompt-never = never
prompt-never-hover = Decline it without asking

## The GM window (src/game/screens/gm.rs)

gm-title = Game master
gm-open-it = Open it
gm-let-it-go = Let it go
gm-creature = Creature
gm-condition = Condition
gm-rounds = rounds{" "}
gm-rounds-hover = 0: until removed
gm-value = value{" "}
gm-value-hover = 0: no value
gm-hit-by = Hit by
gm-hit-ranged = ranged
gm-hit-surprise = surprise
gm-aware = aware
gm-opening-for = Opening for

## The saves window (src/game/screens/windows.rs)

saves-title = Saves
saves-where = Saves live in { $dir }/. F5 quick-saves, F9 quick-loads.
saves-name = Name
saves-save = Save
saves-save-replacing = Save (replaces it)
saves-writes = Writes { $path }
saves-refresh = Refresh
saves-none = No saves yet.
saves-file = File
saves-encounter = Encounter
saves-ruleset = Ruleset
saves-round = Round
saves-saved = Saved
saves-load = Load
saves-unreadable = unreadable

## The Simulate window (src/game/screens/windows.rs)

simulate-title = Simulate
simulate-intro = { $encounter } under { $ruleset }: AI against AI on every side, seeds { $seed } and up, on one background thread.
simulate-runs = Runs
simulate-cancel = Cancel
simulate-run = Run
simulate-meanwhile = The game goes on meanwhile.
simulate-about = { $encounter } · { $ruleset } · { $n ->
    [one] { $n } run
   *[other] { $n } runs
}
simulate-side-wins = { $side }: wins { $rate }% (95% CI { $low }–{ $high }%)
simulate-side-no-runs = { $side }: no runs
simulate-draws-rounds = Draws: { $draws }. Rounds: mean { $mean }, median { $median }, 5th–95th percentile { $p5 }–{ $p95 }.
simulate-win-rate = Win rate per side (%)
simulate-win-series = win %
simulate-rounds-to-finish = Rounds to finish (runs)
simulate-rounds-axis = round the fight ended in
simulate-runs-series = runs

## The HUD's panels: initiative tracker, timeline, creature card, combat log, ability bar (src/game/hud_panels.rs)

tracker-row-acting = acting
tracker-row-count = count { $count }
tracker-row-hover = { $name } ({ $side }): { $tags }
tracker-surprise-round = Surprise round
tracker-round = Round { $round }
tracker-round-segment = Round { $round } · segment { $segment }
tracker-surprise-hint = Only aware creatures act; the unaware are flat-footed.
tracker-turn-order = Turn order
tracker-divider-surprise = — surprise round —
tracker-divider-round = — round { $round } —
tracker-seg = seg { $segment } (round { $round })
tracker-delayed = Delayed
tracker-readied = Readied / holding
tracker-timeline = Timeline
tracker-held = { $who } holds { $ability } (release owes RT { $owes })
tracker-held-hint = SG-19..25: a held cast suspends its recovery time until it is released.
tracker-column-round = R{ $round }·1
card-pips-of = { $have } of { $of }
card-back-to-acting = Back to the creature acting
card-hp = { $hp } / { $max } hp
card-actions-this-round = Actions this round
card-actions-this-turn = Actions this turn
card-extra-actions = { $n ->
    [one] +{ $n } extra action
   *[other] +{ $n } extra actions
}
card-extra-actions-only = { $n ->
    [one] +{ $n } extra action ({ $only })
   *[other] +{ $n } extra actions ({ $only })
}
card-bonus-actions = Bonus actions: no action cost (HB-34)
card-slot-standard = Standard
card-slot-move = Move
card-slot-swift = Swift
card-slot-free = Free
card-slot-full-round = Full-round
card-slot-step = 5-ft step
card-slot-open = open
card-slot-spent = spent
card-slot-any-number = any number
card-slot-still-open = still open
card-slot-closed = closed
card-slot-used-or-moved = used or moved
card-acting-now = Acting now: one timed action, plus free actions
card-next-turn = Next turn: segment { $segment } of round { $round } ({ $owed ->
    [one] { $owed } segment
   *[other] { $owed } segments
} of recovery owed)
card-no-turn-scheduled = No turn scheduled (delaying, readied, holding or casting)
card-reactions-unlimited = Reactions: unlimited, no action cost
card-reactions-left = Reactions left: { $n }
card-reactions-none = No reactions: it can't act now
# $unit is `actions`, `rounds` or `segments`: what $paid and $total count.
card-activity-progress = { $ability }: { $paid }/{ $total } { $unit ->
    [rounds] rounds
    [segments] segments
   *[actions] actions
}
card-concentrating = concentrating
card-release-owes = release owes RT { $rt }
log-view-title = Combat log
log-view-everyone = everyone
log-view-export = Export
log-view-export-hint = Write the log as JSON lines
# $kind is the event's kind as the engine names it (AttackRolled, TurnStarted ...).
log-view-entry-round = round { $round } · { $kind }
bar-targets-now = targets now: { $targets }
bar-cant-use-now = Can't use it now: { $why }
bar-what-if = What if: { $what }
ability-with-penalty = { $name } { $penalty }
odds-hit = hit { $hit }%
odds-hit-crit = hit { $hit }% · critical { $crit }%
banner-odds = { $who }: { $odds }

## Floating texts over the board's tokens (src/game/battle.rs, drawn by src/game/view.rs)

float-attack = attack { $total }
float-blocked = blocked
float-miss = miss
float-down = down!

## The end screen's summary of the fight (src/game/battle.rs)

end-summary-won = { $side } win in round { $round }
end-summary-draw = Draw in round { $round }: { $reason }
end-summary-draw-nobody-can-act = nobody can act any more
end-summary-draw-round-cap = the round cap ({ $n }) is reached
end-summary-draw-work-limit = the engine's work limit is reached
end-summary-nobody-standing = Nobody is left standing (round { $round })
end-summary-creature = { $who }: { $hp } hp left, dealt { $dealt }

## Notes on the banner: undo, redo, saves and loads; the Simulate window's errors (src/game/session.rs)

note-undo-nothing = Undo: nothing of yours to undo.
# $what is one of the note-cmd-* messages.
note-undid = Undid { $what } ({ $n ->
    [one] { $n } journal entry
   *[other] { $n } journal entries
} taken back).
note-undo-failed = Undo: { $error }.
note-redid = Redid { $what }, with the same dice.
note-redo-failed = Redo: { $error }.
note-cmd-act = { $who }'s { $ability }
note-cmd-end-turn = { $who } ending the turn
note-cmd-delay = { $who }'s Delay
note-cmd-return = { $who }'s return from Delay
note-cmd-release = { $who }'s release of the held cast
note-cmd-hold = { $who } holding { $ability }
note-cmd-decision = the decision
note-cmd-other = the last command
note-no-folder = cannot make the folder { $dir }: { $error }
note-saved = Saved round { $round } to { $path }.
note-not-saved = Not saved: { $error }
note-loaded = Loaded { $path } ({ $encounter }, { $ruleset }, round { $round }).
note-not-loaded = Not loaded, the battle goes on: { $error }
simulate-from-scenario = this battle comes from a scenario file; Simulate runs encounter files (start one from the start screen)
simulate-from-save = this battle comes from a save; Simulate runs encounter files (start one from the start screen)
simulate-panicked = the simulation failed (a panic in a run; see the terminal)
simulate-no-thread = cannot start a thread: { $error }
simulate-cancelled = cancelled

## Input: the ability bar's key names, the bindings file, why a click or a hovered target is refused (src/game/input.rs)

keys-name-backspace = Backspace
keys-name-arrow-up = ArrowUp
keys-name-arrow-down = ArrowDown
keys-name-arrow-left = ArrowLeft
keys-name-arrow-right = ArrowRight
keys-mouse-left = Left click
keys-mouse-right = Right click
keys-mouse-middle = Middle click
# $button is the mouse button's name as the engine knows it (Back, Forward, Other(4)).
keys-mouse-other = { $button } click
keys-wheel-up = wheel Up
keys-wheel-down = wheel Down
keys-ctrl = Ctrl+{ $key }
keys-bindings-error = { $error } (using the default bindings)
# $what is a creature's name or a square (note-square); $why is the engine's refusal or one of the reasons below.
note-refused = { $what }: { $why }
note-refused-ability = { $what }: { $ability }: { $why }
note-square = ({ $x }, { $y })
note-no-attack-reaches = no attack reaches
note-no-attack = no attack to make
note-out-of-reach = out of reach
note-no-movement-left = no movement left

## The F12 world inspector (src/game/inspector.rs)

inspector-title = World inspector (F12)
inspector-read-only = The combat's world, read-only: rules state changes only through commands.
inspector-card-creature = { $name } (the card's creature)
inspector-mod-components = Components from mods:
inspector-whole-world = The whole world

## Added with the language selector

start-language = Language
start-view = View
view-2d = 2D
view-3d = 3D
view-hover = Draw the board flat from above (2D) or as a scene with a camera that turns (3D); V switches at any moment
start-controls-3d = In 3D: Q and R (or drag with the right button) turn the camera, Page Up/Down tilt it, drag with the middle button to pan, Home frames the whole board. V switches between 2D and 3D.
target-no-assist = { $who } has no Assist waiting
target-hold-own = { $who } cannot hold an action for its own move or action
target-hold-never = { $who } is not a standing enemy of { $holder }: the held action would never fire
target-no-save-end = { $who } has no { $condition } that a save can end
cost-rt = RT { $n }
cost-ct = CT { $n }
cost-ft = FT { $n }
# How many lines of body text a log row shows (longer sentences: more lines).
log-row-lines = 3
