import type { TLanguage, TReportAgentRow, TReportQueueRow, TReportSummary } from '@zelo/shared';

/**
 * The weekly summary e-mail (weekly-mail.ts) in the three languages: a text part and an HTML part with the same
 * content. Everything a tenant wrote (company, user, agent and queue names) is escaped in the HTML; the text part
 * is plain text.
 */

export type TWeeklyMailFacts = {
  userName: string;
  companyName: string;
  /** the week's first and last day, yyyy-MM-dd */
  from: string;
  to: string;
  summary: TReportSummary;
  agents: TReportAgentRow[];
  queues: TReportQueueRow[];
  /** where the reports are (the app's address + /reports) */
  reportsUrl: string;
};

const LOCALES: Record<TLanguage, string> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };

const WORDS = {
  pt: {
    subject: (company: string, from: string, to: string) => `Zelo: resumo da semana de ${from} a ${to} — ${company}`,
    hello: (name: string) => `Olá, ${name}.`,
    intro: (company: string, from: string, to: string) => `O atendimento de ${company} na semana de ${from} a ${to}:`,
    opened: 'Conversas abertas',
    resolved: 'Conversas resolvidas',
    firstResponse: 'Primeira resposta (horário de expediente)',
    resolution: 'Resolução (horário de expediente)',
    median: 'mediana',
    csat: 'Satisfação',
    ratings: (n: number) => (n === 1 ? '1 avaliação' : `${n} avaliações`),
    backlog: 'Em aberto no fim da semana',
    topAgents: 'Atendentes com mais conversas resolvidas',
    topQueues: 'Filas com mais conversas resolvidas',
    resolvedN: (n: number) => (n === 1 ? '1 resolvida' : `${n} resolvidas`),
    firstResponseShort: '1ª resposta',
    none: 'nenhuma no período',
    open: 'Ver os relatórios',
    footer: 'Você recebe este e-mail porque ativou o resumo semanal nos relatórios do Zelo. Para parar, desative-o lá.',
  },
  en: {
    subject: (company: string, from: string, to: string) => `Zelo: your week from ${from} to ${to} — ${company}`,
    hello: (name: string) => `Hello, ${name}.`,
    intro: (company: string, from: string, to: string) => `${company}'s customer service from ${from} to ${to}:`,
    opened: 'Conversations opened',
    resolved: 'Conversations resolved',
    firstResponse: 'First response (business hours)',
    resolution: 'Resolution (business hours)',
    median: 'median',
    csat: 'Satisfaction',
    ratings: (n: number) => (n === 1 ? '1 rating' : `${n} ratings`),
    backlog: 'Open at the end of the week',
    topAgents: 'Agents with the most conversations resolved',
    topQueues: 'Queues with the most conversations resolved',
    resolvedN: (n: number) => `${n} resolved`,
    firstResponseShort: 'first response',
    none: 'none this week',
    open: 'Open the reports',
    footer:
      "You get this e-mail because you turned on the weekly summary in Zelo's reports. Turn it off there to stop it.",
  },
  es: {
    subject: (company: string, from: string, to: string) =>
      `Zelo: resumen de la semana del ${from} al ${to} — ${company}`,
    hello: (name: string) => `Hola, ${name}.`,
    intro: (company: string, from: string, to: string) =>
      `La atención de ${company} en la semana del ${from} al ${to}:`,
    opened: 'Conversaciones abiertas',
    resolved: 'Conversaciones resueltas',
    firstResponse: 'Primera respuesta (horario laboral)',
    resolution: 'Resolución (horario laboral)',
    median: 'mediana',
    csat: 'Satisfacción',
    ratings: (n: number) => (n === 1 ? '1 valoración' : `${n} valoraciones`),
    backlog: 'Pendientes al final de la semana',
    topAgents: 'Agentes con más conversaciones resueltas',
    topQueues: 'Colas con más conversaciones resueltas',
    resolvedN: (n: number) => (n === 1 ? '1 resuelta' : `${n} resueltas`),
    firstResponseShort: '1.ª respuesta',
    none: 'ninguna en el período',
    open: 'Ver los informes',
    footer:
      'Recibe este correo porque activó el resumen semanal en los informes de Zelo. Para dejar de recibirlo, desactívelo allí.',
  },
} satisfies Record<TLanguage, unknown>;

/** a day (yyyy-MM-dd) as the language writes it */
const dayText = (day: string, lang: TLanguage) =>
  new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** a duration in seconds as people read it: 45 s, 12 min, 1 h 05 min, 2 d 3 h; a dash for none */
export const durationText = (seconds: number | null) => {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;

  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
};

const percent = (rate: number | null, lang: TLanguage) =>
  rate === null
    ? '—'
    : new Intl.NumberFormat(LOCALES[lang], { style: 'percent', maximumFractionDigits: 0 }).format(rate);

const number = (n: number, lang: TLanguage) => new Intl.NumberFormat(LOCALES[lang]).format(n);

export const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c] ?? c);

/** the week's top agents or queues: the first five with a resolution, in the reports' order */
const top = <R extends { resolved: number; name: string }>(rows: R[], hasKey: (r: R) => boolean) =>
  rows.filter((r) => hasKey(r) && r.resolved > 0).slice(0, 5);

export const weeklyMail = (lang: TLanguage, f: TWeeklyMailFacts) => {
  const w = WORDS[lang];
  const from = dayText(f.from, lang);
  const to = dayText(f.to, lang);
  const s = f.summary;
  const pair = (median: number | null, p90: number | null) =>
    `${w.median} ${durationText(median)} · p90 ${durationText(p90)}`;
  const figures: [string, string][] = [
    [w.opened, number(s.opened, lang)],
    [w.resolved, number(s.resolved, lang)],
    [w.firstResponse, pair(s.firstResponse.medianBusiness, s.firstResponse.p90Business)],
    [w.resolution, pair(s.resolution.medianBusiness, s.resolution.p90Business)],
    [w.csat, `${percent(s.csat.score, lang)} (${w.ratings(s.csat.rated)})`],
    [w.backlog, number(s.backlog, lang)],
  ];
  const line = (r: TReportAgentRow | TReportQueueRow) =>
    `${w.resolvedN(r.resolved)} · ${w.firstResponseShort} ${durationText(r.firstResponse.medianBusiness)} · ${w.csat.toLowerCase()} ${percent(r.csat.score, lang)}`;
  const lists: [string, { name: string; detail: string }[]][] = [
    [w.topAgents, top(f.agents, (r) => r.userId !== null).map((r) => ({ name: r.name, detail: line(r) }))],
    [w.topQueues, top(f.queues, (r) => r.queueId !== null).map((r) => ({ name: r.name, detail: line(r) }))],
  ];

  const text = [
    w.hello(f.userName),
    '',
    w.intro(f.companyName, from, to),
    '',
    ...figures.map(([label, value]) => `- ${label}: ${value}`),
    ...lists.flatMap(([title, rows]) => [
      '',
      `${title}:`,
      ...(rows.length ? rows.map((r, i) => `${i + 1}. ${r.name} — ${r.detail}`) : [`- ${w.none}`]),
    ]),
    '',
    `${w.open}: ${f.reportsUrl}`,
    '',
    w.footer,
  ].join('\n');

  const e = escapeHtml;
  const cell = 'padding:4px 12px 4px 0;border-bottom:1px solid #eee';
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${e(w.subject(f.companyName, from, to))}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;font-size:14px;line-height:1.5">
<p>${e(w.hello(f.userName))}</p>
<p>${e(w.intro(f.companyName, from, to))}</p>
<table style="border-collapse:collapse">
${figures.map(([label, value]) => `<tr><td style="${cell}">${e(label)}</td><td style="${cell}"><strong>${e(value)}</strong></td></tr>`).join('\n')}
</table>
${lists
  .map(
    ([title, rows]) =>
      `<h3 style="font-size:15px;margin:20px 0 6px">${e(title)}</h3>\n${
        rows.length
          ? `<ol>${rows.map((r) => `<li><strong>${e(r.name)}</strong> — ${e(r.detail)}</li>`).join('')}</ol>`
          : `<p>${e(w.none)}</p>`
      }`,
  )
  .join('\n')}
<p style="margin-top:20px"><a href="${e(f.reportsUrl)}">${e(w.open)}</a></p>
<p style="color:#777;font-size:12px">${e(w.footer)}</p>
</body></html>`;

  // a header is one line, whatever a company calls itself
  return { subject: w.subject(f.companyName, from, to).replace(/[\r\n\t]+/g, ' '), text, html };
};
