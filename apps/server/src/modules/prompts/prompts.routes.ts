import type { FastifyInstance } from 'fastify';
import { emptyListRoute } from '../../http/empty-list';

/**
 * Prompts (spec 3 §7) as far as they are built: the list the connection and queue dialogs read, empty until the
 * automation issue adds prompts.
 */
export const promptsRoutes = (app: FastifyInstance) =>
  emptyListRoute(app, { path: '/api/prompt', key: 'prompts', tag: 'prompts', decl: { auth: 'user' } });
