import { Alert, type AlertColor, Snackbar, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/http';
import { i18n } from '../i18n';

/** Toasts close automatically after 3 s (spec 3 §2.1). */
export const TOAST_DURATION_MS = 3000;

type ToastItem = { id: number; severity: AlertColor; text: string };
type Listener = (items: ToastItem[]) => void;

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

const publish = () => {
  for (const listener of listeners) {
    listener(items);
  }
};

const dismiss = (id: number) => {
  items = items.filter((item) => item.id !== id);
  publish();
};

const show = (severity: AlertColor, text: string) => {
  // the same text already on screen (e.g. several requests failing alike) is not repeated
  if (items.some((item) => item.severity === severity && item.text === text)) {
    return;
  }
  const id = nextId++;
  items = [...items.slice(-3), { id, severity, text }];
  publish();
  setTimeout(() => dismiss(id), TOAST_DURATION_MS);
};

export const toast = {
  success: (msg: string) => show('success', msg),
  info: (msg: string) => show('info', msg),
  warning: (msg: string) => show('warning', msg),
  error: (msg: string) => show('error', msg),
};

/** The text of an error: `errors.<code>` when translated, else the server's message (spec 1 §8). */
export const errorText = (err: unknown): string => {
  if (err instanceof ApiError) {
    if (err.code === 'ERR_VALIDATION' && err.details?.length) {
      return err.details
        .map((d) => {
          const key = `validation.${d.message}`;
          const text = i18n.exists(key) ? i18n.t(key) : d.message;

          return d.path ? `${d.path}: ${text}` : text;
        })
        .join(' · ');
    }
    const key = `errors.${err.code}`;

    return i18n.exists(key) ? i18n.t(key) : err.message;
  }
  if (err instanceof Error) {
    return err.message;
  }

  return typeof err === 'string' ? err : i18n.t('errors.ERR_INTERNAL_SERVER_ERROR');
};

/**
 * errorText, plus the reason a non-validation refusal gives on its fields (`details`), in words: e.g. a failed
 * Dialogflow test says that the key file is not valid and how to get a good one.
 */
export const errorWithDetails = (err: unknown): string => {
  const text = errorText(err);
  if (!(err instanceof ApiError) || err.code === 'ERR_VALIDATION' || !err.details?.length) return text;
  const reasons = err.details
    .map((d) => `validation.${d.message}`)
    .filter((key) => i18n.exists(key))
    .map((key) => i18n.t(key));

  return reasons.length ? `${text} ${reasons.join(' · ')}` : text;
};

export const toastError = (err: unknown) => {
  toast.error(errorText(err));
};

/** below the top bar (56 px high on phones, 64 px from `sm`), so toasts never cover its controls */
export const TOAST_TOP = { xs: 64, sm: 72 } as const;

/** Mounted once at the root: toasts stack at the top right, under the top bar. */
export const ToastHost = () => {
  const [current, setCurrent] = useState<ToastItem[]>(items);
  useEffect(() => {
    listeners.add(setCurrent);

    return () => {
      listeners.delete(setCurrent);
    };
  }, []);

  return (
    <Snackbar open={current.length > 0} anchorOrigin={{ vertical: 'top', horizontal: 'right' }} sx={{ top: TOAST_TOP }}>
      {/* the Snackbar's transition hands its direction prop ('down') to its child: a Stack there would lay out in a row */}
      <div>
        <Stack spacing={1}>
          {current.map((item) => (
            <Alert
              key={item.id}
              severity={item.severity}
              variant="filled"
              onClose={() => dismiss(item.id)}
              data-testid={`toast-${item.severity}`}
              sx={{ minWidth: 280, maxWidth: 480 }}
            >
              {item.text}
            </Alert>
          ))}
        </Stack>
      </div>
    </Snackbar>
  );
};
