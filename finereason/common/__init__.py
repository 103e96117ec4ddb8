"""Lowest layer: verdict values, vocabulary, input errors and small I/O helpers (no finereason imports)."""
