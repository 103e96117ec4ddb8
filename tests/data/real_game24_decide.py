"""Independent grader's decision procedure for the recorded gpt-4o-mini Game-of-24 answers.

Not the project's reader, and deliberately written apart from it (Python's ``ast`` for the
arithmetic, line-based regexes for the statements): a second opinion that, with the manual review
table ``M`` below, produced ``tests/data/real_game24.jsonl``. Run from the repository root::

    python tests/data/real_game24_decide.py ../shared/real_responses/game24/gpt-4o-mini.jsonl tests/data/real_game24.jsonl

Policy (a careful grader): read to the end; the last expression statement (a line holding an
equation with an arithmetic expression, or an expression after an answer marker, or a bare
expression line after "... answer is:") is the candidate; a one-operation equation between two
numbers ("16 + 8 = 24") is a working step, not an answer, unless marked or nothing else is
stated; a bare number ("Answer: 24") restates the target, it is not an expression; the candidate
is void when a retraction, doubt or inability follows it; "X or alternatively Y" is a hedge; a
chain whose '=' sides differ is an unsound claim (never credited). Every response where a correct
expression appears anywhere, and every one the procedure is unsure about, was reviewed by hand
(``M``); ``also`` lists other readings a grader could take where the text is ambiguous, all
uncredited.
"""
import ast, json, re, sys
from fractions import Fraction

def ev(node):
    if isinstance(node, ast.Expression): return ev(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int): return Fraction(node.value)
    if isinstance(node, ast.BinOp):
        a, b = ev(node.left), ev(node.right)
        t = type(node.op)
        if t is ast.Add: return a + b
        if t is ast.Sub: return a - b
        if t is ast.Mult: return a * b
        if t is ast.Div:
            if b == 0: raise ZeroDivisionError
            return a / b
    raise ValueError("bad")

def leaves(node):
    return sorted(n.value for n in ast.walk(node) if isinstance(n, ast.Constant))

def parse(s):
    s = s.replace('×', '*').replace('÷', '/').replace('−', '-').replace('\\times', '*').replace('\\div', '/')
    s = re.sub(r'(?<=[0-9)])\s*x\s*(?=[0-9(])', '*', s)
    s = re.sub(r'(?<=[0-9)])\s*(?=\()', '*', s)   # implicit multiplication 8(..) and )(
    if re.search(r'[^0-9()+\-*/ .]', s) or '**' in s or '.' in s: raise ValueError(s)
    tree = ast.parse(s.strip(), mode='eval')
    for n in ast.walk(tree):
        if isinstance(n, ast.UnaryOp): raise ValueError('unary')
    return tree

MARK = re.compile(r'(?i)(final answer|answer|solution|final expression|the expression is|corrected)\s*[:：]?')
RUN = re.compile(r'[0-9(][0-9()+\-*/×÷x =.−]*[0-9)]')
WITHDRAW = re.compile(r"(?i)incorrect|not correct|wrong|mistake|apolog|sorry|unable|cannot|can't|couldn't|could not|"
                      r"does not|doesn't|do not|not (?:yield|equal|reach|achiev|work|24|valid|good|useful)|"
                      r"no valid|try again|let'?s try|let me|however|but |instead|still|again|actually|wait|"
                      r"not sure|fail|isn't|invalid|error|adjust|revis|rethink|miscal|nor|or alternatively|alternatively")

def statements(text):
    out = []
    pos = 0
    for line in text.split('\n'):
        clean = re.sub(r'\\\(|\\\)|\\\[|\\\]|\*\*|`|\$|\\boxed\{|\}', ' ', line)
        for m in RUN.finditer(clean):
            run = m.group().strip().rstrip('.').strip()
            if '=' not in run and not MARK.search(clean[:m.start()]):
                continue
            sides = [s.strip() for s in run.split('=')]
            sides = [s for s in sides if s]
            try:
                nodes = [parse(s) for s in sides]
            except Exception:
                out.append((pos + m.start(), pos + m.end(), run, None, 'unparsed'))
                continue
            main = next((n for n in nodes if not isinstance(n.body, ast.Constant)), None)
            if main is None:
                continue  # a bare number: restatement of the target
            try:
                vals = [ev(n) for n in nodes]
                sound = all(v == vals[0] for v in vals)
                mv = ev(main)
            except ZeroDivisionError:
                sound, mv = True, None
            out.append((pos + m.start(), pos + m.end(), run, main, 'ok' if sound else 'unsound'))
        pos += len(line) + 1
    return out

STEP = re.compile(r'^\(?\s*\d+(?:\.\d+)?\s*[-+*/x×÷]\s*\d+(?:\.\d+)?\s*\)?$')
FINAL = re.compile(r'(?i)(answer|final \w+|solution|corrected|correct answer)\s*[:：]\s*$|(answer|expression) is\s*:?\s*$')

def is_step(st, text):
    run = st[2]
    sides = [s.strip() for s in run.split('=') if s.strip()]
    main = next((s for s in sides if not re.fullmatch(r'\d+(?:\.\d+)?', s)), None)
    if main is None or not STEP.match(main):
        return False
    line_start = text.rfind('\n', 0, st[0]) + 1
    before = text[line_start:st[0]]
    if MARK.search(before):
        return False
    prev = text[:line_start].rstrip()
    prev_line = prev[prev.rfind('\n') + 1:]
    return not (before.strip() == '' and FINAL.search(prev_line))

def decide(resp, numbers):
    text = resp.replace('[ANSWER END]', ' ' * 12)
    st = statements(text)
    full = [s for s in st if not is_step(s, text)]
    st = full or st[-1:]
    if not st:
        return None, False, 'no statement', False
    s = st[-1]
    after = text[s[1]:]
    unsure = bool(WITHDRAW.search(after)) or len(st) > 1
    if s[3] is None:
        return None, False, 'unparsed ' + s[2], unsure
    main = s[3]
    try:
        val = ev(main)
    except ZeroDivisionError:
        val = None
    expr = ast.unparse(main)
    correct = val == 24 and leaves(main) == sorted(numbers)
    if s[4] == 'unsound' and val == 24:
        return None, False, 'unsound chain ' + s[2], unsure
    return expr, correct, s[2], unsure


# ---- a correct expression anywhere in the text (where the manual review concentrated)
def correct_somewhere(text, nums):
    text = re.sub(r'\\times', '*', text); text = re.sub(r'\\div', '/', text)
    text = re.sub(r'\\frac\{([^{}]*)\}\{([^{}]*)\}', r'((\1)/(\2))', text)
    found = set()
    for m in re.finditer(r'[0-9()+\-*/×÷x .−]+', text):
        s = m.group()
        # every substring between positions where a digit or '(' starts and a digit or ')' ends
        starts = [i for i, c in enumerate(s) if c.isdigit() or c == '(']
        ends = [i + 1 for i, c in enumerate(s) if c.isdigit() or c == ')']
        if len(starts) > 60: starts = starts[:60]
        for a in starts:
            for b in ends:
                if b <= a: continue
                sub = s[a:b]
                if sum(ch.isdigit() for ch in sub) < 4: continue
                try:
                    t = parse(sub)
                    if ev(t) == 24 and leaves(t) == sorted(nums): found.add(sub.strip())
                except Exception:
                    pass
    return found

# ---- the decided readings: the procedure above plus the manual review
# manual review: line -> (reading, also, note); reading None = no committed answer
M = {
 7: ("(13 - 7) * (13 - 3)", [None], "'60 / 2.5 = 24' is a working step (decimal), not an answer"),
 9: ("1 * 3 * 5", [None], "rambling; last statement 'Answer ... \"1 * 3 * 5 = 24\"'"),
 12: ("(12 - (11 - 7)) * 6", [None, "6 * 4"], "rambling; last full statement 'Answer: ... = 24 remains ... incorrectly'"),
 21: (None, ["(3 * 8) - (10 - 9)"], "inability after the last attempt"),
 25: ("(4 * 7) - 4", [], "final restatement drops the 1: replaces the correct (4 * 7) - (4 / 1)"),
 63: ("(6 / (6 - (12 / 11))) * 11", [None, "((12 - 6) * (11 - 6) / 6) * 6 - 6"], "'Correct approach:' then a bare expression"),
 66: (None, ["(12 - (11 - 6 + 6))"], "'So we revise' after it; rambling"),
 85: (None, ["(5 * 4) - (2 * 2)"], "inability after"),
 90: (None, ["((13 - 10) * 4) + 3"], "'No valid expression found.'"),
 98: ("(4 * (5 + 1))", [], "final 'The expression is (4 * (5 + 1))' replaces the correct 4 * (5 + 13 / 13)"),
 105: (None, ["(9 - 1) * (12 / 12) + (1 - 1)"], "inability after"),
 112: (None, ["(7 - (11/11)) * 3 + 11"], "'Answer: Unable to find a solution'"),
 136: (None, ["(4 * 6) - (13 - 1)"], "'X; or alternatively, Y': a hedge"),
 147: (None, ["5 * 3", "10 * (3 / (10 - 12))"], "'no way to obtain 24'"),
 189: (None, ["(8 / (5 - 1)) + 7"], "'I've recognized no clear possible'"),
 217: (None, ["3*(11 - 4)", "3 * 8"], "rambling without a final statement"),
 236: (None, ["(10 - 8) * (6 - 1)"], "'it isn't possible'"),
 313: ("(12 - (11 - 10)) * 2", ["[(12 - (11 - 10)) * 2]"], "bracketed final expression"),
 430: ("(4 * 6)", [], "'Final representation: (4 * 6) = 24' replaces the correct 4 * 6 / (3 - 2)"),
 500: (None, ["6 * (11 - 7)"], "'Rethink ... none matched', 'Apologies overall'"),
 505: ("1 * (6 + 7 + 11)", [], "'So the final answer is:' then a bare expression line"),
 620: ("(5 * 4) - (2 - 2)", [], "the final wrong expression replaces the correct (2 * 5) * 2 + 4"),
 143: ("(5 * 5) - (5 + 5)", [], "final 'Answer:'"),
 435: ("(9 - 6) * 9 - 1", ["4 * 6"], "last full statement; later lines are one-operation steps and 'Answer: 24'"),
 471: ("(6 - 2) * 5 + 1", [], "last statement; 'Final Answer = 24' restates the target"),
 380: ("10 * (5 - 1) - 1", [], "final 'Answer:' replaces earlier correct sums"),
 409: (None, ["12 / (12 - 12 / 12)", "12 * 2"], "the last full statement is called 'not applicable'; the correct (12 - 12) + (12 * 2) is called invalid"),
 178: ("(10 + 10 + 10 - 10 / 10)", [], "final 'Answer: 24 = ...'"),
 238: ("8 * 3", [], "final 'Answer: 8 * 3 = 24'"),
 48: ("(11 - 13 + 2 * 13) - 24", [], "final answer"),
}
FLAGGED_ALSO_NULL = {21, 63, 66, 85, 90, 105, 112, 147, 189, 236, 242, 244, 248, 254, 258, 268, 290, 294, 296, 300,
                     303, 304, 306, 327, 341, 383, 389, 390, 404, 405, 463, 489, 494, 495, 497, 499, 501, 503, 584, 597, 598}

# Revised after the first comparison with the reader, each case re-read by hand (all uncredited):
# the procedure's line rules missed bare expression lines and "no ... combination" endings, and read
# sub-expressions of an explanation on a marked line. (reading, other acceptable readings, note)
REVISED = {
 217: (None, ["3*(11 - 4)", "3 * 8", "(12 + 11 - 9)"], "rambling; the last bare expression line '(12 + 11 - 9)' is also a reading"),
 270: ("4 + 20", ["( (8 * 2) + 11 -11)"], "rambling; the last bare expression line is also a reading"),
 294: ("11 * 2 + 1", [None, "(10 - 2) * 2 + 11 - 1"], "the bare line after '...validates as:' is also a reading"),
 375: ("10 - (1 + 5 / 5)", ["9 * 3"], "the marked answer's expression; '9 * 3' is a step of its explanation"),
 390: ("(9 * 12) / 3", [None, "(9 - 1) * (12 / 3)"], "'Final correct is:' then a bare expression line"),
 391: (None, ["(9 + 11 - 12) * 1"], "'no successful way currently to yield 24', 'It seems I am unsuccessful.'"),
 435: ("(9 - 6) * 9 - 1", ["4 * 6", "(9 - 1 - 6/6)"], "'the solution is:' then '(9 - 1 - 6/6) a reverting factor'"),
 462: ("(13 - 9) * (12 - 9)", ["12 * 2"], "'= 12; (12 * 2) = 24' goes on working: the marked answer is the first expression"),
 490: (None, ["1 * (11 - 3) + 1"], "'no combinations yield to 24', 'No suitable operations successfully yield 24.'"),
 544: ("(13 - (13 - 12)) * 11", ["(12 - 13 + 13) * 11"], "rambling; the last bare expression line is also a reading"),
 578: ("(13 - 11) * 3 * 2 + 11", [None, "11 + 13"], "the last full statement is called 'still not correct'; then only '11 + 13 = 24'"),
 609: ("(12 * 2)", [], "'Answer: (12 * 2) = 24, where 2 can be derived as ...': the explanation is not the answer"),
}


def verdict(text, nums):
    if text is None: return False
    t = parse(text.strip('[]'))
    try:
        return ev(t) == 24 and leaves(t) == sorted(nums)
    except ZeroDivisionError:
        return False

def canon(text):
    return None if text is None else ast.unparse(parse(text.strip('[]')))

def main(source: str, target: str) -> None:
  rows = [json.loads(l) for l in open(source)]
  C = {str(i): sorted(correct_somewhere(r['response'], r['numbers'])) for i, r in enumerate(rows)}
  C = {k: v for k, v in C.items() if v}
  out = []
  for i, r in enumerate(rows):
    expr, correct, why, unsure = decide(r['response'], r['numbers'])
    also = []
    note = ''
    if i in REVISED:
        reading, also, note = REVISED[i]
        reading_text = reading
        note = 'revised after review: ' + note
    elif i in M:
        reading, also, note = M[i]
        reading_text = reading
    else:
        reading_text = expr
        if i in FLAGGED_ALSO_NULL:
            also = [None]
            note = 'no correct expression anywhere; withdrawal-like text after the last statement'
    c = verdict(reading_text, r['numbers'])
    rec = {'line': i, 'numbers': r['numbers'], 'reading': canon(reading_text), 'correct': c}
    alts = sorted({canon(a) if a is not None else 'null' for a in also} - {rec['reading'] or 'null'}, key=str)
    if alts:
        rec['also'] = [None if a == 'null' else a for a in alts]
    if note: rec['note'] = note
    if str(i) in C and not c:
        rec.setdefault('note', 'a correct expression appears earlier but is not the final commitment')
    for a in rec.get('also', []):
        assert not verdict(a, r['numbers']), i
    out.append(rec)
  with open(target, 'w') as f:
    for rec in out:
      f.write(json.dumps(rec) + '\n')
  print(sum(r['correct'] for r in out), 'correct;', sum(r['reading'] is None for r in out), 'null')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
