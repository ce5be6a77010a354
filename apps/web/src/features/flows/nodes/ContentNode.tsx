import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { toast, toastError } from '../../../components/toast';
import '../i18n';
import { uploadFlowMedia } from '../flowsApi';
import { addCard, CARD_TYPES, cardsOf, contentData, contentProblem, moveCard, type TCard } from './contentCards';
import { compressImage } from './media';
import { MediaPicker } from './MediaPicker';
import { NodeText } from './NodeShell';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';
import { insertVariable, VariableChips } from './VariableChips';

const ContentBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const cards = cardsOf(data);

  return (
    <Stack spacing={0.25}>
      {cards.slice(0, 5).map((c) => (
        <NodeText key={c.number} lines={1}>
          {`${t(`flows.dialogs.cardTypes.${c.type}`)}: ${c.type === 'message' || c.type === 'interval' ? c.value : c.original || c.value}`}
        </NodeText>
      ))}
      {cards.length > 5 && <NodeText lines={1}>{t('flows.nodes.elements', { count: cards.length })}</NodeText>}
      {cards.length === 0 && <NodeText>{t('flows.nodes.empty')}</NodeText>}
    </Stack>
  );
};

/** Uploads the cards' new files (an image compressed first) and answers the cards with the stored names. */
const uploadCards = async (cards: TCard[]) => {
  const done: TCard[] = [];
  for (const card of cards) {
    if (card.file && (card.type === 'img' || card.type === 'audio' || card.type === 'video')) {
      const answer = await uploadFlowMedia(card.type, card.type === 'img' ? await compressImage(card.file) : card.file);
      done.push({ ...card, file: undefined, value: answer.name, original: answer.original || card.file.name });
    } else {
      done.push(card);
    }
  }

  return done;
};

/**
 * Content dialog (spec 3 §2.9): an ordered sequence of cards — message, interval (1–120 s), image, audio (record
 * flag), video — moved up and down; while uploading it hides its buttons and says so.
 */
const ContentDialog = ({ data, variables, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const [cards, setCards] = useState<TCard[]>(() => cardsOf(data));
  const [busy, setBusy] = useState(false);
  const change = (index: number, patch: Partial<TCard>) =>
    setCards((old) => old.map((c, i) => (i === index ? { ...c, ...patch } : c)));

  const save = async () => {
    const problem = contentProblem(cards);
    if (problem) {
      toast.error(t(`flows.dialogs.${problem}`));

      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadCards(cards);
      onSubmit(contentData(uploaded));
      toast.success(t('flows.dialogs.contentAdded'));
      onClose();
    } catch (err) {
      toastError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="md"
      fullWidth
      scroll="paper"
      data-testid="flow-dialog-singleBlock-dialog"
    >
      <DialogTitle>
        {data
          ? t('flows.dialogs.editTitle', { type: t('flows.types.singleBlock') })
          : t('flows.dialogs.addTitle', { type: t('flows.types.singleBlock') })}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={1.5}>
          {cards.length === 0 && <Typography color="text.secondary">{t('flows.dialogs.noCards')}</Typography>}
          {cards.map((card, index) => (
            <Paper key={card.number} variant="outlined" sx={{ p: 1.5 }} data-testid={`flow-card-${index}`}>
              <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
                <Typography variant="subtitle2" sx={{ flex: 1 }}>
                  {`${index + 1}. ${t(`flows.dialogs.cardTypes.${card.type}`)}`}
                </Typography>
                <Tooltip title={t('flows.dialogs.moveUp')}>
                  <span>
                    <IconButton
                      size="small"
                      disabled={busy || index === 0}
                      aria-label={t('flows.dialogs.moveUp')}
                      onClick={() => setCards((c) => moveCard(c, index, -1))}
                    >
                      <ArrowUpward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={t('flows.dialogs.moveDown')}>
                  <span>
                    <IconButton
                      size="small"
                      disabled={busy || index === cards.length - 1}
                      aria-label={t('flows.dialogs.moveDown')}
                      onClick={() => setCards((c) => moveCard(c, index, 1))}
                    >
                      <ArrowDownward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={t('flows.dialogs.removeCard')}>
                  <span>
                    <IconButton
                      size="small"
                      disabled={busy}
                      aria-label={t('flows.dialogs.removeCard')}
                      onClick={() => setCards((c) => c.filter((_, i) => i !== index))}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </Stack>
              {card.type === 'message' && (
                <Stack spacing={1}>
                  <TextField
                    fullWidth
                    multiline
                    minRows={3}
                    value={card.value}
                    onChange={(e) => change(index, { value: e.target.value })}
                    slotProps={{ htmlInput: { 'data-testid': `flow-card-${index}-text` } }}
                  />
                  <VariableChips
                    variables={variables}
                    onPick={(name) => change(index, { value: insertVariable(card.value, name) })}
                  />
                </Stack>
              )}
              {card.type === 'interval' && (
                <TextField
                  type="number"
                  size="small"
                  label={t('flows.dialogs.seconds')}
                  value={card.value}
                  onChange={(e) => change(index, { value: e.target.value })}
                  slotProps={{ htmlInput: { min: 1, max: 120, 'data-testid': `flow-card-${index}-sec` } }}
                />
              )}
              {(card.type === 'img' || card.type === 'audio' || card.type === 'video') && (
                <Stack spacing={1}>
                  {card.type === 'video' && <Alert severity="warning">{t('flows.dialogs.videoWarning')}</Alert>}
                  <MediaPicker
                    kind={card.type}
                    fileName={card.file?.name ?? (card.original || card.value || null)}
                    disabled={busy}
                    onPick={(file) => change(index, { file })}
                    testId={`flow-card-${index}-file`}
                  />
                  {card.type !== 'img' && (
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={Boolean(card.record)}
                          onChange={(e) => change(index, { record: e.target.checked })}
                        />
                      }
                      label={t('flows.dialogs.record')}
                    />
                  )}
                </Stack>
              )}
            </Paper>
          ))}
          {!busy && (
            <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
              {CARD_TYPES.map((type) => (
                <Button
                  key={type}
                  size="small"
                  variant="outlined"
                  onClick={() => setCards((c) => addCard(c, type))}
                  data-testid={`flow-card-add-${type}`}
                >
                  {t('flows.dialogs.addCard', { type: t(`flows.dialogs.cardTypes.${type}`) })}
                </Button>
              ))}
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {busy ? (
          <Typography variant="body2" sx={{ px: 2, py: 1 }} data-testid="flow-content-uploading">
            {t('flows.dialogs.uploading')}
          </Typography>
        ) : (
          <>
            <Button color="inherit" onClick={onClose}>
              {t('flows.dialogs.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void save()} data-testid="flow-dialog-singleBlock-save">
              {data ? t('flows.dialogs.edit') : t('flows.dialogs.add')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};

export const singleBlockSpec: TNodeSpec = {
  type: 'singleBlock',
  Icon: LibraryBooks,
  color: '#ec5858',
  Body: ContentBody,
  Dialog: ContentDialog,
  inPalette: true,
};
