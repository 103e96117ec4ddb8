"""The ``evaluate`` metric modules, shipped as package data (``finereason.metrics``).

Each sub-folder is one module for ``evaluate.load``; :func:`finereason.metric_path` gives its path.
"""
