'use strict';

/**
 * A minimal NestJS app in plain JS (decorators applied as functions): one GET route answering JSON, on the
 * adapter named by BENCH_ADAPTER (fastify or express). Comparing the two is the "Express vs the Fastify
 * adapter" measurement; comparing each with its bare framework shows what Nest itself costs.
 */
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { announce, fail, pingLikePayload } = require('./common');

class HelloController {
  hello() {
    return pingLikePayload();
  }
}
Controller('hello')(HelloController);
Get()(HelloController.prototype, 'hello', Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello'));

class BenchModule {}
Module({ controllers: [HelloController] })(BenchModule);

function createAdapter(kind) {
  if (kind === 'fastify') return new (require('@nestjs/platform-fastify').FastifyAdapter)();
  if (kind === 'express') return new (require('@nestjs/platform-express').ExpressAdapter)();
  throw new Error(`BENCH_ADAPTER must be fastify or express, got "${kind}"`);
}

async function main() {
  const app = await NestFactory.create(BenchModule, createAdapter(process.env.BENCH_ADAPTER), { logger: false });
  await app.listen(0, '127.0.0.1');
  announce(app.getHttpServer().address().port, () => app.close());
}

main().catch(fail);
