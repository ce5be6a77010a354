/** The pairing code as WhatsApp shows it: letters and digits only, upper case ('ABCD1234'); '' when none. */
export const normalizePairingCode = (value: unknown) =>
  typeof value === 'string' ? value.replace(/[^0-9a-z]/gi, '').toUpperCase() : '';

/** A code answered by POST /whatsappsession/:id/pairing, whatever field carries it. */
export const codeOfAnswer = (answer: unknown) => {
  if (!answer || typeof answer !== 'object') {
    return '';
  }
  const a = answer as Record<string, unknown>;

  return normalizePairingCode(a.code ?? a.pairingCode ?? (a.status === 'PAIRING' ? a.qrcode : ''));
};
