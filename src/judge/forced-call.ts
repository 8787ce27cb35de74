/**
 * Whether a chat reply is of use to a request that forced a function call (`tool_choice` naming
 * a function), as every judge asks for its verdict. A reply without that call, with arguments
 * that are not a JSON object, or with a value outside an `enum` of the function's parameters (a
 * choice that was not offered) is the judge's error, not an answer: the cache neither stores nor
 * serves it, so the next run asks again, since the same prompt may well be answered right.
 */
import { isRecord } from '../shared/is-record.ts';
import type { ChatReply, ChatRequest } from './types.ts';

/** How deep the parameters' schema is followed; a deeper one is taken as it is. */
const MAX_DEPTH = 16;

/** True unless `request` forced a function call that `reply` does not make as asked. */
export function honoursForcedCall(request: ChatRequest, reply: ChatReply): boolean {
  const forced = request.tool_choice;
  if (!isRecord(forced) || !isRecord(forced.function)) return true;
  const name = forced.function.name;
  const call = reply.toolCalls.find((c) => c.name === name);
  if (call === undefined) return false;
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return false;
  }
  if (!isRecord(args)) return false;
  const tool = request.tools?.find((t) => t.function.name === name);
  return fitsEnums(args, tool?.function.parameters, 0);
}

/**
 * True when every value of `value` that `schema` restricts to an `enum` is one of it, a missing
 * one included when `required` names it. Only `enum` is checked: the judges read the rest
 * loosely (a missing `reason` is an empty one), and an answer they can use must stay cached.
 */
function fitsEnums(value: unknown, schema: unknown, depth: number): boolean {
  if (!isRecord(schema) || depth > MAX_DEPTH) return true;
  if (Array.isArray(schema.enum) && !schema.enum.some((member) => sameMember(value, member))) {
    return false;
  }
  if (isRecord(value) && isRecord(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const [name, property] of Object.entries(schema.properties)) {
      if (Object.hasOwn(value, name)) {
        if (!fitsEnums(value[name], property, depth + 1)) return false;
      } else if (required.includes(name) && isRecord(property) && Array.isArray(property.enum)) {
        return false;
      }
    }
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    return value.every((item) => fitsEnums(item, schema.items, depth + 1));
  }
  return true;
}

/**
 * `value` is `member`. A number or boolean whose text is a string member counts as it, as the
 * judges read it: many servers send a digit-like choice (`"3"`) as the number 3.
 */
function sameMember(value: unknown, member: unknown): boolean {
  if (value === member) return true;
  if (typeof member === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return String(value) === member;
  }
  if (typeof member === 'object' && member !== null && typeof value === 'object') {
    return JSON.stringify(value) === JSON.stringify(member);
  }
  return false;
}
