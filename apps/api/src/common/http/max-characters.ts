import { characterCount, isLongerThan } from '@brandwire/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * At most `max` characters, counted as the messenger's limits are (code points: an emoji is one), where
 * class-validator's `MaxLength` counts otherwise (it skips variation selectors, so "❤️" is one).
 */
export function MaxCharacters(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxCharacters',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !isLongerThan(value, max),
        defaultMessage: (args) => `${args?.property ?? 'the value'} must be at most ${max} characters (it has ${characterCount(String(args?.value ?? ''))})`,
      },
    },
    options,
  );
}
