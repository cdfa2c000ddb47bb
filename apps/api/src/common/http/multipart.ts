import { controlCharactersMessage, hasControlCharacter } from '@brandwire/domain';
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
import { removeUploads } from '../../media/upload-storage';
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

/** busboy's words for a body it cannot split into parts (as Nest passes them on), said for a client. */
const MULTIPART_SYNTAX: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Multipart: Boundary not found/, 'the Content-Type multipart/form-data names no boundary (multipart/form-data; boundary=…)'],
  [
    /^Multipart: Unexpected end of (?:form|file)/,
    'the multipart body ended before its closing boundary: it was cut short, or its parts are not separated by the boundary its Content-Type names',
  ],
  [/^Multipart: Malformed part header/, 'a part of the multipart body has a malformed header'],
];

/** multer's refusals (as Nest words them) said in terms of the route: which part, how many files. */
function explained(error: unknown, files: MultipartFiles): unknown {
  if (!(error instanceof HttpException)) return error;
  const syntax = MULTIPART_SYNTAX.find(([said]) => said.test(error.message));
  if (syntax) return fail('BAD_REQUEST', syntax[1]);
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

/** The Unicode replacement character: what multer's UTF-8 decoding puts where the bytes are not UTF-8. */
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Why the text fields multer read cannot be taken, if they cannot:
 * - a part named as the files' part but without a file name is a text field to multer: it is told as such, not
 *   refused as a field the route does not know;
 * - a field whose bytes are not UTF-8 reaches us decoded with U+FFFD in their place (multer hands over no bytes):
 *   refused naming the field, as a JSON body that is not well-formed Unicode is, rather than sent on altered.
 */
function textFieldsRefusal(body: Record<string, unknown> | undefined, files: MultipartFiles): string | undefined {
  if (body?.[files.field] !== undefined) {
    return `the part "${files.field}" must be a file, with a file name (Content-Disposition: form-data; name="${files.field}"; filename="…"), not a text field`;
  }
  for (const [name, value] of Object.entries(body ?? {})) {
    const texts: unknown[] = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text === 'string' && text.includes(REPLACEMENT_CHARACTER))) {
      return `${name} is not valid UTF-8: it holds bytes that are not UTF-8 (or U+FFFD, the character that stands in for them)`;
    }
  }
  return undefined;
}

/** Refuses text fields the route cannot take (see textFieldsRefusal), removing the files already stored for them. */
function textFieldsChecked(files: MultipartFiles): Type<NestInterceptor> {
  class TextFieldsChecked implements NestInterceptor {
    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const request = context.switchToHttp().getRequest<Request>();
      const refusal = textFieldsRefusal(request.body as Record<string, unknown> | undefined, files);
      if (refusal === undefined) return next.handle();
      await removeUploads(request.file ?? request.files);
      throw fail('BAD_REQUEST', refusal);
    }
  }
  return mixin(TextFieldsChecked);
}

/**
 * A file whose name holds a control character is refused before it is stored: the messenger's multipart parser
 * cannot read such a name, and would fail a good file for it.
 */
function withFileNamesChecked(options: MulterOptions): MulterOptions {
  const { fileFilter } = options;
  return {
    ...options,
    fileFilter: (request, file, callback) => {
      if (hasControlCharacter(file.originalname)) {
        callback(fail('BAD_REQUEST', controlCharactersMessage(`the file name ${JSON.stringify(file.originalname)} in the part "${file.fieldname}"`)), false);
      } else if (file.originalname.includes(REPLACEMENT_CHARACTER)) {
        callback(fail('BAD_REQUEST', `the file name ${JSON.stringify(file.originalname)} in the part "${file.fieldname}" is not valid UTF-8 (or holds U+FFFD, the character that stands in for such bytes)`), false);
      } else if (fileFilter) {
        fileFilter(request, file, callback);
      } else {
        callback(null, true);
      }
    },
  };
}

/** The route reads multipart/form-data (fields and the files given); every other route reads JSON. */
export function MultipartBody(files: MultipartFiles): MethodDecorator {
  const options = withFileNamesChecked(files.options);
  const reader = files.maxCount === 1 ? FileInterceptor(files.field, options) : FilesInterceptor(files.field, files.maxCount, options);
  return applyDecorators(SetMetadata(TAKES_MULTIPART, true), UseInterceptors(multipartErrors(files), reader, textFieldsChecked(files)), ApiConsumes('multipart/form-data'));
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
    // multer reads the bytes as they come: a compressed body would be taken apart as garbage, a mislabelled one as if unlabelled
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (multipartRoute && encoding !== undefined && encoding !== '' && encoding !== 'identity') {
      throw fail('UNSUPPORTED_MEDIA_TYPE', `${request.method} ${request.path} takes multipart/form-data without a Content-Encoding; got Content-Encoding: ${encoding}`);
    }
    if (!multipartRoute && multipartBody) {
      throw fail('UNSUPPORTED_MEDIA_TYPE', `${request.method} ${request.path} takes JSON (Content-Type: application/json); multipart/form-data is for uploads and attachment sends`);
    }
    return true;
  }
}
