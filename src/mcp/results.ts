import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { classify, type ErrorStyle } from '../platform/errors.js';

/**
 * A tool's answer: the REST endpoint's response body, encoded with the same response schema the
 * REST serializer uses, so the JSON is identical (citations and abstentions included). It goes
 * out twice, as structuredContent and as its JSON text for clients that read text only.
 */
export function jsonResult(schema: z.ZodType, data: unknown): CallToolResult {
  const body = z.encode(schema, data) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * A refused or failed call, as a tool error (isError) whose text is the REST error body's core:
 * {"error": {"status", "code", "message"}}. 5xx messages are generic, exactly as over REST.
 */
export function errorResult(error: unknown, style: ErrorStyle, logError: (error: unknown, message: string) => void): { result: CallToolResult; status: number } {
  const { statusCode, code, message, details } = classify(error, style);
  if (statusCode >= 500) logError(error, 'mcp tool call failed');
  const body = { error: { status: statusCode, code, message, ...(details !== undefined ? { details } : {}) } };
  return { result: { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true }, status: statusCode };
}
