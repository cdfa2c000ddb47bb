import { Transform } from 'class-transformer';

/** A form field sent empty, as an HTML form sends one left unset, counts as not given (its default applies). */
export function EmptyAsUnset(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));
}
