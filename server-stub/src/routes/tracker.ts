// GET|HEAD /v1/tracker/json/{website} and /v1/tracker/img/{website}, plus their CORS pre-flight.
// Called by browsers on any site: no token, never cached; `Access-Control-Allow-Origin: *` unless
// --no-cors (the service sends CORS only when the instance enables it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths, errorCodes, limits } from 'sitebeam/client';
import type { StubContext } from '../context.js';
import { ContractError } from '../errors.js';
import { errorBodySchema, trackerRecordSchema } from '../schemas.js';
import { transparentPixel } from '../tracker/pixel.js';

const trackerPrefixes = [apiPaths.trackerJsonPrefix, apiPaths.trackerImgPrefix];
const jsonRoute = `${apiPaths.trackerJsonPrefix}:website`;
const imgRoute = `${apiPaths.trackerImgPrefix}:website`;

export const isTrackerUrl = (url: string) =>
  trackerPrefixes.some((prefix) => url.startsWith(prefix));

export const trackerHeaders = (cors: boolean): Record<string, string> =>
  cors
    ? { 'access-control-allow-origin': '*', 'cache-control': 'no-store' }
    : { 'cache-control': 'no-store' };

type WebsiteRequest = FastifyRequest<{ Params: { website?: string } }>;

function websiteOf(request: WebsiteRequest): string {
  const website = request.params.website ?? '';
  // The service decodes the path before routing: a `/` in the name makes a path it has no route for.
  if (website.includes('/')) {
    throw new ContractError(errorCodes.notFound, `website: "/" cannot be carried in the path`);
  }
  const length = [...website].length;
  if (length === 0 || length > limits.websiteChars) {
    throw new ContractError(
      errorCodes.invalidWebsite,
      `website: must be 1 to ${limits.websiteChars} characters, not ${length}`,
    );
  }
  return website;
}

const websiteParams = {
  type: 'object',
  properties: { website: { type: 'string', description: 'The website name, percent-encoded.' } },
} as const;

export function trackerRoutes(app: FastifyInstance, context: StubContext) {
  const json = async (request: WebsiteRequest, reply: FastifyReply) => {
    const { json: body } = await context.recorder.record(request, websiteOf(request));
    return reply.type('application/json; charset=utf-8').send(body);
  };
  const image = async (request: WebsiteRequest, reply: FastifyReply) => {
    await context.recorder.record(request, websiteOf(request));
    return reply.type('image/png').send(transparentPixel);
  };

  for (const path of trackerPrefixes) {
    app.route({
      method: ['GET', 'HEAD'],
      url: path,
      schema: { hide: true },
      handler: async (request) => websiteOf(request as WebsiteRequest),
    });
  }

  app.get(jsonRoute, {
    schema: {
      summary: 'Record a visit and return its record',
      params: websiteParams,
      response: { 200: trackerRecordSchema, '4xx': errorBodySchema },
    },
    handler: json,
  });
  app.get(imgRoute, {
    schema: {
      summary: 'Record a visit and return a 1×1 transparent PNG',
      params: websiteParams,
      response: { '4xx': errorBodySchema },
    },
    handler: image,
  });

  // HEAD answers the headers a GET would have, without recording a visit.
  app.head<{ Params: { website?: string } }>(jsonRoute, async (request, reply) => {
    websiteOf(request);
    return reply.type('application/json; charset=utf-8').send();
  });
  app.head<{ Params: { website?: string } }>(imgRoute, async (request, reply) => {
    websiteOf(request);
    return reply.type('image/png').header('content-length', transparentPixel.length).send();
  });

  for (const prefix of trackerPrefixes) {
    app.options(`${prefix}*`, { schema: { hide: true } }, async (request, reply) => {
      const requested = request.headers['access-control-request-headers'];
      if (!context.options.cors) return reply.code(405).send();
      return reply
        .code(204)
        .headers({
          'access-control-allow-methods': 'GET, HEAD, OPTIONS',
          'access-control-max-age': '86400',
          ...(requested ? { 'access-control-allow-headers': requested } : {}),
        })
        .send();
    });
  }
}
