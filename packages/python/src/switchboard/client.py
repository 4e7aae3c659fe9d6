"""The Switchboard agent client: connect with an API key, receive each message of your rooms
exactly once and in order (per room), send with safe retries, and report what you did with a
message.

    client = SwitchboardClient(url, api_key, cursors=FileCursorStore("cursors.json"))

    async def handle(message, ctx):
        if ctx.addressed and message["kind"] == "text":
            await ctx.reply("pong")

    client.on_message(handle)
    await client.connect()

How "exactly once, in order" holds: every message carries its room's seq. The client keeps a cursor
per room (the last seq its handler finished) in a CursorStore, and a room's messages go through one
queue: anything at or below the cursor is a duplicate and is dropped; a jump past the next seq is a
gap, filled with `room:sync` before going on. The server's own cursor (moved by `delivery:ack`)
lets an agent with no local state resume where the server saw it stop. This is the TypeScript SDK's
`client.ts`, for asyncio and python-socketio's AsyncClient: the same events, ids and receipts.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import uuid
from typing import (
    Any,
    Awaitable,
    Callable,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
    cast,
)

import aiohttp
import socketio
from socketio.exceptions import BadNamespaceError

from . import tools
from .asking import AnswerWaiters, Audience, QuestionOutcome, question_payload
from .context import MessageContext
from .cursors import CursorStore, MemoryCursorStore
from .errors import MessageAbandoned, SwitchboardError, TurnStopped
from .pacing import RequestPacer
from .types import (
    JSON,
    Binding,
    DeliveryMode,
    Membership,
    Message,
    Participant,
    Question,
    QuestionKind,
    ReceiptState,
    ReplayPage,
    Room,
    SyncPage,
    Turn,
    TurnOutcome,
    Usage,
    WorkLinkKind,
    WorkState,
    WorkStatus,
)
from .wire import camel, camel_keys, payload

PROTOCOL_VERSION = 1
SOCKET_PATH = "/socket.io"
#: How long a work status holds without a heartbeat, unless the report says otherwise.
DEFAULT_STATUS_TTL_SEC = 120

MessageHandler = Callable[[Message, MessageContext], Awaitable[Any]]
"""`async def handler(message, ctx)`; a plain function works too."""

log = logging.getLogger("switchboard")

#: Requests that may be sent again after a timeout or a lost connection: a repeat changes nothing
#: more (reads, a send with its clientMsgId, a report with its reportId, setting a value). The
#: others are repeated only after a refusal that says nothing was done (RATE_LIMITED).
IDEMPOTENT = frozenset(
    [
        "message:send",
        "message:edit",
        "message:delete",
        "room:sync",
        "room:read",
        "room:list",
        "room:browse",
        "room:mode",
        "room:join",
        "room:invite",
        "room:dm",
        "delivery:ack",
        "message:receipt",
        "directory:search",
        "connection:list",
        "me:status",
        "work:status",
        "work:tasks",
        "work:link",
        "usage:report",
        "question:ask",
        "question:get",
        "binding:claim",
        "binding:get",
        "binding:list",
        "binding:close",
        "question:list",
        "turn:start",
        "turn:steps",
        "turn:end",
    ]
)


#: How a connection attempt ended: None, a session; else why not.
_Outcome = Optional[SwitchboardError]


class _NoAnswer(Exception):
    """No ack: it timed out, or the connection dropped while waiting. It may have been applied."""


class _NotSent(Exception):
    """The socket was not connected when the request was to go out: nothing was sent."""


class SwitchboardClient:
    def __init__(
        self,
        url: str,
        api_key: str,
        *,
        cursors: Optional[CursorStore] = None,
        include_own: bool = False,
        auto_receipts: bool = True,
        request_timeout: float = 10.0,
        send_attempts: int = 8,
        reconnect_delay: Tuple[float, float] = (0.25, 10.0),
        wait_for_approval: bool = True,
        connect_timeout: float = 20.0,
    ) -> None:
        """
        :param url: the server's base URL, e.g. http://127.0.0.1:3000
        :param api_key: the agent's key (`sb_...`)
        :param cursors: where cursors are kept; default memory (resume from the server's cursor
            after a restart)
        :param include_own: hand the agent's own messages to handlers too (they move the cursor
            either way)
        :param auto_receipts: report processing / processed / failed around the handlers for
            messages addressed to the agent
        :param request_timeout: seconds to wait for one attempt's ack
        :param send_attempts: attempts for a send (and a usage report, a question) before it fails
        :param reconnect_delay: the first and the longest wait between connection attempts, in
            seconds (doubled each attempt, with jitter)
        :param wait_for_approval: when the owner must approve an action (opening a DM, inviting,
            asking to connect, spending past the day's limit), wait for them inside the call, then
            go through or fail with APPROVAL_DECLINED; False: fail at once with APPROVAL_REQUIRED
        :param connect_timeout: seconds one connection attempt waits for `session:ready`
        """
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.cursors: CursorStore = cursors if cursors is not None else MemoryCursorStore()
        self.include_own = include_own
        self.auto_receipts = auto_receipts
        self.request_timeout = request_timeout
        self.send_attempts = send_attempts
        self.reconnect_delay = reconnect_delay
        self.wait_for_approval = wait_for_approval
        self.connect_timeout = connect_timeout
        #: This process, as the holder of the runtime bindings its turns claim (for its life).
        self.holder = str(uuid.uuid4())
        #: The agent, once connected.
        self.me: Optional[Participant] = None

        self._handlers: List[MessageHandler] = []
        self._listeners: Dict[str, List[Callable[..., Any]]] = {}
        self._rooms: Dict[str, Membership] = {}
        self._queues: Dict[
            str, "asyncio.Queue[Tuple[Callable[[], Awaitable[bool]], asyncio.Future[bool]]]"
        ] = {}
        self._workers: Dict[str, "asyncio.Task[None]"] = {}
        self._ack_timers: Dict[str, asyncio.TimerHandle] = {}
        #: The messages handlers work on, and how many ids each has handed out (`_derived_id`).
        self._handling: Dict[str, int] = {}
        #: Receipts and acks still being sent; close() waits for them.
        self._background: Set["asyncio.Future[Any]"] = set()
        self._pending: Set["asyncio.Future[Any]"] = set()
        self._state_waiters: List["asyncio.Future[None]"] = []
        self._pacer = RequestPacer()
        self._answers = AnswerWaiters(self.get_question)
        self._heartbeat: Optional["asyncio.Task[None]"] = None
        #: The work status this client last set (state, text).
        self.work_status: Optional[Tuple[str, str]] = None
        self._supervisor: Optional["asyncio.Task[None]"] = None
        self._closing: Optional["asyncio.Task[None]"] = None
        self._started: Optional["asyncio.Future[Participant]"] = None
        self._attempt: Optional["asyncio.Future[_Outcome]"] = None
        self._dropped: Optional[asyncio.Event] = None
        #: Set when closed, or refused for good: no transport will come again.
        self._ended: Optional[asyncio.Event] = None
        #: Counts sessions: an ack belongs to the connection that asked for it.
        self._generation = 0
        self._live = False
        self._stopping = False
        self._closed = False
        self._fatal: Optional[SwitchboardError] = None

        # Each event's handler starts in a task of its own, in arrival order, and runs up to its
        # first await before the next one starts: the handlers below put work on the room's queue
        # before awaiting anything, so a room's events are handled in the order they came.
        self._sio = socketio.AsyncClient(reconnection=False, handle_sigint=False)
        self._sio.on("session:ready", self._on_ready)
        self._sio.on("room:replay", self._on_replay)
        self._sio.on("message:new", self._on_new)
        self._sio.on("message:batch", self._on_batch)
        self._sio.on("room:added", self._on_room_added)
        self._sio.on("room:removed", self._on_room_removed)
        self._sio.on("question:updated", self._on_question_updated)
        self._sio.on("connect_error", self._on_connect_error)
        self._sio.on("disconnect", self._on_disconnect)
        self._sio.on("error", self._on_error)

    # ---- registration ----

    @staticmethod
    async def register(
        url: str,
        onboarding_token: str,
        handle: str,
        display_name: str,
        *,
        description: Optional[str] = None,
        framework: Optional[str] = None,
        capabilities: Optional[Sequence[str]] = None,
    ) -> JSON:
        """Registers an agent with a person's onboarding token: `{ apiKey, agent, workspaceId, room
        }` (the key is shown only here)."""
        body = payload(
            onboarding_token=onboarding_token,
            handle=handle,
            display_name=display_name,
            description=description,
            framework=framework,
            capabilities=list(capabilities) if capabilities is not None else None,
        )
        async with aiohttp.ClientSession() as http:
            async with http.post(
                f"{url.rstrip('/')}/api/v1/agents/register", json=body
            ) as response:
                answer = await response.json(content_type=None)
        if not answer.get("ok"):
            raise SwitchboardError.from_shape(answer.get("error") or {})
        return cast(JSON, answer["data"])

    def on_message(self, handler: MessageHandler) -> "SwitchboardClient":
        """Adds a message handler: `async def handler(message, ctx)`. Raising marks the message
        failed."""
        self._handlers.append(handler)
        return self

    def on(self, event: str, listener: Callable[..., Any]) -> "SwitchboardClient":
        """Listens to any other server event (`room:added`, `message:receipt`, `presence:update`,
        ...); the listener gets the event's payload, and may be a coroutine function."""
        if event not in self._listeners and event not in _OWN_EVENTS:
            self._sio.on(event, lambda *args: self._tell(event, *args))
        self._listeners.setdefault(event, []).append(listener)
        return self

    @property
    def connected(self) -> bool:
        """A session is open (between `session:ready` and a disconnect)."""
        return self._live

    # ---- connecting ----

    async def connect(self) -> Participant:
        """Connects and returns the agent once the first session is ready; reconnects by itself,
        with backoff, until `close()`. A final refusal (bad key, suspended) raises
        SwitchboardError."""
        if self._closed:
            raise SwitchboardError("CLOSED", "The client was closed")
        if self._started is None:
            loop = asyncio.get_running_loop()
            self._started = loop.create_future()
            self._dropped = asyncio.Event()
            self._ended = asyncio.Event()
            self._supervisor = asyncio.ensure_future(self._stay_connected())
        return await asyncio.shield(self._started)

    async def wait_closed(self) -> None:
        """Returns when `close()` is done; raises the final refusal if the server refused the agent
        for good (suspended, key revoked) instead."""
        if self._ended is None:
            raise SwitchboardError("NOT_CONNECTED", "connect() first")
        await self._ended.wait()
        if self._fatal is not None and not self._closed:
            raise self._fatal

    async def _stay_connected(self) -> None:
        """Connects, and again after every drop, waiting longer after each failed attempt."""
        failures = 0
        while not self._closed:
            refusal = await self._connect_once()
            if refusal is None:
                failures = 0
                assert self._dropped is not None
                await self._dropped.wait()
                if self._closed:
                    return
            elif not refusal.retryable:
                self._fail(refusal)
                return
            else:
                log.info("switchboard: connection attempt failed: %s", refusal)
            failures += 1
            await asyncio.sleep(self._backoff(failures))

    async def _connect_once(self) -> _Outcome:
        """One attempt: None once the session is ready, else why not (retryable or final)."""
        assert self._dropped is not None
        self._dropped.clear()
        attempt: "asyncio.Future[_Outcome]" = asyncio.get_running_loop().create_future()
        self._attempt = attempt
        try:
            await self._sio.connect(
                self.url,
                auth={
                    "apiKey": self.api_key,
                    "protocol": PROTOCOL_VERSION,
                    "features": ["message:batch"],
                },
                transports=["websocket"],
                socketio_path=SOCKET_PATH,
                wait=False,  # the session (or the refusal) is awaited below, as long as we choose
            )
        except Exception as error:  # the transport did not open: the server is down or unreachable
            if attempt.done() and attempt.result() is not None:
                return attempt.result()
            return SwitchboardError(
                "UNAVAILABLE", f"Could not reach {self.url}: {error}", retryable=True
            )
        try:
            outcome = await asyncio.wait_for(asyncio.shield(attempt), self.connect_timeout)
        except asyncio.TimeoutError:
            outcome = SwitchboardError(
                "TIMEOUT", f"No session within {self.connect_timeout} s", retryable=True
            )
        if outcome is not None:
            await self._drop_transport()
        return outcome

    async def _drop_transport(self) -> None:
        try:
            await self._sio.disconnect()
        except Exception:  # already closed
            pass

    def _settle_attempt(self, outcome: _Outcome) -> None:
        if self._attempt is not None and not self._attempt.done():
            self._attempt.set_result(outcome)

    def _on_ready(self, session: JSON) -> None:
        self.me = cast(Participant, session["participant"])
        self._rooms = {m["room"]["id"]: cast(Membership, m) for m in session["rooms"]}
        self._generation += 1
        self._live = True
        self._fatal = None
        self._settle_attempt(None)
        if self._started is not None and not self._started.done():
            self._started.set_result(self.me)
        self._answers.recheck()
        self._notify_state()
        self._tell("session:ready", session)

    def _on_connect_error(self, *args: Any) -> None:
        data = args[0] if args else None
        # The server's refusal is `{ message, data: { code, message, retryable } }`; a transport's,
        # a string.
        shape = (
            data.get("data")
            if isinstance(data, dict) and isinstance(data.get("data"), dict)
            else data
        )
        if isinstance(shape, dict) and "code" in shape:
            self._settle_attempt(SwitchboardError.from_shape(shape))
        else:
            self._settle_attempt(SwitchboardError("UNAVAILABLE", str(data), retryable=True))

    def _on_disconnect(self, *args: Any) -> None:
        self._live = False
        self._settle_attempt(
            SwitchboardError("DISCONNECTED", "The connection closed", retryable=True)
        )
        # Nothing will answer what is awaiting an ack on this connection.
        for answer in list(self._pending):
            if not answer.done():
                answer.set_exception(_NoAnswer("the connection closed before the answer came"))
        if self._dropped is not None:
            self._dropped.set()
        self._tell("disconnect", *args)

    def _on_error(self, error: Any) -> None:
        log.warning("switchboard: the server reported an error: %s", error)
        self._tell("error", error)

    def _fail(self, error: SwitchboardError) -> None:
        """A final refusal: remembered; every request waiting for a connection fails with it."""
        self._fatal = error
        if self._started is not None and not self._started.done():
            self._started.set_exception(error)
            self._started.exception()  # retrieved: connect() may never be awaited again
        self._answers.abort(error)
        self._notify_state()
        if self._ended is not None:
            self._ended.set()

    def _notify_state(self) -> None:
        waiters, self._state_waiters = self._state_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _state_change(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._state_waiters.append(waiter)
        await waiter

    async def _wait_connected(self) -> None:
        while True:
            if self._closed:
                raise SwitchboardError("CLOSED", "The client was closed")
            if self._fatal is not None:
                raise self._fatal
            if self._live:
                return
            if self._started is None:
                raise SwitchboardError("NOT_CONNECTED", "connect() first")
            await self._state_change()

    def _backoff(self, attempt: int) -> float:
        low, high = self.reconnect_delay
        base = min(high, low * float(2 ** (attempt - 1)))
        # Jitter: a fleet of agents does not reconnect in lockstep.
        return base / 2 + random.random() * base / 2

    # ---- receiving ----

    def _on_new(self, event: JSON) -> None:
        message = cast(Message, event["message"])
        self._enqueue(event["roomId"], lambda: self._handle_live(message))
        self._tell("message:new", event)

    def _on_batch(self, event: JSON) -> None:
        messages = cast(List[Message], event["messages"])

        async def handle_all() -> bool:
            for message in messages:
                await self._handle_live(message)
            return True

        self._enqueue(event["roomId"], handle_all)
        self._tell("message:batch", event)

    async def _on_replay(self, page: ReplayPage) -> Optional[JSON]:
        generation = self._generation
        done = self._enqueue(page["roomId"], lambda: self._handle_replay(page))
        self._tell("room:replay", page)
        complete = await asyncio.shield(done)
        if complete and generation == self._generation and self._live:
            # The ack: the server moves our delivered cursor and sends the next page.
            return {"ok": True}
        # python-socketio sends whatever this returns as the ack, on the connection open now: one
        # that came since has pages of its own under the same ack ids, and a page left unhandled
        # (closing) must not be acknowledged at all. So answer only once the transport is gone,
        # where it is dropped; the server sends the page again on the next connection.
        assert self._ended is not None
        await self._ended.wait()
        return None

    def _on_room_added(self, event: JSON) -> None:
        room = cast(Room, event["room"])
        if room["id"] not in self._rooms:
            self._rooms[room["id"]] = {
                "room": room,
                "deliveryMode": "mentions",
                "deliveredSeq": 0,
                "readSeq": 0,
                "processedSeq": 0,
            }
            self._track(asyncio.ensure_future(self._refresh_rooms()))
        self._tell("room:added", event)

    def _on_room_removed(self, event: JSON) -> None:
        self._rooms.pop(event["roomId"], None)
        self._tell("room:removed", event)

    def _on_question_updated(self, event: JSON) -> None:
        self._answers.updated(cast(Question, event["question"]))
        self._tell("question:updated", event)

    def _tell(self, event: str, *args: Any) -> None:
        for listener in self._listeners.get(event, []):
            try:
                result = listener(*args)
                if inspect.isawaitable(result):
                    self._track(asyncio.ensure_future(result))
            except Exception:
                log.exception("switchboard: a listener of %s failed", event)

    def _cursor(self, room_id: str) -> int:
        cursor = self.cursors.get(room_id)
        if cursor is not None:
            return cursor
        membership = self._rooms.get(room_id)
        return membership["deliveredSeq"] if membership else 0

    def _enqueue(
        self, room_id: str, work: Callable[[], Awaitable[bool]]
    ) -> "asyncio.Future[bool]":
        """Runs room work one at a time, in arrival order; the future says whether it ran to its
        end."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(room_id)
        if queue is None:
            queue = self._queues[room_id] = asyncio.Queue()
            self._workers[room_id] = asyncio.ensure_future(self._work_room(room_id, queue))
        queue.put_nowait((work, done))
        return done

    async def _work_room(
        self,
        room_id: str,
        queue: "asyncio.Queue[Tuple[Callable[[], Awaitable[bool]], asyncio.Future[bool]]]",
    ) -> None:
        while True:
            work, done = await queue.get()
            try:
                ran = await work()
                if not done.done():
                    done.set_result(ran and not self._stopping)
            except asyncio.CancelledError:
                if not done.done():
                    done.set_result(False)
                raise
            except Exception:
                log.exception("switchboard: room %s", room_id)
                if not done.done():
                    done.set_result(False)
            finally:
                queue.task_done()

    async def _handle_replay(self, page: ReplayPage) -> bool:
        for message in page["messages"]:
            await self._deliver(message, replayed=True)
        self._advance(page["roomId"], page["throughSeq"])
        return True

    async def _handle_live(self, message: Message) -> bool:
        room_id = message["roomId"]
        cursor = self._cursor(room_id)
        if message["seq"] <= cursor:
            return True
        membership = self._rooms.get(room_id)
        mode = membership["deliveryMode"] if membership else "mentions"
        if message["seq"] == cursor + 1 and mode == "all":
            await self._deliver(message, replayed=False)
            return True
        # A gap: something between our cursor and this message may be ours. Fill it in order.
        await self._catch_up(room_id)
        if message["seq"] > self._cursor(room_id):
            await self._deliver(message, replayed=False)
        return True

    async def _catch_up(self, room_id: str) -> None:
        """Fetches, in order, what the delivery mode selects after our cursor."""
        while True:
            page = await self.sync(room_id, self._cursor(room_id), limit=500, selected=True)
            for message in page["messages"]:
                await self._deliver(message, replayed=False)
            self._advance(room_id, page["lastSeq"])
            if not page["hasMore"] or self._stopping:
                return

    async def _deliver(self, message: Message, replayed: bool) -> None:
        room_id = message["roomId"]
        if message["seq"] <= self._cursor(room_id):
            return
        if self._stopping:
            return  # closing: what was not started is left unacknowledged, for the next run
        own = self.me is not None and message["author"]["id"] == self.me["id"]
        if not own or self.include_own:
            membership = self._rooms.get(room_id)
            # In `mentions` mode the server sends only what is addressed to the agent; in `all`
            # mode, a mention, or any message in a dm or group, is.
            addressed = self.me is not None and (
                (membership is not None and membership["deliveryMode"] == "mentions")
                or self.me["id"] in message["mentions"]
                or (membership is not None and membership["room"]["kind"] != "channel")
            )
            receipts = self.auto_receipts and addressed and not own and message["kind"] == "text"
            # The final receipt waits for "processing" to be stored, so the last state is the one
            # that stays.
            processing = (
                asyncio.ensure_future(self._receipt(message, "processing")) if receipts else None
            )
            if processing is not None:
                self._track(processing)
            ctx = MessageContext(self, message, membership, addressed, replayed)
            self._handling[message["id"]] = 0
            try:
                for handler in self._handlers:
                    result = handler(message, ctx)
                    if inspect.isawaitable(result):
                        await result
                if processing is not None:
                    self._track(
                        asyncio.ensure_future(
                            self._final_receipt(processing, message, "processed")
                        )
                    )
            except Exception as error:
                if isinstance(error, MessageAbandoned) and self._stopping:
                    return  # given up on as the client closes: the next run handles it again
                if isinstance(error, TurnStopped):  # said in the receipt, not an error here
                    log.info("switchboard: message %s: %s", message["id"], error)
                else:
                    log.exception(
                        "switchboard: a message handler failed on message %s", message["id"]
                    )
                self._failed(message, processing, str(error) or type(error).__name__)
            finally:
                self._handling.pop(message["id"], None)
        self._advance(room_id, message["seq"], handled=True)

    def _failed(
        self, message: Message, processing: Optional["asyncio.Future[None]"], reason: str
    ) -> None:
        if processing is not None:
            self._track(
                asyncio.ensure_future(self._final_receipt(processing, message, "failed", reason))
            )

    def _derived_id(self, kind: Literal["msg", "usage"], message_id: str) -> str:
        """The n-th id handed out while `message_id` is being handled: `kind:messageId:n`, exactly
        as the TypeScript SDK makes it. The same handler, sending in the same order, gets the same
        ids when the message is handled again (after a crash, the server replays what the agent had
        not acked), so its sends are answered with what was stored the first time. Random outside a
        handler."""
        n = self._handling.get(message_id)
        if n is None:
            return str(uuid.uuid4())
        self._handling[message_id] = n + 1
        return f"{kind}:{message_id}:{n}"

    def _advance(self, room_id: str, seq: int, handled: bool = False) -> None:
        """Our cursor moves and is persisted; the server's follows shortly (batched). While
        closing, only past a message that was handled: a page's cursor does not skip what was left
        unhandled."""
        if self._stopping and not handled:
            return
        current = self.cursors.get(room_id)
        if current is not None and seq <= current:
            return
        self.cursors.set(room_id, seq)
        self.cursors.flush()
        if room_id not in self._ack_timers:
            loop = asyncio.get_running_loop()
            self._ack_timers[room_id] = loop.call_later(0.1, self._ack_later, room_id)

    def _ack_later(self, room_id: str) -> None:
        self._ack_timers.pop(room_id, None)
        self._track(asyncio.ensure_future(self._flush_ack(room_id)))

    async def _flush_ack(self, room_id: str) -> None:
        """Tells the server the room's cursor and waits for its answer, so that close() (which
        waits for these) does not drop an ack still on its way: a restart with no local state
        would see those messages again."""
        seq = self.cursors.get(room_id)
        if seq is None or not self._live:
            return  # the next session replays from the server's cursor; ours skips what is done
        try:
            await self._emit_with_ack(
                "delivery:ack", {"roomId": room_id, "seq": seq}, self.request_timeout
            )
        except Exception as error:
            log.info("switchboard: delivery ack for room %s not answered: %s", room_id, error)

    def _track(self, work: "asyncio.Future[Any]") -> None:
        self._background.add(work)
        work.add_done_callback(self._background.discard)

    async def _receipt(
        self, message: Message, state: ReceiptState, reason: Optional[str] = None
    ) -> None:
        """Reports a receipt; returns when stored (or given up on), never raises."""
        body = payload(
            message_id=message["id"],
            state=state,
            reason=reason[:500] if reason is not None else None,
        )
        try:
            await self.request("message:receipt", body, 3)
        except Exception as error:
            log.info(
                "switchboard: receipt %s for message %s not stored: %s",
                state,
                message["id"],
                error,
            )

    async def _final_receipt(
        self,
        processing: "asyncio.Future[None]",
        message: Message,
        state: ReceiptState,
        reason: Optional[str] = None,
    ) -> None:
        await processing
        await self._receipt(message, state, reason)

    # ---- messages ----

    async def send(
        self,
        room_id: str,
        body: str,
        *,
        thread_root_id: Optional[str] = None,
        client_msg_id: Optional[str] = None,
        cause_id: Optional[str] = None,
    ) -> Message:
        """Sends a message; retries (with the same clientMsgId, so never twice) until acked or a
        final error. `cause_id`: the message this one answers (see `MessageContext.send`)."""
        fields = payload(
            room_id=room_id,
            body=body,
            client_msg_id=client_msg_id or str(uuid.uuid4()),
            thread_root_id=thread_root_id,
            cause_id=cause_id,
        )
        return cast(Message, await self.request("message:send", fields, self.send_attempts))

    async def reply(self, message: Message, body: str) -> Message:
        """Replies in the message's thread (or the thread it belongs to). While a handler works on
        `message`, the reply's clientMsgId is derived from it, so a message handled again after a
        crash is not answered twice."""
        return await self.send(
            message["roomId"],
            body,
            thread_root_id=message["threadRootId"] or message["id"],
            client_msg_id=self._derived_id("msg", message["id"]),
            cause_id=message["id"],
        )

    async def edit(self, message_id: str, body: str) -> Message:
        return cast(
            Message, await self.request("message:edit", {"messageId": message_id, "body": body})
        )

    async def delete(self, message_id: str) -> Message:
        return cast(Message, await self.request("message:delete", {"messageId": message_id}))

    async def sync(
        self,
        room_id: str,
        after_seq: int,
        *,
        limit: Optional[int] = None,
        selected: Optional[bool] = None,
    ) -> SyncPage:
        """The room's messages after `after_seq`, in seq order (`selected`: only what the delivery
        mode selects)."""
        body = payload(room_id=room_id, after_seq=after_seq, limit=limit, selected=selected)
        return cast(SyncPage, await self.request("room:sync", body))

    async def processing(self, message: Message) -> JSON:
        return cast(
            JSON,
            await self.request(
                "message:receipt", {"messageId": message["id"], "state": "processing"}
            ),
        )

    async def processed(self, message: Message) -> JSON:
        return cast(
            JSON,
            await self.request(
                "message:receipt", {"messageId": message["id"], "state": "processed"}
            ),
        )

    async def failed(self, message: Message, reason: str) -> JSON:
        body = {"messageId": message["id"], "state": "failed", "reason": reason[:500]}
        return cast(JSON, await self.request("message:receipt", body))

    # ---- rooms ----

    async def _refresh_rooms(self) -> None:
        try:
            for membership in await self.request("room:list", {}):
                self._rooms[membership["room"]["id"]] = membership
        except SwitchboardError:
            pass  # the next session:ready refreshes them

    async def list_rooms(self) -> List[Membership]:
        """The rooms the agent is in, with its delivery mode and cursors, fresh from the server."""
        await self._refresh_rooms()
        return list(self._rooms.values())

    def membership(self, room_id: str) -> Optional[Membership]:
        """The room as the agent is a member of it, as last known."""
        return self._rooms.get(room_id)

    async def set_delivery_mode(self, room_id: str, mode: DeliveryMode) -> Membership:
        view = cast(Membership, await self.request("room:mode", {"roomId": room_id, "mode": mode}))
        self._rooms[room_id] = view
        return view

    async def browse_channels(self) -> List[JSON]:
        """The workspace's public channels, joined or not: `{ id, name, topic, memberCount, joined
        }`."""
        return cast(List[JSON], await self.request("room:browse", {}))

    async def join_room(self, room_id: str) -> Room:
        """Joins a public channel, by id or as `#name`; the agent then receives it as its delivery
        mode (`mentions`) selects."""
        room = cast(Room, await self.request("room:join", {"roomId": room_id}))
        await self._refresh_rooms()
        return room

    async def leave_room(self, room_id: str) -> None:
        """Leaves a channel or group."""
        await self.request("room:leave", {"roomId": room_id})
        self._rooms.pop(room_id, None)

    async def create_room(
        self,
        name: str,
        *,
        visibility: Literal["public", "private"] = "private",
        topic: Optional[str] = None,
        member_ids: Optional[Sequence[str]] = None,
    ) -> Room:
        """Creates a channel (private unless said) with the given members."""
        body = payload(name=name, visibility=visibility, topic=topic, member_ids=_list(member_ids))
        return cast(Room, await self.request("room:create", body))

    async def invite(self, room_id: str, participant_ids: Sequence[str]) -> Room:
        return cast(
            Room,
            await self.request(
                "room:invite", {"roomId": room_id, "participantIds": list(participant_ids)}
            ),
        )

    async def open_direct(self, participant_ids: Sequence[str]) -> Room:
        """Opens (or finds) the direct conversation with these participants."""
        return cast(Room, await self.request("room:dm", {"participantIds": list(participant_ids)}))

    # ---- discovery and consent ----

    async def find_participants(
        self,
        *,
        text: Optional[str] = None,
        capability: Optional[str] = None,
        kind: Optional[Literal["human", "agent"]] = None,
        owner_id: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> List[JSON]:
        """Searches the workspace's people and agents by text, capability, kind or owner."""
        body = payload(text=text, capability=capability, kind=kind, owner_id=owner_id, limit=limit)
        return cast(List[JSON], await self.request("directory:search", body))

    async def request_connection(
        self,
        participant_id: str,
        *,
        message: Optional[str] = None,
        room_ids: Optional[Sequence[str]] = None,
        purposes: Optional[Sequence[str]] = None,
        expires_in_days: Optional[int] = None,
    ) -> JSON:
        """Asks to connect; the addressee (or, for an agent, its owner or policy) decides."""
        scope = payload(room_ids=_list(room_ids), purposes=_list(purposes)) or None
        body = payload(
            participant_id=participant_id,
            message=message,
            scope=scope,
            expires_in_days=expires_in_days,
        )
        return cast(JSON, await self.request("connection:request", body))

    async def respond_to_connection(
        self, connection_id: str, decision: Literal["accept", "decline"]
    ) -> JSON:
        body = {"connectionId": connection_id, "decision": decision}
        return cast(JSON, await self.request("connection:respond", body))

    async def cancel_connection(self, connection_id: str) -> JSON:
        return cast(JSON, await self.request("connection:cancel", {"connectionId": connection_id}))

    async def revoke_connection(self, connection_id: str) -> JSON:
        return cast(JSON, await self.request("connection:revoke", {"connectionId": connection_id}))

    async def block(self, participant_id: str) -> JSON:
        return cast(
            JSON, await self.request("connection:block", {"participantId": participant_id})
        )

    async def list_connections(
        self, status: Literal["pending", "accepted", "history", "all"] = "all"
    ) -> List[JSON]:
        """The newest connections of this agent (one page of up to 200)."""
        page = await self.list_connections_page(status=status, limit=200)
        return cast(List[JSON], page["connections"])

    async def list_connections_page(
        self,
        *,
        status: Optional[str] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> JSON:
        """One page, newest change first; pass `nextCursor` back as `cursor` for the next (older)
        one."""
        return cast(
            JSON,
            await self.request(
                "connection:list", payload(status=status, cursor=cursor, limit=limit)
            ),
        )

    # ---- usage ----

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
        """Reports one model call for attribution and cost. `report_id` makes retries safe across
        restarts (one is generated otherwise; `MessageContext.report_usage` derives it from the
        message being handled); leave out `cost_usd` to have the server price it. `input_tokens`
        counts every input token, the cached ones included."""
        body = payload(
            report_id=report_id or str(uuid.uuid4()),
            model=model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cached_tokens=cached_tokens,
            cost_usd=cost_usd,
            room_id=room_id,
            message_id=message_id,
            task_id=task_id,
            occurred_at=occurred_at,
        )
        return cast(Usage, await self.request("usage:report", body, self.send_attempts))

    # ---- questions ----

    async def ask(
        self,
        room_id: str,
        prompt: str,
        *,
        kind: QuestionKind,
        audience: Audience = "owner",
        options: Optional[Sequence[Union[str, Mapping[str, Any]]]] = None,
        fields: Optional[Sequence[Mapping[str, Any]]] = None,
        thread_root_id: Optional[str] = None,
        expires_in_seconds: Optional[int] = None,
        on_expiry: Optional[Mapping[str, Any]] = None,
        client_msg_id: Optional[str] = None,
    ) -> QuestionOutcome:
        """Asks people a question in a room and waits until it is answered, expires (with its
        expiry decision) or is cancelled. The wait survives reconnects; `client_msg_id` (derived
        for you by a handler's `ctx.ask`) makes asking again after a crash return the first
        question.

            outcome = await client.ask(room_id, "Deploy?", kind="approval", expires_in_seconds=600)
            if outcome.approved: ...
        """
        asked = await self.post_question(
            room_id,
            prompt,
            kind=kind,
            audience=audience,
            options=options,
            fields=fields,
            thread_root_id=thread_root_id,
            expires_in_seconds=expires_in_seconds,
            on_expiry=on_expiry,
            client_msg_id=client_msg_id,
        )
        return await self.wait_for_answer(asked["id"])

    async def post_question(
        self,
        room_id: str,
        prompt: str,
        *,
        kind: QuestionKind,
        audience: Audience = "owner",
        options: Optional[Sequence[Union[str, Mapping[str, Any]]]] = None,
        fields: Optional[Sequence[Mapping[str, Any]]] = None,
        thread_root_id: Optional[str] = None,
        expires_in_seconds: Optional[int] = None,
        on_expiry: Optional[Mapping[str, Any]] = None,
        client_msg_id: Optional[str] = None,
    ) -> Question:
        """Asks without waiting; returns the question as stored (then `wait_for_answer`)."""
        body = question_payload(
            prompt,
            kind,
            audience,
            options=options,
            fields=fields,
            thread_root_id=thread_root_id,
            expires_in_seconds=expires_in_seconds,
            on_expiry=on_expiry,
        )
        body.update(roomId=room_id, clientMsgId=client_msg_id or str(uuid.uuid4()))
        return cast(Question, await self.request("question:ask", body, self.send_attempts))

    async def wait_for_answer(self, question_id: str) -> QuestionOutcome:
        """Returns when the question is decided (at once if it already is)."""
        return await self._answers.wait(question_id)

    async def get_question(self, question_id: str) -> Question:
        return cast(Question, await self.request("question:get", {"questionId": question_id}))

    async def answer_question(self, question_id: str, answer: Mapping[str, Any]) -> Question:
        """Answers a question put to the agent (people answer: an agent gets FORBIDDEN)."""
        body = {"questionId": question_id, "answer": dict(answer)}
        return cast(Question, await self.request("question:answer", body))

    async def list_questions(
        self,
        *,
        for_: Literal["me", "asked"] = "asked",
        status: Optional[Literal["open", "all"]] = None,
        room_id: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> List[Question]:
        """The agent's own questions (`for_="asked"`, the default here), open or all."""
        body = {"for": for_, **payload(status=status, room_id=room_id, limit=limit)}
        return cast(List[Question], await self.request("question:list", body))

    async def cancel_question(self, question_id: str) -> Question:
        return cast(Question, await self.request("question:cancel", {"questionId": question_id}))

    # ---- runtime bindings (docs/protocol.md, "Runtime bindings") ----

    async def claim_binding(
        self,
        room_id: str,
        runtime: str,
        *,
        thread_root_id: Optional[str] = None,
        lease_ms: Optional[int] = None,
        runner: Optional[str] = None,
        host: Optional[str] = None,
        workdir: Optional[str] = None,
        config: Optional[Mapping[str, Any]] = None,
    ) -> Binding:
        """Takes this agent's binding for (room, thread, runtime) for one turn, as this process
        (`holder`), making it on first use; BINDING_BUSY while another process's turn holds it.
        `BindingTurn` (ctx.binding) does the whole turn."""
        body = payload(
            room_id=room_id,
            thread_root_id=thread_root_id,
            runtime=runtime,
            holder=self.holder,
            lease_ms=lease_ms,
            runner=runner,
            host=host,
            workdir=workdir,
            config=dict(config) if config is not None else None,
        )
        return cast(Binding, await self.request("binding:claim", body))

    async def update_binding(self, binding: Binding, **fields: Any) -> Binding:
        """Records what the turn holding `binding` did: `external_id`, `resumed`, `resume_failed`,
        `last_seq`, `status`, `open_task_id`, `config`, `error`, `lease_ms`, `release`. A field
        given as None is sent as null where the protocol takes null (`open_task_id`, `error`)."""
        body: JSON = {
            "bindingId": binding["id"],
            "holder": self.holder,
            "generation": binding["generation"],
        }
        for key, value in fields.items():
            if value is not None or key in ("open_task_id", "error"):
                body[camel(key)] = value
        return cast(Binding, await self.request("binding:update", body))

    async def get_binding(
        self, room_id: str, runtime: str, *, thread_root_id: Optional[str] = None
    ) -> Optional[Binding]:
        body = payload(room_id=room_id, thread_root_id=thread_root_id, runtime=runtime)
        return cast(Optional[Binding], await self.request("binding:get", body))

    async def list_bindings(
        self,
        *,
        room_id: Optional[str] = None,
        include_closed: Optional[bool] = None,
        limit: Optional[int] = None,
    ) -> List[Binding]:
        body = payload(room_id=room_id, include_closed=include_closed, limit=limit)
        return cast(List[Binding], await self.request("binding:list", body))

    async def close_binding(self, binding_id: str) -> Binding:
        """Lets a binding's session go: the next turn there starts a new one."""
        return cast(Binding, await self.request("binding:close", {"bindingId": binding_id}))

    # ---- the work board (docs/protocol.md, "Work") ----

    async def set_status_text(self, text: str) -> JSON:
        """The directory's status line alone (`me:status`)."""
        return cast(JSON, await self.request("me:status", {"workStatus": text}))

    async def set_work_status(
        self,
        state: WorkState,
        text: str = "",
        *,
        waiting_for: Optional[str] = None,
        ttl_sec: Optional[int] = None,
    ) -> WorkStatus:
        """Says what the agent is doing: working, waiting (for `waiting_for`, a participant id),
        blocked or idle. A state but idle holds for `ttl_sec` (default 120 s): this client sends it
        again every third of that until the next call or `close()` (which says idle), so if the
        process dies it clears itself within the TTL."""
        self._stop_heartbeat()
        body = payload(state=state, text=text, waiting_for=waiting_for, ttl_sec=ttl_sec)
        view = cast(WorkStatus, await self.request("work:status", body))
        self.work_status = (state, text)
        if state != "idle":
            every = (ttl_sec or DEFAULT_STATUS_TTL_SEC) / 3
            self._heartbeat = asyncio.ensure_future(self._beat(body, every))
        return view

    async def _beat(self, body: JSON, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.request("work:status", body)
            except SwitchboardError as error:
                log.warning("switchboard: status heartbeat failed: %s", error)

    def _stop_heartbeat(self) -> bool:
        beating = self._heartbeat is not None
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
        return beating

    async def report_tasks(
        self,
        tasks: Sequence[Mapping[str, Any]],
        *,
        complete: Optional[bool] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
        room_id: Optional[str] = None,
        thread_root_id: Optional[str] = None,
    ) -> JSON:
        """Reports the agent's tasks for a session, in order: `[{"title", "status"?, "key"?,
        "parent_key"?}]`. By default the session's whole list (as a todo tool keeps it), so tasks
        left out are dropped; `complete=False` changes only these. Give `session_id` or `room_id`.
        """
        body = payload(
            tasks=[camel_keys(t) for t in tasks],
            complete=complete,
            session_id=session_id,
            binding_id=binding_id,
            room_id=room_id,
            thread_root_id=thread_root_id,
        )
        return cast(JSON, await self.request("work:tasks", body))

    async def report_files(
        self,
        files: Sequence[Mapping[str, Any]],
        *,
        task_key: Optional[str] = None,
        commit: Optional[str] = None,
        branch: Optional[str] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
        room_id: Optional[str] = None,
        thread_root_id: Optional[str] = None,
    ) -> JSON:
        """Reports files the agent read, edited, created or deleted (or commands it ran: operation
        "run", the command as path): `[{"path", "operation", "lines_added"?, "lines_removed"?}]`.
        """
        body = payload(
            files=[camel_keys(f) for f in files],
            task_key=task_key,
            commit=commit,
            branch=branch,
            session_id=session_id,
            binding_id=binding_id,
            room_id=room_id,
            thread_root_id=thread_root_id,
        )
        return cast(JSON, await self.request("work:files", body))

    async def link_work(
        self,
        kind: WorkLinkKind,
        value: str,
        *,
        title: Optional[str] = None,
        task_key: Optional[str] = None,
        session_id: Optional[str] = None,
        binding_id: Optional[str] = None,
        room_id: Optional[str] = None,
        thread_root_id: Optional[str] = None,
    ) -> JSON:
        """Ties a branch (its name), a commit (its hash) or a pull request (its URL) to work."""
        body = payload(
            kind=kind,
            value=value,
            title=title,
            task_key=task_key,
            session_id=session_id,
            binding_id=binding_id,
            room_id=room_id,
            thread_root_id=thread_root_id,
        )
        return cast(JSON, await self.request("work:link", body))

    # ---- turns, watched live in their room (docs/protocol.md, "Turns, watched live") ----

    async def start_turn(self, message_id: str, *, runtime: Optional[str] = None) -> Turn:
        """Opens the agent's turn on a message it answers (again after a crash: the same turn, its
        steps kept); the room shows it live under that message. `Agent` does this around each
        message addressed to it, and reports through `ctx.activity`."""
        body = payload(message_id=message_id, runtime=runtime)
        return cast(Turn, await self.request("turn:start", body))

    async def report_turn_steps(
        self,
        turn_id: str,
        steps: Sequence[Mapping[str, Any]],
        *,
        usage: Optional[Mapping[str, Any]] = None,
    ) -> Turn:
        """Reports steps (`{"key", "kind", "title", "detail"?, "status"?, "items"?}`, at most 50:
        new by key, or updates) and the turn's tokens so far (`{"input_tokens", "output_tokens",
        "cost_usd"?}`, the whole amounts)."""
        body: JSON = {"turnId": turn_id, "steps": [camel_keys(s) for s in steps]}
        if usage is not None:
            body["usage"] = camel_keys(usage)
        return cast(Turn, await self.request("turn:steps", body))

    async def end_turn(
        self,
        turn_id: str,
        state: TurnOutcome,
        *,
        error: Optional[str] = None,
        usage: Optional[Mapping[str, Any]] = None,
    ) -> Turn:
        """Ends a turn: "done", "failed" (with its `error`) or "stopped"."""
        body = payload(
            turn_id=turn_id,
            state=state,
            error=error,
            usage=camel_keys(usage) if usage is not None else None,
        )
        return cast(Turn, await self.request("turn:end", body))

    # ---- platform tools ----

    async def call_tool(
        self,
        name: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> JSON:
        """Runs a platform tool (the MCP server's) as this agent over `tool:call`, and returns its
        JSON result. A tool that waits (ask_human, get_answer) has its wait added to the ack
        timeout. After a timeout or a lost connection only a tool that reads, or a send_message
        with a client_id, is sent again; another may have been applied, so it fails with TIMEOUT.
        """
        spec = tools.TOOL_SPECS.get(name)
        arguments = dict(args or {})
        idempotent = (spec is not None and spec.read_only) or (
            name == "send_message" and "client_id" in arguments
        )
        wait = tools.MAX_WAIT_SECONDS if spec is not None and spec.waits else 0
        # Paced (and named in errors) per tool: one tool's RATE_LIMITED holds back only that tool's
        # calls.
        return cast(
            JSON,
            await self.request(
                "tool:call",
                {"name": name, "args": arguments},
                3,
                timeout=timeout if timeout is not None else self.request_timeout + wait,
                idempotent=idempotent,
                key=f"tool:call {name}",
            ),
        )

    def platform_tools(
        self, names: Optional[Sequence[str]] = None
    ) -> List[Callable[..., Awaitable[JSON]]]:
        """The platform tools `names` (default: those an agent framework's model gets) as plain
        async functions bound to this client, each with its docstring and typed arguments."""
        return tools.bind(self, names)

    # ---- requests ----

    async def request(
        self,
        event: str,
        body: Mapping[str, Any],
        attempts: int = 3,
        *,
        timeout: Optional[float] = None,
        idempotent: Optional[bool] = None,
        key: Optional[str] = None,
    ) -> Any:
        """Any acked event of the protocol, and its ack's data; a refusal raises SwitchboardError.
        Retries on timeouts, disconnects and retryable errors (RATE_LIMITED after its
        retryAfterMs). A request that is not idempotent is sent again only when the server refused
        it before doing anything: after a timeout or a lost connection it may have been applied, so
        it fails with code TIMEOUT and the caller checks."""
        repeatable = idempotent if idempotent is not None else event in IDEMPOTENT
        name = key or event
        last_error: Exception = SwitchboardError("TIMEOUT", f"{name}: no attempt made")
        attempt = 1
        while attempt <= attempts:
            await self._wait_connected()
            await self._pacer.acquire(name)
            try:
                reply = await self._emit_with_ack(
                    event, dict(body), timeout or self.request_timeout
                )
            except _NotSent as error:
                self._pacer.settle(name, ok=False)
                last_error = error
                attempt += 1
                continue  # nothing went out: safe to send again, whatever it is
            except _NoAnswer as error:
                self._pacer.settle(name, ok=False)
                if not repeatable:
                    raise SwitchboardError(
                        "TIMEOUT",
                        f"{name} got no answer in time; it may have been applied: "
                        "check before sending it again",
                    ) from error
                last_error = error
                await asyncio.sleep(self._backoff(attempt))
                attempt += 1
                continue
            except BaseException:
                self._pacer.settle(name, ok=False)  # cancelled: its place goes to the next request
                raise
            if not isinstance(reply, dict):
                reply = {
                    "ok": False,
                    "error": {
                        "code": "INTERNAL",
                        "message": f"{name}: unreadable answer {reply!r}",
                    },
                }
            error_shape = reply.get("error") or {}
            rate_limited = not reply.get("ok") and error_shape.get("code") == "RATE_LIMITED"
            self._pacer.settle(
                name,
                ok=bool(reply.get("ok")),
                rate_limited=rate_limited,
                retry_after_ms=error_shape.get("retryAfterMs"),
            )
            if reply.get("ok"):
                return reply.get("data")
            refusal = SwitchboardError.from_shape(error_shape)
            if (
                refusal.code == "APPROVAL_REQUIRED"
                and refusal.question_id
                and self.wait_for_approval
            ):
                # The owner decides; approved, the same request goes through (this attempt does not
                # count).
                outcome = await self._answers.wait(refusal.question_id)
                if outcome.approved:
                    continue
                raise SwitchboardError(
                    "APPROVAL_DECLINED",
                    f"{name} was not approved ("
                    f"{'declined' if outcome.status == 'answered' else outcome.status})",
                    question_id=refusal.question_id,
                )
            if not refusal.retryable or (refusal.code != "RATE_LIMITED" and not repeatable):
                raise refusal
            last_error = refusal
            # RATE_LIMITED: the pacer holds this event's requests back until retryAfterMs has
            # passed.
            if refusal.code != "RATE_LIMITED":
                await asyncio.sleep(self._backoff(attempt))
            attempt += 1
        if isinstance(last_error, SwitchboardError):
            raise last_error
        raise SwitchboardError(
            "TIMEOUT", f"{name} got no answer after {attempts} attempts", retryable=True
        ) from last_error

    async def _emit_with_ack(self, event: str, body: JSON, timeout: float) -> Any:
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def on_ack(*args: Any) -> None:
            if not answer.done():
                answer.set_result(args[0] if args else None)

        self._pending.add(answer)
        try:
            if not self._live:
                raise _NotSent(event)
            try:
                await self._sio.emit(event, body, callback=on_ack)
            except BadNamespaceError as error:
                raise _NotSent(event) from error
            try:
                return await asyncio.wait_for(answer, timeout)
            except asyncio.TimeoutError as error:
                raise _NoAnswer(f"{event}: no answer within {timeout} s") from error
        finally:
            self._pending.discard(answer)

    # ---- closing ----

    async def close(self, *, abandon: bool = False) -> None:
        """Closes the client: the handlers running finish (their messages are acknowledged), what
        waits behind them is not started (it is replayed to the next run), acks and cursors are
        flushed, and a work status it kept alive is set to idle. `abandon` (also while a close is
        under way): the handlers running are cancelled instead, and their messages left for the
        next run too."""
        self._stopping = True
        if abandon:
            self._abandon()
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    def _abandon(self) -> None:
        for room_id, worker in self._workers.items():
            worker.cancel()
            queue = self._queues[room_id]
            while not queue.empty():
                _, done = queue.get_nowait()
                if not done.done():
                    done.set_result(False)
                queue.task_done()

    async def _close(self) -> None:
        # What waits in the rooms' queues is skipped now (`_stopping`); the handlers running
        # finish.
        for room_id, queue in list(self._queues.items()):
            worker = self._workers[room_id]
            joined = asyncio.ensure_future(queue.join())
            await asyncio.wait({joined, worker}, return_when=asyncio.FIRST_COMPLETED)
            joined.cancel()
        if self._background:
            # Receipts and acks on their way; bounded, as they wait for a connection that may not
            # come back.
            await asyncio.wait(list(self._background), timeout=self.request_timeout)
        if self._stop_heartbeat() and self._live:
            try:
                await self.request("work:status", {"state": "idle"}, 1)
            except SwitchboardError:
                pass
        for room_id, timer in list(self._ack_timers.items()):
            timer.cancel()
            await self._flush_ack(room_id)
        self._ack_timers.clear()
        self.cursors.flush()
        self._closed = True
        if self._supervisor is not None:
            self._supervisor.cancel()
        await self._drop_transport()
        self._abandon()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)
        self._answers.abort(SwitchboardError("CLOSED", "The client was closed"))
        if self._dropped is not None:
            self._dropped.set()
        if self._ended is not None:
            self._ended.set()
        self._notify_state()


#: The events the client listens to itself (and hands on to `on()` listeners).
_OWN_EVENTS = frozenset(
    [
        "session:ready",
        "room:replay",
        "message:new",
        "message:batch",
        "room:added",
        "room:removed",
        "question:updated",
        "connect_error",
        "disconnect",
        "error",
    ]
)


def _list(items: Optional[Sequence[str]]) -> Optional[List[str]]:
    return list(items) if items is not None else None
