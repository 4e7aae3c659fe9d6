"""The shapes the server sends, as typed dictionaries (docs/protocol.md, "Shapes").

Values are the server's JSON as it arrives, keys in camelCase; nothing is converted, so a field the
server adds later is simply there. The TypeScript SDK's `contract.ts` is the source of truth.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict

JSON = Dict[str, Any]
"""Any JSON object the server answers with (connections, directory entries, tasks, ...)."""

ParticipantKind = Literal["human", "agent"]
DeliveryMode = Literal["all", "mentions", "none"]
ReceiptState = Literal["processing", "processed", "failed"]
QuestionKind = Literal["approval", "single", "multiple", "text", "form"]
WorkState = Literal["idle", "working", "waiting", "blocked"]
TaskStatus = Literal["pending", "in_progress", "completed", "dropped"]
FileOperation = Literal["read", "edit", "create", "delete", "run"]
WorkLinkKind = Literal["branch", "commit", "pull_request"]
TurnState = Literal["running", "done", "failed", "stopped"]
TurnOutcome = Literal["done", "failed", "stopped"]
StepKind = Literal["plan", "tool", "file", "note"]
StepStatus = Literal["running", "done", "failed"]


class Person(TypedDict):
    """A message's author, a question's asker or answerer."""

    id: str
    handle: str
    displayName: str
    kind: ParticipantKind


class Participant(TypedDict):
    id: str
    kind: ParticipantKind
    handle: str
    displayName: str
    status: Literal["active", "suspended"]
    description: str
    framework: Optional[str]
    capabilities: List[str]
    ownerId: Optional[str]


class Receipt(TypedDict):
    participantId: str
    state: ReceiptState
    reason: Optional[str]
    at: str


class Message(TypedDict):
    """A message or room event; `seq` is its place in the room (1, 2, 3, ...)."""

    id: str
    roomId: str
    seq: int
    kind: Literal["text", "event", "system", "question"]
    author: Person
    body: str
    clientMsgId: str
    threadRootId: Optional[str]
    replyCount: int
    lastReplyAt: Optional[str]
    mentions: List[str]
    data: Any
    createdAt: str
    editedAt: Optional[str]
    deletedAt: Optional[str]
    receipts: List[Receipt]


class Room(TypedDict):
    id: str
    kind: Literal["channel", "dm", "group"]
    visibility: Literal["public", "private"]
    name: Optional[str]
    title: str
    topic: str
    lastSeq: int
    memberCount: int


class Membership(TypedDict):
    """A room as the agent is a member of it: its delivery mode and the server's cursors."""

    room: Room
    deliveryMode: DeliveryMode
    deliveredSeq: int
    readSeq: int
    processedSeq: int


class ReplayPage(TypedDict):
    roomId: str
    messages: List[Message]
    throughSeq: int
    hasMore: bool


class SyncPage(TypedDict):
    messages: List[Message]
    hasMore: bool
    lastSeq: int


class Question(TypedDict):
    """A question to people (docs/protocol.md, "Asking a person")."""

    id: str
    roomId: str
    messageId: str
    threadRootId: Optional[str]
    asker: Person
    kind: QuestionKind
    prompt: str
    options: Optional[List[JSON]]
    fields: Optional[List[JSON]]
    audience: JSON
    expiresAt: Optional[str]
    onExpiry: Optional[JSON]
    status: Literal["open", "answered", "expired", "cancelled"]
    answer: Optional[JSON]
    answeredBy: Optional[Person]
    answeredAt: Optional[str]
    createdAt: str


class Usage(TypedDict):
    id: str
    reportId: str
    agentId: str
    ownerId: Optional[str]
    requesterId: Optional[str]
    roomId: Optional[str]
    messageId: Optional[str]
    taskId: Optional[str]
    model: str
    inputTokens: int
    outputTokens: int
    cachedTokens: int
    costUsd: float
    costSource: Literal["reported", "priced", "unpriced"]
    occurredAt: str


class WorkStatus(TypedDict):
    participantId: str
    state: WorkState
    text: str
    waitingFor: Optional[Person]
    since: Optional[str]
    until: Optional[str]


class Binding(TypedDict):
    """A runtime binding: (agent, room, thread, runtime) to a framework's session id."""

    id: str
    agentId: str
    agent: JSON
    roomId: str
    threadRootId: Optional[str]
    runtime: str
    externalId: Optional[str]
    openTaskId: Optional[str]
    runner: Optional[str]
    host: Optional[str]
    workdir: Optional[str]
    config: Optional[JSON]
    status: Literal["active", "idle", "awaiting_input", "stale", "closed"]
    lastSeq: int
    turns: int
    resumes: int
    resumeFailures: int
    lastError: Optional[str]
    generation: int
    leaseUntil: Optional[str]
    createdAt: str
    lastUsedAt: Optional[str]
    closedAt: Optional[str]
    closedBy: Optional[JSON]


class Turn(TypedDict):
    """An agent's turn on a message, as its room watches it (docs/protocol.md, "Turns, watched
    live")."""

    id: str
    roomId: str
    messageId: str
    threadRootId: Optional[str]
    agent: JSON
    runtime: str
    state: TurnState
    error: Optional[str]
    startedAt: str
    updatedAt: str
    endedAt: Optional[str]
    stopRequestedAt: Optional[str]
    stoppedBy: Optional[JSON]
    tokens: JSON
    costUsd: float
    stepCount: int
    droppedSteps: int
