"""The loop's picture: accuracy by round per condition (the paper's Figure 2), titled with the domain and
the model, and the words its progress lines use."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..common.atomic_io import write_bytes
from ..common.deprecated import renamed_names
from ..common.plural import count

PLOT = "accuracy_by_round.png"


def figure(summaries: dict[str, dict], title: str) -> Any:
    """The accuracy-by-round figure (a matplotlib ``Figure``), one line per condition (the paper's
    Figure 2); ``None`` without matplotlib.

    Rounds are integer ticks; each condition has its own marker and line style and is shifted by a
    few hundredths of a round, so equal curves stay visible side by side instead of hiding each other.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        return None
    markers, styles = "osD^vP*X", ("-", "--", "-.", ":")
    fig, ax = plt.subplots(figsize=(6, 4))
    n = len(summaries)
    for i, (condition, summary) in enumerate(summaries.items()):
        acc = summary["accuracy_by_round"]
        rounds = sorted(map(int, acc))
        shift = (i - (n - 1) / 2) * 0.06
        ax.plot([r + shift for r in rounds], [acc[str(r)] for r in rounds], marker=markers[i % len(markers)],
                markersize=4, linestyle=styles[i % len(styles)], alpha=0.85, label=condition)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round")
    ax.set_ylabel("accuracy (sound verifier)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def plot(out: Path, summaries: dict[str, dict], title: str) -> Path | None:
    """Write :func:`figure` to ``OUT/accuracy_by_round.png``; None without matplotlib."""
    fig = figure(summaries, title)
    if fig is None:
        return None
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, metadata={"Software": None})
    plt.close(fig)
    return write_bytes(out / PLOT, buffer.getvalue())


def model_title(model: str, model_args: str = "") -> str:
    """The model as a plot title names it: the folder or id of ``pretrained=``/``model=``/``path=`` in
    ``model_args`` (credentials never shown), else the ``--model`` name."""
    args = dict(part.split("=", 1) for part in model_args.split(",") if "=" in part)
    for key in ("pretrained", "model", "path"):
        value = args.get(key, "").strip()
        if value:
            return f"{Path(value).name or value} ({model})" if "/" in value or Path(value).exists() else f"{value} ({model})"
    return model


__all__ = ["PLOT", "count", "figure", "model_title", "plot"]

__getattr__ = renamed_names(__name__, {"model_label": "model_title"}, globals())
