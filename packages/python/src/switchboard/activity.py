"""A turn's activity as its room watches it (docs/protocol.md, "Turns, watched live"): while the
handler answers a message, `ctx.activity` reports what it does (the plan, tool calls, notes, its
tokens) and people see it under that message. The TypeScript SDK's `TurnActivity`, with the same
steps: sent in order, a batch every 100 ms at most (50 steps a batch), and a report never fails the
handler (it is logged).
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence

from .types import JSON, StepKind, StepStatus, TurnOutcome

if TYPE_CHECKING:
    from .client import SwitchboardClient

log = logging.getLogger("switchboard")

#: What the server keeps of a step: a title of this many characters (one line), a detail of this
#: many.
STEP_TITLE_MAX = 200
STEP_DETAIL_MAX = 1000
#: At most one batch of steps per this many seconds, and at most this many steps in a batch.
FLUSH_SECONDS = 0.1
BATCH_MAX = 50
#: The fields a tool call's input is summarised by, the first one it has (a command, a path, ...).
_TELLING = (
    "command",
    "cmd",
    "file_path",
    "path",
    "pattern",
    "query",
    "url",
    "description",
    "prompt",
    "body",
    "text",
)


def one_line(text: str, limit: int = STEP_TITLE_MAX) -> str:
    """At most `limit` characters on one line (whitespace runs as one space), with an ellipsis when
    cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def clipped(text: str, limit: int = STEP_DETAIL_MAX, lines: int = 12) -> str:
    """At most `limit` characters and `lines` lines, with a note of how much was left out."""
    whole = text.replace("\r\n", "\n").rstrip()
    out = "\n".join(whole.split("\n")[:lines])[:limit]
    return (
        out
        if len(out) == len(whole)
        else f"{out.rstrip()}\n… ({len(whole) - len(out)} more characters)"
    )


def summarize_input(value: Any, limit: int = STEP_TITLE_MAX) -> str:
    """A tool call's input on one line: for a dict its most telling field (a command, a path, a
    query), else its JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return one_line(value, limit)
    if isinstance(value, Mapping):
        telling = next((k for k in _TELLING if isinstance(value.get(k), str)), None)
        if telling is not None:
            return one_line(value[telling], limit)
    return one_line(_json(value), limit)


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)


@contextmanager
def _never_raises(what: str) -> Iterator[None]:
    """A report that fails is logged: the handler's work goes on."""
    try:
        yield
    except Exception:
        log.warning("switchboard: could not report %s on the turn", what, exc_info=True)


class ActivityReporter:
    """What a handler reports of its turn (`ctx.activity`). Every method returns at once and never
    raises. This one reports nothing: outside a turn, or where the server does not show turns."""

    def step(
        self,
        key: str,
        kind: StepKind,
        title: str,
        *,
        detail: Optional[str] = None,
        status: Optional[StepStatus] = None,
        items: Optional[Sequence[Mapping[str, str]]] = None,
    ) -> None:
        """A step: new by its `key`, or an update of the step with that key. `kind` is "plan",
        "tool", "file" or "note"; `status` "running", "done" or "failed"."""

    def plan(self, items: Sequence[Mapping[str, str]]) -> None:
        """The plan or todo list as it stands now, the whole list: `[{"title", "status"}]`, status
        "pending" (the default), "in_progress" or "completed"."""

    def tool_started(self, key: str, name: str, input: Any = None) -> None:
        """A tool call began: its name, and its input summarised on one line (what looks like a
        secret is blanked by the server)."""

    def tool_ended(self, key: str, result: Any = None, failed: bool = False) -> None:
        """The tool call `key` ended: its result (a few lines are kept), or that it failed."""

    def note(self, text: str, key: Optional[str] = None) -> None:
        """A line of what the agent is doing or thinking."""

    def usage(
        self, input_tokens: int, output_tokens: int, cost_usd: Optional[float] = None
    ) -> None:
        """The model's tokens (and cost) so far in this turn: the whole amounts, not increments."""


#: The reporter of a message that is no turn.
NO_ACTIVITY = ActivityReporter()


class TurnActivity(ActivityReporter):
    """The activity of one open turn, sent to the server. Made inside the event loop; its methods
    may be called from any thread (a framework's callbacks often run in one)."""

    def __init__(self, client: "SwitchboardClient", turn_id: str) -> None:
        self._client = client
        #: The turn's id (`turns.forRoom` shows it; `turn:interrupt` names it).
        self.turn_id = turn_id
        self._loop = asyncio.get_running_loop()
        self._pending: Dict[str, JSON] = {}
        self._totals: Optional[JSON] = None
        self._usage_changed = False
        self._timer: Optional[asyncio.TimerHandle] = None
        #: The latest send: each waits for the one before, so steps arrive in the order reported.
        self._last: Optional["asyncio.Task[None]"] = None
        self._tools: Dict[str, str] = {}
        self._notes = 0

    def step(
        self,
        key: str,
        kind: StepKind,
        title: str,
        *,
        detail: Optional[str] = None,
        status: Optional[StepStatus] = None,
        items: Optional[Sequence[Mapping[str, str]]] = None,
    ) -> None:
        with _never_raises("a step"):
            # Cut to what the server accepts, so one long step does not cost the batch.
            step: JSON = {"key": key[:200], "kind": kind, "title": title[:10_000]}
            if detail is not None:
                step["detail"] = detail[:100_000]
            if status is not None:
                step["status"] = status
            if items is not None:
                step["items"] = [
                    {"title": str(i["title"])[:500], "status": i.get("status", "pending")}
                    for i in items[:100]
                ]
            self._in_loop(lambda: self._add(step))

    def plan(self, items: Sequence[Mapping[str, str]]) -> None:
        with _never_raises("the plan"):
            done = sum(1 for i in items if i.get("status") == "completed")
            title = f"Plan: {done} of {len(items)} done"
            self.step("plan", "plan", title, items=items, status="done")

    def tool_started(self, key: str, name: str, input: Any = None) -> None:
        with _never_raises("a tool call"):
            title = one_line(f"{name} {summarize_input(input)}")
            self._tools[key] = title
            self.step(f"tool:{key}", "tool", title, status="running")

    def tool_ended(self, key: str, result: Any = None, failed: bool = False) -> None:
        with _never_raises("a tool call's end"):
            detail = None if result is None else clipped(_json(result))
            title = self._tools.get(key, key)
            self.step(
                f"tool:{key}", "tool", title, detail=detail, status="failed" if failed else "done"
            )

    def note(self, text: str, key: Optional[str] = None) -> None:
        with _never_raises("a note"):
            if key is None:
                self._notes += 1
                key = f"note:{self._notes}"
            self.step(key, "note", one_line(text), detail=clipped(text), status="done")

    def usage(
        self, input_tokens: int, output_tokens: int, cost_usd: Optional[float] = None
    ) -> None:
        with _never_raises("the usage"):
            totals: JSON = {"inputTokens": int(input_tokens), "outputTokens": int(output_tokens)}
            if cost_usd is not None:
                totals["costUsd"] = float(cost_usd)
            self._in_loop(lambda: self._set_usage(totals))

    async def end(self, state: TurnOutcome, error: Optional[str] = None) -> None:
        """Ends the turn ("done", "failed" or "stopped") once what was reported is sent; a failure
        is logged."""
        self._flush()
        if self._last is not None:
            await asyncio.wait({self._last})
        try:
            await self._client.end_turn(
                self.turn_id,
                state,
                error=error[:2000] if error else None,
                usage=self._totals,
            )
        except Exception as failure:
            log.warning("switchboard: could not end the turn: %s", failure)

    # ---- in the event loop ----

    def _in_loop(self, change: Callable[[], None]) -> None:
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:  # another thread, with no loop
            here = False
        if here:
            change()
        else:
            self._loop.call_soon_threadsafe(change)

    def _add(self, step: JSON) -> None:
        # An update keeps the step's place among those waiting, and what it does not change.
        self._pending[step["key"]] = {**self._pending.get(step["key"], {}), **step}
        self._schedule()

    def _set_usage(self, totals: JSON) -> None:
        self._totals = totals
        self._usage_changed = True
        self._schedule()

    def _schedule(self) -> None:
        if len(self._pending) >= BATCH_MAX:
            self._flush()
        elif self._timer is None:
            self._timer = self._loop.call_later(FLUSH_SECONDS, self._flush)

    def _flush(self) -> None:
        """Sends what waits, in batches of BATCH_MAX, each after the one before."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._pending or self._usage_changed:
            keys = list(self._pending)[:BATCH_MAX]
            steps = [self._pending.pop(k) for k in keys]
            usage = self._totals if self._usage_changed else None
            self._usage_changed = False
            self._last = asyncio.ensure_future(self._send(self._last, steps, usage))

    async def _send(
        self, before: Optional["asyncio.Task[None]"], steps: List[JSON], usage: Optional[JSON]
    ) -> None:
        if before is not None:
            await asyncio.wait({before})
        try:
            await self._client.report_turn_steps(self.turn_id, steps, usage=usage)
        except Exception as error:
            log.warning("switchboard: could not report the turn's steps: %s", error)
