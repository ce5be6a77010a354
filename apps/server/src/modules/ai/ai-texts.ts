import type { TLang } from '../../inbound/texts';
import type { TAiFailureKind } from './openai-client';

/** what the attendants read on the ticket when the AI could not answer (a private note, never sent) */
const REASONS: Record<TAiFailureKind, Record<TLang, string>> = {
  network: {
    pt: 'o serviço de IA não pôde ser alcançado',
    en: 'the AI service could not be reached',
    es: 'no se pudo contactar el servicio de IA',
  },
  timeout: {
    pt: 'o serviço de IA não respondeu a tempo',
    en: 'the AI service did not answer in time',
    es: 'el servicio de IA no respondió a tiempo',
  },
  auth: {
    pt: 'a chave da API foi recusada (verifique o prompt)',
    en: 'the API key was refused (check the prompt)',
    es: 'la clave de la API fue rechazada (revise el prompt)',
  },
  rate_limit: {
    pt: 'o limite de uso da API foi atingido',
    en: 'the API usage limit was reached',
    es: 'se alcanzó el límite de uso de la API',
  },
  server: {
    pt: 'o serviço de IA respondeu com erro',
    en: 'the AI service answered with an error',
    es: 'el servicio de IA respondió con un error',
  },
  refused: {
    pt: 'o endereço da API não é permitido',
    en: 'the API address is not allowed',
    es: 'la dirección de la API no está permitida',
  },
  bad_answer: {
    pt: 'a resposta do serviço de IA não pôde ser lida',
    en: 'the AI service answer could not be read',
    es: 'no se pudo leer la respuesta del servicio de IA',
  },
};

const HEAD: Record<TLang, string> = {
  pt: 'A IA não respondeu esta mensagem: {reason}. Um atendente precisa responder.',
  en: 'The AI did not answer this message: {reason}. An attendant needs to answer.',
  es: 'La IA no respondió este mensaje: {reason}. Un agente necesita responder.',
};

export const aiFailureNote = (lang: TLang, kind: TAiFailureKind, detail?: string) =>
  HEAD[lang].replace('{reason}', REASONS[kind][lang]) + (detail ? ` (${detail.slice(0, 200)})` : '');

/** the system prompt (reference §2.6, in the prompt's own words): the customer's first name, the token budget, the handover phrase */
export const systemPromptOf = (prompt: string, firstName: string, maxTokens: number, handover: string) =>
  [
    firstName ? `Nas respostas utilize o nome ${firstName} para identificar o cliente.` : '',
    `Sua resposta deve usar no máximo ${maxTokens} tokens e cuide para não truncar o final.`,
    firstName
      ? 'Sempre que possível, mencione o nome dele para ser mais personalizado o atendimento e mais educado.'
      : '',
    `Quando a resposta requer uma transferência para o setor de atendimento, comece sua resposta com '${handover}'.`,
    '',
    prompt,
  ]
    .filter((line, i) => line !== '' || i === 4)
    .join('\n');
