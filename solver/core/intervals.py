"""The 95% intervals every estimate and every measured win rate states, written once."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion wins/n (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At 0 or n wins the interval touches 0 or 1 exactly; rounding must not move it off.
    return (0.0 if wins == 0 else max(0.0, centre - half)), (1.0 if wins == n else min(1.0, centre + half))


__all__ = ["Z95", "wilson"]
