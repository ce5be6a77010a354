import { Box } from '@mui/material';
import {
  cloneElement,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';

/**
 * A short label shown beside a control while the pointer is on it or it has the keyboard's focus, for the
 * controls every screen carries (the top bar, the side menu, presence dots). MUI's Tooltip does this with
 * Popper.js, 9 KB of brotli JavaScript that the inbox's first load (issue 23's budget) cannot afford for a
 * label; this places one line of text under (or beside) the control, kept inside the window. The control gets the
 * label as its `aria-label` when it has none, as MUI's Tooltip does. Screens that load later use MUI's Tooltip.
 */

type TPlacement = 'bottom' | 'right';

type THintProps = {
  /** the label; empty: no hint */
  title: string;
  placement?: TPlacement;
  // biome-ignore lint/suspicious/noExplicitAny: any element that takes pointer and focus handlers
  children: ReactElement<any>;
};

const SHOW_DELAY_MS = 100;
/** between the control and the label, and between the label and the window's edge */
const GAP_PX = 6;

type TAnchor = { rect: DOMRect; placement: TPlacement };

/** where the label goes: centred under the control (or beside it, on the right), inside the window */
const placeLabel = ({ rect, placement }: TAnchor, label: { width: number; height: number }) => {
  const maxLeft = window.innerWidth - label.width - GAP_PX;
  const maxTop = window.innerHeight - label.height - GAP_PX;
  const clamp = (value: number, max: number) => Math.max(GAP_PX, Math.min(value, max));
  if (placement === 'right') {
    return {
      left: clamp(rect.right + GAP_PX, maxLeft),
      top: clamp(rect.top + (rect.height - label.height) / 2, maxTop),
    };
  }

  return { left: clamp(rect.left + (rect.width - label.width) / 2, maxLeft), top: clamp(rect.bottom + GAP_PX, maxTop) };
};

const Label = ({ id, text, anchor }: { id: string; text: string; anchor: TAnchor }) => {
  const ref = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    if (box) setAt(placeLabel(anchor, box));
  }, [anchor]);

  return createPortal(
    <Box
      ref={ref}
      id={id}
      role="tooltip"
      sx={{
        position: 'fixed',
        left: at?.left ?? 0,
        top: at?.top ?? 0,
        visibility: at ? 'visible' : 'hidden',
        zIndex: 'tooltip',
        pointerEvents: 'none',
        maxWidth: 300,
        px: 1,
        py: 0.5,
        borderRadius: 1,
        bgcolor: 'grey.700',
        color: 'common.white',
        typography: 'caption',
        fontWeight: 500,
        lineHeight: 1.4,
      }}
    >
      {text}
    </Box>,
    document.body,
  );
};

export const Hint = ({ title, placement = 'bottom', children }: THintProps) => {
  const id = useId();
  const [anchor, setAnchor] = useState<TAnchor | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!title) {
    return children;
  }

  const show = (target: Element) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setAnchor({ rect: target.getBoundingClientRect(), placement }), SHOW_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setAnchor(null);
  };
  const own = children.props;

  return (
    <>
      {cloneElement(children, {
        'aria-label': own['aria-label'] ?? title,
        'aria-describedby': anchor ? id : own['aria-describedby'],
        onMouseEnter: (event: MouseEvent<Element>) => {
          own.onMouseEnter?.(event);
          show(event.currentTarget);
        },
        onMouseLeave: (event: MouseEvent<Element>) => {
          own.onMouseLeave?.(event);
          hide();
        },
        onFocus: (event: FocusEvent<Element>) => {
          own.onFocus?.(event);
          if (event.currentTarget.matches(':focus-visible')) show(event.currentTarget);
        },
        onBlur: (event: FocusEvent<Element>) => {
          own.onBlur?.(event);
          hide();
        },
        onClick: (event: MouseEvent<Element>) => {
          own.onClick?.(event);
          hide();
        },
      })}
      {anchor ? <Label id={id} text={title} anchor={anchor} /> : null}
    </>
  );
};
