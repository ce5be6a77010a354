import type { FastifyInstance } from 'fastify';
import { emptyListRoute } from '../../http/empty-list';

/**
 * Queue integrations (spec 3 §7) as far as they are built: the list the connection and queue dialogs read, empty
 * until the automation issue adds them.
 */
export const queueIntegrationsRoutes = (app: FastifyInstance) =>
  emptyListRoute(app, {
    path: '/api/queueIntegration',
    key: 'queueIntegrations',
    tag: 'queue integrations',
    decl: { auth: 'user' },
  });
