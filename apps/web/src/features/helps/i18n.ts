import { registerTranslations } from '../../i18n';

const pt = {
  title: 'Ajuda',
  empty: 'Nenhum vídeo de ajuda disponível no momento.',
  watch: 'Assistir ao vídeo',
  noVideo: 'Sem vídeo',
  close: 'Fechar',
  loadError: 'Não foi possível carregar a ajuda.',
};

type THelpsTexts = typeof pt;

const en: THelpsTexts = {
  title: 'Help',
  empty: 'No help videos are available yet.',
  watch: 'Watch the video',
  noVideo: 'No video',
  close: 'Close',
  loadError: 'Could not load the help entries.',
};

const es: THelpsTexts = {
  title: 'Ayuda',
  empty: 'Aún no hay videos de ayuda disponibles.',
  watch: 'Ver el video',
  noVideo: 'Sin video',
  close: 'Cerrar',
  loadError: 'No se pudo cargar la ayuda.',
};

registerTranslations('helps', { pt, en, es });
