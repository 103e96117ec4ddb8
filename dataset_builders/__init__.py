"""Hub-layout dataset builders (installed as ``finereason.dataset_builders``).

- :mod:`.items`: turns sampled states into rows (prompt, messages, label, difficulty, official-schema
  ``inputs``/``outputs``) — pure Python.
- :mod:`.build`: ``finereason build``: seeded generation of every config, in parallel, atomically.
- :mod:`.official`: ``finereason import-official``: the official release as ``official_*`` configs.
- :mod:`.layout`: parquet files, the README ``configs:`` block and the dataset card.
- :mod:`.push`: ``finereason push`` to the Hugging Face Hub.
"""
