import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DynamicFeed from '@mui/icons-material/DynamicFeed';
import { Button, FormHelperText, IconButton, Stack, Tooltip } from '@mui/material';
import type { TFunction } from '../../../i18n/translator';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { fieldErrorText } from '../../../components/form';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { menuData, menuHandle, text, type TMenuForm, ZMenuForm } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';
import { insertVariable, VariableChips } from './VariableChips';

type TMenuOption = { number: number | string; value: string };
const optionsOf = (data: TNodeData): TMenuOption[] =>
  Array.isArray(data.arrayOption) ? (data.arrayOption as TMenuOption[]) : [];

const MenuBody = ({ data }: { data: TNodeData }) => <NodeText lines={3}>{text(data.message)}</NodeText>;

/** Menu dialog: the message and the options, numbered 1, 2, 3… in order. */
const MenuDialog = ({ data, variables, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const options = data ? optionsOf(data).map((o) => ({ value: text(o.value) })) : [{ value: '' }];

  return (
    <NodeFormDialog<TMenuForm, TMenuForm>
      type="menu"
      isEdit={data !== null}
      schema={ZMenuForm}
      defaultValues={{ message: text(data?.message), options }}
      toData={menuData}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => <MenuFields form={form} variables={variables} t={t} />}
    </NodeFormDialog>
  );
};

const MenuFields = ({
  form,
  variables,
  t,
}: {
  form: UseFormReturn<TMenuForm, unknown, TMenuForm>;
  variables: string[];
  t: TFunction;
}) => {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'options' });
  const listError = form.formState.errors.options?.root ?? form.formState.errors.options;

  return (
    <>
      <FormTextField
        form={form}
        name="message"
        label={t('flows.dialogs.menuMessage')}
        multiline
        minRows={3}
        required
        autoFocus
        testId="flow-menu-message"
      />
      <VariableChips
        variables={variables}
        onPick={(name) => form.setValue('message', insertVariable(form.getValues('message'), name))}
      />
      {fields.map((field, index) => (
        <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
          <FormTextField
            form={form}
            name={`options.${index}.value`}
            label={t('flows.dialogs.option', { number: index + 1 })}
            required
            size="small"
            testId={`flow-menu-option-${index + 1}`}
          />
          <Tooltip title={t('flows.dialogs.removeOption')}>
            <IconButton aria-label={t('flows.dialogs.removeOption')} onClick={() => remove(index)}>
              <DeleteOutline />
            </IconButton>
          </Tooltip>
        </Stack>
      ))}
      {listError && 'message' in listError && (
        <FormHelperText error>{fieldErrorText(t, listError as { message?: string })}</FormHelperText>
      )}
      <Button
        startIcon={<Add />}
        onClick={() => append({ value: '' })}
        sx={{ alignSelf: 'flex-start' }}
        data-testid="flow-menu-add-option"
      >
        {t('flows.dialogs.addOption')}
      </Button>
    </>
  );
};

export const menuSpec: TNodeSpec = {
  type: 'menu',
  Icon: DynamicFeed,
  color: '#683ac8',
  Body: MenuBody,
  handles: (data) =>
    optionsOf(data).map((o) => ({ id: menuHandle(o.number), label: `[${o.number}] ${text(o.value)}` })),
  Dialog: MenuDialog,
  inPalette: true,
};
