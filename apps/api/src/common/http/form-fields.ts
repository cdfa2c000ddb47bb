import { Transform } from 'class-transformer';

/** A form field sent empty, as an HTML form sends one left unset, counts as not given (its default applies). */
export function EmptyAsUnset(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));
}

const DECIMAL_INTEGER = /^-?\d{1,15}$/;

/**
 * A query parameter that holds a whole number written in decimal digits; anything else (`0x10`, `1e2`, `5.0`,
 * ` 5`) stays a string and fails `@IsInt`. Left empty (`max=`) it counts as not given.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (value === '') return undefined;
    return typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;
  });
}
