import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import { Handle, type NodeProps, Position } from '@xyflow/react';
import { useTranslation } from '../../../i18n/useTranslation';
import '../i18n';
import { type TNodeRunState, useEditorActions } from '../editor/editorContext';
import { DEFAULT_HANDLES, type TNodeData, type TNodeSpec } from './nodeSpec';

const RUN_COLORS: Record<TNodeRunState, 'warning' | 'info' | 'success' | 'error'> = {
  running: 'warning',
  waiting: 'info',
  done: 'success',
  failed: 'error',
};

const handleStyle = (color: string) => ({ width: 14, height: 14, background: color, border: '2px solid #fff' });

/**
 * The frame every node is drawn in (spec 3 §2.8): a coloured header with the type's icon, duplicate and delete
 * icons on every node but the start, a target handle on the left (none on the start), its source handles on the
 * right (one per menu option, `a`/`b` on the randomizer). Selected: a blue border; in a test run, the node's state.
 */
export const NodeShell = ({ spec, props }: { spec: TNodeSpec; props: NodeProps }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  const { duplicate, remove, runStates } = useEditorActions();
  const data = (props.data ?? {}) as TNodeData;
  const handles = spec.handles?.(data) ?? DEFAULT_HANDLES;
  const isStart = spec.type === 'start';
  const run = runStates[props.id];
  const ring = run
    ? theme.palette[RUN_COLORS[run]].main
    : props.selected
      ? theme.palette.info.main
      : theme.palette.divider;

  return (
    <Box
      data-testid={`flow-node-${spec.type}`}
      data-node-id={props.id}
      data-run-state={run ?? ''}
      sx={{
        width: 240,
        bgcolor: 'background.paper',
        borderRadius: 2,
        border: 2,
        borderColor: ring,
        boxShadow: run ? `0 0 0 4px ${alpha(ring, 0.35)}` : 1,
        transition: 'box-shadow 200ms, border-color 200ms',
        position: 'relative',
      }}
    >
      {!isStart && <Handle type="target" position={Position.Left} style={handleStyle(theme.palette.grey[600])} />}
      <Stack
        direction="row"
        alignItems="center"
        spacing={1}
        sx={{ px: 1.25, py: 0.75, borderBottom: 1, borderColor: 'divider', bgcolor: alpha(spec.color, 0.12) }}
      >
        <spec.Icon fontSize="small" sx={{ color: spec.color }} />
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {t(`flows.types.${spec.type}`)}
        </Typography>
        {!isStart && (
          <>
            <Tooltip title={t('flows.editor.duplicate')}>
              <IconButton
                size="small"
                className="nodrag"
                aria-label={t('flows.editor.duplicate')}
                data-testid="flow-node-duplicate"
                onClick={() => duplicate(props.id)}
              >
                <ContentCopy sx={{ fontSize: 16 }} />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('flows.editor.delete')}>
              <IconButton
                size="small"
                className="nodrag"
                aria-label={t('flows.editor.delete')}
                data-testid="flow-node-delete"
                onClick={() => remove(props.id)}
              >
                <DeleteOutline sx={{ fontSize: 16 }} />
              </IconButton>
            </Tooltip>
          </>
        )}
      </Stack>
      <Box sx={{ px: 1.25, py: 1, fontSize: 13, wordBreak: 'break-word' }}>
        <spec.Body data={data} />
      </Box>
      {handles.length === 1 && !handles[0].label && !handles[0].labelKey ? (
        <Handle type="source" id={handles[0].id} position={Position.Right} style={handleStyle(spec.color)} />
      ) : (
        <Stack spacing={0.5} sx={{ pb: 1 }}>
          {handles.map((h) => (
            <Box key={h.id} sx={{ position: 'relative', pr: 2.5, textAlign: 'right' }}>
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {h.labelKey ? t(h.labelKey) : (h.label ?? h.id)}
              </Typography>
              <Handle
                type="source"
                id={h.id}
                position={Position.Right}
                data-testid={`flow-handle-${h.id}`}
                style={{ ...handleStyle(spec.color), top: '50%' }}
              />
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
};

/** A node's text, clipped to a few lines. */
export const NodeText = ({ children, lines = 4 }: { children: string; lines?: number }) => (
  <Typography
    variant="body2"
    sx={{
      display: '-webkit-box',
      WebkitLineClamp: lines,
      WebkitBoxOrient: 'vertical',
      overflow: 'hidden',
      whiteSpace: 'pre-wrap',
    }}
  >
    {children}
  </Typography>
);
