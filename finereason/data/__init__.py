"""Datasets: folders in Hub layout, where evaluation data comes from, the official release, labels, sampling and trees."""
