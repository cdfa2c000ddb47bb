import type { NextFunction, Request, Response } from 'express';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { httpStatusOf } from '@brandwire/domain';
import { ErrorEnvelopeDto } from './api-errors';

/** The OpenAPI document generated from the controllers: UI at /api/docs, JSON at /api/docs-json. */
export function mountOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Brandwire')
    .setDescription(
      'Outbound messaging, retrieval and settings for brand channels on the messenger. Errors use the envelope `{ ok: false, code, message }` (schema ErrorEnvelope) with the HTTP status of their code; each operation lists the codes it answers. Messenger rejections of a send are HTTP 200 with `ok: false` and the messenger code.',
    )
    .setVersion('0.1.0')
    // not addBearerAuth(), which says bearerFormat JWT: the keys are opaque strings the service looks up by their hash
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'an opaque API key, not a JWT: the keys the service issues are `bw_` and 32 base64url characters (`Authorization: Bearer bw_…`)',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto] });
  documentStorageUnavailable(document);
  app.use('/api/docs', docsPageHeaders);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}

/** The documentation page runs its own files only (its style sheet and icons inline), in no other site's frame. */
const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

function docsPageHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.set(DOCS_PAGE_HEADERS);
  next();
}

const STORAGE_UNAVAILABLE_LINE = '- `STORAGE_UNAVAILABLE`: the database could not be reached or did not answer in time; try again later';

/**
 * Every operation that needs a key reads the database first: its 503 lists STORAGE_UNAVAILABLE beside the codes
 * the operation documents itself with that status (added here, as a decorator's response would replace theirs).
 */
function documentStorageUnavailable(document: OpenAPIObject): void {
  const status = String(httpStatusOf('STORAGE_UNAVAILABLE'));
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation?.security?.some((requirement) => 'bearer' in requirement)) continue;
      const own = operation.responses[status];
      if (own && 'description' in own) {
        own.description = `${own.description}\n${STORAGE_UNAVAILABLE_LINE}`;
      } else {
        operation.responses[status] = { description: STORAGE_UNAVAILABLE_LINE, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
      }
    }
  }
}
