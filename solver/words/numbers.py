"""Numbers as the faces write them: never a negative zero, a probability's exact fraction, a gain
with its sign."""

from __future__ import annotations

from collections.abc import Sequence


def number_text(x: float, spec: str) -> str:
    """format(x, spec), but never a negative zero ("-0.00" for -0.001 or -0.0 reads as a loss)."""
    text = format(x, spec)
    return format(0.0, spec) if float(text) == 0 else text


def signed_text(x: float, spec: str) -> str:
    """A value with its sign (points and party members are gains and losses), zero unsigned."""
    text = number_text(x, spec)
    return number_text(0.0, spec.replace("+", "")) if float(text) == 0 else text


def gap_text(high: float, low: float, spec: str = ".1f") -> str:
    """high − low (two chances) in percentage points, as the difference of the two as shown (each
    100×, to `spec`): a loss or a swing never disagrees by a rounding with the chances beside it
    (found by a review: 23.5% and 20.0% shown beside a loss of 3.4)."""
    return number_text(float(format(100 * high, spec)) - float(format(100 * low, spec)), spec)


def gap_spec(high: float, low: float) -> str:
    """The format for two chances shown side by side with their difference (in points): one
    decimal, or more where the difference of the two as shown would not be the true difference
    rounded (found by reviews: 23.5% and 20.0% beside a loss of 3.4; and a loss shown as 2.0,
    marked over 2, summed to 18.2 where each row said 18.1). With it, gap_text agrees with the
    chances shown, and with the true difference to within a hundredth of a point."""
    return ".1f" if gap_text(high, low, ".1f") == number_text(100 * (high - low), ".1f") else ".2f"


def chance_text(value: float, low: float, high: float, exact: bool, spec: str = ".1f") -> str:
    """A chance to win in percent, and an estimate's 95% interval after it: "43.2% (35–52)". An
    interval under 10 points wide keeps a decimal, so that two that do not overlap never look as
    if they did (found by a review: 0.28–0.63 shown as "0–1" beside "0.7–1.0"), nor one as "(8–8)"."""
    text = f"{number_text(100 * value, spec)}%"
    if exact:
        return text
    lo, hi = 100 * low, 100 * high
    digits = 0 if hi - lo >= 10 else 1
    return f"{text} ({number_text(lo, f'.{digits}f')}–{number_text(hi, f'.{digits}f')})"


def and_list(items: Sequence[object]) -> str:
    """Items as a sentence lists them: "7", "7 and 3", "9, 7 and 3"."""
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def as_fraction(x: float) -> str | None:
    """The exact fraction behind a probability, when a small denominator reproduces it to 1e-12."""
    from fractions import Fraction

    f = Fraction(x).limit_denominator(100_000)
    return f"{f.numerator}/{f.denominator}" if abs(float(f) - x) < 1e-12 else None


def count_text(n: int, what: str = "card", many: str | None = None) -> str:
    """A count and its noun, singular for one: "1 card", "3 cards" (`many`: an irregular plural)."""
    return f"{n} {what}" if n == 1 else f"{n} {many or what + 's'}"


__all__ = ["and_list", "as_fraction", "chance_text", "count_text", "gap_spec", "gap_text", "number_text", "signed_text"]
