import type { ChildProcess } from 'node:child_process';

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
