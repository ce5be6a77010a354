import { Box } from '@mui/material';
import QRCode from 'qrcode';
import { useMemo } from 'react';

type TQrCodeProps = { value: string; size?: number; testId?: string; label?: string };

/**
 * The text as an SVG QR code drawn by the `qrcode` package: black on white with the standard 4-module quiet zone
 * whatever the theme (phones read dark on light), level M, or L for texts too long for M.
 * Its callback form renders synchronously, so the first paint (and a server render in tests) has the image.
 */
export const qrSvg = (value: string): string | null => {
  let svg: string | null = null;
  QRCode.toString(
    value,
    {
      type: 'svg',
      errorCorrectionLevel: value.length > 1200 ? 'L' : 'M',
      margin: 4,
      color: { dark: '#000000', light: '#ffffff' },
    },
    (error, text) => {
      svg = error ? null : text;
    },
  );

  return svg;
};

export const QrCode = ({ value, size = 256, testId, label }: TQrCodeProps) => {
  const src = useMemo(() => {
    const svg = qrSvg(value);

    return svg ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` : null;
  }, [value]);
  if (!src) {
    return null;
  }

  return (
    <Box
      component="img"
      src={src}
      width={size}
      height={size}
      alt={label}
      data-testid={testId}
      data-qr={value}
      sx={{ display: 'block', bgcolor: '#fff', borderRadius: 1, imageRendering: 'pixelated' }}
    />
  );
};
