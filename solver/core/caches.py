"""A least-recently-used cache bounded by the total size of what it holds, not by its count.

functools.lru_cache bounds the number of entries; the chance outcomes of a big Over run to
thousands of rows each, so 65,536 of them could hold many gigabytes. Here each result weighs its
length, the cache evicts the least recently used results past `max_weight`, and a result heavier
than an eighth of that is returned without being kept (it would evict everything else).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sized
from functools import wraps
from typing import Any, TypeVar

R = TypeVar("R", bound=Sized)


def weighted_cache(max_weight: int) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Cache a function of hashable positional arguments whose results are sized (tuples)."""

    def decorate(func: Callable[..., R]) -> Callable[..., R]:
        held: OrderedDict[tuple[Any, ...], R] = OrderedDict()
        weight = 0
        lock = threading.Lock()  # the companion and a web page may search from several threads

        @wraps(func)
        def cached(*args: Any) -> R:
            nonlocal weight
            with lock:
                got = held.get(args)
                if got is not None:
                    held.move_to_end(args)
                    return got
            result = func(*args)
            size = max(1, len(result))
            if 8 * size > max_weight:
                return result
            with lock:
                if args not in held:
                    held[args] = result
                    weight += size
                    while weight > max_weight:
                        _, old = held.popitem(last=False)
                        weight -= max(1, len(old))
            return result

        def cache_clear() -> None:
            nonlocal weight
            with lock:
                held.clear()
                weight = 0

        def cache_weight() -> int:
            return weight

        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        cached.cache_weight = cache_weight  # type: ignore[attr-defined]
        return cached

    return decorate


__all__ = ["weighted_cache"]
