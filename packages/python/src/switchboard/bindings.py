"""Runtime bindings (docs/protocol.md, "Runtime bindings"): a conversation (a room's top level, or
one thread) bound to an agent framework's own session, so the agent resumes that session on the
next message with only what it has not seen, after a crash, a restart or a week."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Type

from .errors import SwitchboardError
from .types import Binding, Message

if TYPE_CHECKING:
    from .client import SwitchboardClient

#: One turn's hold on a binding unless renewed (it is, every third of it, while the turn runs).
DEFAULT_LEASE_MS = 30_000

log = logging.getLogger("switchboard")


class BindingTurn:
    """One turn on a runtime binding, as an `async with` block:

        async with ctx.binding("my-framework") as turn:
            if turn.done:
                return  # a finished turn handled this message already
            session = turn.session_id or start_session(context=await turn.history())
            await turn.set_session(session)  # recorded at once: a crash mid-turn resumes it
            answer = run(session, await turn.delta())
            await ctx.reply(answer)

    Entering claims the binding of the message's conversation for this process, waiting while
    another process's turn holds it, and renews the claim while the block runs. Leaving records the
    turn (the message's seq, the status, the session, whether it resumed) and releases the binding;
    leaving with an exception records the error and releases it; leaving because a person stopped
    the turn (`stopped`; ctx.binding's is `ctx.stopped`) records the message as done with, the
    session kept for the next message, as the TypeScript SDK's Agent does.
    """

    def __init__(
        self,
        client: "SwitchboardClient",
        message: Message,
        runtime: str,
        *,
        lease_ms: Optional[int] = None,
        runner: Optional[str] = None,
        host: Optional[str] = None,
        workdir: Optional[str] = None,
        config: Optional[Mapping[str, Any]] = None,
        stopped: Callable[[], bool] = lambda: False,
    ) -> None:
        self.client = client
        self.message = message
        self._stopped = stopped
        #: The runtime kind: lowercase letters, digits, dots and dashes ("langgraph", "my-app").
        self.runtime = runtime
        self.lease_ms = lease_ms or DEFAULT_LEASE_MS
        self.runner = runner or socket.gethostname()
        self.host = host or socket.gethostname()
        self.workdir = workdir or os.getcwd()
        #: The runtime's configuration for this turn, shown on the binding.
        self.config = dict(config) if config is not None else None
        #: How the session stands after the turn: "idle", or "awaiting_input" (`open_task_id`).
        self.status = "idle"
        self.open_task_id: Optional[str] = None
        self._binding: Optional[Binding] = None
        self._session_id: Optional[str] = None
        self._resuming = False
        self._resume_failed = False
        self._renewal: Optional["asyncio.Task[None]"] = None

    @property
    def binding(self) -> Binding:
        """The binding as it stands (after the claim, and after each update of this turn)."""
        if self._binding is None:
            raise RuntimeError("use the turn inside `async with`")
        return self._binding

    @property
    def done(self) -> bool:
        """A finished turn handled this message already (the process stopped before acknowledging
        it)."""
        return self.message["seq"] <= self.binding["lastSeq"]

    @property
    def session_id(self) -> Optional[str]:
        """The framework's session to resume; None: start one (and `set_session` it)."""
        return self._session_id

    @property
    def resuming(self) -> bool:
        """This turn resumes a session an earlier turn recorded."""
        return self._resuming and not self._resume_failed

    async def set_session(self, session_id: str) -> None:
        """Records the framework's session id as soon as it is known, so that a crash mid-turn
        resumes it."""
        if session_id == self._session_id:
            return
        self._session_id = session_id
        self._binding = await self.client.update_binding(self.binding, external_id=session_id)

    async def resume_failed(self, reason: str) -> None:
        """The session could not be resumed (its file is gone): recorded on the binding, which the
        room shows; start a new session (with `history()` as its context) and `set_session` it."""
        self._resume_failed = True
        self._session_id = None
        self._binding = await self.client.update_binding(self.binding, resume_failed=reason[:2000])

    async def delta(self) -> List[Message]:
        """What the session has not seen: the conversation's messages after the binding's last seq,
        through this message (at most the 500 seqs before it), but the agent's own."""
        last = self.binding["lastSeq"]
        me = self.client.me["id"] if self.client.me else None
        found = [
            m
            for m in await self._conversation(
                max(last, self.message["seq"] - 500), self.message["seq"]
            )
            if m["author"]["id"] != me and m["seq"] > last
        ]
        if not any(m["id"] == self.message["id"] for m in found):
            found.append(self.message)
        return found

    async def history(self, limit: int = 20) -> List[Message]:
        """Context for a new session: the conversation's last `limit` messages before the delta."""
        before = max(self.binding["lastSeq"], self.message["seq"] - 500)
        if limit <= 0 or before < 1:
            return []
        return (await self._conversation(max(0, before - 200), before))[-limit:]

    async def _conversation(self, after_seq: int, through_seq: int) -> List[Message]:
        """The messages of this message's conversation (its thread, or the room's top level) in
        (after, through]."""
        root = self.message["threadRootId"]
        out: List[Message] = []
        after = after_seq
        while after < through_seq:
            page = await self.client.sync(
                self.message["roomId"], after, limit=min(500, through_seq - after)
            )
            for m in page["messages"]:
                inside = (
                    (m["id"] == root or m["threadRootId"] == root)
                    if root
                    else m["threadRootId"] is None
                )
                if (
                    m["seq"] <= through_seq
                    and not m["deletedAt"]
                    and m["kind"] in ("text", "question")
                    and inside
                ):
                    out.append(m)
            if not page["hasMore"] or page["lastSeq"] <= after:
                break
            after = page["lastSeq"]
        return out

    async def __aenter__(self) -> "BindingTurn":
        self._binding = await self._claim()
        self._session_id = self._binding["externalId"]
        self._resuming = self._session_id is not None
        self._renewal = asyncio.ensure_future(self._renew())
        return self

    async def __aexit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        trace: Optional[TracebackType],
    ) -> None:
        if self._renewal is not None:
            self._renewal.cancel()
        if self.done:
            await self.client.update_binding(self.binding, release=True)
            return
        if error is not None:
            fields: Dict[str, Any] = {}
            if self._stopped():
                # Stopped from the room: the message is done with, and the session keeps what it
                # did (the next message resumes it).
                fields = {"last_seq": self.message["seq"], "status": "idle"}
            elif not isinstance(error, asyncio.CancelledError):
                # A failed turn lets go of the binding (as one abandoned as the agent stops does);
                # the error shows on it.
                fields = {"error": (str(error) or type(error).__name__)[:2000]}
            try:
                await self.client.update_binding(self.binding, **fields, release=True)
            except SwitchboardError as failure:
                log.warning(
                    "switchboard: could not release binding %s: %s", self.binding["id"], failure
                )
            return
        # A success clears the last error, but not the failed resume this very turn recovered from.
        self._binding = await self.client.update_binding(
            self.binding,
            external_id=self._session_id,
            resumed=True if self.resuming else None,
            last_seq=self.message["seq"],
            status=self.status,
            open_task_id=self.open_task_id,
            config=self.config,
            **({} if self._resume_failed else {"error": None}),
            release=True,
        )

    async def _claim(self) -> Binding:
        while True:
            try:
                return await self.client.claim_binding(
                    self.message["roomId"],
                    self.runtime,
                    thread_root_id=self.message["threadRootId"],
                    lease_ms=self.lease_ms,
                    runner=self.runner,
                    host=self.host,
                    workdir=self.workdir,
                    config=self.config,
                )
            except SwitchboardError as error:
                if error.code != "BINDING_BUSY":
                    raise
                await asyncio.sleep((error.retry_after_ms or 500) / 1000)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                self._binding = await self.client.update_binding(
                    self.binding, lease_ms=self.lease_ms
                )
            except SwitchboardError as error:
                log.warning(
                    "switchboard: could not renew binding %s: %s", self.binding["id"], error
                )
