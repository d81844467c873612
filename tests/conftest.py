"""Settings of the whole test run: one BLAS thread a process.

pytest-xdist runs a worker on each core, and each worker's numpy would otherwise start a
BLAS thread on each core for its matrix products (the screenshot reader's comparisons):
twice as many busy threads as cores, whose waiting and waking cost more CPU than the
products (measured here: a read of 20 s of CPU takes 15 s with one thread). OpenBLAS
reads these variables when it loads, so they are set before any test imports numpy;
a value the caller set is kept."""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
