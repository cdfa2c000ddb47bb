import { type PipeTransform, Param } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { controlCharactersMessage, hasControlCharacter } from '@brandwire/domain';
import { fail } from '../errors/envelope';

/** The longest customer key taken, as in the bodies' `userKey`. */
const MAX_USER_KEY = 200;

/**
 * A `userKey` path segment, held to the rules of the bodies' `userKey` (not blank, at most 200 characters, no
 * control character), and not a dot segment.
 */
class UserKeyPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/\S/.test(value)) throw fail('BAD_REQUEST', 'userKey must not be blank (empty or only spaces)');
    if (value.length > MAX_USER_KEY) throw fail('BAD_REQUEST', `userKey must be shorter than or equal to ${MAX_USER_KEY} characters`);
    if (hasControlCharacter(value)) throw fail('BAD_REQUEST', controlCharactersMessage('userKey'));
    // URLs take these for the folder itself and the one above, also percent-encoded: no call could name such a customer
    if (value === '.' || value === '..') throw fail('BAD_REQUEST', `userKey cannot be "${value}" in a path`);
    return value;
  }
}

const USER_KEY_PIPE = new UserKeyPipe();

/** The route's `:userKey`, checked. */
export function UserKeyParam(): ParameterDecorator {
  return Param('userKey', USER_KEY_PIPE);
}

/** Documents the route's `:userKey` with its limits. */
export function ApiUserKeyParam(): MethodDecorator {
  return ApiParam({ name: 'userKey', description: 'the customer key; not blank, no control characters', schema: { type: 'string', minLength: 1, maxLength: MAX_USER_KEY, pattern: '\\S' } });
}
