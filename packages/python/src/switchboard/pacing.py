"""How the client keeps its requests within what the server accepts, so that it is never the client
the server closes for flooding (docs/protocol.md, "Limits"): at most `max_in_flight` requests await
their answer at once, and after a RATE_LIMITED answer to an event, no request of that event is sent
until its `retryAfterMs` has passed, and then one at a time until one is accepted. The TypeScript
SDK's `pacing.ts`, for asyncio.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass
from typing import Deque, Dict, Optional


@dataclass
class _Hold:
    until: float
    #: A probe is out: the others of this event wait for its answer.
    probing: bool = False


class RequestPacer:
    def __init__(self, max_in_flight: int = 64, default_wait: float = 1.0) -> None:
        self.max_in_flight = max_in_flight
        #: The wait after a RATE_LIMITED answer that names none, in seconds.
        self.default_wait = default_wait
        self._in_flight = 0
        self._waiting: Deque["asyncio.Future[None]"] = deque()
        self._holds: Dict[str, _Hold] = {}
        #: Requests of a held event waiting for its probe's answer.
        self._held: Dict[str, Deque["asyncio.Future[None]"]] = {}

    async def acquire(self, key: str) -> None:
        """Returns when a request of `key` may be sent; call `settle` with its answer."""
        while True:
            hold = self._holds.get(key)
            wait = hold.until - time.monotonic() if hold else 0.0
            if wait > 0:
                await asyncio.sleep(wait)
            elif hold is not None and hold.probing:
                await self._park(self._held.setdefault(key, deque()))
            elif self._in_flight >= self.max_in_flight:
                await self._park(self._waiting)
            else:
                self._in_flight += 1
                if hold is not None:
                    hold.probing = True  # the first one after the wait goes alone
                return

    def settle(
        self,
        key: str,
        *,
        ok: bool,
        rate_limited: bool = False,
        retry_after_ms: Optional[int] = None,
    ) -> None:
        """The answer (no answer: ok=False, rate_limited=False) to a request `acquire` let out."""
        self._in_flight -= 1
        _wake(self._waiting, 1)
        hold = self._holds.get(key)
        if not ok and rate_limited:
            wait = retry_after_ms / 1000 if retry_after_ms is not None else self.default_wait
            self._holds[key] = _Hold(until=time.monotonic() + wait)
        elif ok:
            self._holds.pop(key, None)
        elif hold is not None:
            hold.probing = False  # the probe failed otherwise: the next one probes
        else:
            return
        # Whoever waited on this event looks again: sent now, or waiting for the new hold to pass.
        queue = self._held.get(key)
        if queue:
            _wake(queue, len(queue))

    @staticmethod
    async def _park(queue: Deque["asyncio.Future[None]"]) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        try:
            await waiter
        finally:
            if waiter in queue:
                queue.remove(waiter)


def _wake(queue: Deque["asyncio.Future[None]"], count: int) -> None:
    while queue and count > 0:
        waiter = queue.popleft()
        if not waiter.done():
            waiter.set_result(None)
            count -= 1
