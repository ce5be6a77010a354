/**
 * A small QR code encoder (ISO/IEC 18004, byte mode, versions 1–40) for the connection QR modal.
 * Returns the module matrix (true = dark) without the quiet zone.
 */

export type TQrEcLevel = 'L' | 'M' | 'Q' | 'H';

const EC_INDEX: Record<TQrEcLevel, number> = { L: 0, M: 1, Q: 2, H: 3 };
/** the two format bits of each level */
const EC_FORMAT_BITS: Record<TQrEcLevel, number> = { L: 1, M: 0, Q: 3, H: 2 };

// per level (L, M, Q, H) and version (index 0 unused)
const ECC_CODEWORDS_PER_BLOCK = [
  [
    -1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  [
    -1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ],
  [
    -1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  [
    -1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
];
const NUM_ERROR_CORRECTION_BLOCKS = [
  [
    -1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19,
    19, 20, 21, 22, 24, 25,
  ],
  [
    -1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31,
    33, 35, 37, 38, 40, 43, 45, 47, 49,
  ],
  [
    -1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43,
    45, 48, 51, 53, 56, 59, 62, 65, 68,
  ],
  [
    -1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48,
    51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
  ],
];

const bit = (value: number, index: number) => ((value >>> index) & 1) !== 0;

/** modules available for data and error correction in a version */
const rawDataModules = (version: number) => {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const numAlign = Math.floor(version / 7) + 2;
    result -= (25 * numAlign - 10) * numAlign - 55;
    if (version >= 7) {
      result -= 36;
    }
  }

  return result;
};

const dataCodewords = (version: number, ec: TQrEcLevel) =>
  Math.floor(rawDataModules(version) / 8) -
  ECC_CODEWORDS_PER_BLOCK[EC_INDEX[ec]][version] * NUM_ERROR_CORRECTION_BLOCKS[EC_INDEX[ec]][version];

/** bits of the character count field in byte mode */
const countBits = (version: number) => (version <= 9 ? 8 : 16);

// GF(256) with the polynomial 0x11D
const gfMultiply = (x: number, y: number) => {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }

  return z & 0xff;
};

const rsDivisor = (degree: number) => {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < result.length; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < result.length) {
        result[j] ^= result[j + 1];
      }
    }
    root = gfMultiply(root, 0x02);
  }

  return result;
};

const rsRemainder = (data: number[], divisor: number[]) => {
  const result = new Array<number>(divisor.length).fill(0);
  for (const b of data) {
    const factor = b ^ (result.shift() as number);
    result.push(0);
    divisor.forEach((coef, i) => {
      result[i] ^= gfMultiply(coef, factor);
    });
  }

  return result;
};

/** The data codewords split into blocks, each followed by its error correction, interleaved. */
const addEccAndInterleave = (data: number[], version: number, ec: TQrEcLevel) => {
  const numBlocks = NUM_ERROR_CORRECTION_BLOCKS[EC_INDEX[ec]][version];
  const blockEccLen = ECC_CODEWORDS_PER_BLOCK[EC_INDEX[ec]][version];
  const rawCodewords = Math.floor(rawDataModules(version) / 8);
  const numShortBlocks = numBlocks - (rawCodewords % numBlocks);
  const shortBlockLen = Math.floor(rawCodewords / numBlocks);
  const divisor = rsDivisor(blockEccLen);
  const blocks: number[][] = [];
  for (let i = 0, k = 0; i < numBlocks; i++) {
    const dat = data.slice(k, k + shortBlockLen - blockEccLen + (i < numShortBlocks ? 0 : 1));
    k += dat.length;
    const ecc = rsRemainder(dat, divisor);
    if (i < numShortBlocks) {
      dat.push(0);
    }
    blocks.push(dat.concat(ecc));
  }
  const result: number[] = [];
  for (let i = 0; i < blocks[0].length; i++) {
    blocks.forEach((block, j) => {
      if (i !== shortBlockLen - blockEccLen || j >= numShortBlocks) {
        result.push(block[i]);
      }
    });
  }

  return result;
};

const alignmentPositions = (version: number, size: number) => {
  if (version === 1) {
    return [];
  }
  const numAlign = Math.floor(version / 7) + 2;
  const step = Math.floor((version * 8 + numAlign * 3 + 5) / (numAlign * 4 - 4)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < numAlign; pos -= step) {
    result.splice(1, 0, pos);
  }

  return result;
};

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Matrix {
  readonly size: number;
  readonly modules: boolean[][];
  readonly isFunction: boolean[][];

  constructor(readonly version: number) {
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.isFunction = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
  }

  setFunction(x: number, y: number, dark: boolean) {
    this.modules[y][x] = dark;
    this.isFunction[y][x] = true;
  }

  drawFunctionPatterns(ec: TQrEcLevel) {
    const { size } = this;
    for (let i = 0; i < size; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    this.drawFinder(3, 3);
    this.drawFinder(size - 4, 3);
    this.drawFinder(3, size - 4);
    const positions = alignmentPositions(this.version, size);
    const n = positions.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const corner = (i === 0 && j === 0) || (i === 0 && j === n - 1) || (i === n - 1 && j === 0);
        if (!corner) {
          this.drawAlignment(positions[i], positions[j]);
        }
      }
    }
    this.drawFormatBits(ec, 0); // placeholder, redrawn with the chosen mask
    this.drawVersion();
  }

  drawFinder(x: number, y: number) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const dist = Math.max(Math.abs(dx), Math.abs(dy));
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && xx < this.size && yy >= 0 && yy < this.size) {
          this.setFunction(xx, yy, dist !== 2 && dist !== 4);
        }
      }
    }
  }

  drawAlignment(x: number, y: number) {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        this.setFunction(x + dx, y + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
  }

  drawFormatBits(ec: TQrEcLevel, mask: number) {
    const data = (EC_FORMAT_BITS[ec] << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) {
      rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    }
    const bits = ((data << 10) | rem) ^ 0x5412;
    const { size } = this;
    for (let i = 0; i <= 5; i++) {
      this.setFunction(8, i, bit(bits, i));
    }
    this.setFunction(8, 7, bit(bits, 6));
    this.setFunction(8, 8, bit(bits, 7));
    this.setFunction(7, 8, bit(bits, 8));
    for (let i = 9; i < 15; i++) {
      this.setFunction(14 - i, 8, bit(bits, i));
    }
    for (let i = 0; i < 8; i++) {
      this.setFunction(size - 1 - i, 8, bit(bits, i));
    }
    for (let i = 8; i < 15; i++) {
      this.setFunction(8, size - 15 + i, bit(bits, i));
    }
    this.setFunction(8, size - 8, true);
  }

  drawVersion() {
    if (this.version < 7) {
      return;
    }
    let rem = this.version;
    for (let i = 0; i < 12; i++) {
      rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    }
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = bit(bits, i);
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.setFunction(a, b, dark);
      this.setFunction(b, a, dark);
    }
  }

  drawCodewords(data: number[]) {
    const { size } = this;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) {
        right = 5;
      }
      for (let vert = 0; vert < size; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vert : vert;
          if (!this.isFunction[y][x] && i < data.length * 8) {
            this.modules[y][x] = bit(data[i >>> 3], 7 - (i & 7));
            i++;
          }
        }
      }
    }
  }

  applyMask(mask: number) {
    const fn = MASKS[mask];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        if (!this.isFunction[y][x] && fn(x, y)) {
          this.modules[y][x] = !this.modules[y][x];
        }
      }
    }
  }

  /** the standard's penalty score (rules 1–4), lower is better */
  penalty() {
    const { size, modules } = this;
    let score = 0;
    const runs = (get: (a: number, b: number) => boolean) => {
      for (let a = 0; a < size; a++) {
        let run = 1;
        for (let b = 1; b <= size; b++) {
          if (b < size && get(a, b) === get(a, b - 1)) {
            run++;
          } else {
            if (run >= 5) {
              score += 3 + (run - 5);
            }
            run = 1;
          }
        }
        // rule 3: 1:1:3:1:1 finder-like patterns with four light modules on one side
        for (let b = 0; b + 10 < size + 1; b++) {
          const seq = [1, 0, 1, 1, 1, 0, 1];
          let matches = true;
          for (let k = 0; k < 7 && matches; k++) {
            matches = get(a, b + k) === (seq[k] === 1);
          }
          if (!matches) {
            continue;
          }
          const lightBefore = [1, 2, 3, 4].every((k) => b - k < 0 || !get(a, b - k));
          const lightAfter = [7, 8, 9, 10].every((k) => b + k >= size || !get(a, b + k));
          if (lightBefore || lightAfter) {
            score += 40;
          }
        }
      }
    };
    runs((y, x) => modules[y][x]);
    runs((x, y) => modules[y][x]);
    let dark = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (modules[y][x]) {
          dark++;
        }
        if (
          x + 1 < size &&
          y + 1 < size &&
          modules[y][x] === modules[y][x + 1] &&
          modules[y][x] === modules[y + 1][x] &&
          modules[y][x] === modules[y + 1][x + 1]
        ) {
          score += 3;
        }
      }
    }
    const total = size * size;
    const k = Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1;

    return score + Math.max(0, k) * 10;
  }
}

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));

/** The data codewords of `bytes` in byte mode for a version and level (terminator and padding included). */
const dataCodewordsFor = (bytes: number[], version: number, ec: TQrEcLevel) => {
  const bits: number[] = [];
  const push = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      bits.push((value >>> i) & 1);
    }
  };
  push(0b0100, 4);
  push(bytes.length, countBits(version));
  for (const b of bytes) {
    push(b, 8);
  }
  const capacityBits = dataCodewords(version, ec) * 8;
  push(0, Math.min(4, capacityBits - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  const codewords: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    codewords.push(bits.slice(i, i + 8).reduce((acc, b) => (acc << 1) | b, 0));
  }
  for (let pad = 0xec; codewords.length < capacityBits / 8; pad ^= 0xec ^ 0x11) {
    codewords.push(pad);
  }

  return codewords;
};

export type TQrOptions = { ecLevel?: TQrEcLevel; version?: number; mask?: number };

/** Encodes text (UTF-8, byte mode) into the smallest version that holds it at the level (M by default). */
export const encodeQr = (text: string, { ecLevel = 'M', version: fixedVersion, mask: fixedMask }: TQrOptions = {}) => {
  const bytes = utf8(text);
  let version = fixedVersion ?? 1;
  const fits = (v: number) => 4 + countBits(v) + bytes.length * 8 <= dataCodewords(v, ecLevel) * 8;
  if (fixedVersion === undefined) {
    while (version <= 40 && !fits(version)) {
      version++;
    }
  }
  if (version > 40 || !fits(version)) {
    throw new RangeError('QR data too long');
  }
  const codewords = addEccAndInterleave(dataCodewordsFor(bytes, version, ecLevel), version, ecLevel);
  const matrix = new Matrix(version);
  matrix.drawFunctionPatterns(ecLevel);
  matrix.drawCodewords(codewords);
  let mask = fixedMask ?? -1;
  if (mask < 0) {
    let best = Number.POSITIVE_INFINITY;
    for (let m = 0; m < 8; m++) {
      matrix.applyMask(m);
      matrix.drawFormatBits(ecLevel, m);
      const score = matrix.penalty();
      if (score < best) {
        best = score;
        mask = m;
      }
      matrix.applyMask(m); // undo (XOR)
    }
  }
  matrix.applyMask(mask);
  matrix.drawFormatBits(ecLevel, mask);

  return { version, mask, size: matrix.size, modules: matrix.modules };
};
