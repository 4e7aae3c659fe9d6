"""Turns, watched live where they were asked (docs/protocol.md, "Turns, watched live"): `Agent`
runs its handler on each message addressed to it as a turn. The turn is opened on the message
before the handler starts; the handler reports through `ctx.activity`; a Stop from the room cancels
it. It ends `done` when the handler returns, `failed` with the error when it raises, and `stopped`
after a Stop, when the message's receipt fails "stopped by @dana" (the TypeScript SDK's `Agent`
does the same). A person's reply in the turn's thread while it runs is noted on the turn, and is
handled after it, as the room's next message.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from .activity import TurnActivity
from .errors import MessageAbandoned, SwitchboardError, TurnStopped
from .types import JSON, Message

if TYPE_CHECKING:
    from .client import MessageHandler, SwitchboardClient
    from .context import MessageContext

log = logging.getLogger("switchboard")

#: How a turn ends when the agent gives up on its message as it stops.
ABANDONED = "The agent stopped before the turn ended; its next run takes it up again"


class TurnRunner:
    """The handler `Agent` gives its client: `handler` run as a turn on each message addressed to
    the agent, and as it is on any other."""

    def __init__(
        self, client: "SwitchboardClient", handler: "MessageHandler", runtime: str
    ) -> None:
        self._client = client
        self._handler = handler
        self._runtime = runtime
        #: Whether the server shows turns live (an older one does not know `turn:start`).
        self._shows_turns = True
        #: The turns running now by id: the context a Stop marks, and the handler it cancels.
        self._running: Dict[str, Tuple["MessageContext", "asyncio.Task[None]"]] = {}
        #: The turns running now by conversation (room and thread root), for replies there.
        self._conversations: Dict[str, Tuple[str, TurnActivity]] = {}
        #: What each running turn answers ("Answering @ana in #ops"): the agent's work status.
        self._answering: Dict[str, str] = {}
        #: The work status it set last (a handler may set its own).
        self._shown: Optional[Tuple[str, str]] = None
        client.on("turn:interrupt", self._on_interrupt)
        client.on("message:new", lambda event: self._on_replies([event["message"]]))
        client.on("message:batch", lambda event: self._on_replies(event["messages"]))

    async def __call__(self, message: Message, ctx: "MessageContext") -> None:
        activity = await self._open(message) if self._answers(message, ctx) else None
        if activity is None:
            await self._handle(message, ctx)
            return
        ctx.activity = activity
        await self._working(activity.turn_id, message, ctx)
        try:
            handled = await self._run_stoppable(message, ctx, activity)
        finally:
            await self._working(activity.turn_id, None, ctx)
        if ctx.stopped_by is not None:
            # However the handler ended (cancelled, or returning what it had): stopped.
            await activity.end("stopped")
            raise TurnStopped(ctx.stopped_by)
        error = _error_of(handled)
        if error is None:
            await activity.end("done")
            return
        reason = ABANDONED if isinstance(error, MessageAbandoned) else str(error)
        await activity.end("failed", reason or type(error).__name__)
        raise error

    async def _working(
        self, turn_id: str, message: Optional[Message], ctx: "MessageContext"
    ) -> None:
        """The work status says what the agent answers while a turn runs (kept alive by the
        client's heartbeat), and idle once none runs, as the TypeScript SDK's `Agent` does; a
        status the handler set itself meanwhile is the handler's, and stays."""
        if self._client.work_status not in (None, self._shown):
            self._answering.pop(turn_id, None)
            return
        if message is not None:
            room = ctx.membership["room"] if ctx.membership else None
            where = f" in #{room['name']}" if room and room["kind"] == "channel" else ""
            self._answering[turn_id] = f"Answering @{message['author']['handle']}{where}"
        elif self._answering.pop(turn_id, None) is None:
            return
        texts = list(self._answering.values())
        text = (
            ""
            if not texts
            else texts[0] + (f" (and {len(texts) - 1} more)" if len(texts) > 1 else "")
        )
        try:
            await self._client.set_work_status("working" if texts else "idle", text)
            self._shown = self._client.work_status
        except SwitchboardError as error:
            log.warning("switchboard: could not set the work status: %s", error)

    def _answers(self, message: Message, ctx: "MessageContext") -> bool:
        """A turn: a text message addressed to the agent, not its own (as receipts are sent)."""
        me = self._client.me
        own = me is not None and message["author"]["id"] == me["id"]
        return message["kind"] == "text" and ctx.addressed and not own

    async def _run_stoppable(
        self, message: Message, ctx: "MessageContext", activity: TurnActivity
    ) -> "asyncio.Task[None]":
        """Runs the handler in a task of its own, which a Stop cancels; returns it once ended."""
        task = asyncio.ensure_future(self._handle(message, ctx))
        conversation = f"{message['roomId']}:{message['threadRootId'] or message['id']}"
        self._running[activity.turn_id] = (ctx, task)
        self._conversations[conversation] = (message["id"], activity)
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            # Abandoned as the agent stops: the handler goes too, and the next run takes the turn
            # up again. Ended in the background, which close() waits for (as for receipts).
            task.cancel()
            await asyncio.wait({task})
            self._client._track(asyncio.ensure_future(activity.end("failed", ABANDONED)))
            raise
        finally:
            del self._running[activity.turn_id]
            del self._conversations[conversation]
        return task

    async def _handle(self, message: Message, ctx: "MessageContext") -> None:
        result = self._handler(message, ctx)
        if inspect.isawaitable(result):
            await result

    async def _open(self, message: Message) -> Optional[TurnActivity]:
        """Opens the turn on `message`; None where the server does not show turns (or could not
        open it: the handler runs all the same)."""
        if not self._shows_turns:
            return None
        try:
            turn = await self._client.start_turn(message["id"], runtime=self._runtime)
        except SwitchboardError as error:
            if error.code == "UNKNOWN_EVENT":
                self._shows_turns = False
            else:
                log.warning(
                    "switchboard: could not open the turn for its room to watch: %s", error
                )
            return None
        return TurnActivity(self._client, turn["id"])

    def _on_interrupt(self, event: JSON) -> None:
        running = self._running.get(event["turnId"])
        if running is None:
            return  # ended meanwhile, or another process's
        ctx, task = running
        ctx.stopped_by = {"id": event["by"]["id"], "handle": event["by"]["handle"]}
        task.cancel()

    def _on_replies(self, messages: List[Message]) -> None:
        """A person's reply in a running turn's thread: the turn says it is answered next."""
        for m in messages:
            running = self._conversations.get(f"{m['roomId']}:{m['threadRootId']}")
            if running is None or running[0] == m["id"]:
                continue
            if m["kind"] == "text" and m["author"]["kind"] == "human":
                note = f"@{m['author']['handle']} replied while it works: answered next turn"
                running[1].note(note, key=f"steer:{m['id']}")


def _error_of(task: "asyncio.Task[None]") -> Optional[BaseException]:
    if task.cancelled():  # by itself: neither a Stop nor the agent stopping
        return RuntimeError("The handler was cancelled")
    return task.exception()
