import React, { useEffect, useMemo, useReducer, useRef } from 'react';
import { Box, Text } from 'ink';
import { cutToWidth, textWidth } from './cut.js';
import { ModeMenu } from './ModeMenu.js';
import { modeOptions } from './modeOptions.js';
import { PickerList } from './PickerList.js';
import { pickerLayout } from './pickerLayout.js';
import { PickerDiffPane } from './PickerDiffPane.js';
import { wrapHanging } from '../wrap.js';
import { fileTextIndent } from '../../shared/messages.js';
import { PickerFilesPane } from './PickerFilesPane.js';
import { tickedOf } from './pickFiles.js';
import { PickerPreviewPane, UNDO_LINE } from './PickerPreviewPane.js';
import { initialPickerState, normalize, pickerReducer, visibleRows, type PickerEnv } from './pickerReducer.js';
import { menuTitle, rowName } from './pickerRows.js';
import { conversationCut } from './conversationCut.js';
import type { PickerCheckpoint, PickerProps, PickerRevertPlan } from './types.js';
import { useLoaded, usePreview } from './usePreview.js';

import { noCheckpointsYet } from '../../shared/messages.js';
import { messageOf } from '../../shared/errors.js';
export const BUSY_NOTE = 'the agent is busy: restoring stops it first';

const undoFailed = (error: unknown): readonly string[] => [UNDO_LINE, `(what it changes could not be read: ${messageOf(error)})`];

/** Rows the mode menu wants: a title, three modes, their reasons and a notice on narrow boxes. */
const MENU_ROOM = 8;

const diffFailed = (error: unknown): string[] => [`the diff could not be read: ${error instanceof Error ? error.message : String(error)}`];
const noDiff = (): Promise<string[]> => Promise.resolve([]);
const revertFailed = (error: unknown): PickerRevertPlan => ({ lines: [], conflicts: 0, error: error instanceof Error ? error.message : String(error) });
const noSessionFiles = (): Promise<readonly string[]> => Promise.resolve([]);
const noSessionFilesKnown = (): readonly string[] | undefined => undefined;
const noRevert = (): Promise<PickerRevertPlan> => Promise.resolve({ lines: [], conflicts: 0, error: 'not offered here' });

/**
 * The rewind picker: every checkpoint, oldest first and the newest selected, a preview of
 * the selected one under the list, then the restore modes. Keys come from `keys` into a pure
 * reducer; it ends by calling `onChoose` or `onClose` once.
 */
export function Picker(props: PickerProps) {
  const { checkpoints, width, height, keys, canUndo, agentBusy, banner } = props;
  const base = { checkpoints, canUndo, undoPoint: props.undoPoint, modes: props.modes, canDiff: props.loadStepDiff !== undefined, canRevert: props.loadRevertPlan !== undefined };
  const layoutFor = (listRows: number) => pickerLayout(width, height, { banner: banner !== undefined, busy: agentBusy, listRows });
  const [raw, dispatch] = useReducer(pickerReducer, { ...base, listHeight: layoutFor(visibleRows({ filter: '' }, base).length).listHeight, selectId: props.selectId }, initialPickerState);
  const rows = visibleRows(raw, base);
  // The list takes the rows it has (the mode menu what it needs), the preview the rest.
  const layout = layoutFor(raw.stage === 'modes' ? MENU_ROOM : rows.length);
  const w = layout.innerWidth;
  const previewArea = layout.previewHeight > 0 ? layout.previewHeight + 1 : 0;
  const diffHeight = layout.listHeight + previewArea;
  const diffRow = raw.stage === 'diff' ? rows[raw.selected] : undefined;
  const diff = useLoaded(diffRow?.kind === 'checkpoint' ? diffRow.checkpoint.id : undefined, props.loadStepDiff ?? noDiff, diffFailed);
  const filesRow = raw.stage === 'files' ? rows[raw.selected] : undefined;
  const sessionFiles = useLoaded(filesRow?.kind === 'checkpoint' && props.loadSessionFiles ? filesRow.checkpoint.id : undefined, props.loadSessionFiles ?? noSessionFiles, noSessionFilesKnown);
  const revertRow = raw.stage === 'revert' ? rows[raw.selected] : undefined;
  // Worked out afresh at each `u` (keyed by it): the files may have changed since the last one.
  const revertOf = useRef(0);
  if (revertRow?.kind === 'checkpoint') revertOf.current = revertRow.checkpoint.id;
  const loadRevert = props.loadRevertPlan;
  const revert = useLoaded(revertRow?.kind === 'checkpoint' ? raw.revertRequest : undefined, () => (loadRevert ?? noRevert)(revertOf.current), revertFailed);
  const revertPlan = revert?.state === 'ready' ? revert.value : undefined;
  // Its sentences wrap, so none is cut; a conflict's lines are the file's, cut as a diff's are.
  const revertLines = revertPlan ? (revertPlan.error !== undefined ? [`this step cannot be reverted: ${revertPlan.error}`] : revertPlan.lines).flatMap((text) => (text.startsWith(fileTextIndent) ? [text] : wrapHanging(text, w))) : undefined;
  const diffLines = raw.stage === 'revert' ? revertLines : diff?.state === 'ready' ? diff.value : undefined;
  const revertConflicts = revertPlan && revertPlan.error === undefined ? revertPlan.conflicts : undefined;
  const mine = sessionFiles?.state === 'ready' ? sessionFiles.value : undefined;
  const env: PickerEnv = {
    ...base,
    listHeight: layout.listHeight,
    diffLength: diffLines?.length ?? 0,
    diffHeight,
    ...(revertConflicts !== undefined ? { revertConflicts } : {}),
    ...(mine !== undefined ? { sessionFiles: mine } : {}),
  };
  // Keys are read against the latest props, not those of the render that subscribed.
  const envRef = useRef(env);
  envRef.current = env;

  useEffect(() => keys.subscribe((event) => dispatch({ type: 'key', event, env: envRef.current })), [keys]);
  // New rows (the newest step's count once the files now are read): the opening selection follows them until a key moved it.
  const firstRows = useRef(checkpoints);
  useEffect(() => {
    if (firstRows.current === checkpoints) return;
    firstRows.current = checkpoints;
    dispatch({ type: 'rows', env: { ...envRef.current, selectId: props.selectId } });
  }, [checkpoints, props.selectId]);

  const done = useRef(false);
  const callbacks = useRef(props);
  callbacks.current = props;
  useEffect(() => {
    if (raw.outcome === undefined || done.current) return;
    done.current = true;
    if (raw.outcome.type === 'close') callbacks.current.onClose();
    else callbacks.current.onChoose(raw.outcome.choice);
  }, [raw.outcome]);

  const state = normalize(raw, rows, layout.listHeight, diffLines ? { length: diffLines.length, height: diffHeight } : undefined);
  const row = rows[state.selected];
  const preview = usePreview(row?.kind === 'checkpoint' ? row.checkpoint.id : undefined, props.loadPreview);
  // The undo row's plan, keyed 0 (no checkpoint has that id), read once it is selected.
  const undo = useLoaded(row?.kind === 'undo' && props.loadUndo ? 0 : undefined, () => props.loadUndo?.() ?? Promise.resolve([]), undoFailed);
  const previewed = preview?.state === 'ready' && preview.preview.error === undefined ? preview.preview : undefined;
  if (previewed) env.previewFiles = previewed.files.map((file) => file.path);
  // A restore that would change no file is not offered (the modes read this through env).
  const nothing = preview?.state === 'ready' && preview.preview.error === undefined && preview.preview.files.length === 0 && preview.preview.unsaved.length === 0;
  const unchangedId = nothing && row?.kind === 'checkpoint' ? row.checkpoint.id : undefined;
  env.unchanged = (id) => id === unchangedId;
  const matches = useMemo(() => rows.reduce((n, r) => (r.kind === 'checkpoint' ? n + 1 : n), 0), [rows]);

  // The mode menu takes the list's place; the preview stays under it when the menu fits.
  const previewBelow = layout.listHeight >= MENU_ROOM;
  const line = (text: string) => cutToWidth(text, w);
  const empty = checkpoints.length === 0 ? noCheckpointsYet : `no checkpoint matches "${state.filter}"`;
  // Rows, not steps: the title counts turns and steps, and a session's start is a row too.
  const filtering = state.filter !== '' ? `filter: ${state.filter}▏  ${matches} of ${checkpoints.length} rows` : 'type to filter by label or file name';
  // Named as its row reads (rows show no ids).
  const diffOf = row?.kind === 'checkpoint' ? `${rowName(row.checkpoint)}: what ${row.checkpoint.kind === 'turn' ? 'its turn' : 'it'} changed` : 'what it changed';
  const diffStatus = `${diffOf}${diffLines ? ` (${diffLines.length} lines)` : ''}`;
  const options = row?.kind === 'checkpoint' ? modeOptions(row.checkpoint, props.modes(row.checkpoint.id), unchangedId === row.checkpoint.id) : [];
  const folds = rows.some((r) => r.kind === 'checkpoint' && r.open !== undefined) && state.filter === '' ? ' · ←→ fold' : '';
  const ticked = previewed ? tickedOf(state, previewed.files.map((file) => file.path)).length : 0;
  // The count first: a narrow row cuts the step's name, never how many are ticked.
  const filesStatus = state.notice ?? `${ticked} of ${previewed?.files.length ?? 0} ticked: restore only those${row?.kind === 'checkpoint' ? ` to just before ${rowName(row.checkpoint)}` : ''} (files only)`;
  const reverted = row?.kind === 'checkpoint' ? `${row.checkpoint.kind === 'turn' ? 'the turn of ' : ''}${rowName(row.checkpoint)}` : 'the step';
  const revertStatus = `revert ${reverted} alone: keep what came after${revertPlan ? '' : ' (working it out…)'}`;
  const status =
    state.stage === 'modes' ? 'choose what to restore' : state.stage === 'diff' ? diffStatus : state.stage === 'revert' ? (state.notice ?? revertStatus) : state.stage === 'files' ? filesStatus : filtering;
  const pickKey = state.filter === '' && (previewed?.files.length ?? 0) > 0 ? ' · Tab files' : '';
  // As the reducer reads them: on a step's row only (on the undo row they type a filter).
  const onStep = state.filter === '' && row?.kind === 'checkpoint';
  const diffKey = props.loadStepDiff && onStep ? ' · d diff' : '';
  const revertKey = props.loadRevertPlan && onStep ? ' · u revert' : '';
  const hints =
    state.stage === 'modes'
      ? 'b/f/c or ↑↓ Enter choose · Esc back · Ctrl+C close'
      : state.stage === 'diff'
        ? '↑↓ PgUp/PgDn Space Home/End scroll · Esc or d back · Ctrl+C close'
        : state.stage === 'revert'
          ? revertHints(revertConflicts)
          : state.stage === 'files'
            ? `↑↓ move · Space tick · a all/none${mine !== undefined ? ` · s this session's (${previewed?.files.filter((file) => mine.includes(file.path)).length ?? 0})` : ''} · Enter restore · Esc back`
            : rows.length === 0 && state.filter !== ''
              ? 'Backspace edit the filter · Esc clear it'
              : `↑↓ move${folds} · Enter choose${diffKey}${revertKey}${pickKey} · ${state.filter !== '' ? 'Esc clear filter' : 'Esc close'}`;

  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" width={width} height={height} paddingX={1} flexShrink={0}>
      <Text bold color="magenta" wrap="truncate-end">
        {line(`rewind to a checkpoint (${stepCount(checkpoints)})`)}
      </Text>
      {banner !== undefined ? (
        <Text color="yellow" wrap="truncate-end">
          {line(`⚠ ${banner}`)}
        </Text>
      ) : null}
      {agentBusy ? (
        <Text color="yellow" wrap="truncate-end">
          {line(BUSY_NOTE)}
        </Text>
      ) : null}
      {state.stage === 'files' && previewed ? (
        <PickerFilesPane files={previewed.files} unsaved={previewed.unsaved} unticked={state.unticked ?? new Set()} cursor={state.fileCursor ?? 0} width={w} height={diffHeight} />
      ) : state.stage === 'diff' || state.stage === 'revert' ? (
        <PickerDiffPane lines={diffLines} top={state.diffTop ?? 0} width={w} height={diffHeight} />
      ) : state.stage === 'modes' && row?.kind === 'checkpoint' ? (
        <ModeMenu
          title={menuTitle(row.checkpoint)}
          options={options}
          cursor={state.mode}
          notice={state.notice}
          width={w}
          height={previewBelow ? layout.listHeight : layout.listHeight + previewArea}
        />
      ) : (
        <PickerList rows={rows} selected={state.selected} top={state.top} height={layout.listHeight} width={w} empty={empty} />
      )}
      {previewArea > 0 && (state.stage === 'list' || (state.stage === 'modes' && previewBelow)) ? (
        <>
          <Text dimColor>{'─'.repeat(w)}</Text>
          <PickerPreviewPane
            row={row}
            status={preview}
            width={w}
            height={layout.previewHeight}
            newestId={checkpoints.at(-1)?.id}
            {...(undo?.state === 'ready' ? { undoLines: undo.value } : {})}
            {...(state.stage === 'modes' && row?.kind === 'checkpoint' ? { mode: options[state.mode]?.mode, ...(options[state.mode]?.enabled === true ? { conversation: conversationCut(checkpoints, row.checkpoint.id, props.conversationRestores) } : {}) } : {})}
          />
        </>
      ) : null}
      <Text wrap="truncate-end" dimColor={state.stage === 'modes' || state.filter === ''}>
        {line(status)}
      </Text>
      <Text dimColor wrap="truncate-end">
        {line(fitHints(hints, w))}
      </Text>
    </Box>
  );
}

/** The revert plan's keys, as its conflicts allow (undefined: not loaded, or no revert to make). */
/**
 * The help line within `width`: the keys everyone knows go first (`↑↓ move`, then the
 * scroll keys' names, then `Ctrl+C close`), before the line is cut at its end, where the way
 * back or out is (on a box narrower still, that goes too).
 */
export function fitHints(hints: string, width: number): string {
  let fitted = hints;
  for (const known of ['↑↓ move · ', '↑↓ PgUp/PgDn Space Home/End scroll · ', ' · Ctrl+C close']) {
    if (textWidth(fitted) <= width) break;
    fitted = fitted.replace(known, '');
  }
  return fitted;
}

function revertHints(conflicts: number | undefined): string {
  const scroll = '↑↓ scroll · Esc back';
  if (conflicts === undefined) return scroll;
  if (conflicts === 0) return `y or Enter revert · ${scroll} · /redo undoes it`;
  return `k: conflicted stay as they are · m: conflict markers · ${scroll}`;
}

/**
 * `2 turns, 5 steps`: the prompts' rows, and every other row (a turn's steps, folded or not,
 * and those outside a turn), so that the turns' own counts (`(2 steps)`) add up to it.
 */
export function stepCount(checkpoints: readonly PickerCheckpoint[]): string {
  const turns = checkpoints.filter((checkpoint) => checkpoint.kind === 'turn').length;
  // A session's start is where it began, no step of it: the count is what the turns' rows count, and the rest.
  const count = checkpoints.filter((checkpoint) => checkpoint.kind !== 'turn' && checkpoint.kind !== 'start').length;
  const steps = `${count} ${count === 1 ? 'step' : 'steps'}`;
  return turns > 0 ? `${turns} ${turns === 1 ? 'turn' : 'turns'}, ${steps}` : steps;
}
