// The client the peer tests drive askuser mcp with: the official
// TypeScript MCP SDK client over stdio. ASKUSER_BIN names the askuser
// binary to start.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const bin = process.env.ASKUSER_BIN;
if (!bin) {
  throw new Error("set ASKUSER_BIN to the askuser binary (make mcp-node-test does)");
}

// connect starts askuser mcp with args, after --no-config, outside tmux
// unless env says otherwise, and returns a client whose form handler is
// onForm(request, extra).
export async function connect(onForm, args = [], env = { TMUX: "" }) {
  const client = new Client({ name: "ts-peer", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, onForm);
  env = { ...process.env, ...env };
  const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--no-config", ...args], env, stderr: "inherit" });
  await client.connect(transport);
  // Every message as it came off the wire, before the SDK handles it:
  // the SDK hands notifications on a turn later than responses, so one
  // that came just before a result can reach the caller after it, or
  // not at all once the request is settled.
  client.wire = [];
  const handle = transport.onmessage;
  transport.onmessage = (msg, extra) => {
    client.wire.push(msg);
    handle?.(msg, extra);
  };
  return client;
}
