// Run-time checks of the API's answers against the contract's answer shapes (`answerShapes`,
// generated from contract/sitebeam-contract.json): compiled code has no types left, and an
// instance, or whatever answers in front of it, may send anything.
import { answerShapes } from './contract.generated.js';

export type AnswerName = keyof typeof answerShapes;

type Shape =
  | { readonly kind: 'string' | 'number' | 'boolean' | 'null' | 'unknown' }
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'list'; readonly of: Shape }
  | { readonly kind: 'union'; readonly of: readonly Shape[] }
  | {
      readonly kind: 'object';
      readonly fields: Readonly<Record<string, { readonly type: Shape; readonly optional?: true }>>;
    };

/**
 * What is wrong with `value` as the answer `name` (`score is a string, not a number`), or
 * undefined when it fits. Fields the contract does not name pass.
 */
export function answerProblem(name: AnswerName, value: unknown): string | undefined {
  return problem(answerShapes[name] satisfies Shape, value, '');
}

function problem(shape: Shape, value: unknown, path: string): string | undefined {
  if (shape.kind === 'list' && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = problem(shape.of, item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (shape.kind === 'object' && isRecord(value)) {
    for (const [field, { type, optional }] of Object.entries(shape.fields)) {
      const inner = path ? `${path}.${field}` : field;
      if (!Object.hasOwn(value, field)) {
        if (optional) continue;
        return `${inner} is missing`;
      }
      const found = problem(type, value[field], inner);
      if (found) return found;
    }
    return undefined;
  }
  if (fits(shape, value)) return undefined;
  return `${path || 'the answer'} is ${describeValue(value, shape)}, not ${describeShape(shape)}`;
}

function fits(shape: Shape, value: unknown): boolean {
  switch (shape.kind) {
    case 'union':
      return shape.of.some((member) => problem(member, value, '') === undefined);
    case 'literal':
      return value === shape.value;
    case 'null':
      return value === null;
    case 'unknown':
      return true;
    case 'list':
    case 'object':
      return false;
    default:
      return typeof value === shape.kind;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown, expected: Shape): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string' && expected.kind === 'literal') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** How the kinds that are not `a <kind>` are said. */
const kindWords: Partial<Record<Shape['kind'], string>> = {
  list: 'a list',
  object: 'an object',
  null: 'null',
};

function describeShape(shape: Shape): string {
  if (shape.kind === 'literal') return JSON.stringify(shape.value);
  if (shape.kind === 'union') return shape.of.map(describeShape).join(' or ');
  return kindWords[shape.kind] ?? `a ${shape.kind}`;
}
