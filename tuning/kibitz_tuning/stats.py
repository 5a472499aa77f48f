"""Match statistics: Elo with a 95 % interval and the GSPRT log-likelihood ratio.

The formulas are the same as `kibitz_search::stats` (normal approximation on W/D/L), so the
numbers printed here match the ones `kibitz match` prints for the same games.
"""

import math

#: Two-sided 95 % quantile of the standard normal distribution.
Z95 = 1.959963984540054


def score_from_elo(elo):
    """Expected score of a player `elo` points stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score):
    """Elo difference that gives the expected `score` (clamped away from 0 and 1)."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def _variance(w, d, l):
    n = w + d + l
    s = (w + 0.5 * d) / n
    return (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s * s) / n, s


def elo(w, d, l):
    """Elo difference of W/D/L and the half-width of its 95 % interval."""
    n = w + d + l
    if n == 0:
        return 0.0, float("inf")
    var, s = _variance(w, d, l)
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(s), (elo_from_score(s + half) - elo_from_score(s - half)) / 2


def llr(w, d, l, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (elo1) over H0 (elo0), normal approximation."""
    n = w + d + l
    if n == 0:
        return 0.0
    s = (w + 0.5 * d) / n
    # The variance is estimated with one extra win and one extra loss (a prior worth two
    # games), as in the Rust arena: a short one-sided run has a sample variance of zero and
    # the normal approximation would accept a hypothesis after a handful of games.
    var, _ = _variance(w + 1, d, l + 1)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def sprt_bounds(alpha, beta):
    """Lower and upper LLR bounds of an SPRT with error rates alpha (false H1) and beta."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
