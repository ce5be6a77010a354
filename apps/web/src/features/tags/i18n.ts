import { registerTranslations } from '../../i18n';

const pt = {
  title: 'Tags',
  add: 'Adicionar tag',
  search: 'Pesquisar...',
  empty: 'Nenhuma tag encontrada',
  columns: { name: 'Nome', tickets: 'Tickets', kanban: 'Kanban' },
  yes: 'Sim',
  no: 'Não',
  deleteTitle: 'Excluir a tag {{name}}?',
  deleteMessage: 'Ela será retirada de todos os tickets.',
  deleted: 'Tag excluída com sucesso!',
  saved: 'Tag salva com sucesso!',
  dialog: {
    addTitle: 'Adicionar tag',
    editTitle: 'Editar tag',
    name: 'Nome',
    color: 'Cor',
    pickColor: 'Escolher a cor',
    kanban: 'Kanban',
    kanbanHint: 'A tag vira uma coluna do quadro Kanban',
    save: 'Salvar',
    add: 'Adicionar',
  },
};

type TTagsTexts = typeof pt;

const en: TTagsTexts = {
  title: 'Tags',
  add: 'Add tag',
  search: 'Search...',
  empty: 'No tags found',
  columns: { name: 'Name', tickets: 'Tickets', kanban: 'Kanban' },
  yes: 'Yes',
  no: 'No',
  deleteTitle: 'Delete the tag {{name}}?',
  deleteMessage: 'It will be removed from every ticket.',
  deleted: 'Tag deleted successfully!',
  saved: 'Tag saved successfully!',
  dialog: {
    addTitle: 'Add tag',
    editTitle: 'Edit tag',
    name: 'Name',
    color: 'Colour',
    pickColor: 'Pick the colour',
    kanban: 'Kanban',
    kanbanHint: 'The tag becomes a column of the Kanban board',
    save: 'Save',
    add: 'Add',
  },
};

const es: TTagsTexts = {
  title: 'Etiquetas',
  add: 'Agregar etiqueta',
  search: 'Buscar...',
  empty: 'No se encontraron etiquetas',
  columns: { name: 'Nombre', tickets: 'Tickets', kanban: 'Kanban' },
  yes: 'Sí',
  no: 'No',
  deleteTitle: '¿Eliminar la etiqueta {{name}}?',
  deleteMessage: 'Se quitará de todos los tickets.',
  deleted: '¡Etiqueta eliminada con éxito!',
  saved: '¡Etiqueta guardada con éxito!',
  dialog: {
    addTitle: 'Agregar etiqueta',
    editTitle: 'Editar etiqueta',
    name: 'Nombre',
    color: 'Color',
    pickColor: 'Elegir el color',
    kanban: 'Kanban',
    kanbanHint: 'La etiqueta se convierte en una columna del tablero Kanban',
    save: 'Guardar',
    add: 'Agregar',
  },
};

registerTranslations('tags', { pt, en, es });
