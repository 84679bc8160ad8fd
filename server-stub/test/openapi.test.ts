// The OpenAPI document comes from the routes' own schemas; the stub's answers must satisfy it.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isEmailAddress } from 'sitebeam/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestStub } from './helpers.js';

const stub = useTestStub({ trustProxy: true });
// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by path in assertions.
let document: any;
beforeAll(async () => {
  document = (await (await stub.request('/openapi.json')).json()) as typeof document;
});

function validatorFor(schema: unknown) {
  const ajv = new Ajv2020.default({ strict: false });
  addFormats.default(ajv);
  ajv.addFormat('mailbox', isEmailAddress);
  ajv.addSchema({ $id: 'openapi.json', components: document.components });
  const resolved = JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'),
  );
  return ajv.compile(resolved);
}

const responseSchema = (path: string, method: string, status: string) =>
  document.paths[path][method].responses[status].content['application/json'].schema;

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with every /v1 operation and the token scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/v1/ai/model/{model}',
      '/v1/ai/models',
      '/v1/ai/prompt',
      '/v1/email',
      '/v1/tracker/img/{website}',
      '/v1/tracker/json/{website}',
    ]);
    expect(document.components.securitySchemes.apiToken).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Auth-Token',
    });
    expect(document.paths['/v1/tracker/json/{website}'].get.security).toEqual([]);
    expect(
      document.paths['/v1/tracker/img/{website}'].get.responses['200'].content['image/png'],
    ).toBeDefined();
  });

  it('describes the email body with the limits the stub enforces', () => {
    const message = document.components.schemas.EmailMessage;
    expect(message.required).toEqual(['to', 'subject']);
    expect(message.properties.subject.maxLength).toBe(998);
  });

  it('the stub’s own answers validate against the document', async () => {
    const checks: Array<[string, string, string, unknown]> = [
      [
        '/v1/email',
        'post',
        '200',
        await stub.client.sendEmail({ to: 'a@example.com', subject: 's' }),
      ],
      ['/v1/ai/models', 'get', '200', await stub.client.listModels()],
      [
        '/v1/ai/prompt',
        'post',
        '201',
        await stub.client.prompt({ model: 'nltksentiment', message: 'good' }),
      ],
      ['/v1/ai/model/{model}', 'get', '202', await stub.client.loadModel('mock')],
      [
        '/v1/tracker/json/{website}',
        'get',
        '200',
        await stub.client.track('site', { 'x-real-ip': '8.8.8.8' }),
      ],
      ['/v1/tracker/json/{website}', 'get', '200', await stub.client.track('site')],
      ['/v1/email', 'post', '422', await (await stub.postJson('/v1/email', {})).json()],
      [
        '/v1/email',
        'post',
        '4XX',
        await (await stub.request('/v1/email', { method: 'POST' })).json(),
      ],
    ];
    for (const [path, method, status, body] of checks) {
      const validate = validatorFor(responseSchema(path, method, status));
      expect(
        validate(body),
        `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
  });

  it('the request schemas refuse what the stub refuses', () => {
    const validate = validatorFor(
      document.paths['/v1/email'].post.requestBody.content['application/json'].schema,
    );
    expect(validate({ to: 'a@example.com', subject: 'x' })).toBe(true);
    expect(validate({ to: 'a@example.com, b@example.com', subject: 'x' })).toBe(false);
    expect(validate({ to: 'a@example.com', subject: 'a\nb' })).toBe(false);
  });
});
