import type { TChannelProvider, TConnectionStatus } from '@zelo/shared';

/** A button of the session column; `request` ones call /whatsappsession/:id with that method. */
export type TSessionAction =
  | 'qr' // open the QR modal
  | 'pairPhone' // open the pairing-code modal (Baileys)
  | 'showCode' // reopen the pairing-code modal while PAIRING (Baileys)
  | 'retry' // POST: try again with what is stored
  | 'check' // POST: Cloud API, check the settings again
  | 'newqr' // PUT: forget the pairing, new QR code
  | 'disconnect' // DELETE
  | 'connecting'; // disabled, while OPENING

/**
 * The buttons of the session column by provider and status (spec 1 §2 for the QR transports). The Cloud API has no
 * phone to pair: no QR buttons, and "check connection" restarts the session with the stored settings.
 */
export const sessionActions = (provider: TChannelProvider, status: TConnectionStatus): TSessionAction[] => {
  if (provider === 'cloud-api') {
    switch (status) {
      case 'CONNECTED':
        return ['check', 'disconnect'];
      case 'OPENING':
        return ['connecting'];
      default:
        return ['check'];
    }
  }
  const byPhone = provider === 'baileys';
  switch (status) {
    case 'qrcode':
      return byPhone ? ['qr', 'pairPhone'] : ['qr'];
    case 'DISCONNECTED':
      return byPhone ? ['retry', 'newqr', 'pairPhone'] : ['retry', 'newqr'];
    case 'PAIRING':
      return byPhone ? ['showCode', 'disconnect'] : ['disconnect'];
    case 'CONNECTED':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
};
