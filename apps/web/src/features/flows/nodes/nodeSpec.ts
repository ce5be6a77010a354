import type { SvgIconComponent } from '@mui/icons-material';
import type { ComponentType } from 'react';
import type { TNodeType } from '../flowDocument';

export type TNodeData = Record<string, unknown>;

/** A node dialog: `data` null adds a node, else edits that node's data. */
export type TNodeDialogProps = {
  data: TNodeData | null;
  /** the flow's `{{variable}}` names, offered where texts are typed */
  variables: string[];
  onSubmit: (data: TNodeData) => void;
  onClose: () => void;
};

/** A source handle of a node: its id (`a`, `b`, `a<number>`) and an optional label (or i18n key) beside it. */
export type TSourceHandle = { id: string; label?: string; labelKey?: string };

/** Everything the editor knows about one node type: its look, its handles and its dialog. */
export type TNodeSpec = {
  type: TNodeType;
  Icon: SvgIconComponent;
  /** the icon's and the header's colour */
  color: string;
  /** what the node shows under its header */
  Body: ComponentType<{ data: TNodeData }>;
  /** its source handles; one `a` when absent */
  handles?: (data: TNodeData) => TSourceHandle[];
  /** no dialog: the node is added as it is (start) or only made by a program (condition) */
  Dialog?: ComponentType<TNodeDialogProps>;
  /** offered in the add-node palette */
  inPalette: boolean;
};

export const DEFAULT_HANDLES: TSourceHandle[] = [{ id: 'a' }];
