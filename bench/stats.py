"""Medians and percentiles (linear interpolation between closest ranks, as numpy's default)."""

from __future__ import annotations

from collections.abc import Iterable


def percentile(values: Iterable[float], q: float) -> float | None:
    data = sorted(values)
    if not data:
        return None
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def median(values: Iterable[float]) -> float | None:
    return percentile(values, 50)


def summary(values: list[float]) -> dict[str, float | int | None]:
    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 2)

    return {"n": len(values), "median": r(median(values)), "p95": r(percentile(values, 95)),
            "min": r(min(values) if values else None), "max": r(max(values) if values else None)}
