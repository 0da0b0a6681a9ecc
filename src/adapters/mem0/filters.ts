/**
 * mem0's metadata filter grammar (`filters: { category: 'food', priority: { gte: 5 }, OR: [...] }`),
 * evaluated over one memory's document: the caller's metadata with `user_id`, `agent_id` and
 * `run_id` beside it. The same evaluation runs whatever the backend (IndexedDB, Chroma), after
 * engram's owner-scoped read, so a filter can only narrow what the owner may see.
 */
import { ValidationError } from 'engram';

/** One memory as filters see it. */
export type FilterDocument = Readonly<Record<string, unknown>>;

/** A compiled filter: true when the document matches. */
export type Predicate = (document: FilterDocument) => boolean;

const LOGICAL = new Set(['AND', 'OR', 'NOT']);
const OPERATORS = new Set(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'icontains']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Order comparison of two numbers or two strings; anything else never compares. */
function compare(left: unknown, right: unknown): number | undefined {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  return undefined;
}

function contains(value: unknown, needle: unknown, fold: boolean): boolean {
  const norm = (text: unknown) => (fold && typeof text === 'string' ? text.toLowerCase() : text);
  if (typeof value === 'string' && typeof needle === 'string')
    return norm(value)!
      .toString()
      .includes(norm(needle) as string);
  if (Array.isArray(value)) return value.some((item) => norm(item) === norm(needle));
  return false;
}

function listOf(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new ValidationError(path, `takes a list of values (got ${JSON.stringify(value)})`);
  return value;
}

/** One operator applied to a field's value. */
function applies(operator: string, value: unknown, operand: unknown, path: string): boolean {
  const order = () => compare(value, operand);
  switch (operator) {
    case 'eq':
      return value === operand;
    case 'ne':
      return value !== operand;
    case 'gt':
      return (order() ?? Number.NaN) > 0;
    case 'gte':
      return (order() ?? Number.NaN) >= 0;
    case 'lt':
      return (order() ?? Number.NaN) < 0;
    case 'lte':
      return (order() ?? Number.NaN) <= 0;
    case 'in':
      return listOf(operand, path).includes(value);
    case 'nin':
      return !listOf(operand, path).includes(value);
    case 'contains':
      return contains(value, operand, false);
    default:
      return contains(value, operand, true);
  }
}

/** The condition on one field: a value (equality), `'*'` (the field is present) or an object of operators (all must hold). */
function fieldPredicate(key: string, condition: unknown, path: string): Predicate {
  if (condition === '*') return (document) => document[key] !== undefined;
  if (!isPlainObject(condition)) return (document) => document[key] === condition;
  const operators = Object.entries(condition);
  const unknown = operators.filter(([operator]) => !OPERATORS.has(operator)).map(([operator]) => operator);
  if (unknown.length > 0 || operators.length === 0) {
    throw new ValidationError(path, `has no operator ${unknown.join(', ') || '(empty object)'}; use one of ${[...OPERATORS].join(', ')}, or a plain value for equality`);
  }
  for (const [operator, operand] of operators) if (operator === 'in' || operator === 'nin') listOf(operand, `${path}.${operator}`);
  return (document) => operators.every(([operator, operand]) => applies(operator, document[key], operand, `${path}.${operator}`));
}

/** A filter object: its fields and logical keys, all of which must hold (sibling keys are ANDed, as in mem0). */
export function compileFilter(filter: Readonly<Record<string, unknown>>, path = 'filters'): Predicate {
  const parts = Object.entries(filter).map(([key, condition]): Predicate => {
    if (!LOGICAL.has(key)) return fieldPredicate(key, condition, `${path}.${key}`);
    const branches = listOf(condition, `${path}.${key}`).map((branch, i) => {
      if (!isPlainObject(branch)) throw new ValidationError(`${path}.${key}.${i}`, 'must be a filter object');
      return compileFilter(branch, `${path}.${key}.${i}`);
    });
    if (key === 'AND') return (document) => branches.every((branch) => branch(document));
    if (key === 'OR') return (document) => branches.some((branch) => branch(document));
    return (document) => !branches.some((branch) => branch(document));
  });
  return (document) => parts.every((part) => part(document));
}
