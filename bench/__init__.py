"""Benchmarks: each module runs with `python -m bench.<name>` and prints figure, baseline, ratio, target."""
