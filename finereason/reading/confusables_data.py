"""Look-alike characters folded by the reading normalisation (generated: do not edit).

Made by ``python -m finereason.reading.make_confusables SOURCE.json --write`` from
Unicode Technical Standard #39 confusables.txt, as packaged in confusable-homoglyphs 3.3.1 (confusable_homoglyphs/confusables.json, MIT).
"""

SOURCE = 'Unicode Technical Standard #39 confusables.txt, as packaged in confusable-homoglyphs 3.3.1 (confusable_homoglyphs/confusables.json, MIT)'

# ASCII letter or digit -> its look-alikes (letters of other scripts)
LETTERS: dict[str, str] = {
    '2': "\u01a7\u03e8\u14bf\ua644\ua75a",
    '3': "\u01b7\u021c\u0417\u04e0\u2ccc\ua76a\ua7ab",
    '4': "\u13ce",
    '5': "\u01bc",
    '6': "\u0431\u13ee\u2cd2",
    '8': "\u0222\u0223",
    '9': "\u2cca\ua76e",
    'A': "\u0391\u0410\u13aa\u15c5\ua4ee",
    'B': "\u0392\u0412\u13f4\u15f7\ua4d0\ua7b4",
    'C': "\u0421\u13df\u2ca4\ua4da",
    'D': "\u13a0\u15de\u15ea\ua4d3",
    'E': "\u0395\u0415\u13ac\u2d39\ua4f0",
    'F': "\u03dc\u15b4\ua4dd\ua798",
    'G': "\u050c\u13c0\u13f3\ua4d6",
    'H': "\u0397\u041d\u13bb\u157c\u2c8e\ua4e7",
    'I': "\u0196\u0399\u0406\u04c0\u2c92",
    'J': "\u037f\u0408\u13ab\u148d\ua4d9\ua7b2",
    'K': "\u039a\u041a\u13e6\u16d5\u2c94\ua4d7",
    'L': "\u13de\u14aa\u2cd0\ua4e1",
    'M': "\u039c\u03fa\u041c\u13b7\u15f0\u16d6\u2c98\ua4df",
    'N': "\u039d\u2c9a\ua4e0",
    'O': "\u039f\u041e\u0555\u0b20\u12d0\u2c9e\u2d54\ua4f3",
    'P': "\u03a1\u0420\u13e2\u146d\u2ca2\ua4d1",
    'Q': "\u2d55",
    'R': "\u01a6\u13a1\u13d2\u1587\ua4e3",
    'S': "\u0405\u054f\u13d5\u13da\ua4e2",
    'T': "\u03a4\u0422\u13a2\u2ca6\ua4d4",
    'U': "\u054d\u1200\u144c\ua4f4",
    'V': "\u0474\u13d9\u142f\u2d38\ua4e6\ua6df",
    'W': "\u051c\u13b3\u13d4\ua4ea",
    'X': "\u03a7\u0425\u16b7\u2cac\u2d5d\ua4eb\ua7b3",
    'Y': "\u03a5\u0423\u04ae\u13a9\u13bd\u2ca8\ua4ec",
    'Z': "\u0396\u13c3\ua4dc",
    'a': "\u0251\u03b1\u0430",
    'b': "\u0184\u042c\u13cf\u1472\u15af",
    'c': "\u0441\u1d04\u2ca5\uabaf",
    'd': "\u0501\u13e7\u146f\ua4d2",
    'e': "\u0435\u04bd\uab32",
    'f': "\u0584\u1e9d\ua799\uab35",
    'g': "\u018d\u0261\u0581\u1d83",
    'h': "\u04bb\u0570\u13c2",
    'i': "\u0131\u0269\u026a\u03b9\u0456\u04cf\u13a5\ua647\uab75",
    'j': "\u03f3\u0458",
    'l': "\u01c0\u16c1\u2d4f\ua4f2",
    'n': "\u0578\u057c",
    'o': "\u03bf\u03c3\u043e\u0585\u0d20\u101d\u10ff\u1d0f\u1d11\u2c9f\uab3d",
    'p': "\u03c1\u0440\u2ca3",
    'q': "\u051b\u0563\u0566",
    'r': "\u0433\u1d26\u2c85\uab47\uab48\uab81",
    's': "\u01bd\u0455\ua731\uabaa",
    'u': "\u028b\u03c5\u057d\u1d1c\ua79f\uab4e\uab52",
    'v': "\u03bd\u0475\u1d20\uaba9",
    'w': "\u026f\u0461\u051d\u0561\u1d21\uab83",
    'x': "\u0445\u1541\u157d",
    'y': "\u0263\u028f\u03b3\u0443\u04af\u10e7\u1d8c\u1eff\uab5a",
    'z': "\u1d22\uab93",
}

# ASCII operator -> its look-alikes (symbols and punctuation)
OPERATORS: dict[str, str] = {
    '+': "\u2795",
    '-': "\u02d7\u2010\u2012\u2013\u2043\u2212\u2796",
    '*': "\u204e\u2217",
    '/': "\u2041\u2044\u2215\u2571\u27cb\u29f8",
    '=': "\u2e40",
    '(': "\u2768\u2772\u3014\ufd3e",
    ')': "\u2769\u2773\u3015\ufd3f",
    ':': "\u02f8\u205a\u2236\ua789",
}
