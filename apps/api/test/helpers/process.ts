// Waiting on a server process's own events, never on a guess of how fast the machine is (issue 32:
// a start that took longer than 40 s on a busy machine failed the suite). The server tells a parent
// that started it with an IPC channel the moment it listens (server.ts); the wait ends then, or
// with the process's exit (an error that carries what it printed). Nothing here has a timer: the
// test's own timeout bounds the wait.
import type { ChildProcess } from 'node:child_process';

/** What server.ts sends its parent once it listens. */
export interface ListeningMessage {
  type: 'listening';
  url: string;
}

const isListening = (message: unknown): message is ListeningMessage =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'listening';

/** Resolves when `child` (spawned with an 'ipc' stdio entry) says it listens; rejects if it exits first. */
export function waitForListening(child: ChildProcess, output: () => string): Promise<ListeningMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isListening(message)) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      child.off('message', onMessage);
      reject(new Error(`the server exited (${code ?? signal}) before it listened:\n${output().slice(-3000)}`));
    };
    if (child.exitCode !== null || child.signalCode !== null) return onExit(child.exitCode, child.signalCode);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Resolves with the first line `child` prints (stdout or stderr) that matches `pattern`; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const line = seen.split('\n').find((candidate) => pattern.test(candidate));
      if (line === undefined) return;
      stopListening();
      resolve(line);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      stopListening();
      reject(new Error(`the server exited (${code ?? signal}) before printing ${pattern}:\n${output().slice(-3000)}`));
    };
    const stopListening = () => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
