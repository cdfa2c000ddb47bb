import { type CanActivate, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata, type Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiConsumes } from '@nestjs/swagger';
import type { Request } from 'express';
import { fail } from '../errors/envelope';

const TAKES_MULTIPART = 'brandwire:takes-multipart';
const MULTIPART = /^multipart\/form-data\b/i;

/** The route reads multipart/form-data (fields and files) through `interceptor`; every other route reads JSON. */
export function MultipartBody(interceptor: Type<NestInterceptor>): MethodDecorator {
  return applyDecorators(SetMetadata(TAKES_MULTIPART, true), UseInterceptors(interceptor), ApiConsumes('multipart/form-data'));
}

/**
 * A multipart body sent to a JSON route is read by nobody, and a JSON body sent to a multipart route has no files:
 * either would be answered as if every field were missing. Both are told what the route takes instead.
 */
@Injectable()
export class BodyKindGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const type = request.headers['content-type'];
    const multipartBody = type !== undefined && MULTIPART.test(type);
    const multipartRoute = this.reflector.get<boolean | undefined>(TAKES_MULTIPART, context.getHandler()) === true;
    if (multipartRoute && !multipartBody) {
      throw fail('UNSUPPORTED_MEDIA_TYPE', `${request.method} ${request.path} takes multipart/form-data (fields and files); got ${type ?? 'no Content-Type'}`);
    }
    if (!multipartRoute && multipartBody) {
      throw fail('UNSUPPORTED_MEDIA_TYPE', `${request.method} ${request.path} takes JSON (Content-Type: application/json); multipart/form-data is for uploads and attachment sends`);
    }
    return true;
  }
}
