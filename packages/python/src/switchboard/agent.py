"""The entry point: an agent is a URL, a key and a handler.

    async def handle(message, ctx):
        if ctx.addressed and message["kind"] == "text":
            await ctx.reply(f"echo: {message['body']}")

    Agent(url, api_key, handle, cursors=FileCursorStore("cursors.json")).run()

Each message addressed to the agent is a turn its room watches live: the handler reports what it
does through `ctx.activity`, and a person's Stop cancels it (`switchboard.turns`).

`run()` blocks: it runs the asyncio loop until SIGINT or SIGTERM, on which the message being
handled finishes, what waits is left for the next run, and it returns (a second signal abandons the
message being handled too: the next run handles it again). In a program with its own loop, use
`await agent.start()` ... `await agent.close()`, or `async with Agent(...) as agent:`.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from types import TracebackType
from typing import List, Optional, Tuple, Type

from .client import MessageHandler, SwitchboardClient
from .cursors import CursorStore
from .turns import TurnRunner
from .types import Participant

log = logging.getLogger("switchboard")


class Agent:
    def __init__(
        self,
        url: str,
        api_key: str,
        handler: MessageHandler,
        *,
        cursors: Optional[CursorStore] = None,
        include_own: bool = False,
        auto_receipts: bool = True,
        request_timeout: float = 10.0,
        send_attempts: int = 8,
        reconnect_delay: Tuple[float, float] = (0.25, 10.0),
        wait_for_approval: bool = True,
        runtime: str = "python",
    ) -> None:
        """
        :param url: the server's base URL, e.g. http://127.0.0.1:3000
        :param api_key: the agent's key (`sb_...`)
        :param handler: `async def handler(message, ctx)`, called once per message, in order per
            room
        :param cursors: where the per-room cursors are kept (`FileCursorStore(path)` to resume
            exactly where it stopped); default memory: resume from the server's cursor
        :param runtime: what the handler runs on, shown beside its turns (lowercase letters,
            digits, dots and dashes: "langgraph", "my-app")
        The other options are `SwitchboardClient`'s.
        """
        #: The client underneath: every request of the protocol (`client.request`), rooms,
        #: questions, bindings, the work board, the platform tools.
        self.client = SwitchboardClient(
            url,
            api_key,
            cursors=cursors,
            include_own=include_own,
            auto_receipts=auto_receipts,
            request_timeout=request_timeout,
            send_attempts=send_attempts,
            reconnect_delay=reconnect_delay,
            wait_for_approval=wait_for_approval,
        )
        self.client.on_message(TurnRunner(self.client, handler, runtime))

    @property
    def me(self) -> Optional[Participant]:
        """The agent, once started."""
        return self.client.me

    async def start(self) -> Participant:
        """Connects, and returns the agent once its first session is ready; messages flow from then
        on."""
        return await self.client.connect()

    async def close(self, *, abandon: bool = False) -> None:
        """Lets the message being handled finish (`abandon`: cancels it, for the next run to handle
        again), leaves what waits for the next run, sets a kept work status idle, and disconnects.
        """
        await self.client.close(abandon=abandon)

    async def wait_closed(self) -> None:
        """Returns once closed; raises SwitchboardError if the server refused the agent for good
        (suspended, its key revoked)."""
        await self.client.wait_closed()

    async def __aenter__(self) -> "Agent":
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        trace: Optional[TracebackType],
    ) -> None:
        await self.close(abandon=isinstance(error, (asyncio.CancelledError, KeyboardInterrupt)))

    def run(self) -> None:
        """Runs the agent until SIGINT or SIGTERM (or a final refusal, which it raises)."""
        asyncio.run(self._run())

    async def _run(self) -> None:
        me = await self.start()
        log.info("switchboard: @%s is listening", me["handle"])
        loop = asyncio.get_running_loop()
        closing: List["asyncio.Task[None]"] = []

        def on_signal(number: signal.Signals) -> None:
            if not closing:
                name = number.name
                log.warning(
                    "switchboard: %s: finishing the message in progress, then stopping", name
                )
            # A second one stops now: the message being handled is handled again by the next run.
            closing.append(asyncio.ensure_future(self.close(abandon=bool(closing))))

        handled: List[signal.Signals] = []
        for number in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(number, on_signal, number)
                handled.append(number)
            except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
                pass
        try:
            await self.wait_closed()
        finally:
            for number in handled:
                loop.remove_signal_handler(number)
            await self.close()
