import { registerTranslations } from '../../i18n';

const pt = {
  title: 'Kanban',
  open: 'Em aberto',
  seeTicket: 'Ver ticket',
  empty: 'Nenhum ticket',
  loading: 'Carregando...',
  count: '{{count}} tickets',
  noLanes: 'Marque uma tag como Kanban na tela de tags para criar colunas.',
  ticket: 'Ticket nº {{id}}',
};

type TKanbanTexts = typeof pt;

const en: TKanbanTexts = {
  title: 'Kanban',
  open: 'Open',
  seeTicket: 'See ticket',
  empty: 'No tickets',
  loading: 'Loading...',
  count: '{{count}} tickets',
  noLanes: 'Mark a tag as Kanban on the tags screen to add columns.',
  ticket: 'Ticket #{{id}}',
};

const es: TKanbanTexts = {
  title: 'Kanban',
  open: 'Abiertos',
  seeTicket: 'Ver ticket',
  empty: 'Ningún ticket',
  loading: 'Cargando...',
  count: '{{count}} tickets',
  noLanes: 'Marque una etiqueta como Kanban en la pantalla de etiquetas para crear columnas.',
  ticket: 'Ticket n.º {{id}}',
};

registerTranslations('kanban', { pt, en, es });
