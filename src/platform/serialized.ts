import type { FastifyReply } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { safeEncode, type $ZodType } from 'zod/v4/core';

/**
 * A part of a response that many requests share, checked and serialised once: against its
 * schema with the same encode and the same error as the route serializer applies to a whole
 * response, then kept as long as the value itself (by identity). A repeated atlas search returns
 * the same cached hits for every request that repeats it; checking and serialising those again
 * took about as much of the server as the rest of such a request.
 */
export function serializedOnce(schema: $ZodType, method: string, url: string): (value: object) => string {
  const serialized = new WeakMap<object, string>();
  return (value) => {
    let json = serialized.get(value);
    if (json === undefined) {
      const result = safeEncode(schema, value);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      serialized.set(value, (json = JSON.stringify(result.data)));
    }
    return json;
  };
}

/** Sends JSON already serialised: Fastify passes a string body through without its serializer. */
export function sendSerialized(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
