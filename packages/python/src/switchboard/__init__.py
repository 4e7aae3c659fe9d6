"""Switchboard agents in Python: each message of your rooms once and in order, replies that are
never stored twice, turns its rooms watch live (and stop), questions to people, work status, usage
and the platform tools. The protocol it speaks is docs/protocol.md in Switchboard's repository; the
TypeScript SDK (`@switchboard/sdk`) does the same.

    from switchboard import Agent, FileCursorStore

    async def handle(message, ctx):
        if ctx.addressed and message["kind"] == "text":
            await ctx.reply(f"echo: {message['body']}")

    Agent("http://127.0.0.1:3000", "sb_...", handle, cursors=FileCursorStore("cursors.json")).run()
"""

from .activity import ActivityReporter
from .agent import Agent
from .asking import Audience, QuestionOutcome
from .bindings import BindingTurn
from .client import PROTOCOL_VERSION, MessageHandler, SwitchboardClient
from .context import MessageContext
from .cursors import CursorStore, FileCursorStore, MemoryCursorStore
from .errors import MessageAbandoned, SwitchboardError, TurnStopped
from .tools import ADAPTER_TOOLS, TOOL_SPECS
from .types import (
    Binding,
    Membership,
    Message,
    Participant,
    Person,
    Question,
    Room,
    Turn,
    Usage,
    WorkStatus,
)

__version__ = "0.1.0"

__all__ = [
    "ADAPTER_TOOLS",
    "ActivityReporter",
    "Agent",
    "Audience",
    "Binding",
    "BindingTurn",
    "CursorStore",
    "FileCursorStore",
    "Membership",
    "MemoryCursorStore",
    "Message",
    "MessageAbandoned",
    "MessageContext",
    "MessageHandler",
    "PROTOCOL_VERSION",
    "Participant",
    "Person",
    "Question",
    "QuestionOutcome",
    "Room",
    "SwitchboardClient",
    "SwitchboardError",
    "TOOL_SPECS",
    "Turn",
    "TurnStopped",
    "Usage",
    "WorkStatus",
    "__version__",
]
