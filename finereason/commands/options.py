"""Options and helpers the commands share: ``--out``/``--seed``/``--domains``, the model options of
``arc`` and ``loop``, deprecated aliases, and the one-line :class:`CliError`."""
from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any, Iterator, Sequence

from ..common.atomic_io import atomic_file
from ..common.input_errors import InputError
from ..common.progress import progress_bar as progress
from ..core.prompts import TURN_MAX_GEN_TOKS

__all__ = ["CliError", "DeprecatedAlias", "add_domain", "add_domains", "add_generation_options", "add_model_options", "add_out", "add_seed", "model_generator", "need_builders",
           "progress", "reference_folder", "report_stream", "warn_deprecated", "writing"]


class CliError(InputError):
    """A user-facing error: printed as one line, exit code 2."""


def warn_deprecated(old: str, new: str) -> None:
    """The one-line warning printed when a deprecated command name or option is used."""
    print(f"finereason: warning: {old} is deprecated, use {new} (the old name goes in the next version)", file=sys.stderr)


class DeprecatedAlias(argparse._StoreAction):  # argparse's own store action, plus a warning
    """A store action whose option strings in ``old`` still work but print :func:`warn_deprecated`."""

    def __init__(self, option_strings: Sequence[str], dest: str, old: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.old = tuple(old)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if option_string in self.old:
            warn_deprecated(option_string, self.option_strings[0])
        super().__call__(parser, namespace, values, option_string)


def add_out(p: argparse.ArgumentParser, help: str, *, default: str | None = None, required: bool = False) -> None:
    """``--out``: a file or folder the command writes (always through :mod:`finereason.common.atomic_io`)."""
    p.add_argument("--out", default=default, required=required, help=help)


def add_seed(p: argparse.ArgumentParser, help: str = "same seed, same bytes (default 0)") -> None:
    """``--seed N`` (default 0)."""
    p.add_argument("--seed", type=int, default=0, help=help)


def add_domains(p: argparse.ArgumentParser, help: str) -> None:
    """``--domains NAME ...`` (``--puzzles``: deprecated alias), stored as ``args.domains``."""
    p.add_argument("--domains", "--puzzles", dest="domains", nargs="+", action=DeprecatedAlias, old=("--puzzles",),
                   help=f"{help} (--puzzles: deprecated alias)")


def add_domain(p: argparse.ArgumentParser, help: str) -> None:
    """``--domain NAME`` (``--puzzle``: deprecated alias), required, stored as ``args.domain``."""
    p.add_argument("--domain", "--puzzle", dest="domain", required=True, action=DeprecatedAlias, old=("--puzzle",),
                   help=f"{help} (--puzzle: deprecated alias)")


def add_model_options(p: argparse.ArgumentParser, model_help: str) -> None:
    """The lm-eval model options of ``arc`` and ``loop``: ``--model`` and ``--model_args`` here; the
    generation options with :func:`add_generation_options`."""
    p.add_argument("--model", required=True, help=model_help)
    p.add_argument("--model_args", default="", help="lm-eval model_args string")


def add_generation_options(p: argparse.ArgumentParser, max_gen_toks_help: str) -> None:
    """``--apply_chat_template --max_gen_toks --batch_size --device`` (after each command's own options)."""
    p.add_argument("--apply_chat_template", action="store_true", help="render dialogs with the model's chat template")
    p.add_argument("--max_gen_toks", type=int, default=TURN_MAX_GEN_TOKS,
                   help=f"{max_gen_toks_help} (default {TURN_MAX_GEN_TOKS}: the dialog is re-sent every round)")
    p.add_argument("--batch_size", default="1", help="lm-eval batch size")
    p.add_argument("--device", help="lm-eval device (e.g. cuda:0)")


def model_generator(args: argparse.Namespace, **options: Any) -> Any:
    """The lm-eval model of ``--model``/``--model_args`` (and the generation options) as a generate
    function (``arc``, ``loop``), on ``--device`` or else the GPU when present and the CPU otherwise;
    a model that cannot be loaded (unknown name, missing folder) is a one-line error, a bug is not."""
    from ..common.devices import default_device
    from ..integrations.lm_eval.cli import lm_eval_failure
    from ..integrations.lm_eval.eval_options import check_local_model
    from ..integrations.lm_eval.generate import lm_eval_generator

    check_local_model(args.model_args)  # a missing folder named as such, not as a malformed Hub id
    try:
        return lm_eval_generator(args.model, args.model_args, apply_chat_template=args.apply_chat_template,
                                 max_gen_toks=args.max_gen_toks, batch_size=args.batch_size,
                                 device=default_device(args.device), **options)
    except Exception as err:  # noqa: BLE001  (bad input is one line; anything else goes on as a bug)
        message = lm_eval_failure(err)
        if message is None:
            raise
        raise CliError(f"cannot load model {args.model!r}: {message}") from None


@contextlib.contextmanager
def writing(path: str | None) -> Iterator[Any]:
    """The ``--out`` handle (stdout for ``None``/``-``): the file is replaced only when the block
    completes, so a failed or interrupted run leaves an existing output as it was."""
    try:
        with atomic_file(path) as handle:
            yield handle
    except BrokenPipeError:
        raise
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None


def report_stream(out: str | None) -> Any:
    """Where a summary goes: stderr when the verdict lines go to stdout, else stdout."""
    return sys.stderr if out in (None, "-") else sys.stdout



def reference_folder(value: str | None, set_name: str, option: str) -> str:
    """``value``, else ``$FINEREASON_REFERENCE/<folder of set_name>``; neither is a one-line error."""
    from ..data.reference import ENV, find_set, reference_path

    if value:
        return value
    folder = reference_path(set_name)
    if folder is None:
        raise CliError(f"{option} DIR is needed, or set {ENV} to a folder holding {find_set(set_name).folder}/ "
                       f"(finereason reference fetch {set_name} --to DIR)")
    if not folder.is_dir():
        raise CliError(f"{folder} does not exist: finereason reference fetch {set_name} (or pass {option} DIR)")
    return str(folder)


def need_builders() -> None:
    """The dataset builders and pyarrow, or a one-line error naming the ``hub`` extra."""
    try:
        import pyarrow  # noqa: F401

        from .. import dataset_builders  # noqa: F401  (installed from the top-level dataset_builders/)
    except ImportError as err:
        raise CliError(f"this command needs the dataset extras: pip install '.[hub]' in the finereason checkout ({err.name} missing)") from None


def register_group(subparsers: argparse._SubParsersAction, name: str, help: str, actions: Sequence[Any], dest: str,
                   metavar: str) -> argparse.ArgumentParser:
    """A command whose sub-commands are ``actions`` (each with ``NAME``, ``register`` and ``run``); the one
    chosen lands in ``args.<dest>``."""
    group = subparsers.add_parser(name, help=help)
    chosen = group.add_subparsers(dest=dest, required=True, metavar=metavar)
    for action in actions:
        action.register(chosen)
    return group


def run_action(actions: Sequence[Any], name: str, args: argparse.Namespace) -> int:
    """Run the action of a group command named ``name`` on the command line."""
    return next(a for a in actions if a.NAME == name).run(args)
