"""Asking people and waiting for their answers (docs/protocol.md, "Asking a person").

`ask()` posts a question and waits here until it is answered, expires or is cancelled. The answer
comes as `question:updated` (volatile); after a reconnect every open wait is checked again with
`question:get`, so nothing decided while the agent was away is missed. An agent that crashed while
waiting asks again with the same clientMsgId (handlers derive it) and is answered at once with what
was decided meanwhile.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, List, Mapping, Optional, Sequence, Set, Union

from .errors import SwitchboardError
from .types import JSON, Person, Question, QuestionKind
from .wire import camel_keys


@dataclass(frozen=True)
class QuestionOutcome:
    """How a question ended."""

    status: str
    """"answered", "expired" or "cancelled"."""
    answer: Optional[JSON]
    """The answer, or the expiry decision (an approval declines by default); None: cancelled."""
    answered_by: Optional[Person]
    question: Question

    @property
    def approved(self) -> bool:
        """An approval that was answered yes."""
        return self.status == "answered" and bool(
            self.answer and self.answer.get("approved") is True
        )


def outcome_of(question: Question) -> Optional[QuestionOutcome]:
    if question["status"] == "open":
        return None
    return QuestionOutcome(
        question["status"], question["answer"], question["answeredBy"], question
    )


Audience = Union[str, Mapping[str, Any]]
"""Who answers: "owner" (the agent's owner), "room" (any person in the room), "admins", "@handle"
or a participant id, or the protocol's own `{"type": ...}` object."""


def audience_of(who: Audience) -> JSON:
    """The protocol's audience object for `who` (the MCP tool `ask_human` reads `ask` the same
    way)."""
    if not isinstance(who, str):
        return dict(who)
    if who == "owner":
        return {"type": "owner"}
    if who == "room":
        return {"type": "room"}
    if who == "admins":
        return {"type": "role", "role": "admin"}
    return {"type": "person", "participant": who}


def question_payload(
    prompt: str,
    kind: QuestionKind,
    audience: Audience,
    *,
    options: Optional[Sequence[Union[str, Mapping[str, Any]]]] = None,
    fields: Optional[Sequence[Mapping[str, Any]]] = None,
    thread_root_id: Optional[str] = None,
    expires_in_seconds: Optional[int] = None,
    on_expiry: Optional[Mapping[str, Any]] = None,
) -> JSON:
    """`question:ask`'s payload but the room and the clientMsgId. Options may be plain labels."""
    payload: JSON = {"prompt": prompt, "kind": kind, "audience": audience_of(audience)}
    if options is not None:
        payload["options"] = [
            {"value": o, "label": o} if isinstance(o, str) else dict(o) for o in options
        ]
    if fields is not None:
        payload["fields"] = [camel_keys(f) for f in fields]
    if thread_root_id is not None:
        payload["threadRootId"] = thread_root_id
    if expires_in_seconds is not None:
        payload["expiresInSeconds"] = expires_in_seconds
    if on_expiry is not None:
        payload["onExpiry"] = dict(on_expiry)
    return payload


class AnswerWaiters:
    """The `ask()` calls waiting for people, by question id."""

    def __init__(self, get: Callable[[str], Awaitable[Question]]) -> None:
        #: Reads a question's current state (`question:get`).
        self._get = get
        self._waiting: Dict[str, List["asyncio.Future[QuestionOutcome]"]] = {}
        self._checks: Set["asyncio.Task[None]"] = set()

    async def wait(self, question_id: str) -> QuestionOutcome:
        """Returns once the question is decided, whenever that is (it may already be)."""
        waiter: asyncio.Future[QuestionOutcome] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(question_id, []).append(waiter)
        self._check_soon(question_id)
        return await waiter

    def updated(self, question: Question) -> None:
        """A `question:updated` event (or a `question:get`): settles its waiters once decided."""
        outcome = outcome_of(question)
        if outcome is None:
            return
        for waiter in self._waiting.pop(question["id"], []):
            if not waiter.done():
                waiter.set_result(outcome)

    def recheck(self) -> None:
        """After a (re)connect: what was decided while no event could reach us."""
        for question_id in list(self._waiting):
            self._check_soon(question_id)

    def abort(self, error: BaseException) -> None:
        """Fails every wait (the client was closed or refused for good)."""
        waiting, self._waiting = self._waiting, {}
        for waiters in waiting.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_exception(error)
        for check in self._checks:
            check.cancel()

    def _check_soon(self, question_id: str) -> None:
        task = asyncio.ensure_future(self._check(question_id))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _check(self, question_id: str) -> None:
        try:
            self.updated(await self._get(question_id))
        except SwitchboardError as error:
            # A question we may no longer see fails its waiters; anything else waits for the next
            # event.
            if error.code == "NOT_FOUND":
                for waiter in self._waiting.pop(question_id, []):
                    if not waiter.done():
                        waiter.set_exception(error)
