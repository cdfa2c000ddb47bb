import { SCOPES, type Scope } from '@brandwire/domain';
import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrors, BRAND_ERRORS } from '../../docs/api-errors';

/** How a route is reached: with a key of at least a scope, openly, or only by the messenger's callbacks. */
export type RouteAccess = { kind: 'scope'; scope: Scope } | { kind: 'public' } | { kind: 'upstream-callback' };

export const ROUTE_ACCESS = 'brandwire:route-access';

export interface ScopeDocs {
  /**
   * The route names a brand (`brandKey` or `brand`) that the key must have been given, so that it may answer 403
   * FORBIDDEN whatever the scope; default true. Only documentation: BrandAccessService checks it.
   */
  brand?: boolean;
}

/**
 * Requires a bearer key whose scope is at least `scope`; the global guard authenticates first and counts the request
 * against the key's rate limit. Documents 401, 429, and 403 where it can happen: a scope above the lowest, or a
 * brand the key may not have been given.
 */
export function RequiresScope(scope: Scope, docs: ScopeDocs = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, { kind: 'scope', scope } satisfies RouteAccess),
    ApiBearerAuth(),
    ApiErrors(
      {
        UNAUTHORIZED: 'no Authorization header, one that is not "Bearer <key>", or an unknown key',
        ...(scope === SCOPES[0] ? {} : { FORBIDDEN: `the key's scope is below ${scope}` }),
        RATE_LIMITED: 'the key has made its requests of this minute (RATE_LIMIT_PER_KEY on the service, 6,000 by default): `Retry-After` says when to try again',
      },
      docs.brand === false ? {} : BRAND_ERRORS,
    ),
  );
}

/** Open to anyone (health, API documentation). */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'public' } satisfies RouteAccess);
}

/** Reached only by the messenger, which proves itself with the partner key. */
export function UpstreamCallback(): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'upstream-callback' } satisfies RouteAccess);
}
