import {
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  HttpException,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  type Type,
  UseInterceptors,
  applyDecorators,
  mixin,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FileInterceptor, FilesInterceptor } from '@nestjs/platform-express';
import { ApiConsumes } from '@nestjs/swagger';
import type { Request } from 'express';
import { type Observable, catchError, throwError } from 'rxjs';
import { fail } from '../errors/envelope';

const TAKES_MULTIPART = 'brandwire:takes-multipart';
const MULTIPART = /^multipart\/form-data\b/i;

type MulterOptions = NonNullable<Parameters<typeof FileInterceptor>[1]>;

/** The files a multipart route takes: in the part `field`, at most `maxCount`. */
export interface MultipartFiles {
  field: string;
  maxCount: number;
  options: MulterOptions;
}

/** multer's refusals (as Nest words them) said in terms of the route: which part, how many files. */
function explained(error: unknown, files: MultipartFiles): unknown {
  if (!(error instanceof HttpException)) return error;
  const { field, maxCount } = files;
  const where = maxCount === 1 ? `one file, in the part "${field}"` : `at most ${maxCount} files, in the parts "${field}"`;
  if (error.message.startsWith('Too many files')) return fail('BAD_REQUEST', `too many files: this route takes ${where}`);
  const unexpected = /^Unexpected (?:file )?field - (.*)$/.exec(error.message);
  if (unexpected) {
    const part = unexpected[1] ?? '';
    return fail('BAD_REQUEST', part === field ? `too many files: this route takes ${where}` : `unexpected file part "${part}": this route takes ${where}`);
  }
  return error;
}

function multipartErrors(files: MultipartFiles): Type<NestInterceptor> {
  class MultipartErrors implements NestInterceptor {
    intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
      return next.handle().pipe(catchError((error: unknown) => throwError(() => explained(error, files))));
    }
  }
  return mixin(MultipartErrors);
}

/**
 * A part named as the files' part but without a file name is a text field to multer: it is told as such, not
 * refused as a field the route does not know.
 */
function filePartsOnly(files: MultipartFiles): Type<NestInterceptor> {
  class FilePartsOnly implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const body = context.switchToHttp().getRequest<Request>().body as Record<string, unknown> | undefined;
      if (body?.[files.field] !== undefined) {
        throw fail('BAD_REQUEST', `the part "${files.field}" must be a file, with a file name (Content-Disposition: form-data; name="${files.field}"; filename="…"), not a text field`);
      }
      return next.handle();
    }
  }
  return mixin(FilePartsOnly);
}

/** The route reads multipart/form-data (fields and the files given); every other route reads JSON. */
export function MultipartBody(files: MultipartFiles): MethodDecorator {
  const reader = files.maxCount === 1 ? FileInterceptor(files.field, files.options) : FilesInterceptor(files.field, files.maxCount, files.options);
  return applyDecorators(SetMetadata(TAKES_MULTIPART, true), UseInterceptors(multipartErrors(files), reader, filePartsOnly(files)), ApiConsumes('multipart/form-data'));
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
