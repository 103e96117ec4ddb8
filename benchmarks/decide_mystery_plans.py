"""How the Mystery Blocksworld readings in ``tests/data/real_plans.jsonl`` were decided (o1-preview, zero-shot).

    python benchmarks/decide_mystery_plans.py [--shared ../shared] [--flagged]

Every line of ``../shared/real_responses/planbench/mystery_o1-preview_chat_zero_shot.jsonl`` (500
responses) is decided from its text, without the project's reader: a small extraction written here for
the obfuscated names (attack, succumb, overcome, feast; ``Feast object b from object c``, ``Overcome c
from a``, ``(feast b c)``, ``attack(a)``) takes the last plan by position (a maximal run of step lines,
or a numbered list 1, 2, 3 ... with explanation between its items). A response is read by hand
(``MANUAL``) when the extraction is unsure: no plan found, more than one distinct plan in the text, a
possible withdrawal, doubt or hedge after the last plan, or text that ends mid-sentence. ``--flagged``
prints those responses. The decisions are appended to ``tests/data/real_plans.jsonl`` by
``--write``: ``plan`` (the committed plan) or ``none`` (no committed plan).
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = "mystery_o1-preview_chat_zero_shot"
ARITY = {"attack": 1, "succumb": 1, "overcome": 2, "feast": 2}
_VERB = r"(attack|succumb|overcome|feast)"
_LEAD = re.compile(r"^[\s>*#`_|-]*(?:(?:step|action)\s*(\d+)\s*[:.)-]?|(\d+)\s*[.):]|[-•*+]|[a-h]\))?[\s*_`|]*", re.I)
_CALL = re.compile(r"\(\s*" + _VERB + r"\s+([a-z ]+?)\s*\)|" + _VERB + r"\s*\(([a-z ,]+)\)", re.I)
_SENT = re.compile(r"^(?:then |next |finally |first,? |now |and )*" + _VERB + r"\b(.*)$", re.I)
_STOP = re.compile(r"\(|\s-\s|—|–|:|;|,|\.\s|\.$|\bto\s+(?!object\b|[a-z]\b)|\bso\b|\bwhich\b|\busing\b|\bbecause\b", re.I)
_MARKUP = re.compile(r"[*_`]|\\\(|\\\)")
_FUNCTION = re.compile(r"\(?" + _VERB + r"\s*\(([a-z ,]*(?:from\s+[a-z ]*)?)\)\)?", re.I)
_SUBJECT = re.compile(r"^(?:then |and )?object\s+([a-z])\s+" + _VERB + r"s?\b(.*)$", re.I)
_DOUBT = re.compile(r"\b(?:wait|however|actually|mistake|incorrect|not possible|cannot|can't|unable|impossible|"
                    r"alternative|instead|revis|correction|error|oops|but|unfortunately|no valid|not valid|fail)", re.I)


def parse_line(line: str) -> tuple[int | None, list[tuple[str, tuple[str, ...]]]]:
    line = re.sub(r"[^\S\n]", " ", line)  # every space character is a space
    items = re.split(r"\s+\d{1,2}\.\s+(?=" + _VERB + r")", line, flags=re.I)
    if len(items) > 1:  # "1. Attack b  2. Overcome b from d": numbered items on one line
        number, steps = parse_line(items[0])
        return number, steps + [s for item in items[1:] if not isinstance(item, str) or item.lower() not in ARITY
                                for s in (parse_line(item)[1] if isinstance(item, str) else [])]
    m = _LEAD.match(line)
    number = next((int(g) for g in m.groups() if g), None) if m else None
    body = _MARKUP.sub(" ", line[m.end():] if m else line)
    body = _FUNCTION.sub(lambda f: f"{f.group(1)} {f.group(2).replace(',', ' ')}", body).strip()
    subject = _SUBJECT.match(body)
    if subject is not None:  # "Object a feasts from object c", "Object c attacks"
        body = f"{subject.group(2)} object {subject.group(1)} {subject.group(3)}"
    calls = list(_CALL.finditer(body))
    if calls and calls[0].start() == 0:
        steps = []
        for c in calls:
            verb, inside = (c.group(1), c.group(2)) if c.group(1) else (c.group(3), c.group(4))
            steps.append((verb.lower(), tuple(re.findall(r"\b[a-z]\b", inside.lower()))))
        return number, steps
    s = _SENT.match(body)
    if s is None:
        return number, []
    rest = s.group(2)
    cut = _STOP.search(rest)
    steps = []
    for k, part in enumerate(re.split(r"\s+then\s+", rest[:cut.start()] if cut else rest, flags=re.I)):
        if k:
            more = _SENT.match(part.strip(" •-"))
            if more is None:
                break
            verb, part = more.group(1), more.group(2)
        else:
            verb = s.group(1)
        steps.append((verb.lower(), tuple(re.findall(r"\b(?:object\s+)?([a-z])\b", part.lower()))))
    return number, steps


def candidates(text: str) -> list[tuple[int, tuple]]:
    lines = text.split("\n")
    parsed = [parse_line(line) for line in lines]
    out: list[tuple[int, tuple]] = []
    run: list[int] = []
    for i, (number, steps) in enumerate(parsed + [(None, [])]):
        if steps:
            run.append(i)
            continue
        if i < len(lines) and not lines[i].strip():
            continue
        if run:
            out.append((run[-1], tuple(s for k in run for s in parsed[k][1])))
        run = []
    seq: list[int] = []
    for i, (number, steps) in enumerate(parsed):
        if number is None or not steps:
            continue
        if number == 1:
            if seq:
                out.append((seq[-1], tuple(s for k in seq for s in parsed[k][1])))
            seq = [i]
        elif seq and number == parsed[seq[-1]][0] + 1:
            seq.append(i)
    if seq:
        out.append((seq[-1], tuple(s for k in seq for s in parsed[k][1])))
    return out


def extract(text: str) -> tuple[tuple | None, list[str]]:
    """The last plan by position and why a person should read the response (empty: the extraction is sure)."""
    cands = candidates(text)
    if not cands:
        return None, ["no plan found"]
    end, last = max(cands, key=lambda c: (c[0], len(c[1])))
    why = []
    full = {plan for _, plan in cands if len(plan) > 1 or len(cands) == 1}
    if len(full - {last}) and any(p != last and p != last[:len(p)] for p in full):
        why.append("more than one plan")
    after = "\n".join(text.split("\n")[end + 1:])
    if _DOUBT.search(after):
        why.append("doubt after the plan: " + _DOUBT.search(after).group())
    if any(len(args) != ARITY[name] for name, args in last):
        why.append("a step with the wrong number of objects")
    if text.rstrip()[-1:] not in ".!?)*`:]" and not parse_line(text.rstrip().split("\n")[-1])[1]:
        why.append("ends mid-sentence")
    return last, why


_IMPOSSIBLE = "concludes that no plan reaches the goal ('not possible', 'no valid plan'): no committed plan"
_PARTIAL = "a plan, then says it cannot reach the whole goal: the inability withdraws it"
_NO_OBJECT = "the final plan has steps naming no object ('Attack object', '**Succumb**'): no valid plan commits"


def _plan(text: str) -> list[str]:
    """Steps written compactly for the decisions below: ``"fab sc"`` is (feast a b) (succumb c)."""
    names = {"a": "attack", "s": "succumb", "o": "overcome", "f": "feast"}
    return ["(" + " ".join((names[w[0]], *w[1:])) + ")" for w in text.split()]


#: Read by hand: ("plan", steps, why), ("none", None, why) or ("invalid", None, why).
MANUAL: dict[int, tuple[str, list[str] | None, str]] = {
    **{n: ("none", None, _IMPOSSIBLE) for n in (5, 42, 49, 53, 64, 90, 96, 100, 112, 136, 179, 243, 269, 303, 308, 326,
                                               329, 338, 341, 366, 369, 385, 398, 414, 446, 452, 454, 477, 480, 485, 496)},
    **{n: ("none", None, _PARTIAL) for n in (37, 101, 280, 281, 469)},
    **{n: ("invalid", None, _NO_OBJECT) for n in (93, 109, 439)},
    20: ("plan", _plan("ab obd"), "numbered items on one line, separated by em spaces"),
    50: ("plan", _plan("fdb sd ab fac sa obc aa oab fbc sb ac ocd"), "each item restated in its sub-bullet: one plan"),
    56: ("plan", _plan("fcb sc fbd obc"), "the partial-goal remark comes before the answer, which commits"),
    84: ("plan", _plan("fba sb ocd ac"), "the numbered plan; the explanation bullets after it name its steps"),
    139: ("plan", _plan("fcb ocd"), "the partial-goal remark comes before the final plan"),
    146: ("plan", _plan("fab sa fbc sb ab obd"), "the partial-goal remark comes before the final plan"),
    156: ("plan", _plan("fda sa ac sc oac fbd sd ab oba ad odb"), "a numbered plan with prose between its items"),
    159: ("plan", _plan("fba sb fdb sd fcd sc"), "the doubt comes before 'Therefore, the plan includes the actions:'"),
    172: ("plan", _plan("fab sa fbd oba aa oad"), "the final plan is one bold line of steps joined by commas"),
    202: ("plan", _plan("fba sb fdc sd ac ocb"), "the numbered plan, restated as bullets with sub-bullets"),
    240: ("plan", _plan("aad sa fcb sc aa oac ab oba"), "'Attack object a from object d': a step with two objects"),
    263: ("plan", _plan("fbd sb fdc sd aa oac"), "the partial-goal remark comes before the plan summary"),
    350: ("plan", _plan("fca ocd fab sa ab obc"), "the partial-goal remark comes before the final plan"),
    373: ("plan", _plan("fda sd ac oca"), "'- Perform Feast d from a;' '- then Succumb d;' ..."),
    425: ("plan", _plan("fcb oca"), "'Feast action by object c from object b; then Overcome action by object c from object a'"),
}


def decide(rows: list[dict]) -> list[dict]:
    """One decided reading per response (the extraction's last plan, or MANUAL where it was read by hand)."""
    out = []
    for line, row in enumerate(rows):
        plan, why = extract(row["response"])
        if line in MANUAL:
            kind, steps, note = MANUAL[line]
            record = {"decision": kind, "note": note, **({"plan": steps} if kind == "plan" else {})}
        elif why and not all(w.startswith("more than one plan") or w == "ends mid-sentence" for w in why):
            raise SystemExit(f"{FILE}:{line}: unsure ({why}) and nobody decided it")
        else:
            record = {"decision": "plan", "plan": as_strings(plan)}
        out.append({"file": FILE, "line": line, **record})
    return out


def as_strings(plan: tuple) -> list[str]:
    return ["(" + " ".join((name, *args)) + ")" for name, args in plan]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--flagged", action="store_true")
    parser.add_argument("--write", help="replace this file's records in the decided set (tests/data/real_plans.jsonl)")
    args = parser.parse_args()
    path = Path(args.shared) / "real_responses" / "planbench" / f"{FILE}.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    flagged = 0
    for line, row in enumerate(rows):
        plan, why = extract(row["response"])
        if why:
            flagged += 1
            if args.flagged:
                print(f"===== {line}: {why}\n{row['response']}\n----- extraction: {plan and as_strings(plan)}")
    print(f"{flagged} of {len(rows)} responses flagged for reading by hand ({len(MANUAL)} decided in MANUAL)")
    records = decide(rows)
    if args.write:
        kept = [line for line in Path(args.write).read_text("utf-8").splitlines()
                if line.strip() and json.loads(line)["file"] != FILE]
        Path(args.write).write_text("".join(line + "\n" for line in kept)
                                    + "".join(json.dumps(r, sort_keys=True) + "\n" for r in records), "utf-8")
        print(f"{len(records)} decided readings -> {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
