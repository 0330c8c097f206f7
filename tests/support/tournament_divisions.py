"""A Hypothesis strategy for divisions played with random results: byes, late entries both
ways, withdrawals, and (by choice) forfeits, a correction and an unplayed last round."""

from __future__ import annotations

from hypothesis import strategies as st

from tessera.tournament import Division, Pairing


@st.composite
def played_divisions(
    draw: st.DrawFn,
    *,
    forfeits: bool = True,
    correction: bool = True,
    unplayed_last_round: bool = False,
    classes: bool = False,
) -> Division:
    rounds = draw(st.integers(1, 6))
    d = Division("P", rounds)
    for i in range(draw(st.integers(2, 9))):
        player_class = draw(st.sampled_from([None, "A", "B"])) if classes else None
        d.add_player(f"Surname{i}, Given", draw(st.integers(0, 2400)), player_class=player_class)
    scores = st.integers(0, 700)
    for r in range(1, rounds + 1):
        if r > 1 and draw(st.booleans()) and len(d.players) < 12:
            d.add_player("Late, Entry", 900, missed=draw(st.sampled_from(["forfeit", "bye"])))
        active = [p.number for p in d.players if p.active]
        if len(active) > 2 and draw(st.integers(0, 4)) == 0:
            d.withdraw(draw(st.sampled_from(active)))
            active = [p.number for p in d.players if p.active]
        order = draw(st.permutations(active))
        pairings = [
            Pairing(order[i], order[i + 1], i // 2 + 1) for i in range(0, len(order) - 1, 2)
        ]
        if len(order) % 2:
            pairings.append(Pairing(order[-1], None, 0))
        d.pair_round(pairings)
        if unplayed_last_round and r == rounds and draw(st.booleans()):
            break  # the last round paired, not yet played
        for p in pairings:
            if p.second is None:
                continue
            if forfeits and draw(st.integers(0, 9)) == 0:
                d.record_forfeit(r, draw(st.sampled_from([p.first, p.second])))
            else:
                d.record_result(r, p.first, draw(scores), p.second, draw(scores))
    if correction and draw(st.booleans()):  # a correction somewhere in the past
        r = draw(st.integers(1, rounds))
        game = next((g for g in d.rounds[r - 1] if g.second is not None and g.complete), None)
        if game is not None:
            d.correct_result(r, game.first, draw(scores), game.second, draw(scores))
    return d
