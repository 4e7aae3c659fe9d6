"""The platform tools (the MCP server's, docs/mcp.md) as plain async functions, for agent
frameworks that hand a model Python functions as tools: each has its tool's name, description (its
docstring) and typed arguments, and runs over the agent's socket (`tool:call`) as the agent, under
the same policies and limits as over MCP. The TypeScript SDK's `platform-tools.ts` defines the same
tools.

    tools = client.platform_tools()          # bound to the client: await tools[0](room="#general")
    await send_message(client, room="#general", text="hi")   # or call one with the client

Arguments left as None are not sent: the server applies the default the docstring names.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import (
    Any,
    Awaitable,
    Callable,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Union,
)

JSON = Dict[str, Any]

#: At most this long (seconds) in one call of a tool that waits: callers' timeouts allow for it.
MAX_WAIT_SECONDS = 50


class ToolCaller(Protocol):
    async def call_tool(
        self,
        name: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> JSON:
        ...


@dataclass(frozen=True)
class ToolSpec:
    #: Reads only (a read-only token may call it; it may be sent again after a timeout).
    read_only: bool
    #: It may wait up to MAX_WAIT_SECONDS before it answers.
    waits: bool = False


#: Every tool, in the order the MCP server lists them.
TOOL_SPECS: Dict[str, ToolSpec] = {
    "whoami": ToolSpec(read_only=True),
    "list_rooms": ToolSpec(read_only=True),
    "read_messages": ToolSpec(read_only=True),
    "search_messages": ToolSpec(read_only=True),
    "wait_for_messages": ToolSpec(read_only=True, waits=True),
    "acknowledge": ToolSpec(read_only=True),
    "send_message": ToolSpec(read_only=False),
    "react": ToolSpec(read_only=False),
    "upload_file": ToolSpec(read_only=False),
    "read_file": ToolSpec(read_only=True),
    "open_dm": ToolSpec(read_only=False),
    "create_room": ToolSpec(read_only=False),
    "invite": ToolSpec(read_only=False),
    "list_channels": ToolSpec(read_only=True),
    "join_room": ToolSpec(read_only=False),
    "leave_room": ToolSpec(read_only=False),
    "lookup_peers": ToolSpec(read_only=True),
    "request_connection": ToolSpec(read_only=False),
    "list_connection_requests": ToolSpec(read_only=True),
    "respond_connection": ToolSpec(read_only=False),
    "ask_human": ToolSpec(read_only=False, waits=True),
    "get_answer": ToolSpec(read_only=True, waits=True),
    "set_status": ToolSpec(read_only=False),
    "set_profile_status": ToolSpec(read_only=False),
    "report_tasks": ToolSpec(read_only=False),
    "report_files": ToolSpec(read_only=False),
    "link_work": ToolSpec(read_only=False),
    "report_usage": ToolSpec(read_only=False),
    "report_activity": ToolSpec(read_only=False),
    "mark_processing": ToolSpec(read_only=False),
    "mark_processed": ToolSpec(read_only=False),
    "mark_failed": ToolSpec(read_only=False),
}

#: The delivery loop's own tools: the client receives, acknowledges and reports receipts, usage and
#: its turns' activity itself, so a model handed the tools does not get these.
LOOP_TOOLS = frozenset(
    [
        "wait_for_messages",
        "acknowledge",
        "mark_processing",
        "mark_processed",
        "mark_failed",
        "report_usage",
        "report_activity",
    ]
)

#: The tools an agent framework's model gets: every one but the delivery loop's.
ADAPTER_TOOLS: List[str] = [name for name in TOOL_SPECS if name not in LOOP_TOOLS]


async def _call(client: ToolCaller, tool: str, /, **args: Any) -> JSON:
    return await client.call_tool(
        tool, {key: value for key, value in args.items() if value is not None}
    )


async def whoami(client: ToolCaller) -> JSON:
    """Who you are in this Switchboard workspace: your participant, handle and role."""
    return await _call(client, "whoami")


async def list_rooms(client: ToolCaller) -> JSON:
    """The rooms you are in, with each room's last seq and your delivered cursor (what you have
    acknowledged)."""
    return await _call(client, "list_rooms")


async def read_messages(
    client: ToolCaller, room: str, after_seq: Optional[int] = None, limit: Optional[int] = None
) -> JSON:
    """A room's messages in order. Without after_seq: the latest ones. To continue, pass the
    returned next_after_seq. Example: {"room": "#general", "limit": 20}

    :param room: The room: "#name" for a channel, or a room id
    :param after_seq: Only messages after this seq
    :param limit: How many (1-200, default 50)
    """
    return await _call(client, "read_messages", room=room, after_seq=after_seq, limit=limit)


async def search_messages(
    client: ToolCaller,
    query: str,
    sort: Optional[Literal["relevance", "date"]] = None,
    limit: Optional[int] = None,
    cursor: Optional[str] = None,
) -> JSON:
    """Searches the messages you may read: words (all of them; "deploy" finds "deploying"), "exact
    phrases", -words to leave out, and in:#room, in:@handle (your conversation), from:@handle,
    from:me, mentions:me, is:thread, has:link, has:file, before:YYYY-MM-DD, after:YYYY-MM-DD,
    on:YYYY-MM-DD. Best matches first, or sort "date" for the newest. Example: {"query": "flaky
    login in:#ops from:@dana"}

    :param query: What to find, as people type it in the search box
    :param sort: "relevance" (the best matches first, the default) or "date" (the newest first)
    :param limit: How many results (at most 50; default 20)
    :param cursor: The previous answer's next_cursor, for the next page
    """
    return await _call(
        client, "search_messages", query=query, sort=sort, limit=limit, cursor=cursor
    )


async def wait_for_messages(
    client: ToolCaller, timeout_seconds: Optional[int] = None, limit: Optional[int] = None
) -> JSON:
    """Waits until something addressed to you arrives in any of your rooms (by your delivery mode:
    mentions, DMs, your threads; or everything in rooms set to all), then returns it. You get the
    same messages again until you call acknowledge with each room's through_seq, so nothing is lost
    if you stop midway. Example: {"timeout_seconds": 30}

    :param timeout_seconds: How long to wait when nothing is waiting already (0-50, default 30)
    :param limit: At most this many messages (1-100, default 20)
    """
    return await _call(client, "wait_for_messages", timeout_seconds=timeout_seconds, limit=limit)


async def acknowledge(client: ToolCaller, room: str, seq: int) -> JSON:
    """Says you have handled a room's messages up to seq (use the through_seq wait_for_messages
    gave you); they will not be given to you again. Example: {"room": "#general", "seq": 42}

    :param room: The room: "#name" for a channel, or a room id
    :param seq: The seq handled through
    """
    return await _call(client, "acknowledge", room=room, seq=seq)


async def send_message(
    client: ToolCaller,
    room: str,
    body: Optional[str] = None,
    text: Optional[str] = None,
    thread_id: Optional[str] = None,
    client_id: Optional[str] = None,
    in_reply_to: Optional[str] = None,
    file_ids: Optional[List[str]] = None,
) -> JSON:
    """Posts a message to a room (or a reply in a thread). Mention people or agents with @handle;
    attach files you uploaded with file_ids. Pass the same client_id when you retry, so a retry
    never posts twice. Example: {"room": "#general", "body": "Build is green @dana", "client_id":
    "build-42"}

    :param room: The room: "#name" for a channel, or a room id
    :param body: The message (Markdown; @handle mentions)
    :param text: The same as body, the name earlier versions used: pass one of them
    :param thread_id: Reply in the thread of this message
    :param client_id: Your id for this message: a retry with the same id posts nothing new
    :param in_reply_to: The message_id you are answering: its asker is who this serves (cost
        attribution)
    :param file_ids: Files to attach: ids upload_file gave you for this room (the body may then be
        empty)
    """
    return await _call(
        client,
        "send_message",
        room=room,
        body=body,
        text=text,
        thread_id=thread_id,
        client_id=client_id,
        in_reply_to=in_reply_to,
        file_ids=file_ids,
    )


async def react(
    client: ToolCaller, message_id: str, emoji: str, on: Optional[bool] = None
) -> JSON:
    """Adds an emoji reaction to a message (or removes yours with "on": false): a light
    acknowledgement that posts no message. Example: {"message_id": "…", "emoji": "👀"}

    :param message_id: The message's id
    :param emoji: One emoji, e.g. 👍 ✅ 👀 🎉
    :param on: false removes your reaction
    """
    return await _call(client, "react", message_id=message_id, emoji=emoji, on=on)


async def upload_file(
    client: ToolCaller,
    room: str,
    name: str,
    content: str,
    encoding: Optional[Literal["text", "base64"]] = None,
) -> JSON:
    """Uploads a file (a document, a report, code, an image) into a room, to attach to a message:
    pass the id it returns in send_message's file_ids. Text as it is, anything else as base64. At
    most 512 KB here. Example: {"room": "#reviews", "name": "srs.md", "content": "# SRS\\n..."}

    :param room: The room: "#name" for a channel, or a room id
    :param name: The file's name, e.g. prd.md (its type is read from the content)
    :param content: The content: text, or base64 with encoding base64
    :param encoding: How content is written ("text", the default, or "base64")
    """
    return await _call(
        client, "upload_file", room=room, name=name, content=content, encoding=encoding
    )


async def read_file(client: ToolCaller, file_id: str) -> JSON:
    """Reads a file attached to a message you may read (its id is in the message's files): text and
    code as text, an image as an image, anything else as base64, up to 512 KB. Example:
    {"file_id": "…"}

    :param file_id: The file's id
    """
    return await _call(client, "read_file", file_id=file_id)


async def open_dm(client: ToolCaller, participants: List[str]) -> JSON:
    """Opens (or finds) a direct conversation with one person or agent, or a group with several.
    Example: {"participants": ["@dana"]}

    :param participants: Who: "@handle" or a participant id each (1-8)
    """
    return await _call(client, "open_dm", participants=participants)


async def create_room(
    client: ToolCaller,
    name: str,
    visibility: Optional[Literal["public", "private"]] = None,
    topic: Optional[str] = None,
    members: Optional[List[str]] = None,
) -> JSON:
    """Creates a channel, optionally with members. Example: {"name": "release-42", "topic":
    "Shipping 4.2", "members": ["@dana", "@scout"]}

    :param name: The channel's name: lowercase letters, digits, - and _
    :param visibility: public (default) or private
    :param topic: What the channel is for
    :param members: Who to add: "@handle" or a participant id each
    """
    return await _call(
        client, "create_room", name=name, visibility=visibility, topic=topic, members=members
    )


async def invite(client: ToolCaller, room: str, participants: List[str]) -> JSON:
    """Adds people or agents to a room you are in. Example: {"room": "#release-42", "participants":
    ["@scout"]}

    :param room: The room: "#name" for a channel, or a room id
    :param participants: Who: "@handle" or a participant id each (1-100)
    """
    return await _call(client, "invite", room=room, participants=participants)


async def list_channels(client: ToolCaller) -> JSON:
    """The workspace's public channels, with their topics, how many are in each, and whether you
    are: join one with join_room."""
    return await _call(client, "list_channels")


async def join_room(client: ToolCaller, room: str) -> JSON:
    """Joins a public channel (list_channels lists them). Example: {"room": "#general"}

    :param room: The room: "#name" for a channel, or a room id
    """
    return await _call(client, "join_room", room=room)


async def leave_room(client: ToolCaller, room: str) -> JSON:
    """Leaves a room. Example: {"room": "#release-42"}

    :param room: The room: "#name" for a channel, or a room id
    """
    return await _call(client, "leave_room", room=room)


async def lookup_peers(
    client: ToolCaller,
    text: Optional[str] = None,
    capability: Optional[str] = None,
    kind: Optional[Literal["human", "agent"]] = None,
    limit: Optional[int] = None,
) -> JSON:
    """Finds people and agents in the workspace by name or handle text, by capability, or by kind,
    with whether you are connected to each. Example: {"capability": "code-review", "kind": "agent"}

    :param text: Text in a handle, name, description or capability
    :param capability: One whole capability
    :param kind: human or agent
    :param limit: How many (1-100, default 20)
    """
    return await _call(
        client, "lookup_peers", text=text, capability=capability, kind=kind, limit=limit
    )


async def request_connection(
    client: ToolCaller,
    participant: str,
    message: Optional[str] = None,
    purposes: Optional[List[str]] = None,
    rooms: Optional[List[str]] = None,
    expires_in_days: Optional[int] = None,
) -> JSON:
    """Asks someone for consent to talk (needed before you can DM or invite someone who asks for
    consent). Their owner or they decide. Example: {"participant": "@scout", "message": "Can you
    review my PRs?", "purposes": ["code review"]}

    :param participant: Someone: "@handle" or a participant id
    :param message: Why you ask
    :param purposes: What for (up to 10)
    :param rooms: Limit the connection to these rooms
    :param expires_in_days: How long the connection lasts (1-365)
    """
    return await _call(
        client,
        "request_connection",
        participant=participant,
        message=message,
        purposes=purposes,
        rooms=rooms,
        expires_in_days=expires_in_days,
    )


async def list_connection_requests(
    client: ToolCaller,
    status: Optional[Literal["pending", "accepted", "history", "all"]] = None,
    cursor: Optional[str] = None,
) -> JSON:
    """Your connection requests and connections (and your agents'), newest change first. Example:
    {"status": "pending"}

    :param status: pending (default), accepted, history or all
    :param cursor: The next_cursor of the page before
    """
    return await _call(client, "list_connection_requests", status=status, cursor=cursor)


async def respond_connection(
    client: ToolCaller, connection_id: str, decision: Literal["accept", "decline"]
) -> JSON:
    """Accepts or declines a connection request addressed to you or to an agent you own (people
    decide; agents cannot). Example: {"connection_id": "…", "decision": "accept"}

    :param connection_id: The request's id
    :param decision: accept or decline
    """
    return await _call(
        client, "respond_connection", connection_id=connection_id, decision=decision
    )


async def ask_human(
    client: ToolCaller,
    room: str,
    question: str,
    kind: Optional[Literal["single", "multiple", "text", "approval", "form"]] = None,
    options: Optional[List[Union[str, Dict[str, str]]]] = None,
    fields: Optional[List[Dict[str, Any]]] = None,
    ask: Optional[str] = None,
    thread_id: Optional[str] = None,
    expires_in_seconds: Optional[int] = None,
    on_expiry: Optional[Dict[str, Any]] = None,
    allow_reactions: Optional[bool] = None,
    client_id: Optional[str] = None,
    wait_seconds: Optional[int] = None,
) -> JSON:
    """Asks a person a question in a room and waits for the answer: a yes/no approval, a choice,
    several choices, free text, or a small form. It is a message in the room that people answer
    with a click; you get the answer back here (or its expiry decision: an approval declines when
    it expires). Ask your owner ("owner"), someone by "@handle", anyone in the room ("room"), or
    "admins". Pass the same client_id when you retry. Example: {"room": "#deploys", "question":
    "Deploy v2 to production?", "kind": "approval", "ask": "owner", "expires_in_seconds": 900}

    :param room: The room: "#name" for a channel, or a room id
    :param question: The question, Markdown
    :param kind: approval, single, multiple, text (default) or form
    :param options: For single and multiple: the choices, as labels or {value, label, description}
    :param fields: For form: the fields, each {name, label, type:
        string|number|integer|boolean|enum, required?, options?, min?, max?}
    :param ask: Who answers: "owner" (default), "@handle", "room" (anyone in it) or "admins"
    :param thread_id: Ask in the thread of this message
    :param expires_in_seconds: Until it expires
    :param on_expiry: The answer to take if nobody answers in time, e.g. {"choice": "eu"};
        approvals decline by default
    :param allow_reactions: An approval only: a ✅ or 👍 reaction approves it, ❌ or 👎 denies it
    :param client_id: Your id for this question: a retry with the same id asks nothing new
    :param wait_seconds: How long to wait for the answer in this call (0-50, default 45; call
        get_answer to wait more)
    """
    return await _call(
        client,
        "ask_human",
        room=room,
        question=question,
        kind=kind,
        options=options,
        fields=fields,
        ask=ask,
        thread_id=thread_id,
        expires_in_seconds=expires_in_seconds,
        on_expiry=on_expiry,
        allow_reactions=allow_reactions,
        client_id=client_id,
        wait_seconds=wait_seconds,
    )


async def get_answer(
    client: ToolCaller, question_id: str, wait_seconds: Optional[int] = None
) -> JSON:
    """The state of a question you asked with ask_human, waiting up to wait_seconds for it to be
    answered. Example: {"question_id": "…", "wait_seconds": 45}

    :param question_id: The question_id ask_human returned
    :param wait_seconds: How long to wait for the answer in this call (0-50, default 45)
    """
    return await _call(client, "get_answer", question_id=question_id, wait_seconds=wait_seconds)


async def set_status(
    client: ToolCaller,
    status: str,
    state: Optional[Literal["idle", "working", "waiting", "blocked"]] = None,
    waiting_for: Optional[str] = None,
    ttl_seconds: Optional[int] = None,
) -> JSON:
    """Says what you are doing, shown next to your name and on the Work page. With a state
    (working, waiting, blocked, idle) it holds for ttl_seconds (default 900): call it again to keep
    it. Example: {"status": "Need the staging password", "state": "waiting", "waiting_for":
    "@dana"}

    :param status: What you are doing, in words (up to 200 characters)
    :param state: What you are doing: working, waiting (for someone), blocked, or idle
    :param waiting_for: Whom you wait for (with state waiting)
    :param ttl_seconds: How long the state holds unless you set it again (default 900)
    """
    return await _call(
        client,
        "set_status",
        status=status,
        state=state,
        waiting_for=waiting_for,
        ttl_seconds=ttl_seconds,
    )


async def set_profile_status(
    client: ToolCaller,
    emoji: Optional[str] = None,
    text: Optional[str] = None,
    clear_after_minutes: Optional[int] = None,
) -> JSON:
    """Sets the status beside your name, as people set theirs: an emoji and a few words, cleared
    after clear_after_minutes (else kept until changed); empty emoji and text clear it. Not your
    work status (set_status). Example: {"emoji": "🛠️", "text": "Migrating the database",
    "clear_after_minutes": 120}

    :param emoji: One emoji, or empty to clear it
    :param text: A few words (up to 100 characters), or empty to clear them
    :param clear_after_minutes: Cleared after this many minutes (a week at most); without it, kept until changed
    """
    return await _call(client, "set_profile_status", emoji=emoji, text=text, clear_after_minutes=clear_after_minutes)


async def report_tasks(
    client: ToolCaller,
    tasks: List[Dict[str, str]],
    session_id: Optional[str] = None,
    room: Optional[str] = None,
    complete: Optional[bool] = None,
) -> JSON:
    """Reports your task list for the current session, in order (the whole list: tasks you leave
    out are dropped, unless complete is false). Each task has a title, a status (pending,
    in_progress, completed, dropped) and optionally your own id for it and its parent's. Example:
    {"session_id": "…", "tasks": [{"title": "Add the endpoint", "status": "in_progress"}, {"title":
    "Write tests"}]}

    :param tasks: Each {title, status?, id?, parent_id?}
    :param session_id: Your runtime's session id (ties the tasks to its room and thread, if one of
        your runtime bindings has it)
    :param room: The room the work is for
    :param complete: The list is the session's whole list (default true)
    """
    return await _call(
        client, "report_tasks", session_id=session_id, room=room, tasks=tasks, complete=complete
    )


async def report_files(
    client: ToolCaller,
    files: List[Dict[str, Any]],
    session_id: Optional[str] = None,
    room: Optional[str] = None,
    task_id: Optional[str] = None,
    commit: Optional[str] = None,
    branch: Optional[str] = None,
) -> JSON:
    """Reports files you read, edited, created or deleted (or commands you ran: operation "run",
    the command as path), for the Work page's view of which components agents touch. Example:
    {"files": [{"path": "server/api.ts", "operation": "edit", "lines_added": 12, "lines_removed":
    3}], "branch": "feat/export"}

    :param files: Each {path, operation: read|edit|create|delete|run, lines_added?, lines_removed?}
    :param session_id: Your runtime's session id
    :param room: The room the work is for
    :param task_id: The task (your id for it, or its title) the files were for
    :param commit: The commit they went into
    :param branch: The branch they are on
    """
    return await _call(
        client,
        "report_files",
        session_id=session_id,
        room=room,
        task_id=task_id,
        commit=commit,
        branch=branch,
        files=files,
    )


async def link_work(
    client: ToolCaller,
    kind: Literal["branch", "commit", "pull_request"],
    value: str,
    session_id: Optional[str] = None,
    room: Optional[str] = None,
    task_id: Optional[str] = None,
    title: Optional[str] = None,
) -> JSON:
    """Ties what your work shipped to it: a branch, a commit, or a pull request (its URL). Example:
    {"kind": "pull_request", "value": "https://github.com/acme/app/pull/42", "title": "Export usage
    as CSV"}

    :param kind: branch, commit or pull_request
    :param value: The branch's name, the commit's hash, or the pull request's URL
    :param session_id: Your runtime's session id
    :param room: The room the work is for
    :param task_id: The task it is for
    :param title: What it is
    """
    return await _call(
        client,
        "link_work",
        session_id=session_id,
        room=room,
        task_id=task_id,
        kind=kind,
        value=value,
        title=title,
    )


async def report_usage(
    client: ToolCaller,
    report_id: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: Optional[int] = None,
    cost_usd: Optional[float] = None,
    room: Optional[str] = None,
    message_id: Optional[str] = None,
    task_id: Optional[str] = None,
) -> JSON:
    """Reports one model call's tokens (and cost, if you know it) for the workspace's usage
    dashboards. report_id makes a retry count once. Example: {"report_id": "call-17", "model":
    "claude-sonnet-4-5", "input_tokens": 1200, "output_tokens": 300}

    :param report_id: Your id for this call: a retry with the same id counts once
    :param model: The model's name
    :param input_tokens: Every input token, the cached ones included
    :param output_tokens: Output tokens
    :param cached_tokens: How many input tokens were read from the model's cache
    :param cost_usd: What it cost; absent: the server prices it
    :param room: The room it was for
    :param message_id: The message it served
    :param task_id: The task it was for
    """
    return await _call(
        client,
        "report_usage",
        report_id=report_id,
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_tokens=cached_tokens,
        cost_usd=cost_usd,
        room=room,
        message_id=message_id,
        task_id=task_id,
    )


async def report_activity(
    client: ToolCaller,
    message_id: str,
    plan: Optional[List[JSON]] = None,
    steps: Optional[List[JSON]] = None,
    input_tokens: Optional[int] = None,
    output_tokens: Optional[int] = None,
    done: bool = False,
    error: Optional[str] = None,
) -> JSON:
    """Shows the people in the room what you are doing on a message, live, under it: call it when
    you start on a message (its id), as you go (your plan, each step), and with done when you are
    finished. If a person pressed Stop, the answer says stopped_by: stop working on that message
    then. (The Agent reports its turns itself: this is for a client of your own.)

    :param message_id: The message you are working on
    :param plan: Your plan or todo list as it stands now (the whole list): {"title", "status"}
    :param steps: Steps: {"id", "kind" ("tool", "file" or "note"), "title", "status", "detail"}
    :param input_tokens: Your tokens so far on this message (the whole amount)
    :param output_tokens: Output tokens so far
    :param done: You are finished with the message
    :param error: With done: what went wrong, if you could not finish
    """
    return await _call(
        client,
        "report_activity",
        message_id=message_id,
        plan=plan,
        steps=steps,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        done=done,
        error=error,
    )


async def mark_processing(
    client: ToolCaller, message_id: str, reason: Optional[str] = None
) -> JSON:
    """Tells the room you started working on a message (people see it). Example: {"message_id":
    "…"}

    :param message_id: The message's id
    :param reason: A note (up to 500 characters)
    """
    return await _call(client, "mark_processing", message_id=message_id, reason=reason)


async def mark_processed(
    client: ToolCaller, message_id: str, reason: Optional[str] = None
) -> JSON:
    """Tells the room you finished a message. Example: {"message_id": "…"}

    :param message_id: The message's id
    :param reason: A note (up to 500 characters)
    """
    return await _call(client, "mark_processed", message_id=message_id, reason=reason)


async def mark_failed(client: ToolCaller, message_id: str, reason: str) -> JSON:
    """Tells the room you could not handle a message, and why. Example: {"message_id": "…",
    "reason": "The build server is down"}

    :param message_id: The message's id
    :param reason: Why (up to 500 characters)
    """
    return await _call(client, "mark_failed", message_id=message_id, reason=reason)


#: Each tool's function, by name.
TOOLS: Dict[str, Callable[..., Awaitable[JSON]]] = {
    name: fn
    for name, fn in globals().items()
    if name in TOOL_SPECS and inspect.iscoroutinefunction(fn)
}


def bind(
    client: ToolCaller, names: Optional[Sequence[str]] = None
) -> List[Callable[..., Awaitable[JSON]]]:
    """The tools `names` (default ADAPTER_TOOLS) as plain async functions bound to `client`: the
    same name, docstring and typed arguments, without the client."""
    chosen = list(names) if names is not None else ADAPTER_TOOLS
    unknown = [name for name in chosen if name not in TOOLS]
    if unknown:
        raise ValueError(f"no such platform tools: {', '.join(unknown)}")
    return [_bound(client, TOOLS[name]) for name in chosen]


def _bound(
    client: ToolCaller, fn: Callable[..., Awaitable[JSON]]
) -> Callable[..., Awaitable[JSON]]:
    @functools.wraps(fn)
    async def tool(*args: Any, **kwargs: Any) -> JSON:
        return await fn(client, *args, **kwargs)

    signature = inspect.signature(fn)
    # Frameworks read the arguments from the signature and the annotations: the client is not one.
    setattr(
        tool,
        "__signature__",
        signature.replace(parameters=list(signature.parameters.values())[1:]),
    )
    tool.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k != "client"}
    return tool
