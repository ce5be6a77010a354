import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AnnouncementIcon from '@mui/icons-material/Announcement';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CampaignIcon from '@mui/icons-material/Campaign';
import ChecklistIcon from '@mui/icons-material/Checklist';
import CodeIcon from '@mui/icons-material/Code';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DeviceHubIcon from '@mui/icons-material/DeviceHub';
import EventIcon from '@mui/icons-material/Event';
import ForumIcon from '@mui/icons-material/Forum';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import ListIcon from '@mui/icons-material/List';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PsychologyIcon from '@mui/icons-material/Psychology';
import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import QueueIcon from '@mui/icons-material/AccountTreeOutlined';
import SettingsIcon from '@mui/icons-material/Settings';
import SettingsSuggestIcon from '@mui/icons-material/SettingsSuggest';
import ShortTextIcon from '@mui/icons-material/ShortText';
import SmartphoneIcon from '@mui/icons-material/Smartphone';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import type { ReactNode } from 'react';
import type { Access } from '../routes/access';
import { accessOf } from '../routes/routeAccess';

export type MenuLink = {
  kind: 'link';
  /** `menu-<name>` test id */
  name: string;
  to: string;
  labelKey: string;
  icon: ReactNode;
  access?: Access;
  /** which badge the item can carry */
  badge?: 'connections' | 'chats';
};
export type MenuGroup = { kind: 'group'; name: string; labelKey: string; icon: ReactNode; children: MenuLink[] };
export type MenuEntry = MenuLink | MenuGroup;

/** a menu item; who sees it is its route's rule (routeAccess) */
const link = (name: string, to: string, labelKey: string, icon: ReactNode, extra: Partial<MenuLink> = {}) =>
  ({ kind: 'link', name, to, labelKey, icon, access: accessOf(to), ...extra }) as MenuLink;

/** Items for every user (spec 1 §2), each with its visibility rule. */
export const MAIN_MENU: MenuEntry[] = [
  link('dashboard', '/', 'menu.dashboard', <DashboardIcon />),
  link('reports', '/reports', 'menu.reports', <AssessmentIcon />),
  link('tickets', '/tickets', 'menu.tickets', <WhatsAppIcon />),
  link('quick-messages', '/quick-messages', 'menu.quickMessages', <ShortTextIcon />),
  link('kanban', '/kanban', 'menu.kanban', <ViewKanbanIcon />),
  link('todolist', '/todolist', 'menu.todolist', <ChecklistIcon />),
  link('contacts', '/contacts', 'menu.contacts', <ContactPhoneIcon />),
  link('schedules', '/schedules', 'menu.schedules', <EventIcon />),
  link('tags', '/tags', 'menu.tags', <LocalOfferIcon />),
  link('chats', '/chats', 'menu.chats', <ForumIcon />, { badge: 'chats' }),
  link('connections', '/connections', 'menu.connections', <SyncAltIcon />, { badge: 'connections' }),
  link('simulator', '/simulator', 'menu.simulator', <SmartphoneIcon />),
  link('helps', '/helps', 'menu.helps', <HelpOutlineIcon />),
  link('subscription', '/subscription', 'menu.subscription', <WorkspacePremiumIcon />),
];

/** Items under the Administration heading. */
export const ADMIN_MENU: MenuEntry[] = [
  {
    kind: 'group',
    name: 'campaigns-group',
    labelKey: 'menu.campaigns',
    icon: <CampaignIcon />,
    children: [
      link('campaigns', '/campaigns', 'menu.campaignsList', <ListIcon />),
      link('contact-lists', '/contact-lists', 'menu.contactLists', <PeopleIcon />),
      link('campaigns-config', '/campaigns-config', 'menu.campaignsConfig', <SettingsSuggestIcon />, {}),
    ],
  },
  {
    kind: 'group',
    name: 'flows-group',
    labelKey: 'menu.flows',
    icon: <AccountTreeIcon />,
    children: [
      link('phrase-lists', '/phrase-lists', 'menu.phraseLists', <CampaignIcon />),
      link('flowbuilders', '/flowbuilders', 'menu.flowbuilders', <QuestionAnswerIcon />),
    ],
  },
  link('announcements', '/announcements', 'menu.announcements', <AnnouncementIcon />),
  link('messages-api', '/messages-api', 'menu.messagesApi', <CodeIcon />),
  link('users', '/users', 'menu.users', <PeopleIcon />),
  link('queues', '/queues', 'menu.queues', <QueueIcon />),
  link('prompts', '/prompts', 'menu.prompts', <PsychologyIcon />),
  link('queue-integration', '/queue-integration', 'menu.queueIntegration', <DeviceHubIcon />, {}),
  link('files', '/files', 'menu.files', <AttachFileIcon />),
  link('financeiro', '/financeiro', 'menu.financeiro', <PaymentsIcon />),
  link('settings', '/settings', 'menu.settings', <SettingsIcon />),
];
