// GET|HEAD /v1/tracker/json/{website} and /v1/tracker/img/{website}, plus their CORS pre-flight.
// Called by browsers on any site: no token, `Access-Control-Allow-Origin: *`, never cached.
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

export const trackerHeaders = {
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
} as const;

type WebsiteRequest = FastifyRequest<{ Params: { website?: string } }>;

function websiteOf(request: WebsiteRequest): string {
  const website = request.params.website ?? '';
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
