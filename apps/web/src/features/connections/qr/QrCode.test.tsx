import QRCode from 'qrcode';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { QrCode } from './QrCode';

/** a pairing text shaped like Baileys' (ref, noise key, identity key, adv secret) */
const SESSION_QR =
  '2@Xy7QmS0dJk3PqL8vZb1N4cWfGh6TnRa9EoUi2MlKs5Yt0Bw,Vd3sP8kQzN1mLx4Rj7Gh2Ty6Wc9Ab0Ue5Io=,Fh2Kq9Lm3Nz8Px7Rw4Ts1Vb6Yc0Ad5Ge=,Jk8Lm2Np4Qr6St0Uv1Wx3Yz5Ab7Cd9Ef=';

/** The module matrix drawn by the rendered <img>'s SVG (the `qrcode` path: M/m moves, h runs of dark modules). */
const renderedMatrix = (html: string) => {
  const src = /src="data:image\/svg\+xml;charset=utf-8,([^"]+)"/.exec(html)?.[1];
  expect(src).toBeDefined();
  const svg = decodeURIComponent((src ?? '').replaceAll('&amp;', '&'));
  const total = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const d = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  const dark = Array.from({ length: total }, () => Array<boolean>(total).fill(false));
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of d.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    if (cmd === 'M') {
      x = Number(a);
      y = Math.floor(Number(b));
    } else if (cmd === 'm') {
      x += Number(a);
    } else {
      for (let i = 0; i < Number(a); i += 1) {
        dark[y][x + i] = true;
      }
      x += Number(a);
    }
  }

  return { total, dark };
};

/** The library's own matrix of a text, framed by the 4-module quiet zone. */
const expectedMatrix = (text: string, level: 'L' | 'M') => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: level });
  const total = modules.size + 8;

  return Array.from({ length: total }, (_, y) =>
    Array.from({ length: total }, (_, x) => {
      const inside = x >= 4 && y >= 4 && x < total - 4 && y < total - 4;

      return inside && Boolean(modules.get(y - 4, x - 4));
    }),
  );
};

describe('QrCode', () => {
  it("draws the QR code of the session's text, with its quiet zone, and keeps the text on the element", () => {
    const html = renderToString(<QrCode value={SESSION_QR} testId="qr-code" label="QR" />);
    expect(html).toContain('data-testid="qr-code"');
    expect(html).toContain('alt="QR"');
    const { total, dark } = renderedMatrix(html);
    const expected = expectedMatrix(SESSION_QR, 'M');
    expect(total).toBe(expected.length);
    expect(dark).toEqual(expected);
    // the three finder patterns' corners sit just inside the quiet zone
    expect([dark[4][4], dark[4][total - 5], dark[total - 5][4]]).toEqual([true, true, true]);
    expect(dark[3].some(Boolean)).toBe(false);
    // a text one character apart draws another code
    expect(dark).not.toEqual(expectedMatrix(`${SESSION_QR.slice(0, -1)}X`, 'M'));
  });

  it('uses the low error-correction level for texts too long for M, and draws nothing for what no QR holds', () => {
    const long = 'a'.repeat(2000);
    expect(renderedMatrix(renderToString(<QrCode value={long} />)).dark).toEqual(expectedMatrix(long, 'L'));
    expect(renderToString(<QrCode value={'a'.repeat(3000)} />)).toBe('');
  });
});
