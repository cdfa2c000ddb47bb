import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document generated from the controllers: UI at /api/docs, JSON at /api/docs-json. */
export function mountOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Brandwire')
    .setDescription(
      'Outbound messaging, retrieval and settings for brand channels on the messenger. Errors use the envelope `{ ok: false, code, message }`; messenger rejections of a send are HTTP 200 with `ok: false` and the messenger code.',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'an API key (bw_…)' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
