"""The dictionary process as a substitution on words in context.

:class:`catalog.compute.wordfarout.WordFarOut` answers far out by reading a
window of about twenty words at every level and synchronizing the parse
state there. This module does that work once, at set-up, for every word in
every context that can occur, so a query only walks down one word a level.

A *block* is a word of the parse with the K words before it. Its translate
is read after the parse state σ at the translate's start, and σ is a
function of the K words before it: read their translates from every
possible state (every proper prefix of a word) and a state is dropped only
when the text cannot be parsed from it, so when a single state is left it
is the true one. The words completed while reading the block's translate
after σ (its *image*) tile the positions from t − |σ| to the next
translate's t − |σ'|, t = s + r(s); each image word is again a block, its K
predecessors being words completed before it once the state was known. A
set of blocks closed under taking images, which holds every block of the
written-out parse the descent starts from, therefore covers every block at
every level: exact, whatever the dictionary. K grows until the set closes.

Blocks with the same word, predecessor, σ and images are merged (partition
refinement), which leaves about 130 classes for Maharaja Nim. Per level k
one vector holds each class's k-fold image's length (a linear recurrence:
the sum of its children's at level k − 1), so a position p is found by
going down from a written-out block near p/φ^n, choosing the image word
whose range holds p (its children's lengths subtracted in turn) and
updating its start s and zeros before it z by
s' = s + z − |σ| + (offset in the image), z' = z_T + s − s_0 − zeros(σ) +
(zeros in the image before it): O(n) steps of small-integer arithmetic.
Where the written-out block's n-fold image starts is the same update up
its chain of first children, which from a low level on is a fixed
affine map per class: jumps of 2^e levels (Fibonacci powers) take it in
O(log n) steps.
"""

from __future__ import annotations

from bisect import bisect_right
from math import ceil, exp, log
from threading import Lock
from typing import Protocol

Key = tuple[str, ...]
Word = tuple[int, int, str]  # (start, zeros of B before it, the word)
#: What a query returns: the word holding position p, and the word whose
#: translate holds p.
Located = tuple[Word, Word]

#: Levels the tables may grow to, as queries need them (from a written-out
#: block near column 10^4: positions up to about 10^400, past the 400 digits
#: an input may have; 1,417 levels and some 13 MB for Maharaja Nim at
#: 10^300, the largest coordinate a query takes); higher positions return
#: None (the window method answers them).
MAX_LEVELS = 1900
#: The contexts tried, in words; None past the last.
CONTEXTS = (40, 64)
PHI = (1 + 5**0.5) / 2
LOG_PHI = log(PHI)
#: Words of the written-out parse the descent may start from.
BASE_WORDS = 4_000


class Parse(Protocol):
    """What the descent needs from the written-out process."""

    s0: int
    zT: int
    prefixes: list[str]
    length: dict[str, int]  # of each word's translate
    ends: dict[str, dict[str, str | None]]
    expand: dict[str, dict[str, tuple[list[tuple[int, int, str]], str | None]]]
    words: list[str]
    start_list: list[int]
    zero_list: list[int]


class Descent:
    """Word of the parse at any position, in O(levels) steps.

    Build with :func:`build` (None when no context up to the longest in
    :data:`CONTEXTS` closes).
    """

    def __init__(
        self,
        parse: Parse,
        context: int,
        base: list[int],
        word: list[str],
        back: list[tuple[str, ...]],
        kids: list[tuple[int, ...]],
        shift_s: list[tuple[int, ...]],
        shift_z: list[tuple[int, ...]],
    ) -> None:
        self.parse = parse
        self.context = context
        self.base = base  # class of the written-out word j (j ≥ context)
        self.word, self.kids = word, kids
        # The words before, nearest first, whose translates hold the parse
        # state σ pending at the start of the word's translate.
        self.back = back
        self.shift_s, self.shift_z = shift_s, shift_z
        self.limit = parse.start_list[len(base) - 64]
        # lengths[k][c]: the length of c's k-fold image (level 0: its word's).
        # One vector a level; a class's children's running lengths are summed
        # on the way down, so memory is one int per class and level.
        self.lengths: list[list[int]] = [[len(w) for w in word]]
        self._growing = Lock()
        self._lift()

    def _tables(self, n: int) -> None:
        """Extend the per-level lengths to n levels (one thread at a time:
        the service shares a solver between requests)."""
        lengths, kids = self.lengths, self.kids
        if len(lengths) > n:
            return
        with self._growing:
            while len(lengths) <= n:
                below = lengths[-1]
                # A class with one child shares its child's int.
                lengths.append(
                    [
                        below[kid[0]] if len(kid) == 1 else sum([below[d] for d in kid])
                        for kid in kids
                    ]
                )

    def _lift(self) -> None:
        """Jumps of 2^e levels up the first-child chain (binary lifting).

        Which children have an empty k-fold image depends only on which had
        one at level k − 1, so from some level (``stable``) on it no longer
        changes and each class goes up through a fixed first child: one
        level maps (s, z) to (s + z + a, s + b), and 2^e levels to
        Q^(2^e)·(s, z) + v with Q = [[1, 1], [1, 0]] (Fibonacci powers).
        """
        lengths, kids = self.lengths, self.kids
        empty, k = [not x for x in lengths[0]], 0
        while True:
            self._tables(k + 1)
            above = [not x for x in lengths[k + 1]]
            if above == empty:
                break
            empty, k = above, k + 1
        self.stable = k
        step: list[tuple[int, int, int]] = []
        for c, kid in enumerate(kids):
            i = next((i for i, d in enumerate(kid) if not empty[d]), None)
            if i is None:  # an empty image: never on a chain
                step.append((c, 0, 0))
            else:
                step.append((kid[i], self.shift_s[c][i], self.shift_z[c][i]))
        self.jumps = [step]
        self.powers = [(1, 1, 0)]  # F(m + 1), F(m), F(m − 1) for m = 2^e
        while 1 << len(self.jumps) <= MAX_LEVELS:
            a, b, d = self.powers[-1]
            low = self.jumps[-1]
            jump = []
            for end, vs, vz in low:
                end2, ws, wz = low[end]
                jump.append((end2, a * vs + b * vz + ws, b * vs + d * vz + wz))
            self.jumps.append(jump)
            self.powers.append((a * a + b * b, a * b + b * d, b * b + d * d))

    def _image_start(self, n: int, s: int, z: int, c: int) -> int:
        """Where the n-fold image of class c at (s, z) starts (its length
        is nonzero): up n levels through the first child that reaches the
        top, by jumps down to the stable level and one level at a time
        below it."""
        m = n - self.stable
        e = 0
        while m > 0:
            if m & 1:
                a, b, d = self.powers[e]
                c, vs, vz = self.jumps[e][c]
                s, z = a * s + b * z + vs, b * s + d * z + vz
            m, e = m >> 1, e + 1
        lengths, kids = self.lengths, self.kids
        for k in range(min(n, self.stable) - 1, -1, -1):
            below, kid = lengths[k], kids[c]
            i = 0
            while below[kid[i]] == 0:
                i += 1
            s, z, c = s + z + self.shift_s[c][i], s + self.shift_z[c][i], kid[i]
        return s

    def locate(self, p: int) -> Located | None:
        """The word holding position p ≥ the written-out base, and its
        source (see :data:`Located`); None past :data:`MAX_LEVELS`."""
        if p < self.limit:
            return None
        n = max(ceil((log(p) - log(self.limit)) / LOG_PHI), 1)
        if n > MAX_LEVELS:
            return None
        q = int(exp(log(p) - n * LOG_PHI))  # p/φ^n
        self._tables(n)
        lengths, starts, zeros, base = (
            self.lengths,
            self.parse.start_list,
            self.parse.zero_list,
            self.base,
        )
        kids, shift_s, shift_z = self.kids, self.shift_s, self.shift_z
        top = lengths[n]
        # The written-out word whose n-fold image holds p: q is p/φ^n up to a
        # few positions; step left until an image starts at or before p.
        j = max(bisect_right(starts, q - 24) - 1, self.context)
        while top[base[j]] == 0:
            j += 1
        while True:
            start = self._image_start(n, starts[j], zeros[j], base[j])
            if start <= p:
                break
            j -= 1
            while j >= self.context and top[base[j]] == 0:
                j -= 1
            if j < self.context:  # pragma: no cover - q is never that far off
                return None
        while start + top[base[j]] <= p:
            start += top[base[j]]
            j += 1
        c, s, z = base[j], starts[j], zeros[j]
        ps = pz = pc = 0
        offset = p - start  # p's offset in the current image
        for k in range(n - 1, -1, -1):
            below, kid = lengths[k], kids[c]
            i = 0
            while offset >= below[kid[i]]:
                offset -= below[kid[i]]
                i += 1
            ps, pz, pc = s, z, c
            s, z, c = s + z + shift_s[c][i], s + shift_z[c][i], kid[i]
        source = ps, pz, self.word[pc]
        for w in self.back[pc]:  # p in the pending part: an earlier translate
            if p >= ps + pz:
                break
            ps, pz = ps - len(w), pz - w.count("0")
            source = ps, pz, w
        return (s, z, self.word[c]), source


def build(parse: Parse) -> Descent | None:
    """The descent over ``parse``, with the shortest context in
    :data:`CONTEXTS` whose blocks close under images."""
    for context in CONTEXTS:
        found = _close(parse, context)
        if found is not None:
            return found
    return None


def _close(parse: Parse, context: int) -> Descent | None:
    count = min(BASE_WORDS, len(parse.words) - 64)
    if count <= context + 64:
        return None
    words = parse.words[: count + context]
    keys = [tuple(words[j - context : j + 1]) for j in range(context, count)]
    reader = _Reader(parse, context)
    todo = list(dict.fromkeys(keys))
    images: dict[Key, tuple[str, tuple[Key, ...], tuple[int, ...], tuple[int, ...]]]
    images = {}
    while todo:
        key = todo.pop()
        if key in images:
            continue
        image = reader.image(key)
        if image is None:
            return None
        images[key] = image
        todo += [k for k in image[1] if k not in images]
    order = list(images)
    number = {key: i for i, key in enumerate(order)}
    children = [tuple(number[k] for k in images[key][1]) for key in order]
    # Partition refinement: same word, predecessor, σ and images' classes.
    behind = [_behind(parse, key, images[key][0]) for key in order]
    classes = _renumber(
        [(key[-1], images[key][0], b) for key, b in zip(order, behind, strict=True)]
    )
    while True:
        refined = _renumber(
            [
                (classes[i], tuple(classes[d] for d in children[i]))
                for i in range(len(order))
            ]
        )
        if max(refined) == max(classes):
            break
        classes = refined
    size = max(classes) + 1
    word = [""] * size
    back: list[tuple[str, ...]] = [()] * size
    kids: list[tuple[int, ...]] = [()] * size
    shift_s: list[tuple[int, ...]] = [()] * size
    shift_z: list[tuple[int, ...]] = [()] * size
    for i, key in enumerate(order):
        c = classes[i]
        _, _, ds, dz = images[key]
        word[c], back[c] = key[-1], behind[i]
        kids[c] = tuple(classes[d] for d in children[i])
        shift_s[c], shift_z[c] = ds, dz
    base = [0] * context + [classes[number[key]] for key in keys]
    return Descent(parse, context, base, word, back, kids, shift_s, shift_z)


def _behind(parse: Parse, key: Key, sigma: str) -> tuple[str, ...]:
    """The words before the block's, nearest first, whose translates hold
    the pending σ."""
    back: list[str] = []
    covered = 0
    while covered < len(sigma):
        w = key[-2 - len(back)]
        back.append(w)
        covered += parse.length[w]
    return tuple(back)


def _renumber(labels: list) -> list[int]:
    seen: dict = {}
    return [seen.setdefault(label, len(seen)) for label in labels]


class _Reader:
    """Images of blocks, with the parse-state sets' steps memoized."""

    def __init__(self, parse: Parse, context: int) -> None:
        self.parse, self.context = parse, context
        self.everything = frozenset(parse.prefixes)
        self.steps: dict[tuple[frozenset[str], str], frozenset[str]] = {}
        self.reads = {
            w: {
                sigma: (tuple(u for _, _, u in found), end)
                for sigma, (found, end) in by_state.items()
            }
            for w, by_state in parse.expand.items()
        }

    def _step(self, states: frozenset[str], w: str) -> frozenset[str]:
        key = (states, w)
        if key not in self.steps:
            ends = self.parse.ends[w]
            self.steps[key] = frozenset(e for o in states if (e := ends[o]) is not None)
        return self.steps[key]

    def image(
        self, key: Key
    ) -> tuple[str, tuple[Key, ...], tuple[int, ...], tuple[int, ...]] | None:
        """σ, the image's blocks and their (start, zeros) shifts; None when
        the context is too short to know them."""
        parse, context, reads = self.parse, self.context, self.reads
        states, i = self.everything, 0
        while len(states) > 1 and i < context:
            states, i = self._step(states, key[i]), i + 1
        if len(states) != 1:
            return None
        [sigma] = states
        done: list[str] = []  # words completed once the state is known
        for w in key[i:-1]:
            names, after = reads[w][sigma]
            if after is None:
                return None
            done += names
            sigma = after
        found, end = parse.expand[key[-1]][sigma]
        if end is None or (found and len(done) < context):
            return None
        done += [u for _, _, u in found]
        first = len(done) - len(found)
        blocks = tuple(
            tuple(done[first + i - context : first + i + 1]) for i in range(len(found))
        )
        zeros = parse.zT - parse.s0 - sigma.count("0")
        return (
            sigma,
            blocks,
            tuple(at - len(sigma) for at, _, _ in found),
            tuple(zeros + before for _, before, _ in found),
        )
