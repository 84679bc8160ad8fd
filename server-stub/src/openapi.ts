// GET /openapi.json: an OpenAPI 3.1 document built from the very schemas the routes validate with.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AUTH_HEADER } from 'sitebeam/client';

type Schema = Record<string, unknown>;
interface RouteSchema {
  hide?: boolean;
  summary?: string;
  body?: Schema;
  params?: Schema;
  response?: Record<string, Schema>;
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'Success',
  '202': 'Accepted: loading started',
  '4XX': 'Error (see the contract for each status and i18n_code)',
  '5XX': 'Error (503 model_loading with Retry-After)',
};

/** A deep copy without `$id`: named schemas live in components, referenced once each. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$id')
      .map(([key, item]) => [key, withoutIds(item)]),
  );
}

export function collectOpenApi(app: FastifyInstance, info: { version: string }) {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/v1/') && !(route.schema as RouteSchema | undefined)?.hide)
      routes.push(route);
  });

  return () => {
    const components: Record<string, unknown> = {};
    const reference = (schema: Schema) => {
      const id = schema.$id;
      if (typeof id !== 'string') return withoutIds(schema);
      components[id] ??= withoutIds(schema);
      return { $ref: `#/components/schemas/${id}` };
    };

    const paths: Record<string, Record<string, unknown>> = {};
    for (const route of routes) {
      const schema = (route.schema ?? {}) as RouteSchema;
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
        (m) => m !== 'HEAD',
      );
      const parameters = Object.keys((schema.params?.properties as Schema | undefined) ?? {}).map(
        (name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        }),
      );
      const responses = Object.fromEntries(
        Object.entries(schema.response ?? {}).map(([status, body]) => {
          const code = status.toUpperCase();
          const content =
            route.url.startsWith('/v1/tracker/img/') && code === '200'
              ? { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } }
              : { 'application/json': { schema: reference(body) } };
          return [code, { description: STATUS_TEXT[code] ?? 'Answer', content }];
        }),
      );
      if (route.url.startsWith('/v1/tracker/img/')) {
        responses['200'] = {
          description: 'A 1×1 transparent PNG; the visit is recorded',
          content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
        };
      }
      for (const method of methods) {
        paths[path] ??= {};
        paths[path][method.toLowerCase()] = {
          summary: schema.summary,
          ...(parameters.length ? { parameters } : {}),
          ...(schema.body
            ? {
                requestBody: {
                  required: true,
                  content: { 'application/json': { schema: reference(schema.body) } },
                },
              }
            : {}),
          responses,
          ...(route.url.startsWith('/v1/tracker/') ? { security: [] } : {}),
        };
      }
    }

    return {
      openapi: '3.1.0',
      info: {
        title: 'Sitebeam API (as implemented by the Sitebeam server stub)',
        version: info.version,
        description:
          'Email, AI prompt and website tracker API. Every error answers {"status": "ko", "error", "i18n_code", "cid"}.',
      },
      servers: [{ url: '/', description: 'this instance' }],
      security: [{ apiToken: [] }],
      paths,
      components: {
        schemas: components,
        securitySchemes: { apiToken: { type: 'apiKey', in: 'header', name: AUTH_HEADER } },
      },
    };
  };
}
