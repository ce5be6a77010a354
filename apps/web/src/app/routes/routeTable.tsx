import { lazy, type ReactNode } from 'react';
import type { Access } from './access';
import { accessOf } from './routeAccess';

export type PrivateRoute = {
  /** react-router path, relative to / */
  path: string;
  titleKey: string;
  access?: Access;
  /** the screen; a route without one shows the "not available yet" page */
  element: ReactNode;
};

// feature screens load on demand (the layout's Suspense shows a spinner meanwhile)
const HelpsPage = lazy(() => import('../../features/helps/HelpsPage'));
const SettingsPage = lazy(() => import('../../features/settings/SettingsPage'));
const TicketsPage = lazy(() => import('../../features/tickets/TicketsPage'));
const UsersPage = lazy(() => import('../../features/users/UsersPage'));
const ConnectionsPage = lazy(() => import('../../features/connections/ConnectionsPage'));
const SimulatorPage = lazy(() => import('../../features/simulator/SimulatorPage'));
const ContactsPage = lazy(() => import('../../features/contacts/ContactsPage'));
const QueuesPage = lazy(() => import('../../features/queues/QueuesPage'));
const QuickMessagesPage = lazy(() => import('../../features/quick-messages/QuickMessagesPage'));
const QueueIntegrationsPage = lazy(() => import('../../features/queue-integrations/QueueIntegrationsPage'));
const ChatsPage = lazy(() => import('../../features/chats/ChatsPage'));
const AnnouncementsPage = lazy(() => import('../../features/announcements/AnnouncementsPage'));
const ToDoListPage = lazy(() => import('../../features/todolist/ToDoListPage'));
const TagsPage = lazy(() => import('../../features/tags/TagsPage'));
const KanbanPage = lazy(() => import('../../features/kanban/KanbanPage'));
const SchedulesPage = lazy(() => import('../../features/schedules/SchedulesPage'));
/** `/` (AppRoutes declares it apart: non-admins are sent to /tickets) */
export const DashboardPage = lazy(() => import('../../features/dashboard/DashboardPage'));
const ReportsPage = lazy(() => import('../../features/reports/ReportsPage'));
const CampaignsPage = lazy(() => import('../../features/campaigns/CampaignsPage'));
const CampaignReportPage = lazy(() => import('../../features/campaigns/CampaignReportPage'));
const CampaignsConfigPage = lazy(() => import('../../features/campaigns/CampaignsConfigPage'));
const ContactListsPage = lazy(() => import('../../features/contact-lists/ContactListsPage'));
const ContactListItemsPage = lazy(() => import('../../features/contact-lists/ContactListItemsPage'));
const FilesPage = lazy(() => import('../../features/files/FilesPage'));
const PromptsPage = lazy(() => import('../../features/prompts/PromptsPage'));
const MessagesApiPage = lazy(() => import('../../features/messages-api/MessagesApiPage'));
const SubscriptionPage = lazy(() => import('../../features/subscription/SubscriptionPage'));
const InvoicesPage = lazy(() => import('../../features/invoices/InvoicesPage'));
const FlowsPage = lazy(() => import('../../features/flows/FlowsPage'));
const FlowEditorPage = lazy(() => import('../../features/flows/editor/FlowEditorPage'));
const PhraseListsPage = lazy(() => import('../../features/phrase-lists/PhraseListsPage'));

/** Private routes of spec 3 §2.1 and spec 1 §2 (the dashboard at / is declared apart, see AppRoutes). */
export const PRIVATE_ROUTES: PrivateRoute[] = (
  [
    { path: 'tickets/:ticketId?', titleKey: 'menu.tickets', element: <TicketsPage /> },
    { path: 'reports', titleKey: 'menu.reports', element: <ReportsPage /> },
    { path: 'connections', titleKey: 'menu.connections', element: <ConnectionsPage /> },
    { path: 'simulator', titleKey: 'menu.simulator', element: <SimulatorPage /> },
    { path: 'quick-messages', titleKey: 'menu.quickMessages', element: <QuickMessagesPage /> },
    { path: 'todolist', titleKey: 'menu.todolist', element: <ToDoListPage /> },
    { path: 'schedules', titleKey: 'menu.schedules', element: <SchedulesPage /> },
    { path: 'tags', titleKey: 'menu.tags', element: <TagsPage /> },
    { path: 'contacts', titleKey: 'menu.contacts', element: <ContactsPage /> },
    { path: 'helps', titleKey: 'menu.helps', element: <HelpsPage /> },
    { path: 'users', titleKey: 'menu.users', element: <UsersPage /> },
    { path: 'files', titleKey: 'menu.files', element: <FilesPage /> },
    {
      path: 'prompts',
      titleKey: 'menu.prompts',
      element: <PromptsPage />,
    },
    {
      path: 'queue-integration',
      titleKey: 'menu.queueIntegration',
      element: <QueueIntegrationsPage />,
    },
    {
      path: 'messages-api',
      titleKey: 'menu.messagesApi',
      element: <MessagesApiPage />,
    },
    { path: 'settings', titleKey: 'menu.settings', element: <SettingsPage /> },
    { path: 'kanban', titleKey: 'menu.kanban', element: <KanbanPage /> },
    { path: 'financeiro', titleKey: 'menu.financeiro', element: <InvoicesPage /> },
    { path: 'queues', titleKey: 'menu.queues', element: <QueuesPage /> },
    { path: 'announcements', titleKey: 'menu.announcements', element: <AnnouncementsPage /> },
    { path: 'subscription', titleKey: 'menu.subscription', element: <SubscriptionPage /> },
    { path: 'chats/:id?', titleKey: 'menu.chats', element: <ChatsPage /> },
    { path: 'contact-lists', titleKey: 'menu.contactLists', element: <ContactListsPage /> },
    {
      path: 'contact-lists/:contactListId/contacts',
      titleKey: 'menu.contactListItems',
      element: <ContactListItemsPage />,
    },
    { path: 'campaigns', titleKey: 'menu.campaigns', element: <CampaignsPage /> },
    {
      path: 'campaign/:campaignId/report',
      titleKey: 'menu.campaignReport',
      element: <CampaignReportPage />,
    },
    {
      path: 'campaigns-config',
      titleKey: 'menu.campaignsConfig',
      element: <CampaignsConfigPage />,
    },
    { path: 'phrase-lists', titleKey: 'menu.phraseLists', element: <PhraseListsPage /> },
    { path: 'flowbuilders', titleKey: 'menu.flowbuilders', element: <FlowsPage /> },
    { path: 'flowbuilder/:id?', titleKey: 'menu.flowEditor', element: <FlowEditorPage /> },
  ] as Omit<PrivateRoute, 'access'>[]
).map((route) => ({ ...route, access: accessOf(route.path) }));
