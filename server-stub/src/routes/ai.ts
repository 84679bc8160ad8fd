import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  type PromptRequest,
  type PromptResponse,
  paths,
  unscoredModels,
  upstream,
} from 'sitebeam/client';
import { requireAccount } from '../auth.js';
import type { StubContext } from '../context.js';
import {
  errorBodySchema,
  internalErrorSchema,
  modelListSchema,
  modelLoadSchema,
  promptRequestSchema,
  promptResponseSchema,
  validationFailureSchema,
} from '../schemas.js';

export function aiRoutes(app: FastifyInstance, context: StubContext) {
  const onRequest = requireAccount(context, 'ai');

  app.get(
    paths.models,
    {
      onRequest,
      schema: {
        summary: 'List the models',
        response: { 200: modelListSchema, '4xx': errorBodySchema },
      },
    },
    async () => ({ models: context.models.list(), status: 'ok' }),
  );

  app.post<{ Body: PromptRequest }>(
    paths.prompt,
    {
      onRequest,
      schema: {
        summary: 'Prompt a model',
        body: promptRequestSchema,
        response: {
          201: promptResponseSchema,
          422: validationFailureSchema,
          '4xx': errorBodySchema,
          500: internalErrorSchema,
          '5xx': errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { model, message, settings = {} } = request.body;
      if (!context.models.list().includes(model)) {
        // The service looks the model up unguarded: an unknown one ends in its catch-all handler.
        return reply
          .code(upstream.internalErrorStatus)
          .type('application/json; charset=utf-8')
          .send({ detail: 'Internal server error' });
      }
      const answer = context.models.ready(model).answer(message, settings);
      const scored = !(unscoredModels as readonly string[]).includes(model);
      const body: PromptResponse = {
        status: 'ok',
        response: answer.response,
        cid: randomUUID(),
        score: scored ? answer.score : null,
      };
      return reply.code(201).send(body);
    },
  );

  app.get<{ Params: { model: string } }>(
    `${apiPaths.modelPrefix}:model`,
    {
      onRequest,
      schema: {
        summary: 'Load a model in the background',
        params: { type: 'object', properties: { model: { type: 'string' } } },
        response: { 202: modelLoadSchema, '4xx': errorBodySchema },
      },
    },
    async (request, reply) => {
      context.models.load(request.params.model);
      const status = upstream.loadStartedStatus;
      return reply.code(status).send({ status: 'ok', http_status: status });
    },
  );
}
