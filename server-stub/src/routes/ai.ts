import type { FastifyInstance } from 'fastify';
import { apiPaths, type PromptRequest, paths } from 'sitebeam/client';
import { requireAccount } from '../auth.js';
import type { StubContext } from '../context.js';
import {
  errorBodySchema,
  modelListSchema,
  modelLoadSchema,
  promptRequestSchema,
  promptResponseSchema,
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
        response: { 200: promptResponseSchema, '4xx': errorBodySchema, '5xx': errorBodySchema },
      },
    },
    async (request) => {
      const { model, message, settings = {} } = request.body;
      const answer = context.models.ready(model).answer(message, settings);
      return { response: answer.response, score: answer.score, status: 'ok' };
    },
  );

  app.get<{ Params: { model: string } }>(
    `${apiPaths.modelPrefix}:model`,
    {
      onRequest,
      schema: {
        summary: 'Load a model in the background',
        params: { type: 'object', properties: { model: { type: 'string' } } },
        response: { 200: modelLoadSchema, 202: modelLoadSchema, '4xx': errorBodySchema },
      },
    },
    async (request, reply) => {
      const { model } = request.params;
      const state = context.models.load(model);
      reply.code(state === 'ready' ? 200 : 202);
      return { status: 'ok', model, state };
    },
  );
}
