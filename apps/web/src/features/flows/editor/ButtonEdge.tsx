import Close from '@mui/icons-material/Close';
import { IconButton, Tooltip } from '@mui/material';
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath, useReactFlow } from '@xyflow/react';
import { useTranslation } from '../../../i18n/useTranslation';

/** An edge with a remove button at its midpoint (spec 3 §2.8). */
export const ButtonEdge = ({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  style,
  markerEnd,
}: EdgeProps) => {
  const { t } = useTranslation();
  const { setEdges } = useReactFlow();
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });

  return (
    <>
      <BaseEdge path={path} markerEnd={markerEnd} style={{ strokeWidth: 2, ...style }} />
      <EdgeLabelRenderer>
        <div
          className="nodrag nopan"
          style={{
            position: 'absolute',
            transform: `translate(-50%, -50%) translate(${labelX}px,${labelY}px)`,
            pointerEvents: 'all',
          }}
        >
          <Tooltip title={t('flows.editor.removeEdge')}>
            <IconButton
              size="small"
              aria-label={t('flows.editor.removeEdge')}
              onClick={() => setEdges((edges) => edges.filter((e) => e.id !== id))}
              sx={{
                width: 20,
                height: 20,
                bgcolor: 'background.paper',
                border: 1,
                borderColor: 'divider',
                '&:hover': { bgcolor: 'error.main', color: '#fff' },
              }}
            >
              <Close sx={{ fontSize: 12 }} />
            </IconButton>
          </Tooltip>
        </div>
      </EdgeLabelRenderer>
    </>
  );
};
