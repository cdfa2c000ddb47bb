import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { fail } from '../errors/envelope';

function describe(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => text.replace(error.property, path));
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** DTO validation whose failures name the field, as `BAD_REQUEST` in the envelope. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => fail('BAD_REQUEST', describe(errors).join('; ') || 'invalid request'),
  });
}
