"""Package discovery (the rest of the metadata is in pyproject.toml).

Every package under ``finereason/`` is found automatically, so adding a puzzle domain package
(``finereason/domains/<name>/``) needs no packaging edit; four top-level folders install inside the
package under ``finereason.<folder>``.
"""
from setuptools import find_packages, setup

MAPPED = {name: name for name in ("dataset_builders", "hub_cards", "lm_eval_tasks", "metrics")}

setup(
    packages=find_packages(include=["finereason", "finereason.*"]) + [f"finereason.{name}" for name in MAPPED],
    package_dir={f"finereason.{name}": folder for name, folder in MAPPED.items()},
)
