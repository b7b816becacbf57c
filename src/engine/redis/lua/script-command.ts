import { reply, type Reply } from '../reply';
import { sha1Hex } from './sha1';

/**
 * SCRIPT LOAD | EXISTS | FLUSH | KILL | HELP, with Redis 7.0's replies and error texts. The
 * command layer only: compiling and the cache itself stay with the Lua engine.
 */
export interface ScriptCache {
  has(sha: string): boolean;
  /** Compiles and caches `source` under `sha`; the Redis error text on a compile error, else null. */
  load(source: string, sha: string): string | null;
  flush(): void;
}

export function scriptCommand(cache: ScriptCache, argv: readonly string[]): Reply {
  if (argv.length < 2) return reply.error("ERR wrong number of arguments for 'script' command");
  const sub = argv[1].toLowerCase();
  const arity = (ok: boolean) => (ok ? null : reply.error(`ERR wrong number of arguments for 'script|${sub}' command`));
  switch (sub) {
    case 'load': {
      const bad = arity(argv.length === 3);
      if (bad) return bad;
      const sha = sha1Hex(argv[2]);
      if (!cache.has(sha)) {
        const failure = cache.load(argv[2], sha);
        if (failure !== null) return reply.error(failure);
      }
      return reply.bulk(sha);
    }
    case 'exists': {
      const bad = arity(argv.length >= 3);
      if (bad) return bad;
      return reply.array(argv.slice(2).map((sha) => reply.integer(cache.has(sha.toLowerCase()) ? 1 : 0)));
    }
    case 'flush': {
      if (argv.length > 3 || (argv.length === 3 && !['sync', 'async'].includes(argv[2].toLowerCase()))) {
        return reply.error('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
      }
      cache.flush();
      return reply.ok();
    }
    case 'kill': {
      const bad = arity(argv.length === 2);
      if (bad) return bad;
      // Scripts run to completion within one call: when a client can send SCRIPT KILL, none runs.
      return reply.error('NOTBUSY No scripts in execution right now.');
    }
    case 'help': {
      const bad = arity(argv.length === 2);
      if (bad) return bad;
      return reply.array(SCRIPT_HELP.map((line) => reply.status(line)));
    }
    default:
      return reply.error(`ERR unknown subcommand '${argv[1]}'. Try SCRIPT HELP.`);
  }
}

const SCRIPT_HELP = [
  'SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'EXISTS <sha1> [<sha1> ...]',
  '    Return information about the existence of the scripts in the script cache.',
  'FLUSH [ASYNC|SYNC]',
  '    Flush the Lua scripts cache. Very dangerous on replicas.',
  '    When called without the optional mode argument, the behavior is determined by the',
  '    lazyfree-lazy-user-flush configuration directive. Valid modes are:',
  '    * ASYNC: Asynchronously flush the scripts cache.',
  '    * SYNC: Synchronously flush the scripts cache.',
  'KILL',
  '    Kill the currently executing Lua script.',
  'LOAD <script>',
  '    Load a script into the scripts cache without executing it.',
  'HELP',
  '    Prints this help.',
];
