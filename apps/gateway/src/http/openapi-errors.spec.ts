import 'reflect-metadata';
import { DECORATORS, OpenAPIObject } from '@nestjs/swagger';
import { ErrorCode, ErrorCodes } from '@app/contracts';
import { ApiErrors, ERROR_NOTES, errorExample, joinNotes } from './api-errors';
import { describeErrors } from './openapi-errors';

const ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };

function documentWith(operation: Record<string, unknown>, method = 'post'): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: { '/v1/thing/{id}': { [method]: { responses: { '200': { description: 'ok' } }, ...operation } } },
  } as unknown as OpenAPIObject;
}

describe('@ApiErrors and the document’s error answers', () => {
  it('has a note and an example envelope at its own status for every code of the code table', () => {
    for (const code of Object.keys(ErrorCodes) as ErrorCode[]) {
      expect(ERROR_NOTES[code]).toEqual(expect.any(String));
      expect(errorExample(code).error).toMatchObject({ status: ErrorCodes[code], code, requestId: expect.any(String) });
    }
  });

  it('groups a route’s codes by their status, and adds up the notes of a code documented twice', () => {
    class Controller {
      handler(): void {}
    }
    const descriptor = Object.getOwnPropertyDescriptor(Controller.prototype, 'handler')!;
    ApiErrors({ VALIDATION_FAILED: 'merchantCode is too long' })(Controller.prototype, 'handler', descriptor);
    ApiErrors('INVALID_STATE', 'DUPLICATE_ORDER_CODE', { VALIDATION_FAILED: 'url is not https' })(
      Controller.prototype,
      'handler',
      descriptor,
    );
    const responses = Reflect.getMetadata(DECORATORS.API_RESPONSE, descriptor.value);
    expect(Object.keys(responses).sort()).toEqual(['400', '409']);
    expect(Object.keys(responses['409'].examples)).toEqual(['INVALID_STATE', 'DUPLICATE_ORDER_CODE']);
    expect(responses['400'].examples.VALIDATION_FAILED.summary).toBe('merchantCode is too long; or url is not https');
    expect(joinNotes('a; or b', 'b')).toBe('a; or b');
  });

  it('adds the codes of the route’s kind and keeps the route’s own notes beside them', () => {
    const document = describeErrors(
      documentWith({
        security: [{ privateKey: [] }],
        parameters: [{ name: 'id', in: 'path' }],
        responses: {
          '200': { description: 'ok' },
          '429': {
            description: '',
            content: {
              'application/json': { schema: ENVELOPE, examples: { RATE_LIMITED: { summary: 'too many declines' } } },
            },
          },
        },
      }),
    );
    const responses = document.paths['/v1/thing/{id}'].post!.responses as Record<string, any>;
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '403', '413', '415', '429', '500']);
    expect(Object.keys(responses['401'].content['application/json'].examples)).toEqual([
      'AUTH_MISSING',
      'AUTH_INVALID',
    ]);
    expect(responses['429'].description).toMatch(
      /^`RATE_LIMITED`: more than RATE_LIMIT_PER_SECOND.*; or too many declines$/,
    );
    expect(Object.keys(responses['429'].headers)).toContain('Retry-After');
    expect(responses['500'].content['application/json'].schema).toEqual(ENVELOPE);
  });

  it('stops the emit on an error answer documented without its codes, or a code under another status', () => {
    const bare = documentWith({
      responses: { '404': { description: 'Not found', content: { 'application/json': { schema: ENVELOPE } } } },
    });
    expect(() => describeErrors(bare)).toThrow('POST /v1/thing/{id}: its 404 answer names no error code');
    const misplaced = documentWith({
      responses: {
        '400': {
          description: '',
          content: { 'application/json': { schema: ENVELOPE, examples: { NOT_FOUND: { summary: 'x' } } } },
        },
      },
    });
    expect(() => describeErrors(misplaced)).toThrow('NOT_FOUND is documented under 400, but answers 404');
    // The served document lists them instead of stopping the gateway.
    const problems: string[] = [];
    describeErrors(bare, problems);
    expect(problems).toEqual([
      'OpenAPI POST /v1/thing/{id}: its 404 answer names no error code; document it with @ApiErrors',
    ]);
  });
});
