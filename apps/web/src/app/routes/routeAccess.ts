import type { Access } from './access';

/**
 * Who may open each screen: the one rule the route gate and the side menu both read (a menu item's access is
 * its route's), so an item never shows for a screen that would then refuse the user. The API's own checks match
 * these (an admin's screens answer 403 to an agent).
 */
const ADMIN: Access = { admin: true };
const CAMPAIGNS: Access = { admin: true, campaigns: true };

export const ROUTE_ACCESS: Record<string, Access | undefined> = {
  '/': ADMIN,
  '/reports': ADMIN,
  '/simulator': ADMIN,
  '/schedules': { plan: 'useSchedules' },
  '/users': ADMIN,
  '/files': ADMIN,
  '/prompts': { admin: true, plan: 'useOpenAi' },
  '/queue-integration': { admin: true, plan: 'useIntegrations' },
  '/messages-api': { plan: 'useExternalApi' },
  '/settings': ADMIN,
  '/kanban': { plan: 'useKanban' },
  '/financeiro': ADMIN,
  '/queues': ADMIN,
  '/announcements': { super: true },
  '/chats': { plan: 'useInternalChat' },
  '/contact-lists': CAMPAIGNS,
  '/campaigns': CAMPAIGNS,
  '/campaign': CAMPAIGNS,
  '/campaigns-config': CAMPAIGNS,
  '/phrase-lists': CAMPAIGNS,
  '/flowbuilders': CAMPAIGNS,
  '/flowbuilder': CAMPAIGNS,
};

/** a path's rule, by its first segment (`chats/:id?` → `/chats`) */
export const accessOf = (path: string): Access | undefined =>
  ROUTE_ACCESS[`/${path.replace(/^\//, '').split('/')[0] ?? ''}`];
