import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { type ValidatorOptions, validateSync } from 'class-validator';
import { fail } from '../errors/envelope';

/** Rules about what a value is; when one fails, the rules about its size or range say nothing useful. */
const SCALAR_RULES = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isIn', 'isEnum']);
const TYPE_RULES = new Set([...SCALAR_RULES, 'isArray', 'isObject', 'isDefined']);

/** One clear reason per field: missing, a list where one value belongs, the wrong type, or else every rule it broke. */
function reasonsFor(error: ValidationError, path: string): string[] {
  const constraints = error.constraints ?? {};
  const rules = Object.keys(constraints);
  if (rules.length === 0) return [];
  if (rules.includes('whitelistValidation')) return [`property ${path} should not exist`];
  const value: unknown = error.value;
  if (value === undefined || value === null) return [`${path} is required`];
  const scalar = rules.find((rule) => SCALAR_RULES.has(rule) && !(constraints[rule] ?? '').startsWith('each value'));
  if (Array.isArray(value) && scalar !== undefined) {
    return [`${(constraints[scalar] ?? '').replace(error.property, path)}, not a list (a JSON array, or a form field given more than once)`];
  }
  const typeRules = rules.filter((rule) => TYPE_RULES.has(rule));
  const shown = typeRules.length > 0 ? typeRules : rules;
  return shown.map((rule) => (constraints[rule] ?? '').replace(error.property, path));
}

/** A field's path as a message shows it: a client's own property names can be of any length. */
const MAX_SHOWN_PATH = 100;

function describe(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const shown = path.length > MAX_SHOWN_PATH ? `${path.slice(0, MAX_SHOWN_PATH)}…` : path;
    return [...reasonsFor(error, shown), ...describe(error.children ?? [], path)];
  });
}

/** The most reasons one answer lists: a body of thousands of unknown fields is told the first ones and how many more. */
const MAX_REASONS = 10;

function summarized(reasons: readonly string[]): string {
  if (reasons.length <= MAX_REASONS) return reasons.join('; ');
  return `${reasons.slice(0, MAX_REASONS).join('; ')}; and ${reasons.length - MAX_REASONS} more`;
}

/**
 * Validates synchronously: the DTOs have no asynchronous rule, and class-validator's asynchronous `validate`
 * costs a chain of promises per property and rule, about a tenth of a text send's CPU time under load.
 */
class SyncValidationPipe extends ValidationPipe {
  protected override validate(object: object, validatorOptions?: ValidatorOptions): ValidationError[] {
    return validateSync(object, validatorOptions);
  }
}

/** DTO validation whose failures name the field, as `BAD_REQUEST` in the envelope. */
export function validationPipe(): ValidationPipe {
  return new SyncValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // the value picks the reason (missing, a list); it is never part of the message
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => fail('BAD_REQUEST', summarized(describe(errors)) || 'invalid request'),
  });
}
