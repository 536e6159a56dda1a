"""What a user types, parsed the same way by the command line and the API.

Integers are written with ASCII digits only (an optional sign, no
underscores, no other scripts' digits: ``٣٠`` and ``３０`` are refused
everywhere, although Python's ``int()`` takes them). Text parameters carry
no NUL byte (PostgreSQL refuses them, SQLite's ``LIKE`` stops at them) and
stay within the lengths stated here, each limit once.
"""

from __future__ import annotations

import re
from typing import Any

from catalog.errors import BadInput

#: Most digits of an integer argument (the far-out ``is-p`` takes coordinates
#: up to 10^300); longer text is refused before it is converted.
MAX_INT_DIGITS = 400
#: Most characters of a search query (``q``): 64 terms of up to 19 digits fit.
MAX_QUERY_LENGTH = 2000
#: Most words of a query by words (each adds a condition to one SQL query).
MAX_QUERY_WORDS = 16
#: Most characters of a keyword (the ``entry_keywords.keyword`` column).
MAX_KEYWORD_LENGTH = 64
#: Most characters of an entry's name (the ``entries.name`` column).
MAX_NAME_LENGTH = 200
#: Most characters of an entry argument that is a label (``maharaja.1.2``;
#: the store's label column holds 200 characters).
MAX_LABEL_LENGTH = 200
#: Most characters of a definition given as JSON text.
MAX_DEFINITION_LENGTH = 10_000_000
#: Deepest nesting of arrays and objects in any JSON the catalog reads (a
#: definition, identify's body): the deepest valid definition,
#: ``{"alter": {"P": [[x, y]]}}``, has 4, identify's ``{"positions": [[x,
#: y]]}`` 3. Python's decoder recurses once a level (100,000 levels were a
#: ``RecursionError``), so the depth is counted before it runs.
MAX_JSON_DEPTH = 8
#: Most bytes of a JSON request body (identify's, over HTTP or on a command
#: line's stdin): a whole window of the largest n as pairs,
#: ``[[255, 255], …]``, is about 650 KB.
MAX_BODY_BYTES = 2 * 2**20

#: Largest ``offset`` of a page of search results, and largest page.
MAX_SEARCH_OFFSET = 10_000
MAX_SEARCH_LIMIT = 1000
#: Most entries one ``list`` (or ``GET /api/v1/entries``) returns.
MAX_LIST_LIMIT = 1000
_INTEGER = re.compile(r"[+-]?[0-9]+")
#: ASCII whitespace only: ``str.strip()`` would also take U+3000 and friends.
SPACE = " \t\r\n\f\v"
#: Every character ``str.isspace()`` (and so ``str.split()``, ``str.strip()``
#: and ``re``'s ``\s``) takes for white space, as the inside of a regular
#: expression's character class, written out: the OpenAPI document's patterns
#: (ECMA-262 regular expressions, whose ``\s`` is another set) say with it
#: what the server's parsing does (``tests/test_inputs.py`` checks the set).
WHITESPACE = (
    r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f"
    r"\u205f\u3000"
)


class BadValue(BadInput):
    """A parameter's value is wrong: ``"{name}: {problem}"``. The parts are
    kept for callers that name the parameter their own way (click)."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def parse_int(
    text: str,
    name: str,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """The integer ``text`` writes in ASCII digits, within [minimum, maximum].

    Raises
    ------
    BadValue
        Naming ``name``: not an integer, too many digits, or out of range.
    """
    if not isinstance(text, str):
        raise BadValue(name, "must be an integer")
    stripped = text.strip(SPACE)
    if not _INTEGER.fullmatch(stripped):
        raise BadValue(name, f"must be an integer, not {shown(text)}")
    if len(stripped.lstrip("+-").lstrip("0")) > MAX_INT_DIGITS:
        if maximum is not None and not stripped.startswith("-"):
            raise BadValue(name, f"must be at most {maximum}")
        raise BadValue(name, f"must have at most {MAX_INT_DIGITS} digits")
    return check_int(int(stripped), name, minimum, maximum)


def check_int(
    value: int, name: str, minimum: int | None = None, maximum: int | None = None
) -> int:
    """``value`` if it lies in [minimum, maximum], else a BadValue naming it."""
    if minimum is not None and value < minimum:
        if minimum == 0:
            raise BadValue(name, "must be non-negative")
        raise BadValue(name, f"must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise BadValue(name, f"must be at most {maximum}")
    return value


def check_text(
    value: Any, name: str, max_length: int, *, allow_empty: bool = False
) -> str:
    """``value`` if it is text the database can hold: no NUL, valid Unicode
    (no lone surrogates, which a terminal's undecodable bytes become), not
    blank unless ``allow_empty``, at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise BadValue(name, "must be text")
    if "\x00" in value:
        raise BadValue(name, "must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadValue(name, "must be valid UTF-8 text") from None
    if not allow_empty and not value.strip():
        raise BadValue(name, "must not be empty")
    if len(value) > max_length:
        raise BadValue(name, f"must be at most {max_length} characters long")
    return value


def parse_words(text: str, name: str) -> list[str]:
    """The words of a query by words: checked text of at most
    :data:`MAX_QUERY_LENGTH` characters and :data:`MAX_QUERY_WORDS` words."""
    words = check_text(text, name, MAX_QUERY_LENGTH, allow_empty=True).split()
    if len(words) > MAX_QUERY_WORDS:
        raise BadValue(name, f"at most {MAX_QUERY_WORDS} words")
    return words


def shown(text: str) -> str:
    """A short, printable quotation of what the user gave."""
    return repr(text[:40] + ("…" if len(text) > 40 else ""))


def read_json(text: str, name: str, max_length: int) -> Any:
    """The value of the JSON ``text``, read the same way everywhere (a
    definition, identify's body over HTTP or on stdin).

    Checked before the decoder runs: at most ``max_length`` characters, no
    NUL, arrays and objects nested at most :data:`MAX_JSON_DEPTH` deep; and
    while it runs: a key given twice in an object is an error, not "the last
    one wins", and a number has at most :data:`MAX_INT_DIGITS` digits.

    Raises
    ------
    BadValue
        Naming ``name`` and the limit or the fault.
    """
    import json  # here: `wythoff --help` reads this module, and needs no JSON

    check_text(text, name, max_length)
    depth = nesting(text)
    if depth > MAX_JSON_DEPTH:
        raise BadValue(name, f"nested {depth} levels deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise BadValue(name, f"not valid JSON: {exc}") from None
    except ValueError as exc:  # from _unique_keys or _json_int
        raise BadValue(name, str(exc)) from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


#: Characters (strings left out) from which :func:`nesting` counts with
#: numpy: below, a loop in Python takes less than importing numpy would
#: (``wythoff add`` reads its definition without it).
NESTING_NUMPY_FROM = 20_000


def nesting(text: str) -> int:
    """How deep arrays and objects nest in ``text``, strings left out (an
    unterminated string only makes the count larger; the decoder refuses it
    anyway)."""
    bare = _STRING.sub("", text)
    if len(bare) < NESTING_NUMPY_FROM:
        return _nesting_loop(bare)
    return _nesting_numpy(bare)


def _nesting_loop(bare: str) -> int:
    depth = deepest = 0
    for char in bare:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _nesting_numpy(bare: str) -> int:
    import numpy as np  # here: the command line's start-up does not need it

    codes = np.frombuffer(bare.encode(), dtype=np.uint8)
    steps = np.zeros(codes.size, dtype=np.int64)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    return int(np.cumsum(steps).max(initial=0))


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"key {key!r} given twice")
        data[key] = value
    return data
