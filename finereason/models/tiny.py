"""A tiny random causal LM for offline smoke tests of the lm-eval and training paths.

:func:`build_tiny_model` writes, in a few seconds and without any download, a folder that
``transformers.AutoModelForCausalLM.from_pretrained`` and ``AutoTokenizer.from_pretrained`` load:

* a byte-level BPE tokenizer (vocabulary :data:`VOCAB_SIZE`) trained with ``tokenizers`` on a small
  built-in corpus of puzzle text (digits, brackets, quotes, "Answer: (A)", "Next state:", ...), with
  ``<|bos|>``, ``<|eos|>``, ``<|pad|>``, the role markers, ``<think>`` / ``</think>`` and a Jinja chat
  template (``<|user|>`` / ``<|assistant|>`` turns; ``add_generation_prompt`` ends with the assistant
  header);
* a 2-layer Llama (``arch="llama"``) or Qwen2 (``arch="qwen2"``) model, hidden size 64, 4 heads
  (2 key/value heads), MLP 128, tied embeddings, ``max_position_embeddings`` :data:`MAX_POSITIONS`
  (FineReason prompts reach a few thousand tokens with so small a vocabulary), seeded initialisation,
  saved as float32 safetensors (well under 1 MB).

Its answers are noise: it exists to exercise tokenisation, chat templates, generation and scoring
end to end (``finereason tiny-model --out DIR``; needs ``pip install '.[eval]'`` in the finereason checkout).
"""
from __future__ import annotations

import random
from pathlib import Path

ARCHES = ("llama", "qwen2")
MAX_SEED = 2**63 - 1  # torch.manual_seed takes 64-bit seeds
VOCAB_SIZE = 640
MAX_POSITIONS = 16384

BOS, EOS, PAD = "<|bos|>", "<|eos|>", "<|pad|>"
ROLE_TOKENS = ("<|system|>", "<|user|>", "<|assistant|>")
THINK_TOKENS = ("<think>", "</think>")

# One turn per message, each closed by EOS; the generation prompt is the bare assistant header.
CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{% for message in messages %}"
    "{{ '<|' + message['role'] + '|>\\n' + message['content'] + eos_token + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>\\n' }}{% endif %}"
)

_CORPUS = """\
Fill the empty cells with digits 1-9 so that every row, every column and every 3x3 box contains each digit exactly once.
Give every vertex of the graph one of the colors 1..3 so that no two adjacent vertices share a color.
The graph (vertex: neighbours):
Combine the numbers 4, 7, 8, 8 with +, -, * and / (each number used exactly once) to reach exactly 24.
A state is a Python list of the expressions still to be combined; a move takes two of them, a and b.
Using only the clues below, match the times to the options from names, ailments and doctors.
Categories: Clues: Of Edgar and the patient with the 12 noon appointment, one is seeing Dr. Fischer.
A state is the answer table, written as a Python list of rows: the first row names the categories.
Previous state: Current state: Already explored from the current state, and found to lead to a dead end:
Make exactly one move. If the current state can still be completed to a solution, fill exactly one empty cell.
If it cannot be completed, backtrack: return to the previous state. Think step by step. Do not solve using programming.
End your response with "Next state: " followed by the new state, written in the same format as above.
Question: can the current state still be completed to a valid solution by continuing from it?
(A) Solvable
(B) Unsolvable
End your response with "Answer: (A)" or "Answer: (B)".
Answer: (A)
Answer: (B)
Next state: [[1, 2], [3, 4]]
Next state: ['(13 - 11)', '7', '10']
Next state: [['times', 'names', 'ailments'], [9, 'Edgar', ''], [10, '', 'sinusitis']]
The answer is \\boxed{B}. Colorable. Uncolorable. Solvable. Unsolvable.
<think>Let me check row 3, column 7 and box 5. The vertex 4 and vertex 9 share color 2.</think>
"""


def _domain_lines() -> list[str]:
    """Each registered domain's title, move and answer words (the prompts' vocabulary)."""
    from ..core.engine import engines

    return [f"{e.title}: {e.move_text}. {' / '.join(e.choice_words)}." for e in engines()]


def _corpus(seed: int) -> list[str]:
    """The built-in text plus seeded number lists, grids and expressions in the prompts' formats."""
    rng = random.Random(seed)
    lines = (_CORPUS.splitlines() + _domain_lines()) * 4
    for _ in range(200):
        row = [rng.randint(0, 9) for _ in range(9)]
        lines.append(str([row, [rng.randint(0, 9) for _ in range(9)]]))
        a, b = rng.randint(1, 13), rng.randint(1, 13)
        op = rng.choice("+-*/")
        lines.append(str([f"({a} {op} {b})", str(rng.randint(1, 13)), str(rng.randint(1, 13))]))
        lines.append(f"{rng.randint(0, 40)}: " + ", ".join(str(rng.randint(0, 40)) for _ in range(rng.randint(1, 6))))
        lines.append(f"{rng.randint(1, 12)}. " + ", ".join(f"'{w}'" for w in rng.sample(
            ["Edgar", "Guy", "Hazel", "Nora", "hip pain", "migraines", "Carewell", "Triflex", "Chu", "Dawson", ""], 3)))
    return lines


def _check_arch(arch: str) -> None:
    if arch not in ARCHES:
        raise ValueError(f"unknown arch {arch!r}: use one of {', '.join(ARCHES)}")


def check_seed(seed: int) -> None:
    """Raise ``ValueError`` unless ``seed`` is an integer in ``0..MAX_SEED``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"the seed must be an integer in 0..{MAX_SEED} (2**63 - 1), got {seed!r}")


def build_tokenizer(seed: int = 0):
    """The trained ``PreTrainedTokenizerFast`` (not saved)."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    specials = [BOS, EOS, PAD, *ROLE_TOKENS]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE, min_frequency=2, special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tok.train_from_iterator(_corpus(seed), trainer=trainer)
    # <think> tags are ordinary added tokens (not special), so decoding keeps them for the verifiers.
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in THINK_TOKENS])
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token=BOS, eos_token=EOS, pad_token=PAD, unk_token=None,
        additional_special_tokens=list(ROLE_TOKENS), chat_template=CHAT_TEMPLATE,
        model_max_length=MAX_POSITIONS, padding_side="left", clean_up_tokenization_spaces=False,
    )


def _config(arch: str, tokenizer):
    kwargs = dict(
        vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, intermediate_size=128, max_position_embeddings=MAX_POSITIONS,
        tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, rms_norm_eps=1e-6, initializer_range=0.02,
    )
    if arch == "llama":
        from transformers import LlamaConfig

        return LlamaConfig(**kwargs)
    from transformers import Qwen2Config

    return Qwen2Config(use_sliding_window=False, **kwargs)


def build_tiny_model(out: Path, arch: str = "llama", seed: int = 0) -> Path:
    """Write the tokenizer and a randomly initialised ``arch`` model into ``out``; return ``out``.

    ``out`` must be absent or an empty folder. The files are written into a temporary folder beside
    it and renamed into place when complete, so an interrupted save leaves ``out`` as it was (a
    killed run's temporary folder is removed by the next run).
    """
    from ..common.atomic_io import atomic_dir, default_permissions

    _check_arch(arch)
    check_seed(seed)
    import torch
    from transformers import AutoModelForCausalLM, GenerationConfig

    out = Path(out)
    tokenizer = build_tokenizer(seed)
    config = _config(arch, tokenizer)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.generation_config = GenerationConfig(
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, do_sample=False,
    )
    with atomic_dir(out) as tmp:
        model.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        _portable_tokenizer_class(tmp / "tokenizer_config.json")
        default_permissions(tmp)  # safetensors writes model.safetensors owner-only
    return out


def _portable_tokenizer_class(path: Path) -> None:
    """Name the class ``PreTrainedTokenizerFast`` (transformers 5 saves its alias ``TokenizersBackend``,
    which older transformers and other loaders do not know); both load the same ``tokenizer.json``."""
    import json

    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("tokenizer_class") == "TokenizersBackend":
        data["tokenizer_class"] = "PreTrainedTokenizerFast"
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
