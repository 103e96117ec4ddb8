"""Redact credentials from text that reaches reports, stdout and logs.

lm-eval records ``model_args`` verbatim (``pretrained=org/model,token=hf_...``, ``base_url=
https://user:pass@host/v1``), so anything that copies them must pass them through :func:`redact`
first. Replaced with ``***`` (the key names and the rest of the text stay readable):

- values of keys ending in ``token``, ``api_key``/``apikey``, ``secret``, ``password``/``passwd``,
  ``credential(s)`` or ``auth`` (``token=...``, ``"api_key": "..."``, ``?access_token=...``);
  ``max_new_tokens``/``tokenizer`` and the like are not keys of that kind and are kept;
- ``Authorization`` header values (``Bearer ...``, ``Basic ...``);
- the user information of URLs (``https://user:pass@host`` -> ``https://***@host``);
- well-known token shapes anywhere: Hugging Face ``hf_...``, OpenAI-style ``sk-...``, GitHub
  ``ghp_``/``github_pat_``, Slack ``xox?-...``, AWS access key ids ``AKIA...``.

:class:`RedactingFilter` applies the same to log records.
"""
from __future__ import annotations

import logging
import re

MASK = "***"

_SECRET_KEY = r"[A-Za-z0-9_.-]*?(?:token|api[_-]?key|apikey|secret|password|passwd|credentials?|auth)"
_KEY_VALUE = re.compile(
    r"(?P<q>[\"']?)(?P<key>\b" + _SECRET_KEY + r")(?P=q)(?P<sep>\s*[=:]\s*)"
    r"(?P<value>\"[^\"]*\"|'[^']*'|[^\s,&;)\]}]+)",
    re.IGNORECASE,
)
_AUTH_HEADER = re.compile(
    r"(?P<head>\bauthorization[\"']?\s*[:=]\s*[\"']?)(?P<scheme>(?:bearer|basic|token|digest)\s+)?[^\s\"',;]+",
    re.IGNORECASE,
)
_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)[^/\s@]+@", re.IGNORECASE)
_TOKEN_SHAPES = re.compile(
    r"\b(?:hf_[A-Za-z0-9]{8,}|sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}"
    r"|xox[abprs]-[A-Za-z0-9-]{8,}|AKIA[0-9A-Z]{16})"
)


def _mask_value(match: re.Match) -> str:
    value = match.group("value")
    quote = value[0] if value[:1] in ("'", '"') and len(value) > 1 else ""
    return f"{match.group('q')}{match.group('key')}{match.group('q')}{match.group('sep')}{quote}{MASK}{quote}"


def redact(text: str) -> str:
    """``text`` with every credential it shows replaced by ``***``."""
    if not isinstance(text, str) or not text:
        return text
    text = _AUTH_HEADER.sub(lambda m: f"{m.group('head')}{m.group('scheme') or ''}{MASK}", text)
    text = _URL_USERINFO.sub(lambda m: f"{m.group('scheme')}{MASK}@", text)
    text = _KEY_VALUE.sub(_mask_value, text)
    return _TOKEN_SHAPES.sub(MASK, text)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts each record's formatted message."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001  (a malformed record is logged as it is)
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


__all__ = ["MASK", "RedactingFilter", "redact"]
