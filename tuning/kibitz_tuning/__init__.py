"""kibitz_tuning: SPRT and SPSA over `kibitz match`, distributed with Dask.

Work is cut into batches (one `kibitz match <game> ... --json --seed S` run each); every batch
carries a seed derived from the run seed and its index, so a rerun plays the same games and a
batch lost with a worker is simply played again. Results are counted once per batch index.
"""

__version__ = "0.1.0"
