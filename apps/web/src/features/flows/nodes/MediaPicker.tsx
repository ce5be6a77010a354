import AttachFile from '@mui/icons-material/AttachFile';
import { Button, Stack, Typography } from '@mui/material';
import { useRef } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { toast } from '../../../components/toast';
import '../i18n';
import { MEDIA_LIMITS, mediaProblem, type TMediaKind } from './media';

type TMediaPickerProps = {
  kind: TMediaKind;
  /** the chosen file's or the stored file's name; null: none yet */
  fileName: string | null;
  onPick: (file: File) => void;
  disabled?: boolean;
  testId: string;
};

/** A file chooser for one node file: the kind's types only, refused with the spec's message when too large. */
export const MediaPicker = ({ kind, fileName, onPick, disabled, testId }: TMediaPickerProps) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);

  return (
    <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 0 }}>
      <input
        ref={input}
        type="file"
        hidden
        accept={MEDIA_LIMITS[kind].accept}
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) {
            return;
          }
          const problem = mediaProblem(kind, file);
          if (problem) {
            toast.error(t(problem.key, problem));

            return;
          }
          onPick(file);
        }}
      />
      <Button
        variant="outlined"
        size="small"
        startIcon={<AttachFile />}
        disabled={disabled}
        onClick={() => input.current?.click()}
        data-testid={testId}
        sx={{ flexShrink: 0 }}
      >
        {fileName ? t('flows.dialogs.replaceFile') : t('flows.dialogs.chooseFile')}
      </Button>
      <Typography variant="body2" noWrap color={fileName ? 'text.primary' : 'text.secondary'} title={fileName ?? ''}>
        {fileName ?? `${MEDIA_LIMITS[kind].extensions.join(', ')} · ${MEDIA_LIMITS[kind].maxMb} MB`}
      </Typography>
    </Stack>
  );
};
