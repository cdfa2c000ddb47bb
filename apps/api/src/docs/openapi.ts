import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
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
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
