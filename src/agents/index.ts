export type { A2aHandler, A2aOptions } from './a2a.ts';
export { agentCard, createA2aHandler } from './a2a.ts';
export type { Route } from './a2a-routing.ts';
export { routeText, searchTokens } from './a2a-routing.ts';
export type { McpOptions } from './mcp.ts';
export { createMcpServer, handleMcpHttp, prefersEventStream } from './mcp.ts';
export type { AgentTool, ToolOutcome } from './tools.ts';
export { AGENT_INSTRUCTIONS, AGENT_TOOLS, toolJsonSchema, toolNamed } from './tools.ts';
