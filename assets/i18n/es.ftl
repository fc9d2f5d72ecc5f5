# Español: las palabras del juego. Cada mensaje de aquí debe existir en todos los demás catálogos con las
# mismas variables ($who, $n ...): `cargo test i18n` lo comprueba. Los plurales usan las categorías CLDR de Fluent:
#   { $n -> [one] ... *[other] ... }
# Cómo añadir un idioma: docs/languages.md.

language-name = Español

## Recuentos usados en varios sitios

n-actions = { $n ->
    [one] { $n } acción
   *[other] { $n } acciones
}
n-reactions = { $n ->
    [one] { $n } reacción
   *[other] { $n } reacciones
}
n-rounds = { $n ->
    [one] { $n } ronda
   *[other] { $n } rondas
}
n-squares = { $n ->
    [one] { $n } casilla
   *[other] { $n } casillas
}
n-effects = { $n ->
    [one] { $n } efecto
   *[other] { $n } efectos
}
n-held-actions = { $n ->
    [one] { $n } acción guardada
   *[other] { $n } acciones guardadas
}

## El registro de combate (una frase por suceso; cada idioma coloca los dados y los totales)

log-combat-started = Empieza el combate con el reglamento { $ruleset } (semilla de dados { $seed }).
log-initiative-rolled = { $who } tira iniciativa: { $roll }.
log-roll-off = Empate resuelto con una tirada de desempate: { $rolls }.
log-initiative-order = Orden de iniciativa: { $order }.
log-round-started = Empieza la ronda { $round } ({ $seconds } s).
log-turn-started = Turno de { $who }.
log-turn-started-segment = Turno de { $who } (ronda { $round }, segmento { $segment }).
log-turn-skipped = Se salta el turno de { $who }: { $reason }.
log-ability-used = { $who } usa { $ability }.
log-ability-used-on = { $who } usa { $ability } sobre { $targets }.
log-ability-used-cost = { $who } usa { $ability } ({ $cost }).
log-ability-used-on-cost = { $who } usa { $ability } sobre { $targets } ({ $cost }).
log-activity-started = { $who } empieza { $ability } a lo largo de varios turnos: { $paid } de { $cost } acciones pagadas.
log-activity-progressed = { $who } sigue con { $ability }: paga { $paid } más, faltan { $remaining }.
log-activity-completed = { $who } completa { $ability }.
log-activity-interrupted = Se interrumpe { $ability } de { $who }: pierde { n-actions }.
log-ability-resolved = Se resuelve { $ability } de { $who }.
log-action-held = { $who } guarda { $ability } ({ n-actions } en reserva).
log-held-triggered = Se dispara la acción guardada de { $who } ({ $ability }), desencadenada por { $by }.
log-held-lost-ranged = { $who } pierde { n-held-actions } por un impacto a distancia.
log-held-lost-surprise = { $who } pierde { n-held-actions } por un ataque sorpresa.
log-held-lapsed = { $who } deja caducar { n-held-actions }.
log-damaged = { $who } recibe { $amount } de daño (le quedan { $hp } PG).
log-damaged-dice = { $who } recibe { $amount } de daño [{ $dice }] (le quedan { $hp } PG).
log-downed = { $who } queda fuera de combate.
log-moved = { $who } se mueve ({ $mode }) de ({ $fx }, { $fy }) a ({ $tx }, { $ty }).
log-move-stopped = El movimiento de { $who } se detiene en ({ $x }, { $y }).
log-disengaged = { $who } se desengancha de { $from }.
log-disengaged-none = { $who } se desengancha, sin enemigos al alcance.
log-opportunity-provoked = { $mover } provoca un ataque de oportunidad de { $from }.
log-opportunity-declined = { $who } deja pasar la ocasión.
log-no-opportunity = { $from } no obtiene ataque de oportunidad contra { $mover }: { $why }.
no-opportunity-flanked = está flanqueado
no-opportunity-disengaged = quien se mueve se ha desenganchado de él
no-opportunity-busy = está ocupado con una actividad
no-opportunity-incapacitated = no puede actuar
no-opportunity-no-attack = no tiene ningún ataque para ello
no-opportunity-flat-footed = está desprevenido
no-opportunity-none-left = no le quedan reacciones
log-assist-granted = { $from } asiste a { $to } (+{ $bonus }).
log-assist-denied = Se deniega la asistencia de { $from } a { $to }.
log-assist-area = El ataque asistido de { $who } cuenta como ataque de área.
log-condition-applied = { $who } queda { $condition }{ $value }.
log-condition-applied-rounds = { $who } queda { $condition }{ $value } durante { n-rounds }.
log-condition-applied-turns = { $who } queda { $condition }{ $value } durante { $n } de sus turnos.
log-condition-applied-end-of-turn = { $who } queda { $condition }{ $value } hasta el final de su turno.
log-condition-applied-sustained = { $who } queda { $condition }{ $value } mientras se mantenga.
log-condition-value = { $who } pasa a estar { $condition } { $value }.
log-condition-unchanged = { $who } ya está { $condition }: sin más efecto.
log-condition-ended = Termina { $condition } de { $who }: { $why }.
end-expired = se ha agotado su duración
end-permanent-wound = lo termina una herida permanente
end-negative-status = lo termina un estado negativo
end-first-turn = ha llegado su primer turno
end-removed-by-mod = lo ha quitado un mod
end-recovered = se ha recuperado
end-healed = lo han curado
end-save-succeeded = lo termina una salvación con éxito
end-flat-check-passed = lo termina una prueba plana con éxito
end-wore-off = se ha disipado
end-actions-lost = lo han agotado las acciones que quitó
end-not-sustained = nadie lo ha mantenido
badge-modifier = { $what }: { $amount } ({ $kind })
bonus-kind-untyped = sin tipo
bonus-kind-status = de estado
bonus-kind-circumstance = de circunstancia
bonus-kind-item = de objeto
bonus-kind-morale = de moral
log-roll-modified = { $roll } de { $who }: { $parts }.
roll-on-attack = Tirada de ataque
roll-on-save = Tirada de salvación
roll-on-dc = CD
roll-on-damage = Daño
roll-on-ac = CA
log-mod-damage = El mod { $source } inflige { $n } de daño a { $who }.
log-mod-heal = El mod { $source } cura { $n } PG a { $who }.
log-mod-apply-value = El mod { $source } aplica { $condition } { $n } a { $who }.
log-mod-apply = El mod { $source } aplica { $condition } a { $who }.
log-mod-remove = El mod { $source } quita { $condition } a { $who }.
log-mod-grant = El mod { $source } devuelve { n-actions } a { $who }.
log-mod-spend = El mod { $source } gasta { $n } de las acciones de { $who }.
log-mod-reschedule = El mod { $source } mueve el siguiente turno de { $who } al tiempo { $n }.
log-expired-before-count = Termina { $condition } de { $who } justo antes de la cuenta { $count } de la ronda { $round }.
log-actions-regained = { $who } recupera { n-actions } y { $reactions ->
    [one] { $reactions } reacción
   *[other] { $reactions } reacciones
}.
log-actions-regained-restricted = { $who } recupera { n-actions } + { $restricted ->
    [one] { $restricted } restringida
   *[other] { $restricted } restringidas
} y { $reactions ->
    [one] { $reactions } reacción
   *[other] { $reactions } reacciones
}.
log-recovery-check = { $who } hace una prueba de recuperación: { $roll } contra CD { $dc } — { $degree }; moribundo { $value }.
degree-critical-failure = fallo crítico
degree-failure = fallo
degree-success = éxito
degree-critical-success = éxito crítico
log-flat-check-ends = { $who } hace una prueba plana contra { $condition }: { $roll } contra CD { $dc } — termina.
log-flat-check-goes-on = { $who } hace una prueba plana contra { $condition }: { $roll } contra CD { $dc } — continúa.
log-healed = { $who } se cura { $amount } ({ $hp } PG).
log-healed-dice = { $who } se cura { $amount } [{ $dice }] ({ $hp } PG).
log-sustained = { $who } mantiene { n-effects }.
log-action-disrupted = Se interrumpe { $ability } de { $who }.
log-delayed = { $who } se retrasa.
log-returned-from-delay = { $who } vuelve de Retrasar tras { $after }.
log-delay-lapsed = { $who } se ha retrasado demasiado y pierde el turno.
log-ready-not-used = No se ha usado la acción preparada de { $who } ({ $ability }).
log-cast-announced = { $who } empieza a lanzar { $ability }: se resuelve en el segmento { $segment } de la ronda { $round }.
log-cast-held = { $who } retiene { $ability }.
log-hold-accrued = { $who } actúa mientras retiene: +{ $rt } de recuperación pendiente ({ $total } en total).
log-cast-released = { $who } libera { $ability }; siguiente turno en el segmento { $segment } de la ronda { $round }.
log-concentration-broken = Se rompe la concentración de { $who } en { $ability }; siguiente turno en el segmento { $segment } de la ronda { $round }.
log-component-consumed = { $who } consume { $item }.
log-surprise-round = Ronda de sorpresa: solo puede actuar quien está alerta ({ $aware }).
log-initiative-moved = { $who } pasa a actuar antes que { $before }.
log-aware = { $who } se percata de sus enemigos.
log-unaware = { $who } no se percata (sorpresa).
log-permanent-wound = { $who } sufre una herida permanente.
log-save-success = { $who } hace una salvación de { $stat }: { $roll } contra CD { $dc } — éxito.
log-save-failure = { $who } hace una salvación de { $stat }: { $roll } contra CD { $dc } — fallo.
log-save-degree-result = { $who } hace una salvación de { $stat }: { $roll } contra CD { $dc } — { $degree }.
log-save-degree = Tirada de salvación de { $who }: { $degree }.
log-crit-confirm = { $attacker } tira para confirmar un impacto crítico contra { $target }: { $roll } contra CA { $ac } — { $result }.
log-critical-hit = { $attacker } asesta un impacto crítico a { $target } (×{ $n }).
log-critical-miss = El ataque de { $attacker } contra { $target } es un fallo crítico.
log-damage-scaled = Daño a { $who }: { $how } ({ $amount } en total).
log-opening-created = ¡Una apertura! { $who } puede actuar.
log-opening-passed = { $who } deja pasar la apertura.
log-opening-skipped = { $who } no puede usar la apertura: { $reason }.
log-opening-closed = La apertura se cierra.
reason-cannot-act = no puede actuar
reason-busy-completing = está completando { $ability }
log-decision-opportunity = { $who } realiza el ataque de oportunidad con { $ability }.
log-decision-no-opportunity = { $who } deja ir a quien se mueve.
log-decision-opening = { $who } usa la apertura: { $ability }.
log-decision-approve = { $who } aprueba la asistencia.
log-decision-deny = { $who } deniega la asistencia.
log-decision-triggered = { $who } usa { $ability }.
log-decision-triggered-none = { $who } no usa nada.
log-decision-lose-first = { $who } pierde primero { $kind }.
log-decision-order = { $who } deshace el empate: { $order }.
log-decision-hold-cast = { $who } retiene el lanzamiento.
log-decision-release-cast = { $who } libera el lanzamiento de inmediato.
log-turn-ended = { $who } termina su turno.
log-turn-ended-unspent = { $who } termina su turno con { n-actions } sin gastar.
log-actions-forfeited = { $who } pierde { n-actions }.
log-round-ended = Termina la ronda { $round }.
log-combat-won = Fin del combate: gana { $side }.
log-combat-draw = Fin del combate: empate.
log-draw-nobody-can-act = Ronda { $round }: ya nadie puede actuar — empate.
log-draw-round-cap = Se alcanza el límite de rondas ({ $n }) — empate.
log-draw-work-limit = Se alcanza el límite de trabajo del motor — empate.
the-gm = el máster
action-kind-standard = una acción estándar
action-kind-move = una acción de movimiento
action-kind-swift = una acción rápida
action-kind-immediate = una acción inmediata
action-kind-full-round = una acción de asalto completo
action-kind-free = una acción gratuita

## La entrada de ataque: el ataque y después cada respuesta (defensa, impacto o fallo, daño) añadida a continuación

log-attack = { $attacker } ataca a { $target } con { $ability }: { $roll }
log-attack-vs-defense = {" "}contra { $method } { $roll }
log-attack-no-defense-possible = {" "}(sin tiro defensivo posible)
log-attack-no-defense = {" "}(sin tiro defensivo)
log-attack-miss-ac = {" "}contra CA { $ac } — falla
log-attack-blocked = {" "}— bloqueado
log-attack-hit = {" "}— impacta
log-attack-damage = , { $amount } de daño (a { $who } le quedan { $hp } PG)
log-attack-damage-dice = , { $amount } de daño [{ $dice }] (a { $who } le quedan { $hp } PG)
log-attack-assist = {" "}(asistencia +{ $bonus })
log-attack-critical-miss-ac = {" "}contra CA { $ac } — fallo crítico
log-attack-critical-hit = {" "}— impacto crítico (×{ $n })
log-attack-threat = {" "}— amenaza: confirmación { $roll } contra CA { $ac }, { $result }
threat-confirmed = confirmada
threat-not-confirmed = sin confirmar (un impacto normal)
roll-multiple-attack-penalty = penalizador por ataque múltiple
damage-scale-times = { $rolled } ×{ $n }
damage-scale-dice-times = dados ×{ $n }
damage-scale-half = { $rolled } a la mitad
defense-dodge = Esquiva
defense-parry = Parada
defense-none = sin defensa
roll-flanking = flanqueo
roll-dropped = { $value } descartado
roll-keep = se toma { $value }
# A d20 that came up 20 or 1 where that means something (pf1e, pf2e: issue 50).
roll-natural = { $value } natural
action-kind-five-foot-step = un paso de 5 pies
loss-restricted = una acción restringida
loss-regular = una acción normal
move-mode-walk = a pie
move-mode-land = por tierra
move-mode-fly = volando
move-mode-skirmish = escaramuza
move-mode-shift = desplazamiento
move-mode-sprint = carrera

## Los modelos de vista del HUD: iniciativa, previsión, ficha, insignias, costes, barra de habilidades, estado

tracker-acting-now = { $who }: actúa ahora
tracker-next-turn = { $who }: siguiente turno
tracker-resolves = { $who }: se resuelve { $ability }
what-if-round = { $ability }: siguiente turno en la ronda { $round }, { $place }.º en el orden
what-if-segment = { $ability }: siguiente turno en el segmento { $segment } de la ronda { $round }
what-if-segment-after = { $ability }: siguiente turno en el segmento { $segment } de la ronda { $round }, después de { $after }
card-regain-bonus = +{ $n } { $n ->
    [one] acción
   *[other] acciones
} al empezar cada turno
card-regain-bonus-only = +{ $n } { $n ->
    [one] acción
   *[other] acciones
} al empezar cada turno, solo para { $only }
card-regain-loses = −{ $n } { $n ->
    [one] acción
   *[other] acciones
} al recuperar acciones
card-regain-loses-consumed = −{ $n } { $n ->
    [one] acción
   *[other] acciones
} al recuperar acciones (baja con las acciones que quita)
card-cannot-act = no puede actuar: sin acciones ni reacciones
card-rt-add = { $signed } segmento(s) en cada tiempo de recuperación
activity-holding = reteniendo { $ability }: en concentración; liberarlo supone { $n ->
    [one] { $n } segmento
   *[other] { $n } segmentos
} de recuperación
activity-cast = lanzamiento de { $ability }: se resuelve en el segmento { $segment } de la ronda { $round } (faltan { $left }); en concentración
activity-focus = enfoque de { $ability }: se resuelve en el segmento { $segment } de la ronda { $round } (faltan { $left }); en concentración
activity-casting = lanzando { $ability }: { $paid } de { $cost } rondas pagadas, faltan { $left }
activity-spreading = repartiendo { $ability }: { $paid } de { $cost } acciones pagadas, faltan { $left }
badge-goes-down = ; baja { $n } al final del turno de { $owner }
badge-persistent = ; { $owner } recibe { $dice } de daño al final de cada uno de sus turnos
badge-persistent-check = ; { $owner } recibe { $dice } de daño al final de cada uno de sus turnos y después una prueba plana CD { $dc } lo termina
badge-ends-on-wound = ; también termina con una herida permanente
badge-ends-on-negative = ; también termina con un efecto de estado negativo
badge-ends-on-both = ; también termina con una herida permanente o un efecto de estado negativo
badge-save-ends = ; una tirada de salvación (la acción de recuperación) puede terminarlo
badge-rounds-short = { $n } r
badge-turns-short = { $n ->
    [one] { $n } turno
   *[other] { $n } turnos
}
badge-no-duration = sin duración fija
badge-ends-end-of-turn = termina al final del turno de { $owner }
badge-ends-unless-sustained = termina al final del turno de { $creator } salvo que { $creator } lo mantenga
badge-ends-end-of-owner-turn = termina al final del { $n ->
    [one] próximo turno de { $owner }
   *[other] turno de { $owner } dentro de { $n } turnos
}
badge-ends-end-of-round = termina al final de la ronda { $round }
badge-ends-start-of-turn = termina al comienzo del { $n ->
    [one] próximo turno de { $creator }
   *[other] turno de { $creator } dentro de { $n } turnos
}
badge-ends-at-segment = termina en el segmento { $segment } de la ronda { $round }, antes de cualquier turno en él
badge-ends-before-count = termina justo antes de la cuenta { $count } de la ronda { $round }
badge-rounds-left = { $n ->
    [one] queda { $n } ronda
   *[other] quedan { $n } rondas
}
cost-reaction = reacción
cost-free-action = acción gratuita
cost-bonus-action = acción adicional (sin coste)
cost-full-round-cast = asalto completo, { $n ->
    [one] { $n } ronda
   *[other] { $n } rondas
} de lanzamiento
cost-standard = estándar
cost-move = movimiento
cost-full-round = asalto completo
cost-swift = rápida
cost-immediate = inmediata
cost-free = gratuita
cost-five-foot-step = paso de 5 pies
cost-rt-by-mode = RT según el modo de movimiento
bar-nowhere-to-move = no hay adónde moverse desde aquí
bar-refused-now = el motor no lo permite ahora
status-to-act = actúa { $who }
status-waiting-for = esperando a { $who }
status-awaiting-return = esperando a que vuelva una criatura que se ha retrasado
status-ended = el combate ha terminado

## Por qué el motor rechaza una orden (el aviso, la barra de habilidades, los motivos al pasar el ratón)

reject-combat-over = el combate ha terminado
reject-unknown-combatant = no hay ningún combatiente #{ $id }
reject-not-your-turn = { $who } no puede actuar: es el turno de { $active }
reject-no-turn = { $who } no puede actuar: no hay ningún turno en curso
reject-awaiting-decision = hay una decisión pendiente de { $by }
reject-no-decision = no hay ninguna decisión pendiente
reject-wrong-decider = esta decisión corresponde a { $by }
reject-invalid-choice = elección no válida: { $why }
reject-unknown-ability = el reglamento no tiene la habilidad `{ $ability }`
reject-ability-not-known = la criatura no tiene { $ability }
reject-not-enough-actions = necesita { n-actions }, quedan { $left }
reject-busy = está completando { $ability }: ninguna otra acción hasta terminarla
reject-unable-to-act = la criatura no puede actuar
reject-limit-reached = { $ability } no tiene más usos este turno
reject-invalid-target = objetivo no válido: { $why }
reject-out-of-range = a { $n } casillas, máximo { $max }
reject-occupied = la casilla ({ $x }, { $y }) está ocupada
reject-mode-required = indica un modo de movimiento: { $modes }
reject-unknown-mode = no hay ningún modo de movimiento `{ $mode }`
reject-openings-disabled = este reglamento no tiene aperturas
reject-holding-disabled = este reglamento no permite guardar acciones
reject-not-holdable = { $ability } no cuesta acciones y no se puede guardar
reject-unknown-condition = el reglamento no tiene el estado { $condition }
reject-reaction-only = { $ability } solo se usa cuando ocurre su desencadenante
reject-delay-disabled = este reglamento no tiene Retrasar
reject-cannot-delay-now = solo puedes Retrasar al empezar tu turno, antes de actuar
reject-not-delayed = la criatura no se está retrasando
reject-not-while-holding = no se permite { $ability } mientras se retiene un lanzamiento
reject-missing-component = falta un componente del lanzamiento: { $component }
reject-not-holding = la criatura no retiene ningún lanzamiento
reject-ready-standard = Preparar requiere una acción estándar
reject-swift-used = ya has usado tu siguiente acción rápida
reject-immediate-flat-footed = no hay acciones inmediatas estando desprevenido
reject-after-step = ningún otro movimiento tras un paso de 5 pies
reject-no-standard = no queda acción estándar este turno
reject-no-move = no queda acción de movimiento este turno
reject-surprise-one = solo una acción estándar o una de movimiento en la ronda de sorpresa
reject-full-round = una acción de asalto completo requiere todo el turno
reject-no-swift = no queda acción rápida este turno
reject-step-only = un paso de 5 pies solo si no haces ningún otro movimiento
target-no-sight = sin línea de visión hasta { $who }
target-down = { $who } está fuera de combate
target-not-enemy = { $who } no es un enemigo
target-not-ally = { $who } no es un aliado
target-twice = { $who } aparece dos veces
target-not-engaged = sin enfrentamiento con { $who }
target-charge-next-to = la carga debe terminar junto a { $who }
target-already-there = { $who } ya está ahí: un movimiento necesita otra casilla
target-no-way = no hay camino hasta la casilla ({ $x }, { $y }) con { n-squares } de movimiento: lo bloquean muros o enemigos
target-off-map = la casilla ({ $x }, { $y }) está fuera del mapa
target-blocked = la casilla ({ $x }, { $y }) está bloqueada
target-attack-one = un ataque necesita exactamente un objetivo
target-charge-one = una carga necesita exactamente un objetivo
target-needs-square = necesita una casilla de destino
target-assist-one = una asistencia necesita exactamente un aliado
target-needs-targets = esta habilidad necesita objetivos
target-no-eligible = ninguna criatura puede aprovechar esta apertura

## El filtro del registro

category-turns = turnos
category-attacks = ataques
category-movement = movimiento
category-conditions = estados
category-decisions = decisiones
category-casting = lanzamientos
category-other = otros

## Peticiones de decisión

prompt-reaction-free = una reacción: sin coste de acciones
prompt-uses-reaction = usa tu reacción
prompt-defend = { $method }: 1d20 + { $stat } contra el { $total } de { $attacker } — gratis, sin coste de acciones (G-HB-11)
prompt-no-defense = Sin tiro defensivo: el ataque impacta con el { $total } de { $attacker }
prompt-opportunity-attack = Atacar a { $who } con { $ability } ({ $cost })
prompt-let-go = Dejar ir a { $who } (conservas tu reacción)
prompt-approve = Aprobar la asistencia de { $from } a { $to } (HB-11)
prompt-deny = Denegarla: la acción de la asistencia se gasta igualmente
prompt-a-free-action = una acción gratuita
prompt-use-now = Usar { $ability } ahora ({ $cost })
prompt-use-nothing = No usar nada
prompt-lose-restricted = Perder primero la acción restringida (adicional): conservar una normal
prompt-lose-regular = Perder primero una acción normal: conservar la restringida
prompt-release = Liberar { $ability } ahora: su tiempo de recuperación empieza ya (SG-13/14)
prompt-hold = Retener { $ability }: recuperación en suspenso, sigues en concentración; cada acción mientras retienes suma su RT + recargo (SG-19..23)
prompt-then = , después{" "}
prompt-order = { $names } (gratis)
prompt-no-action-cost = sin coste de acciones
prompt-opening-cost = cuesta { $n } de { $left ->
    [one] tu { $left } acción restante
   *[other] tus { $left } acciones restantes
} esta ronda
prompt-opening-on = { $ability } sobre { $who } ({ $cost })
prompt-opening-use = { $ability } ({ $cost })
prompt-pass-opening = Dejar pasar la apertura (no cuesta nada)
choice-use = Usar { $ability }
choice-use-on = Usar { $ability } sobre { $targets }
choice-order = Ordenar: { $order }
choice-pass = Pasar
choice-nothing = Nada
choice-let-go = Dejar ir
choice-approve = Aprobar
choice-deny = Denegar
choice-hold = Retener el lanzamiento
choice-release = Liberar el lanzamiento
summary-defense = { $attacker } ataca con un total de { $total }: un tiro defensivo que lo iguale bloquea el ataque (HB-40).
summary-opportunity = { $who } sale de tu alcance.
summary-opening = Una apertura: puedes usar una habilidad ahora, pagada con las acciones de esta ronda (HB-30, HB-31, HB-33).
summary-assist = { $from } quiere asistir a { $to }: el máster decide si la ayuda es plausible (HB-11).
summary-triggered = Algo desencadena tu acción gratuita o tu reacción.
summary-action-loss = Pierdes una acción: ¿de qué tipo se pierde primero (G-P2-07)?
summary-cast-complete = Tu tiempo de lanzamiento se ha completado (SG-13, SG-19).
summary-initiative-tie = Estas criaturas han empatado en iniciativa: ¿quién va primero?
kind-defense = tiro defensivo
kind-opportunity = ataque de oportunidad
kind-opening = una apertura
kind-assist-approval = aprobar una asistencia
kind-triggered = una acción desencadenada
kind-action-loss = qué acción perder
kind-initiative-tie = empate de iniciativa
kind-cast-complete = retener o liberar el lanzamiento
kind-decision = una decisión

## Las llamadas del máster (la ventana del máster)

gm-call-opening-default = Abrir una apertura (por defecto: la última criatura contra la que se falló o los enemigos de la debilitada)
gm-call-opening-for = Abrir una apertura para { $who }
gm-call-apply = Aplicar { $condition } a { $who }
gm-call-apply-value = Aplicar { $condition } a { $who } (valor { $value })
gm-call-apply-rounds = Aplicar { $condition } a { $who } durante { n-rounds }
gm-call-apply-value-rounds = Aplicar { $condition } a { $who } (valor { $value }) durante { n-rounds }
gm-call-interrupt = Interrumpir a { $who }
gm-call-wound = Herida permanente a { $who }
gm-call-hit-ranged = { $who } recibe un impacto a distancia
gm-call-hit-surprise = { $who } recibe un ataque sorpresa
gm-call-aware = { $who } se percata
gm-call-unaware = { $who } no se percata
gm-call-area-assist = Convertir la asistencia de { $who } en asistencia de área
gm-because-missed-by = { $by } ha fallado contra { $who }
gm-because-missed = un ataque ha fallado contra { $who }
gm-because-condition = { $who } está { $condition }
gm-because-debilitated = { $who } está debilitado
gm-suggestion = El máster puede abrir una apertura para { $who }: { $reasons }

## Nombres de teclas (la ayuda de controles)

key-enter = Intro
key-tab = Tabulador
key-esc = Escape
key-space = Espacio

## La pantalla de inicio (src/game/screens/start.rs)

start-window-title = skirmish
start-heading = Una escaramuza táctica
start-intro = Tu bando contra la IA, o por turnos en el mismo equipo, con cualquier sistema de turnos instalado.
start-encounter = Encuentro
start-encounter-error = { $file } (error)
start-ruleset = Reglamento
start-side = Bando «{ $side }»
start-human = Humano
start-ai = IA
start-seed = Semilla de dados
start-gm = Máster
start-gm-person = una persona aquí: la ventana del máster, aperturas, aprobación de asistencias, empates
start-gm-person-hover = Desactivado: el máster IA responde a las llamadas del máster con sus valores por defecto y abre aperturas según la política de máster del reglamento
start-mods = Mods
start-mods-none = ninguno instalado
start-mod-rust = { $name } (mod de Rust)
start-mod-data = { $name } (mod de datos { $manifest } { $version })
start-mod-broken = { $name } (roto: { $error })
start-mod-broken-hover = roto: { $error }
start-mod-given = { $name } (indicado con --mod)
start-fight = ¡A luchar!
start-error-mods = mods: { $error }
start-load-errors = No se han podido cargar estos archivos:
start-controls = Haz clic en una casilla para moverte o en un enemigo para atacar; 1–9 eligen una habilidad, M el movimiento, { $enter } la usa, { $tab } cambia de objetivo, E termina el turno, { $esc } cancela. WASD/flechas desplazan la vista, la rueda hace zoom, { $space } avanza rápido, L muestra el registro.

## La pantalla final (src/game/screens/end.rs)

end-over = El combate ha terminado
end-victory = ¡Victoria!
end-defeat = Derrota
end-draw = Empate
end-restart = Reiniciar
end-back-to-start = Volver a la pantalla de inicio
end-undo = Deshacer tu última orden (Ctrl+Z)
end-undo-none = No hay nada tuyo que deshacer
end-saves = Partidas guardadas… (F6)

## El aviso de turno (src/game/screens/battle_screen.rs)

banner-round = Ronda { $round }
banner-turn-human = { $who } (tu turno)
banner-turn-ai = { $who } (IA)
banner-speed = velocidad
banner-tracker = Iniciativa
banner-tracker-hover = Muestra u oculta el orden de iniciativa
banner-card = Ficha
banner-card-hover = Muestra u oculta la ficha de la criatura
banner-log = Registro (L)
banner-log-hover = Muestra u oculta el registro de combate
banner-inspector-hover = El inspector del mundo, para creadores de mods
banner-zoom = IU ×
banner-zoom-hover = Escala del HUD, sobre el factor de escala del sistema
banner-quit = Salir al inicio
banner-undo = Deshacer
banner-undo-hover = Ctrl+Z: retira tu última orden y lo que ha hecho la IA desde entonces
banner-undo-none = Aún no hay nada tuyo que deshacer
banner-redo = Rehacer
banner-redo-hover = Ctrl+Y: vuelve a aplicarla, con los mismos dados
banner-quick-save = Guardado rápido
banner-quick-save-hover = F5: guarda en la ranura de guardado rápido
banner-quick-load = Carga rápida
banner-quick-load-hover = F9: carga la ranura de guardado rápido
banner-saves = Partidas guardadas (F6)
banner-simulate = Simular (F7)
banner-simulate-hover = Juega este encuentro muchas veces, IA contra IA, en segundo plano
banner-data-error = Error en un archivo de datos (este combate sigue sin cambios): { $error }
banner-data-changed = Han cambiado en disco archivos de encuentro, reglamento o mods.
banner-restart-changes = Reiniciar con los cambios
banner-refused = Rechazado: { $reason }
banner-not-here = Aquí no: { $reason }

## La barra de habilidades y los botones del turno (src/game/screens/battle_screen.rs)

bar-abilities = Habilidades de { $who }
bar-hint = pasa el ratón para ver la previsión; las atenuadas dicen por qué
bar-save-against = Salvación contra:
bar-save-none = nada que una salvación pueda terminar
bar-save-button = { $condition } ({ $stat } CD { $dc })
bar-end-turn = Terminar turno (E)
bar-delay = Retrasar
bar-delay-none-hover = Este reglamento no tiene Retrasar; el motor lo indicará
bar-delay-hover = Sal del orden ahora y vuelve tras cualquier turno posterior
bar-return-from-delay = { $who } vuelve de Retrasar
bar-release-held-cast = { $who } libera el lanzamiento retenido

## La nota de la exportación del registro (src/game/screens/battle_screen.rs)

export-log-written = registro escrito en { $path }
export-log-no-folder = registro no escrito: { $dir }: no se puede crear la carpeta: { $error }
export-log-failed = registro no escrito: { $error }

## La petición de decisión (src/game/screens/prompt.rs)

prompt-ai-pick = { $choice } (elección de la IA)
prompt-title = { $who }: { $kind }
prompt-title-gm = Máster: { $kind }
prompt-policy = { $kind } a partir de ahora:
prompt-ask = preguntar
prompt-always = siempre
prompt-always-hover = Hacerlo como lo haría la IA
prompt-never = nunca
prompt-never-hover = Rechazarlo sin preguntar

## La ventana del máster (src/game/screens/gm.rs)

gm-title = Máster
gm-open-it = Abrirla
gm-let-it-go = Dejarla pasar
gm-creature = Criatura
gm-condition = Estado
gm-rounds = rondas{" "}
gm-rounds-hover = 0: hasta que se quite
gm-value = valor{" "}
gm-value-hover = 0: sin valor
gm-hit-by = Impacto
gm-hit-ranged = a distancia
gm-hit-surprise = sorpresa
gm-aware = alerta
gm-opening-for = Apertura para

## La ventana de partidas guardadas (src/game/screens/windows.rs)

saves-title = Partidas guardadas
saves-where = Las partidas guardadas están en { $dir }/. F5 guarda rápido, F9 carga rápido.
saves-name = Nombre
saves-save = Guardar
saves-save-replacing = Guardar (la sustituye)
saves-writes = Escribe { $path }
saves-refresh = Actualizar
saves-none = Aún no hay partidas guardadas.
saves-file = Archivo
saves-encounter = Encuentro
saves-ruleset = Reglamento
saves-round = Ronda
saves-saved = Guardada
saves-load = Cargar
saves-unreadable = ilegible

## La ventana Simular (src/game/screens/windows.rs)

simulate-title = Simular
simulate-intro = { $encounter } con { $ruleset }: IA contra IA en todos los bandos, semillas desde { $seed }, en un hilo en segundo plano.
simulate-runs = Partidas
simulate-cancel = Cancelar
simulate-run = Ejecutar
simulate-meanwhile = Mientras tanto, la partida continúa.
simulate-about = { $encounter } · { $ruleset } · { $n ->
    [one] { $n } partida
   *[other] { $n } partidas
}
simulate-side-wins = { $side }: gana el { $rate } % (IC del 95 %: { $low }–{ $high } %)
simulate-side-no-runs = { $side }: sin partidas
simulate-draws-rounds = Empates: { $draws }. Rondas: media { $mean }, mediana { $median }, percentiles 5–95 { $p5 }–{ $p95 }.
simulate-win-rate = Porcentaje de victorias por bando (%)
simulate-win-series = % de victorias
simulate-rounds-to-finish = Rondas hasta el final (partidas)
simulate-rounds-axis = ronda en que terminó el combate
simulate-runs-series = partidas

## Los paneles del HUD: indicador de iniciativa, línea temporal, ficha de criatura, registro de combate, barra de habilidades (src/game/hud_panels.rs)

tracker-row-acting = actuando
tracker-row-count = cuenta { $count }
tracker-row-hover = { $name } ({ $side }): { $tags }
tracker-surprise-round = Ronda de sorpresa
tracker-round = Ronda { $round }
tracker-round-segment = Ronda { $round } · segmento { $segment }
tracker-surprise-hint = Solo actúan las criaturas conscientes; las demás están desprevenidas.
tracker-turn-order = Orden de turnos
tracker-divider-surprise = — ronda de sorpresa —
tracker-divider-round = — ronda { $round } —
tracker-seg = seg. { $segment } (ronda { $round })
tracker-delayed = Retrasando
tracker-readied = Preparando / reteniendo
tracker-timeline = Línea temporal
tracker-held = { $who } retiene { $ability } (liberarlo suma TR { $owes })
tracker-held-hint = SG-19..25: un lanzamiento retenido suspende su tiempo de recuperación hasta que se libera.
tracker-column-round = R{ $round }·1
card-pips-of = { $have } de { $of }
card-back-to-acting = Volver a la criatura que actúa
card-hp = { $hp } / { $max } PG
card-actions-this-round = Acciones esta ronda
card-actions-this-turn = Acciones este turno
card-extra-actions = { $n ->
    [one] +{ $n } acción extra
   *[other] +{ $n } acciones extra
}
card-extra-actions-only = { $n ->
    [one] +{ $n } acción extra ({ $only })
   *[other] +{ $n } acciones extra ({ $only })
}
card-bonus-actions = Acciones adicionales: sin coste de acción (HB-34)
card-slot-standard = Estándar
card-slot-move = Movimiento
card-slot-swift = Rápida
card-slot-free = Gratuita
card-slot-full-round = Asalto completo
card-slot-step = Paso de 5 pies
card-slot-open = disponible
card-slot-spent = gastada
card-slot-any-number = cualquier número
card-slot-still-open = aún disponible
card-slot-closed = cerrada
card-slot-used-or-moved = usado o ya se movió
card-acting-now = Actúa ahora: una acción temporizada, más acciones gratuitas
card-next-turn = Siguiente turno: segmento { $segment } de la ronda { $round } ({ $owed ->
    [one] { $owed } segmento de recuperación pendiente
   *[other] { $owed } segmentos de recuperación pendientes
})
card-no-turn-scheduled = Sin turno programado (retrasa, prepara, retiene o lanza)
card-reactions-unlimited = Reacciones: ilimitadas, sin coste de acción
card-reactions-left = Reacciones restantes: { $n }
card-reactions-none = Sin reacciones: ahora no puede actuar
# $unit es `actions`, `rounds` o `segments`: lo que cuentan $paid y $total.
card-activity-progress = { $ability }: { $paid }/{ $total } { $unit ->
    [rounds] rondas
    [segments] segmentos
   *[actions] acciones
}
card-concentrating = concentrándose
card-release-owes = liberarlo suma TR { $rt }
log-view-title = Registro de combate
log-view-everyone = todos
log-view-export = Exportar
log-view-export-hint = Escribe el registro como líneas JSON
# $kind es el tipo del evento tal como lo nombra el motor (AttackRolled, TurnStarted ...).
log-view-entry-round = ronda { $round } · { $kind }
bar-targets-now = objetivos ahora: { $targets }
bar-cant-use-now = No se puede usar ahora: { $why }
bar-what-if = ¿Y si…?: { $what }
ability-with-penalty = { $name } { $penalty }
odds-hit = impacto { $hit } %
odds-hit-crit = impacto { $hit } % · crítico { $crit } %
banner-odds = { $who }: { $odds }

## Textos flotantes sobre las fichas del tablero (src/game/battle.rs, dibujados por src/game/view.rs)

float-attack = ataque { $total }
float-blocked = bloqueado
float-miss = fallo
float-down = ¡fuera de combate!

## El resumen del combate en la pantalla final (src/game/battle.rs)

end-summary-won = Victoria de { $side } en la ronda { $round }
end-summary-draw = Empate en la ronda { $round }: { $reason }
end-summary-draw-nobody-can-act = nadie puede actuar ya
end-summary-draw-round-cap = se alcanza el límite de rondas ({ $n })
end-summary-draw-work-limit = se alcanza el límite de trabajo del motor
end-summary-nobody-standing = No queda nadie en pie (ronda { $round })
end-summary-creature = { $who }: { $hp } PG restantes, { $dealt } de daño infligido

## Avisos en la barra superior: deshacer, rehacer, guardar y cargar; los errores de la ventana Simular (src/game/session.rs)

note-undo-nothing = Deshacer: no hay nada tuyo que deshacer.
# $what es uno de los mensajes note-cmd-*.
note-undid = Deshecho: { $what } ({ $n ->
    [one] { $n } entrada del diario retirada
   *[other] { $n } entradas del diario retiradas
}).
note-undo-failed = Deshacer: { $error }.
note-redid = Rehecho: { $what }, con los mismos dados.
note-redo-failed = Rehacer: { $error }.
note-cmd-act = { $ability } de { $who }
note-cmd-end-turn = el fin de turno de { $who }
note-cmd-delay = Retrasar de { $who }
note-cmd-return = la vuelta de { $who } tras Retrasar
note-cmd-release = la liberación del lanzamiento retenido de { $who }
note-cmd-hold = la retención de { $ability } por { $who }
note-cmd-decision = la decisión
note-cmd-other = la última orden
note-no-folder = no se puede crear la carpeta { $dir }: { $error }
note-saved = Ronda { $round } guardada en { $path }.
note-not-saved = No se guardó: { $error }
note-loaded = Se cargó { $path } ({ $encounter }, { $ruleset }, ronda { $round }).
note-not-loaded = No se cargó; la batalla continúa: { $error }
simulate-from-scenario = esta batalla viene de un archivo de escenario; Simular ejecuta archivos de encuentro (inicia uno desde la pantalla de inicio)
simulate-from-save = esta batalla viene de una partida guardada; Simular ejecuta archivos de encuentro (inicia uno desde la pantalla de inicio)
simulate-panicked = la simulación falló (un pánico en una ejecución; mira la terminal)
simulate-no-thread = no se puede iniciar un hilo: { $error }
simulate-cancelled = cancelada

## Entrada: los nombres de teclas de la barra de habilidades, el archivo de controles, por qué se rechaza un clic o un objetivo señalado (src/game/input.rs)

keys-name-backspace = Retroceso
keys-name-arrow-up = Flecha arriba
keys-name-arrow-down = Flecha abajo
keys-name-arrow-left = Flecha izquierda
keys-name-arrow-right = Flecha derecha
keys-mouse-left = Clic izquierdo
keys-mouse-right = Clic derecho
keys-mouse-middle = Clic central
# $button es el nombre del botón del ratón tal como lo conoce el motor (Back, Forward, Other(4)).
keys-mouse-other = Clic { $button }
keys-wheel-up = rueda arriba
keys-wheel-down = rueda abajo
keys-ctrl = Ctrl+{ $key }
keys-bindings-error = { $error } (se usan los controles por defecto)
# $what es el nombre de una criatura o una casilla (note-square); $why es el rechazo del motor o uno de los motivos de abajo.
note-refused = { $what }: { $why }
note-refused-ability = { $what }: { $ability }: { $why }
note-square = ({ $x }, { $y })
note-no-attack-reaches = ningún ataque llega
note-no-attack = no hay ataque que hacer
note-out-of-reach = fuera de alcance
note-no-movement-left = no le queda movimiento

## El inspector del mundo con F12 (src/game/inspector.rs)

inspector-title = Inspector del mundo (F12)
inspector-read-only = El mundo del combate, solo lectura: el estado de las reglas solo cambia mediante órdenes.
inspector-card-creature = { $name } (la criatura de la ficha)
inspector-mod-components = Componentes de mods:
inspector-whole-world = El mundo entero

## Añadido con el selector de idioma

start-language = Idioma
start-view = Vista
view-2d = 2D
view-3d = 3D
view-hover = Dibuja el tablero plano desde arriba (2D) o como una escena con una cámara que gira (3D); V cambia en cualquier momento
start-controls-3d = En 3D: Q y R (o arrastrar con el botón derecho) giran la cámara, Re Pág/Av Pág la inclinan, arrastrar con el botón central la desplaza, Inicio encuadra todo el tablero. V cambia entre 2D y 3D.
target-no-assist = { $who } no tiene ninguna asistencia pendiente
target-hold-own = { $who } no puede guardar una acción para su propio movimiento o acción
target-hold-never = { $who } no es un enemigo en pie de { $holder }: la acción guardada nunca se dispararía
target-no-save-end = { $who } no tiene { $condition } que una salvación pueda terminar
cost-rt = TR { $n }
cost-ct = TL { $n }
cost-ft = TC { $n }
# Cuántas líneas de texto muestra una fila del registro (las frases en español son más largas).
log-row-lines = 4
