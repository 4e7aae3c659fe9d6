"""Errors: the server's error object as an exception; a handler's way to give a message back; a
turn stopped from its room."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class SwitchboardError(Exception):
    """A refusal by the server (its stable `code`, e.g. ROOM_NOT_FOUND), or the client's own
    (TIMEOUT, CLOSED, DISCONNECTED, APPROVAL_DECLINED)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        retryable: bool = False,
        retry_after_ms: Optional[int] = None,
        question_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retryable = retryable
        self.retry_after_ms = retry_after_ms
        #: APPROVAL_REQUIRED / APPROVAL_DECLINED: the question that asked the agent's owner.
        self.question_id = question_id

    @classmethod
    def from_shape(cls, shape: Mapping[str, Any]) -> "SwitchboardError":
        """From the `{ code, message, retryable, retryAfterMs?, questionId? }` of an ack or a
        refusal."""
        return cls(
            str(shape.get("code", "INTERNAL")),
            str(shape.get("message", "")),
            retryable=bool(shape.get("retryable", False)),
            retry_after_ms=shape.get("retryAfterMs"),
            question_id=shape.get("questionId"),
        )


class MessageAbandoned(Exception):
    """Raised by a handler that gives up on a message because the agent is closing: the message is
    not acknowledged (no final receipt, the cursor stays), so the next run handles it again. Raised
    at any other time, it fails the message like any error."""

    def __init__(
        self, message: str = "Abandoned as the agent stops; handled again by its next run"
    ) -> None:
        super().__init__(message)


class TurnStopped(Exception):
    """A person stopped the turn from its room: the handler was cancelled, and the message's
    receipt fails with this ("stopped by @dana"), as the TypeScript SDK's does."""

    def __init__(self, by: Mapping[str, str]) -> None:
        super().__init__(f"stopped by @{by.get('handle', '')}")
        #: Who stopped it: `{ "id", "handle" }`.
        self.by = dict(by)
