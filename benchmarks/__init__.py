"""Benchmark scripts and their seeded position generators (not tests: timing lives here).

Importable from the repository root (``from benchmarks.positions import expert_position``)
so other scripts reuse the same positions.
"""
