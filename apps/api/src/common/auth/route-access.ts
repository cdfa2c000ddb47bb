import type { Scope } from '@brandwire/domain';
import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

/** How a route is reached: with a key of at least a scope, openly, or only by the messenger's callbacks. */
export type RouteAccess = { kind: 'scope'; scope: Scope } | { kind: 'public' } | { kind: 'upstream-callback' };

export const ROUTE_ACCESS = 'brandwire:route-access';

/** Requires a bearer key whose scope is at least `scope`; the global guard authenticates first. */
export function RequiresScope(scope: Scope): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, { kind: 'scope', scope } satisfies RouteAccess),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'missing or unknown key (`UNAUTHORIZED`)' }),
    ApiForbiddenResponse({ description: `the key's scope is below ${scope}, or it has no access to the brand (\`FORBIDDEN\`)` }),
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
