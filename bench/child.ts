import type { ChildProcess } from 'node:child_process';

/** The next IPC message of `type` from a benchmark's child process; rejects if the child exits first. */
export function message(child: ChildProcess, type: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const on = (m: any) => {
      if (m?.type !== type) return;
      child.off('message', on);
      child.off('exit', gone);
      resolve(m);
    };
    const gone = () => reject(new Error(`process exited waiting for '${type}'`));
    child.on('message', on);
    child.once('exit', gone);
  });
}
