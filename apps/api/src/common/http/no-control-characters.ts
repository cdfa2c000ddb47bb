import { controlCharactersMessage, hasControlCharacter } from '@brandwire/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * An identifier (userKey, brandKey/brand, botEvent) holds no control character: no C0 control (tab and newline
 * too), DEL, nor C1 control. Texts meant for people are not held to it. The path's `{userKey}` is checked by
 * UserKeyParam with the same rule.
 */
export function NoControlCharacters(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'noControlCharacters',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !hasControlCharacter(value),
        defaultMessage: (args) => controlCharactersMessage(args?.property ?? 'the value'),
      },
    },
    options,
  );
}
