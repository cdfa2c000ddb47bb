import { scopeAllows } from '@brandwire/domain';
import { sameSecret } from '@brandwire/upstream';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Config } from '../../config/config';
import { CONFIG } from '../../app/tokens';
import { fail } from '../errors/envelope';
import { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer-token';
import { KeyRateLimit } from './key-rate-limit';
import type { AuthenticatedRequest } from './principal';
import { ROUTE_ACCESS, type RouteAccess } from './route-access';

/** Global guard, deny by default: a route that declares no access rule is refused. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly rateLimit: KeyRateLimit,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!access) throw fail('FORBIDDEN', 'this route declares no access rule');
    switch (access.kind) {
      case 'public':
        return true;
      case 'upstream-callback': {
        if (!sameSecret(request.header('x-partner-key'), this.config.upstreamPartnerKey)) throw fail('UNAUTHORIZED', 'callbacks need the partner key in X-Partner-Key');
        return true;
      }
      case 'scope': {
        const principal = await this.authenticate(request);
        await this.rateLimit.count(principal, context.switchToHttp().getResponse());
        if (!scopeAllows(principal.scope, access.scope)) {
          throw fail('FORBIDDEN', `this key has scope ${principal.scope}; ${request.method} ${request.path} needs ${access.scope} or higher`);
        }
        request.principal = principal;
        return true;
      }
      default: {
        const unreachable: never = access;
        throw new Error(`unknown route access ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private async authenticate(request: AuthenticatedRequest) {
    const header = request.header('authorization');
    if (!header) throw fail('UNAUTHORIZED', 'missing Authorization header: send "Authorization: Bearer <key>"');
    const token = bearerToken(header);
    if (!token) throw fail('UNAUTHORIZED', 'the Authorization header must be "Bearer <key>"');
    const principal = await this.keys.authenticate(token);
    if (!principal) throw fail('UNAUTHORIZED', 'unknown key');
    return principal;
  }
}
