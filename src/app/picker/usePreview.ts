import { useEffect, useRef, useState } from 'react';
import type { PickerPreview } from './types.js';

/** How long the selection must rest on a row before its preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 60;

export type PreviewStatus = { state: 'loading' } | { state: 'ready'; preview: PickerPreview };

function failed(error: unknown): PickerPreview {
  return { files: [], skipped: [], unsaved: [], error: error instanceof Error ? error.message : String(error) };
}

/**
 * The preview of checkpoint `id` (undefined: none wanted), loaded with `load` once the
 * selection has rested on it for PREVIEW_DEBOUNCE_MS, and kept per id for as long as the
 * component lives (a failed load is kept too, as a preview with `error`). Moving back to a row
 * shows its preview at once; a load still running is awaited, never repeated.
 */
export function usePreview(id: number | undefined, load: (id: number) => Promise<PickerPreview>): PreviewStatus | undefined {
  const loaded = useLoaded(id, load, failed);
  return loaded === undefined ? undefined : loaded.state === 'loading' ? loaded : { state: 'ready', preview: loaded.value };
}

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T };

/** `usePreview` for any value per checkpoint id (the diff of a step, say); `failed` turns an error into one. */
export function useLoaded<T>(id: number | undefined, load: (id: number) => Promise<T>, failed: (error: unknown) => T): Loaded<T> | undefined {
  const cache = useRef(new Map<number, T>()).current;
  const pending = useRef(new Map<number, Promise<void>>()).current;
  const loadRef = useRef(load);
  loadRef.current = load;
  const failedRef = useRef(failed);
  failedRef.current = failed;
  const [, setLoaded] = useState(0);

  useEffect(() => {
    if (id === undefined || cache.has(id)) return;
    let live = true;
    const redraw = (): void => {
      if (live) setLoaded((n) => n + 1);
    };
    const running = pending.get(id);
    if (running !== undefined) {
      void running.then(redraw);
      return () => {
        live = false;
      };
    }
    const timer = setTimeout(() => {
      const loading = Promise.resolve()
        .then(() => loadRef.current(id))
        .then(
          (value) => void cache.set(id, value),
          (error: unknown) => void cache.set(id, failedRef.current(error)),
        )
        .finally(() => pending.delete(id));
      pending.set(id, loading);
      void loading.then(redraw);
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, cache, pending]);

  if (id === undefined) return undefined;
  return cache.has(id) ? { state: 'ready', value: cache.get(id) as T } : { state: 'loading' };
}
