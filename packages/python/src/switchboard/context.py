"""What a handler gets besides the message: where it is, whether it is addressed to the agent,
ways to act on it whose ids derive from the message (docs/protocol.md, "Sending"): a message
handled again after a crash gets back what its first handling stored instead of storing it again;
and its turn, as the room watches it (`activity`, `stopped`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence, Union

from .activity import NO_ACTIVITY, ActivityReporter
from .asking import Audience, QuestionOutcome
from .bindings import BindingTurn
from .types import (
    JSON,
    Membership,
    Message,
    QuestionKind,
    Usage,
    WorkLinkKind,
    WorkState,
    WorkStatus,
)

if TYPE_CHECKING:
    from .client import SwitchboardClient


class MessageContext:
    def __init__(
        self,
        client: "SwitchboardClient",
        message: Message,
        membership: Optional[Membership],
        addressed: bool,
        replayed: bool,
    ) -> None:
        self.client = client
        self.message = message
        #: The room as the agent is a member of it (kind, title, delivery mode).
        self.membership = membership
        #: The message mentions the agent, is in a dm or group with it, or (in `mentions` mode,
        #: where the server sends only that) replies in a thread the agent is in.
        self.addressed = addressed
        #: Delivered by replay after a (re)connect rather than live.
        self.replayed = replayed
        #: What the handler reports of its turn, live under the message in its room: `plan`,
        #: `tool_started`, `tool_ended`, `note`, `usage`, `step`. `Agent` opens a turn for each
        #: message addressed to it; elsewhere (or on a server without turns) it reports nothing.
        self.activity: ActivityReporter = NO_ACTIVITY
        #: Who stopped the turn from its room (`{ "id", "handle" }`), once someone did; the handler
        #: is cancelled then (code in a thread may check `stopped`).
        self.stopped_by: Optional[Dict[str, str]] = None
        #: The model calls reported for this message so far, together: the turn's tokens and cost.
        self._input_tokens = self._output_tokens = 0
        self._cost_usd = 0.0

    @property
    def stopped(self) -> bool:
        """A person stopped the turn from its room."""
        return self.stopped_by is not None

    @property
    def thread_root_id(self) -> str:
        """The thread a reply goes to: the message's own thread, or the thread it starts."""
        return self.message["threadRootId"] or self.message["id"]

    async def reply(self, text: str) -> Message:
        """Replies in the message's thread; sent again after a crash, it is stored once."""
        return await self.client.reply(self.message, text)

    async def send(
        self, room_id: str, text: str, *, thread_root_id: Optional[str] = None
    ) -> Message:
        """Sends to any room as part of handling this message: its clientMsgId derives from the
        message (as `reply`'s does), and it names the message as its cause, so whoever drove the
        message drove the send too ("requested by" in usage)."""
        return await self.client.send(
            room_id,
            text,
            thread_root_id=thread_root_id,
            client_msg_id=self.client._derived_id("msg", self.message["id"]),
            cause_id=self.message["id"],
        )

    async def report_usage(
        self,
        model: str,
        input_tokens: int,
        output_tokens: int,
        *,
        cached_tokens: Optional[int] = None,
        cost_usd: Optional[float] = None,
        room_id: Optional[str] = None,
        message_id: Optional[str] = None,
        task_id: Optional[str] = None,
        occurred_at: Optional[str] = None,
        report_id: Optional[str] = None,
    ) -> Usage:
        """Reports a model call made while handling this message, with a reportId derived from it,
        and attributed to it (unless the report names another room or message): whoever drove the
        message is who the call was for."""
        served = message_id is None and (room_id is None or room_id == self.message["roomId"])
        reported = await self.client.report_usage(
            model,
            input_tokens,
            output_tokens,
            cached_tokens=cached_tokens,
            cost_usd=cost_usd,
            room_id=room_id,
            message_id=self.message["id"] if served else message_id,
            task_id=task_id,
            occurred_at=occurred_at,
            report_id=report_id or self.client._derived_id("usage", self.message["id"]),
        )
        if served:
            self._input_tokens += reported["inputTokens"]
            self._output_tokens += reported["outputTokens"]
            self._cost_usd += reported["costUsd"]
            self.activity.usage(self._input_tokens, self._output_tokens, self._cost_usd)
        return reported

    async def ask(
        self,
        prompt: str,
        *,
        kind: QuestionKind,
        audience: Audience = "owner",
        options: Optional[Sequence[Union[str, Mapping[str, Any]]]] = None,
        fields: Optional[Sequence[Mapping[str, Any]]] = None,
        room_id: Optional[str] = None,
        thread_root_id: Optional[str] = None,
        expires_in_seconds: Optional[int] = None,
        on_expiry: Optional[Mapping[str, Any]] = None,
    ) -> QuestionOutcome:
        """Asks people and waits for the outcome, in this message's thread unless told another room
        or thread. Its clientMsgId derives from the message: if the agent crashes while waiting,
        handling the message again asks nothing new and returns what was decided meanwhile.

        `kind` is "approval" (answer `{"approved": bool}`), "single" / "multiple" (`options`:
        labels or `{"value", "label"}`), "text" or "form" (`fields`); `audience` is "owner",
        "room", "admins", "@handle" or a participant id."""
        here = room_id is None or room_id == self.message["roomId"]
        if thread_root_id is None and here and self.message["kind"] == "text":
            thread_root_id = self.thread_root_id
        return await self.client.ask(
            room_id or self.message["roomId"],
            prompt,
            kind=kind,
            audience=audience,
            options=options,
            fields=fields,
            thread_root_id=thread_root_id,
            expires_in_seconds=expires_in_seconds,
            on_expiry=on_expiry,
            client_msg_id=self.client._derived_id("msg", self.message["id"]),
        )

    async def set_status(
        self,
        state: WorkState,
        text: str = "",
        *,
        waiting_for: Optional[str] = None,
        ttl_sec: Optional[int] = None,
    ) -> WorkStatus:
        """The agent's work status (`SwitchboardClient.set_work_status`): kept alive by a heartbeat
        until changed, and set idle when the client closes."""
        return await self.client.set_work_status(
            state, text, waiting_for=waiting_for, ttl_sec=ttl_sec
        )

    async def report_tasks(
        self,
        tasks: Sequence[Mapping[str, Any]],
        *,
        complete: Optional[bool] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
    ) -> JSON:
        """Reports tasks (`SwitchboardClient.report_tasks`) for this message's room and thread; the
        whole list is the turn's plan too."""
        if complete is not False:
            self.activity.plan([{"title": t["title"], "status": _plan_status(t)} for t in tasks])
        return await self.client.report_tasks(
            tasks,
            complete=complete,
            session_id=session_id,
            binding_id=binding_id,
            **self._scope(binding_id, session_id),
        )

    async def report_files(
        self,
        files: Sequence[Mapping[str, Any]],
        *,
        task_key: Optional[str] = None,
        commit: Optional[str] = None,
        branch: Optional[str] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
    ) -> JSON:
        """Reports files (`SwitchboardClient.report_files`) for this message's room and thread;
        each is a step of the turn too."""
        for f in files:
            touched = f"{f['operation']} {f['path']}"
            self.activity.step(
                f"file:{f['operation']}:{f['path']}", "file", touched, status="done"
            )
        return await self.client.report_files(
            files,
            task_key=task_key,
            commit=commit,
            branch=branch,
            session_id=session_id,
            binding_id=binding_id,
            **self._scope(binding_id, session_id),
        )

    async def link_work(
        self,
        kind: WorkLinkKind,
        value: str,
        *,
        title: Optional[str] = None,
        task_key: Optional[str] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
    ) -> JSON:
        """Ties a branch, a commit or a pull request to the work on this message's conversation."""
        return await self.client.link_work(
            kind,
            value,
            title=title,
            task_key=task_key,
            session_id=session_id,
            binding_id=binding_id,
            **self._scope(binding_id, session_id),
        )

    def binding(
        self,
        runtime: str,
        *,
        lease_ms: Optional[int] = None,
        runner: Optional[str] = None,
        host: Optional[str] = None,
        workdir: Optional[str] = None,
        config: Optional[Mapping[str, Any]] = None,
    ) -> BindingTurn:
        """One turn on this conversation's runtime binding, as an `async with` block
        (`BindingTurn`)."""
        return BindingTurn(
            self.client,
            self.message,
            runtime,
            lease_ms=lease_ms,
            runner=runner,
            host=host,
            workdir=workdir,
            config=config,
            stopped=lambda: self.stopped,
        )

    def _scope(self, binding_id: Optional[str], session_id: Optional[str]) -> JSON:
        """The message's room and the thread its reply goes to, unless a binding or a session says
        where the work was."""
        if binding_id is not None or session_id is not None:
            return {}
        thread = (
            self.thread_root_id if self.message["kind"] == "text" else self.message["threadRootId"]
        )
        return {"room_id": self.message["roomId"], "thread_root_id": thread}


def _plan_status(task: Mapping[str, Any]) -> str:
    """A task's status as a plan item: pending, in_progress or completed (dropped: pending)."""
    status = task.get("status")
    return "pending" if status not in ("in_progress", "completed") else str(status)
