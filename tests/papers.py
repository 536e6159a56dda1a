"""Facts copied from the papers, for tests to check the code against.

Written out here by hand, not imported from the code, so a test compares the
catalog with the paper and not with itself.
"""

HST = "Hu, Sleator and Tsin, Wythoff's Nim with Finite Alterations"

#: Larsson and Wästlund, Maharaja Nim, section 2.3: word -> (translate,
#: equation). Words (36)-(40) are in the extended dictionary but never appear.
MAHARAJA_27_35 = {
    "1": ("0", "(27)"),
    "01": ("100", "(28)"),
    "00100": ("100101100", "(29)"),
    "00110": ("10010100", "(30)"),
    "000100": ("10010110100", "(31)"),
    "001110": ("100100100", "(32)"),
    "0010110": ("10010011000", "(33)"),
    "00000100": ("100101100111000", "(34)"),
    "000010010": ("1001001111000100", "(35)"),
}
MAHARAJA_WORDS = {word: translate for word, (translate, _) in MAHARAJA_27_35.items()}


def legal(start, target):
    """A move of Wythoff's rays: down a column, left in a row or down a diagonal."""
    (x, y), (a, b) = start, target
    return (
        0 <= a
        and 0 <= b
        and ((a == x and b < y) or (b == y and a < x) or (0 < x - a == y - b))
    )
