import { Box } from '@mui/material';
import { useMemo } from 'react';
import { encodeQr } from './encodeQr';

const QUIET_ZONE = 4;

type TQrCodeProps = { value: string; size?: number; testId?: string; label?: string };

/** The text as a QR code (SVG, dark modules on white with the standard quiet zone). */
export const QrCode = ({ value, size = 256, testId, label }: TQrCodeProps) => {
  const qr = useMemo(() => {
    try {
      return encodeQr(value, { ecLevel: value.length > 1200 ? 'L' : 'M' });
    } catch {
      return null;
    }
  }, [value]);
  if (!qr) {
    return null;
  }
  const total = qr.size + QUIET_ZONE * 2;
  let path = '';
  qr.modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) {
        path += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`;
      }
    });
  });

  return (
    <Box
      component="svg"
      viewBox={`0 0 ${total} ${total}`}
      width={size}
      height={size}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-qr={value}
      shapeRendering="crispEdges"
      sx={{ display: 'block', bgcolor: '#fff', borderRadius: 1 }}
    >
      <rect width={total} height={total} fill="#fff" />
      <path d={path} fill="#000" />
    </Box>
  );
};
