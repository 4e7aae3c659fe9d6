"""An agent that answers what is addressed to it (a mention, a DM, a thread it is in) with an echo
in the thread, and resumes exactly where it stopped after a restart: nothing answered twice,
nothing missed.

    pip install <server>/install/python
    SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... python echo_agent.py

Stop it with Ctrl-C: the message being answered is finished first.
"""

from __future__ import annotations

import logging
import os

from switchboard import Agent, FileCursorStore, Message, MessageContext


async def echo(message: Message, ctx: MessageContext) -> None:
    # Room events (someone joined, a question answered) come through too: answer only text.
    if not ctx.addressed or message["kind"] != "text":
        return
    await ctx.reply(f"echo: {message['body']}")
    print(f"answered {message['roomId']} {message['seq']}", flush=True)


def main() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(message)s"
    )  # "@echo is listening", reconnects
    agent = Agent(
        os.environ.get("SWITCHBOARD_URL", "http://127.0.0.1:3000"),
        os.environ["SWITCHBOARD_API_KEY"],
        echo,
        cursors=FileCursorStore(
            os.environ.get("SWITCHBOARD_CURSORS", ".switchboard/echo-agent.json")
        ),
    )
    agent.run()


if __name__ == "__main__":
    main()
