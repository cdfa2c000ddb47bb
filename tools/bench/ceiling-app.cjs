'use strict';
/**
 * The ceiling: a bare NestJS 11 (Express) app with one route, GET /hello -> {"ok":true}.
 * Plain CommonJS without a compiler, so the decorators are applied by calling them by hand.
 * Prints "listening on <url>" once it accepts connections. Env: PORT (default 0 = ephemeral).
 */
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

class HelloController {
  hello() {
    return { ok: true };
  }
}
Controller('hello')(HelloController);
Get()(HelloController.prototype, 'hello', Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello'));

class HelloModule {}
Module({ controllers: [HelloController] })(HelloModule);

async function main() {
  const app = await NestFactory.create(HelloModule, { logger: false });
  await app.listen(Number(process.env.PORT || 0), '127.0.0.1');
  const { port } = app.getHttpServer().address();
  process.stdout.write(`ceiling listening on http://127.0.0.1:${port}\n`);
  const stop = () => app.close().then(() => process.exit(0), () => process.exit(1));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`ceiling app failed: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exit(1);
});
