/**
 * A one-line progress display for the operator commands (backup, restore, media move): redrawn at most five
 * times a second on a terminal (stderr a TTY), silent otherwise, so a log or a pipe gets only the summary.
 */
export type TProgress = { update: (text: string) => void; clear: () => void };

export const createProgress = (label: string, stream: NodeJS.WriteStream = process.stderr): TProgress => {
  const tty = Boolean(stream.isTTY);
  let last = 0;
  let shown = false;

  return {
    update: (text) => {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      const line = `${label} ${text}`;
      stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, (stream.columns ?? 100) - 1))}`);
    },
    clear: () => {
      if (tty && shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
};

/** bytes as a short human figure */
export const formatBytes = (bytes: number) => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }

  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
};

/** the named options of a command line: `--name value`, `--name=value`, a bare `--flag` is 'true' */
export const parseArgs = (argv: string[]) => {
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) options[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('--')) {
      options[arg.slice(2)] = argv[i + 1] as string;
      i += 1;
    } else options[arg.slice(2)] = 'true';
  }

  return options;
};
