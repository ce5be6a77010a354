import Close from '@mui/icons-material/Close';
import Replay from '@mui/icons-material/Replay';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Divider,
  IconButton,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { events, type TFlowRunAnswer, type TFlowRunStepEvent, type TFlowTestRunAnswer } from '@zelo/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { api } from '../../../api/http';
import { useSocketEvent } from '../../../api/socket';
import { useAuth } from '../../../app/auth/AuthContext';
import { errorText } from '../../../components/toast';
import '../i18n';
import type { TNodeRunState } from '../editor/editorContext';
import { endTestRun, startTestRun } from '../flowsApi';
import { variableToken } from '../nodes/VariableChips';
import { applyRunStep, emptyRunView, lastFailure, type TRunView } from './runView';
import { TestRunChat } from './TestRunChat';

type TTestRunPanelProps = {
  flowId: number;
  /** the canvas has changes the saved flow (which the test runs) does not */
  dirty: boolean;
  variables: string[];
  onRunStates: (states: Record<string, TNodeRunState>) => void;
  onClose: () => void;
};

const STATUS_COLOR = { running: 'warning', waiting: 'info', done: 'success', failed: 'error' } as const;

/**
 * The test run beside the canvas (issue 14 item 6): a fresh simulated customer on the company's sandbox connection
 * runs the saved flow; the customer can answer; each node lights up as it runs, with the variables so far.
 */
export const TestRunPanel = ({ flowId, dirty, onRunStates, onClose }: TTestRunPanelProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [attempt, setAttempt] = useState(0);
  const [run, setRun] = useState<TFlowTestRunAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<TRunView>(emptyRunView);
  // steps of this flow that arrive before the test-run answer names its run
  const early = useRef<TFlowRunStepEvent[]>([]);
  const onRunStatesRef = useRef(onRunStates);
  onRunStatesRef.current = onRunStates;

  useSocketEvent(user ? events.flowRun(user.companyId) : '', (step: TFlowRunStepEvent) => {
    if (!step || step.flowId !== flowId) {
      return;
    }
    if (!run) {
      early.current.push(step);
    } else if (step.runId === run.runId) {
      setView((v) => applyRunStep(v, step));
    }
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt starts a new run
  useEffect(() => {
    let live = true;
    // the run this attempt started, ended when the panel closes or starts over (its test customer is deleted)
    let started: number | null = null;
    const end = (runId: number) => void endTestRun(runId).catch(() => undefined);
    setRun(null);
    setError(null);
    setView(emptyRunView());
    early.current = [];
    startTestRun(flowId)
      .then(async (answer) => {
        if (!live) {
          end(answer.runId);
          return;
        }
        started = answer.runId;
        setRun(answer);
        const stored = await api.get<TFlowRunAnswer>(`/flowbuilder/run/${answer.runId}`).catch(() => null);
        if (!live) {
          return;
        }
        setView((v) => {
          let next = v;
          for (const s of stored?.steps ?? []) {
            next = applyRunStep(next, { ...s, variables: undefined });
          }
          for (const s of early.current.filter((e) => e.runId === answer.runId)) {
            next = applyRunStep(next, s);
          }
          const variables = stored?.run.variables;

          return variables ? { ...next, variables: { ...variables, ...next.variables } } : next;
        });
      })
      .catch((err) => live && setError(errorText(err)));

    return () => {
      live = false;
      if (started !== null) end(started);
    };
  }, [flowId, attempt]);

  useEffect(() => onRunStatesRef.current(view.states), [view.states]);

  const variableEntries = Object.entries(view.variables);
  // why the last failed node failed (an OpenAI node's provider error, a dangling edge…), shown as it came
  const failure = lastFailure(view);

  return (
    <Paper
      variant="outlined"
      sx={{ width: { xs: 320, lg: 400 }, flexShrink: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="flow-test-panel"
    >
      <Stack
        direction="row"
        alignItems="center"
        spacing={1}
        sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {t('flows.testRun.title')}
        </Typography>
        {view.status && (
          <Chip
            size="small"
            color={STATUS_COLOR[view.status]}
            label={t(`flows.testRun.status.${view.status}`)}
            data-testid="flow-test-status"
          />
        )}
        <Tooltip title={t('flows.testRun.start')}>
          <IconButton
            size="small"
            aria-label={t('flows.testRun.start')}
            onClick={() => setAttempt((n) => n + 1)}
            data-testid="flow-test-restart"
          >
            <Replay fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('flows.testRun.close')}>
          <IconButton size="small" aria-label={t('flows.testRun.close')} onClick={onClose}>
            <Close fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      {dirty && (
        <Alert severity="warning" sx={{ borderRadius: 0 }}>
          {t('flows.testRun.unsaved')}
        </Alert>
      )}
      <Box sx={{ px: 1.5, py: 1 }} data-testid="flow-test-variables">
        <Typography variant="caption" color="text.secondary">
          {t('flows.testRun.variables')}
        </Typography>
        {variableEntries.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('flows.testRun.noVariables')}
          </Typography>
        ) : (
          variableEntries.map(([name, value]) => (
            <Typography
              key={name}
              variant="body2"
              sx={{ wordBreak: 'break-word' }}
              data-testid={`flow-test-variable-${name}`}
            >
              <b>{variableToken(name)}</b> = {value}
            </Typography>
          ))
        )}
      </Box>
      {failure && (
        <Alert severity="error" sx={{ borderRadius: 0, wordBreak: 'break-word' }} data-testid="flow-test-failure">
          <b>{t('flows.testRun.failedAt', { type: failure.nodeType ? t(`flows.types.${failure.nodeType}`) : '' })}</b>
          {failure.reason ? `: ${failure.reason}` : ''}
        </Alert>
      )}
      <Divider />
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {error ? (
          <Stack spacing={1} sx={{ p: 2 }}>
            <Alert severity="error" data-testid="flow-test-error">
              {error}
            </Alert>
            <Button startIcon={<Replay />} onClick={() => setAttempt((n) => n + 1)}>
              {t('flows.testRun.start')}
            </Button>
          </Stack>
        ) : run ? (
          <TestRunChat key={run.runId} run={run} />
        ) : (
          <Stack alignItems="center" spacing={1} sx={{ p: 3 }}>
            <CircularProgress size={28} />
            <Typography variant="body2" color="text.secondary">
              {t('flows.testRun.starting')}
            </Typography>
          </Stack>
        )}
      </Box>
    </Paper>
  );
};
