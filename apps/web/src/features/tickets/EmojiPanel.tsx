import { Box, CircularProgress, Stack, Typography } from '@mui/material';
import {
  defaultEmojiDataResolver,
  type EmojiDataResolver,
  type EmojiPickerListProps,
  EmojiPicker as Picker,
} from 'frimousse';
import { useTranslation } from '../../i18n/useTranslation';
import { currentLanguage, i18n } from '../../i18n';
import { EMOJI_GROUP_KEYS, EMOJIBASE_PATH } from './emojibase';

const COLUMNS = 8;
const CELL = 38;

/**
 * Emojibase's data as frimousse filters it (the browser's emoji version), with our own names for its groups
 * (Emojibase's pt calls the flags "comutadores"). Module scope: frimousse reloads on locale changes, not on a
 * new function.
 */
const resolveEmojiData: EmojiDataResolver = async (locale, options) => {
  const data = await defaultEmojiDataResolver(locale, options);
  const t = i18n.getFixedT(locale);

  return {
    ...data,
    categories: data.categories.map((category) => {
      const key = EMOJI_GROUP_KEYS[category.index];

      return key ? { ...category, label: t(`tickets.emoji.groups.${key}`) } : category;
    }),
  };
};

/** the list's parts, styled with the theme (module scope: frimousse keeps their identity between renders) */
const LIST_PARTS: EmojiPickerListProps['components'] = {
  CategoryHeader: ({ category, ...props }) => (
    <Box
      {...props}
      sx={{
        bgcolor: 'background.paper',
        // the popover's elevation tint in the dark theme, so the sticky header matches the paper under it
        backgroundImage: 'var(--Paper-overlay)',
        color: 'text.secondary',
        fontSize: 12,
        fontWeight: 500,
        px: 0.5,
        pt: 1,
        pb: 0.5,
      }}
    >
      {category.label}
    </Box>
  ),
  Row: ({ children, ...props }) => (
    <Box {...props} sx={{ display: 'flex' }}>
      {children}
    </Box>
  ),
  Emoji: ({ emoji, ...props }) => (
    <Box
      component="button"
      type="button"
      {...props}
      aria-label={emoji.label}
      // frimousse measures a row of label-less emoji, hidden: not an option
      data-testid={emoji.label ? 'emoji-option' : undefined}
      sx={{
        width: CELL,
        height: CELL,
        flexShrink: 0,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontSize: 22,
        lineHeight: 1,
        p: 0,
        border: 0,
        borderRadius: 1,
        bgcolor: emoji.isActive ? 'action.selected' : 'transparent',
        cursor: 'pointer',
      }}
    >
      {emoji.emoji}
    </Box>
  ),
};

/**
 * The picker itself (frimousse over Emojibase in the UI language, so the search matches pt, en or es names and
 * tags), loaded with its library when the composer's emoji button is first pressed. Keyboard: the search field
 * has the focus, arrows move through the results, Enter picks, Escape closes the popover.
 */
export const EmojiPanel = ({ onPick }: { onPick: (emoji: string) => void }) => {
  const { t } = useTranslation();

  return (
    <Box
      component={Picker.Root}
      locale={currentLanguage()}
      emojibaseUrl={EMOJIBASE_PATH}
      resolveEmojiData={resolveEmojiData}
      columns={COLUMNS}
      onEmojiSelect={({ emoji }: { emoji: string }) => onPick(emoji)}
      data-testid="emoji-picker"
      sx={{
        // the rows, the viewport's side padding and its scrollbar gutter
        width: COLUMNS * CELL + 32,
        maxWidth: '100%',
        height: 360,
        maxHeight: '60vh',
        display: 'flex',
        flexDirection: 'column',
        isolation: 'isolate',
      }}
    >
      <Box sx={{ p: 1, pb: 0.5 }}>
        <Box
          component={Picker.Search}
          autoFocus
          placeholder={t('tickets.emoji.search')}
          aria-label={t('tickets.emoji.search')}
          data-testid="emoji-search"
          sx={{
            width: '100%',
            boxSizing: 'border-box',
            font: 'inherit',
            fontSize: 14,
            color: 'text.primary',
            bgcolor: 'action.hover',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            px: 1.25,
            py: 0.75,
            outline: 'none',
            '&:focus': { borderColor: 'primary.main' },
            '&::placeholder': { color: 'text.secondary', opacity: 1 },
          }}
        />
      </Box>
      <Box component={Picker.Viewport} sx={{ position: 'relative', flex: 1, outline: 'none', px: 1 }}>
        <Box
          component={Picker.Loading}
          sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        >
          <CircularProgress size={24} aria-label={t('tickets.emoji.loading')} />
        </Box>
        <Picker.Empty>
          {({ search }) => (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ position: 'absolute', inset: 0, textAlign: 'center', pt: 4, px: 2 }}
              data-testid="emoji-empty"
            >
              {t('tickets.emoji.empty', { search })}
            </Typography>
          )}
        </Picker.Empty>
        <Picker.List style={{ paddingBottom: 8 }} components={LIST_PARTS} />
      </Box>
      <Stack
        direction="row"
        alignItems="center"
        spacing={1}
        sx={{ px: 1.5, py: 0.5, borderTop: 1, borderColor: 'divider', minHeight: 44 }}
      >
        <Picker.ActiveEmoji>
          {({ emoji }) => (
            <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }} data-testid="emoji-active">
              {emoji ? `${emoji.emoji}  ${emoji.label}` : t('tickets.emoji.hint')}
            </Typography>
          )}
        </Picker.ActiveEmoji>
        <Box
          component={Picker.SkinToneSelector}
          aria-label={t('tickets.emoji.skinTone')}
          title={t('tickets.emoji.skinTone')}
          sx={{
            fontSize: 20,
            lineHeight: 1,
            p: 0.5,
            border: 0,
            borderRadius: 1,
            bgcolor: 'transparent',
            cursor: 'pointer',
            '&:hover, &:focus-visible': { bgcolor: 'action.hover' },
          }}
        />
      </Stack>
    </Box>
  );
};
