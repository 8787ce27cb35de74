import type { FnArgs } from 'evalgate';
// A sibling TypeScript file imported by its .js specifier (NodeNext style): tsx maps it to atlas.ts.
import { CAPITALS, SMALL_MODEL_MISTAKES } from './atlas.js';

interface CapitalCase {
  country: string;
  capital: string;
  keywords: string[];
}

interface Params {
  model: 'small' | 'large';
  style: 'terse' | 'chatty';
}

/**
 * The function under test. A real app would call a model here; this one simulates two model
 * sizes and two answer styles so the grid has something to compare.
 */
export async function answer({ testCase, params, signal }: FnArgs<CapitalCase>) {
  const { model, style } = params as unknown as Params;
  await new Promise((resolve) => setTimeout(resolve, 5));
  signal.throwIfAborted();
  const city =
    (model === 'small' ? SMALL_MODEL_MISTAKES[testCase.country] : undefined) ??
    CAPITALS[testCase.country] ??
    'unknown';
  const text =
    style === 'terse'
      ? city
      : `Great question! The capital of ${testCase.country} is ${city}, a city with a long history.`;
  return { answer: city, text };
}
