import { registerTranslations } from '../../i18n';

const pt = {
  title: 'Campanhas por frase',
  add: 'Nova frase',
  search: 'Pesquisar...',
  empty: 'Nenhuma frase encontrada',
  columns: { name: 'Nome', phrase: 'Frase', flow: 'Fluxo', connection: 'Conexão', status: 'Status' },
  active: 'Ativo',
  inactive: 'Desativado',
  created: 'Frase criada com sucesso!',
  updated: 'Frase alterada com sucesso!',
  deleted: 'Frase deletada',
  deleteTitle: 'Excluir a frase {{name}}?',
  deleteMessage: 'Esta ação não pode ser revertida.',
  dialog: {
    addTitle: 'Nova campanha por frase',
    editTitle: 'Editar campanha por frase',
    name: 'Nome',
    connection: 'Conexão',
    flow: 'Fluxo',
    phrase: 'Frase',
    phraseHint: 'A mensagem inteira do cliente, sem diferenciar maiúsculas nem acentos, inicia o fluxo',
    status: 'Ativo',
    online: 'online',
    add: 'Adicionar',
  },
};

type TPhraseListsTexts = typeof pt;

const en: TPhraseListsTexts = {
  title: 'Phrase campaigns',
  add: 'New phrase',
  search: 'Search...',
  empty: 'No phrases found',
  columns: { name: 'Name', phrase: 'Phrase', flow: 'Flow', connection: 'Connection', status: 'Status' },
  active: 'Active',
  inactive: 'Disabled',
  created: 'Phrase created!',
  updated: 'Phrase changed!',
  deleted: 'Phrase deleted',
  deleteTitle: 'Delete the phrase {{name}}?',
  deleteMessage: 'This action cannot be undone.',
  dialog: {
    addTitle: 'New phrase campaign',
    editTitle: 'Edit phrase campaign',
    name: 'Name',
    connection: 'Connection',
    flow: 'Flow',
    phrase: 'Phrase',
    phraseHint: 'The customer’s whole message, ignoring case and accents, starts the flow',
    status: 'Active',
    online: 'online',
    add: 'Add',
  },
};

const es: TPhraseListsTexts = {
  title: 'Campañas por frase',
  add: 'Nueva frase',
  search: 'Buscar...',
  empty: 'No se encontraron frases',
  columns: { name: 'Nombre', phrase: 'Frase', flow: 'Flujo', connection: 'Conexión', status: 'Estado' },
  active: 'Activo',
  inactive: 'Desactivado',
  created: '¡Frase creada!',
  updated: '¡Frase modificada!',
  deleted: 'Frase eliminada',
  deleteTitle: '¿Eliminar la frase {{name}}?',
  deleteMessage: 'Esta acción no se puede deshacer.',
  dialog: {
    addTitle: 'Nueva campaña por frase',
    editTitle: 'Editar campaña por frase',
    name: 'Nombre',
    connection: 'Conexión',
    flow: 'Flujo',
    phrase: 'Frase',
    phraseHint: 'El mensaje completo del cliente, sin distinguir mayúsculas ni acentos, inicia el flujo',
    status: 'Activo',
    online: 'en línea',
    add: 'Agregar',
  },
};

registerTranslations('phraseLists', { pt, en, es });
