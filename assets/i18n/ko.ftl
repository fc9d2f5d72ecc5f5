# 한국어: 게임의 문구. 여기 있는 모든 메시지는 다른 모든 카탈로그에도 같은 변수($who, $n ...)로
# 있어야 합니다: `cargo test i18n`이 이를 검사합니다. 복수형은 Fluent의 CLDR 범주를 씁니다.
# 한국어에는 "other" 범주 하나뿐이므로, 개수는 선택자 없이 단위 명사(개, 회, 칸, 라운드, 턴)로 씁니다.
# 언어를 추가하는 방법: docs/languages.md.

language-name = 한국어

## 여러 곳에서 쓰는 개수

n-actions = 행동 { $n }개
n-reactions = 반응 행동 { $n }회
n-rounds = { $n }라운드
n-squares = { $n }칸
n-effects = 효과 { $n }개
n-held-actions = 보류 행동 { $n }개

## 전투 기록 (사건마다 한 문장; 주사위와 합계의 위치는 언어마다 정함)

log-combat-started = { $ruleset } 룰셋으로 전투가 시작됩니다(주사위 시드 { $seed }).
log-initiative-rolled = { $who }의 우선권 굴림: { $roll }.
log-roll-off = 대결 굴림으로 동점을 가립니다: { $rolls }.
log-initiative-order = 우선권 순서: { $order }.
log-round-started = { $round }라운드가 시작됩니다({ $seconds }초).
log-turn-started = { $who }의 턴.
log-turn-started-segment = { $who }의 턴({ $round }라운드, 세그먼트 { $segment }).
log-turn-skipped = { $who }의 턴을 건너뜁니다: { $reason }.
log-ability-used = { $who }이(가) { $ability }을(를) 사용합니다.
log-ability-used-on = { $who }이(가) { $targets }에게 { $ability }을(를) 사용합니다.
log-ability-used-cost = { $who }이(가) { $ability }을(를) 사용합니다({ $cost }).
log-ability-used-on-cost = { $who }이(가) { $targets }에게 { $ability }을(를) 사용합니다({ $cost }).
log-activity-started = { $who }이(가) 여러 턴에 걸쳐 { $ability }을(를) 시작합니다: 행동 { $cost }개 중 { $paid }개 지불.
log-activity-progressed = { $who }이(가) { $ability }을(를) 계속합니다: { $paid }개 추가 지불, { $remaining }개 남음.
log-activity-completed = { $who }이(가) { $ability }을(를) 완료합니다.
log-activity-interrupted = { $who }의 { $ability }이(가) 방해받아 { n-actions }를 잃습니다.
log-ability-resolved = { $who }의 { $ability }이(가) 해결됩니다.
log-action-held = { $who }이(가) { $ability }을(를) 보류합니다({ n-actions } 예약).
log-held-triggered = { $by }에 의해 { $who }이(가) 보류한 { $ability }이(가) 발동합니다.
log-held-lost-ranged = { $who }이(가) 원거리 공격에 맞아 { n-held-actions }를 잃습니다.
log-held-lost-surprise = { $who }이(가) 기습 공격에 맞아 { n-held-actions }를 잃습니다.
log-held-lapsed = { $who }의 { n-held-actions }가 사라집니다.
log-damaged = { $who }이(가) { $amount } 피해를 입습니다(남은 HP { $hp }).
log-damaged-dice = { $who }이(가) { $amount } [{ $dice }] 피해를 입습니다(남은 HP { $hp }).
log-downed = { $who }이(가) 쓰러집니다.
log-moved = { $who }이(가) ({ $fx }, { $fy })에서 ({ $tx }, { $ty })(으)로 이동합니다({ $mode }).
log-move-stopped = { $who }의 이동이 ({ $x }, { $y })에서 멈춥니다.
log-disengaged = { $who }이(가) { $from }에게서 이탈합니다.
log-disengaged-none = { $who }이(가) 이탈합니다. 닿는 곳에 적이 없습니다.
log-opportunity-provoked = { $mover }이(가) { $from }의 기회 공격을 유발합니다.
log-opportunity-declined = { $who }이(가) 기회를 흘려보냅니다.
log-no-opportunity = { $from }은(는) { $mover }에게 기회 공격을 할 수 없습니다: { $why }.
no-opportunity-flanked = 협공당하고 있음
no-opportunity-disengaged = 이동자가 이탈했음
no-opportunity-busy = 행위를 진행하는 중임
no-opportunity-incapacitated = 행동할 수 없음
no-opportunity-no-attack = 쓸 수 있는 공격이 없음
no-opportunity-flat-footed = 무방비 상태임
no-opportunity-none-left = 남은 반응 행동이 없음
log-assist-granted = { $from }이(가) { $to }을(를) 지원합니다(+{ $bonus }).
log-assist-denied = { $from }의 { $to } 지원이 거부됩니다.
log-assist-area = { $who }의 지원받은 공격이 범위 공격으로 취급됩니다.
log-condition-applied = { $who }이(가) { $condition }{ $value } 상태가 됩니다.
log-condition-applied-rounds = { $who }이(가) { n-rounds } 동안 { $condition }{ $value } 상태가 됩니다.
log-condition-applied-turns = { $who }이(가) 자기 턴 { $n }회 동안 { $condition }{ $value } 상태가 됩니다.
log-condition-applied-end-of-turn = { $who }이(가) 자기 턴이 끝날 때까지 { $condition }{ $value } 상태가 됩니다.
log-condition-applied-sustained = { $who }이(가) 유지되는 동안 { $condition }{ $value } 상태가 됩니다.
log-condition-value = { $who }의 { $condition } 수치가 이제 { $value }입니다.
log-condition-unchanged = { $who }은(는) 이미 { $condition } 상태입니다: 추가 효과 없음.
log-condition-ended = { $who }의 { $condition } 상태가 끝납니다: { $why }.
end-expired = 시간이 다 됨
end-permanent-wound = 영구 부상으로 끝남
end-negative-status = 부정적 상태로 끝남
end-first-turn = 첫 턴이 돌아옴
end-removed-by-mod = 모드가 제거함
end-recovered = 회복함
end-healed = 치유됨
end-save-succeeded = 내성 굴림 성공으로 끝남
end-flat-check-passed = 순수 주사위 판정 성공으로 끝남
end-wore-off = 효과가 다함
end-actions-lost = 잃게 한 행동만큼 모두 소모됨
end-not-sustained = 아무도 유지하지 않음
badge-modifier = { $what }: { $amount } ({ $kind })
bonus-kind-untyped = 무형
bonus-kind-status = 상태
bonus-kind-circumstance = 상황
bonus-kind-item = 아이템
bonus-kind-morale = 사기
log-roll-modified = { $who }의 { $roll }: { $parts }.
roll-on-attack = 공격 굴림
roll-on-save = 내성 굴림
roll-on-dc = DC
roll-on-damage = 피해
roll-on-ac = AC
log-mod-damage = 모드 { $source }이(가) { $who }에게 { $n } 피해를 줍니다.
log-mod-heal = 모드 { $source }이(가) { $who }의 HP를 { $n } 회복시킵니다.
log-mod-apply-value = 모드 { $source }이(가) { $who }에게 { $condition } { $n } 상태를 부여합니다.
log-mod-apply = 모드 { $source }이(가) { $who }에게 { $condition } 상태를 부여합니다.
log-mod-remove = 모드 { $source }이(가) { $who }의 { $condition } 상태를 제거합니다.
log-mod-grant = 모드 { $source }이(가) { $who }에게 { n-actions }를 돌려줍니다.
log-mod-spend = 모드 { $source }이(가) { $who }의 행동 { $n }개를 소모합니다.
log-mod-reschedule = 모드 { $source }이(가) { $who }의 다음 턴을 시각 { $n }(으)로 옮깁니다.
log-expired-before-count = { $who }의 { $condition } 상태가 { $round }라운드 카운트 { $count } 직전에 끝납니다.
log-actions-regained = { $who }이(가) { n-actions }와 반응 행동 { $reactions }회를 회복합니다.
log-actions-regained-restricted = { $who }이(가) { n-actions } + 제한된 행동 { $restricted }개와 반응 행동 { $reactions }회를 회복합니다.
log-recovery-check = { $who }의 회복 판정: { $roll } 대 DC { $dc } — { $degree }, 빈사 { $value }.
degree-critical-failure = 대실패
degree-failure = 실패
degree-success = 성공
degree-critical-success = 대성공
log-flat-check-ends = { $who }의 { $condition } 순수 주사위 판정: { $roll } 대 DC { $dc } — 끝납니다.
log-flat-check-goes-on = { $who }의 { $condition } 순수 주사위 판정: { $roll } 대 DC { $dc } — 계속됩니다.
log-healed = { $who }이(가) { $amount } 회복합니다(HP { $hp }).
log-healed-dice = { $who }이(가) { $amount } [{ $dice }] 회복합니다(HP { $hp }).
log-sustained = { $who }이(가) { n-effects }를 유지합니다.
log-action-disrupted = { $who }의 { $ability }이(가) 방해받습니다.
log-delayed = { $who }이(가) 지연합니다.
log-returned-from-delay = { $who }이(가) { $after }의 턴 뒤에 지연에서 복귀합니다.
log-delay-lapsed = { $who }이(가) 너무 오래 지연해 턴을 잃습니다.
log-ready-not-used = { $who }이(가) 준비한 { $ability }은(는) 쓰이지 않았습니다.
log-cast-announced = { $who }이(가) { $ability } 시전을 시작합니다: { $round }라운드 세그먼트 { $segment }에 해결됩니다.
log-cast-held = { $who }이(가) { $ability }을(를) 보류합니다.
log-hold-accrued = { $who }이(가) 보류 중에 행동합니다: 갚을 회복 시간 +{ $rt }(총 { $total }).
log-cast-released = { $who }이(가) { $ability }을(를) 방출합니다. 다음 턴은 { $round }라운드 세그먼트 { $segment }.
log-concentration-broken = { $who }의 { $ability } 정신집중이 깨집니다. 다음 턴은 { $round }라운드 세그먼트 { $segment }.
log-component-consumed = { $who }이(가) { $item }을(를) 소모합니다.
log-surprise-round = 기습 라운드: { $aware }만 행동할 수 있습니다.
log-initiative-moved = { $who }이(가) 이제 { $before }보다 먼저 행동합니다.
log-aware = { $who }이(가) 적을 인지하고 있습니다.
log-unaware = { $who }이(가) 적을 인지하지 못했습니다(기습당함).
log-permanent-wound = { $who }이(가) 영구 부상을 입습니다.
log-save-success = { $who }의 { $stat } 내성 굴림: { $roll } 대 DC { $dc } — 성공.
log-save-failure = { $who }의 { $stat } 내성 굴림: { $roll } 대 DC { $dc } — 실패.
log-save-degree-result = { $who }의 { $stat } 내성 굴림: { $roll } 대 DC { $dc } — { $degree }.
log-save-degree = { $who }의 내성 굴림: { $degree }.
log-crit-confirm = { $attacker }이(가) { $target }에 대한 치명타 확정 굴림을 합니다: { $roll } 대 AC { $ac } — { $result }.
log-critical-hit = { $attacker }이(가) { $target }에게 치명타를 입힙니다(×{ $n }).
log-critical-miss = { $attacker }의 { $target } 공격은 대실패입니다.
log-damage-scaled = { $who }의 피해: { $how }(총 { $amount }).
log-opening-created = 빈틈! { $who }이(가) 행동할 수 있습니다.
log-opening-passed = { $who }이(가) 빈틈을 넘깁니다.
log-opening-skipped = { $who }은(는) 빈틈을 쓸 수 없습니다: { $reason }.
log-opening-closed = 빈틈이 닫힙니다.
reason-cannot-act = 행동할 수 없음
reason-busy-completing = { $ability }을(를) 완료하는 중
log-decision-opportunity = { $who }이(가) { $ability }(으)로 기회 공격을 합니다.
log-decision-no-opportunity = { $who }이(가) 이동자를 그냥 보냅니다.
log-decision-opening = { $who }이(가) 빈틈을 사용합니다: { $ability }.
log-decision-approve = { $who }이(가) 지원을 승인합니다.
log-decision-deny = { $who }이(가) 지원을 거부합니다.
log-decision-triggered = { $who }이(가) { $ability }을(를) 사용합니다.
log-decision-triggered-none = { $who }이(가) 아무것도 사용하지 않습니다.
log-decision-lose-first = { $who }이(가) { $kind }을(를) 먼저 잃습니다.
log-decision-order = { $who }이(가) 동점 순서를 정합니다: { $order }.
log-decision-hold-cast = { $who }이(가) 시전을 보류합니다.
log-decision-release-cast = { $who }이(가) 시전을 즉시 방출합니다.
log-turn-ended = { $who }이(가) 턴을 마칩니다.
log-turn-ended-unspent = { $who }이(가) { n-actions }를 남기고 턴을 마칩니다.
log-actions-forfeited = { $who }의 { n-actions }가 소멸합니다.
log-round-ended = { $round }라운드가 끝납니다.
log-combat-won = 전투 종료: { $side }의 승리.
log-combat-draw = 전투 종료: 무승부.
log-draw-nobody-can-act = { $round }라운드: 더 이상 아무도 행동할 수 없습니다 — 무승부.
log-draw-round-cap = 라운드 상한({ $n })에 도달했습니다 — 무승부.
log-draw-work-limit = 엔진의 작업 한도에 도달했습니다 — 무승부.
the-gm = GM
action-kind-standard = 표준 행동
action-kind-move = 이동 행동
action-kind-swift = 신속 행동
action-kind-immediate = 즉시 행동
action-kind-full-round = 전체 라운드 행동
action-kind-free = 자유 행동

## 공격 항목: 공격 뒤에 각 응답(방어, 명중 또는 빗나감, 피해)이 이어 붙음

log-attack = { $attacker }이(가) { $ability }(으)로 { $target }을(를) 공격합니다: { $roll }
log-attack-vs-defense = {" "}대 { $method } { $roll }
log-attack-no-defense-possible = {" "}(방어 굴림 불가)
log-attack-no-defense = {" "}(방어 굴림 없음)
log-attack-miss-ac = {" "}대 AC { $ac } — 빗나감
log-attack-blocked = {" "}— 막힘
log-attack-hit = {" "}— 명중
log-attack-damage = , { $amount } 피해({ $who } 남은 HP { $hp })
log-attack-damage-dice = , { $amount } [{ $dice }] 피해({ $who } 남은 HP { $hp })
log-attack-assist = {" "}(지원 +{ $bonus })
log-attack-critical-miss-ac = {" "}대 AC { $ac } — 대실패
log-attack-critical-hit = {" "}— 치명타(×{ $n })
log-attack-threat = {" "}— 위협: 확정 굴림 { $roll } 대 AC { $ac }, { $result }
threat-confirmed = 확정됨
threat-not-confirmed = 확정 실패(일반 명중)
roll-multiple-attack-penalty = 다중 공격 페널티
damage-scale-times = { $rolled } ×{ $n }
damage-scale-dice-times = 주사위 ×{ $n }
damage-scale-half = { $rolled }의 절반
defense-dodge = 회피
defense-parry = 쳐내기
defense-none = 방어 없음
roll-flanking = 협공
roll-dropped = { $value } 버림
roll-keep = { $value } 채택
# A d20 that came up 20 or 1 where that means something (pf1e, pf2e: issue 50).
roll-natural = 자연 { $value }
action-kind-five-foot-step = 5피트 걸음
loss-restricted = 제한된 행동
loss-regular = 일반 행동
move-mode-walk = 보행
move-mode-land = 지상
move-mode-fly = 비행
move-mode-skirmish = 교전 이동
move-mode-shift = 한 걸음
move-mode-sprint = 질주

## HUD의 뷰 모델: 추적기, 예상 결과, 카드, 배지, 비용, 능력 바, 상태 표시줄

tracker-acting-now = { $who }: 행동 중
tracker-next-turn = { $who }: 다음 턴
tracker-resolves = { $who }: { $ability } 해결
what-if-round = { $ability }: 다음 턴은 { $round }라운드, 순서상 { $place }번째
what-if-segment = { $ability }: 다음 턴은 { $round }라운드 세그먼트 { $segment }
what-if-segment-after = { $ability }: 다음 턴은 { $round }라운드 세그먼트 { $segment }, { $after } 다음
card-regain-bonus = 매 턴 시작 시 행동 +{ $n }
card-regain-bonus-only = 매 턴 시작 시 행동 +{ $n }({ $only }에만 사용 가능)
card-regain-loses = 행동을 회복할 때 행동 −{ $n }
card-regain-loses-consumed = 행동을 회복할 때 행동 −{ $n }(잃은 행동만큼 수치 감소)
card-cannot-act = 행동 불가: 행동도 반응 행동도 없음
card-rt-add = 모든 회복 시간에 { $signed } 세그먼트
activity-holding = { $ability } 보류 중: 정신집중 중. 방출하면 회복 시간 { $n } 세그먼트를 갚아야 함
activity-cast = { $ability } 시전: { $round }라운드 세그먼트 { $segment }에 해결({ $left } 남음), 정신집중 중
activity-focus = { $ability } 집중: { $round }라운드 세그먼트 { $segment }에 해결({ $left } 남음), 정신집중 중
activity-casting = { $ability } 시전 중: { $cost }라운드 중 { $paid }라운드 지불, { $left } 남음
activity-spreading = { $ability } 진행 중: 행동 { $cost }개 중 { $paid }개 지불, { $left }개 남음
badge-goes-down = ; { $owner }의 턴이 끝날 때 { $n }씩 감소
badge-persistent = ; { $owner }은(는) 자기 턴이 끝날 때마다 { $dice } 피해를 입음
badge-persistent-check = ; { $owner }은(는) 자기 턴이 끝날 때마다 { $dice } 피해를 입고, 이어서 DC { $dc } 순수 주사위 판정에 성공하면 끝남
badge-ends-on-wound = ; 영구 부상을 입어도 끝남
badge-ends-on-negative = ; 부정적 상태 효과를 받아도 끝남
badge-ends-on-both = ; 영구 부상이나 부정적 상태 효과로도 끝남
badge-save-ends = ; 내성 굴림(회복 행동)으로 끝낼 수 있음
badge-rounds-short = { $n }라운드
badge-turns-short = { $n }턴
badge-no-duration = 정해진 지속시간 없음
badge-ends-end-of-turn = { $owner }의 턴이 끝날 때 종료
badge-ends-unless-sustained = { $creator }이(가) 유지하지 않으면 { $creator }의 턴이 끝날 때 종료
badge-ends-end-of-owner-turn = { $owner }의 턴이 { $n }회 더 끝나면 종료
badge-ends-end-of-round = { $round }라운드가 끝날 때 종료
badge-ends-start-of-turn = { $creator }의 턴이 { $n }회 더 시작되면 종료
badge-ends-at-segment = { $round }라운드 세그먼트 { $segment }에, 그 세그먼트의 어떤 턴보다도 먼저 종료
badge-ends-before-count = { $round }라운드 카운트 { $count } 직전에 종료
badge-rounds-left = { $n }라운드 남음
cost-reaction = 반응 행동
cost-free-action = 자유 행동
cost-bonus-action = 보너스 행동(비용 없음)
cost-full-round-cast = 전체 라운드, 시전에 { $n }라운드
cost-standard = 표준
cost-move = 이동
cost-full-round = 전체 라운드
cost-swift = 신속
cost-immediate = 즉시
cost-free = 자유
cost-five-foot-step = 5피트 걸음
cost-rt-by-mode = 이동 방식에 따른 RT
bar-nowhere-to-move = 여기서는 이동할 곳이 없음
bar-refused-now = 지금은 엔진이 거부함
status-to-act = { $who }의 차례
status-waiting-for = { $who }을(를) 기다리는 중
status-awaiting-return = 지연 중인 크리처의 복귀를 기다리는 중
status-ended = 전투가 끝났습니다

## 엔진이 명령을 거부하는 이유 (배너, 능력 바, 마우스 오버 설명)

reject-combat-over = 전투가 끝났음
reject-unknown-combatant = 전투원 #{ $id }이(가) 없음
reject-not-your-turn = { $who }은(는) 행동할 수 없음: 지금은 { $active }의 턴
reject-no-turn = { $who }은(는) 행동할 수 없음: 진행 중인 턴이 없음
reject-awaiting-decision = { $by }의 결정을 기다리는 중
reject-no-decision = 대기 중인 결정이 없음
reject-wrong-decider = 이 결정은 { $by }의 몫임
reject-invalid-choice = 잘못된 선택: { $why }
reject-unknown-ability = 룰셋에 `{ $ability }` 능력이 없음
reject-ability-not-known = 크리처에게 { $ability }이(가) 없음
reject-not-enough-actions = { n-actions } 필요, { $left }개 남음
reject-busy = { $ability } 완료 중: 끝날 때까지 다른 행동 불가
reject-unable-to-act = 크리처가 행동할 수 없음
reject-limit-reached = 이번 턴에는 { $ability }을(를) 더 쓸 수 없음
reject-invalid-target = 잘못된 대상: { $why }
reject-out-of-range = { $n }칸 떨어져 있음, 최대 { $max }칸
reject-occupied = ({ $x }, { $y }) 칸은 이미 차 있음
reject-mode-required = 이동 방식을 지정해야 함: { $modes }
reject-unknown-mode = `{ $mode }` 이동 방식이 없음
reject-openings-disabled = 이 룰셋에는 빈틈이 없음
reject-holding-disabled = 이 룰셋에서는 행동을 보류할 수 없음
reject-not-holdable = { $ability }은(는) 행동 비용이 없어 보류할 수 없음
reject-unknown-condition = 룰셋에 { $condition } 상태가 없음
reject-reaction-only = { $ability }은(는) 발동 조건이 일어날 때만 사용함
reject-delay-disabled = 이 룰셋에는 지연이 없음
reject-cannot-delay-now = 지연은 턴이 시작될 때, 행동하기 전에만 가능
reject-not-delayed = 크리처가 지연 중이 아님
reject-not-while-holding = 시전 보류 중에는 { $ability } 사용 불가
reject-missing-component = 시전 구성요소 없음: { $component }
reject-not-holding = 크리처가 보류 중인 시전이 없음
reject-ready-standard = 준비에는 표준 행동이 필요함
reject-swift-used = 다음 신속 행동을 이미 사용함
reject-immediate-flat-footed = 무방비 상태에서는 즉시 행동 불가
reject-after-step = 5피트 걸음 뒤에는 다른 이동 불가
reject-no-standard = 이번 턴에 남은 표준 행동 없음
reject-no-move = 이번 턴에 남은 이동 행동 없음
reject-surprise-one = 기습 라운드에는 표준 행동 또는 이동 행동 하나만 가능
reject-full-round = 전체 라운드 행동에는 턴 전체가 필요함
reject-no-swift = 이번 턴에 남은 신속 행동 없음
reject-step-only = 5피트 걸음은 다른 이동을 하지 않을 때만 가능
target-no-sight = { $who }에게 시야가 닿지 않음
target-down = { $who }은(는) 쓰러졌음
target-not-enemy = { $who }은(는) 적이 아님
target-not-ally = { $who }은(는) 아군이 아님
target-twice = { $who }이(가) 두 번 지정됨
target-not-engaged = { $who }와(과) 교전 중이 아님
target-charge-next-to = 돌격은 { $who } 옆에서 끝나야 함
target-already-there = { $who }은(는) 이미 그 자리에 있음: 다른 칸으로 이동해야 함
target-no-way = 이동력 { n-squares } 안에 ({ $x }, { $y }) 칸으로 갈 길이 없음: 벽이나 적이 막고 있음
target-off-map = ({ $x }, { $y }) 칸은 지도 밖임
target-blocked = ({ $x }, { $y }) 칸은 막혀 있음
target-attack-one = 공격에는 대상이 정확히 하나 필요함
target-charge-one = 돌격에는 대상이 정확히 하나 필요함
target-needs-square = 이동할 칸이 필요함
target-assist-one = 지원에는 아군이 정확히 하나 필요함
target-needs-targets = 이 능력에는 대상이 필요함
target-no-eligible = 이 빈틈을 쓸 수 있는 크리처가 없음

## 기록 필터

category-turns = 턴
category-attacks = 공격
category-movement = 이동
category-conditions = 상태
category-decisions = 결정
category-casting = 시전
category-other = 기타

## 결정 프롬프트

prompt-reaction-free = 반응 행동: 행동 비용 없음
prompt-uses-reaction = 반응 행동을 사용함
prompt-defend = { $method }: 1d20 + { $stat } 대 { $attacker }의 { $total } — 무료, 행동 비용 없음 (G-HB-11)
prompt-no-defense = 방어 굴림 없음: { $attacker }의 공격({ $total })이 명중함
prompt-opportunity-attack = { $ability }(으)로 { $who } 공격({ $cost })
prompt-let-go = { $who } 보내기(반응 행동 유지)
prompt-approve = { $from }의 { $to } 지원 승인 (HB-11)
prompt-deny = 거부: 지원에 쓴 행동은 그래도 소모됨
prompt-a-free-action = 자유 행동
prompt-use-now = 지금 { $ability } 사용({ $cost })
prompt-use-nothing = 사용하지 않음
prompt-lose-restricted = 제한된(보너스) 행동을 먼저 잃음: 일반 행동 유지
prompt-lose-regular = 일반 행동을 먼저 잃음: 제한된 행동 유지
prompt-release = 지금 { $ability } 방출: 회복 시간이 지금 시작됨 (SG-13/14)
prompt-hold = { $ability } 보류: 회복 정지, 정신집중 유지. 보류 중 행동마다 그 RT + 추가 비용이 쌓임 (SG-19..23)
prompt-then = , 그다음{" "}
prompt-order = { $names } (무료)
prompt-no-action-cost = 행동 비용 없음
prompt-opening-cost = 이번 라운드에 남은 행동 { $left }개 중 { $n }개 소모
prompt-opening-on = { $who }에게 { $ability }({ $cost })
prompt-opening-use = { $ability }({ $cost })
prompt-pass-opening = 빈틈 넘기기(비용 없음)
choice-use = { $ability } 사용
choice-use-on = { $targets }에게 { $ability } 사용
choice-order = 순서: { $order }
choice-pass = 넘기기
choice-nothing = 없음
choice-let-go = 보내기
choice-approve = 승인
choice-deny = 거부
choice-hold = 시전 보류
choice-release = 시전 방출
summary-defense = { $attacker }의 공격 합계는 { $total }입니다: 이 값 이상인 방어 굴림은 공격을 막습니다 (HB-40).
summary-opportunity = { $who }이(가) 당신의 도달 범위를 벗어납니다.
summary-opening = 빈틈: 지금 능력 하나를 사용할 수 있으며, 비용은 이번 라운드의 행동에서 지불합니다 (HB-30, HB-31, HB-33).
summary-assist = { $from }이(가) { $to }을(를) 지원하려 합니다: 그 도움이 그럴듯한지 GM이 판단합니다 (HB-11).
summary-triggered = 무언가가 당신의 자유 행동이나 반응 행동을 유발합니다.
summary-action-loss = 행동을 하나 잃습니다: 어느 쪽을 먼저 잃습니까? (G-P2-07)
summary-cast-complete = 시전 시간이 끝났습니다 (SG-13, SG-19).
summary-initiative-tie = 이 크리처들의 우선권이 같습니다: 누가 먼저 행동합니까?
kind-defense = 방어 굴림
kind-opportunity = 기회 공격
kind-opening = 빈틈
kind-assist-approval = 지원 승인
kind-triggered = 유발된 행동
kind-action-loss = 잃을 행동
kind-initiative-tie = 우선권 동점
kind-cast-complete = 시전 보류 또는 방출
kind-decision = 결정

## GM의 판단 (GM 창)

gm-call-opening-default = 빈틈 열기(기본값: 마지막 빗나간 공격의 대상, 또는 무력화된 크리처의 적들)
gm-call-opening-for = { $who }에게 빈틈 열기
gm-call-apply = { $who }에게 { $condition } 적용
gm-call-apply-value = { $who }에게 { $condition } 적용(수치 { $value })
gm-call-apply-rounds = { $who }에게 { n-rounds } 동안 { $condition } 적용
gm-call-apply-value-rounds = { $who }에게 { n-rounds } 동안 { $condition } 적용(수치 { $value })
gm-call-interrupt = { $who } 방해
gm-call-wound = { $who }에게 영구 부상
gm-call-hit-ranged = { $who }이(가) 원거리 공격에 맞음
gm-call-hit-surprise = { $who }이(가) 기습 공격에 맞음
gm-call-aware = { $who }이(가) 인지함
gm-call-unaware = { $who }이(가) 인지하지 못함
gm-call-area-assist = { $who }의 지원을 범위 지원으로 만들기
gm-because-missed-by = { $by }의 공격이 { $who }을(를) 빗나감
gm-because-missed = 공격이 { $who }을(를) 빗나감
gm-because-condition = { $who }이(가) { $condition } 상태임
gm-because-debilitated = { $who }이(가) 무력화됨
gm-suggestion = GM은 { $who }에게 빈틈을 열 수 있습니다: { $reasons }

## 키 이름 (조작 도움말)

key-enter = 엔터 키
key-tab = 탭 키
key-esc = 이스케이프 키
key-space = 스페이스 바

## 시작 화면 (src/game/screens/start.rs)

start-window-title = skirmish
start-heading = 소규모 전술 전투
start-intro = 내 진영 대 AI, 또는 핫시트 대전. 설치된 어떤 턴 시스템으로도 플레이할 수 있습니다.
start-encounter = 조우
start-encounter-error = { $file } (오류)
start-ruleset = 룰셋
start-side = 진영 "{ $side }"
start-human = 사람
start-ai = AI
start-seed = 주사위 시드
start-gm = 게임 마스터
start-gm-person = 여기 있는 사람: GM 창, 빈틈, 지원 승인, 동점 처리
start-gm-person-hover = 끄면: AI GM이 GM의 판단을 기본값으로 내리고, 룰셋의 GM 정책에 따라 빈틈을 엽니다
start-mods = 모드
start-mods-none = 설치된 모드 없음
start-mod-rust = { $name } (Rust 모드)
start-mod-data = { $name } (데이터 모드 { $manifest } { $version })
start-mod-broken = { $name } (손상됨: { $error })
start-mod-broken-hover = 손상됨: { $error }
start-mod-given = { $name } (--mod로 지정)
start-fight = 전투 시작!
start-error-mods = 모드: { $error }
start-load-errors = 다음 파일을 불러올 수 없습니다:
start-controls = 칸을 클릭하면 이동, 적을 클릭하면 공격. 1–9로 능력 선택, M은 이동, { $enter }(으)로 사용, { $tab }(으)로 대상 전환, E로 턴 종료, { $esc }(으)로 취소. WASD/방향키로 화면 이동, 휠로 확대/축소, { $space }(으)로 빨리 감기, L로 기록 표시.

## 종료 화면 (src/game/screens/end.rs)

end-over = 전투 종료
end-victory = 승리!
end-defeat = 패배
end-draw = 무승부
end-restart = 다시 시작
end-back-to-start = 시작 화면으로
end-undo = 마지막 명령 되돌리기 (Ctrl+Z)
end-undo-none = 되돌릴 내 명령이 없음
end-saves = 저장… (F6)

## 턴 배너 (src/game/screens/battle_screen.rs)

banner-round = { $round }라운드
banner-turn-human = { $who } (내 턴)
banner-turn-ai = { $who } (AI)
banner-speed = 속도
banner-tracker = 추적기
banner-tracker-hover = 우선권 추적기를 표시하거나 숨깁니다
banner-card = 카드
banner-card-hover = 크리처 카드를 표시하거나 숨깁니다
banner-log = 기록 (L)
banner-log-hover = 전투 기록을 표시하거나 숨깁니다
banner-inspector-hover = 모드 제작자용 월드 인스펙터
banner-zoom = UI ×
banner-zoom-hover = HUD 배율(시스템 배율 위에 추가로 적용)
banner-quit = 시작 화면으로 나가기
banner-undo = 되돌리기
banner-undo-hover = Ctrl+Z: 마지막 명령과 그 뒤 AI가 한 일을 되돌립니다
banner-undo-none = 아직 되돌릴 내 명령이 없음
banner-redo = 다시 실행
banner-redo-hover = Ctrl+Y: 되돌린 것을 같은 주사위로 다시 실행합니다
banner-quick-save = 빠른 저장
banner-quick-save-hover = F5: 빠른 저장 슬롯에 저장
banner-quick-load = 빠른 불러오기
banner-quick-load-hover = F9: 빠른 저장 슬롯 불러오기
banner-saves = 저장 (F6)
banner-simulate = 시뮬레이션 (F7)
banner-simulate-hover = 이 조우를 AI 대 AI로 백그라운드에서 여러 번 플레이합니다
banner-data-error = 데이터 파일 오류(이 전투는 그대로 계속됩니다): { $error }
banner-data-changed = 디스크의 조우, 룰셋 또는 모드 파일이 바뀌었습니다.
banner-restart-changes = 변경 사항으로 다시 시작
banner-refused = 거부됨: { $reason }
banner-not-here = 여기서는 불가: { $reason }

## 능력 바와 턴 버튼 (src/game/screens/battle_screen.rs)

bar-abilities = { $who }의 능력
bar-hint = 마우스를 올리면 예상 결과 미리보기, 회색 항목은 이유 표시
bar-save-against = 내성 굴림 대상:
bar-save-none = 내성 굴림으로 끝낼 수 있는 것이 없음
bar-save-button = { $condition } ({ $stat } DC { $dc })
bar-end-turn = 턴 종료 (E)
bar-delay = 지연
bar-delay-none-hover = 이 룰셋에는 지연이 없습니다. 엔진이 그렇게 알려 줍니다
bar-delay-hover = 지금 순서에서 빠졌다가 이후 아무 턴 뒤에나 복귀합니다
bar-return-from-delay = { $who }: 지연에서 복귀
bar-release-held-cast = { $who }: 보류한 시전 방출

## 기록 내보내기 알림 (src/game/screens/battle_screen.rs)

export-log-written = 기록을 { $path }에 저장했습니다
export-log-no-folder = 기록을 저장하지 못했습니다: { $dir }: 폴더를 만들 수 없음: { $error }
export-log-failed = 기록을 저장하지 못했습니다: { $error }

## 결정 프롬프트 (src/game/screens/prompt.rs)

prompt-ai-pick = { $choice } (AI의 선택)
prompt-title = { $who }: { $kind }
prompt-title-gm = GM: { $kind }
prompt-policy = 앞으로 { $kind }:
prompt-ask = 묻기
prompt-always = 항상
prompt-always-hover = AI가 하듯이 처리합니다
prompt-never = 안 함
prompt-never-hover = 묻지 않고 거절합니다

## GM 창 (src/game/screens/gm.rs)

gm-title = 게임 마스터
gm-open-it = 열기
gm-let-it-go = 넘기기
gm-creature = 크리처
gm-condition = 상태
gm-rounds = 라운드{" "}
gm-rounds-hover = 0: 제거될 때까지
gm-value = 수치{" "}
gm-value-hover = 0: 수치 없음
gm-hit-by = 맞은 공격
gm-hit-ranged = 원거리
gm-hit-surprise = 기습
gm-aware = 인지
gm-opening-for = 빈틈 대상

## 저장 창 (src/game/screens/windows.rs)

saves-title = 저장
saves-where = 저장 파일은 { $dir }/에 있습니다. F5는 빠른 저장, F9는 빠른 불러오기입니다.
saves-name = 이름
saves-save = 저장
saves-save-replacing = 저장 (덮어쓰기)
saves-writes = { $path }에 기록
saves-refresh = 새로 고침
saves-none = 아직 저장 파일이 없습니다.
saves-file = 파일
saves-encounter = 조우
saves-ruleset = 룰셋
saves-round = 라운드
saves-saved = 저장 시각
saves-load = 불러오기
saves-unreadable = 읽을 수 없음

## 시뮬레이션 창 (src/game/screens/windows.rs)

simulate-title = 시뮬레이션
simulate-intro = { $ruleset } 룰셋의 { $encounter }: 모든 진영을 AI가 맡으며, 시드 { $seed }부터 차례로 백그라운드 스레드 하나에서 실행합니다.
simulate-runs = 실행 횟수
simulate-cancel = 취소
simulate-run = 실행
simulate-meanwhile = 그동안에도 게임은 계속됩니다.
simulate-about = { $encounter } · { $ruleset } · { $n }회 실행
simulate-side-wins = { $side }: 승률 { $rate }% (95% 신뢰구간 { $low }–{ $high }%)
simulate-side-no-runs = { $side }: 실행 없음
simulate-draws-rounds = 무승부: { $draws }. 라운드: 평균 { $mean }, 중앙값 { $median }, 5–95 백분위수 { $p5 }–{ $p95 }.
simulate-win-rate = 진영별 승률 (%)
simulate-win-series = 승률 %
simulate-rounds-to-finish = 종료까지 걸린 라운드 (실행 횟수)
simulate-rounds-axis = 전투가 끝난 라운드
simulate-runs-series = 실행 횟수

## HUD 패널: 우선권 트래커, 타임라인, 크리처 카드, 전투 기록, 능력 바 (src/game/hud_panels.rs)

tracker-row-acting = 행동 중
tracker-row-count = 카운트 { $count }
tracker-row-hover = { $name } ({ $side }): { $tags }
tracker-surprise-round = 기습 라운드
tracker-round = { $round }라운드
tracker-round-segment = { $round }라운드 · 세그먼트 { $segment }
tracker-surprise-hint = 인지한 크리처만 행동합니다. 인지하지 못한 크리처는 무방비 상태입니다.
tracker-turn-order = 턴 순서
tracker-divider-surprise = — 기습 라운드 —
tracker-divider-round = — { $round }라운드 —
tracker-seg = 세그먼트 { $segment } ({ $round }라운드)
tracker-delayed = 지연 중
tracker-readied = 준비 / 보류 중
tracker-timeline = 타임라인
tracker-held = { $who }이(가) { $ability }을(를) 보류 중 (방출 시 RT { $owes })
tracker-held-hint = SG-19..25: 보류한 시전은 방출할 때까지 회복 시간이 멈춥니다.
tracker-column-round = R{ $round }·1
card-pips-of = { $have }/{ $of }
card-back-to-acting = 행동 중인 크리처로 돌아가기
card-hp = { $hp } / { $max } HP
card-actions-this-round = 이번 라운드의 행동
card-actions-this-turn = 이번 턴의 행동
card-extra-actions = 추가 행동 +{ $n }개
card-extra-actions-only = 추가 행동 +{ $n }개 ({ $only })
card-bonus-actions = 보너스 행동: 행동 비용 없음 (HB-34)
card-slot-standard = 표준
card-slot-move = 이동
card-slot-swift = 신속
card-slot-free = 자유
card-slot-full-round = 전체 라운드
card-slot-step = 5피트 걸음
card-slot-open = 가능
card-slot-spent = 사용함
card-slot-any-number = 제한 없음
card-slot-still-open = 아직 가능
card-slot-closed = 불가
card-slot-used-or-moved = 사용했거나 이동함
card-acting-now = 지금 행동 중: 시간이 드는 행동 하나와 자유 행동
card-next-turn = 다음 턴: { $round }라운드 세그먼트 { $segment } (남은 회복 시간 { $owed }세그먼트)
card-no-turn-scheduled = 예약된 턴 없음 (지연, 준비, 보류 또는 시전 중)
card-reactions-unlimited = 반응: 무제한, 행동 비용 없음
card-reactions-left = 남은 반응: { $n }회
card-reactions-none = 반응 불가: 지금은 행동할 수 없음
# $unit은 `actions`, `rounds`, `segments` 중 하나로, $paid와 $total의 단위입니다.
card-activity-progress = { $ability }: { $paid }/{ $total } { $unit ->
    [rounds] 라운드
    [segments] 세그먼트
   *[actions] 행동
}
card-concentrating = 정신집중 중
card-release-owes = 방출 시 RT { $rt }
log-view-title = 전투 기록
log-view-everyone = 전체
log-view-export = 내보내기
log-view-export-hint = 기록을 JSON Lines 형식으로 저장
# $kind는 엔진이 부르는 이벤트 종류 이름입니다 (AttackRolled, TurnStarted ...).
log-view-entry-round = { $round }라운드 · { $kind }
bar-targets-now = 현재 대상: { $targets }
bar-cant-use-now = 지금은 사용할 수 없음: { $why }
bar-what-if = 사용하면: { $what }
ability-with-penalty = { $name } { $penalty }
odds-hit = 명중 { $hit }%
odds-hit-crit = 명중 { $hit }% · 치명타 { $crit }%
banner-odds = { $who }: { $odds }

## 보드의 토큰 위에 뜨는 텍스트 (src/game/battle.rs, 그리기는 src/game/view.rs)

float-attack = 공격 { $total }
float-blocked = 막힘
float-miss = 빗나감
float-down = 쓰러짐!

## 종료 화면의 전투 요약 (src/game/battle.rs)

end-summary-won = { $round }라운드에 { $side } 승리
end-summary-draw = { $round }라운드에 무승부: { $reason }
end-summary-draw-nobody-can-act = 더 이상 아무도 행동할 수 없음
end-summary-draw-round-cap = 라운드 상한({ $n })에 도달함
end-summary-draw-work-limit = 엔진의 작업 한도에 도달함
end-summary-nobody-standing = 아무도 서 있지 않음 ({ $round }라운드)
end-summary-creature = { $who }: 남은 HP { $hp }, 가한 피해 { $dealt }

## 배너의 알림: 되돌리기, 다시 실행, 저장과 불러오기; 시뮬레이션 창의 오류 (src/game/session.rs)

note-undo-nothing = 되돌리기: 되돌릴 내 명령이 없습니다.
# $what은 note-cmd-* 메시지 중 하나입니다.
note-undid = { $what }을(를) 되돌렸습니다 (저널 항목 { $n }개 취소).
note-undo-failed = 되돌리기: { $error }.
note-redid = { $what }을(를) 같은 주사위로 다시 실행했습니다.
note-redo-failed = 다시 실행: { $error }.
note-cmd-act = { $who }의 { $ability }
note-cmd-end-turn = { $who }의 턴 종료
note-cmd-delay = { $who }의 지연
note-cmd-return = { $who }의 지연 복귀
note-cmd-release = { $who }의 보류한 시전 방출
note-cmd-hold = { $who }의 { $ability } 보류
note-cmd-decision = 결정
note-cmd-other = 마지막 명령
note-no-folder = 폴더 { $dir }을(를) 만들 수 없음: { $error }
note-saved = { $round }라운드를 { $path }에 저장했습니다.
note-not-saved = 저장하지 못함: { $error }
note-loaded = { $path }을(를) 불러왔습니다 ({ $encounter }, { $ruleset }, { $round }라운드).
note-not-loaded = 불러오지 못함, 전투는 계속됩니다: { $error }
simulate-from-scenario = 이 전투는 시나리오 파일에서 왔습니다. 시뮬레이션은 조우 파일을 실행합니다 (시작 화면에서 조우를 시작하세요)
simulate-from-save = 이 전투는 저장 파일에서 왔습니다. 시뮬레이션은 조우 파일을 실행합니다 (시작 화면에서 조우를 시작하세요)
simulate-panicked = 시뮬레이션 실패 (실행 중 패닉 발생, 터미널 참고)
simulate-no-thread = 스레드를 시작할 수 없음: { $error }
simulate-cancelled = 취소됨

## 입력: 능력 바의 키 이름, 키 설정 파일, 클릭이나 마우스를 올린 대상이 거부된 이유 (src/game/input.rs)

keys-name-backspace = 백스페이스
keys-name-arrow-up = 방향키 위
keys-name-arrow-down = 방향키 아래
keys-name-arrow-left = 방향키 왼쪽
keys-name-arrow-right = 방향키 오른쪽
keys-mouse-left = 좌클릭
keys-mouse-right = 우클릭
keys-mouse-middle = 가운데 클릭
# $button은 엔진이 아는 마우스 버튼 이름입니다 (Back, Forward, Other(4)).
keys-mouse-other = { $button } 클릭
keys-wheel-up = 휠 위로
keys-wheel-down = 휠 아래로
keys-ctrl = Ctrl+{ $key }
keys-bindings-error = { $error } (기본 키 설정 사용)
# $what은 크리처 이름이나 칸(note-square)이고, $why는 엔진의 거부 사유나 아래 이유 중 하나입니다.
note-refused = { $what }: { $why }
note-refused-ability = { $what }: { $ability }: { $why }
note-square = ({ $x }, { $y })
note-no-attack-reaches = 닿는 공격 없음
note-no-attack = 할 수 있는 공격 없음
note-out-of-reach = 닿지 않는 거리
note-no-movement-left = 남은 이동력 없음

## F12 월드 인스펙터 (src/game/inspector.rs)

inspector-title = 월드 인스펙터 (F12)
inspector-read-only = 전투의 월드, 읽기 전용: 규칙 상태는 명령을 통해서만 바뀝니다.
inspector-card-creature = { $name } (카드의 크리처)
inspector-mod-components = 모드의 컴포넌트:
inspector-whole-world = 월드 전체

## 언어 선택과 함께 추가됨

start-language = 언어
start-view = 시점
view-2d = 2D
view-3d = 3D
view-hover = 보드를 위에서 본 평면(2D)으로, 또는 회전하는 카메라가 있는 장면(3D)으로 그립니다. V로 언제든 전환합니다
start-controls-3d = 3D에서: Q와 R(또는 오른쪽 버튼 드래그)로 카메라 회전, Page Up/Down으로 기울기, 가운데 버튼 드래그로 화면 이동, Home으로 보드 전체 보기. V로 2D와 3D 전환.
target-no-assist = { $who }에게는 대기 중인 지원이 없습니다
target-hold-own = { $who }은(는) 자신의 이동이나 행동을 위해 행동을 보류할 수 없습니다
target-hold-never = { $who }은(는) { $holder }의 쓰러지지 않은 적이 아닙니다: 보류 행동이 결코 발동하지 않습니다
target-no-save-end = { $who }에게는 내성 굴림으로 끝낼 수 있는 { $condition }이(가) 없습니다
cost-rt = 회복 { $n }
cost-ct = 시전 { $n }
cost-ft = 집중 { $n }
# 전투 기록 한 줄에 보이는 본문 줄 수.
log-row-lines = 3
