/**
 * What compressing an API answer costs (issue 23 item 1, apps/server/src/http/compress.ts): a ticket-list answer of
 * 1, 5, 20 and 40 tickets shaped as the API answers it, compressed 400 times each with brotli quality 1 and gzip
 * level 1 as the server does; prints the sizes and the CPU per call. Picks the threshold (COMPRESS_MIN_BYTES).
 *
 *   node --import tsx bench/compress-cost.ts
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ticket = (i: number) => ({
  id: i,
  uuid: randomUUID(),
  status: 'open',
  unreadMessages: i % 3,
  lastMessage: `Olá, preciso de ajuda com o pedido ${i} que fiz ontem`,
  isGroup: false,
  userId: 3,
  contactId: 1000 + i,
  whatsappId: 1,
  queueId: 2,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  contact: {
    id: 1000 + i,
    name: `Cliente ${i} da Silva`,
    number: `5511${90000000 + i}`,
    profilePicUrl: `https://pps.whatsapp.net/v/t61/${randomUUID()}.jpg`,
    email: '',
  },
  queue: { id: 2, name: 'Suporte', color: '#7c3aed' },
  whatsapp: { id: 1, name: 'Principal', status: 'CONNECTED' },
  user: { id: 3, name: 'Ana' },
  tags: [{ id: 1, name: 'vip', color: '#f00' }],
});

const cpuPerCall = (run: () => Buffer, calls = 400) => {
  let out = run();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) out = run();
  const used = process.cpuUsage(start);

  return { kb: out.length / 1024, ms: (used.user + used.system) / calls / 1000 };
};

console.log(`load average ${loadavg()[0].toFixed(2)}`);
console.log('| answer | plain | brotli q1 (CPU) | gzip 1 (CPU) |\n|---|---:|---:|---:|');
for (const n of [1, 5, 20, 40]) {
  const bytes = Buffer.from(
    JSON.stringify({ tickets: Array.from({ length: n }, (_, i) => ticket(i)), count: 400, hasMore: true }),
  );
  const br = cpuPerCall(() => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }));
  const gz = cpuPerCall(() => gzipSync(bytes, { level: 1 }));
  console.log(
    `| ${n} tickets | ${(bytes.length / 1024).toFixed(1)} KB | ${br.kb.toFixed(1)} KB (${br.ms.toFixed(3)} ms) | ${gz.kb.toFixed(1)} KB (${gz.ms.toFixed(3)} ms) |`,
  );
}
console.log(`load average ${loadavg()[0].toFixed(2)}`);
