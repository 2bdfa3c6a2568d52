/**
 * Progress on a terminal: a bar when the total is known, an elapsed-time spinner when it is not.
 * Both draw on one line of stderr (so stdout stays clean for results) and only when stderr is a
 * terminal; otherwise they print nothing at all.
 */

/** A progress line; `stop()` erases it. */
export interface Progress {
  /** Report `done` of `total` (a bar), or just activity (a spinner) when `total` is undefined. */
  update(done?: number, total?: number): void;
  stop(): void;
}

/** Redraws at most this often. */
const FRAME_MS = 80;
const BAR_WIDTH = 30;
const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A terminal stream (`process.stderr`), or anything with the same members for tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * A progress line labelled `label` on `stream`; silent unless `stream` is a terminal. While no
 * total is known it ticks by itself (elapsed seconds), so a long phase shows it is alive.
 */
export function progress(stream: ProgressStream, label: string, now: () => number = Date.now): Progress {
  if (stream.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const started = now();
  let last = 0;
  let frame = 0;
  let state: { done?: number | undefined; total?: number | undefined } = {};
  const draw = () => {
    last = now();
    frame++;
    const seconds = `${((last - started) / 1000).toFixed(1)} s`;
    let line: string;
    if (state.total !== undefined && state.total > 0 && state.done !== undefined) {
      const ratio = Math.min(1, state.done / state.total);
      const filled = Math.round(ratio * BAR_WIDTH);
      line = `${label} [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${Math.floor(ratio * 100)}% ${state.done}/${state.total} · ${seconds}`;
    } else {
      line = `${label} ${SPINNER[frame % SPINNER.length]} ${seconds}`;
    }
    // A terminal of unknown width (0 under some emulators) gets 80 columns.
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(10, (stream.columns || 80) - 1))}`);
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  draw();
  return {
    update(done, total) {
      state = { done, total };
      if (now() - last >= FRAME_MS || (total !== undefined && done === total)) draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}
