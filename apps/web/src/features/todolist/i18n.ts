import { registerTranslations } from '../../i18n';

const pt = {
  title: 'Tarefas',
  input: 'Nova tarefa',
  editing: 'Editar tarefa',
  add: 'Adicionar',
  save: 'Salvar',
  cancel: 'Cancelar',
  edit: 'Editar',
  delete: 'Excluir',
  empty: 'Nenhuma tarefa. Escreva uma acima e clique em Adicionar.',
  created: 'Criada em {{date}}',
  updated: 'Alterada em {{date}}',
  localOnly: 'As tarefas ficam somente neste navegador.',
};

type TTodoTexts = typeof pt;

const en: TTodoTexts = {
  title: 'To-do list',
  input: 'New task',
  editing: 'Edit task',
  add: 'Add',
  save: 'Save',
  cancel: 'Cancel',
  edit: 'Edit',
  delete: 'Delete',
  empty: 'No tasks. Write one above and click Add.',
  created: 'Created {{date}}',
  updated: 'Changed {{date}}',
  localOnly: 'Tasks are kept in this browser only.',
};

const es: TTodoTexts = {
  title: 'Tareas',
  input: 'Nueva tarea',
  editing: 'Editar tarea',
  add: 'Agregar',
  save: 'Guardar',
  cancel: 'Cancelar',
  edit: 'Editar',
  delete: 'Eliminar',
  empty: 'No hay tareas. Escriba una arriba y haga clic en Agregar.',
  created: 'Creada el {{date}}',
  updated: 'Modificada el {{date}}',
  localOnly: 'Las tareas se guardan solo en este navegador.',
};

registerTranslations('todolist', { pt, en, es });
