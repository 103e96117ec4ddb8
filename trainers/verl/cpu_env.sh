#!/usr/bin/env bash
# A CPU-only environment with verl's reward path (no GPU stack), then the test that scores finereason's
# export through verl's own dataset and reward managers (tests/integrations/test_verl_env.py).
# verl 0.9.1 pins transformers below this project's, so it gets a virtual environment of its own:
#   bash trainers/verl/cpu_env.sh            # builds .venv-verl/ (a few minutes), then runs the test
#   VERL_VENV=/tmp/verl bash trainers/verl/cpu_env.sh
# A plain `pip install verl` would pull CUDA wheels; --no-deps plus the list below is what the reward
# path imports.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="${VERL_VENV:-.venv-verl}"
if [ -d /opt/wheels ]; then export PIP_FIND_LINKS="${PIP_FIND_LINKS:-/opt/wheels}"; fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  # torch's CPU build first (PyPI's Linux wheel is the CUDA one)
  "$VENV/bin/python" -m pip install -q torch==2.13.0 --extra-index-url https://download.pytorch.org/whl/cpu
  "$VENV/bin/python" -m pip install -q --no-deps verl==0.9.1
  "$VENV/bin/python" -m pip install -q torch==2.13.0 tensordict==0.10.0 ray hydra-core "transformers>=5.5.3,<5.11" \
      aiohttp datasets codetiming pillow pyarrow tqdm tokenizers pytest
  "$VENV/bin/python" -m pip install -q --no-deps -e .   # finereason itself (its core needs only tqdm)
fi
OMP_NUM_THREADS=1 "$VENV/bin/python" -m pytest -o addopts="" -q tests/integrations/test_verl_env.py "$@"
