"""Hostile model responses shared by the tests and the hostile-input benchmark."""
from __future__ import annotations


def hostile_responses() -> dict[str, str]:
    """Name -> response text; none of them may crash a verifier or execute code."""
    return {
        "empty": "",
        "garbage": "asdf qwer \x00\x01 ??",
        "5MB": "Next state: " + "7" * 5_000_000,
        "5MB-list": "Next state: [" + "1, " * 1_700_000 + "1]",
        "nested-100k": "Next state: " + "[" * 100_000 + "]" * 100_000,
        "import": "Next state: __import__('os').system('touch /tmp/finereason_pwned')",
        "import-in-list": "Next state: [\"__import__('os').system('touch /tmp/finereason_pwned')\"]",
        "power": "Next state: ['9**9**9', '1', '2']",
        "div-zero": "Next state: ['(1 / 0)', '2']",
        "nan": "Next state: [NaN, nan, float('nan')]",
        "unicode-digits": "Next state: [\u0663, \u0664, \u0665]",
        "fullwidth": "Next state: [\uff11, \uff12]",
        "wrong-shape": "Next state: [[1, 2, 3], [4, 5]]",
        "huge-int": "Next state: [" + "9" * 11 + "]",
        "negative": "Next state: [-1, -2, -3]",
        "strings": "Next state: ['a', 'b']",
        "unclosed-think": "<think>Next state: [1, 2]",
        "answer-spam": "Answer: (A) " * 200_000,
        "deep-parens": "Next state: ['" + "(" * 100_000 + "1" + ")" * 100_000 + "']",
        "latex": "Next state: $\\left[1, 2\\right]$",
    }
