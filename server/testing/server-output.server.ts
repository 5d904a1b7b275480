import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * For tests that start the real server (`node server/start.ts`) as a child
 * process: collects everything it prints, and resolves with the port it
 * listens on once it logs `{ port, msg: 'Listening on …' }` (at info level,
 * so give the child LOG_LEVEL=info and PORT=0 for a free port). Rejects,
 * with the output, if the process exits first or, with `timeoutMs`, does
 * not listen in time.
 */
export interface ServerOutput {
  /** The port from the 'Listening' line. */
  port: Promise<number>;
  /** Everything printed so far, stdout and stderr. */
  text: () => string;
}

const LISTENING = /"port":(\d+)[^\n]*"msg":"Listening on/;

export function watchServerOutput(
  child: ChildProcess,
  options: { timeoutMs?: number } = {},
): ServerOutput {
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => reject(new Error(`server did not start:\n${output}`)),
            options.timeoutMs,
          );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
  // A rejection after the port was read is nobody's business.
  port.catch(() => undefined);
  return { port, text: () => output };
}

/**
 * Every process below `pid` now, as `<pid> <command line>` (Linux: each
 * process's parent, from /proc).
 */
export function descendantsOf(pid: number): string[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Ended meanwhile.
    }
    // "pid (name) state ppid …": the name may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: string[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    let command = '';
    try {
      command = readFileSync(`/proc/${next}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      // Ended meanwhile.
    }
    found.push(`${next} ${command}`);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}
