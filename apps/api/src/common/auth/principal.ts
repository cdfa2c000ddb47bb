import type { Scope } from '@brandwire/domain';
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';

/** The API key a request was made with. */
export interface Principal {
  keyId: string;
  name: string;
  scope: Scope;
  brandIds: readonly string[];
}

export interface AuthenticatedRequest extends Request {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without a scope');
  return principal;
});
