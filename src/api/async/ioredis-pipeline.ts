/**
 * ioredis 5.11.1's Pipeline and multi() (built/Pipeline.js, built/transaction.js): commands are
 * queued and go out at exec(), in order, on the client's connection (each one action of the
 * client here, so a schedule may run other clients between them, as the network may).
 * A pipeline's exec() resolves with `[null, value]` or `[error]` per command; multi()'s writes
 * MULTI, the commands and EXEC, and resolves with EXEC's array as such pairs (null when a
 * WATCHed key changed), or rejects with EXEC's error (EXECABORT, with `previousErrors`).
 */
import type { Connection, Script } from './ioredis-connection';
import { asCallback, replyValue, splitCallback, transformReply, wireArgs, wrapMultiResult, type ReplyEncoding } from './ioredis-wire';
import type { Reply } from '../../engine/redis/reply';

interface Queued {
  readonly name: string;
  readonly encoding: ReplyEncoding;
  /** Sends the command (at exec time); settles with its value. */
  readonly send: () => Promise<unknown>;
  readonly callback: unknown;
}

type Pair = [Error] | [null, unknown];

function settle(promise: Promise<unknown>): Promise<Pair> {
  return promise.then(
    (value): Pair => [null, value],
    (error: Error): Pair => [error],
  );
}

export interface PipelineParts {
  readonly conn: Connection;
  /** Builtin command names offered as methods (each with its `...Buffer` twin). */
  readonly commands: readonly string[];
  /** The client's defined commands when the pipeline was made (Pipeline's constructor copies them). */
  readonly scripts: ReadonlyMap<string, Script>;
}

/** A pipeline (transaction false) or multi() (true), with `initial` as in `pipeline([['set', 'k', 'v'], ...])`. */
export function createPipeline(parts: PipelineParts, transaction: boolean, initial: unknown): Record<string, unknown> {
  const { conn } = parts;
  const queue: Queued[] = [];
  const pipeline: Record<string, unknown> = {};
  const add = (name: string, encoding: ReplyEncoding, args: unknown[], send: (rest: unknown[]) => Promise<unknown>) => {
    const split = splitCallback(args);
    queue.push({ name, encoding, send: () => send(split.args), callback: split.callback });
    return pipeline;
  };
  const builtin = (name: string, encoding: ReplyEncoding) => (...args: unknown[]) =>
    add(name, encoding, args, (rest) => {
      const argv = wireArgs(name, rest);
      return conn.send(name, argv, transaction ? 'utf8' : encoding);
    });
  for (const name of parts.commands) {
    pipeline[name] = builtin(name, 'utf8');
    pipeline[`${name}Buffer`] = builtin(name, 'buffer');
  }
  pipeline.call = (name: string, ...args: unknown[]) => builtin(name, 'utf8')(...args);
  pipeline.callBuffer = (name: string, ...args: unknown[]) => builtin(name, 'buffer')(...args);
  for (const [name, script] of parts.scripts) {
    pipeline[name] = (...args: unknown[]) => add('evalsha', 'utf8', args, (rest) => script.execute(conn, rest, 'utf8'));
    pipeline[`${name}Buffer`] = (...args: unknown[]) => add('evalsha', 'buffer', args, (rest) => script.execute(conn, rest, 'buffer'));
  }
  if (Array.isArray(initial)) {
    for (const command of initial as unknown[][]) (pipeline[String(command[0])] as (...a: unknown[]) => unknown)(...command.slice(1));
  }
  // As ioredis counts its queue: multi() has queued MULTI already; EXEC joins at exec().
  Object.defineProperty(pipeline, 'length', { get: () => queue.length + (transaction ? 1 : 0) });
  let sent: Promise<unknown> | null = null;
  pipeline.exec = (callback?: unknown) => {
    sent ??= transaction ? execTransaction(conn, queue) : execPipeline(queue);
    return asCallback(sent, callback);
  };
  return pipeline;
}

function execPipeline(queue: readonly Queued[]): Promise<Pair[]> {
  return Promise.all(
    queue.map((q) => {
      const promise = q.send();
      asCallback(promise, q.callback);
      return settle(promise);
    }),
  );
}

/**
 * MULTI, the queued commands (each answered QUEUED) and EXEC, written together. EXEC's values are
 * turned into each command's reply shape (its encoding, its transformer), errors left as they are.
 */
function execTransaction(conn: Connection, queue: readonly Queued[]): Promise<Pair[] | null> {
  const multi = settle(conn.send('multi', [], 'utf8'));
  const queued = queue.map((q) => {
    const promise = q.send();
    asCallback(promise, q.callback);
    return settle(promise);
  });
  // EXEC goes as execBuffer: its array stays raw here and each value takes its own command's shape.
  let reply: Reply | null = null;
  const exec = settle(conn.sendRaw('exec', []).then((r) => void (reply = r)));
  return Promise.all([multi, ...queued, exec]).then((results) => {
    const execResult = results[results.length - 1];
    if (execResult[0]) {
      const error = execResult[0] as Error & { previousErrors?: Error[] };
      error.previousErrors = results.slice(0, -1).flatMap((r) => (r[0] ? [r[0]] : []));
      throw error;
    }
    const got = reply as Reply | null;
    if (got === null || got.type !== 'array') return null;
    const values = got.value.map((r, i) => {
      const value = replyValue(r, queue[i]?.encoding ?? 'utf8');
      return value instanceof Error ? value : transformReply(queue[i]?.name ?? '', value);
    });
    return wrapMultiResult(values);
  });
}
