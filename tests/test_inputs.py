"""What users type: integers in ASCII digits only, text the database holds."""

import random
import re
import sys

import pytest

from catalog.errors import BadInput
from catalog.inputs import (
    MAX_INT_DIGITS,
    MAX_QUERY_WORDS,
    WHITESPACE,
    BadValue,
    check_int,
    check_text,
    parse_int,
    parse_words,
    read_json,
    shown,
)
from catalog.store.ids import BadId, parse_id


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("42", 42), (" 42\n", 42), ("+7", 7), ("-3", -3), ("0007", 7)],
)
def test_ascii_integers(text, value):
    assert parse_int(text, "n") == value


@pytest.mark.parametrize(
    "text",
    [
        "٣٠",
        "３０",
        "3０",
        "²",
        "1_000",
        "1e3",
        "0x10",
        "",
        " ",
        "1 2",
        "30\u3000",
        "--1",
    ],
)
def test_anything_else_is_not_an_integer(text):
    with pytest.raises(BadInput, match=r"^n: must be an integer"):
        parse_int(text, "n")


def test_ranges_and_digits():
    assert parse_int("9" * MAX_INT_DIGITS, "x") == 10**MAX_INT_DIGITS - 1
    with pytest.raises(BadInput, match=r"^x: must have at most 400 digits$"):
        parse_int("9" * (MAX_INT_DIGITS + 1), "x")
    with pytest.raises(BadInput, match=r"^n: must be at most 10$"):
        parse_int("1" + "0" * 5000, "n", 0, 10)
    with pytest.raises(BadInput, match=r"^n: must be non-negative$"):
        parse_int("-1", "n", 0)
    with pytest.raises(BadInput, match=r"^n: must be at least 1$"):
        parse_int("0", "n", 1)
    assert parse_int("10", "n", 0, 10) == 10


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a\x00b", "name: must not contain NUL characters"),
        ("\udcff", "name: must be valid UTF-8 text"),
        ("", "name: must not be empty"),
        ("  ", "name: must not be empty"),
        ("x" * 201, "name: must be at most 200 characters long"),
        (3, "name: must be text"),
    ],
)
def test_bad_text(value, message):
    with pytest.raises(BadInput, match=f"^{message}$"):
        check_text(value, "name", 200)


def test_good_text():
    assert check_text("x" * 200, "name", 200) == "x" * 200
    assert check_text("", "keyword", 64, allow_empty=True) == ""


@pytest.mark.parametrize(
    "text", ["W００００01", "W00000١", "W000001\n1", "W0000012", "W000000", "w1", ""]
)
def test_ids_are_w_and_six_ascii_digits(text):
    with pytest.raises(BadId, match="not an entry ID"):
        parse_id(text)


def test_ids():
    assert parse_id("W000004") == 4
    assert parse_id(" w000017 ") == 17


def test_a_query_of_exactly_the_most_words_is_taken():
    """16 words are the documented limit: 16 pass, 17 do not (a bug that
    refused the 16th word was not seen when only 17 were tried)."""
    assert MAX_QUERY_WORDS == 16
    assert parse_words("nim " * 16, "q") == ["nim"] * 16
    with pytest.raises(BadValue, match="at most 16 words"):
        parse_words("nim " * 17, "q")


def test_shown_quotes_40_characters_then_an_ellipsis():
    assert shown("x" * 40) == repr("x" * 40)
    assert shown("x" * 41) == repr("x" * 40 + "…")
    assert shown("x" * 39) == repr("x" * 39)


def test_a_negative_minimum_is_named():
    assert check_int(-5, "x", minimum=-5) == -5
    with pytest.raises(BadValue, match="x: must be at least -5"):
        check_int(-6, "x", minimum=-5)
    with pytest.raises(BadValue, match="x: must be non-negative"):
        check_int(-1, "x", minimum=0)


def test_an_empty_query_has_no_words():
    assert parse_words("", "q") == []
    assert parse_words("   ", "q") == []


def test_the_docs_state_the_limits_the_code_enforces():
    """Each limit is stated once in the code and once for users, in the docs
    (docs/definitions.md): the two agree (a limit changed by one would
    otherwise pass unseen)."""
    from pathlib import Path

    from catalog import inputs

    page = Path(__file__).parents[1] / "docs" / "definitions.md"
    readme = " ".join(page.read_text().split())
    for phrase in [
        f"at most {inputs.MAX_DEFINITION_LENGTH:,} characters, nested at most "
        f"{inputs.MAX_JSON_DEPTH} deep",
        f"at most {inputs.MAX_BODY_BYTES:,} bytes, nested at most "
        f"{inputs.MAX_JSON_DEPTH} deep, with each key once",
        f"at most {inputs.MAX_INT_DIGITS} digits",
        f"a name is 1 to {inputs.MAX_NAME_LENGTH} characters, a keyword at most "
        f"{inputs.MAX_KEYWORD_LENGTH}, a search query at most "
        f"{inputs.MAX_QUERY_LENGTH} characters and {inputs.MAX_QUERY_WORDS} words",
        f"`--offset` (`offset=`) at most {inputs.MAX_SEARCH_OFFSET:,}, `--limit` at "
        f"most {inputs.MAX_SEARCH_LIMIT};",
        f"at most {inputs.MAX_LIST_LIMIT} entries a page",
    ]:
        assert phrase in readme, phrase


def test_whitespace_is_what_python_splits_words_at():
    """The OpenAPI document's patterns spell white space out
    (catalog.inputs.WHITESPACE): it must be exactly str.isspace()'s set, so
    that a q, keyword or where the document allows is what the server
    reads."""
    spelled = re.compile(f"[{WHITESPACE}]")
    every = [chr(c) for c in range(sys.maxunicode + 1)]
    assert [c for c in every if spelled.fullmatch(c)] == [
        c for c in every if c.isspace()
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "data: nested 100000 levels deep (at most 8)"),
        ("[" * 9 + "]" * 9, "data: nested 9 levels deep"),
        ('{"a": 1, "a": 2}', "data: key 'a' given twice"),
        ('{"a": {"b": 1, "b": 1}}', "data: key 'b' given twice"),
        ("[1" + "0" * 400 + "]", "data: a number has more than 400 digits"),
        ("[1,", "data: not valid JSON"),
        ("[" * 5, "data: not valid JSON"),
        ("x" * 101, "data: must be at most 100 characters long"),
        ("[0]\x00", "data: must not contain NUL"),
    ],
)
def test_read_json_refuses_naming_the_limit(text, message):
    with pytest.raises(BadValue) as caught:
        read_json(text, "data", 100 if text.startswith("x") else 10**6)
    assert str(caught.value).startswith(message), caught.value


def test_read_json_reads_what_is_within_the_limits():
    assert read_json("[" * 8 + "]" * 8, "data", 100) == [[[[[[[[]]]]]]]]
    # Brackets inside strings are text, not nesting.
    assert read_json('{"a": "' + "[" * 50 + '", "b": [1]}', "data", 100) == {
        "a": "[" * 50,
        "b": [1],
    }


@pytest.mark.parametrize("seed", range(5))
def test_nesting_counts_alike_in_python_and_in_numpy(seed):
    # Short texts are counted by a loop (no numpy for `wythoff add`), long
    # ones with numpy: both against each other on random texts of brackets,
    # strings and other characters, and at the length where the two meet.
    from catalog.inputs import (
        NESTING_NUMPY_FROM,
        _nesting_loop,
        _nesting_numpy,
        nesting,
    )

    rng = random.Random(seed)
    for _ in range(300):
        text = "".join(rng.choice('[]{}"\\,1 x') for _ in range(rng.randint(0, 60)))
        assert _nesting_loop(text) == _nesting_numpy(text), text
    deep = "[" * 7 + "]" * 7
    for length in (NESTING_NUMPY_FROM - 1, NESTING_NUMPY_FROM):
        text = deep + "," * (length - len(deep) - 2) + '""'
        assert len(text) == length
        assert nesting(text) == 7
        assert nesting('"[[[",' + text + ',"]]]"') == 7  # strings left out
