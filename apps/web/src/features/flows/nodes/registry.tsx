import type { NodeProps, NodeTypes } from '@xyflow/react';
import { NODE_TYPES, type TNodeType } from '../flowDocument';
import { audioSpec } from './AudioNode';
import { conditionSpec } from './ConditionNode';
import { singleBlockSpec } from './ContentNode';
import { imgSpec } from './ImageNode';
import { intervalSpec } from './IntervalNode';
import { menuSpec } from './MenuNode';
import { messageSpec } from './MessageNode';
import { NodeShell } from './NodeShell';
import type { TNodeSpec } from './nodeSpec';
import { openAiSpec } from './OpenAiNode';
import { questionSpec } from './QuestionNode';
import { randomizerSpec } from './RandomizerNode';
import { startSpec } from './StartNode';
import { ticketSpec } from './TicketNode';
import { typebotSpec } from './TypebotNode';
import { videoSpec } from './VideoNode';

/** Every node type of spec 3 §2.8, in the palette's order. */
export const NODE_SPECS: Record<TNodeType, TNodeSpec> = {
  start: startSpec,
  singleBlock: singleBlockSpec,
  message: messageSpec,
  menu: menuSpec,
  question: questionSpec,
  randomizer: randomizerSpec,
  interval: intervalSpec,
  img: imgSpec,
  audio: audioSpec,
  video: videoSpec,
  ticket: ticketSpec,
  typebot: typebotSpec,
  openai: openAiSpec,
  condition: conditionSpec,
};

export const specOf = (type: string | undefined): TNodeSpec | undefined =>
  (NODE_TYPES as readonly string[]).includes(type ?? '') ? NODE_SPECS[type as TNodeType] : undefined;

/** The canvas's node renderers: one per type, each drawing its spec in the shared frame. */
export const CANVAS_NODE_TYPES: NodeTypes = Object.fromEntries(
  NODE_TYPES.map((type) => [type, (props: NodeProps) => <NodeShell spec={NODE_SPECS[type]} props={props} />]),
);

export const PALETTE = Object.values(NODE_SPECS).filter((s) => s.inPalette);
