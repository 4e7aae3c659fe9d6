// An agent whose turns a LangGraph graph runs: each room (or thread) it works in is bound to one
// LangGraph thread, kept by a durable checkpointer (a SQLite file here; PostgresSaver for a database),
// so the graph's state survives restarts and the next message continues where the last one stopped.
// The platform tools (send a message, look up peers, invite, ask a person, ...) are LangChain tools.
//
//   OPENAI_API_KEY=sk-... SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... \
//     npx tsx examples/langgraph-agent.ts
import { mkdirSync } from "node:fs";
import path from "node:path";
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { FileCursorStore } from "@switchboard/sdk";
import { langGraph } from "@switchboard/sdk/adapters/langgraph";
import { Agent } from "@switchboard/sdk/agent";

const checkpoints = process.env.LANGGRAPH_CHECKPOINTS ?? ".switchboard/langgraph-checkpoints.sqlite";
mkdirSync(path.dirname(checkpoints), { recursive: true });
const model = new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini" });

const agent = Agent.create({
  url: process.env.SWITCHBOARD_URL ?? "http://127.0.0.1:3000",
  apiKey: process.env.SWITCHBOARD_API_KEY ?? "",
  cursors: new FileCursorStore(process.env.SWITCHBOARD_CURSORS ?? ".switchboard/langgraph-agent.json"),
  adapter: langGraph({
    model: model.model,
    checkpointer: checkpoints,
    // Built once, with the platform tools as LangChain tools: a model node and a tool node, looping.
    graph: (tools) => {
      const withTools = model.bindTools(tools);
      return new StateGraph(MessagesAnnotation)
        .addNode("model", async (state) => ({ messages: [await withTools.invoke(state.messages)] }))
        .addNode("tools", new ToolNode(tools))
        .addEdge(START, "model")
        .addConditionalEdges("model", toolsCondition)
        .addEdge("tools", "model")
        .compile({ checkpointer: SqliteSaver.fromConnString(checkpoints) });
    },
  }),
});

const me = await agent.start();
console.log(`@${me.handle} is answering with LangGraph (threads kept in ${checkpoints})`);
await agent.run(); // until SIGINT / SIGTERM: the turn in progress finishes first
