import type { z } from 'zod';
import type { ErrorStyle } from '../platform/errors.js';
import type { McpCaller } from './caller.js';
import type { McpDeps } from './deps.js';

/**
 * One MCP tool: its input is a Zod object schema taken from the REST route's own request schema
 * (the SDK turns it into the tool's JSON Schema and validates arguments with it), its output the
 * REST route's response schema. `run` calls the same domain function the REST handler calls.
 */
export interface ToolDef<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  /** The error body shape of the REST service the tool belongs to. */
  style: ErrorStyle;
  /** Atlas tools: the endpoint name the call is counted under in atlas usage (and so billed as). */
  meter?: 'search' | 'lookup' | 'graph';
  /** False for a tool that writes something the caller would see (a personal reference). */
  readOnly: boolean;
  run: (args: z.output<I>, caller: McpCaller, deps: McpDeps) => unknown;
}

/** Keeps each definition's argument type tied to its own input schema. */
export const defineTool = <I extends z.ZodObject>(tool: ToolDef<I>): ToolDef => tool as unknown as ToolDef;
