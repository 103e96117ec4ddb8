"""Does GRPO with our rewards teach anything? A CPU learning run on the tiny model (not a timed test).

    nice python benchmarks/bench_grpo_learning.py [--steps 120] [--out DIR]

1. Builds the tiny model (``finereason tiny-model``) and gives it a language prior: a few hundred
   causal-LM steps on chat turns made of the lines its tokenizer was trained on
   (``finereason.models.tiny``'s built-in corpus: prompt fragments, ``Answer: (A)``, ``Answer: (B)``,
   ``Next state: ...``, ...). A random model never writes ``Answer: (X)`` (about 1 chance in 10^11
   per completion), so GRPO would see no reward at all; the prior is generic text, not conditioned on
   any puzzle state.
2. Trains GRPO (TRL, ``finereason.integrations.training.rewards``' ``puzzle`` and ``format`` rewards, the strict answer
   rules) on the easiest states there are: Game-of-24 states with one number left (solvable exactly
   when it is 24), half solvable, half not.
3. Prints the reward curve, writes ``curve.json`` and ``curve.png``, and checks the bars: the format
   reward rises from its starting level to >= 0.9 (mean of the last 10 steps), no completion that
   earned the format reward names both options after its last answer marker (completions that
   mention both, e.g. a self-correction, are counted and printed), and the puzzle reward rises.

Every completion the rewards see is recorded (``completions.jsonl``), so the "names both options"
check covers all of them, not a sample. Exit status 1 when a bar is missed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

FORMAT_BAR = 0.9
BOTH_OPTIONS = (re.compile(r"\(\s*A\s*\)|\bA\)"), re.compile(r"\(\s*B\s*\)|\bB\)"))


# ------------------------------------------------------------------ data: one number left
def domain_title() -> str:
    """The display title of the domain this benchmark trains on."""
    from finereason.core.engine import get_engine
    from finereason.domains.game_of_24.engine import Game24Engine

    return get_engine(Game24Engine.name).title


def easiest_rows(n: int, seed: int) -> list[dict]:
    """``n`` Game-of-24 state-checking rows (train schema) whose state has one expression left,
    alternating solvable (the last move makes 24) and unsolvable (another last move)."""
    from finereason.core.engine import get_engine
    from finereason.data.sampling import make_item, moves, solution_path
    from finereason.dataset_builders.items import state_row
    from finereason.domains.game_of_24 import source as game24
    from finereason.domains.game_of_24.engine import Game24Engine

    engine = get_engine(Game24Engine.name)
    rng = random.Random(seed)
    sources = game24.puzzles()
    rng.shuffle(sources)
    rows: list[dict] = []
    for source in sources:
        if len(rows) >= n:
            break
        root = engine.initial(source.puzzle)
        path = solution_path(engine, source.puzzle, root, rng)
        if len(path) != 4:
            continue
        want_solvable = len(rows) % 2 == 0
        if not want_solvable:
            wrong = [c for c in moves(engine, source.puzzle, path[2]) if not engine.is_solvable(source.puzzle, c)]
            if not wrong:
                continue
            path = path[:3] + [rng.choice(wrong)]
        item = make_item(engine, source.puzzle, path)
        row = state_row(engine, "state_checking", item, 3, source.record, source.difficulty)
        row["id"] = f"g24-last-{len(rows)}"
        rows.append(row)
    return rows


# ------------------------------------------------------------------ the language prior
def language_prior(model_dir: Path, steps: int, seed: int) -> dict:
    """Train the tiny model for ``steps`` causal-LM steps on chat turns of corpus lines; save in place."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from finereason.models import tiny as tiny_model

    lines = [line for line in tiny_model._CORPUS.splitlines() if line.strip()]
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    rng = random.Random(seed)
    torch.manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    losses = []
    for _ in range(steps):
        texts = [tokenizer.apply_chat_template([{"role": "user", "content": rng.choice(lines)},
                                                {"role": "assistant", "content": rng.choice(lines)}], tokenize=False)
                 for _ in range(16)]
        batch = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
        loss = model(**batch, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    model.save_pretrained(model_dir)
    return {"steps": steps, "first_loss": round(losses[0], 3), "last_loss": round(sum(losses[-10:]) / 10, 3)}


# ------------------------------------------------------------------ GRPO
def recording(reward, log: list, key: str):
    """``reward`` that also records every (completion, value) it returns under ``key``."""
    from finereason.integrations.training.rewards import completion_text

    def wrapped(completions, **kwargs):
        values = reward(completions, **kwargs)
        step = kwargs.get("trainer_state").global_step if kwargs.get("trainer_state") is not None else None
        for i, (completion, value) in enumerate(zip(completions, values)):
            log.append({"step": step, "i": i, "reward": key, "value": value, "label": kwargs["label"][i],
                        "completion": completion_text(completion)})
        return values

    wrapped.__name__ = getattr(reward, "__name__", key)
    return wrapped


def _progress_callback():
    from transformers import TrainerCallback

    class Progress(TrainerCallback):
        def __init__(self, steps: int):
            self.steps, self.start = steps, time.perf_counter()

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "rewards/format_reward/mean" in logs and (state.global_step % 10 == 0 or state.global_step == 1):
                print(f"  step {state.global_step}/{self.steps}: format {logs['rewards/format_reward/mean']:.3f}, "
                      f"puzzle {logs['rewards/puzzle_reward/mean']:.3f} ({time.perf_counter() - self.start:.0f} s)",
                      flush=True)

    return Progress


def train(model_dir: Path, out: Path, rows: list[dict], args: argparse.Namespace) -> tuple[list[dict], list[dict]]:
    import datasets
    from transformers.trainer_callback import PrinterCallback
    from trl import GRPOConfig, GRPOTrainer

    from finereason.integrations.training.grpo.data import to_dataset
    from finereason.integrations.training.rewards import get_rewards
    from finereason.core.rows import row_domain

    train_rows = [{"id": r["id"], "prompt": r["messages"], "task": r["task"], "domain": row_domain(r),
                   "label": r["label"], "inputs": r["inputs"], "outputs": r["outputs"]} for r in rows]
    dataset: datasets.Dataset = to_dataset(train_rows)
    seen: list[dict] = []
    puzzle, fmt = get_rewards(["puzzle", "format"])
    config = GRPOConfig(
        output_dir=str(out / "grpo"), max_steps=args.steps, per_device_train_batch_size=args.prompts * args.generations,
        num_generations=args.generations, max_completion_length=args.max_tokens, learning_rate=args.lr,
        lr_scheduler_type="constant", warmup_steps=0, beta=0.0, temperature=1.0, logging_steps=1,
        save_strategy="no", report_to="none", bf16=False, use_cpu=True, seed=args.seed, dataloader_num_workers=0,
        disable_tqdm=True, mask_truncated_completions=args.mask_truncated,
    )
    trainer = GRPOTrainer(model=str(model_dir), reward_funcs=[recording(puzzle, seen, "puzzle"), recording(fmt, seen, "format")],
                          args=config, train_dataset=dataset)
    trainer.remove_callback(PrinterCallback)  # one short line every 10 steps instead of every log dict
    trainer.add_callback(_progress_callback()(args.steps))
    trainer.train()
    curve = [{"step": e["step"], "format": e.get("rewards/format_reward/mean"), "puzzle": e.get("rewards/puzzle_reward/mean"),
              "length": e.get("completions/mean_length")} for e in trainer.state.log_history if "rewards/format_reward/mean" in e]
    return curve, seen


# ------------------------------------------------------------------ report
def names_both(text: str) -> bool:
    """Both options appear anywhere in ``text`` (includes self-corrections, which the reader allows)."""
    return all(p.search(text) for p in BOTH_OPTIONS)


def final_names_both(text: str) -> bool:
    """Both options appear after the last "answer" marker (or anywhere, without one): a hedged final
    answer, which must never earn the format reward."""
    start = text.lower().rfind("answer")
    return names_both(text[start:] if start >= 0 else text)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def plot(curve: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [c["step"] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, [c["format"] for c in curve], label="format reward (strict)")
    puzzle = [c["puzzle"] for c in curve]
    ax.plot(steps, puzzle, label="puzzle reward", alpha=0.4)
    ax.plot(steps, [mean(puzzle[max(0, i - 9):i + 1]) for i in range(len(puzzle))], label="puzzle reward, 10-step mean")
    ax.axhline(FORMAT_BAR, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("GRPO step")
    ax.set_ylabel("mean reward")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"Tiny model, {domain_title()} states with one number left")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=120, help="GRPO steps (default 120)")
    p.add_argument("--prior_steps", type=int, default=300, help="language-prior steps before GRPO (default 300)")
    p.add_argument("--prompts", type=int, default=4, help="prompts per step (default 4)")
    p.add_argument("--generations", type=int, default=8, help="completions per prompt (default 8)")
    p.add_argument("--max_tokens", type=int, default=12, help="max completion tokens (default 12)")
    p.add_argument("--lr", type=float, default=1e-3, help="GRPO learning rate (default 1e-3)")
    p.add_argument("--rows", type=int, default=64, help="training states (default 64)")
    p.add_argument("--no_mask_truncated", dest="mask_truncated", action="store_false",
                   help="keep completions cut at --max_tokens in the loss (the recipes mask them, as here by default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="output folder (default: a temporary folder)")
    args = p.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    out = Path(args.out or tempfile.mkdtemp(prefix="grpo-learning-"))
    out.mkdir(parents=True, exist_ok=True)
    from finereason.models.tiny import build_tiny_model

    start = time.perf_counter()
    model_dir = build_tiny_model(out / "tiny")
    prior = language_prior(model_dir, args.prior_steps, args.seed)
    print(f"language prior: {prior['steps']} steps, loss {prior['first_loss']} -> {prior['last_loss']} "
          f"({time.perf_counter() - start:.0f} s)")
    rows = easiest_rows(args.rows, args.seed)
    labels = [r["label"] for r in rows]
    print(f"training states: {len(rows)} {domain_title()} states with one number left "
          f"({labels.count('Solvable')} solvable, {labels.count('Unsolvable')} unsolvable)")
    curve, seen = train(model_dir, out, rows, args)
    seconds = time.perf_counter() - start

    with (out / "completions.jsonl").open("w", encoding="utf-8") as f:
        f.writelines(json.dumps(s) + "\n" for s in seen)
    earned = [s for s in seen if s["reward"] == "format" and s["value"] == 1.0]
    both = [s for s in earned if final_names_both(s["completion"])]
    mentions = [s for s in earned if names_both(s["completion"])]
    puzzle_seen = [s for s in seen if s["reward"] == "puzzle"]
    print("\nstep  format  puzzle  mean length")
    for c in curve:
        if c["step"] in (1, len(curve)) or c["step"] % 5 == 0:
            print(f"{c['step']:4d}  {c['format']:6.3f}  {c['puzzle']:6.3f}  {c['length']:6.1f}")
    first = mean([c["format"] for c in curve[:10]])
    last = mean([c["format"] for c in curve[-10:]])
    puzzle_first = mean([c["puzzle"] for c in curve[:10]])
    puzzle_last = mean([c["puzzle"] for c in curve[-10:]])
    # accuracy among committed answers in the last 10 steps: above 0.5 means the choice depends on the state
    last_steps = {c["step"] for c in curve[-10:]}
    committed_last = [s for s in seen if s["reward"] == "format" and s["value"] == 1.0 and s["step"] in {x - 1 for x in last_steps}]
    correct_last = [s for s in puzzle_seen if s["value"] == 1.0 and s["step"] in {x - 1 for x in last_steps}]
    summary = {
        "seconds": round(seconds, 1), "prior": prior, "steps": len(curve), "settings": vars(args),
        "format_first10": round(first, 3), "format_last10": round(last, 3),
        "puzzle_first10": round(puzzle_first, 3), "puzzle_last10": round(puzzle_last, 3),
        "accuracy_of_committed_last10": round(len(correct_last) / len(committed_last), 3) if committed_last else None,
        "completions_scored": len(puzzle_seen), "format_earned": len(earned), "format_earned_final_answer_naming_both": len(both),
        "format_earned_mentioning_both": len(mentions),
        "examples_mentioning_both": [{"step": s["step"], "completion": s["completion"]} for s in mentions[:20]],
        "curve": curve,
    }
    (out / "curve.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    plot(curve, out / "curve.png")
    print(f"\nformat reward: {first:.3f} (first 10 steps) -> {last:.3f} (last 10 steps), bar >= {FORMAT_BAR}")
    print(f"puzzle reward: {puzzle_first:.3f} -> {puzzle_last:.3f}; accuracy of committed answers in the last "
          f"10 steps: {summary['accuracy_of_committed_last10']} (0.5 = not reading the state)")
    print(f"completions scored: {len(puzzle_seen)}; earned the format reward: {len(earned)}; of those naming both "
          f"options after the last answer marker: {len(both)} (bar: 0); mentioning both anywhere (self-corrections "
          f"such as 'Answer: (B) ... Answer: (A)', read as the last answer): {len(mentions)}")
    for s in mentions[:10]:
        print(f"  step {s['step']}: {s['completion']!r}")
    print(f"wall time {seconds:.0f} s; wrote {out / 'curve.png'} and {out / 'curve.json'}")
    ok = last >= FORMAT_BAR and not both and puzzle_last > puzzle_first
    print("bars met" if ok else "BARS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
