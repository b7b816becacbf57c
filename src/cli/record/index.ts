import fs from 'node:fs';
import { startRecordingProxy } from './proxy';

/** `lockstep record`: a recording proxy in front of Redis until Ctrl-C (docs/HISTORIES.md). */
export interface RecordCommand {
  readonly listenHost: string;
  readonly listenPort: number;
  readonly redis: string;
  readonly out: string;
}

export interface RecordIo {
  readonly stderr: { write(text: string): unknown };
  readonly signal: AbortSignal;
}

export async function runRecord(command: RecordCommand, io: RecordIo): Promise<number> {
  const url = new URL(command.redis);
  if (url.protocol === 'rediss:') {
    io.stderr.write('lockstep: record speaks plain TCP to Redis; a TLS server (rediss://) is not supported yet\n');
    return 2;
  }
  let fd: number;
  try {
    fd = fs.openSync(command.out, 'a');
  } catch (error) {
    io.stderr.write(`lockstep: cannot write ${command.out}: ${(error as Error).message}\n`);
    return 2;
  }
  const out = fs.createWriteStream('', { fd });
  let proxy;
  try {
    proxy = await startRecordingProxy({
      listenHost: command.listenHost,
      listenPort: command.listenPort,
      upstream: { host: url.hostname, port: Number(url.port === '' ? 6379 : url.port) },
      write: (line) => out.write(`${line}\n`),
      onProblem: (message) => io.stderr.write(`lockstep record: ${message}\n`),
    });
  } catch (error) {
    io.stderr.write(`lockstep: cannot listen on ${command.listenHost}:${command.listenPort}: ${(error as Error).message}\n`);
    out.end();
    return 2;
  }
  io.stderr.write(`recording: clients connect to ${command.listenHost}:${proxy.port}, commands go to ${url.host}, lines go to ${command.out}; Ctrl-C stops\n`);
  await new Promise<void>((resolve) => (io.signal.aborted ? resolve() : io.signal.addEventListener('abort', () => resolve(), { once: true })));
  await proxy.close();
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const { connections, commands } = proxy.stats();
  io.stderr.write(`recorded ${commands} commands from ${connections} connections to ${command.out}; check it with: lockstep check ${command.out}\n`);
  return 0;
}
