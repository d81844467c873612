"""Every chord opened before it is made, stated up front: an acyclic order of the chords.

:func:`minesolver.game.clicks.min_clicks` states reachability by cuts, added round by
round; on expert boards each relaxed plan left a hundred or more loops of chords that
open each other and that nothing opens, and the rounds closed them slowly. This module
states the whole condition at the start, so a relaxation's plan is a real one.

**The support graph.** Its nodes are the chord candidates and the openings. Its arcs:
a chord on ``e`` opens each neighbouring chord candidate ``d`` (``e → d``) and each opening
``e`` borders (``e → U``); an opening ``U`` opens each digit of its border (``U → d``).
A variable ``p`` per arc says "the tail is made (chorded, or opened) before the head,
and opens it". The clauses:

* a chorded digit is open first: ``c_d → x_(d's island unit) or p_(U,d) for an opening
  U it borders or p_(e,d) for a neighbouring candidate e``;
* an opening that opens a digit is open itself: ``p_(U,d) → x_U or p_(e,U) for e on its
  border``;
* a chord opens only if made: ``p_(e,·) → c_e``;
* the arcs chosen have no cycle: vertex elimination (Rankooh and Rintanen, 2022). The
  nodes are eliminated one by one (fewest neighbours left first); eliminating ``v``
  adds, for each arc ``u → v`` and ``v → w`` among the nodes left, the clause
  ``p_(u,v) ∧ p_(v,w) → p_(u,w)`` (``p_(u,w)`` a new variable when that arc is new); then
  no two nodes may have both arcs ``p_(u,w)``, ``p_(w,u)``. A cycle's first node
  eliminated would give its two neighbours on the cycle an arc, a shorter cycle, down to
  two nodes: forbidden. Without a cycle, every arc set to the transitive closure
  satisfies every clause.

**Soundness.** Take a plan of the programme that clears the board, its clicks made
first and its chords in a winning order (times 1, 2, ...); an opening's time is 0 when
clicked, else its first chord's time plus one half. Set each ``p`` to "the tail made,
and earlier than the head (or the head never made)"; every arc then goes forward in
time (no cycle), each chord's digit was open before it (a click on it, or an opening it
borders, or a neighbour's chord, earlier), and each opening opened before a digit was
clicked or opened by an earlier chord on its border. So every winning plan satisfies
the clauses: no bound rises past the minimum. Conversely, a plan satisfying them orders
its chords so each finds its digit open: with the units' cuts, it clears the board, so
no round is needed.

Cost: O(arcs + fill) variables and O(Σ deg²) clauses over the elimination, at most
:data:`FILL_PER_ARC` an arc: about 4,000 to 5,000 variables and 17,000 to 27,000 clauses
on an expert board (0.2 to 0.3 s to set up), 5,000 to 10,000 clauses on intermediate.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

__all__ = ["Node", "order_clauses"]

FILL_PER_ARC = 16
"""The most elimination clauses per arc of the support graph: on the 24 intermediate and
expert boards of ``benchmarks/bench_efficiency.py`` every node is eliminated within this
(8 left some out); past it the elimination stops, sound, and the cuts do the rest, so a
huge board's formula stays linear in its size."""

Node = tuple[str, int]
"""A node of the support graph: ``("d", cell)`` a chord candidate, ``("o", k)`` opening
``k``."""


def order_clauses(
    chords: Sequence[int],
    table: Sequence[Sequence[int]],
    border: Sequence[frozenset[int]],
    unit_of: Sequence[int],
    openings: int,
    unit_var: Callable[[int], int],
    chord_var: Callable[[int], int],
    first_var: int,
) -> tuple[list[list[int]], dict[tuple[Node, Node], int]]:
    """The clauses above, and the variable of each arc ``(tail, head)`` (those of the
    support graph and those the elimination adds), numbered from ``first_var``.

    ``chords`` are the chord candidates (cells), ``table`` each cell's neighbours,
    ``border[k]`` opening ``k``'s border digits, ``unit_of`` each island digit's unit (-1
    otherwise; openings are units ``0 .. openings-1``); ``unit_var``/``chord_var`` the
    programme's variables, ``first_var`` the first free one."""
    cand = set(chords)
    nxt = first_var
    arc: dict[tuple[Node, Node], int] = {}

    def var(u: Node, w: Node) -> int:
        nonlocal nxt
        v = arc.get((u, w))
        if v is None:
            v = arc[(u, w)] = nxt
            nxt += 1
        return v

    clauses: list[list[int]] = []
    bordering: dict[int, list[int]] = {}
    for k in range(openings):
        for b in sorted(border[k]):
            bordering.setdefault(b, []).append(k)
    for d in chords:
        sup = []
        u = unit_of[d]
        if u >= openings:
            sup.append(unit_var(u))
        for k in bordering.get(d, ()):
            sup.append(var(("o", k), ("d", d)))
        for e in table[d]:
            if e in cand:
                p = var(("d", e), ("d", d))
                sup.append(p)
                clauses.append([-p, chord_var(e)])
        clauses.append([-chord_var(d), *sup])
    for k in range(openings):
        sup = [unit_var(k)]
        for e in sorted(border[k]):
            p = var(("d", e), ("o", k))
            sup.append(p)
            clauses.append([-p, chord_var(e)])
        for b in sorted(border[k]):
            clauses.append([-var(("o", k), ("d", b)), *sup])
    clauses += _acyclic(arc, var)
    return clauses, arc


def _acyclic(
    arc: dict[tuple[Node, Node], int], var: Callable[[Node, Node], int]
) -> list[list[int]]:
    """Vertex elimination: the clauses that make the true arcs acyclic (``var`` makes the
    variable of an arc the elimination adds).

    The node with the fewest neighbours left goes first (ties: the smallest; a heap, so
    O(fill log nodes)), so the fill stays small on a board's near-planar graph. It stops
    before a node whose clauses would pass :data:`FILL_PER_ARC` per arc: the clauses made
    so far hold for every acyclic set of arcs (each is a step of transitivity, or no two
    arcs both ways), so they stay sound, and a cycle through the nodes left is the cuts'
    to find (on the standard levels every node is eliminated)."""
    clauses: list[list[int]] = []
    succ: dict[Node, set[Node]] = {}
    pred: dict[Node, set[Node]] = {}
    near: dict[Node, set[Node]] = {}
    for u, w in list(arc):
        for v in (u, w):
            succ.setdefault(v, set())
            pred.setdefault(v, set())
            near.setdefault(v, set())
        succ[u].add(w)
        pred[w].add(u)
        near[u].add(w)
        near[w].add(u)
    budget = FILL_PER_ARC * len(arc)
    heap = [(len(near[v]), v) for v in near]
    heapq.heapify(heap)
    gone: set[Node] = set()
    while heap:
        deg, v = heapq.heappop(heap)
        if v in gone or deg != len(near[v]):
            continue  # eliminated, or a stale entry
        ins = sorted(pred[v] - gone)
        outs = sorted(succ[v] - gone)
        if len(clauses) + len(ins) * len(outs) > budget:
            break
        gone.add(v)
        for u in ins:
            for w in outs:
                if u != w:
                    succ[u].add(w)
                    pred[w].add(u)
                    near[u].add(w)
                    near[w].add(u)
                    clauses.append([-arc[(u, v)], -arc[(v, w)], var(u, w)])
        for u in near[v]:
            near[u].discard(v)
            heapq.heappush(heap, (len(near[u]), u))
    for (u, w), p in arc.items():
        q = arc.get((w, u))
        if q is not None and u < w:
            clauses.append([-p, -q])
    return clauses
