/** Automatic messages the server sends on ticket changes, in the company's language (pt, en, es). */

type TLang = 'pt' | 'en' | 'es';
const lang = (language: string | null | undefined): TLang => (language === 'en' || language === 'es' ? language : 'pt');

const HEADER = { pt: '*Mensagem Automática*', en: '*Automatic Message*', es: '*Mensaje Automático*' } as const;

/** greeting on accept (setting sendGreetingAccepted); always Portuguese-first like spec 1 §4 */
export const acceptGreeting = (language: string | null | undefined, userName: string) => {
  const l = lang(language);
  const text = {
    pt: `{{ms}} *{{name}}*, meu nome é *${userName}* e agora vou prosseguir com seu atendimento!`,
    en: `{{ms}} *{{name}}*, my name is *${userName}* and I will carry on with your service now!`,
    es: `{{ms}} *{{name}}*, mi nombre es *${userName}* y ahora continuaré con tu atención!`,
  }[l];

  return `${HEADER.pt}:\n${text}`;
};

/**
 * One greeting per accept, whichever client accepts. The server sends it (setting sendGreetingAccepted) under
 * a client id of its own; the ancestor's web client also posts it itself right after its
 * `PUT /tickets/:id {status: "open"}` (TicketListItemCustom handleSendMessage, always this Portuguese template).
 * That post is recognised by its template and answered with the server's greeting of the last few minutes
 * (messages.service sendText), so the customer reads it once; Zelo's web client leaves it to the server.
 */
export const ACCEPT_GREETING_CLIENT_ID = 'accept-greeting:';
export const acceptGreetingClientId = (ticketId: number) => `${ACCEPT_GREETING_CLIENT_ID}${ticketId}:${Date.now()}`;
const ANCESTOR_GREETING =
  /^\*Mensagem Automática:\*\n\{\{ms\}\} \*\{\{name\}\}\*, meu nome é \*[^*\n]*\* e agora vou prosseguir com seu atendimento!$/;
export const isClientAcceptGreeting = (body: string) => ANCESTOR_GREETING.test(body.trim());

/** transfer notices (setting sendMsgTransfTicket) */
export const transferText = (
  language: string | null | undefined,
  change: { queueName?: string | null; userName?: string | null },
) => {
  const l = lang(language);
  const { queueName, userName } = change;
  let text: string;
  if (queueName && userName) {
    text = {
      pt: `Você foi transferido para o departamento *${queueName}* e será atendido por *${userName}*.`,
      en: `You have been transferred to the *${queueName}* department and *${userName}* will attend you.`,
      es: `Has sido transferido al departamento *${queueName}* y te atenderá *${userName}*.`,
    }[l];
  } else if (queueName) {
    text = {
      pt: `Você foi transferido para o departamento *${queueName}*.\nAguarde, já vamos te atender!`,
      en: `You have been transferred to the *${queueName}* department.\nPlease wait, we will attend you shortly!`,
      es: `Has sido transferido al departamento *${queueName}*.\n¡Espera, te atenderemos en breve!`,
    }[l];
  } else {
    text = {
      pt: `Você foi transferido para o atendente *${userName ?? ''}*.\nAguarde, já vamos te atender!`,
      en: `You have been transferred to the agent *${userName ?? ''}*.\nPlease wait, we will attend you shortly!`,
      es: `Has sido transferido al agente *${userName ?? ''}*.\n¡Espera, te atenderemos en breve!`,
    }[l];
  }

  return `${HEADER[l]}:\n${text}`;
};

/** the rating request sent on close when setting userRating is enabled */
export const ratingRequest = (language: string | null | undefined, ratingMessage: string) => {
  const l = lang(language);
  const prompt = {
    pt: '*Digite de 1 a 3 para qualificar nosso atendimento:*\n\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_',
    en: '*Type 1 to 3 to rate our service:*\n\n*1* - _Unsatisfied_\n*2* - _Satisfied_\n*3* - _Very satisfied_',
    es: '*Escribe de 1 a 3 para calificar nuestra atención:*\n\n*1* - _Insatisfecho_\n*2* - _Satisfecho_\n*3* - _Muy satisfecho_',
  }[l];

  return ratingMessage.trim() ? `${ratingMessage.trim()}\n\n${prompt}` : prompt;
};

/** after the rating, when setting userRatingComment is enabled: the customer's next message is the comment */
export const ratingCommentRequest = (language: string | null | undefined) =>
  ({
    pt: 'Obrigado pela avaliação! Se quiser, escreva na próxima mensagem um comentário sobre o atendimento.',
    en: 'Thank you for your rating! If you like, write a comment about our service in your next message.',
    es: '¡Gracias por tu calificación! Si quieres, escribe en tu próximo mensaje un comentario sobre la atención.',
  })[lang(language)];
