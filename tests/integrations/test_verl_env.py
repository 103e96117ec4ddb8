"""The verl reward through verl's own code (needs verl installed; skipped with the reason otherwise).

verl pins a transformers older than this project's, so it lives in an environment of its own:
``bash trainers/verl/cpu_env.sh`` builds one (CPU only, verl's reward path without its GPU stack) and
runs this file in it. The exported parquet is loaded with verl's ``RLHFDataset`` and a real tokenizer (the
project's tiny byte-level BPE tokenizer with a chat template, built offline), its chat messages templated as
verl's agent loop does; responses are tokenized,
decoded by verl's managers and scored through ``compute_score`` loaded the way verl loads a custom reward
(``reward.custom_reward_function.path`` / ``.name`` / ``.reward_kwargs``): the batch ``NaiveRewardManager``
and the reward-loop ``NaiveRewardManager`` (``run_single`` in a thread pool). Each row's own answer earns
``2.0`` (puzzle plus format) and a wrong one no puzzle credit, in both managers.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import numpy as np
import pytest

verl = pytest.importorskip("verl", reason="verl is not installed: bash trainers/verl/cpu_env.sh builds an environment with it")
torch = pytest.importorskip("torch")
OmegaConf = pytest.importorskip("omegaconf").OmegaConf

from finereason.integrations.verl.export import export_verl  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REWARD_FILE = ROOT / "finereason" / "integrations" / "verl" / "__init__.py"
TASKS = ["sudoku_state_checking", "game_of_24_state_transition", "graph_coloring_end_to_end", "blocksworld_end_to_end"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from transformers import AutoTokenizer

    from finereason.models.tiny import build_tiny_model

    folder = tmp_path_factory.mktemp("verl-env")
    export_verl(TASKS, folder / "data", train_size=4, val_size=2, seed=0)
    tokenizer = AutoTokenizer.from_pretrained(str(build_tiny_model(folder / "tiny")))
    return folder, tokenizer


def wrong(answer: str) -> str:
    return "Answer: (B)" if answer.endswith("(A)") else "Answer: (A)" if answer.endswith("(B)") else "I cannot solve it."


def batch_of(dataset, tokenizer, responses: list[str]):
    """A verl ``DataProto`` like the rollout's: left-padded prompts, right-padded responses, a shared mask."""
    from verl import DataProto

    items = [dataset[i] for i in range(len(responses))]
    # verl 0.9's dataset hands the chat messages on (raw_prompt); its agent loop applies the chat template
    prompts = [tokenizer.apply_chat_template(list(item["raw_prompt"]), add_generation_prompt=True, tokenize=True,
                                             return_dict=False) for item in items]
    width = max(len(p) for p in prompts)
    encoded = [tokenizer(r, add_special_tokens=False)["input_ids"] for r in responses]
    span = max(len(e) for e in encoded)
    pad = tokenizer.pad_token_id
    prompt_ids = torch.tensor([[pad] * (width - len(p)) + list(p) for p in prompts])
    response_ids = torch.tensor([e + [pad] * (span - len(e)) for e in encoded])
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) + [1] * len(e) + [0] * (span - len(e))
                         for p, e in zip(prompts, encoded)])
    non_tensor = {key: np.array([item[key] for item in items], dtype=object)
                  for key in ("data_source", "reward_model", "extra_info")}
    return DataProto.from_dict(tensors={"prompts": prompt_ids, "responses": response_ids, "attention_mask": mask,
                                        "input_ids": torch.cat([prompt_ids, response_ids], dim=1)},
                               non_tensors=non_tensor)


def config():
    return OmegaConf.create({"reward": {
        "custom_reward_function": {"path": str(REWARD_FILE), "name": "compute_score", "reward_kwargs": {}},
        "reward_manager": {"source": "register", "name": "naive"}}})


def test_rlhf_dataset_reads_the_export_and_both_managers_score_it(setup):
    from verl.trainer.ppo.reward import get_custom_reward_fn
    from verl.utils.dataset.rl_dataset import RLHFDataset
    from verl.workers.reward_manager.naive import NaiveRewardManager

    folder, tokenizer = setup
    dataset = RLHFDataset(data_files=[str(folder / "data" / "train.parquet")], tokenizer=tokenizer,
                          config=OmegaConf.create({"max_prompt_length": 8192, "filter_overlong_prompts": False,
                                                   "cache_dir": str(folder / "cache")}))
    assert len(dataset) == 4 * len(TASKS)
    answers = [dataset[i]["extra_info"]["answer"] for i in range(len(dataset))]
    assert all(json.loads(dataset[i]["reward_model"]["ground_truth"])["answer"] == answers[i] for i in range(len(dataset)))
    compute_score = get_custom_reward_fn(config())

    for responses, check in ((answers, lambda s, acc: s == 2.0 and acc == 1.0),
                             ([wrong(a) for a in answers], lambda s, acc: acc == 0.0 and s <= 1.0)):
        data = batch_of(dataset, tokenizer, responses)
        out = NaiveRewardManager(tokenizer, num_examine=0, compute_score=compute_score)(data, return_dict=True)
        scores = out["reward_tensor"].sum(dim=1).tolist()
        accs = out["reward_extra_info"]["acc"]
        assert all(check(s, a) for s, a in zip(scores, accs)), list(zip(scores, accs))

        from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager as LoopManager

        manager = LoopManager(config(), tokenizer, compute_score)

        async def score_all():
            return await asyncio.gather(*(manager.run_single(data[i:i + 1]) for i in range(len(data))))

        results = manager.loop.run_until_complete(score_all())
        assert [r["reward_score"] for r in results] == scores
        assert [r["reward_extra_info"]["acc"] for r in results] == accs
