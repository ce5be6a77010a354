import { FULL_HEIGHT } from '../../../app/layout/AppLayout';
import '@xyflow/react/dist/style.css';
import ArrowBack from '@mui/icons-material/ArrowBack';
import FileDownload from '@mui/icons-material/FileDownload';
import FileUpload from '@mui/icons-material/FileUpload';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Save from '@mui/icons-material/Save';
import { Box, Button, Chip, IconButton, Paper, Stack, Tooltip, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { TFlowWithDocument } from '@zelo/shared';
import {
  addEdge,
  Background,
  BackgroundVariant,
  type Connection,
  Controls,
  MiniMap,
  type OnBeforeDelete,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useEdgesState,
  useNodesState,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { toast, toastError } from '../../../components/toast';
import '../i18n';
import {
  addNode,
  collectVariables,
  documentFingerprint,
  duplicateNode,
  EDGE_TYPE,
  fromDocument,
  type TFlowDocument,
  removeNode,
  type TFlowEdge,
  type TFlowNode,
  type TNodeType,
  toDocument,
  updateNodeData,
} from '../flowDocument';
import { exportFileName, parseFlowFile } from '../flowFile';
import { saveFlow } from '../flowsApi';
import type { TNodeData } from '../nodes/nodeSpec';
import { CANVAS_NODE_TYPES, specOf } from '../nodes/registry';
import { TestRunPanel } from '../test-run/TestRunPanel';
import { ButtonEdge } from './ButtonEdge';
import { EditorContext, type TNodeRunState } from './editorContext';
import { NodePalette } from './NodePalette';
import { useUnsavedGuard } from './unsavedGuard';

const EDGE_TYPES = { [EDGE_TYPE]: ButtonEdge };
const DELETE_KEYS = ['Backspace', 'Delete'];
/** the spec's browser-storage key of the flow's variable names */
const VARIABLES_STORAGE_KEY = 'variables';

type TDialogState = { type: TNodeType; nodeId: string | null } | null;

/**
 * The flow editor (spec 3 §2.8, §4): the canvas with controls, minimap and dotted background, the palette that adds
 * nodes (each through its dialog), a node's dialog on double click, duplicate and delete on the node, Backspace or
 * Delete for the selection (never the start node), save in the ancestor's `{nodes, connections}` JSON, a guard
 * against leaving with unsaved changes, and the test run beside the canvas.
 */
/** how long after the test panel toggles the canvas is fitted again (a frame and its resize observations) */
const REFIT_DELAY_MS = 80;

export const FlowEditor = ({ flow }: { flow: TFlowWithDocument }) => (
  <ReactFlowProvider>
    <FlowEditorCanvas flow={flow} />
  </ReactFlowProvider>
);

const FlowEditorCanvas = ({ flow }: { flow: TFlowWithDocument }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  // a phone's canvas is too small for the minimap beside the nodes
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const navigate = useNavigate();
  const initial = useMemo(() => fromDocument(flow.flow as never), [flow]);
  const [nodes, setNodes, onNodesChange] = useNodesState<TFlowNode>(initial.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState<TFlowEdge>(initial.connections);
  const [saved, setSaved] = useState(() => documentFingerprint(initial.nodes, initial.connections));
  const [saving, setSaving] = useState(false);
  const [dialog, setDialog] = useState<TDialogState>(null);
  const [testing, setTesting] = useState(false);
  const { fitView } = useReactFlow();
  // the test panel opening or closing changes the canvas's width: the flow is fitted to it again once the canvas
  // has been laid out and measured (after the next frame's resize observations)
  const refitSoon = () => window.setTimeout(() => void fitView({ maxZoom: 1, duration: 200 }), REFIT_DELAY_MS);
  /** a parsed file waiting for the user to say it may replace the canvas */
  const [pendingImport, setPendingImport] = useState<TFlowDocument | null>(null);
  const [runStates, setRunStates] = useState<Record<string, TNodeRunState>>({});
  const dirty = documentFingerprint(nodes, edges) !== saved;
  const guard = useUnsavedGuard(dirty);
  const variables = useMemo(() => collectVariables(nodes), [nodes]);

  useEffect(() => {
    try {
      localStorage.setItem(VARIABLES_STORAGE_KEY, JSON.stringify(variables));
    } catch {
      // storage full: the list is still shown from the canvas
    }
  }, [variables]);

  const actions = useMemo(
    () => ({
      duplicate: (id: string) => setNodes((old) => duplicateNode(old, id)),
      remove: (id: string) => {
        setNodes((old) => old.filter((n) => n.id !== id || n.type === 'start'));
        setEdges((old) => removeNode({ nodes, connections: old }, id).connections);
      },
      runStates,
    }),
    [setNodes, setEdges, nodes, runStates],
  );

  const onConnect = useCallback(
    (connection: Connection) => setEdges((old) => addEdge({ ...connection, type: EDGE_TYPE }, old)),
    [setEdges],
  );
  /** the start node is never deleted by the keyboard */
  const onBeforeDelete: OnBeforeDelete<TFlowNode, TFlowEdge> = useCallback(
    async ({ nodes: gone, edges: goneEdges }) => ({ nodes: gone.filter((n) => n.type !== 'start'), edges: goneEdges }),
    [],
  );

  const pick = (type: TNodeType) => {
    if (type === 'start' || !specOf(type)?.Dialog) {
      setNodes((old) => addNode(old, type, {}));
    } else {
      setDialog({ type, nodeId: null });
    }
  };
  const submitNode = (data: TNodeData) => {
    if (!dialog) {
      return;
    }
    const { type, nodeId } = dialog;
    setNodes((old) => (nodeId ? updateNodeData(old, nodeId, data) : addNode(old, type, data)));
  };

  const save = async () => {
    setSaving(true);
    try {
      await saveFlow(flow.id, toDocument(nodes, edges));
      setSaved(documentFingerprint(nodes, edges));
      toast.success(t('flows.editor.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  const $importInput = useRef<HTMLInputElement>(null);
  const importFile = async (file: File) => {
    const result = parseFlowFile(await file.text());
    if ('error' in result) {
      toast.error(t(result.error === 'json' ? 'flows.editor.importJson' : 'flows.editor.importShape'));

      return;
    }
    // a canvas holding more than its start node is replaced only when the user says so
    if (nodes.length > 1) {
      setPendingImport(result.doc);
    } else {
      applyImport(result.doc);
    }
  };
  const applyImport = (doc: TFlowDocument) => {
    setNodes(doc.nodes);
    setEdges(doc.connections);
    toast.success(t('flows.editor.imported'));
  };
  const exportFile = () => {
    const blob = new Blob([JSON.stringify(toDocument(nodes, edges), null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = exportFileName(flow.name);
    link.click();
    URL.revokeObjectURL(link.href);
  };

  const editing = dialog?.nodeId ? nodes.find((n) => n.id === dialog.nodeId) : undefined;
  const DialogOf = dialog ? specOf(dialog.type)?.Dialog : undefined;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: FULL_HEIGHT, minHeight: 480, p: 2, gap: 1.5 }}>
      <Stack direction="row" alignItems="center" spacing={1.5} useFlexGap flexWrap="wrap" sx={{ minWidth: 0 }}>
        <Tooltip title={t('flows.editor.back')}>
          <IconButton
            aria-label={t('flows.editor.back')}
            onClick={() => navigate('/flowbuilders')}
            data-testid="flow-back"
          >
            <ArrowBack />
          </IconButton>
        </Tooltip>
        {/* on a phone the title takes its own row and the buttons wrap below it */}
        <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
          <Typography variant="h6" noWrap>
            {t('flows.editor.title')} · {flow.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('flows.editor.reminder')}
          </Typography>
        </Box>
        <input
          ref={$importInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="flow-import-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) {
              void importFile(file);
            }
          }}
        />
        <Tooltip title={t('flows.editor.import')}>
          <IconButton
            aria-label={t('flows.editor.import')}
            onClick={() => $importInput.current?.click()}
            data-testid="flow-import"
          >
            <FileUpload />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('flows.editor.export')}>
          <IconButton aria-label={t('flows.editor.export')} onClick={exportFile} data-testid="flow-export">
            <FileDownload />
          </IconButton>
        </Tooltip>
        {dirty && <Chip size="small" color="warning" label={t('flows.editor.unsavedBadge')} data-testid="flow-dirty" />}
        <Button
          variant={testing ? 'contained' : 'outlined'}
          startIcon={<PlayArrow />}
          onClick={() => {
            setTesting((v) => !v);
            setRunStates({});
            refitSoon();
          }}
          data-testid="flow-test"
        >
          {t('flows.editor.test')}
        </Button>
        <Button
          variant="contained"
          startIcon={<Save />}
          onClick={() => void save()}
          disabled={saving}
          data-testid="flow-save"
        >
          {t('flows.editor.save')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ flex: 1, minHeight: 0 }}>
        <Paper
          variant="outlined"
          sx={{ flex: 1, minWidth: 0, position: 'relative', overflow: 'hidden' }}
          data-testid="flow-canvas"
        >
          <EditorContext.Provider value={actions}>
            <ReactFlow<TFlowNode, TFlowEdge>
              style={{ position: 'absolute', inset: 0 }}
              nodes={nodes}
              edges={edges}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onBeforeDelete={onBeforeDelete}
              onNodeDoubleClick={(_, node) => {
                if (specOf(node.type)?.Dialog) {
                  setDialog({ type: node.type as TNodeType, nodeId: node.id });
                }
              }}
              nodeTypes={CANVAS_NODE_TYPES}
              edgeTypes={EDGE_TYPES}
              defaultEdgeOptions={{ type: EDGE_TYPE }}
              deleteKeyCode={DELETE_KEYS}
              colorMode={theme.palette.mode}
              fitView
              fitViewOptions={{ maxZoom: 1 }}
              minZoom={0.1}
              proOptions={{ hideAttribution: true }}
            >
              <Controls />
              {!isPhone && <MiniMap pannable zoomable />}
              <Background variant={BackgroundVariant.Dots} gap={16} size={1.5} />
            </ReactFlow>
            <NodePalette onPick={pick} />
          </EditorContext.Provider>
        </Paper>
        {testing && (
          <TestRunPanel
            flowId={flow.id}
            dirty={dirty}
            variables={variables}
            onRunStates={setRunStates}
            onClose={() => {
              setTesting(false);
              setRunStates({});
            }}
          />
        )}
      </Stack>
      {dialog && DialogOf && (
        <DialogOf
          data={editing ? (editing.data as TNodeData) : null}
          variables={variables}
          onSubmit={submitNode}
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        open={pendingImport !== null}
        title={t('flows.editor.replaceTitle')}
        onConfirm={() => pendingImport && applyImport(pendingImport)}
        onClose={() => setPendingImport(null)}
        confirmLabel={t('flows.editor.replace')}
      >
        {t('flows.editor.replaceMessage')}
      </ConfirmDialog>
      <ConfirmDialog
        open={guard.open}
        title={t('flows.editor.unsavedTitle')}
        onConfirm={guard.leave}
        onClose={guard.stay}
        confirmLabel={t('flows.editor.leave')}
      >
        {t('flows.editor.unsavedMessage')}
      </ConfirmDialog>
    </Box>
  );
};
