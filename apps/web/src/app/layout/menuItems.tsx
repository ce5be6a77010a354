import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AnnouncementIcon from '@mui/icons-material/Announcement';
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

const link = (name: string, to: string, labelKey: string, icon: ReactNode, extra: Partial<MenuLink> = {}) =>
  ({ kind: 'link', name, to, labelKey, icon, ...extra }) as MenuLink;

const ADMIN: Access = { admin: true };
const CAMPAIGNS: Access = { admin: true, campaigns: true };

/** Items for every user (spec 1 §2), each with its visibility rule. */
export const MAIN_MENU: MenuEntry[] = [
  link('dashboard', '/', 'menu.dashboard', <DashboardIcon />, { access: ADMIN }),
  link('tickets', '/tickets', 'menu.tickets', <WhatsAppIcon />),
  link('quick-messages', '/quick-messages', 'menu.quickMessages', <ShortTextIcon />),
  link('kanban', '/kanban', 'menu.kanban', <ViewKanbanIcon />, { access: { plan: 'useKanban' } }),
  link('todolist', '/todolist', 'menu.todolist', <ChecklistIcon />),
  link('contacts', '/contacts', 'menu.contacts', <ContactPhoneIcon />),
  link('schedules', '/schedules', 'menu.schedules', <EventIcon />, { access: { plan: 'useSchedules' } }),
  link('tags', '/tags', 'menu.tags', <LocalOfferIcon />),
  link('chats', '/chats', 'menu.chats', <ForumIcon />, { access: { plan: 'useInternalChat' }, badge: 'chats' }),
  link('connections', '/connections', 'menu.connections', <SyncAltIcon />, { badge: 'connections' }),
  link('simulator', '/simulator', 'menu.simulator', <SmartphoneIcon />, { access: ADMIN }),
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
      link('campaigns', '/campaigns', 'menu.campaignsList', <ListIcon />, { access: CAMPAIGNS }),
      link('contact-lists', '/contact-lists', 'menu.contactLists', <PeopleIcon />, { access: CAMPAIGNS }),
      link('campaigns-config', '/campaigns-config', 'menu.campaignsConfig', <SettingsSuggestIcon />, {
        access: CAMPAIGNS,
      }),
    ],
  },
  {
    kind: 'group',
    name: 'flows-group',
    labelKey: 'menu.flows',
    icon: <AccountTreeIcon />,
    children: [
      link('phrase-lists', '/phrase-lists', 'menu.phraseLists', <CampaignIcon />, { access: CAMPAIGNS }),
      link('flowbuilders', '/flowbuilders', 'menu.flowbuilders', <QuestionAnswerIcon />, { access: CAMPAIGNS }),
    ],
  },
  link('announcements', '/announcements', 'menu.announcements', <AnnouncementIcon />, { access: { super: true } }),
  link('messages-api', '/messages-api', 'menu.messagesApi', <CodeIcon />, { access: { plan: 'useExternalApi' } }),
  link('users', '/users', 'menu.users', <PeopleIcon />, { access: ADMIN }),
  link('queues', '/queues', 'menu.queues', <QueueIcon />, { access: ADMIN }),
  link('prompts', '/prompts', 'menu.prompts', <PsychologyIcon />, { access: { plan: 'useOpenAi' } }),
  link('queue-integration', '/queue-integration', 'menu.queueIntegration', <DeviceHubIcon />, {
    access: { plan: 'useIntegrations' },
  }),
  link('files', '/files', 'menu.files', <AttachFileIcon />, { access: ADMIN }),
  link('financeiro', '/financeiro', 'menu.financeiro', <PaymentsIcon />, { access: ADMIN }),
  link('settings', '/settings', 'menu.settings', <SettingsIcon />, { access: ADMIN }),
];
