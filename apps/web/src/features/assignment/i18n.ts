import { registerTranslations } from '../../i18n';

const pt = {
  presence: {
    available: 'Disponível',
    away: 'Ausente',
    offline: 'Offline',
  },
  away: {
    label: 'Ausente',
    hint: 'Não recebo novos tickets automáticos',
    on: 'Você está ausente: nenhum ticket novo será atribuído a você.',
    off: 'Você está disponível para novos tickets.',
  },
  queue: {
    title: 'Atribuição automática',
    switch: 'Atribuir tickets automaticamente',
    hint: 'Um ticket que espera nesta fila vai para o atendente online e disponível com menos tickets abertos (empate: quem recebeu um ticket há mais tempo).',
    max: 'Máximo de tickets abertos por atendente',
    maxHint: 'Acima disso o atendente não recebe tickets desta fila (conta os tickets de todas as filas); de 1 a 100.',
    on: 'Automática',
  },
};

type TAssignmentTexts = typeof pt;

const en: TAssignmentTexts = {
  presence: {
    available: 'Available',
    away: 'Away',
    offline: 'Offline',
  },
  away: {
    label: 'Away',
    hint: 'I get no new automatic tickets',
    on: 'You are away: no new ticket will be assigned to you.',
    off: 'You are available for new tickets.',
  },
  queue: {
    title: 'Automatic assignment',
    switch: 'Assign tickets automatically',
    hint: 'A ticket waiting in this queue goes to the online, available agent with the fewest open tickets (tie: whoever got a ticket longest ago).',
    max: 'Most open tickets per agent',
    maxHint: 'Past this an agent gets no ticket from this queue (tickets of every queue count); 1 to 100.',
    on: 'Automatic',
  },
};

const es: TAssignmentTexts = {
  presence: {
    available: 'Disponible',
    away: 'Ausente',
    offline: 'Desconectado',
  },
  away: {
    label: 'Ausente',
    hint: 'No recibo nuevos tickets automáticos',
    on: 'Estás ausente: no se te asignará ningún ticket nuevo.',
    off: 'Estás disponible para nuevos tickets.',
  },
  queue: {
    title: 'Asignación automática',
    switch: 'Asignar tickets automáticamente',
    hint: 'Un ticket que espera en esta cola va al agente conectado y disponible con menos tickets abiertos (empate: quien recibió un ticket hace más tiempo).',
    max: 'Máximo de tickets abiertos por agente',
    maxHint:
      'Por encima de esto el agente no recibe tickets de esta cola (cuentan los tickets de todas las colas); de 1 a 100.',
    on: 'Automática',
  },
};

registerTranslations('assignment', { pt, en, es });
