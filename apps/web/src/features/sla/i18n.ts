import { registerTranslations } from '../../i18n';

const pt = {
  left: 'faltam {{time}}',
  late: '{{time}} atrasado',
  firstResponse: 'Prazo da primeira resposta',
  resolution: 'Prazo de resolução',
  breach: {
    firstResponse: 'Prazo de primeira resposta estourado: {{name}}',
    resolution: 'Prazo de resolução estourado: {{name}}',
  },
};

type TSlaTexts = typeof pt;

const en: TSlaTexts = {
  left: '{{time}} left',
  late: '{{time}} late',
  firstResponse: 'First response target',
  resolution: 'Resolution target',
  breach: {
    firstResponse: 'First response target missed: {{name}}',
    resolution: 'Resolution target missed: {{name}}',
  },
};

const es: TSlaTexts = {
  left: 'quedan {{time}}',
  late: '{{time}} de retraso',
  firstResponse: 'Plazo de primera respuesta',
  resolution: 'Plazo de resolución',
  breach: {
    firstResponse: 'Plazo de primera respuesta vencido: {{name}}',
    resolution: 'Plazo de resolución vencido: {{name}}',
  },
};

registerTranslations('sla', { pt, en, es });
